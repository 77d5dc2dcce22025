/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_OPTIONS_H
#define TEST_PMU_OPTIONS_H

/* dpdk-test-pmu's own options, the ones after "--". */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "workload.h"

enum tool_format {
	TOOL_FORMAT_TABLE = 0,
	TOOL_FORMAT_CSV,                /* --csv: the tool's own, every figure */
	TOOL_FORMAT_JSON,               /* --json: the tool's own, every figure */
	TOOL_FORMAT_PERF_CSV,           /* -x SEP: perf stat's CSV */
	TOOL_FORMAT_PERF_JSON,          /* -j: perf stat's JSON lines */
};

struct tool_options {
	const char *events;             /* comma-separated list */
	bool events_given;              /* -e was given: no fallback */
	char *events_list;              /* every -e's names, in order (allocated) */
	uint64_t iterations;            /* workload iterations per round */
	bool iterations_given;
	const struct workload *workload;
	enum tool_format format;
	uint64_t interval_ms;           /* 0: no interval lines */
	uint64_t duration_s;            /* 0: one round (or until a signal with -I) */
	uint64_t timeout_ms;            /* --timeout MS: stop after MS ms (0: none) */
	bool raw;                       /* do not subtract the read overhead */
	bool list;                      /* list the events and exit */
	const char *csv_sep;            /* -x SEP: the CSV's field separator (--csv: ",") */
	unsigned int repeat;            /* -r N: runs, the mean and spread reported */
	const char *output;             /* -o FILE: the report there, not on stdout */
	bool no_aggr;                   /* -A: per lcore, no total */
};

/* Parse argv (argv[0] is the program name). Returns 0 to run, 1 when --help
 * or --version was asked (printed to stdout), -1 on a usage error (message
 * to stderr).
 */
int tool_options_parse(int argc, char **argv, struct tool_options *opts);

/* Free what tool_options_parse() allocated (the -e names). */
void tool_options_free(struct tool_options *opts);

/* The tool's usage, options after "--", to @p f. */
void tool_options_usage(FILE *f, const char *prgname);

/* The tool's version (the project's VERSION file) and DPDK's, to stdout. */
void tool_options_version(const char *prgname);

/* True when the workload runs continuously (an interval, a duration or a
 * timeout).
 */
static inline bool
tool_options_continuous(const struct tool_options *opts)
{
	return opts->interval_ms != 0 || opts->duration_s != 0 || opts->timeout_ms != 0;
}

/* When the rounds end, in ns after they started: the earlier of --duration
 * and --timeout; 0 when neither is given (with -I: until a signal).
 */
static inline uint64_t
tool_options_end_ns(const struct tool_options *opts)
{
	uint64_t d = opts->duration_s * 1000000000, t = opts->timeout_ms * 1000000;

	if (d == 0 || (t != 0 && t < d))
		return t;
	return d;
}

#endif /* TEST_PMU_OPTIONS_H */
