/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_OBSERVE_H
#define PMU_OBSERVE_H

/* Looking at an lcore's counters from another thread (telemetry, snapshot
 * trace): a copy of the lcore's state taken under the library's lock and a
 * read() of its group taken outside it. Nothing here is installed.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rte_pmu.h"

struct rte_tel_data;

#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4)
#endif

/** Longest event name kept in a snapshot (longer names are cut). */
#define PMU_SNAP_NAME_MAX 64

/** Values of one read() of a perf event, in the kernel's order. */
struct pmu_read_values {
	uint64_t time_enabled;  /**< 0 without PERF_FORMAT_TOTAL_TIME_ENABLED */
	uint64_t time_running;  /**< 0 without PERF_FORMAT_TOTAL_TIME_RUNNING */
	unsigned int nr;        /**< values found (1 without PERF_FORMAT_GROUP) */
	uint64_t value[RTE_MAX_NUM_GROUP_EVENTS];
	uint64_t id[RTE_MAX_NUM_GROUP_EVENTS]; /**< 0 without PERF_FORMAT_ID */
};

/**
 * Decode what read() of a perf event gave, for any read_format (group or
 * single event; ids, times and lost counts optional).
 * Returns 0; -ENODATA @p len is 0 (a pinned group in error state);
 * -EINVAL the buffer is shorter than @p read_format says, or holds more
 * than RTE_MAX_NUM_GROUP_EVENTS values.
 */
int pmu_read_parse(const void *buf, size_t len, uint64_t read_format,
	struct pmu_read_values *out);

/** An lcore seen from another thread. */
struct pmu_snapshot {
	unsigned int lcore_id;
	int status;                 /**< as rte_pmu_lcore_status() */
	char cpu[64];               /**< the lcore's CPU set, "2" or "0-3,8" */
	unsigned int num_events;
	char names[RTE_MAX_NUM_GROUP_EVENTS][PMU_SNAP_NAME_MAX];
	/** Path the lcore's next read of each event takes (from its page). */
	enum rte_pmu_read_path path[RTE_MAX_NUM_GROUP_EVENTS];
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
 * true, its live values with one read() of a duplicate of the group
 * reader's fd (a member of the group opened with PERF_FORMAT_GROUP, see
 * pmu_fd_group_reader_open()). The library's lock is held only to copy
 * the state and dup() the fd; the counted thread
 * is never stopped and its user pages are only peeked at for the read path.
 * Returns 0 (values may still be missing: see have_values, read_error);
 * -EINVAL @p lcore_id out of range or not an lcore; -ENODEV library not
 * initialised.
 */
int pmu_lcore_snapshot(unsigned int lcore_id, bool values, struct pmu_snapshot *snap);

/**
 * Fill @p snap's values (snap->num_events of them) from the open events
 * @p fds: one read() of fds[0] when @p read_format has PERF_FORMAT_GROUP
 * (@p nfd 1), else one read() per event (@p nfd events, in index order).
 * Values are matched to events by @p ids with PERF_FORMAT_ID, else by
 * position. Returns 0 or negative errno (-ENOENT: an event had no value).
 */
int pmu_snapshot_read(const int *fds, unsigned int nfd, uint64_t read_format,
	const uint64_t *ids, struct pmu_snapshot *snap);

/** Name of a read path: "none", "user", "syscall". */
const char *pmu_path_name(enum rte_pmu_read_path path);

/**
 * Run a /pmu/... telemetry command in process, as the telemetry thread
 * would (for tests). Returns the handler's result; -ENOENT unknown command.
 */
int pmu_telemetry_call(const char *cmd, const char *params, struct rte_tel_data *d);

#endif /* PMU_OBSERVE_H */
