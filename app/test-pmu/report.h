/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_REPORT_H
#define TEST_PMU_REPORT_H

/* Figures of one report (the whole run, or one interval), per lcore and in
 * total, ready for any output format.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_lcore.h>

#include "events.h"
#include "measure.h"
#include "options.h"

/* One event on one lcore (or in total). */
struct tool_row {
	const struct tool_event *ev;
	int64_t value;                  /* read overhead subtracted */
	uint64_t overhead;              /* subtracted in all */
	double per_iteration;
	const char *unit;               /* "ns" for clocks, "" for counts */
	char path[96];                  /* how it was read; "" when unknown */
	char path_brief[32];            /* the same in a few words */
	double running_pct;             /* % of enabled time on the hardware (100: always) */
	bool has_ratio;
	double ratio;                   /* e.g. instructions per cycle */
	const char *ratio_unit;         /* e.g. "insn per cycle" */
	bool has_spread;                /* --repeat: value is a mean, spread its spread */
	double spread;                  /* stddev of the mean, % of it (perf's +- x.xx%) */
};

/* One lcore, or the total when lcore_id is TOOL_TOTAL. */
struct tool_record {
	unsigned int lcore_id;
	int status;                     /* 1, or why the lcore counted nothing */
	const char *error;              /* what failed, with status < 0 */
	uint64_t iterations;
	uint64_t rounds;
	double elapsed_ns;              /* read overhead subtracted */
	uint64_t first_tsc, last_tsc;   /* its interval (the total's: the lcores') */
	uint64_t read_tsc;              /* read overhead in it */
	double overhead_ns;             /* per snapshot's reads */
	struct tool_row rows[TOOL_MAX_EVENTS];  /* every listed event */
};

#define TOOL_TOTAL UINT32_MAX

/* One stage on one lcore (or in total), between two reports. */
struct tool_stage_row {
	const char *name;
	unsigned int lcore_id;          /* TOOL_TOTAL for the total */
	uint64_t calls;
	uint64_t items;
	uint64_t measured;
	uint64_t misuse;                /* of the lcore, all stages */
	double items_per_call;
	/* By event index: counts inside the stage (nested stages included). */
	uint64_t values[RTE_MAX_NUM_GROUP_EVENTS];
	double per_item[RTE_MAX_NUM_GROUP_EVENTS];
	bool has_ipc;
	double ipc;                     /* instructions per cycle */
	/* Bit i: event i's figures are not exact (rte_pmu_stage_stats::inexact). */
	uint32_t inexact;
};

struct tool_report {
	const struct tool_options *opts;
	const struct tool_events *evs;
	unsigned int interval;          /* 1, 2, ... with --interval; 0 otherwise */
	double time_s;                  /* since the start of the rounds */
	unsigned int runs;              /* --repeat: runs averaged; 0: one run */
	unsigned int count;             /* records, the total last */
	struct tool_record rec[RTE_MAX_LCORE + 1];
	/* Stages: each lcore's rows in stage order, then the totals (with
	 * two lcores or more). 0 when the stages are not registered.
	 */
	unsigned int stage_count;
	struct tool_stage_row stages[(RTE_MAX_LCORE + 1) * TOOL_STAGES];
};

/* Start an empty report. */
void tool_report_init(struct tool_report *rep, const struct tool_options *opts,
	const struct tool_events *evs, unsigned int interval, double time_s);

/* Add @p lcore_id's figures between snapshots @p from and @p to (the
 * lcore's state gives the read overhead; NULL @p to when it failed).
 */
void tool_report_add(struct tool_report *rep, unsigned int lcore_id,
	const struct tool_lcore *l, const struct tool_snap *from, const struct tool_snap *to);

/* Add @p lcore_id's stage figures since @p prev, which they replace. */
void tool_report_add_stages(struct tool_report *rep, unsigned int lcore_id,
	struct rte_pmu_stage_stats prev[TOOL_STAGES]);

/* Sum the lcores into the total record and compute every ratio. */
void tool_report_finish(struct tool_report *rep);

#endif /* TEST_PMU_REPORT_H */
