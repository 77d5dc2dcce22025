/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "options.h"

#define DEFAULT_ITERATIONS 1000000
/* Workload iterations between two reads when running continuously. */
#define DEFAULT_ROUND_ITERATIONS 10000
#define MIN_INTERVAL_MS 10
#define MAX_INTERVAL_MS 3600000
#define MAX_DURATION_S 31536000

/* Each long option has its short one; the string below lists them all.
 * A new option takes one line in each.
 */
static const struct option longopts[] = {
	{ "events", required_argument, NULL, 'e' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "workload", required_argument, NULL, 'w' },
	{ "interval", required_argument, NULL, 'i' },
	{ "duration", required_argument, NULL, 'd' },
	{ "csv", no_argument, NULL, 'c' },
	{ "json", no_argument, NULL, 'j' },
	{ "raw", no_argument, NULL, 'r' },
	{ "list", no_argument, NULL, 'L' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};
static const char shortopts[] = "e:n:w:i:d:cjrLh";

static void
usage(FILE *f, const char *prgname)
{
	fprintf(f, "Usage: %s [EAL options] -- [options]\n"
		"  -e, --events LIST     comma-separated events (default " TOOL_DEFAULT_EVENTS ";\n"
		"                        when none of those opens: " TOOL_FALLBACK_EVENTS ",\n"
		"                        and " TOOL_FALLBACK_TSC " where it opens)\n"
		"  -n, --iterations N    workload iterations per lcore, N > 0 (default %d;\n"
		"                        with -i or -d: per round between two reads, default %d)\n"
		"  -w, --workload NAME   one of:\n", prgname, DEFAULT_ITERATIONS,
		DEFAULT_ROUND_ITERATIONS);
	workload_list(f, "                          ");
	fprintf(f, "  -i, --interval MS     print the counts of every MS milliseconds\n"
		"                        (%d to %d) while the workload runs on and on\n"
		"  -d, --duration SEC    run the workload continuously for SEC seconds\n"
		"                        (1 to %d); with -i and no -d: until SIGINT/SIGTERM\n"
		"  -c, --csv             comma-separated values, one row per lcore and event\n"
		"  -j, --json            JSON, one object per report (per interval with -i)\n"
		"  -r, --raw             do not subtract the measured read overhead\n"
		"  -L, --list            list the events names can refer to here, whether\n"
		"                        each opens and how it is read, then exit\n"
		"  -h, --help            print this text\n"
		"The workload runs on every worker lcore (on the main lcore when there is\n"
		"none; -i and -d need a worker). Each lcore first times back-to-back reads\n"
		"of its events; that read overhead is subtracted from every figure.\n",
		MIN_INTERVAL_MS, MAX_INTERVAL_MS, MAX_DURATION_S);
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

static int
parse_one(int opt, const char *prgname, struct tool_options *opts)
{
	switch (opt) {
	case 'e':
		if (!list_valid(optarg)) {
			fprintf(stderr, "%s: invalid --events '%s': want names separated "
				"by single commas\n", prgname, optarg);
			return -1;
		}
		opts->events = optarg;
		opts->events_given = true;
		return 0;
	case 'n':
		if (parse_uint(optarg, 1, UINT64_MAX, &opts->iterations) != 0) {
			fprintf(stderr, "%s: invalid --iterations '%s': want an integer "
				"from 1 to %" PRIu64 "\n", prgname, optarg, UINT64_MAX);
			return -1;
		}
		opts->iterations_given = true;
		return 0;
	case 'w':
		opts->workload = workload_find(optarg);
		if (opts->workload != NULL)
			return 0;
		fprintf(stderr, "%s: unknown --workload '%s'; one of:\n", prgname, optarg);
		workload_list(stderr, "  ");
		return -1;
	case 'i':
		if (parse_uint(optarg, MIN_INTERVAL_MS, MAX_INTERVAL_MS,
				&opts->interval_ms) == 0)
			return 0;
		fprintf(stderr, "%s: invalid --interval '%s': want milliseconds, an integer "
			"from %d to %d\n", prgname, optarg, MIN_INTERVAL_MS, MAX_INTERVAL_MS);
		return -1;
	case 'd':
		if (parse_uint(optarg, 1, MAX_DURATION_S, &opts->duration_s) == 0)
			return 0;
		fprintf(stderr, "%s: invalid --duration '%s': want seconds, an integer "
			"from 1 to %d\n", prgname, optarg, MAX_DURATION_S);
		return -1;
	case 'c':
	case 'j':
		if (opts->format != TOOL_FORMAT_TABLE) {
			fprintf(stderr, "%s: --csv and --json exclude each other\n", prgname);
			return -1;
		}
		opts->format = opt == 'c' ? TOOL_FORMAT_CSV : TOOL_FORMAT_JSON;
		return 0;
	case 'L':
		opts->list = true;
		return 0;
	case 'r':
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
	int opt;

	memset(opts, 0, sizeof(*opts));
	opts->events = TOOL_DEFAULT_EVENTS;
	opts->iterations = DEFAULT_ITERATIONS;

	optind = 1;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout, prgname);
			return 1;
		}
		if (parse_one(opt, prgname, opts) != 0)
			goto error;
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", prgname, argv[optind]);
		goto error;
	}
	if (opts->workload == NULL)
		opts->workload = workload_find(NULL);
	if (tool_options_continuous(opts) && !opts->iterations_given)
		opts->iterations = DEFAULT_ROUND_ITERATIONS;

	return 0;

error:
	usage(stderr, prgname);
	return -1;
}
