/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* dpdk-test-pmu: count events around a workload on every worker lcore and
 * print, per lcore, each event's total and per-iteration value, how the
 * library reads it, and what one rte_pmu_read() costs.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include <rte_pmu.h>

#include "list.h"
#include "workload.h"

#define DEFAULT_EVENTS "cycles,instructions"
#define FALLBACK_EVENTS "task-clock,context-switches,page-faults"
#define DEFAULT_ITERATIONS 1000000
/* Back-to-back reads timed to give the cost of one rte_pmu_read(). */
#define READ_COST_READS 100000
/* Room for the text the library logs while adding one event. */
#define HINT_LEN 512

static const char *prgname = "dpdk-test-pmu";
static const char *opt_events = DEFAULT_EVENTS;
static bool opt_events_given;
static bool opt_list;
static uint64_t opt_iterations = DEFAULT_ITERATIONS;
static const struct workload *opt_workload;

/* Events counted: name as given and index from rte_pmu_add_event(). */
static const char *ev_names[RTE_MAX_NUM_GROUP_EVENTS];
static unsigned int ev_index[RTE_MAX_NUM_GROUP_EVENTS];
static unsigned int ev_count;

/* What one lcore measured, written only by that lcore. */
struct lcore_result {
	bool ran;
	int work_ret;                   /* 0, or negative errno of the workload */
	int status;                     /* rte_pmu_lcore_status() after the run */
	int info_ret;                   /* rte_pmu_lcore_info_get() */
	uint64_t before[RTE_MAX_NUM_GROUP_EVENTS];
	uint64_t after[RTE_MAX_NUM_GROUP_EVENTS];
	uint64_t work_tsc;              /* TSC cycles of the workload */
	uint64_t read_tsc;              /* TSC cycles of READ_COST_READS reads */
	volatile uint64_t sink;         /* keeps results alive */
	struct rte_pmu_lcore_info info;
} __rte_cache_aligned;

static struct lcore_result results[RTE_MAX_LCORE];

static void
usage(void)
{
	printf("Usage: %s [EAL options] -- [--events LIST] [--iterations N] "
		"[--workload NAME] [--help]\n"
		"  --events LIST    comma-separated events (default " DEFAULT_EVENTS ";\n"
		"                   without a hardware PMU: " FALLBACK_EVENTS ")\n"
		"  --iterations N   workload iterations per lcore, N > 0 (default %d)\n"
		"  --workload NAME  one of:\n", prgname, DEFAULT_ITERATIONS);
	workload_list(stdout, "                     ");
	printf("  --list, -L       list the events names can refer to here, and whether\n"
		"                   each opens, then exit\n"
		"  --help           print this text\n"
		"The workload runs on every worker lcore (on the main lcore when there\n"
		"is none); each lcore reports its counts, read paths and read cost.\n");
}

static int
parse_iterations(const char *arg, uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull() accepts a sign and blanks: take digits only. */
	if (arg[0] < '0' || arg[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno != 0)
		return -errno;
	if (*end != '\0' || v == 0)
		return -EINVAL;
	*out = v;

	return 0;
}

/* A comma-separated list without empty names. */
static bool
list_valid(const char *list)
{
	size_t len = strlen(list);

	return len != 0 && list[0] != ',' && list[len - 1] != ',' &&
		strstr(list, ",,") == NULL;
}

/* Returns 0 to run, 1 when --help was asked, -1 on a usage error. */
static int
parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "events", required_argument, NULL, 'e' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "workload", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ "list", no_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "L", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			if (!list_valid(optarg)) {
				fprintf(stderr, "%s: invalid --events '%s': want names separated "
					"by single commas\n", prgname, optarg);
				return -1;
			}
			opt_events = optarg;
			opt_events_given = true;
			break;
		case 'n':
			if (parse_iterations(optarg, &opt_iterations) != 0) {
				fprintf(stderr, "%s: invalid --iterations '%s': want an integer "
					"from 1 to %" PRIu64 "\n", prgname, optarg, UINT64_MAX);
				return -1;
			}
			break;
		case 'w':
			opt_workload = workload_find(optarg);
			if (opt_workload == NULL) {
				fprintf(stderr, "%s: unknown --workload '%s'; one of:\n",
					prgname, optarg);
				workload_list(stderr, "  ");
				return -1;
			}
			break;
		case 'h':
			return 1;
		case 'L':
			opt_list = true;
			break;
		default:
			fprintf(stderr, "%s: try --help\n", prgname);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'; try --help\n", prgname,
			argv[optind]);
		return -1;
	}
	if (opt_workload == NULL)
		opt_workload = workload_find(NULL);

	return 0;
}

/* Add one event, catching what the library logs about it in @p hint (one
 * line, "" when nothing). On success the caught text goes to the log as
 * usual, so that --log-level=lib.pmu:debug loses nothing.
 */
static int
add_event(const char *name, char *hint, size_t len)
{
	char *text = NULL, *line, *save;
	size_t size = 0, n;
	FILE *mem;
	int ret;

	hint[0] = '\0';
	mem = open_memstream(&text, &size);
	if (mem == NULL)
		return rte_pmu_add_event(name);

	rte_openlog_stream(mem);
	ret = rte_pmu_add_event(name);
	/* This program never sets a log stream of its own: back to EAL's. */
	rte_openlog_stream(NULL);
	fclose(mem);
	if (text == NULL)
		return ret;

	if (ret >= 0) {
		fputs(text, rte_log_get_stream());
		fflush(rte_log_get_stream());
	} else {
		/* One line: lines joined with "; ", the library's "PMU: " dropped. */
		for (line = strtok_r(text, "\n", &save); line != NULL;
				line = strtok_r(NULL, "\n", &save)) {
			if (strncmp(line, "PMU: ", 5) == 0)
				line += 5;
			n = strlen(hint);
			snprintf(hint + n, len - n, "%s%s", n != 0 ? "; " : "", line);
		}
	}
	free(text);

	return ret;
}

/* Events of a list that could not be added, summed up for one line. */
struct add_failures {
	char text[1024];        /* "name: reason, name: reason" */
	char hint[HINT_LEN];    /* what the library logged about the first one */
	bool no_pmu;            /* every reason says the event does not exist here */
};

/* Add every event of @p list. With @p fails, failures are summed up there
 * for the caller; otherwise each is reported on its own line.
 * Returns the number of events added.
 */
static int
add_events(char *list, struct add_failures *fails)
{
	char hint[HINT_LEN];
	char *name, *save;
	unsigned int i;
	int added = 0;
	size_t n;
	int ret;

	if (fails != NULL) {
		fails->text[0] = '\0';
		fails->hint[0] = '\0';
		fails->no_pmu = true;
	}
	for (name = strtok_r(list, ",", &save); name != NULL;
			name = strtok_r(NULL, ",", &save)) {
		ret = add_event(name, hint, sizeof(hint));
		if (ret < 0 && fails != NULL) {
			n = strlen(fails->text);
			snprintf(fails->text + n, sizeof(fails->text) - n, "%s%s: %s",
				n != 0 ? ", " : "", name, strerror(-ret));
			if (fails->hint[0] == '\0')
				snprintf(fails->hint, sizeof(fails->hint), "%s", hint);
			if (ret != -ENOENT && ret != -EOPNOTSUPP)
				fails->no_pmu = false;
			continue;
		}
		if (ret < 0) {
			printf("event %s: dropped: %s%s%s%s\n", name, strerror(-ret),
				hint[0] != '\0' ? " (" : "", hint, hint[0] != '\0' ? ")" : "");
			continue;
		}
		for (i = 0; i < ev_count; i++)
			if (ev_index[i] == (unsigned int)ret)
				break;
		if (i < ev_count) {
			printf("event %s: given twice, counted once\n", name);
			continue;
		}
		ev_names[ev_count] = name;
		ev_index[ev_count] = ret;
		ev_count++;
		added++;
	}

	return added;
}

/* Add the events asked for; without --events, fall back to software events
 * when none of the default (hardware) ones can be counted.
 */
static int
setup_events(void)
{
	static char fallback[] = FALLBACK_EVENTS;
	struct add_failures fails;
	char *list;

	/* Names are kept in ev_names[]: the list lives until exit. */
	list = strdup(opt_events);
	if (list == NULL)
		return -ENOMEM;
	if (add_events(list, opt_events_given ? NULL : &fails) > 0) {
		if (!opt_events_given && fails.text[0] != '\0')
			printf("dropped events: %s%s%s%s\n", fails.text,
				fails.hint[0] != '\0' ? " (" : "", fails.hint,
				fails.hint[0] != '\0' ? ")" : "");
		return 0;
	}
	if (opt_events_given) {
		fprintf(stderr, "%s: none of the events '%s' can be counted here\n",
			prgname, opt_events);
		return -ENOENT;
	}

	printf("%s: %s%s%s%s; falling back to software events %s\n",
		fails.no_pmu ? "no hardware PMU here" : "default events unavailable",
		fails.text, fails.hint[0] != '\0' ? " (" : "", fails.hint,
		fails.hint[0] != '\0' ? ")" : "", FALLBACK_EVENTS);
	if (add_events(fallback, NULL) > 0)
		return 0;
	fprintf(stderr, "%s: the software events cannot be counted either\n", prgname);

	return -ENOENT;
}

static int
lcore_run(void *arg __rte_unused)
{
	unsigned int lcore_id = rte_lcore_id();
	struct lcore_result *r = &results[lcore_id];
	uint64_t start, sum = 0;
	unsigned int i;
	void *ctx = NULL;

	r->ran = true;
	r->work_ret = opt_workload->prepare(&ctx);
	if (r->work_ret != 0)
		return -1;

	/* The first read opens this lcore's group. */
	for (i = 0; i < ev_count; i++)
		sum += rte_pmu_read(ev_index[i]);

	for (i = 0; i < ev_count; i++)
		r->before[i] = rte_pmu_read(ev_index[i]);
	start = rte_rdtsc();
	sum += opt_workload->run(ctx, opt_iterations);
	r->work_tsc = rte_rdtsc() - start;
	for (i = 0; i < ev_count; i++)
		r->after[i] = rte_pmu_read(ev_index[i]);

	start = rte_rdtsc();
	for (i = 0; i < READ_COST_READS; i++)
		sum += rte_pmu_read(ev_index[0]);
	r->read_tsc = rte_rdtsc() - start;

	r->sink = sum;
	opt_workload->release(ctx);
	r->info_ret = rte_pmu_lcore_info_get(lcore_id, &r->info);
	r->status = rte_pmu_lcore_status(lcore_id);

	return 0;
}

static double
tsc_to_ns(uint64_t tsc)
{
	return (double)tsc * 1e9 / (double)rte_get_tsc_hz();
}

/* First event whose name is one of @p names, or -1. */
static int
find_event(const char *const names[])
{
	unsigned int i, j;

	for (i = 0; i < ev_count; i++)
		for (j = 0; names[j] != NULL; j++)
			if (strcmp(ev_names[i], names[j]) == 0)
				return i;

	return -1;
}

static void
format_path(const struct rte_pmu_event_info *ev, char *buf, size_t len)
{
	int n;

	switch (ev->path) {
	case RTE_PMU_PATH_USER:
		n = snprintf(buf, len, "user page (index %u, width %u)", ev->user_index,
			ev->pmc_width);
		break;
	case RTE_PMU_PATH_SYSCALL:
		n = snprintf(buf, len, "read()");
		break;
	default:
		n = snprintf(buf, len, "none");
		break;
	}
	if (ev->multiplexed && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, ", multiplexed (running %.1f%%)",
			ev->time_enabled != 0 ?
			100.0 * ev->time_running / ev->time_enabled : 0.0);
}

/* Print one lcore's results. Returns 0, or -1 if the lcore failed. */
static int
report_lcore(unsigned int lcore_id)
{
	static const char *const cycles_names[] = { "cycles", "cpu-cycles", "cpu_cycles", NULL };
	static const char *const instr_names[] = { "instructions", "inst_retired", NULL };
	const struct lcore_result *r = &results[lcore_id];
	int64_t total[RTE_MAX_NUM_GROUP_EVENTS];
	int width = (int)strlen("event");
	double ns = tsc_to_ns(r->work_tsc);
	int cyc, ins, ret = 0;
	char path[128];
	unsigned int i;

	if (r->work_ret != 0) {
		printf("lcore %u: workload %s failed: %s\n", lcore_id, opt_workload->name,
			strerror(-r->work_ret));
		return -1;
	}
	if (r->status < 0) {
		printf("lcore %u: group not open: %s\n", lcore_id, strerror(-r->status));
		return -1;
	}

	printf("lcore %u: %s x %" PRIu64 " in %.3f ms (%.3f ns/iteration)\n", lcore_id,
		opt_workload->name, opt_iterations, ns / 1e6, ns / (double)opt_iterations);
	if (r->status != 1) {
		printf("  group not open after reads (status %d)\n", r->status);
		ret = -1;
	}
	if (r->info_ret != 0) {
		printf("  rte_pmu_lcore_info_get: %s\n", strerror(-r->info_ret));
		ret = -1;
	}

	for (i = 0; i < ev_count; i++)
		width = RTE_MAX(width, (int)strlen(ev_names[i]));
	printf("  %-*s %16s %14s  %s\n", width, "event", "total", "per-iteration", "read path");
	for (i = 0; i < ev_count; i++) {
		total[i] = (int64_t)(r->after[i] - r->before[i]);
		if (r->info_ret == 0 && ev_index[i] < r->info.num_events)
			format_path(&r->info.events[ev_index[i]], path, sizeof(path));
		else
			snprintf(path, sizeof(path), "?");
		printf("  %-*s %16" PRId64 " %14.3f  %s\n", width, ev_names[i], total[i],
			(double)total[i] / (double)opt_iterations, path);
	}

	cyc = find_event(cycles_names);
	ins = find_event(instr_names);
	if (cyc >= 0 && ins >= 0) {
		if (total[cyc] > 0)
			printf("  IPC: %.3f\n", (double)total[ins] / (double)total[cyc]);
		else
			printf("  IPC: n/a (no cycles counted)\n");
	}
	printf("  read cost: %.1f ns/read (%d reads of %s, %" PRIu64 " left the fast path)\n",
		tsc_to_ns(r->read_tsc) / READ_COST_READS, READ_COST_READS, ev_names[0],
		r->info_ret == 0 ? r->info.slow_reads : 0);

	return ret;
}

int
main(int argc, char **argv)
{
	int ret, status = EXIT_FAILURE;
	unsigned int lcore_id, i;
	unsigned int workers;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "%s: rte_eal_init failed: %s\n", prgname,
			strerror(rte_errno));
		return EXIT_FAILURE;
	}
	argc -= ret;
	argv += ret;
	prgname = basename(argv[0]);

	ret = parse_args(argc, argv);
	if (ret != 0) {
		if (ret > 0) {
			usage();
			status = EXIT_SUCCESS;
		}
		rte_eal_cleanup();
		return status;
	}

	ret = rte_pmu_init();
	if (ret != 0) {
		fprintf(stderr, "%s: rte_pmu_init failed: %s\n", prgname, strerror(-ret));
		rte_eal_cleanup();
		return EXIT_FAILURE;
	}
	if (opt_list) {
		status = list_events(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
		goto out;
	}
	if (setup_events() != 0)
		goto out;

	workers = rte_lcore_count() - 1;
	printf("workload %s, %" PRIu64 " iterations, on %u %s lcore(s); events:",
		opt_workload->name, opt_iterations, workers != 0 ? workers : 1,
		workers != 0 ? "worker" : "main");
	for (i = 0; i < ev_count; i++)
		printf("%s%s", i == 0 ? " " : ",", ev_names[i]);
	printf("\n");

	if (workers == 0) {
		lcore_run(NULL);
	} else {
		RTE_LCORE_FOREACH_WORKER(lcore_id) {
			ret = rte_eal_remote_launch(lcore_run, NULL, lcore_id);
			if (ret != 0) {
				fprintf(stderr, "%s: cannot launch lcore %u: %s\n", prgname,
					lcore_id, strerror(-ret));
				rte_eal_mp_wait_lcore();
				goto out;
			}
		}
		rte_eal_mp_wait_lcore();
	}

	status = EXIT_SUCCESS;
	for (lcore_id = 0; lcore_id < RTE_MAX_LCORE; lcore_id++) {
		if (results[lcore_id].ran && report_lcore(lcore_id) != 0)
			status = EXIT_FAILURE;
	}

out:
	rte_pmu_fini();
	rte_eal_cleanup();

	return status;
}
