/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef RTE_PMU_PAGE_H
#define RTE_PMU_PAGE_H

/**
 * @file
 * The one implementation of reading a counter through the perf_event user
 * page (struct perf_event_mmap_page). Internal to rte_pmu; included by
 * rte_pmu.h. Do not include directly.
 *
 * The arithmetic is split into pure functions (sign extension, time
 * extension, scaling) so that tests can drive them with constructed
 * pages, and the seqlock loop takes the counter and clock readers as
 * arguments so that a test can substitute them. rte_pmu_read() uses the
 * architecture's readers from rte_pmu_pmc_<arch>.h.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include <rte_branch_prediction.h>
#include <rte_atomic.h>
#include <rte_common.h>

#include "rte_pmu_pmc.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Untorn single load of a page field that the compiler may neither cache
 * nor split (READ_ONCE semantics). A volatile access rather than a relaxed
 * atomic: GCC keeps the field's offset in the load instead of spending a
 * register on each address.
 */
#define __RTE_PMU_LOAD(field) (*(const volatile __typeof__(field) *)&(field))

#ifndef __RTE_PMU_LOAD_PAIR
/** Load two adjacent page fields (one instruction where the arch can). */
#define __RTE_PMU_LOAD_PAIR(pc, f1, f2, v1, v2) do { \
	(v1) = (__typeof__(v1))__RTE_PMU_LOAD((pc)->f1); \
	(v2) = (__typeof__(v2))__RTE_PMU_LOAD((pc)->f2); \
} while (0)
#endif

#ifndef __RTE_PMU_LOAD_WIDTH
/** Load pmc_width as a 32-bit value. */
#define __RTE_PMU_LOAD_WIDTH(pc) ((uint32_t)__RTE_PMU_LOAD((pc)->pmc_width))
#endif

/** Bit of perf_event_mmap_page::capabilities: the counter may be read here. */
#define __RTE_PMU_CAP_USER_RDPMC (UINT64_C(1) << 2)
/** Bit of perf_event_mmap_page::capabilities: time_* fields are valid. */
#define __RTE_PMU_CAP_USER_TIME (UINT64_C(1) << 3)
/** Bit of perf_event_mmap_page::capabilities: time_cycles/time_mask valid. */
#define __RTE_PMU_CAP_USER_TIME_SHORT (UINT64_C(1) << 5)

/** Counter reader: returns the raw register for a 1-based user index. */
typedef uint64_t (*__rte_pmu_pmc_reader_t)(uint32_t user_index);
/** Clock reader: returns the counter that time_* fields convert to ns. */
typedef uint64_t (*__rte_pmu_time_reader_t)(void);

/** Result of __rte_pmu_page_read(): page cannot give the live value. */
#define __RTE_PMU_PAGE_NO_USER 1
/** Result of __rte_pmu_page_read() in fast mode: needs the full read. */
#define __RTE_PMU_PAGE_SLOW 2

/** __rte_pmu_page_read() modes (its full argument; false and true work). */
#define __RTE_PMU_PAGE_FAST 0
#define __RTE_PMU_PAGE_FULL 1
/** Result of __rte_pmu_page_read() in group mode: the page changed during
 *  the read; read the group again.
 */
#define __RTE_PMU_PAGE_CHANGED 4
/** Fast mode for one counter of a group read in one pass: a page updated
 *  while its counter was read (a context switch) gives __RTE_PMU_PAGE_CHANGED
 *  rather than a second pass of this counter alone, so that the caller
 *  reads the whole group again. A second pass of one counter would take it
 *  later than the others by that pass's instructions: a stage ending there
 *  and the one beginning there would be off by them, in opposite ways.
 */
#define __RTE_PMU_PAGE_GROUP 2

/**
 * Sign-extend a raw counter of @p width bits (the page's pmc_width).
 * Widths 0 and 64 leave the value as is.
 */
static __rte_always_inline int64_t
__rte_pmu_sign_extend(uint64_t pmc, uint32_t width)
{
	unsigned int shift = (64u - width) & 63u;

	/* Shift left as unsigned (no undefined behaviour), right as signed. */
	return (int64_t)(pmc << shift) >> shift;
}

#ifndef __RTE_PMU_SIGN_EXTEND
/** Sign extension on the read path (an architecture may do it shorter). */
#define __RTE_PMU_SIGN_EXTEND(pmc, width) __rte_pmu_sign_extend(pmc, width)
#endif

/**
 * (cyc * mult) >> shift with a 128-bit product, as the kernel's
 * mul_u64_u32_shr (shift below 64, as the kernel gives). The 128-bit shift
 * is spelt out so that it needs no branch: hi << (64 - shift) is computed
 * as (hi << 1) << (63 - shift), which is right for shift 0 too (63 - s is
 * s ^ 63 for s below 64).
 */
static __rte_always_inline uint64_t
__rte_pmu_mul_u64_u32_shr(uint64_t cyc, uint32_t mult, uint32_t shift)
{
	/* __extension__: ISO C has no 128-bit integer (-Wpedantic). */
	__extension__ unsigned __int128 product = (unsigned __int128)cyc * mult;
	uint64_t hi = (uint64_t)(product >> 64), lo = (uint64_t)product;
	unsigned int s = shift & 63u;

	return ((hi << 1) << (s ^ 63u)) | (lo >> s);
}

/** Time fields of a page, read inside the seqlock. */
struct __rte_pmu_page_time {
	uint64_t cyc;         /**< clock read inside the seqlock */
	uint64_t time_offset; /**< perf_event_mmap_page::time_offset */
	uint64_t time_cycles; /**< perf_event_mmap_page::time_cycles */
	uint64_t time_mask;   /**< perf_event_mmap_page::time_mask */
	uint32_t time_mult;   /**< perf_event_mmap_page::time_mult */
	uint32_t time_shift;  /**< perf_event_mmap_page::time_shift */
	bool time_short;      /**< cap_user_time_short was set */
};

/**
 * Nanoseconds elapsed since time_enabled/time_running were last updated,
 * from the clock value and the page's conversion fields.
 */
static inline uint64_t
__rte_pmu_time_delta(const struct __rte_pmu_page_time *t)
{
	uint64_t cyc = t->cyc;

	if (t->time_short)
		cyc = t->time_cycles + ((cyc - t->time_cycles) & t->time_mask);

	return t->time_offset + __rte_pmu_mul_u64_u32_shr(cyc, t->time_mult, t->time_shift);
}

/**
 * floor((hi * 2^64 + lo) / d) for hi < d (the quotient fits in 64 bits),
 * without a library call: long division in two 32-bit digits, each
 * estimated with a 64/32 divide of the normalised divisor and corrected
 * (at most twice, as Knuth's algorithm D shows). Architectures with a
 * 128/64 divide instruction use it instead (__rte_pmu_div_128_64()).
 */
static inline uint64_t
__rte_pmu_div_128_64_long(uint64_t hi, uint64_t lo, uint64_t d)
{
	const uint64_t b = UINT64_C(1) << 32;
	unsigned int s = (unsigned int)__builtin_clzll(d);
	uint64_t dh, dl, nh, n1, n0, rest, q1, q0, r;

	/* Normalise: top bit of d set; (hi:lo) shifted alike (hi < d: no loss). */
	d <<= s;
	dh = d >> 32;
	dl = d & (b - 1);
	nh = (hi << s) | ((lo >> 1) >> (s ^ 63u));
	lo <<= s;
	n1 = lo >> 32;
	n0 = lo & (b - 1);

	q1 = nh / dh;
	r = nh - q1 * dh;
	while (q1 >= b || q1 * dl > ((r << 32) | n1)) {
		q1--;
		r += dh;
		if (r >= b)
			break;
	}
	rest = (nh << 32) + n1 - q1 * d;

	q0 = rest / dh;
	r = rest - q0 * dh;
	while (q0 >= b || q0 * dl > ((r << 32) | n0)) {
		q0--;
		r += dh;
		if (r >= b)
			break;
	}

	return (q1 << 32) | q0;
}

#ifndef __RTE_PMU_DIV_128_64
/** floor((hi * 2^64 + lo) / d) for hi < d. */
#define __rte_pmu_div_128_64 __rte_pmu_div_128_64_long
#endif

/**
 * Scale a count of an event that ran @p running of @p enabled ns:
 * floor(count * enabled / running), exact. A 64-bit multiply and divide
 * when the product fits in 64 bits; otherwise a 128-bit product divided
 * without loss (the quotient saturates at UINT64_MAX, which only a value
 * above 2^64 counts could reach). Without running time (never scheduled)
 * the count is returned as is.
 */
static inline uint64_t
__rte_pmu_scale(uint64_t count, uint64_t enabled, uint64_t running)
{
	__extension__ unsigned __int128 wide;
	uint64_t product;

	if (running == 0 || enabled == running)
		return count;
	if (likely(!__builtin_mul_overflow(count, enabled, &product)))
		return product / running;

	wide = __extension__ (unsigned __int128)count * enabled;
	if ((uint64_t)(wide >> 64) >= running)
		return UINT64_MAX;

	return __rte_pmu_div_128_64((uint64_t)(wide >> 64), (uint64_t)wide, running);
}

/**
 * Time elapsed since the page's time_enabled/time_running were written,
 * read inside the caller's seqlock pass (0 without cap_user_time).
 */
static __rte_always_inline uint64_t
__rte_pmu_page_time_since(struct perf_event_mmap_page *pc, uint64_t caps,
	__rte_pmu_time_reader_t read_time)
{
	struct __rte_pmu_page_time t;

	if ((caps & __RTE_PMU_CAP_USER_TIME) == 0)
		return 0;

	t.cyc = read_time();
	t.time_mult = __RTE_PMU_LOAD(pc->time_mult);
	t.time_shift = __RTE_PMU_LOAD(pc->time_shift);
	t.time_offset = __RTE_PMU_LOAD(pc->time_offset);
	t.time_short = (caps & __RTE_PMU_CAP_USER_TIME_SHORT) != 0;
	t.time_cycles = 0;
	t.time_mask = 0;
	if (t.time_short)
		__RTE_PMU_LOAD_PAIR(pc, time_cycles, time_mask, t.time_cycles, t.time_mask);

	return __rte_pmu_time_delta(&t);
}

/**
 * Read a counter through its user page, in one seqlock pass.
 *
 * A counter on the hardware and readable here is read, sign-extended and,
 * when it was multiplexed (time_enabled != time_running), scaled by its
 * enabled/running times extended to now with the page's time fields, all
 * from one pass (a multiplexed counter's pass starts again in a loop of its
 * own: the header words are loaded twice, never through a call). A page
 * that cannot give the live value (index 0, user access off) returns
 * before the counter is touched: __RTE_PMU_PAGE_SLOW in fast and group
 * modes, __RTE_PMU_PAGE_NO_USER in full mode; the caller must read() the
 * event's file descriptor. Where __RTE_PMU_SCALE_INLINE is 0, fast and
 * group modes also give __RTE_PMU_PAGE_SLOW for a multiplexed counter (full
 * mode scales it). A page changed during the pass is read again, but in
 * group mode, which gives __RTE_PMU_PAGE_CHANGED.
 *
 * @param pc
 *   The event's user page.
 * @param mode
 *   A compile-time constant: which code a page without the live value gets,
 *   __RTE_PMU_PAGE_FAST (false), __RTE_PMU_PAGE_FULL (true) or
 *   __RTE_PMU_PAGE_GROUP.
 * @param read_pmc
 *   Counter reader (architecture's, or a test's).
 * @param read_time
 *   Clock reader matching the page's time_* conversion.
 * @param value
 *   Counter value on success.
 * @return
 *   0 on success, __RTE_PMU_PAGE_SLOW, __RTE_PMU_PAGE_NO_USER or (group
 *   mode) __RTE_PMU_PAGE_CHANGED.
 */
static __rte_always_inline int
__rte_pmu_page_read_with(struct perf_event_mmap_page *pc, unsigned int mode,
	__rte_pmu_pmc_reader_t read_pmc, __rte_pmu_time_reader_t read_time,
	uint64_t *value)
{
	const bool full = mode == __RTE_PMU_PAGE_FULL;
	uint64_t caps, count, enabled, running, delta;
	uint32_t seq, index;

	/* Not multiplexed: the common case, with nothing about scaling in it. */
	do {
		/* lock first (the pair is one load where the arch allows). */
		__RTE_PMU_LOAD_PAIR(pc, lock, index, seq, index);
		rte_compiler_barrier();

		__RTE_PMU_LOAD_PAIR(pc, offset, time_enabled, count, enabled);
		__RTE_PMU_LOAD_PAIR(pc, time_running, capabilities, running, caps);
		if (unlikely(!__RTE_PMU_HAVE_USER_READ || index == 0 ||
				(caps & __RTE_PMU_CAP_USER_RDPMC) == 0))
			return full ? __RTE_PMU_PAGE_NO_USER : __RTE_PMU_PAGE_SLOW;
		if (unlikely(enabled != running)) {
			if (!full && !__RTE_PMU_SCALE_INLINE)
				return __RTE_PMU_PAGE_SLOW;
			goto multiplexed;
		}

		count += (uint64_t)__RTE_PMU_SIGN_EXTEND(read_pmc(index),
			__RTE_PMU_LOAD_WIDTH(pc));

		rte_compiler_barrier();
		if (likely(__RTE_PMU_LOAD(pc->lock) == seq))
			break;
		if (mode == __RTE_PMU_PAGE_GROUP)
			return __RTE_PMU_PAGE_CHANGED;
	} while (true);

	*value = count;
	return 0;

	/* Multiplexed: a pass of its own, with both times extended to now
	 * from the page's time fields; a retry stays in this loop, and a
	 * retry that finds the counter no longer multiplexed scales by 1.
	 * Going on with the first pass's values instead cost the loop above
	 * 6 register moves.
	 */
multiplexed:
	do {
		__RTE_PMU_LOAD_PAIR(pc, lock, index, seq, index);
		rte_compiler_barrier();

		__RTE_PMU_LOAD_PAIR(pc, offset, time_enabled, count, enabled);
		__RTE_PMU_LOAD_PAIR(pc, time_running, capabilities, running, caps);
		if (unlikely(index == 0 || (caps & __RTE_PMU_CAP_USER_RDPMC) == 0))
			return full ? __RTE_PMU_PAGE_NO_USER : __RTE_PMU_PAGE_SLOW;
		delta = __rte_pmu_page_time_since(pc, caps, read_time);

		count += (uint64_t)__RTE_PMU_SIGN_EXTEND(read_pmc(index),
			__RTE_PMU_LOAD_WIDTH(pc));

		rte_compiler_barrier();
		if (likely(__RTE_PMU_LOAD(pc->lock) == seq))
			break;
		if (mode == __RTE_PMU_PAGE_GROUP)
			return __RTE_PMU_PAGE_CHANGED;
	} while (true);

	*value = __rte_pmu_scale(count, enabled + delta, running + delta);
	return 0;
}

/** __rte_pmu_page_read_with() with this architecture's readers. */
static __rte_always_inline int
__rte_pmu_page_read(struct perf_event_mmap_page *pc, unsigned int mode, uint64_t *value)
{
	return __rte_pmu_page_read_with(pc, mode, __rte_pmu_pmc_read, __rte_pmu_time_read,
		value);
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMU_PAGE_H */
