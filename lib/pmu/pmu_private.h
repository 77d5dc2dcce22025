/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_PRIVATE_H
#define PMU_PRIVATE_H

/* Internal interfaces of librte_pmu: logging, sysfs, event encoding and the
 * per-architecture backend ops. Nothing here is installed.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/perf_event.h>

#include <rte_compat.h>
#include <rte_log.h>

extern int pmu_logtype;

#define PMU_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, pmu_logtype, "PMU: " fmt "\n", ##__VA_ARGS__)

/** Default root of the PMU folders. */
#define PMU_SYSFS_ROOT_DEFAULT "/sys/bus/event_source/devices"

/** Longest PMU folder name kept. */
#define PMU_NAME_MAX 64

/* ---- sysfs (pmu_sysfs.c) ---- */

/** Current sysfs root (default, or set by __rte_pmu_sysfs_root_set()). */
const char *pmu_sysfs_root(void);

/**
 * Read a file under <root>/<pmu>/<rel> into @p buf, trailing newline
 * stripped. Returns length >= 0, or negative errno (-ENOENT missing).
 */
int pmu_sysfs_read(const char *pmu, const char *rel, char *buf, size_t len);

/** Read <root>/<pmu>/type. Returns 0 or negative errno. */
int pmu_sysfs_type(const char *pmu, uint32_t *type);

/** True if <root>/<pmu> is a folder. */
bool pmu_sysfs_pmu_exists(const char *pmu);

/**
 * Place @p value in the attr fields that the format term @p term of @p pmu
 * names (<root>/<pmu>/format/<term>, e.g. "config:0-7,32-35" or
 * "config1:1"). Bits of @p value fill the ranges in order, low bits first.
 * Returns 0; -ENOENT no such term; -ERANGE value wider than the field;
 * -EINVAL malformed format file.
 */
int pmu_sysfs_format_apply(const char *pmu, const char *term, uint64_t value,
	struct perf_event_attr *attr);

/**
 * Parse a format specification ("config:0-7,32-35") and place @p value.
 * Pure function behind pmu_sysfs_format_apply(), exposed for tests.
 */
int pmu_format_apply(const char *spec, uint64_t value, struct perf_event_attr *attr);

/* ---- event names (pmu_event.c) ---- */

/** An encoded event. */
struct pmu_event_desc {
	/** type, config, config1, config2, sample_period; no exclusion bits. */
	struct perf_event_attr attr;
	/** PMU folder of the event; "" for perf's generic types. */
	char pmu[PMU_NAME_MAX];
	/** config1 bits the name set explicitly (format terms, config1=). */
	uint64_t config1_user;
	/** Core PMU event or generic hardware event (gets the arch fixup). */
	bool core;
};

/**
 * Encode an event name (see rte_pmu_add_event() for the syntax). @p core_pmu
 * is the core PMU's folder name ("" when none was found: then only generic
 * names and pmu/.../ names resolve).
 * Returns 0; -ENOENT unknown event or PMU; -EINVAL malformed name;
 * -ERANGE a value does not fit its field.
 */
int pmu_event_encode(const char *name, const char *core_pmu, struct pmu_event_desc *desc);

/* ---- architecture backends (drivers/pmu/<arch>) ---- */

struct pmu_arch_ops {
	/** Backend name, for logs. */
	const char *name;
	/**
	 * Find the core PMU folder under the sysfs root; fill @p name
	 * (PMU_NAME_MAX). Returns 0 or -ENODEV.
	 */
	int (*core_pmu)(char *name, size_t len);
	/**
	 * Called at rte_pmu_init() with the core PMU: check and log whether
	 * counters can be read from user space (never changes the system).
	 */
	void (*init)(const char *core_pmu);
	/**
	 * Adjust an encoded core-PMU or generic hardware event so that it can
	 * be read from user space (arm64: config1 user-access and 64-bit bits).
	 * Bits in desc->config1_user were set by the user: never override them.
	 */
	void (*attr_fixup)(const char *core_pmu, struct pmu_event_desc *desc);
	/**
	 * perf_event_open() of @p attr failed with @p err (negative errno):
	 * change @p attr for another try and return true, or return false.
	 */
	bool (*attr_retry)(const char *core_pmu, struct pmu_event_desc *desc, int err);
};

/** Register the backend of the running architecture (from RTE_INIT). */
void pmu_arch_register(const struct pmu_arch_ops *ops);

/* ---- library state (pmu.c, pmu_group.c, pmu_read.c) ---- */

#include <rte_lcore.h>
#include <rte_spinlock.h>

#include "rte_pmu.h"

/** An added event. */
struct pmu_event {
	char *name;                  /**< as given to rte_pmu_add_event() */
	struct pmu_event_desc desc;  /**< encoding, exclusion bits included */
};

/** Control-path state of one lcore's group. */
struct pmu_lcore {
	int fds[RTE_MAX_NUM_GROUP_EVENTS];      /**< -1 when closed */
	uint64_t ids[RTE_MAX_NUM_GROUP_EVENTS]; /**< PERF_EVENT_IOC_ID */
	int status;          /**< as rte_pmu_lcore_status() */
	uint64_t slow_reads; /**< reads that left the fast path */
};

/** The global state container. Everything is guarded by lock. */
struct pmu_state {
	rte_spinlock_t lock;
	bool initialized;
	char core_pmu[PMU_NAME_MAX];            /**< "" when none was found */
	const struct pmu_arch_ops *ops;         /**< NULL: no backend */
	unsigned int num_events;
	struct pmu_event events[RTE_MAX_NUM_GROUP_EVENTS];
	unsigned int num_open;                  /**< lcores with an open group */
	struct pmu_lcore lcores[RTE_MAX_LCORE];
};

extern struct pmu_state pmu;

/** A group with no events: the fast path's target when none is open. */
extern struct rte_pmu_event_group pmu_no_group;

/** Open the calling thread's group as @p lcore_id. Lock held. */
int pmu_group_open(unsigned int lcore_id);
/** Close @p lcore_id's group and clear its status. Lock held. */
void pmu_group_close(unsigned int lcore_id);

/**
 * read() an open event: value scaled by its enabled/running times, which
 * are returned when @p enabled / @p running are not NULL. Returns 0 or
 * negative errno (-ENODATA: group in error state, read() gave 0 bytes).
 */
int pmu_fd_read(int fd, uint64_t id, uint64_t *value, uint64_t *raw,
	uint64_t *enabled, uint64_t *running);

/** perf_event_open(2) with errno returned negative. */
int pmu_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd);

/** Log why perf_event_open() of @p name failed with @p err. */
void pmu_log_open_error(const char *name, int err);

/* ---- internal API for tests (version.map INTERNAL) ---- */

/**
 * Use @p root instead of /sys/bus/event_source/devices (NULL restores it).
 * For tests on fixture trees; takes effect at the next rte_pmu_init().
 */
__rte_internal
int __rte_pmu_sysfs_root_set(const char *root);

#endif /* PMU_PRIVATE_H */
