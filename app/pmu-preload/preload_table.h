/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PRELOAD_TABLE_H
#define PRELOAD_TABLE_H

/* The table of the preload's figures (table.c): no state, no call into
 * the rest of the preload.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_lcore.h>
#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "preload_run.h"

/* A stage's figures on an lcore (or summed), as rte_pmu_stage_stats. */
struct preload_fig {
	uint64_t calls;
	uint64_t items;
	uint64_t measured;
	uint64_t values[RTE_MAX_NUM_GROUP_EVENTS]; /* inclusive */
	uint64_t self[RTE_MAX_NUM_GROUP_EVENTS];   /* nested stages left out */
	/* The spread of self[] (rte_pmu_stage_stats::spread): 0 exact, NAN
	 * not known.
	 */
	double spread[RTE_MAX_NUM_GROUP_EVENTS];
	/* Bit e: event e's figures are not exact (rte_pmu_stage_stats::inexact). */
	uint32_t inexact;
	/* values[] over the measured calls only, and the values of the
	 * stages nested in them, which never go down: an interval's figures
	 * are their differences (rte_pmu_stage_stats::measured_values).
	 */
	uint64_t measured_values[RTE_MAX_NUM_GROUP_EVENTS];
	uint64_t measured_children[RTE_MAX_NUM_GROUP_EVENTS];
};

/* An lcore's total and its part outside every stage, per event. */
struct preload_lcore_totals {
	uint64_t total[RTE_MAX_NUM_GROUP_EVENTS];
	uint64_t outside[RTE_MAX_NUM_GROUP_EVENTS];
	unsigned int num_events;
	uint64_t measured;
	uint32_t inexact;   /* bit e: outside[e] is not exact */
};

/* What a table shows. */
struct preload_table {
	unsigned int num_stages;
	const char (*names)[RTE_PMU_STAGE_NAME_MAX];    /* [num_stages] */
	unsigned int num_events;
	const char (*events)[PRELOAD_EVENT_NAME_MAX];  /* [num_events] */
	const struct preload_fig *figs;   /* [RTE_MAX_LCORE * num_stages] */
	const bool *gone;                 /* [RTE_MAX_LCORE] or NULL */
	/* [RTE_MAX_LCORE]: each lcore's total and outside, read with figs
	 * (num_events 0 where the library does not give them); NULL: read
	 * as the table is written.
	 */
	const struct preload_lcore_totals *totals;
	/* The figures of an interval (preload_fig_interval()): a stage with
	 * calls but none measured shows 0~ as its self total.
	 */
	bool interval;
};

/* @p s added to @p t: the spreads combined as independent errors; a
 * figure is inexact where either is.
 */
void preload_fig_add(struct preload_fig *t, const struct preload_fig *s);

/* @p t, a stage's figures since the start, made those of the interval
 * since @p s, its figures then: the interval's calls, items and measured
 * calls, and where the stage is sampled, the sum over the interval's
 * measured calls (the running sums less the earlier ones) scaled to its
 * calls, as the library scales the whole run's. Where every call was
 * measured, the plain differences; where no call was measured in the
 * interval, 0 and not exact; where the counts went down (they started
 * again), @p t's. The interval's spread is not known (NAN) but where
 * every call was measured (0).
 */
void preload_fig_interval(struct preload_fig *t, const struct preload_fig *s);

/* An lcore's interval figures fitted to its interval total @p t: where its
 * @p n stages' self figures @p figs add up to more than the total, each of
 * them scaled down to it and marked not exact, as the library does over
 * the whole run (rte_pmu_stage_stats::self_values); the part outside then
 * the total less the stages (0 where scaled down), not exact where a
 * stage's figure is not. @p t without figures (num_events 0): nothing done.
 */
void preload_lcore_fit(struct preload_fig *figs, unsigned int n, struct preload_lcore_totals *t);

/* @p s taken from @p t, event by event, as an interval's figures are:
 * where the total went down (the lcore's counts started again), the
 * interval's are @p t's; the part outside is set again by
 * preload_lcore_fit(). Where either does not give figures, @p t is left
 * without them.
 */
void preload_lcore_totals_sub(struct preload_lcore_totals *t,
	const struct preload_lcore_totals *s);

/* The total of @p lcore and its part outside every stage
 * (rte_pmu_stage_lcore_stats_get()): 0, or a negative errno (the figures
 * '-'), -ENODATA where no event is counted. The one place where the table
 * and the JSON get them.
 */
int preload_lcore_totals(unsigned int lcore, struct preload_lcore_totals *t);

/* Table @p t on @p f, each line led by @p lead. */
void preload_table_write(FILE *f, const char *lead, const struct preload_table *t);

#endif /* PRELOAD_TABLE_H */
