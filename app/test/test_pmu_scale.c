/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Scaling of multiplexed counters, exact: count * enabled / running with
 * products above 64 bits, against a reference computed here by schoolbook
 * long division on 32-bit limbs (independent of the library's 128-bit
 * arithmetic); and the inline page read scaling in its one seqlock pass.
 */

#include <inttypes.h>
#include <string.h>

#include <rte_common.h>

#include <rte_pmu.h>

#include "test.h"

/* floor(a * b / d) by 32-bit limbs; UINT64_MAX when it does not fit. */
static uint64_t
ref_muldiv(uint64_t a, uint64_t b, uint64_t d)
{
	uint64_t p[4] = { 0 }, hi = 0, lo = 0, rem = 0, q = 0;
	uint32_t al[2] = { (uint32_t)a, (uint32_t)(a >> 32) };
	uint32_t bl[2] = { (uint32_t)b, (uint32_t)(b >> 32) };
	int i, j, bit;

	/* Product in 4 limbs of 32 bits (kept in 64-bit cells). */
	for (i = 0; i < 2; i++) {
		uint64_t carry = 0;

		for (j = 0; j < 2; j++) {
			uint64_t t = (uint64_t)al[i] * bl[j];
			uint64_t s = p[i + j] + (t & 0xffffffffu) + carry;

			p[i + j] = s & 0xffffffffu;
			carry = (s >> 32) + (t >> 32);
		}
		p[i + 2] += carry;
	}
	lo = p[0] | (p[1] << 32);
	hi = p[2] | (p[3] << 32);

	/* Bit by bit, from the top: the remainder stays below d. */
	for (bit = 127; bit >= 0; bit--) {
		uint64_t in = bit >= 64 ? (hi >> (bit - 64)) & 1 : (lo >> bit) & 1;
		int top = (rem >> 63) != 0;

		rem = (rem << 1) | in;
		if (top || rem >= d) {
			rem -= d;
			if (bit >= 64)
				return UINT64_MAX;
			q |= UINT64_C(1) << bit;
		}
	}

	return q;
}

static int
check_scale(uint64_t count, uint64_t enabled, uint64_t running)
{
	uint64_t got = __rte_pmu_scale(count, enabled, running);
	uint64_t want = running == 0 ? count : ref_muldiv(count, enabled, running);

	TEST_ASSERT_EQUAL(got, want, "scale(%" PRIu64 ", %" PRIu64 ", %" PRIu64 "): got %"
		PRIu64 " want %" PRIu64, count, enabled, running, got, want);

	return TEST_SUCCESS;
}

static int
test_scale_edges(void)
{
	static const uint64_t cases[][3] = {
		/* product below 2^64: the 64-bit divide */
		{ 3000, 1000, 500 },
		{ UINT64_C(0xffffffff), UINT64_C(0xffffffff), 3 },
		/* product exactly 2^64, and 2^64 - 1 */
		{ UINT64_C(1) << 32, UINT64_C(1) << 32, 7 },
		{ UINT64_C(0xffffffff), UINT64_C(0x100000001), 5 },
		/* count * enabled above 2^64, quotient below */
		{ UINT64_C(1) << 40, UINT64_C(3) << 30, UINT64_C(1) << 30 },
		{ UINT64_C(1000000000007), UINT64_C(10000000003), UINT64_C(10000000000) },
		{ UINT64_MAX / 3, 3, 4 },
		{ UINT64_C(30000000000), UINT64_C(10000000000), UINT64_C(9999999999) },
		/* result at the top, and beyond it (saturates) */
		{ UINT64_MAX - 1, UINT64_MAX, UINT64_MAX - 1 },
		{ UINT64_MAX, 2, 1 },
		{ UINT64_C(1) << 63, 3, 1 },
		/* no scaling */
		{ 77, 5000, 0 },
		{ 77, 5000, 5000 },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(cases); i++)
		if (check_scale(cases[i][0], cases[i][1], cases[i][2]) != TEST_SUCCESS)
			return TEST_FAILED;

	/* Independent figures, not only the reference. */
	TEST_ASSERT_EQUAL(__rte_pmu_scale(UINT64_C(1) << 40, UINT64_C(3) << 30,
		UINT64_C(1) << 30), UINT64_C(3) << 40, "3 x 2^40");
	TEST_ASSERT_EQUAL(__rte_pmu_scale(UINT64_C(1000000000007), UINT64_C(10000000003),
		UINT64_C(10000000000)), UINT64_C(1000000000307), "1e12 + 7 scaled by 1 + 3e-10");
	TEST_ASSERT_EQUAL(__rte_pmu_scale(UINT64_MAX, 2, 1), UINT64_MAX, "saturated");

	return TEST_SUCCESS;
}

static int
test_scale_random(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	unsigned int i;

	for (i = 0; i < 200000; i++) {
		uint64_t count, enabled, running;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		count = x >> (x & 63);
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		enabled = (x >> (x & 31)) | 1;
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		running = (x % enabled) + 1;
		if (check_scale(count, enabled, running) != TEST_SUCCESS)
			return TEST_FAILED;
	}

	return TEST_SUCCESS;
}

/* The call-free long division used where the CPU has no 128/64 divide
 * (arm64), checked here on every architecture.
 */
static int
test_div_long(void)
{
	uint64_t x = 0x243f6a8885a308d3ull;
	unsigned int i;

	TEST_ASSERT_EQUAL(__rte_pmu_div_128_64_long(0, 7, 2), UINT64_C(3), "7 / 2");
	TEST_ASSERT_EQUAL(__rte_pmu_div_128_64_long(1, 0, 2), UINT64_C(1) << 63, "2^64 / 2");
	TEST_ASSERT_EQUAL(__rte_pmu_div_128_64_long(UINT64_MAX - 1, UINT64_MAX, UINT64_MAX),
		UINT64_MAX, "(2^128 - 2^64 - 1) / (2^64 - 1)");
	/* Dividend built as q * d + r (r < d): the quotient must be q. */
	for (i = 0; i < 200000; i++) {
		uint64_t q, d, r, got;
		unsigned __int128 n;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		q = x >> (x & 63);
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		d = (x >> (x & 63)) | 1;
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		r = x % d;
		n = (unsigned __int128)q * d + r;
		got = __rte_pmu_div_128_64_long((uint64_t)(n >> 64), (uint64_t)n, d);
		TEST_ASSERT_EQUAL(got, q, "(%" PRIu64 " x %" PRIu64 " + %" PRIu64 ") / d: got %"
			PRIu64, q, d, r, got);
		/* and the reference agrees on the product alone */
		if (i < 1000)
			TEST_ASSERT_EQUAL(ref_muldiv(q, d, d), q, "reference");
	}

	return TEST_SUCCESS;
}

/* (cyc * mult) >> shift, branch-free, against the reference at every shift. */
static int
test_mul_shr(void)
{
	uint64_t x = 0x13198a2e03707344ull;
	unsigned int i, shift;

	for (i = 0; i < 20000; i++) {
		uint64_t cyc;
		uint32_t mult;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		cyc = x;
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		mult = (uint32_t)(x >> 32);
		for (shift = 0; shift < 64; shift += 3) {
			/* The plain 128-bit shift as the reference. */
			unsigned __int128 p = (unsigned __int128)cyc * mult;
			uint64_t got = __rte_pmu_mul_u64_u32_shr(cyc, mult, shift);
			uint64_t want = (uint64_t)(p >> shift);

			TEST_ASSERT_EQUAL(got, want, "cyc 0x%" PRIx64 " mult %u shift %u",
				cyc, mult, shift);
		}
	}

	return TEST_SUCCESS;
}

/* The inline read on a constructed page: a multiplexed counter whose
 * count * (extended) enabled time overflows 64 bits is scaled exactly in
 * the one pass, by fast and full reads alike.
 */
static struct perf_event_mmap_page page;
static uint64_t raw_pmc, clock_now;
static unsigned int pmc_calls, time_calls;

static uint64_t
fake_pmc(uint32_t user_index __rte_unused)
{
	pmc_calls++;
	return raw_pmc;
}

static uint64_t
fake_time(void)
{
	time_calls++;
	return clock_now;
}

static int
test_page_scale_overflow(void)
{
	uint64_t value, enabled, running, delta, count;
	int full;

	memset(&page, 0, sizeof(page));
	page.lock = 4;
	page.index = 1;
	page.pmc_width = 64;
	page.cap_user_rdpmc = 1;
	page.cap_user_time = 1;
	page.offset = INT64_C(1) << 44;
	raw_pmc = 12345;
	/* 1 ns per clock tick (mult 1 << 10, shift 10), 1000 ticks since. */
	page.time_mult = 1u << 10;
	page.time_shift = 10;
	page.time_offset = 0;
	clock_now = 1000;
	page.time_enabled = UINT64_C(3) << 40;
	page.time_running = UINT64_C(1) << 40;

	delta = 1000;
	enabled = (UINT64_C(3) << 40) + delta;
	running = (UINT64_C(1) << 40) + delta;
	count = (UINT64_C(1) << 44) + 12345;
	for (full = 0; full < 2; full++) {
		pmc_calls = time_calls = 0;
		value = 0;
		if (!full && !__RTE_PMU_SCALE_INLINE) {
			/* This architecture scales out of line, in full mode. */
			TEST_ASSERT_EQUAL(__rte_pmu_page_read_with(&page, full, fake_pmc,
				fake_time, &value), __RTE_PMU_PAGE_SLOW, "fast read");
			TEST_ASSERT_EQUAL(pmc_calls + time_calls, 0u, "counter or clock read");
			continue;
		}
		TEST_ASSERT_SUCCESS(__rte_pmu_page_read_with(&page, full, fake_pmc, fake_time,
			&value), "read");
		TEST_ASSERT_EQUAL(value, ref_muldiv(count, enabled, running),
			"%s read: %" PRIu64, full ? "full" : "fast", value);
		TEST_ASSERT_EQUAL(pmc_calls, 1u, "counter reads %u", pmc_calls);
		TEST_ASSERT_EQUAL(time_calls, 1u, "clock reads %u", time_calls);
	}

	/* Not multiplexed: the clock is never read. */
	page.time_running = page.time_enabled;
	time_calls = 0;
	TEST_ASSERT_SUCCESS(__rte_pmu_page_read_with(&page, false, fake_pmc, fake_time, &value),
		"read");
	TEST_ASSERT_EQUAL(value, count, "unscaled %" PRIu64, value);
	TEST_ASSERT_EQUAL(time_calls, 0u, "clock read without multiplexing");

	/* Multiplexed without cap_user_time: scaled by the page's times as they are. */
	page.cap_user_time = 0;
	page.time_running = UINT64_C(1) << 40;
	TEST_ASSERT_SUCCESS(__rte_pmu_page_read_with(&page, !__RTE_PMU_SCALE_INLINE, fake_pmc,
		fake_time, &value), "read");
	TEST_ASSERT_EQUAL(value, 3 * count, "scaled by 3: %" PRIu64, value);
	TEST_ASSERT_EQUAL(time_calls, 0u, "clock read without cap_user_time");

	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_scale_suite = {
	.suite_name = "pmu multiplexed counter scaling",
	.unit_test_cases = {
		TEST_CASE(test_scale_edges),
		TEST_CASE(test_scale_random),
		TEST_CASE(test_div_long),
		TEST_CASE(test_mul_shr),
		TEST_CASE(test_page_scale_overflow),
		TEST_CASES_END()
	}
};

static int
test_pmu_scale(void)
{
	return unit_test_suite_runner(&pmu_scale_suite);
}

REGISTER_FAST_TEST(pmu_scale_autotest, true, true, test_pmu_scale);
