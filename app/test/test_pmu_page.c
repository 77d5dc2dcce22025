/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The user-page read algorithm over constructed pages: sign extension at
 * every width, time scaling with and without cap_user_time_short, no
 * division when running == 0, index 0, and the seqlock retry against page
 * updates made in the kernel's order. The counter and clock readers are
 * the test's own, so no PMU is needed.
 */

#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include <rte_pmu.h>

#include "test.h"

static struct perf_event_mmap_page page __rte_aligned(4096);

/* Fake hardware: the raw register and the clock. */
static uint64_t fake_pmc;
static uint64_t fake_time;
static unsigned int pmc_calls;

static uint64_t
read_fake_pmc(uint32_t user_index __rte_unused)
{
	pmc_calls++;
	return __atomic_load_n(&fake_pmc, __ATOMIC_RELAXED);
}

static uint64_t
read_fake_time(void)
{
	return fake_time;
}

static int
page_read(bool full, uint64_t *value)
{
	return __rte_pmu_page_read_with(&page, full, read_fake_pmc, read_fake_time, value);
}

static void
page_setup(uint32_t index, uint16_t width, int64_t offset, uint64_t raw)
{
	memset(&page, 0, sizeof(page));
	page.lock = 2;
	page.index = index;
	page.pmc_width = width;
	page.offset = offset;
	page.cap_user_rdpmc = 1;
	page.time_enabled = 1000;
	page.time_running = 1000;
	fake_pmc = raw;
	fake_time = 0;
	pmc_calls = 0;
}

/* Expected value computed independently of the library: the raw value
 * taken modulo 2^width and reinterpreted as a two's complement number.
 */
static uint64_t
expect(int64_t offset, uint64_t raw, unsigned int width)
{
	uint64_t v = width == 64 ? raw : raw & ((UINT64_C(1) << width) - 1);

	if (width < 64 && (v & (UINT64_C(1) << (width - 1))) != 0)
		return (uint64_t)offset - ((UINT64_C(1) << width) - v);

	return (uint64_t)offset + v;
}

static int
test_sign_extension(void)
{
	static const uint16_t widths[] = { 32, 40, 48, 64 };
	static const int64_t offsets[] = { 0, 1000, -5000, INT64_C(1) << 40 };
	unsigned int w, o, k;

	for (w = 0; w < RTE_DIM(widths); w++) {
		uint16_t width = widths[w];
		uint64_t top = width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
		uint64_t sign = UINT64_C(1) << (width - 1);
		const uint64_t raws[] = {
			0, 1, sign - 1, sign, sign + 1, top - 1, top,
			/* junk above the width must not matter */
			(~top) | 5, (~top) | sign,
		};

		for (o = 0; o < RTE_DIM(offsets); o++) {
			for (k = 0; k < RTE_DIM(raws); k++) {
				uint64_t value = 0, want;

				page_setup(3, width, offsets[o], raws[k]);
				TEST_ASSERT_SUCCESS(page_read(true, &value), "full read");
				want = expect(offsets[o], raws[k], width);
				TEST_ASSERT_EQUAL(value, want,
					"width %u offset %" PRId64 " raw 0x%" PRIx64
					": got 0x%" PRIx64 " want 0x%" PRIx64,
					width, offsets[o], raws[k], value, want);

				value = 0;
				TEST_ASSERT_SUCCESS(page_read(false, &value), "fast read");
				TEST_ASSERT_EQUAL(value, want, "fast path disagrees, width %u",
					width);
			}
		}
	}

	return TEST_SUCCESS;
}

/* The defect the signed shift avoids: an unsigned shift pair reads a
 * 32-bit counter that crossed its sign bit exactly 2^32 too high.
 */
static int
test_sign_extension_not_unsigned(void)
{
	/* Widths 0 and 64 keep the value as it is. */
	static const struct {
		uint64_t pmc;
		uint32_t width;
		int64_t want;
	} ext[] = {
		{ UINT64_C(0xfffffffa), 32, -6 },
		{ UINT64_C(0x7fffffff), 32, INT32_MAX },
		{ UINT64_C(0x80000000), 32, INT32_MIN },
		{ UINT64_C(0x123480000000), 32, INT32_MIN },
		{ UINT64_C(1) << 47, 48, -(INT64_C(1) << 47) },
		{ UINT64_MAX, 64, -1 },
		{ UINT64_C(0x8000000000000001), 0, INT64_MIN + 1 },
	};
	uint64_t value = 0;

	/* Counter was programmed at -16 and has counted 10 events. */
	page_setup(1, 32, 16 + 100, UINT64_C(0xfffffff0) + 10);
	TEST_ASSERT_SUCCESS(page_read(true, &value), "read");
	TEST_ASSERT_EQUAL(value, UINT64_C(110), "counter across the wrap: %" PRIu64, value);
	/* The helper itself, around the sign bit. */
	for (unsigned int i = 0; i < RTE_DIM(ext); i++)
		TEST_ASSERT_EQUAL(__rte_pmu_sign_extend(ext[i].pmc, ext[i].width), ext[i].want,
			"sign_extend(0x%" PRIx64 ", %u) = %" PRId64 ", want %" PRId64,
			ext[i].pmc, ext[i].width,
			__rte_pmu_sign_extend(ext[i].pmc, ext[i].width), ext[i].want);

	return TEST_SUCCESS;
}

static void
page_time(uint64_t enabled, uint64_t running, uint32_t mult, uint16_t shift,
	uint64_t offset, uint64_t cyc)
{
	page.time_enabled = enabled;
	page.time_running = running;
	page.cap_user_time = 1;
	page.time_mult = mult;
	page.time_shift = shift;
	page.time_offset = offset;
	fake_time = cyc;
}

static int
test_scaling_time(void)
{
	uint64_t value = 0, delta, enabled, running, want;

	/* 3000 counted over 500 ns on the PMU of 1000 enabled. */
	page_setup(2, 48, 1000, 2000);
	/* mult/shift: 1.5 ns per cycle; 400 cycles since the update. */
	page_time(1000, 500, 3u << 20, 21, 100, 400);
	TEST_ASSERT_SUCCESS(page_read(true, &value), "full read");
	delta = 100 + 400 * 3 / 2;
	enabled = 1000 + delta;
	running = 500 + delta;
	want = 3000 * enabled / running;
	TEST_ASSERT_EQUAL(value, want, "scaled %" PRIu64 " want %" PRIu64, value, want);

	/* The inline path scales too, in the same seqlock pass; or, where the
	 * architecture scales out of line, leaves it before the counter.
	 */
	value = 0;
	pmc_calls = 0;
	if (!__RTE_PMU_SCALE_INLINE) {
		TEST_ASSERT_EQUAL(page_read(false, &value), __RTE_PMU_PAGE_SLOW,
			"fast read of a multiplexed counter, scaling out of line");
		TEST_ASSERT_EQUAL(pmc_calls, 0u, "counter read %u times", pmc_calls);
	} else {
		TEST_ASSERT_SUCCESS(page_read(false, &value), "fast read of a multiplexed counter");
		TEST_ASSERT_EQUAL(value, want, "fast scaled %" PRIu64 " want %" PRIu64, value,
			want);
		TEST_ASSERT_EQUAL(pmc_calls, 1u, "counter read %u times in one pass", pmc_calls);
	}

	/* Product above 64 bits: 128-bit arithmetic is required. */
	page_setup(2, 64, 0, UINT64_C(1) << 40);
	page_time(UINT64_C(1) << 33, UINT64_C(1) << 32, 1, 0, 0, 0);
	TEST_ASSERT_SUCCESS(page_read(true, &value), "full read");
	TEST_ASSERT_EQUAL(value, UINT64_C(1) << 41, "large scaled value 0x%" PRIx64, value);

	return TEST_SUCCESS;
}

static int
test_scaling_time_short(void)
{
	uint64_t value = 0, cyc, delta, want;

	page_setup(2, 48, 0, 1000);
	page_time(2000, 1000, 1u << 10, 10, 0, 0);
	page.cap_user_time_short = 1;
	page.time_cycles = 0x10000;
	page.time_mask = 0xffff;
	/* The clock counts in 16 bits: 0x2_0123 is 0x123 past time_cycles. */
	fake_time = 0x20123;
	TEST_ASSERT_SUCCESS(page_read(true, &value), "full read");
	cyc = 0x10000 + ((0x20123 - 0x10000) & 0xffff);
	delta = cyc;
	want = 1000 * (2000 + delta) / (1000 + delta);
	TEST_ASSERT_EQUAL(value, want, "short time: %" PRIu64 " want %" PRIu64, value, want);

	/* Without the short capability the same clock gives another delta. */
	page.cap_user_time_short = 0;
	TEST_ASSERT_SUCCESS(page_read(true, &value), "full read");
	delta = 0x20123;
	want = 1000 * (2000 + delta) / (1000 + delta);
	TEST_ASSERT_EQUAL(value, want, "long time: %" PRIu64 " want %" PRIu64, value, want);

	return TEST_SUCCESS;
}

static int
test_running_zero(void)
{
	uint64_t value = 0;

	/* Never on the PMU, no time fields: no scaling, no division. */
	page_setup(4, 48, 77, 23);
	page.time_enabled = 5000;
	page.time_running = 0;
	TEST_ASSERT_SUCCESS(page_read(true, &value), "full read");
	TEST_ASSERT_EQUAL(value, UINT64_C(100), "running 0: %" PRIu64, value);

	/* Scaling helper on its own. */
	TEST_ASSERT_EQUAL(__rte_pmu_scale(100, 5000, 0), UINT64_C(100), "scale, running 0");
	TEST_ASSERT_EQUAL(__rte_pmu_scale(100, 300, 100), UINT64_C(300), "scale x3");
	TEST_ASSERT_EQUAL(__rte_pmu_scale(7, 10, 10), UINT64_C(7), "no multiplexing");

	return TEST_SUCCESS;
}

static int
test_index_zero(void)
{
	uint64_t value = 12345;

	/* Counter off the hardware: offset alone is stale, never returned. */
	page_setup(0, 48, 5000, 42);
	TEST_ASSERT_EQUAL(page_read(true, &value), __RTE_PMU_PAGE_NO_USER, "index 0 full");
	TEST_ASSERT_EQUAL(page_read(false, &value), __RTE_PMU_PAGE_SLOW, "index 0 fast");
	TEST_ASSERT_EQUAL(value, UINT64_C(12345), "value written on failure");
	TEST_ASSERT_EQUAL(pmc_calls, 0u, "counter read with index 0");

	/* User access withdrawn (x86 rdpmc = 0, arm64 perf_user_access = 0). */
	page_setup(5, 48, 5000, 42);
	page.cap_user_rdpmc = 0;
	TEST_ASSERT_EQUAL(page_read(true, &value), __RTE_PMU_PAGE_NO_USER, "no cap full");
	TEST_ASSERT_EQUAL(page_read(false, &value), __RTE_PMU_PAGE_SLOW, "no cap fast");
	TEST_ASSERT_EQUAL(pmc_calls, 0u, "counter read without cap_user_rdpmc");

	return TEST_SUCCESS;
}

/* A kernel page update: lock odd, fields, lock even, as
 * perf_event_update_userpage() does. The counter is reprogrammed to
 * @new_raw and the offset moves so that the counted value is kept.
 */
static void
kernel_update(uint64_t new_raw)
{
	uint32_t seq = __atomic_load_n(&page.lock, __ATOMIC_RELAXED);
	int64_t count;

	__atomic_store_n(&page.lock, seq + 1, __ATOMIC_RELAXED);
	rte_compiler_barrier();
	count = (int64_t)page.offset +
		__rte_pmu_sign_extend(__atomic_load_n(&fake_pmc, __ATOMIC_RELAXED),
			page.pmc_width);
	__atomic_store_n(&fake_pmc, new_raw, __ATOMIC_RELAXED);
	__atomic_store_n(&page.offset, (uint64_t)(count -
		__rte_pmu_sign_extend(new_raw, page.pmc_width)), __ATOMIC_RELAXED);
	rte_compiler_barrier();
	__atomic_store_n(&page.lock, seq + 2, __ATOMIC_RELAXED);
}

static uint64_t
read_pmc_interrupted(uint32_t user_index __rte_unused)
{
	uint64_t raw = __atomic_load_n(&fake_pmc, __ATOMIC_RELAXED);

	/* The first read is "interrupted" after the register was sampled:
	 * the kernel moves the counter, the sample is now inconsistent.
	 */
	if (pmc_calls++ == 0)
		kernel_update(0x80000000u);

	return raw;
}

static int
test_seqlock_retry_interrupt(void)
{
	uint64_t value = 0;

	page_setup(1, 32, 1000, 500);
	TEST_ASSERT_SUCCESS(__rte_pmu_page_read_with(&page, false, read_pmc_interrupted,
		read_fake_time, &value), "read");
	TEST_ASSERT_EQUAL(pmc_calls, 2u, "seqlock change not detected (%u reads)", pmc_calls);
	TEST_ASSERT_EQUAL(value, UINT64_C(1500), "value after retry %" PRIu64, value);

	/* A counter of a group's pass: no second pass of it alone, the
	 * caller reads the group again (and then gets the value).
	 */
	page_setup(1, 32, 1000, 500);
	pmc_calls = 0;
	value = 0;
	TEST_ASSERT_EQUAL(__rte_pmu_page_read_with(&page, __RTE_PMU_PAGE_GROUP,
		read_pmc_interrupted, read_fake_time, &value), __RTE_PMU_PAGE_CHANGED,
		"group mode: a page changed during the read is not __RTE_PMU_PAGE_CHANGED");
	TEST_ASSERT_EQUAL(pmc_calls, 1u, "group mode: %u reads, not 1", pmc_calls);
	TEST_ASSERT_SUCCESS(__rte_pmu_page_read_with(&page, __RTE_PMU_PAGE_GROUP,
		read_pmc_interrupted, read_fake_time, &value), "group mode: read again");
	TEST_ASSERT_EQUAL(value, UINT64_C(1500), "group mode: value read again %" PRIu64, value);

	/* The same of a multiplexed counter, where it is scaled inline. */
	page_setup(1, 32, 1000, 500);
	page_time(1000, 500, 3u << 20, 21, 100, 400);
	pmc_calls = 0;
	TEST_ASSERT_EQUAL(__rte_pmu_page_read_with(&page, __RTE_PMU_PAGE_GROUP,
		read_pmc_interrupted, read_fake_time, &value),
		__RTE_PMU_SCALE_INLINE ? __RTE_PMU_PAGE_CHANGED : __RTE_PMU_PAGE_SLOW,
		"group mode, multiplexed: not the whole group again");
	TEST_ASSERT_EQUAL(pmc_calls, __RTE_PMU_SCALE_INLINE ? 1u : 0u,
		"group mode, multiplexed: %u reads", pmc_calls);

	return TEST_SUCCESS;
}

/* Asynchronous writer: a timer signal on the reading thread, which is how
 * the kernel updates the page of a self-monitoring thread (interrupt,
 * context switch). The handler both counts and reprograms the counter.
 */
static volatile sig_atomic_t updates;
static uint64_t lcg = 88172645463325252ull;

static void
on_timer(int sig __rte_unused)
{
	lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
	if ((lcg >> 60) & 1) {
		/* The counter counts: no page update. */
		__atomic_fetch_add(&fake_pmc, 7, __ATOMIC_RELAXED);
	} else {
		kernel_update(lcg >> 32);
		updates = updates + 1;
	}
}

static int
test_seqlock_async_writer(void)
{
	struct sigevent sev;
	struct itimerspec its;
	struct sigaction sa, old_sa;
	uint64_t prev = 0, value, reads = 0, start;
	unsigned int retries;
	timer_t timer;
	int ret = TEST_SUCCESS;

	page_setup(1, 32, 0, 0);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_timer;
	sigemptyset(&sa.sa_mask);
	TEST_ASSERT_SUCCESS(sigaction(SIGRTMIN, &sa, &old_sa), "sigaction");

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGRTMIN;
	sev._sigev_un._tid = rte_gettid();
	TEST_ASSERT_SUCCESS(timer_create(CLOCK_MONOTONIC, &sev, &timer), "timer_create");
	memset(&its, 0, sizeof(its));
	its.it_interval.tv_nsec = 20000;
	its.it_value.tv_nsec = 20000;
	timer_settime(timer, 0, &its, NULL);

	updates = 0;
	start = rte_get_timer_cycles();
	do {
		for (int i = 0; i < 10000; i++) {
			value = 0;
			if (page_read(false, &value) != 0) {
				printf("fast read failed\n");
				ret = TEST_FAILED;
				goto out;
			}
			/* Counted value only grows, by 7 per timer tick at most
			 * a few ticks between two reads.
			 */
			if (value < prev || value - prev > 7 * 1000) {
				printf("torn read: %" PRIu64 " after %" PRIu64 "\n", value, prev);
				ret = TEST_FAILED;
				goto out;
			}
			prev = value;
			reads++;
		}
		retries = pmc_calls - reads;
	} while ((retries < 20 || updates < 1000) &&
		rte_get_timer_cycles() - start < 3 * rte_get_timer_hz());
out:
	timer_delete(timer);
	sigaction(SIGRTMIN, &old_sa, NULL);
	if (ret != TEST_SUCCESS)
		return ret;

	retries = pmc_calls - reads;
	printf("%" PRIu64 " reads, %d page updates, %u retries\n", reads, (int)updates, retries);
	TEST_ASSERT(updates > 0, "timer never fired");
	TEST_ASSERT(retries > 0, "no read ever overlapped an update in %d updates",
		(int)updates);

	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_page_suite = {
	.suite_name = "pmu user-page read algorithm",
	.unit_test_cases = {
		TEST_CASE(test_sign_extension),
		TEST_CASE(test_sign_extension_not_unsigned),
		TEST_CASE(test_scaling_time),
		TEST_CASE(test_scaling_time_short),
		TEST_CASE(test_running_zero),
		TEST_CASE(test_index_zero),
		TEST_CASE(test_seqlock_retry_interrupt),
		TEST_CASE(test_seqlock_async_writer),
		TEST_CASES_END()
	}
};

static int
test_pmu_page(void)
{
	return unit_test_suite_runner(&pmu_page_suite);
}

REGISTER_FAST_TEST(pmu_page_autotest, true, true, test_pmu_page);
