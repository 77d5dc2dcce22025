/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_STATE_H
#define PMU_STATE_H

/* The bottom of the library: the state container, its lock, the log type
 * and the definitions every layer shares. Only this module (pmu_state.c)
 * and the control path (pmu.c) take the lock or touch the container; the
 * other files get what they need from the copy-out accessors below, or the
 * lcore they work on as a parameter.
 *
 * Rule: no system call and no file I/O while the lock is held. Control
 * code encodes and probes first, then takes the lock and checks again;
 * observers copy under the lock and read after it.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_spinlock.h>

#include "rte_pmu.h"
#include "pmu_event.h"
#include "pmu_log.h"
#include "pmu_sysfs.h"

/** An added event. */
struct pmu_event {
	char *name;                  /**< as given to rte_pmu_add_event() */
	struct pmu_event_desc desc;  /**< encoding, exclusion bits included */
};

/**
 * What an open group holds, moved out of the state under the lock and
 * released after it (pmu_group_release()).
 */
struct pmu_group_res {
	int fds[RTE_MAX_NUM_GROUP_EVENTS];  /**< -1 when closed; fds[0] leads */
	int group_fd;  /**< the group's reader (pmu_fd_group_reader_open()), or -1 */
	struct perf_event_mmap_page *pages[RTE_MAX_NUM_GROUP_EVENTS]; /**< or NULL */
};

/** Private state of one lcore's group, beside its public page table. */
struct pmu_lcore {
	int fds[RTE_MAX_NUM_GROUP_EVENTS];  /**< -1 when closed; fds[0] leads */
	int group_fd;                       /**< the group's reader, or -1 */
	/** Events the lcore's reads may use: 0 until the group is open. Set
	 *  with release after the pages, read with acquire.
	 */
	uint32_t num_ready;
	/** As rte_pmu_lcore_status(); read without the lock by the lcore's
	 *  own read path, so always accessed with __atomic builtins.
	 */
	int status;
	/** Events read with rte_rdtsc() (bit i: event i; pmu_arch_counts_tsc()),
	 *  set with the pages before num_ready, cleared when the group closes.
	 */
	uint32_t tsc_events;
	/** Of each such event: rte_rdtsc() less the event's value, the TSC
	 *  just before the group's enable (the count is 0 until then).
	 */
	uint64_t tsc_base[RTE_MAX_NUM_GROUP_EVENTS];
	/** Reads that left the fast path (written by the lcore only). */
	uint64_t slow_reads;
	/** Reads that gave 0: read() failed or the index was never added. */
	uint64_t read_errors;
	bool read_error_logged;     /**< the first read error was logged */
	/** Its last read() found that the kernel had not run the group since it
	 *  opened (written by the lcore, read by rte_pmu_lcore_status()).
	 */
	bool not_run;
	bool bad_index_logged;      /**< the first read of a bad index was logged */
	unsigned int open_failures; /**< transient open failures in a row */
	/** Other threads reading the group's reader now (pmu_state_lcore_pin());
	 *  whoever closes the group waits for 0 after taking it out of the state.
	 */
	unsigned int pins;
} __rte_cache_aligned;

/** The global state container. Everything is guarded by lock. */
struct pmu_state {
	rte_spinlock_t lock;
	bool initialized;
	bool no_event_logged;                   /**< read with no event added, logged */
	char core_pmu[PMU_NAME_MAX];            /**< "" when none was found */
	unsigned int num_events;
	struct pmu_event events[RTE_MAX_NUM_GROUP_EVENTS];
	unsigned int num_open;                  /**< lcores with an open group */
	unsigned int num_opening;               /**< lcores opening theirs, unlocked */
	unsigned int generation;                /**< counts rte_pmu_fini() calls */
	struct pmu_lcore lcores[RTE_MAX_LCORE];
};

/** The container: pmu_state.c and pmu.c only. */
extern struct pmu_state pmu;

/** Each lcore's page table, indexed by lcore id. */
extern struct rte_pmu_event_group rte_pmu_event_groups[RTE_MAX_LCORE];

/** A group with no events: the fast path's target when none is open. */
extern struct rte_pmu_event_group pmu_no_group;

/** Private state behind pmu_no_group: nothing ready, never opened. */
extern struct pmu_lcore pmu_no_lcore;

/**
 * The page in every slot of a group with no event there (index 0: the fast
 * path goes to __rte_pmu_read_fd(), which sees the event is not ready), so
 * that rte_pmu_read() needs no load of num_ready. Never mapped, never NULL.
 */
extern struct perf_event_mmap_page pmu_page_none;

/**
 * The calling thread's private lcore state, set with _pmu_group by its
 * first read; &pmu_no_lcore until then.
 */
RTE_DECLARE_PER_LCORE(struct pmu_lcore *, pmu_self)
	__attribute__((tls_model("initial-exec")));

/* ---- the lock (pmu_state.c and pmu.c only) ---- */

/** Take the library's lock; the thread is marked as its holder. */
void pmu_lock(void);

/** Release the library's lock. */
void pmu_unlock(void);

/**
 * True while the calling thread holds the library's lock. The fault
 * harness asserts it is false in every system call the library makes.
 */
bool pmu_lock_held(void);

/* ---- shared definitions ---- */

/**
 * The API's errno for @p err (negative) of a system call or sysfs access:
 * each of the header's codes (-EMFILE, -ENOMEM, -EACCES, -EAGAIN), and
 * @p other for anything none of them names.
 */
int pmu_errno(int err, int other);

/** The lcore id of @p group in rte_pmu_event_groups, RTE_MAX_LCORE if none. */
static inline unsigned int
pmu_group_lcore(const struct rte_pmu_event_group *group)
{
	uintptr_t p = (uintptr_t)group, base = (uintptr_t)rte_pmu_event_groups;

	if (p < base || p >= (uintptr_t)&rte_pmu_event_groups[RTE_MAX_LCORE])
		return RTE_MAX_LCORE;

	return (unsigned int)((p - base) / sizeof(*group));
}

/** The private state of @p lcore_id (below RTE_MAX_LCORE), for its own thread. */
static inline struct pmu_lcore *
pmu_state_lcore(unsigned int lcore_id)
{
	return &pmu.lcores[lcore_id];
}

/** The lcore id of @p lc, an entry of pmu.lcores. */
static inline unsigned int
pmu_lcore_id(const struct pmu_lcore *lc)
{
	return (unsigned int)(lc - pmu.lcores);
}

/* ---- copy-out accessors: each takes the lock, copies, releases ---- */

/** What pmu_state_events() copies. */
struct pmu_events_copy {
	bool initialized;
	char core_pmu[PMU_NAME_MAX];
	unsigned int num_events;
	char names[RTE_MAX_NUM_GROUP_EVENTS][RTE_PMU_EVENT_NAME_MAX];
	struct pmu_event_desc descs[RTE_MAX_NUM_GROUP_EVENTS];
};

/** Copy the event list and core PMU. Returns 0, or -ENODEV not initialised. */
int pmu_state_events(struct pmu_events_copy *c);

/**
 * The indexes in @p c of the cycles and instructions events (perf's names
 * and arm64's), for an IPC; -1 where one is not there.
 */
void pmu_events_ipc(const struct pmu_events_copy *c, int *cycles, int *instructions);

/** One lcore's state, copied for a thread other than the lcore. */
struct pmu_lcore_copy {
	int status;                 /**< as rte_pmu_lcore_status() */
	unsigned int num_events;
	char names[RTE_MAX_NUM_GROUP_EVENTS][RTE_PMU_EVENT_NAME_MAX];
	enum rte_pmu_read_path path[RTE_MAX_NUM_GROUP_EVENTS]; /**< from the pages */
	uint32_t user_index[RTE_MAX_NUM_GROUP_EVENTS];
	uint16_t pmc_width[RTE_MAX_NUM_GROUP_EVENTS];
	bool cap_user_rdpmc[RTE_MAX_NUM_GROUP_EVENTS];
	uint64_t slow_reads;
	uint64_t read_errors;
	bool not_run;               /**< as struct pmu_lcore's */
	int group_fd;               /**< pinned reader of the open group, or -1 */
};

/**
 * Copy @p lcore_id's state. When @p pin is true and the group is open, its
 * reader stays open for the caller (copy->group_fd) until
 * pmu_state_lcore_unpin(). Returns 0; -EINVAL @p lcore_id out of range;
 * -ENODEV library not initialised.
 */
int pmu_state_lcore_copy(unsigned int lcore_id, bool pin, struct pmu_lcore_copy *copy);

/** Give back the reader pinned by pmu_state_lcore_copy() (no lock taken). */
void pmu_state_lcore_unpin(unsigned int lcore_id, struct pmu_lcore_copy *copy);

#endif /* PMU_STATE_H */
