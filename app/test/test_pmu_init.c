/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_init_autotest: the library's lifetime. init is idempotent, fini
 * closes every descriptor and forgets the events, init after fini works,
 * and calls before init or after fini say so.
 */

#include <errno.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include <rte_pmu.h>

#include "pmu_private.h"
#include "test.h"
#include "test_pmu_api.h"

static int
sw_worker_read(void *arg __rte_unused)
{
	return rte_pmu_read(0) != 0 ? 0 : -1;
}

static unsigned int fini_calls;

static void
count_fini(void *arg __rte_unused)
{
	fini_calls++;
}

static int
test_init_fini(void)
{
	static const struct rte_pmu_callbacks cb = { .fini = count_fini };
	static bool registered;
	int idx;

	/* Once for the process: the callbacks are kept. */
	if (!registered)
		TEST_ASSERT_SUCCESS(rte_pmu_callbacks_register(&cb), "callbacks");
	registered = true;
	fini_calls = 0;

	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "second init must be harmless");
	idx = rte_pmu_add_event("task-clock");
	TEST_ASSERT_EQUAL(idx, 0, "first event index %d", idx);
	rte_pmu_fini();

	/* Upstream never cleared its initialised flag: init after fini failed. */
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init after fini");
	idx = rte_pmu_add_event("page-faults");
	TEST_ASSERT_EQUAL(idx, 0, "events forgotten by fini, index %d", idx);
	rte_pmu_read(0);
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(rte_lcore_id()), 1, "group not open after init/fini/init");
	rte_pmu_fini();
	rte_pmu_fini();
	/* A fini with nothing initialised tells no library (they let go of
	 * their state a second time: an outside tester's find).
	 */
	TEST_ASSERT_EQUAL(fini_calls, 2u, "fini callbacks for 2 inits and 3 finis: %u",
		fini_calls);

	return TEST_SUCCESS;
}

static int
test_not_initialised(void)
{
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), -ENODEV, "add before init");
	TEST_ASSERT_EQUAL(rte_pmu_read(0), UINT64_C(0), "read before init");
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(rte_lcore_id()), -ENODEV, "status before init");

	return TEST_SUCCESS;
}

/* fini closes every descriptor the groups opened, on every lcore. */
static int
test_fini_closes_fds(void)
{
	unsigned int worker = pmu_api_first_worker();
	int before, after, open_fds;

	before = pmu_api_count_fds();
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("page-faults"), 1, "add");
	rte_pmu_read(0);
	if (worker < RTE_MAX_LCORE) {
		rte_eal_remote_launch(sw_worker_read, NULL, worker);
		rte_eal_wait_lcore(worker);
	}
	open_fds = pmu_api_count_fds();
	rte_pmu_fini();
	after = pmu_api_count_fds();
	TEST_ASSERT(open_fds >= before + 2, "groups opened %d descriptors", open_fds - before);
	TEST_ASSERT_EQUAL(after, before, "%d descriptors before, %d after fini", before, after);

	return TEST_SUCCESS;
}

static int
test_read_after_fini(void)
{
	unsigned int lcore_id = rte_lcore_id();

	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");
	TEST_ASSERT(rte_pmu_read(0) != 0 || rte_pmu_read(0) != 0, "read before fini");
	rte_pmu_fini();
	TEST_ASSERT_EQUAL(rte_pmu_read(0), UINT64_C(0), "read after fini");
	TEST_ASSERT_EQUAL(pmu_state_lcore(lcore_id)->num_ready, 0u, "pages left visible");
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(lcore_id), -ENODEV, "status after fini");
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init for teardown");

	return TEST_SUCCESS;
}

struct unit_test_suite pmu_init_suite = {
	.suite_name = "pmu init and fini",
	.unit_test_cases = {
		TEST_CASE(test_init_fini),
		TEST_CASE(test_not_initialised),
		TEST_CASE(test_fini_closes_fds),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_read_after_fini),
		TEST_CASES_END()
	}
};

static int
test_pmu_init_suite(void)
{
	return unit_test_suite_runner(&pmu_init_suite);
}

REGISTER_FAST_TEST(pmu_init_autotest, true, true, test_pmu_init_suite);
