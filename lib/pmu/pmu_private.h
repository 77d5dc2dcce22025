/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_PRIVATE_H
#define PMU_PRIVATE_H

/* Internal interfaces of librte_pmu. Nothing here is installed.
 *
 * Layers, each calling only down:
 *   pmu.c, pmu_info.c   state container and the control-path API
 *   pmu_list.c          rte_pmu_event_list()
 *   pmu_read.c          the read path outside the inline fast path
 *   pmu_group.c         an lcore's group: open, close
 *   pmu_fd.c            perf_event file descriptors (pmu_fd.h)
 *   pmu_event.c         event names -> attributes (pmu_event.h), with
 *                       pmu_event_names.c (perf's names), pmu_event_terms.c
 *                       (sysfs terms), pmu_core.c (core PMU of a CPU set),
 *                       pmu_pfm.c (vendor names through libpfm4)
 *   pmu_sysfs.c         the PMU folders in sysfs (pmu_sysfs.h)
 *   pmu_arch.c          the architecture backend (pmu_arch.h, drivers/pmu/<arch>)
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_spinlock.h>

#include "rte_pmu.h"
#include "pmu_arch.h"
#include "pmu_event.h"
#include "pmu_fd.h"
#include "pmu_sysfs.h"

extern int pmu_logtype;

/**
 * Set by a thread while the failures it meets are results rather than news
 * (listing events, trying an encoding on each core PMU): the library's log
 * lines from that thread are dropped. Other threads still log.
 */
RTE_DECLARE_PER_LCORE(unsigned int, pmu_log_quiet);

/** Log at a level given as a value (RTE_LOG_ERR, ...). */
#define PMU_LOG_AT(lvl, fmt, ...) do { \
	if (RTE_PER_LCORE(pmu_log_quiet) == 0) \
		rte_log(lvl, pmu_logtype, "PMU: " fmt "\n", ##__VA_ARGS__); \
} while (0)

#define PMU_LOG(level, fmt, ...) PMU_LOG_AT(RTE_LOG_ ## level, fmt, ##__VA_ARGS__)

/** An added event. */
struct pmu_event {
	char *name;                  /**< as given to rte_pmu_add_event() */
	struct pmu_event_desc desc;  /**< encoding, exclusion bits included */
};

/** Control-path state of one lcore's group. */
struct pmu_lcore {
	int fds[RTE_MAX_NUM_GROUP_EVENTS];      /**< -1 when closed; fds[0] leads */
	int group_fd; /**< the group's reader (pmu_fd_group_reader_open()), or -1 */
	/** As rte_pmu_lcore_status(); read without the lock by the lcore's
	 * own read path, so always accessed with __atomic builtins.
	 */
	int status;
	/* reads that left the fast path: rte_pmu_event_group::slow_reads */
	uint64_t read_errors; /**< reads that gave 0: read() failed (atomic) */
	bool read_error_logged;     /**< the first read error was logged */
	unsigned int open_failures; /**< transient open failures in a row */
};

/** User pages whose munmap() failed, kept to be unmapped later. */
#define PMU_STALE_PAGES 16

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
	void *stale_pages[PMU_STALE_PAGES];     /**< munmap() failed: tried again */
};

extern struct pmu_state pmu;

/** A group with no events: the fast path's target when none is open. */
extern struct rte_pmu_event_group pmu_no_group;

/**
 * The page in every slot of a group with no event there (index 0: the fast
 * path goes to __rte_pmu_read_fd(), which sees the event is not ready), so
 * that rte_pmu_read() needs no load of num_ready. Never mapped, never NULL.
 */
extern struct perf_event_mmap_page pmu_page_none;

/** Initialiser of rte_pmu_event_group::mmap_pages: every slot empty. */
#define PMU_PAGES_NONE { [0 ... RTE_MAX_NUM_GROUP_EVENTS - 1] = &pmu_page_none }

/* ---- an lcore's group (pmu_group.c); the lock is held unless said ---- */

/**
 * An lcore's group being opened. The system calls are made without the
 * library's lock, so that lcores opening their groups at once do not spin
 * on each other's system calls: pmu_group_open_begin() (lock held) copies
 * what the open needs and freezes the event list, pmu_group_open_run()
 * (lock not held) opens and maps, pmu_group_open_end() (lock held) hands
 * the descriptors to the lcore and publishes the group, or closes them.
 */
struct pmu_group_opening {
	unsigned int lcore_id;
	unsigned int num_events;
	unsigned int generation;
	const char *names[RTE_MAX_NUM_GROUP_EVENTS];
	struct pmu_event_desc descs[RTE_MAX_NUM_GROUP_EVENTS];
	int fds[RTE_MAX_NUM_GROUP_EVENTS];
	struct perf_event_mmap_page *pages[RTE_MAX_NUM_GROUP_EVENTS];
	int group_fd;
};

/** Start opening @p lcore_id's group (lock held). Returns 0 or -ENODATA. */
int pmu_group_open_begin(unsigned int lcore_id, struct pmu_group_opening *op);

/** Open and map the events of @p op (lock not held). Returns 0 or negative errno. */
int pmu_group_open_run(struct pmu_group_opening *op);

/**
 * Finish the open (lock held): with @p ret 0, publish the group; else
 * close what @p op holds and keep @p ret as the lcore's status. Returns 0
 * or negative errno.
 */
int pmu_group_open_end(struct pmu_group_opening *op, int ret);

/** Close @p lcore_id's group, if open, and clear its status. */
void pmu_group_close(unsigned int lcore_id);

/** Unmap the pages whose munmap() failed before; log those that stay. */
void pmu_group_unmap_stale(void);

/**
 * Read every event of @p lcore_id's open group with one read() system call
 * (of the group's reader): @p values[i] is event i's value scaled by the
 * group's times, which are returned when the pointers are not NULL. Call
 * it with the lock held, or from the lcore's own thread (its group cannot
 * close under it then). Returns the number of values filled (at most
 * @p n) or negative errno: -ENODEV the group is not open; -ENODATA the
 * group is in error state; another one from read().
 */
int pmu_group_read(unsigned int lcore_id, uint64_t *values, unsigned int n,
	uint64_t *enabled, uint64_t *running);

/* ---- the read path (pmu_read.c), from the reading thread, no lock ---- */

/**
 * Prepare the calling thread's reads: point its fast path at its lcore's
 * group and open the group on first use (again after a transient failure,
 * -EAGAIN). Returns 0 with @p lcore_id set when the group is open, or
 * negative errno: -ESRCH unregistered thread; -ENODEV library not
 * initialised; -ENODATA no event added; the group's failed status
 * otherwise.
 */
int pmu_read_prepare(unsigned int *lcore_id);

/* ---- internal API for tests (version.map INTERNAL) ---- */

/**
 * Use @p root instead of /sys/bus/event_source/devices (NULL restores it).
 * For tests on fixture trees; takes effect at the next rte_pmu_init().
 */
__rte_internal
int __rte_pmu_sysfs_root_set(const char *root);

/**
 * The core PMU's folder name found by rte_pmu_init() (e.g. "cpu",
 * "armv8_pmuv3_0"), "" when there is none or the library is not
 * initialised. For tests and tools that build pmu/term/ names.
 */
__rte_internal
const char *__rte_pmu_core_pmu(void);

#endif /* PMU_PRIVATE_H */
