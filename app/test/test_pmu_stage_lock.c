/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* No lock on the stages' datapath: the main lcore holds every
 * control-path lock of both libraries (librte_pmu's, the stage registry's
 * and each lcore's reset baselines) while two lcores, an EAL worker and a
 * registered thread, run stages: sampled and not, nested and chained, a
 * stage registered and periods changed and the figures reset just before.
 * Their calls must return, and count exactly.
 */

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "pmu_private.h"
#include "pmu_stage_private.h"
#include "test.h"

#define ROUNDS 20000u

static int ids[3];
static unsigned int go, done, worker_lcores[2];

/* One lcore's part: open, say so, wait for the locks to be held, run. */
static int
run_stages(void *arg)
{
	unsigned int slot = (uintptr_t)arg, i;

	rte_pmu_lcore_open();
	worker_lcores[slot] = rte_lcore_id();
	__atomic_fetch_add(&done, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) == 0)
		rte_pause();
	for (i = 0; i < ROUNDS; i++) {
		rte_pmu_stage_begin(ids[0]);
		rte_pmu_stage_begin(ids[1]);
		rte_pmu_stage_next(ids[1], 2, ids[2]);
		rte_pmu_stage_end(ids[2], 3);
		rte_pmu_stage_end(ids[0], 1);
	}
	__atomic_fetch_add(&done, 1, __ATOMIC_RELEASE);
	return 0;
}

static void *
thread_main(void *arg)
{
	if (rte_thread_register() == 0) {
		run_stages(arg);
		/* Its figures are read before it gives its lcore id back. */
		while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) != 2)
			rte_pause();
		rte_thread_unregister();
	}
	return NULL;
}

static int
test_stage_no_lock(void)
{
	unsigned int worker = rte_get_next_lcore(-1, 1, 0), i, s;
	struct rte_pmu_stage_stats st;
	uint64_t deadline;
	pthread_t thread;
	int returned;

	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("needs a worker lcore (-l 0-1)");
	rte_pmu_fini();
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	if (rte_pmu_add_event("instructions") < 0)
		TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add an event");
	ids[0] = rte_pmu_stage_register("lock-outer");
	ids[1] = rte_pmu_stage_register("lock-a");
	TEST_ASSERT(ids[0] >= 0 && ids[1] >= 0, "register");
	go = done = 0;
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(run_stages, (void *)0, worker), "launch");
	TEST_ASSERT_SUCCESS(pthread_create(&thread, NULL, thread_main, (void *)1), "thread");
	while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < 2)
		rte_pause();
	/* After the lcores opened: a new stage, new periods, a reset. */
	ids[2] = rte_pmu_stage_register("lock-b");
	TEST_ASSERT(ids[2] >= 0, "register late");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(ids[0], 16), "period");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(ids[2], 4), "period");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_reset(), "reset");

	pmu_lock();
	rte_spinlock_lock(&stage_reg.lock);
	for (i = 0; i < 2; i++)
		rte_seqlock_write_lock(&stage_reg.lcores[worker_lcores[i]]->base_lock);
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	deadline = rte_get_timer_cycles() + 20 * rte_get_timer_hz();
	while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < 4 &&
			rte_get_timer_cycles() < deadline)
		rte_pause();
	returned = __atomic_load_n(&done, __ATOMIC_ACQUIRE) - 2;
	for (i = 0; i < 2; i++)
		rte_seqlock_write_unlock(&stage_reg.lcores[worker_lcores[i]]->base_lock);
	rte_spinlock_unlock(&stage_reg.lock);
	pmu_unlock();

	rte_eal_wait_lcore(worker);
	printf("with every lock held: %d of 2 lcores ran their %u rounds\n", returned, ROUNDS);
	TEST_ASSERT_EQUAL(returned, 2, "a stage call waited on a lock held by another thread");
	for (i = 0; i < 2; i++)
		for (s = 0; s < 3; s++) {
			TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(worker_lcores[i], ids[s], &st),
				"stats");
			TEST_ASSERT(st.calls == ROUNDS && st.items == ROUNDS * (s + 1) &&
				st.misuse == 0, "lcore %u, stage %u: %" PRIu64 " calls, %" PRIu64
				" items, %" PRIu64 " misuse", worker_lcores[i], s, st.calls, st.items,
				st.misuse);
		}
	__atomic_store_n(&go, 2, __ATOMIC_RELEASE);
	pthread_join(thread, NULL);
	rte_pmu_fini();
	return TEST_SUCCESS;
}

static struct unit_test_suite stage_lock_suite = {
	.suite_name = "pmu stages take no lock",
	.unit_test_cases = {
		TEST_CASE(test_stage_no_lock),
		TEST_CASES_END()
	}
};

static int
test_pmu_stage_lock(void)
{
	return unit_test_suite_runner(&stage_lock_suite);
}

REGISTER_FAST_TEST(pmu_stage_lock_autotest, true, true, test_pmu_stage_lock);
