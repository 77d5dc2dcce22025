/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The view measured stage calls read the counters through
 * (lib/pmu/pmu_stage_view.h), over constructed pages and the test's own
 * registers, so that it runs without a PMU: which pages give a view, raw
 * reads that hold while no page changes and fail once one does, deltas of
 * a register that wrapped, open frames turned into counter values when
 * the view is dropped, and the layouts read by registers of their own.
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

/* The test's registers, by 1-based user index (32: the cycle counter). */
static uint64_t fake_regs[33];
static unsigned int fake_reads;

static uint64_t
fake_read(uint32_t index)
{
	fake_reads++;
	return fake_regs[index % RTE_DIM(fake_regs)];
}

#define PMU_STAGE_VIEW_PMC_READ(index) fake_read(index)
#define PMU_STAGE_VIEW_USER_READ 1
#include "pmu_stage_view.h"

#include "pmu_private.h"
#include "test.h"

#define NUM_PAGES 2

static struct perf_event_mmap_page pages[NUM_PAGES] __rte_aligned(4096);
static struct perf_event_mmap_page *page_ptrs[NUM_PAGES] = { &pages[0], &pages[1] };
static struct __rte_pmu_stage_lcore sl;

/* Event 0 on event counter 1 (48 bits), event 1 on the cycle counter (64
 * bits), both readable from user space.
 */
static void
pages_setup(void)
{
	memset(pages, 0, sizeof(pages));
	memset(&sl, 0, sizeof(sl));
	memset(fake_regs, 0, sizeof(fake_regs));
	pages[0].lock = 4;
	pages[0].index = 1;
	pages[0].pmc_width = 48;
	pages[0].offset = 1000;
	pages[0].cap_user_rdpmc = 1;
	pages[1].lock = 6;
	pages[1].index = 32;
	pages[1].pmc_width = 64;
	pages[1].offset = -5;
	pages[1].cap_user_rdpmc = 1;
	sl.pages = page_ptrs;
	sl.num_events = NUM_PAGES;
	sl.frames[0].tag = __RTE_PMU_STAGE_SENTINEL;
	sl.sp = &sl.frames[1];
}

/* Which pages give a view, and what it holds. */
static int
test_view_build(void)
{
	pages_setup();
	TEST_ASSERT_SUCCESS(view_build(&sl), "two readable pages");
	TEST_ASSERT(sl.view.valid == 1 && sl.view.lock_sum == 10, "valid %u, lock sum %u",
		sl.view.valid, sl.view.lock_sum);
	TEST_ASSERT(sl.view.index[0] == 1 && sl.view.index[1] == 32, "indexes");
	TEST_ASSERT(sl.view.mask[0] == (UINT64_C(1) << 48) - 1 && sl.view.mask[1] == UINT64_MAX,
		"masks %" PRIx64 " %" PRIx64, sl.view.mask[0], sl.view.mask[1]);

	pages[1].index = 0;
	TEST_ASSERT(view_build(&sl) != 0 && sl.view.valid == 0, "a counter not on the PMU");
	pages_setup();
	pages[0].cap_user_rdpmc = 0;
	TEST_ASSERT(view_build(&sl) != 0 && sl.view.valid == 0, "no user access");
	pages_setup();
	pages[0].pmc_width = 0;
	TEST_ASSERT(view_build(&sl) != 0 && sl.view.valid == 0, "width 0");
	pages_setup();
	pages[0].time_enabled = 2000;
	pages[0].time_running = 1000;
	TEST_ASSERT_SUCCESS(view_build(&sl), "a multiplexed group reads raw too");
	return TEST_SUCCESS;
}

/* Raw reads hold until a page changes. */
static int
test_view_reads(void)
{
	uint64_t raw[NUM_PAGES];

	pages_setup();
	TEST_ASSERT_SUCCESS(view_build(&sl), "view");
	fake_regs[1] = 111;
	fake_regs[32] = 222;
	TEST_ASSERT(snap_raw_valid(&sl, raw, NUM_PAGES, VIEW_INDEXED), "no page changed");
	TEST_ASSERT(raw[0] == 111 && raw[1] == 222, "registers %" PRIu64 " %" PRIu64, raw[0],
		raw[1]);
	/* The kernel updates one page (a counter reloaded, moved...). */
	pages[1].lock += 2;
	TEST_ASSERT(!snap_raw_valid(&sl, raw, NUM_PAGES, VIEW_INDEXED),
		"a page changed: the raw reads must fail");
	return TEST_SUCCESS;
}

/* The measured calls read through the view without checking that there is
 * one: an lcore whose pages give no view gets calls of its own, which read
 * no register through it (lib/pmu's pmu_stage_view_reset()).
 */
static int
test_view_calls(void)
{
	struct __rte_pmu_stage_measured with_view;

	pages_setup();
	pmu_stage_view_reset(&sl);
	TEST_ASSERT(sl.view.valid == 1, "a view of two readable pages");
	with_view = sl.measured;
	pages[1].index = 0;
	pmu_stage_view_reset(&sl);
	TEST_ASSERT(sl.view.valid == 0, "no view with a counter not on the PMU");
	TEST_ASSERT(sl.measured.begin != with_view.begin && sl.measured.call != with_view.call,
		"no view: the begin and the call that read through one must not be used");
	return TEST_SUCCESS;
}

/* A stage's count from two raw reads: masked to the counter's width. */
static int
test_view_delta(void)
{
	pages_setup();
	TEST_ASSERT_SUCCESS(view_build(&sl), "view");
	TEST_ASSERT_EQUAL(view_delta(&sl.view, 0, 0x10, (UINT64_C(1) << 48) - 0x10),
		UINT64_C(0x20), "a 48-bit register that wrapped");
	TEST_ASSERT_EQUAL(view_delta(&sl.view, 0, 500, 200), UINT64_C(300), "no wrap");
	TEST_ASSERT_EQUAL(view_delta(&sl.view, 1, 7, UINT64_MAX - 2), UINT64_C(10),
		"a 64-bit register that wrapped");
	TEST_ASSERT_EQUAL(view_value(&sl.view, 0, (UINT64_C(1) << 48) - 16), UINT64_C(984),
		"offset plus the register sign-extended from 48 bits");
	TEST_ASSERT_EQUAL(view_value(&sl.view, 1, 105), UINT64_C(100), "negative offset");
	return TEST_SUCCESS;
}

/* A dropped view turns the open frames' raw counters into values. */
static int
test_view_drop(void)
{
	const uint64_t values = __RTE_PMU_STAGE_MEASURED | __RTE_PMU_STAGE_VALUES;
	uint64_t drops;

	pages_setup();
	TEST_ASSERT_SUCCESS(view_build(&sl), "view");
	/* Three stages open: the outer one not measured (its start means
	 * nothing), then one measured raw, then one measured in values.
	 */
	sl.frames[1].tag = 7;
	sl.frames[1].start[0] = 5;
	sl.frames[2].tag = __RTE_PMU_STAGE_MEASURED;
	sl.frames[2].start[0] = (UINT64_C(1) << 48) - 16;
	sl.frames[2].start[1] = 105;
	sl.frames[3].tag = values;
	sl.frames[3].start[0] = 77;
	sl.frames[3].start[1] = 88;
	sl.sp = &sl.frames[4];
	/* A frame past the stack's top is not touched. */
	sl.frames[4].tag = __RTE_PMU_STAGE_MEASURED;
	sl.frames[4].start[0] = 5;
	drops = sl.view.drops;
	view_drop(&sl);
	TEST_ASSERT(sl.view.valid == 0 && sl.view.drops == drops + 1, "view dropped");
	TEST_ASSERT(sl.frames[1].tag == 7 && sl.frames[1].start[0] == 5,
		"a frame not measured left as it was");
	TEST_ASSERT(sl.frames[2].tag == values && sl.frames[2].start[0] == 984 &&
		sl.frames[2].start[1] == 100, "raw frame as values: %" PRIu64 " %" PRIu64,
		sl.frames[2].start[0], sl.frames[2].start[1]);
	TEST_ASSERT(sl.frames[3].tag == values && sl.frames[3].start[0] == 77 &&
		sl.frames[3].start[1] == 88, "a frame of values left as it was");
	TEST_ASSERT(sl.frames[4].tag == __RTE_PMU_STAGE_MEASURED && sl.frames[4].start[0] == 5,
		"a frame past the top left as it was");
	return TEST_SUCCESS;
}

/* The layouts the measured calls read by registers of their own: the cycle
 * counter (32) first, second or absent, event counters 0, 1, ... (user
 * indices 1, 2, ...) in order, at most four counters. Elsewhere (no such
 * registers) every group reads each counter by its index.
 */
static int
test_view_layout(void)
{
	static const struct {
		uint32_t index[6];
		unsigned int n;
		uint32_t want;  /* where the architecture has the registers */
	} cases[] = {
		{ { 32 }, 1, VIEW_CYCLES_0 },
		{ { 1 }, 1, VIEW_EVENTS },
		{ { 2 }, 1, VIEW_INDEXED },
		{ { 32, 1 }, 2, VIEW_CYCLES_0 },
		{ { 1, 32 }, 2, VIEW_CYCLES_1 },
		{ { 1, 2 }, 2, VIEW_EVENTS },
		{ { 2, 1 }, 2, VIEW_INDEXED },
		{ { 32, 2 }, 2, VIEW_INDEXED },
		{ { 1, 32, 2, 3 }, 4, VIEW_CYCLES_1 },
		{ { 32, 1, 2, 3 }, 4, VIEW_CYCLES_0 },
		{ { 1, 2, 32, 3 }, 4, VIEW_INDEXED },
		{ { 1, 2, 3, 4 }, 4, VIEW_EVENTS },
		{ { 1, 2, 3, 4, 5 }, 5, VIEW_INDEXED },
		{ { 32, 1, 2, 3, 4 }, 5, VIEW_INDEXED },
	};
	unsigned int i;
	uint32_t got, want;

	for (i = 0; i < RTE_DIM(cases); i++) {
		got = view_layout(cases[i].index, cases[i].n);
#ifdef __RTE_PMU_HAVE_PMC_DIRECT
		want = cases[i].want;
#else
		want = VIEW_INDEXED;
#endif
		TEST_ASSERT_EQUAL(got, want, "case %u (%u counters, first index %u): layout %u, "
			"want %u", i, cases[i].n, cases[i].index[0], got, want);
	}
	/* The view records its layout: event 0 on event counter 0, event 1 on
	 * the cycle counter.
	 */
	pages_setup();
	TEST_ASSERT_SUCCESS(view_build(&sl), "view");
	want = view_layout(sl.view.index, NUM_PAGES);
	TEST_ASSERT_EQUAL(sl.view.layout, want, "the view's layout");
#ifdef __RTE_PMU_HAVE_PMC_DIRECT
	TEST_ASSERT_EQUAL(want, VIEW_CYCLES_1, "instructions then cycles");
#endif
	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_stage_view_suite = {
	.suite_name = "pmu stage view: raw reads over constructed pages",
	.unit_test_cases = {
		TEST_CASE(test_view_build),
		TEST_CASE(test_view_reads),
		TEST_CASE(test_view_calls),
		TEST_CASE(test_view_delta),
		TEST_CASE(test_view_drop),
		TEST_CASE(test_view_layout),
		TEST_CASES_END()
	}
};

static int
test_pmu_stage_view(void)
{
	return unit_test_suite_runner(&pmu_stage_view_suite);
}

REGISTER_FAST_TEST(pmu_stage_view_autotest, true, true, test_pmu_stage_view);
