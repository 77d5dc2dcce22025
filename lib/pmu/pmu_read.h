/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_READ_H
#define PMU_READ_H

/* The read path outside the inline fast path (pmu_read.c), from the
 * reading thread, no lock; and the events a page cannot give, read
 * without a system call.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_cycles.h>

#include "pmu_state.h"

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

/**
 * Prepare the calling thread's reads: point its fast path at its lcore's
 * group and open the group on first use. Returns 0 with @p lcore_id set
 * when the group is open, or negative errno: -ESRCH unregistered thread;
 * the codes of pmu_lcore_open() otherwise.
 */
int pmu_read_prepare(unsigned int *lcore_id);

/**
 * A read of event @p index on @p lc (the calling thread's) failed with
 * @p err: counted in read_errors, the first logged. Returns the 0 the read
 * gives.
 */
uint64_t pmu_read_error(struct pmu_lcore *lc, unsigned int index, int err);

/** Whether a read() that gave the group's times @p enabled and
 *  @p running found it never run since it opened (its values are not
 *  counts); kept for rte_pmu_lcore_status() (-ENOSPC). Inline: the
 *  fallback read stays within its goal of a plain read().
 */
static inline bool
pmu_read_not_run(struct pmu_lcore *lc, uint64_t enabled, uint64_t running)
{
	bool not_run = enabled != 0 && running == 0;

	if (unlikely(not_run != __atomic_load_n(&lc->not_run, __ATOMIC_RELAXED)))
		__atomic_store_n(&lc->not_run, not_run, __ATOMIC_RELAXED);
	return not_run;
}

#endif /* PMU_READ_H */
