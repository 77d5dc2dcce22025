/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_lcore_autotest: each lcore's group. The status and info calls check
 * their arguments, every lcore opens and reads its own group at once, a non-EAL
 * thread reads once registered and closes its group when it unregisters,
 * and a failed open is remembered until fini. Run with two lcores (-l 0-1).
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include <rte_pmu.h>

#include "pmu_private.h"
#include "test.h"
#include "test_pmu_api.h"

static int
test_status_args(void)
{
	struct rte_pmu_lcore_info info;

	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(LCORE_ID_ANY), -ESRCH, "LCORE_ID_ANY");
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(RTE_MAX_LCORE), -EINVAL, "out of range");
	TEST_ASSERT_EQUAL(rte_pmu_lcore_info_get(0, NULL), -EINVAL, "NULL info");
	TEST_ASSERT_EQUAL(rte_pmu_lcore_info_get(RTE_MAX_LCORE, &info), -EINVAL, "range");
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(rte_lcore_id(), &info), "info");
	TEST_ASSERT_EQUAL(info.status, -ENODATA, "status with no event added");
	TEST_ASSERT_EQUAL(info.num_events, 0u, "no events");
	TEST_ASSERT_SUCCESS(rte_pmu_add_event("task-clock") < 0, "add task-clock");
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(rte_lcore_id()), 0, "status before any read");

	return TEST_SUCCESS;
}

/* Per-lcore results of the software-event worker. */
struct lcore_result {
	uint64_t before;
	uint64_t after;
	int status_before;
	int status_after;
	struct rte_pmu_lcore_info info;
};

static struct lcore_result results[RTE_MAX_LCORE];

/* Lcores that reached the start line, and how many are expected there. */
static unsigned int start_arrived;
static unsigned int start_expected;

/* Wait, up to 5 s, until every lcore of the test is here, so that all open
 * their groups at the same moment. Relaxed on purpose: the start line
 * orders nothing, so a race in the opens stays visible to ThreadSanitizer.
 */
static void
start_line(void)
{
	uint64_t deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();

	__atomic_fetch_add(&start_arrived, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&start_arrived, __ATOMIC_RELAXED) < start_expected &&
			rte_get_timer_cycles() < deadline)
		rte_pause();
}

static int
sw_worker(void *arg __rte_unused)
{
	unsigned int lcore_id = rte_lcore_id();
	struct lcore_result *r = &results[lcore_id];

	r->status_before = rte_pmu_lcore_status(lcore_id);
	start_line();
	r->before = rte_pmu_read(0);
	pmu_api_busy_ms(10);
	rte_pmu_read(1);
	r->after = rte_pmu_read(0);
	r->status_after = rte_pmu_lcore_status(lcore_id);
	rte_pmu_lcore_info_get(lcore_id, &r->info);

	return 0;
}

static int
check_result(unsigned int lcore_id)
{
	struct lcore_result *r = &results[lcore_id];

	TEST_ASSERT_EQUAL(r->status_before, 0, "lcore %u open before first read", lcore_id);
	TEST_ASSERT_EQUAL(r->status_after, 1, "lcore %u status %d", lcore_id,
		r->status_after);
	TEST_ASSERT(r->after - r->before >= 5000000,
		"lcore %u task-clock grew %" PRIu64 " ns over 10 ms", lcore_id,
		r->after - r->before);
	TEST_ASSERT(r->after - r->before < 10000000000ull, "lcore %u implausible delta",
		lcore_id);
	/* Software events are not on a PMU: read() path, index 0. */
	TEST_ASSERT_EQUAL(r->info.num_events, 2u, "events in info");
	TEST_ASSERT_EQUAL(r->info.events[0].path, RTE_PMU_PATH_SYSCALL, "path");
	TEST_ASSERT_EQUAL(r->info.events[0].user_index, 0u, "user index");
	TEST_ASSERT(r->info.events[0].value >= r->after - r->before, "kernel value");
	/* Software events leave the fast path at each of the worker's 3
	 * reads: counted once each, since the one group opened.
	 */
	TEST_ASSERT_EQUAL(r->info.slow_reads, UINT64_C(3),
		"lcore %u: %" PRIu64 " slow reads for 3 reads (group reopened or reads miscounted)",
		lcore_id, r->info.slow_reads);
	TEST_ASSERT(strcmp(r->info.events[0].name, "task-clock") == 0, "name %s",
		r->info.events[0].name);
	/* Keyed and measured as telemetry gives them; no IPC here. */
	TEST_ASSERT(strcmp(r->info.events[0].key, "task_clock") == 0 &&
		strcmp(r->info.events[0].unit, "ns") == 0, "task-clock: key %s, unit %s",
		r->info.events[0].key, r->info.events[0].unit);
	TEST_ASSERT(strcmp(r->info.events[1].key, "context_switches") == 0 &&
		strcmp(r->info.events[1].unit, "count") == 0, "context-switches: key %s, unit %s",
		r->info.events[1].key, r->info.events[1].unit);
	TEST_ASSERT(r->info.cycles == -1 && r->info.instructions == -1,
		"cycles at %d, instructions at %d", r->info.cycles, r->info.instructions);

	return TEST_SUCCESS;
}

/* Every lcore opens its group at the same moment (the first opens of the
 * process, so that ThreadSanitizer sees any race in them: run it first),
 * and each counts on its own.
 */
static int
test_software_lcores_at_once(void)
{
	unsigned int main_lcore = rte_lcore_id();
	unsigned int worker = pmu_api_first_worker();
	unsigned int lcore_id;
	int ret = 0;

	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("needs two lcores (-l 0-1)");

	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add task-clock");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("context-switches"), 1, "add context-switches");
	memset(results, 0, sizeof(results));
	start_arrived = 0;
	start_expected = rte_lcore_count();

	RTE_LCORE_FOREACH_WORKER(lcore_id)
		ret |= rte_eal_remote_launch(sw_worker, NULL, lcore_id);
	sw_worker(NULL);
	RTE_LCORE_FOREACH_WORKER(lcore_id)
		ret |= rte_eal_wait_lcore(lcore_id);
	TEST_ASSERT_SUCCESS(ret, "launch or worker");
	TEST_ASSERT_EQUAL(start_arrived, start_expected, "%u of %u lcores at the start line",
		start_arrived, start_expected);

	if (check_result(main_lcore) != TEST_SUCCESS)
		return TEST_FAILED;
	RTE_LCORE_FOREACH_WORKER(lcore_id) {
		if (check_result(lcore_id) != TEST_SUCCESS)
			return TEST_FAILED;
		TEST_ASSERT_NOT_EQUAL(rte_pmu_event_groups[main_lcore].mmap_pages[0],
			rte_pmu_event_groups[lcore_id].mmap_pages[0], "lcores share a page");
	}

	return TEST_SUCCESS;
}

struct thread_result {
	unsigned int lcore_id;
	int status_unregistered;
	uint64_t value_unregistered;
	uint64_t before;
	uint64_t after;
	int status;
};

static void *
non_eal_thread(void *arg)
{
	struct thread_result *r = arg;

	/* Unregistered: no lcore id, reads 0, status says why. */
	r->value_unregistered = rte_pmu_read(0);
	r->status_unregistered = rte_pmu_lcore_status(rte_lcore_id());

	if (rte_thread_register() != 0) {
		r->lcore_id = LCORE_ID_ANY;
		return NULL;
	}
	r->lcore_id = rte_lcore_id();
	r->before = rte_pmu_read(0);
	pmu_api_busy_ms(10);
	r->after = rte_pmu_read(0);
	r->status = rte_pmu_lcore_status(r->lcore_id);
	rte_thread_unregister();

	return NULL;
}

static int
test_non_eal_thread(void)
{
	struct thread_result r;
	pthread_t t;
	int fds;

	memset(&r, 0, sizeof(r));
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");
	fds = pmu_api_count_fds();
	TEST_ASSERT_SUCCESS(pthread_create(&t, NULL, non_eal_thread, &r), "pthread_create");
	TEST_ASSERT_SUCCESS(pthread_join(t, NULL), "pthread_join");

	TEST_ASSERT_EQUAL(r.value_unregistered, UINT64_C(0), "unregistered thread read");
	TEST_ASSERT_EQUAL(r.status_unregistered, -ESRCH, "unregistered thread status");
	if (r.lcore_id == LCORE_ID_ANY)
		TEST_SKIP("rte_thread_register() failed: no free lcore id");
	TEST_ASSERT_EQUAL(r.status, 1, "registered thread status %d", r.status);
	TEST_ASSERT(r.after - r.before >= 5000000, "task-clock grew %" PRIu64 " ns",
		r.after - r.before);
	/* Unregistering released the lcore id and closed its group. */
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(r.lcore_id), 0, "status after release");
	TEST_ASSERT_EQUAL(pmu_state_lcore(r.lcore_id)->num_ready, 0u, "group kept");
	TEST_ASSERT_EQUAL(pmu_api_count_fds(), fds, "descriptors kept after release");

	return TEST_SUCCESS;
}

static int open_fail_status = 1;
static uint64_t open_fail_values[2];

static int
open_fail_worker(void *arg __rte_unused)
{
	open_fail_values[0] = rte_pmu_read(0);
	open_fail_status = rte_pmu_lcore_status(rte_lcore_id());

	return 0;
}

static int
retry_worker(void *arg __rte_unused)
{
	open_fail_values[1] = rte_pmu_read(0);

	return 0;
}

static int
test_open_failure_remembered(void)
{
	unsigned int worker = pmu_api_first_worker();
	struct rlimit old, low;
	int status;

	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("needs two lcores (-l 0-1)");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");

	/* No file descriptor left: the worker's open must fail. */
	TEST_ASSERT_SUCCESS(getrlimit(RLIMIT_NOFILE, &old), "getrlimit");
	low = old;
	low.rlim_cur = 3;
	TEST_ASSERT_SUCCESS(setrlimit(RLIMIT_NOFILE, &low), "setrlimit");
	rte_eal_remote_launch(open_fail_worker, NULL, worker);
	rte_eal_wait_lcore(worker);
	setrlimit(RLIMIT_NOFILE, &old);

	TEST_ASSERT_EQUAL(open_fail_values[0], UINT64_C(0), "read of a failed group");
	TEST_ASSERT_EQUAL(open_fail_status, -EMFILE, "status %d", open_fail_status);

	/* Descriptors are back, but the failure is not retried. */
	rte_eal_remote_launch(retry_worker, NULL, worker);
	rte_eal_wait_lcore(worker);
	TEST_ASSERT_EQUAL(open_fail_values[1], UINT64_C(0), "failed open was retried");
	status = rte_pmu_lcore_status(worker);
	TEST_ASSERT_EQUAL(status, -EMFILE, "status changed to %d", status);

	/* fini forgets the failure. */
	rte_pmu_fini();
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");
	rte_eal_remote_launch(retry_worker, NULL, worker);
	rte_eal_wait_lcore(worker);
	TEST_ASSERT(open_fail_values[1] != 0, "read after fini/init");

	return TEST_SUCCESS;
}

struct unit_test_suite pmu_lcore_suite = {
	.suite_name = "pmu per-lcore groups",
	.unit_test_cases = {
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_software_lcores_at_once),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_status_args),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_non_eal_thread),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_open_failure_remembered),
		TEST_CASES_END()
	}
};

static int
test_pmu_lcore_suite(void)
{
	return unit_test_suite_runner(&pmu_lcore_suite);
}

REGISTER_FAST_TEST(pmu_lcore_autotest, true, true, test_pmu_lcore_suite);
