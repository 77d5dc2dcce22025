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

#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include <rte_common.h>

/** Counters can be read from user space on this architecture. */
#define __RTE_PMU_HAVE_USER_READ 1


#define __RTE_PMU_MRS(reg) __extension__ ({ \
	uint64_t __v; \
	asm volatile("mrs %0, " reg : "=r" (__v)); \
	__v; \
})

/* Counter read by computed branch into a table of two-instruction entries
 * (mrs; b), one per user index modulo 32, laid out backwards from label 1:
 * entry m (m = index mod 32) at 1 - 8m: user index 32, the cycle counter
 * PMCCNTR_EL0 (m = 0), is the entry at 1 itself; m = 1..31 is
 * PMEVCNTR<m-1>_EL0. Every entry, the last one too, ends with its branch,
 * so that every counter costs the same instructions to read (tests
 * compare counters read the same way; the last branch is to the next
 * instruction). The
 * index is masked, so an index the table does not know (a later kernel's
 * 33 for an instruction counter) reads a wrong counter but never jumps
 * outside the table; the page does not give one on the kernels supported.
 * Cheaper than a compiler's jump table: ubfiz, adr, sub, br, mrs, b.
 */
#if defined(__ARM_FEATURE_BTI_DEFAULT)
#define __RTE_PMU_BTI "bti j\n\t"
#define __RTE_PMU_ENTRY_SHIFT "4"
#define __RTE_PMU_PAD "nop\n\t"
#else
#define __RTE_PMU_BTI ""
#define __RTE_PMU_ENTRY_SHIFT "3"
#define __RTE_PMU_PAD ""
#endif
#define __RTE_PMU_ENTRY(reg) __RTE_PMU_BTI "mrs %[v], " reg "\n\tb 2f\n\t" __RTE_PMU_PAD
#define __RTE_PMU_EVCNTR(n) __RTE_PMU_ENTRY("pmevcntr" #n "_el0")

/**
 * Read a counter by its 1-based user index (1..31: event counters, 32: the
 * cycle counter).
 */
static __rte_always_inline uint64_t
__rte_pmu_pmc_read(uint32_t user_index)
{
	uint64_t v, tmp;

	asm volatile(
		"ubfiz %w[t], %w[i], #" __RTE_PMU_ENTRY_SHIFT ", #5\n\t"
		"adr %[v], 1f\n\t"
		"sub %[t], %[v], %[t]\n\t"
		"br %[t]\n\t"
		__RTE_PMU_EVCNTR(30) __RTE_PMU_EVCNTR(29) __RTE_PMU_EVCNTR(28)
		__RTE_PMU_EVCNTR(27) __RTE_PMU_EVCNTR(26) __RTE_PMU_EVCNTR(25)
		__RTE_PMU_EVCNTR(24) __RTE_PMU_EVCNTR(23) __RTE_PMU_EVCNTR(22)
		__RTE_PMU_EVCNTR(21) __RTE_PMU_EVCNTR(20) __RTE_PMU_EVCNTR(19)
		__RTE_PMU_EVCNTR(18) __RTE_PMU_EVCNTR(17) __RTE_PMU_EVCNTR(16)
		__RTE_PMU_EVCNTR(15) __RTE_PMU_EVCNTR(14) __RTE_PMU_EVCNTR(13)
		__RTE_PMU_EVCNTR(12) __RTE_PMU_EVCNTR(11) __RTE_PMU_EVCNTR(10)
		__RTE_PMU_EVCNTR(9) __RTE_PMU_EVCNTR(8) __RTE_PMU_EVCNTR(7)
		__RTE_PMU_EVCNTR(6) __RTE_PMU_EVCNTR(5) __RTE_PMU_EVCNTR(4)
		__RTE_PMU_EVCNTR(3) __RTE_PMU_EVCNTR(2) __RTE_PMU_EVCNTR(1)
		__RTE_PMU_EVCNTR(0)
		"1:\n\t"
		__RTE_PMU_ENTRY("pmccntr_el0")
		"2:"
		: [v] "=&r" (v), [t] "=&r" (tmp)
		: [i] "r" (user_index));

	return v;
}

/**
 * Sign-extend a raw counter of @p width bits. The shift instructions take
 * their amount modulo 64, so 64 - width needs no mask (width 64 and 0
 * shift by 0): neg, lsl, asr.
 */
#define __RTE_PMU_SIGN_EXTEND(pmc, width) __extension__ ({ \
	uint64_t __s; \
	int64_t __v; \
	asm("neg %w[s], %w[w]\n\tlsl %[v], %[p], %[s]\n\tasr %[v], %[v], %[s]" \
		: [v] "=&r" (__v), [s] "=&r" (__s) : [p] "r" (pmc), [w] "r" (width)); \
	__v; \
})

/**
 * Load two adjacent page fields with one ldp: a single instruction, so an
 * interrupt (the kernel's page update on this CPU) falls before or after
 * both, never between.
 */
#define __RTE_PMU_LOAD_PAIR(pc, f1, f2, v1, v2) do { \
	uint64_t __a, __b; \
	RTE_BUILD_BUG_ON(sizeof((pc)->f1) != sizeof((pc)->f2) || \
		offsetof(struct perf_event_mmap_page, f2) != \
		offsetof(struct perf_event_mmap_page, f1) + sizeof((pc)->f1)); \
	if (sizeof((pc)->f1) == 4) \
		asm volatile("ldp %w0, %w1, [%2, %3]" : "=r" (__a), "=r" (__b) \
			: "r" (pc), "i" (offsetof(struct perf_event_mmap_page, f1)), \
			"m" ((pc)->f1), "m" ((pc)->f2)); \
	else \
		asm volatile("ldp %0, %1, [%2, %3]" : "=r" (__a), "=r" (__b) \
			: "r" (pc), "i" (offsetof(struct perf_event_mmap_page, f1)), \
			"m" ((pc)->f1), "m" ((pc)->f2)); \
	(v1) = (__typeof__(v1))__a; \
	(v2) = (__typeof__(v2))__b; \
} while (0)

/** Read the virtual counter, the clock behind the page's time_* fields. */
static __rte_always_inline uint64_t
__rte_pmu_time_read(void)
{
	return __RTE_PMU_MRS("cntvct_el0");
}

/** Load pmc_width into a 32-bit register, with no extra zero extension. */
#define __RTE_PMU_LOAD_WIDTH(pc) __extension__ ({ \
	uint32_t __w; \
	asm volatile("ldrh %w0, [%1, %2]" : "=r" (__w) \
		: "r" (pc), "i" (offsetof(struct perf_event_mmap_page, pmc_width)), \
		"m" ((pc)->pmc_width)); \
	__w; \
})

#endif /* RTE_PMU_PMC_ARM64_H */
