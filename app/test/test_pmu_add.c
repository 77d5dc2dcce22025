/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_add_autotest: rte_pmu_add_event(). Bad names are refused with their
 * code, eight events fit and a ninth does not, a name already added answers
 * with its index, and the list is closed once a group is open.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include <rte_pmu.h>

#include "pmu_private.h"
#include "test.h"
#include "test_pmu_api.h"

static int
test_bad_names(void)
{
	TEST_ASSERT_EQUAL(rte_pmu_add_event(NULL), -EINVAL, "NULL name");
	TEST_ASSERT_EQUAL(rte_pmu_add_event(""), -EINVAL, "empty name");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("no-such-event"), -ENOENT, "unknown name");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("nosuchpmu/event=1/"), -ENOENT, "unknown PMU");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("../../etc/passwd"), -EINVAL, "path in a name");
	/* A known name that counts nothing: not countable, as rte_pmu.h says. */
	TEST_ASSERT_EQUAL(rte_pmu_add_event("bpf-output"), -EOPNOTSUPP, "bpf-output");
	/* Nothing was added by the failures. */
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "first valid event index");

	return TEST_SUCCESS;
}

static const char * const eight[RTE_MAX_NUM_GROUP_EVENTS] = {
	"task-clock", "cpu-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "software/config=1/",
};

static int
test_eight_events(void)
{
	struct rte_pmu_lcore_info info;
	volatile unsigned int bad_index;
	uint64_t before, after;
	unsigned int i;
	int idx;

	for (i = 0; i < RTE_DIM(eight); i++) {
		idx = rte_pmu_add_event(eight[i]);
		TEST_ASSERT_EQUAL(idx, (int)i, "event %s: index %d", eight[i], idx);
	}
	TEST_ASSERT_EQUAL(rte_pmu_add_event("faults"), -ENOSPC, "ninth event");
	/* A name already present still answers with its index. */
	TEST_ASSERT_EQUAL(rte_pmu_add_event("page-faults"), 2, "same name, same index");

	before = rte_pmu_read(0);
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(rte_lcore_id()), 1, "group not open");
	pmu_api_busy_ms(5);
	after = rte_pmu_read(0);
	TEST_ASSERT(after >= before + 2000000, "task-clock grew %" PRIu64 " ns in 5 ms",
		after - before);
	/* All eight are open and readable, the last one included. */
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(rte_lcore_id(), &info), "info");
	TEST_ASSERT_EQUAL(info.num_events, (unsigned int)RTE_DIM(eight), "events in info");
	for (i = 0; i < RTE_DIM(eight); i++)
		TEST_ASSERT(info.events[i].time_enabled > 0, "event %u (%s) is not open", i,
			info.events[i].name);
	TEST_ASSERT(rte_pmu_read(7) > 0, "the eighth event (task-clock) reads 0");
	TEST_ASSERT_EQUAL(pmu_state_lcore(rte_lcore_id())->num_ready,
		(uint32_t)RTE_MAX_NUM_GROUP_EVENTS, "ready events");
	/* Through a variable: a constant index past the array is a compile
	 * time warning, which is right for real code.
	 */
	bad_index = RTE_MAX_NUM_GROUP_EVENTS;
	TEST_ASSERT_EQUAL(rte_pmu_read(bad_index), UINT64_C(0), "index 8");
	bad_index = UINT32_MAX;
	TEST_ASSERT_EQUAL(rte_pmu_read(bad_index), UINT64_C(0), "index UINT32_MAX");

	return TEST_SUCCESS;
}

static int
test_add_after_open(void)
{
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");
	rte_pmu_read(0);
	TEST_ASSERT_EQUAL(rte_pmu_add_event("page-faults"), -EBUSY, "add after open");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "existing name after open");

	return TEST_SUCCESS;
}

struct unit_test_suite pmu_add_suite = {
	.suite_name = "pmu add event",
	.unit_test_cases = {
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_bad_names),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_eight_events),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_add_after_open),
		TEST_CASES_END()
	}
};

static int
test_pmu_add_suite(void)
{
	return unit_test_suite_runner(&pmu_add_suite);
}

REGISTER_FAST_TEST(pmu_add_autotest, true, true, test_pmu_add_suite);
