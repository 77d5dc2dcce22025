/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_LOOP_H
#define TEST_PMU_LOOP_H

/* A loop of exactly TEST_LOOP_INSNS instructions per iteration, for tests
 * that assert exact instruction counts. TEST_LOOP_INSNS is 0 where no
 * such loop is written for the architecture.
 */

#include <stdint.h>

#include <rte_common.h>

#if defined(RTE_ARCH_ARM64)
#define TEST_LOOP_INSNS 2
static __rte_noinline void
test_loop(uint64_t n)
{
	asm volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r" (n) : : "cc");
}
#elif defined(RTE_ARCH_X86_64)
#define TEST_LOOP_INSNS 2
static __rte_noinline void
test_loop(uint64_t n)
{
	asm volatile("1: dec %0\n\tjnz 1b" : "+r" (n) : : "cc");
}
#else
#define TEST_LOOP_INSNS 0
static __rte_noinline void
test_loop(uint64_t n)
{
	volatile uint64_t i;

	for (i = 0; i < n; i++)
		;
}
#endif

#endif /* TEST_PMU_LOOP_H */
