/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_STAGE_H
#define PMU_STAGE_H

/* The stages' private state, shared by pmu_stage.c (the lcore's state,
 * sampling, figures, reset), pmu_stage_engine.c (the out-of-line calls)
 * and pmu_stage_dump.c. Not installed.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rte_pmu_stage.h"

/** A stage's sums on one lcore. */
struct pmu_stage_sums {
	uint64_t calls;     /**< calls folded in (the pending ones aside) */
	uint64_t items;
	uint64_t measured;
	uint64_t misuse;
	uint64_t values[RTE_MAX_NUM_GROUP_EVENTS];   /**< net, measured calls */
	/** Net counts of the measured stages nested in its measured calls. */
	uint64_t children[RTE_MAX_NUM_GROUP_EVENTS];
};

/** A stage's figures on one lcore, written by the lcore only. */
struct pmu_stage_figures {
	uint64_t seq;       /**< odd while the lcore updates sums */
	struct pmu_stage_sums sums;
};

/** A stage open on the lcore, where calls are tracked (measured, debug). */
struct pmu_stage_frame {
	uint32_t id;
	bool measured;
	bool nested;        /**< a measured stage ended in it: child holds sums */
	uint64_t start[RTE_MAX_NUM_GROUP_EVENTS];  /**< counters at begin */
	uint64_t child[RTE_MAX_NUM_GROUP_EVENTS];  /**< measured children's net */
};

/** An lcore's stage state: allocated by the lcore, kept for the process. */
struct pmu_stage_lcore {
	struct __rte_pmu_stage_lcore pub;  /**< what the inline calls read: first */
	unsigned int lcore_id;
	unsigned int generation;   /**< of the library when the lcore synced */
	unsigned int num_stages;   /**< ids with a slot, figures and a base */
	unsigned int num_events;   /**< read at measured begins and ends */
	unsigned int depth;        /**< frames open */
	int node;                  /**< NUMA node of the arrays, or -1 */
	uint32_t misuse_logged;    /**< a bit per kind already logged */
	uint64_t lcore_misuse;     /**< calls naming no registered stage */
	uint64_t base_lcore_misuse; /**< lcore_misuse at the last reset */
	uint64_t overhead[RTE_MAX_NUM_GROUP_EVENTS]; /**< per measured call */
	bool calibrated;           /**< overhead measured for these events */
	bool calibrating;          /**< measured calls of it go to cal_last */
	uint64_t cal_last[RTE_MAX_NUM_GROUP_EVENTS]; /**< the last one's counts */
	struct perf_event_mmap_page *const *pages;   /**< the lcore's pages */
	struct pmu_stage_figures *figs;  /**< num_stages */
	struct pmu_stage_sums *base;     /**< sums at the last reset, num_stages */
	size_t mem_size;           /**< of the allocation holding the arrays */
	bool mem_numa;             /**< from numa_alloc_onnode() */
	struct pmu_stage_frame frames[RTE_PMU_STAGE_DEPTH];
};

/** The private state around @p pub. */
static inline struct pmu_stage_lcore *
pmu_stage_of(struct __rte_pmu_stage_lcore *pub)
{
	return (struct pmu_stage_lcore *)pub;
}

/** Whether every stage call goes out of line (-Dstage_debug=true). */
#ifdef RTE_PMU_STAGE_DEBUG
#define PMU_STAGE_DEBUG true
#else
#define PMU_STAGE_DEBUG false
#endif

/**
 * The calling thread's stage state, brought up to date with the library
 * (registered stages, group, read cost); NULL where its calls cannot be
 * counted, with the reason in @p err: -ESRCH not an lcore, -ENODEV not
 * initialised, -ENOMEM. From pmu_stage.c.
 */
struct pmu_stage_lcore *pmu_stage_self(int *err);

/** The limit of @p sl's inline calls with no tracked frame open. */
static inline uint32_t
pmu_stage_limit(const struct pmu_stage_lcore *sl)
{
	return PMU_STAGE_DEBUG ? 0 : sl->num_stages;
}

/** Read every event of @p sl into @p v (the engine's one read). */
void pmu_stage_read(struct pmu_stage_lcore *sl, uint64_t *v);

/**
 * A consistent copy of stage @p id's sums on @p sl (pending calls
 * folded in): from any thread, with the library's lock held.
 */
void pmu_stage_sums_get(const struct pmu_stage_lcore *sl, unsigned int id,
	struct pmu_stage_sums *s);

#endif /* PMU_STAGE_H */
