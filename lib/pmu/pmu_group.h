/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_GROUP_H
#define PMU_GROUP_H

/* Preparing events and opening a group (pmu_group.c), no lock.
 */

#include <stdbool.h>
#include <stdint.h>

#include "rte_pmu.h"
#include "pmu_event.h"
#include "pmu_state.h"

/**
 * The one way an event is made ready to open, for rte_pmu_add_event(), a
 * group's open and the event list: encode @p name for @p core_pmu (for
 * any core PMU that has it when @p any_core), let the backend adjust it,
 * then probe it with one open. Returns 0 or one of rte_pmu_add_event()'s
 * codes; logs why it fails.
 */
int pmu_event_prepare(const char *name, const char *core_pmu, bool any_core,
	struct pmu_event_desc *desc);

/** An lcore's group being opened: what the open needs, and what it opened. */
struct pmu_group_opening {
	unsigned int lcore_id;      /**< for logs and trace */
	unsigned int num_events;
	unsigned int generation;    /**< of the state when the open began */
	const char *names[RTE_MAX_NUM_GROUP_EVENTS];
	struct pmu_event_desc descs[RTE_MAX_NUM_GROUP_EVENTS];
	struct pmu_group_res res;   /**< what the open holds */
	uint32_t tsc_events;        /**< as struct pmu_lcore, set by the open */
	uint64_t tsc_base[RTE_MAX_NUM_GROUP_EVENTS]; /**< as struct pmu_lcore */
};

/** Open and map the events of @p op, then enable them. Returns 0 or negative errno. */
int pmu_group_open(struct pmu_group_opening *op);

/** Set every descriptor of @p res to -1 and every page to NULL. */
void pmu_group_res_init(struct pmu_group_res *res);

/** Unmap and close what @p res holds; it is left empty. */
void pmu_group_release(struct pmu_group_res *res);

/**
 * Read every event of a group with one read() of its reader @p group_fd:
 * @p values[i] is event i's value scaled by the group's times, which are
 * returned when the pointers are not NULL. The caller keeps the reader
 * open meanwhile (its own lcore, or a pin). Returns the number of values
 * filled (at most @p n and @p num_events) or negative errno: -ENODEV no
 * reader; -ENODATA the group is in error state; another one from read().
 */
int pmu_group_read(int group_fd, unsigned int num_events, uint64_t *values,
	unsigned int n, uint64_t *enabled, uint64_t *running);

#endif /* PMU_GROUP_H */
