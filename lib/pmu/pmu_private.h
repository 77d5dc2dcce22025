/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_PRIVATE_H
#define PMU_PRIVATE_H

/* Internal interfaces of librte_pmu. Nothing here is installed; drivers
 * use pmu_driver.h instead.
 *
 * Layers, each calling only down:
 *   pmu_telemetry.c, pmu_observe.c (an lcore seen from another thread),
 *   pmu_list.c, pmu_snapshot.c, pmu_trace.c
 *   pmu_read.c          the read path outside the inline fast path
 *   pmu.c               the control path: init, fini, add, an lcore's open
 *                       and close; owns every counter of the state
 *   pmu_group.c         preparing events, opening a group (no lock)
 *   pmu_fd.c            perf_event file descriptors (pmu_fd.h)
 *   pmu_event.c         event names -> attributes (pmu_event.h), with
 *                       pmu_event_names.c (perf's names), pmu_event_terms.c
 *                       (sysfs terms), pmu_core.c (core PMU of a CPU set),
 *                       pmu_pfm.c (vendor names through libpfm4)
 *   pmu_sysfs.c         the PMU folders in sysfs (pmu_sysfs.h)
 *   pmu_arch.c          the architecture backend (pmu_driver.h, drivers/pmu/<arch>)
 *   pmu_state.c         the state container, its lock, the log type (pmu_state.h)
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>
#include <rte_cycles.h>
#include <rte_lcore.h>

#include "rte_pmu.h"
#include "pmu_driver.h"
#include "pmu_event.h"
#include "pmu_fd.h"
#include "pmu_state.h"
#include "pmu_sysfs.h"

/* ---- preparing events and opening a group (pmu_group.c), no lock ---- */

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

/* ---- events a page cannot give, read without a system call ---- */

/**
 * The one read of event @p index of @p lc that its page cannot give and a
 * read() need not: an event that counts the TSC (pmu_arch_counts_tsc()),
 * whose value is rte_rdtsc() less the base set at the group's open. The
 * kernel counts such an event only while the thread runs; rte_rdtsc()
 * counts on while it is descheduled: the value is never below the
 * kernel's, and above it by the time the thread spent off the CPU since
 * the open. From the lcore's thread, its group open (num_ready read).
 * Returns true with @p value set, false for any other event.
 */
static inline bool
pmu_read_tsc(const struct pmu_lcore *lc, unsigned int index, uint64_t *value)
{
	if ((__atomic_load_n(&lc->tsc_events, __ATOMIC_RELAXED) & (UINT32_C(1) << index)) == 0)
		return false;
	*value = rte_rdtsc() - lc->tsc_base[index];

	return true;
}

/* ---- snapshots of a group (pmu_snapshot.c), from the lcore's thread ---- */

/**
 * The events of @p lc whose pages could not give them (bit i of @p slow:
 * event i of @p values, @p n of them): those pmu_read_tsc() gives from
 * rte_rdtsc(), the rest from one read() of the whole group (a slow read,
 * counted); the others are left as they are. Returns @p n, or negative
 * errno when read() failed or gave fewer values (values of the events it
 * was for left unchanged).
 */
int pmu_read_group_fallback(struct pmu_lcore *lc, uint64_t *values, unsigned int n,
	uint32_t slow);

/* ---- the control path (pmu.c) ---- */

/**
 * Open @p lcore_id's group now, from the lcore's own thread, unless it is
 * open or failed for good (again after a transient failure, -EAGAIN).
 * Returns 0 when it is open, or negative errno: -ENODEV library not
 * initialised; -ENODATA no event added; the group's failed status
 * otherwise.
 */
int pmu_lcore_open(unsigned int lcore_id);

/* ---- the read path (pmu_read.c), from the reading thread, no lock ---- */

/**
 * Prepare the calling thread's reads: point its fast path at its lcore's
 * group and open the group on first use. Returns 0 with @p lcore_id set
 * when the group is open, or negative errno: -ESRCH unregistered thread;
 * the codes of pmu_lcore_open() otherwise.
 */
int pmu_read_prepare(unsigned int *lcore_id);

/* ---- for tests (linked statically, not exported) ---- */

/**
 * Use @p root instead of /sys/bus/event_source/devices (NULL restores it).
 * For tests on fixture trees; takes effect at the next rte_pmu_init().
 */
int __rte_pmu_sysfs_root_set(const char *root);

/**
 * Put @p ops in place of the registered backend (NULL: none), without the
 * checks of pmu_arch_register(); returns the one it replaces. For tests
 * that run one architecture's fixture trees on another.
 */
const struct pmu_arch_ops *pmu_arch_swap(const struct pmu_arch_ops *ops);

/**
 * The core PMU's folder name found by rte_pmu_init() (e.g. "cpu",
 * "armv8_pmuv3_0"), "" when there is none or the library is not
 * initialised. For tests and tools that build pmu/term/ names.
 */
const char *__rte_pmu_core_pmu(void);

#endif /* PMU_PRIVATE_H */
