/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef RTE_PMU_PMC_ARM64_H
#define RTE_PMU_PMC_ARM64_H

/**
 * @file
 * arm64 counter and clock readers for the user-page read. Internal to
 * rte_pmu; included by rte_pmu_page.h.
 *
 * Counters are read through their direct registers: user index 32 is the
 * cycle counter PMCCNTR_EL0, any other index n is PMEVCNTR<n-1>_EL0. The
 * indirect PMSELR_EL0/PMXEVCNTR_EL0 pair is not used: the kernel clears
 * PMSELR_EL0 when it updates the page, which a selected-then-read pair
 * could straddle.
 */

#include <stdint.h>

#include <rte_common.h>

/** Counters can be read from user space on this architecture. */
#define __RTE_PMU_HAVE_USER_READ 1

/** User index of the cycle counter. */
#define __RTE_PMU_ARM64_CYCLE_INDEX 32

#define __RTE_PMU_MRS(reg) __extension__ ({ \
	uint64_t __v; \
	asm volatile("mrs %0, " reg : "=r" (__v)); \
	__v; \
})

#define __RTE_PMU_EVCNTR_CASE(n) \
	case (n) + 1: \
		return __RTE_PMU_MRS("pmevcntr" #n "_el0")

/** Read a counter by its 1-based user index (0 for an unknown index). */
static __rte_always_inline uint64_t
__rte_pmu_pmc_read(uint32_t user_index)
{
	switch (user_index) {
	case __RTE_PMU_ARM64_CYCLE_INDEX:
		return __RTE_PMU_MRS("pmccntr_el0");
	__RTE_PMU_EVCNTR_CASE(0);
	__RTE_PMU_EVCNTR_CASE(1);
	__RTE_PMU_EVCNTR_CASE(2);
	__RTE_PMU_EVCNTR_CASE(3);
	__RTE_PMU_EVCNTR_CASE(4);
	__RTE_PMU_EVCNTR_CASE(5);
	__RTE_PMU_EVCNTR_CASE(6);
	__RTE_PMU_EVCNTR_CASE(7);
	__RTE_PMU_EVCNTR_CASE(8);
	__RTE_PMU_EVCNTR_CASE(9);
	__RTE_PMU_EVCNTR_CASE(10);
	__RTE_PMU_EVCNTR_CASE(11);
	__RTE_PMU_EVCNTR_CASE(12);
	__RTE_PMU_EVCNTR_CASE(13);
	__RTE_PMU_EVCNTR_CASE(14);
	__RTE_PMU_EVCNTR_CASE(15);
	__RTE_PMU_EVCNTR_CASE(16);
	__RTE_PMU_EVCNTR_CASE(17);
	__RTE_PMU_EVCNTR_CASE(18);
	__RTE_PMU_EVCNTR_CASE(19);
	__RTE_PMU_EVCNTR_CASE(20);
	__RTE_PMU_EVCNTR_CASE(21);
	__RTE_PMU_EVCNTR_CASE(22);
	__RTE_PMU_EVCNTR_CASE(23);
	__RTE_PMU_EVCNTR_CASE(24);
	__RTE_PMU_EVCNTR_CASE(25);
	__RTE_PMU_EVCNTR_CASE(26);
	__RTE_PMU_EVCNTR_CASE(27);
	__RTE_PMU_EVCNTR_CASE(28);
	__RTE_PMU_EVCNTR_CASE(29);
	__RTE_PMU_EVCNTR_CASE(30);
	default:
		return 0;
	}
}

/** Read the virtual counter, the clock behind the page's time_* fields. */
static __rte_always_inline uint64_t
__rte_pmu_time_read(void)
{
	return __RTE_PMU_MRS("cntvct_el0");
}

#endif /* RTE_PMU_PMC_ARM64_H */
