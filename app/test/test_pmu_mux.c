/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_mux_autotest: hardware events the kernel cannot keep on the PMU's
 * counters, in the arm64 guest (QEMU's PMUv3 has 6 event counters and the
 * cycle counter). Checks:
 *  - a group that never fits (7 event counters and cycles): the lcore's
 *    status says -ENOSPC, rte_pmu_read_group() -ENODATA and the reads that
 *    gave 0 count in read_errors, not status 1 and zeros;
 *  - a group multiplexed with another group of this thread (opened here
 *    with perf_event_open()): rte_pmu_read_group_delta() never gives a
 *    difference below 0 (about 2^64) although the scaled estimates go
 *    back (a stage's figures of them are printed, not checked: they are
 *    estimates, not marked).
 * Without a hardware PMU (this VM) each case skips and says why.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "test.h"
#include "test_pmu_loop.h"

/* More events than QEMU's PMUv3 has counters: 7 on event counters, and
 * cycles on the cycle counter.
 */
static const char *const too_many[] = {
	"r08", "r10", "r12", "r13", "r1b", "r09", "r0a", "cycles",
};

/* The other group, opened here: 6 instruction counts on this thread's
 * event counters.
 */
#define OTHER_EVENTS 6
static int other_fd[OTHER_EVENTS];

/* Open the other group on this thread; 0, or -1 with the groups closed. */
static int
other_open(void)
{
	struct perf_event_attr a;
	int i;

	for (i = 0; i < OTHER_EVENTS; i++)
		other_fd[i] = -1;
	for (i = 0; i < OTHER_EVENTS; i++) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_HARDWARE;
		a.config = PERF_COUNT_HW_INSTRUCTIONS;
		a.exclude_kernel = 1;
		other_fd[i] = syscall(SYS_perf_event_open, &a, 0, -1,
			i == 0 ? -1 : other_fd[0], 0);
		if (other_fd[i] < 0)
			return -1;
	}
	return 0;
}

static void
other_close(void)
{
	int i;

	for (i = OTHER_EVENTS - 1; i >= 0; i--)
		if (other_fd[i] >= 0)
			close(other_fd[i]);
}

/* Init with @p names; TEST_SKIPPED where they are not hardware events here. */
static int
setup(const char *const *names, unsigned int n)
{
	unsigned int i;
	int ret;

	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	for (i = 0; i < n; i++) {
		ret = rte_pmu_add_event(names[i]);
		if (ret < 0) {
			rte_pmu_fini();
			TEST_SKIP("no hardware PMU here (%s: %s): the arm64 guest runs this case",
				names[i], strerror(-ret));
		}
	}
	return TEST_SUCCESS;
}

static int
test_never_fits(void)
{
	struct rte_pmu_lcore_info info;
	uint64_t v[RTE_MAX_NUM_GROUP_EVENTS];
	unsigned int i, lcore = rte_lcore_id();
	int ret, status, group;

	ret = setup(too_many, RTE_DIM(too_many));
	if (ret != TEST_SUCCESS)
		return ret;
	rte_pmu_lcore_open();
	for (i = 0; i < 1000; i++)
		rte_compiler_barrier();
	v[0] = rte_pmu_read(0);
	group = rte_pmu_read_group(v, RTE_DIM(v));
	status = rte_pmu_lcore_status(lcore);
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(lcore, &info), "info");
	printf("%u events, 7 on event counters: status %d, read_group %d, read_errors %" PRIu64
		", time enabled %" PRIu64 " ns, running %" PRIu64 " ns\n", info.num_events, status,
		group, info.read_errors, info.events[0].time_enabled, info.events[0].time_running);
	rte_pmu_fini();
	if (info.events[0].time_running != 0)
		TEST_SKIP("this PMU runs the %u events at once", info.num_events);
	TEST_ASSERT_EQUAL(status, -ENOSPC, "status of a group the kernel never ran");
	TEST_ASSERT_EQUAL(info.status, -ENOSPC, "the info's status");
	TEST_ASSERT_EQUAL(group, -ENODATA, "rte_pmu_read_group() of it");
	TEST_ASSERT(info.read_errors >= 2, "its reads not counted in read_errors");
	return TEST_SUCCESS;
}

static int
test_multiplexed(void)
{
	static const char *const names[] = { "instructions", "cycles" };
	uint64_t start[2], delta[2], worst = 0, below = 0, back = 0, prev = 0, v;
	struct rte_pmu_stage_stats st;
	struct rte_pmu_lcore_info info;
	unsigned int i, lcore = rte_lcore_id();
	int ret, id;

	ret = setup(names, RTE_DIM(names));
	if (ret != TEST_SUCCESS)
		return ret;
	if (other_open() != 0) {
		other_close();
		rte_pmu_fini();
		TEST_SKIP("cannot open the other group (%s)", strerror(errno));
	}
	id = rte_pmu_stage_register("mux");
	TEST_ASSERT(id >= 0, "register");
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_open(), "open");
	for (i = 0; i < 20000; i++) {
		v = rte_pmu_read(0);
		back += v < prev;
		prev = v;
		rte_pmu_read_group(start, 2);
		test_loop(10);
		if (rte_pmu_read_group_delta(start, delta, 2) != 2)
			continue;
		below += delta[0] > UINT64_MAX / 2 || delta[1] > UINT64_MAX / 2;
		worst = RTE_MAX(worst, delta[0]);
		rte_pmu_stage_begin(id);
		test_loop(1000);
		rte_pmu_stage_end(id, 1);
	}
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(lcore, &info), "info");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(lcore, id, &st), "stats");
	other_close();
	rte_pmu_fini();
	printf("multiplexed (%s): 20000 reads, %" PRIu64 " went back; deltas below 0: %" PRIu64
		", largest %" PRIu64 "; stage: %" PRIu64 " calls, %.1f instructions a call for a "
		"loop of %u, inexact 0x%x\n", info.events[0].multiplexed ? "yes" : "no", back,
		below, worst, st.calls, st.calls != 0 ? (double)st.self_values[0] / st.calls : 0,
		1000 * TEST_LOOP_INSNS, st.inexact);
	if (!info.events[0].multiplexed)
		TEST_SKIP("the kernel did not multiplex the two groups here");
	TEST_ASSERT_EQUAL(below, 0, "rte_pmu_read_group_delta() below 0");
	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_mux_suite = {
	.suite_name = "pmu: groups the kernel multiplexes or cannot run",
	.unit_test_cases = {
		TEST_CASE(test_never_fits),
		TEST_CASE(test_multiplexed),
		TEST_CASES_END()
	}
};

static int
test_pmu_mux(void)
{
	return unit_test_suite_runner(&pmu_mux_suite);
}

REGISTER_FAST_TEST(pmu_mux_autotest, true, true, test_pmu_mux);
