/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_OBSERVE_H
#define PMU_OBSERVE_H

/* Looking at an lcore's counters from another thread (rte_pmu_lcore_info_get(),
 * telemetry, the exporter through telemetry): one copy of the lcore's state
 * (pmu_state_lcore_copy()) and one read() of its group after the lock.
 * Nothing here is installed.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rte_pmu.h"

struct rte_tel_data;

/** Longest event name kept in a snapshot (longer names are cut). */
#define PMU_SNAP_NAME_MAX RTE_PMU_EVENT_NAME_MAX

/** An lcore seen from another thread. */
struct pmu_snapshot {
	unsigned int lcore_id;
	int status;                 /**< as rte_pmu_lcore_status() */
	char cpu[64];               /**< the lcore's CPU set, "2" or "0-3,8" */
	unsigned int num_events;
	char names[RTE_MAX_NUM_GROUP_EVENTS][PMU_SNAP_NAME_MAX];
	/** Path the lcore's next read of each event takes (from its page). */
	enum rte_pmu_read_path path[RTE_MAX_NUM_GROUP_EVENTS];
	uint32_t user_index[RTE_MAX_NUM_GROUP_EVENTS]; /**< page index (0: not on the hardware) */
	uint16_t pmc_width[RTE_MAX_NUM_GROUP_EVENTS];  /**< counter width in bits */
	bool cap_user_rdpmc[RTE_MAX_NUM_GROUP_EVENTS]; /**< page allows user reads */
	int read_error;             /**< 0, or why the values are missing */
	bool have_values;           /**< group open and read() succeeded */
	uint64_t raw[RTE_MAX_NUM_GROUP_EVENTS];    /**< kernel's count */
	uint64_t scaled[RTE_MAX_NUM_GROUP_EVENTS]; /**< raw * enabled / running */
	uint64_t time_enabled;
	uint64_t time_running;
	bool multiplexed;           /**< time_running != time_enabled */
	uint64_t slow_reads;        /**< the lcore's reads that left the fast path */
	uint64_t read_errors;       /**< the lcore's reads that gave 0 (read() failed) */
};

/**
 * Take @p lcore_id's state and, when its group is open and @p values is
 * true, its live values with one read() of the group's reader (pinned
 * open meanwhile, see pmu_state_lcore_copy()). The library's lock is held
 * only to copy the state; the counted thread is never stopped and its
 * user pages are only peeked at for the read path.
 * Returns 0 (values may still be missing: see have_values, read_error);
 * -EINVAL @p lcore_id out of range or not an lcore; -ENODEV library not
 * initialised.
 */
int pmu_lcore_snapshot(unsigned int lcore_id, bool values, struct pmu_snapshot *snap);

/** Size of an event's telemetry key (rte_pmu_event_info::key). */
#define PMU_KEY_MAX RTE_PMU_EVENT_KEY_MAX

/** The telemetry keys of @p n events named @p names (rte_pmu_event_info::key). */
void pmu_event_keys(const char (*names)[PMU_SNAP_NAME_MAX], unsigned int n,
	char (*keys)[PMU_KEY_MAX]);

struct pmu_events_copy;
/** The unit of the event named @p name, event @p hint of @p c where its
 *  name is that (rte_pmu_event_info::unit): "count" for an event not in
 *  @p c.
 */
const char *pmu_event_unit(const struct pmu_events_copy *c, unsigned int hint,
	const char *name);

/** Name of a read path: "none", "user", "syscall". */
const char *pmu_path_name(enum rte_pmu_read_path path);

/**
 * Run a /pmu/... telemetry command in process, as the telemetry thread
 * would (for tests). Returns the handler's result; -ENOENT unknown command.
 */
int pmu_telemetry_call(const char *cmd, const char *params, struct rte_tel_data *d);

#endif /* PMU_OBSERVE_H */
