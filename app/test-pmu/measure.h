/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_MEASURE_H
#define TEST_PMU_MEASURE_H

/* What each lcore counts: rounds of the workload between two reads of
 * every event, and the read overhead measured before them. Each round also
 * runs as two chained stages of the library's stage accounting
 * (rte_pmu_stage.h): the workload's (named as the workload) and "snapshot"
 * (the reads and the publication of the tool's own snapshot), each ending
 * where the other begins, one read of the counters at each boundary. The
 * boundaries fall between two snapshots of every round, calibration
 * included, so their cost is part of the read overhead subtracted from the
 * figures.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "events.h"
#include "options.h"

/* The stages each round runs, in this order of registration. */
enum tool_stage {
	TOOL_STAGE_WORK,                /* the workload, iterations as items */
	TOOL_STAGE_SNAPSHOT,            /* the tool's snapshot, one item */
	TOOL_STAGES
};

/* Counters and clock after a number of rounds. */
struct tool_snap {
	uint64_t tsc;                   /* rte_rdtsc() just before the reads */
	uint64_t rounds;                /* rounds run so far */
	uint64_t iterations;            /* workload iterations so far */
	uint64_t val[RTE_MAX_NUM_GROUP_EVENTS];    /* by event index */
};

/* One lcore's measurement. The lcore writes it; the main lcore reads the
 * live snapshot through its sequence number while the lcore runs, the
 * overhead and info once the lcore published a snapshot (seq != 0), and
 * base once the lcore returned.
 */
struct tool_lcore {
	bool ran;
	int work_ret;                   /* 0, or negative errno of the workload */
	/* Read overhead: median over back-to-back read pairs. */
	uint64_t overhead_tsc;
	uint64_t overhead[RTE_MAX_NUM_GROUP_EVENTS];        /* by event index */
	struct tool_snap base;          /* before the first round, not continuous */
	/* Read paths as the lcore saw them while running, before its rounds. */
	int info_ret;
	struct rte_pmu_lcore_info info;
	uint32_t seq;                   /* odd while live is written */
	struct tool_snap live;          /* after the last round */
	/* Stage figures before the first round (calibration's left out),
	 * valid once stage_ready is set.
	 */
	struct rte_pmu_stage_stats stage_base[TOOL_STAGES];
	uint32_t stage_ready;
	volatile uint64_t sink;         /* keeps results alive */
} __rte_cache_aligned;

/* Set up what every lcore runs. Called once before launching. */
void tool_measure_init(const struct tool_options *opts, const struct tool_events *evs);

/* The lcore function: calibrate, then run rounds until stopped (or one round
 * when not continuous). Returns 0, or -1 when the workload failed.
 */
int tool_measure_lcore(void *arg);

/* Name and stage id of stage @p s; false when stages are not registered. */
bool tool_measure_stage(enum tool_stage s, const char **name, unsigned int *id);

/* Make ready for another run of every lcore (--repeat), none running. */
void tool_measure_rearm(void);

/* Ask every lcore to stop after its current round. */
void tool_measure_stop(void);

/* The state of @p lcore_id. */
struct tool_lcore *tool_measure_state(unsigned int lcore_id);

/* Copy @p l's latest snapshot consistently into @p snap. Returns false when
 * the lcore has not published its base snapshot yet.
 */
bool tool_measure_snapshot(struct tool_lcore *l, struct tool_snap *snap);

#endif /* TEST_PMU_MEASURE_H */
