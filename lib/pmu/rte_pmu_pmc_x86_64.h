/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef RTE_PMU_PMC_X86_64_H
#define RTE_PMU_PMC_X86_64_H

/**
 * @file
 * x86_64 counter and clock readers for the user-page read. Internal to
 * rte_pmu; included by rte_pmu_page.h.
 */

#include <stdint.h>

#include <rte_common.h>

/** Counters can be read from user space on this architecture. */
#define __RTE_PMU_HAVE_USER_READ 1

/** Scaling out of line: inline, its registers cost the common path five
 *  pushes and pops (44 instructions to the first ret against 33 without).
 */
#define __RTE_PMU_SCALE_INLINE 0

/**
 * Read a counter with rdpmc. The kernel's 1-based user index already
 * encodes fixed counters (1 << 30 | n), so ECX is index - 1.
 * Execute only when the page says cap_user_rdpmc and index != 0.
 */
static __rte_always_inline uint64_t
__rte_pmu_pmc_read(uint32_t user_index)
{
	uint32_t lo, hi;

	asm volatile("rdpmc" : "=a" (lo), "=d" (hi) : "c" (user_index - 1));

	return ((uint64_t)hi << 32) | lo;
}

/** Read the TSC, the clock behind the page's time_* fields on x86. */
static __rte_always_inline uint64_t
__rte_pmu_time_read(void)
{
	uint32_t lo, hi;

	asm volatile("rdtsc" : "=a" (lo), "=d" (hi));

	return ((uint64_t)hi << 32) | lo;
}

/**
 * floor((hi * 2^64 + lo) / d) with one divq; the caller guarantees
 * hi < d, so the quotient fits in 64 bits and the instruction cannot fault.
 */
#define __RTE_PMU_DIV_128_64 1
static inline uint64_t
__rte_pmu_div_128_64(uint64_t hi, uint64_t lo, uint64_t d)
{
	uint64_t q, r;

	asm("divq %[d]" : "=a" (q), "=d" (r) : "a" (lo), "d" (hi), [d] "rm" (d) : "cc");
	RTE_SET_USED(r);

	return q;
}

#endif /* RTE_PMU_PMC_X86_64_H */
