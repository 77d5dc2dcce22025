/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Reads racing the control path, for ThreadSanitizer (devtools/ci-sanitize.sh
 * runs this under -Db_sanitize=thread) and, in any build, for what the
 * results must be:
 *  - a worker reading an index not added yet while the main lcore adds
 *    events and finishes (the read's unlocked peeks at the event count);
 *  - a worker reading through the slow path while the main lcore asks for
 *    its info (the slow-read counter);
 *  - registered threads giving their lcore ids back (the close on release)
 *    while the main lcore asks for those lcores' status and info.
 * Software events only: no PMU hardware needed.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include <rte_pmu.h>

#include "test.h"

/* Software events, as many as the group takes but one. */
static const char *const sw_events[] = {
	"task-clock", "cpu-clock", "context-switches", "page-faults",
	"minor-faults", "major-faults", "cpu-migrations",
};

#define ADD_ROUNDS 200u
#define INFO_READS 100000u
#define RELEASE_THREADS 4u
#define RELEASE_EACH 500u

/* Shared by the main lcore and the racing side. */
struct race {
	unsigned int go;        /* racing side started */
	unsigned int stop;      /* main is done */
	uint64_t reads;         /* reads done by the racing side */
	uint64_t nonzero;       /* reads that were not 0 */
	unsigned int errors;
};

static struct race race;

static void
race_start(void)
{
	memset(&race, 0, sizeof(race));
}

static unsigned int
race_worker(void)
{
	return rte_get_next_lcore(-1, 1, 0);
}

/* Read the last index, never added: every read is 0 and opens nothing. */
static int
read_missing(void *arg __rte_unused)
{
	__atomic_store_n(&race.go, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&race.stop, __ATOMIC_ACQUIRE) == 0) {
		if (rte_pmu_read(RTE_DIM(sw_events)) != 0)
			race.nonzero++;
		race.reads++;
	}
	return 0;
}

static int
test_read_vs_add(void)
{
	unsigned int worker = race_worker();
	uint64_t reads = 0;
	unsigned int round, i;

	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("needs a worker lcore (-l 0-1)");

	/* rte_pmu_fini() may not race with reads: one launch per round. */
	for (round = 0; round < ADD_ROUNDS; round++) {
		race_start();
		TEST_ASSERT_SUCCESS(rte_pmu_init(), "round %u: init", round);
		TEST_ASSERT_SUCCESS(rte_eal_remote_launch(read_missing, NULL, worker),
			"launch");
		while (__atomic_load_n(&race.go, __ATOMIC_ACQUIRE) == 0)
			rte_pause();
		for (i = 0; i < RTE_DIM(sw_events); i++)
			TEST_ASSERT_EQUAL(rte_pmu_add_event(sw_events[i]), (int)i,
				"round %u: add %s", round, sw_events[i]);
		__atomic_store_n(&race.stop, 1, __ATOMIC_RELEASE);
		TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "worker");
		TEST_ASSERT_EQUAL(rte_pmu_lcore_status(worker), 0, "round %u: worker opened",
			round);
		TEST_ASSERT_EQUAL(race.nonzero, 0, "round %u: reads of an index never added "
			"gave values", round);
		reads += race.reads;
		rte_pmu_fini();
	}

	printf("read vs add: %u rounds of %zu adds, %" PRIu64 " reads\n", ADD_ROUNDS,
		RTE_DIM(sw_events), reads);
	return TEST_SUCCESS;
}

/* Read event 0 (task-clock: the slow path every time) INFO_READS times. */
static int
read_slow(void *arg __rte_unused)
{
	uint64_t last = 0, v;
	unsigned int i;

	__atomic_store_n(&race.go, 1, __ATOMIC_RELEASE);
	for (i = 0; i < INFO_READS; i++) {
		v = rte_pmu_read(0);
		if (v < last || v == 0)
			race.errors++;
		last = v;
	}
	return 0;
}

static int
test_read_vs_info(void)
{
	unsigned int worker = race_worker();
	struct rte_pmu_lcore_info info;
	uint64_t last = 0, queries = 0;

	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("needs a worker lcore (-l 0-1)");
	race_start();
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(read_slow, NULL, worker), "launch");
	while (__atomic_load_n(&race.go, __ATOMIC_ACQUIRE) == 0)
		rte_pause();

	while (rte_eal_get_lcore_state(worker) != WAIT) {
		TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(worker, &info), "info");
		TEST_ASSERT(info.slow_reads >= last && info.slow_reads <= INFO_READS,
			"slow reads went from %" PRIu64 " to %" PRIu64, last, info.slow_reads);
		last = info.slow_reads;
		queries++;
	}
	TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "worker");
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(worker, &info), "info");
	rte_pmu_fini();

	printf("read vs info: %u slow reads, %" PRIu64 " info queries during them\n",
		INFO_READS, queries);
	TEST_ASSERT_EQUAL(race.errors, 0, "task-clock read 0 or went back");
	TEST_ASSERT_EQUAL(info.slow_reads, INFO_READS, "slow reads counted");
	return TEST_SUCCESS;
}

/* Register, read (opens the group), give the id back; RELEASE_EACH times. */
static void *
register_release(void *arg __rte_unused)
{
	unsigned int i;

	for (i = 0; i < RELEASE_EACH; i++) {
		if (rte_thread_register() != 0) {
			__atomic_fetch_add(&race.errors, 1, __ATOMIC_RELAXED);
			return NULL;
		}
		if (rte_pmu_read(0) == 0)
			__atomic_fetch_add(&race.errors, 1, __ATOMIC_RELAXED);
		rte_thread_unregister();
	}
	return NULL;
}

static int
test_release_vs_status(void)
{
	pthread_t threads[RELEASE_THREADS];
	bool joined[RELEASE_THREADS] = { false };
	struct rte_pmu_lcore_info info;
	unsigned int i, id, done = 0;
	uint64_t queries = 0;
	int status;

	race_start();
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");
	for (i = 0; i < RELEASE_THREADS; i++)
		TEST_ASSERT_SUCCESS(pthread_create(&threads[i], NULL, register_release, NULL),
			"thread %u", i);

	/* The ids the threads take: those after the EAL's lcores. */
	while (done < RELEASE_THREADS) {
		for (id = rte_lcore_count(); id < rte_lcore_count() + RELEASE_THREADS; id++) {
			status = rte_pmu_lcore_status(id);
			TEST_ASSERT(status == 0 || status == 1, "lcore %u: status %d", id, status);
			TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(id, &info), "info %u", id);
			TEST_ASSERT(info.status == 0 || info.status == 1, "lcore %u: info status %d",
				id, info.status);
			queries++;
		}
		for (i = 0; i < RELEASE_THREADS; i++) {
			if (!joined[i] && pthread_tryjoin_np(threads[i], NULL) == 0) {
				joined[i] = true;
				done++;
			}
		}
	}
	rte_pmu_fini();

	printf("release vs status: %u registrations, %" PRIu64 " status and info queries\n",
		RELEASE_THREADS * RELEASE_EACH, queries);
	TEST_ASSERT_EQUAL(race.errors, 0, "threads that could not register or read");
	return TEST_SUCCESS;
}

static struct unit_test_suite race_suite = {
	.suite_name = "pmu read vs control path",
	.unit_test_cases = {
		TEST_CASE(test_read_vs_add),
		TEST_CASE(test_read_vs_info),
		TEST_CASE(test_release_vs_status),
		TEST_CASES_END()
	}
};

static int
test_pmu_race(void)
{
	return unit_test_suite_runner(&race_suite);
}

REGISTER_TEST_COMMAND(pmu_race_autotest, test_pmu_race);
