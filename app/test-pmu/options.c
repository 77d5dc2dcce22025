/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_version.h>

#include "events.h"
#include "options.h"

#define DEFAULT_ITERATIONS 1000000
/* Workload iterations between two reads when running continuously. */
#define DEFAULT_ROUND_ITERATIONS 10000
#define MIN_INTERVAL_MS 10
#define MAX_INTERVAL_MS 3600000
#define MAX_DURATION_S 31536000
/* perf stat's lower bound; the upper one is --duration's. */
#define MIN_TIMEOUT_MS 10
#define MAX_TIMEOUT_MS 31536000000ULL

#define MAX_REPEAT 100000

/* The letters are perf stat's, and mean what they mean there; the tool's
 * own options are long only. A new option takes a line in longopts (and a
 * letter in shortopts when perf stat has it).
 */
enum {
	OPT_ITERATIONS = 256,
	OPT_WORKLOAD,
	OPT_DURATION,
	OPT_TIMEOUT,
	OPT_CSV,
	OPT_JSON,
	OPT_RAW,
	OPT_LIST,
	OPT_VERSION,
};

static const struct option longopts[] = {
	{ "events", required_argument, NULL, 'e' },
	{ "event", required_argument, NULL, 'e' },
	{ "field-separator", required_argument, NULL, 'x' },
	{ "json-output", no_argument, NULL, 'j' },
	{ "interval-print", required_argument, NULL, 'I' },
	{ "interval", required_argument, NULL, 'I' },
	{ "repeat", required_argument, NULL, 'r' },
	{ "output", required_argument, NULL, 'o' },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "no-aggr", no_argument, NULL, 'A' },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "iterations", required_argument, NULL, OPT_ITERATIONS },
	{ "workload", required_argument, NULL, OPT_WORKLOAD },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "raw", no_argument, NULL, OPT_RAW },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
static const char shortopts[] = "e:x:jI:r:o:aAh";

void
tool_options_usage(FILE *f, const char *prgname)
{
	fprintf(f, "Usage: %s [EAL options] -- [options]\n"
		"perf stat's options, as perf stat has them:\n"
		"  -e, --events LIST     comma-separated events (default " TOOL_DEFAULT_EVENTS ";\n"
		"                        when none of those opens: " TOOL_FALLBACK_TSC " first\n"
		"                        where it opens, then " TOOL_FALLBACK_EVENTS ");\n"
		"                        -e again adds its events after those before\n"
		"  -x, --field-separator SEP\n"
		"                        perf stat's CSV, fields separated by SEP: no header,\n"
		"                        value,unit,event,run-time,percent-running,\n"
		"                        metric-value,metric-unit, then net-of-read-cost or\n"
		"                        raw; the total, or with -A a line per lcore (first\n"
		"                        field lcoreN), after the time with -I\n"
		"  -j, --json-output     perf stat's JSON lines: an object per event (per lcore\n"
		"                        with -A), \"net-of-read-cost\": true or false\n"
		"  -I, --interval MS     print the counts of every MS milliseconds\n"
		"                        (%d to %d) while the workload runs on and on\n"
		"  -r, --repeat N        run N times (1 to %d), report the mean of each\n"
		"                        figure and its spread (+- stddev of the mean, %%);\n"
		"                        with -I, each run's intervals in turn\n"
		"  -o, --output FILE     write the report to FILE, not to stdout\n"
		"  -A, --no-aggr         a line per lcore, no total (-x, -j and the table)\n"
		"  -a, --all-cpus        refused: the tool counts on the lcores of EAL's -l\n"
		"                        or --lcores, every worker among them\n"
		"      --timeout MS      stop after MS milliseconds (%d to %llu)\n"
		"                        and report the counts so far: the workload runs in\n"
		"                        rounds, as with --duration (the earlier of the two\n"
		"                        ends the run); with -r, each run; not with -I\n"
		"The tool's own options:\n"
		"  --iterations N        workload iterations per lcore, N > 0 (default %d;\n"
		"                        with -I, --duration or --timeout: per round between\n"
		"                        two reads, default %d)\n"
		"  --workload NAME       one of:\n", prgname, MIN_INTERVAL_MS, MAX_INTERVAL_MS,
		MAX_REPEAT, MIN_TIMEOUT_MS, MAX_TIMEOUT_MS, DEFAULT_ITERATIONS,
		DEFAULT_ROUND_ITERATIONS);
	workload_list(f, "                          ");
	fprintf(f, "  --duration SEC        run the workload continuously for SEC seconds\n"
		"                        (1 to %d); with -I and no --duration: until\n"
		"                        SIGINT/SIGTERM\n"
		"  --csv                 the tool's own CSV, with commas: a header, then a\n"
		"                        row per lcore (and total) and event, every figure,\n"
		"                        then per stage, lcore and event\n"
		"  --json                the tool's own JSON: one object per report (per\n"
		"                        interval with -I), every figure\n"
		"  --raw                 do not subtract the measured read overhead\n"
		"  --list                list the events names can refer to here, whether\n"
		"                        each opens and how it is read, then exit\n"
		"  --version             print the version, then exit\n"
		"  -h, --help            print this text (before or after \"--\")\n"
		"The workload runs on every worker lcore (on the main lcore when there is\n"
		"none; -I, --duration and --timeout need a worker). Each lcore first\n"
		"times back-to-back reads of its events; that read overhead is subtracted\n"
		"from every figure (--raw: not), which -x, -j, --csv and --json say.\n",
		MAX_DURATION_S);
}

void
tool_options_version(const char *prgname)
{
	printf("%s (rte_pmu) %s, %s\n", prgname, TOOL_VERSION, rte_version());
}

/* Decimal digits only, from @p min to @p max. */
static int
parse_uint(const char *arg, uint64_t min, uint64_t max, uint64_t *out)
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
	if (*end != '\0' || v < min || v > max)
		return -ERANGE;
	*out = v;

	return 0;
}

/* A comma-separated list without empty names. */
static int
list_valid(const char *list)
{
	size_t len = strlen(list);

	return len != 0 && list[0] != ',' && list[len - 1] != ',' &&
		strstr(list, ",,") == NULL;
}

/* The first name @p list (valid) gives twice, its length in @p len; NULL
 * when every name is given once. Names compare as written.
 */
static const char *
list_repeated(const char *list, size_t *len)
{
	const char *name, *other;
	size_t n, m;

	for (name = list; *name != '\0'; name += n + (name[n] == ',')) {
		n = rte_pmu_event_name_len(name);
		for (other = name + n; *other == ','; other += m + 1) {
			m = rte_pmu_event_name_len(other + 1);
			if (m == n && strncmp(other + 1, name, n) == 0) {
				*len = n;
				return name;
			}
		}
	}

	return NULL;
}

/* Add the names of @p list (valid) after those of the -e options before it,
 * as perf stat does with each -e. Returns -ENOMEM when the list cannot grow.
 */
static int
events_add(struct tool_options *opts, const char *list)
{
	size_t had = opts->events_given ? strlen(opts->events) + 1 : 0;
	char *all;

	all = realloc(opts->events_list, had + strlen(list) + 1);
	if (all == NULL)
		return -ENOMEM;
	if (had != 0)
		all[had - 1] = ',';
	strcpy(all + had, list);
	opts->events_list = all;
	opts->events = all;
	opts->events_given = true;

	return 0;
}

static int
parse_one(int opt, const char *prgname, struct tool_options *opts)
{
	const char *name;
	uint64_t v;
	size_t len;

	switch (opt) {
	case 'e':
		if (!list_valid(optarg)) {
			fprintf(stderr, "%s: invalid --events '%s': want names separated "
				"by single commas\n", prgname, optarg);
			return -1;
		}
		if (events_add(opts, optarg) != 0) {
			fprintf(stderr, "%s: -e '%s': %s\n", prgname, optarg, strerror(ENOMEM));
			return -1;
		}
		name = list_repeated(opts->events, &len);
		if (name != NULL) {
			fprintf(stderr, "%s: invalid --events '%s': '%.*s' is given twice\n",
				prgname, opts->events, (int)len, name);
			return -1;
		}
		return 0;
	case OPT_ITERATIONS:
		if (parse_uint(optarg, 1, UINT64_MAX, &opts->iterations) != 0) {
			fprintf(stderr, "%s: invalid --iterations '%s': want an integer "
				"from 1 to %" PRIu64 "\n", prgname, optarg, UINT64_MAX);
			return -1;
		}
		opts->iterations_given = true;
		return 0;
	case OPT_WORKLOAD:
		opts->workload = workload_find(optarg);
		if (opts->workload != NULL)
			return 0;
		fprintf(stderr, "%s: unknown --workload '%s'; one of:\n", prgname, optarg);
		workload_list(stderr, "  ");
		return -1;
	case 'I':
		if (parse_uint(optarg, MIN_INTERVAL_MS, MAX_INTERVAL_MS,
				&opts->interval_ms) == 0)
			return 0;
		fprintf(stderr, "%s: invalid --interval '%s': want milliseconds, an integer "
			"from %d to %d\n", prgname, optarg, MIN_INTERVAL_MS, MAX_INTERVAL_MS);
		return -1;
	case OPT_DURATION:
		if (parse_uint(optarg, 1, MAX_DURATION_S, &opts->duration_s) == 0)
			return 0;
		fprintf(stderr, "%s: invalid --duration '%s': want seconds, an integer "
			"from 1 to %d\n", prgname, optarg, MAX_DURATION_S);
		return -1;
	case OPT_TIMEOUT:
		if (parse_uint(optarg, MIN_TIMEOUT_MS, MAX_TIMEOUT_MS, &opts->timeout_ms) == 0)
			return 0;
		fprintf(stderr, "%s: invalid --timeout '%s': want milliseconds, an integer "
			"from %d to %llu\n", prgname, optarg, MIN_TIMEOUT_MS, MAX_TIMEOUT_MS);
		return -1;
	case 'x':
	case OPT_CSV:
	case 'j':
	case OPT_JSON:
		if (opts->format != TOOL_FORMAT_TABLE) {
			fprintf(stderr, "%s: -x, -j, --csv and --json exclude each other\n",
				prgname);
			return -1;
		}
		if (opt == 'x' && optarg[0] == '\0') {
			fprintf(stderr, "%s: invalid -x '': want a separator\n", prgname);
			return -1;
		}
		opts->format = opt == 'x' ? TOOL_FORMAT_PERF_CSV : opt == 'j' ?
			TOOL_FORMAT_PERF_JSON : opt == OPT_CSV ? TOOL_FORMAT_CSV : TOOL_FORMAT_JSON;
		opts->csv_sep = opt == 'x' ? optarg : ",";
		return 0;
	case 'r':
		if (parse_uint(optarg, 1, MAX_REPEAT, &v) == 0) {
			opts->repeat = (unsigned int)v;
			return 0;
		}
		fprintf(stderr, "%s: invalid --repeat '%s': want an integer from 1 to %d\n",
			prgname, optarg, MAX_REPEAT);
		return -1;
	case 'o':
		opts->output = optarg;
		return 0;
	case 'a':
		/* perf stat's system-wide count: the tool counts its own lcores. */
		fprintf(stderr, "%s: -a (--all-cpus) is refused: the tool counts on its lcores, "
			"every worker of EAL's -l or --lcores (give those; -A: a line per "
			"lcore)\n", prgname);
		return -1;
	case 'A':
		opts->no_aggr = true;
		return 0;
	case OPT_LIST:
		opts->list = true;
		return 0;
	case OPT_RAW:
		opts->raw = true;
		return 0;
	default:
		/* getopt_long() already named the option. */
		return -1;
	}
}

int
tool_options_parse(int argc, char **argv, struct tool_options *opts)
{
	const char *prgname = argv[0];
	bool version = false;
	int opt;

	memset(opts, 0, sizeof(*opts));
	opts->events = TOOL_DEFAULT_EVENTS;
	opts->iterations = DEFAULT_ITERATIONS;
	opts->repeat = 1;

	optind = 1;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (opt == 'h') {
			tool_options_usage(stdout, prgname);
			return 1;
		}
		if (opt == OPT_VERSION) {
			/* After the other options: --help among them wins. */
			version = true;
			continue;
		}
		if (parse_one(opt, prgname, opts) != 0)
			goto error;
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", prgname, argv[optind]);
		goto error;
	}
	if (version) {
		tool_options_version(prgname);
		return 1;
	}
	if (opts->timeout_ms != 0 && opts->interval_ms != 0) {
		/* As in perf stat; --duration ends the intervals. */
		fprintf(stderr, "%s: --timeout and --interval exclude each other "
			"(--duration SEC ends the intervals)\n", prgname);
		goto error;
	}
	if (opts->workload == NULL)
		opts->workload = workload_find(NULL);
	if (tool_options_continuous(opts) && !opts->iterations_given)
		opts->iterations = DEFAULT_ROUND_ITERATIONS;

	return 0;

error:
	tool_options_usage(stderr, prgname);
	return -1;
}

void
tool_options_free(struct tool_options *opts)
{
	free(opts->events_list);
	opts->events_list = NULL;
	opts->events = TOOL_DEFAULT_EVENTS;
	opts->events_given = false;
}
