/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Reads racing the control path, for ThreadSanitizer (devtools/ci-sanitize.sh
 * runs this under -Db_sanitize=thread) and, in any build, for what the
 * results must be:
 *  - a worker reading while the main lcore adds events (the first read
 *    after the first add opens the group; later adds fail with -EBUSY);
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

/* Read the last index until told to stop, and once more after: the first
 * read after the first add opens the group with the events added so far.
 */
static int
read_last(void *arg __rte_unused)
{
	bool stop;

	__atomic_store_n(&race.go, 1, __ATOMIC_RELEASE);
	do {
		stop = __atomic_load_n(&race.stop, __ATOMIC_ACQUIRE) != 0;
		if (rte_pmu_read(RTE_DIM(sw_events) - 1) != 0)
			race.nonzero++;
		race.reads++;
	} while (!stop);
	return 0;
}

/* Launch @p f on @p worker and wait until it runs. */
static int
race_launch(lcore_function_t *f, unsigned int worker)
{
	race_start();
	if (rte_eal_remote_launch(f, NULL, worker) != 0)
		return -1;
	while (__atomic_load_n(&race.go, __ATOMIC_ACQUIRE) == 0)
		rte_pause();
	return 0;
}

static int
test_read_vs_add(void)
{
	unsigned int worker = race_worker();
	unsigned int round, i, added, busy_then_added;
	uint64_t reads = 0, opened_with_all = 0;
	int ret, status;

	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("needs a worker lcore (-l 0-1)");

	/* rte_pmu_fini() may not race with reads: one launch per round. */
	for (round = 0; round < ADD_ROUNDS; round++) {
		TEST_ASSERT_SUCCESS(rte_pmu_init(), "round %u: init", round);
		TEST_ASSERT_SUCCESS(race_launch(read_last, worker), "round %u: launch", round);
		added = 0;
		busy_then_added = 0;
		for (i = 0; i < RTE_DIM(sw_events); i++) {
			ret = rte_pmu_add_event(sw_events[i]);
			if (ret == (int)i && added == i)
				added++;
			else if (ret != -EBUSY || added == 0)
				busy_then_added++;
		}
		__atomic_store_n(&race.stop, 1, __ATOMIC_RELEASE);
		TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "round %u: worker", round);
		status = rte_pmu_lcore_status(worker);
		rte_pmu_fini();

		/* Adds succeed in order until the worker opens, then say -EBUSY. */
		TEST_ASSERT_EQUAL(busy_then_added, 0, "round %u: adds out of order", round);
		TEST_ASSERT_EQUAL(status, 1, "round %u: worker status", round);
		TEST_ASSERT(race.nonzero == 0 || added == RTE_DIM(sw_events),
			"round %u: index %zu read a value with %u events", round,
			RTE_DIM(sw_events) - 1, added);
		reads += race.reads;
		opened_with_all += added == RTE_DIM(sw_events);
	}

	printf("read vs add: %u rounds, %" PRIu64 " reads, %" PRIu64 " rounds where every "
		"add came before the open\n", ADD_ROUNDS, reads, opened_with_all);
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
	uint64_t last = 0, queries = 0, bad = 0;

	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("needs a worker lcore (-l 0-1)");
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");
	TEST_ASSERT_SUCCESS(race_launch(read_slow, worker), "launch");

	/* The worker stops by itself; check after it did. */
	while (rte_eal_get_lcore_state(worker) != WAIT) {
		if (rte_pmu_lcore_info_get(worker, &info) != 0 || info.slow_reads < last ||
				info.slow_reads > INFO_READS)
			bad++;
		last = info.slow_reads;
		queries++;
	}
	TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "worker");
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(worker, &info), "info");
	rte_pmu_fini();

	printf("read vs info: %u slow reads, %" PRIu64 " info queries during them\n",
		INFO_READS, queries);
	TEST_ASSERT_EQUAL(bad, 0, "info failed, or its slow-read count went back or past");
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
	unsigned int i, id, first, done = 0;
	uint64_t queries = 0, bad = 0;
	int status;

	race_start();
	memset(&info, 0, sizeof(info));
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");
	for (i = 0; i < RELEASE_THREADS; i++)
		TEST_ASSERT_SUCCESS(pthread_create(&threads[i], NULL, register_release, NULL),
			"thread %u", i);

	/* The ids the threads take: those after the EAL's lcores. The threads
	 * stop by themselves; check after they did.
	 */
	first = rte_lcore_count();
	while (done < RELEASE_THREADS) {
		for (id = first; id < first + RELEASE_THREADS; id++) {
			status = rte_pmu_lcore_status(id);
			if ((status != 0 && status != 1) || rte_pmu_lcore_info_get(id, &info) != 0 ||
					(info.status != 0 && info.status != 1)) {
				if (bad++ == 0)
					printf("lcore %u: status %d, info status %d\n", id, status,
						info.status);
			}
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
	TEST_ASSERT_EQUAL(bad, 0, "status or info outside 0 and 1");
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
