/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Tortures, bounded (meson suite torture-tests):
 *  - the user-page read against a writer that follows the kernel's update
 *    order from a timer signal on the reading thread (the kernel's model:
 *    an interrupt on the reader's own CPU), 10 million reads, no torn value;
 *  - 1000 init/add/read/fini rounds over both EAL lcores and a registered
 *    thread, with descriptors and mappings back to the start;
 *  - 100 threads registering, reading and unregistering, 10,000 times;
 *  - every lcore id (RTE_MAX_LCORE) open at once, then all closed.
 * They need no PMU hardware: the library's events here are software ones.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include <rte_pmu.h>

#include "test.h"

/* ThreadSanitizer: GCC defines __SANITIZE_THREAD__, clang has the feature. */
#if defined(__SANITIZE_THREAD__)
#define TORTURE_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TORTURE_TSAN 1
#endif
#endif
#ifndef TORTURE_TSAN
#define TORTURE_TSAN 0
#endif

/* Open descriptors of this process; -1 on error. */
static int
torture_fd_count(void)
{
	struct dirent *e;
	int n = 0;
	DIR *dir;

	dir = opendir("/proc/self/fd");
	if (dir == NULL)
		return -1;
	while ((e = readdir(dir)) != NULL)
		n += e->d_name[0] != '.';
	closedir(dir);
	return n - 1; /* the folder's own descriptor */
}

/* Mappings of this process, those of perf events alone when @p perf. */
static int
torture_map_count(bool perf)
{
	size_t size = 0;
	char *line = NULL;
	int n = 0;
	FILE *f;

	f = fopen("/proc/self/maps", "re");
	if (f == NULL)
		return -1;
	while (getline(&line, &size, f) > 0)
		n += !perf || strstr(line, "perf_event") != NULL;
	free(line);
	fclose(f);
	return n;
}

/* Read event 0 until it moves past @p before (bounded); the last value. */
static uint64_t
torture_spin_until_changed(uint64_t before)
{
	uint64_t v = before;
	unsigned int i;

	for (i = 0; i < 1000000 && v <= before; i++)
		v = rte_pmu_read(0);
	return v;
}

/* ---- page read against a signal-driven writer ---- */

#define PAGE_READS 10000000u
/* Every consistent page reads this value: offset + pmc, whatever the generation. */
#define PAGE_SUM UINT64_C(0x5555aaaa12345678)
/* Step of offset per generation; pmc moves the other way. */
#define PAGE_STEP UINT64_C(0x100000001)

static struct perf_event_mmap_page torture_page __rte_aligned(4096);
/* The counter register the page describes. */
static volatile uint64_t torture_pmc;
static volatile uint64_t torture_gen;
/* Signals that landed while a read was in progress. */
static volatile sig_atomic_t torture_in_read;
static volatile uint64_t torture_hits;

static __rte_noinline uint64_t
torture_read_pmc(uint32_t user_index __rte_unused)
{
	return torture_pmc;
}

static __rte_noinline uint64_t
torture_read_time(void)
{
	return 0;
}

/* A single store the compiler may not merge or move (WRITE_ONCE). */
#define PAGE_STORE(field, v) (*(volatile __typeof__(field) *)&(field) = (v))

/* The kernel's order: lock, barrier, fields, barrier, lock. */
static void
torture_page_update(int sig __rte_unused)
{
	struct perf_event_mmap_page *pc = &torture_page;
	uint64_t gen = torture_gen + 1;

	if (torture_in_read)
		torture_hits++;
	torture_gen = gen;

	PAGE_STORE(pc->lock, pc->lock + 1);
	rte_compiler_barrier();
	PAGE_STORE(pc->offset, (int64_t)(gen * PAGE_STEP));
	torture_pmc = PAGE_SUM - gen * PAGE_STEP;
	/* Equal times: a torn pair would scale the count. */
	PAGE_STORE(pc->time_enabled, gen * 1000);
	PAGE_STORE(pc->time_running, gen * 1000);
	PAGE_STORE(pc->index, 1 + (uint32_t)(gen & 7));
	rte_compiler_barrier();
	PAGE_STORE(pc->lock, pc->lock + 1);
}

static int
test_page_read_torn(void)
{
	struct sigevent sev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGRTMIN };
	struct itimerspec its = { .it_interval = { 0, 20000 }, .it_value = { 0, 20000 } };
	struct sigaction sa = { .sa_handler = torture_page_update };
	struct sigaction old;
	uint64_t start = rte_get_timer_cycles();
	uint64_t value, torn = 0, first_torn = 0, fallback = 0;
	unsigned int i;
	timer_t timer;
	int ret;

#if TORTURE_TSAN
	TEST_SKIP("ThreadSanitizer holds signals back until a system call: "
		"the writer cannot interrupt a read");
#endif
	memset(&torture_page, 0, sizeof(torture_page));
	torture_page.capabilities = __RTE_PMU_CAP_USER_RDPMC;
	torture_page.pmc_width = 64;
	torture_gen = 0;
	torture_hits = 0;
	torture_page_update(0);

	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	TEST_ASSERT_SUCCESS(sigaction(SIGRTMIN, &sa, &old), "sigaction");
	sev._sigev_un._tid = gettid(); /* sigev_notify_thread_id */
	TEST_ASSERT_SUCCESS(timer_create(CLOCK_MONOTONIC, &sev, &timer), "timer_create");
	TEST_ASSERT_SUCCESS(timer_settime(timer, 0, &its, NULL), "timer_settime");

	for (i = 0; i < PAGE_READS; i++) {
		torture_in_read = 1;
		/* Half the reads on each path of the one algorithm. */
		if ((i & 1) != 0)
			ret = __rte_pmu_page_read_with(&torture_page, true, torture_read_pmc,
				torture_read_time, &value);
		else
			ret = __rte_pmu_page_read_with(&torture_page, false, torture_read_pmc,
				torture_read_time, &value);
		torture_in_read = 0;
		/* The fast path may hand over to the full read (a changing page
		 * looks multiplexed): not a value, so not torn.
		 */
		if ((i & 1) == 0 && ret == __RTE_PMU_PAGE_SLOW) {
			fallback++;
			continue;
		}
		if (ret != 0 || value != PAGE_SUM) {
			if (torn++ == 0)
				first_torn = ret != 0 ? (uint64_t)ret : value;
		}
	}

	timer_delete(timer);
	sigaction(SIGRTMIN, &old, NULL);
	printf("page torture: %u reads, %" PRIu64 " page updates, %" PRIu64
		" of them inside a read, %" PRIu64 " fast-path hand-overs, %" PRIu64
		" torn, %.2f s\n", PAGE_READS, torture_gen, torture_hits, fallback, torn,
		(double)(rte_get_timer_cycles() - start) / rte_get_timer_hz());
	TEST_ASSERT_EQUAL(torn, 0, "torn reads, first 0x%" PRIx64 " (want 0x%" PRIx64 ")",
		first_torn, PAGE_SUM);
	/* The torture tried: updates landed in the middle of reads. */
	TEST_ASSERT(torture_hits >= 1000, "only %" PRIu64 " updates inside a read",
		torture_hits);
	return TEST_SUCCESS;
}

/* ---- lifecycle rounds ---- */

#define ROUNDS 1000u

#if TORTURE_TSAN || defined(__SANITIZE_ADDRESS__)
#define SANITIZER_MAPS 1
#else
#define SANITIZER_MAPS 0
#endif

static int
read_positive(void *arg __rte_unused)
{
	return rte_pmu_read(0) != 0 && rte_pmu_read(1) != UINT64_MAX ? 0 : -1;
}

static void *
registered_read(void *arg)
{
	int *ret = arg;

	*ret = -1;
	if (rte_thread_register() != 0)
		return NULL;
	*ret = read_positive(NULL);
	rte_thread_unregister();
	return NULL;
}

static int
test_lifecycle_rounds(void)
{
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	int fds = torture_fd_count(), maps = -1;
	uint64_t start = rte_get_timer_cycles();
	unsigned int round;
	pthread_t t;
	int tret;

	TEST_ASSERT(fds > 0 && torture_map_count(true) == 0, "descriptors or mappings at start");
	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("needs a worker lcore (-l 0-1)");

	for (round = 0; round < ROUNDS; round++) {
		TEST_ASSERT_SUCCESS(rte_pmu_init(), "round %u: init", round);
		TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "round %u: add", round);
		TEST_ASSERT_EQUAL(rte_pmu_add_event("context-switches"), 1, "round %u", round);
		TEST_ASSERT_SUCCESS(read_positive(NULL), "round %u: main lcore read", round);
		TEST_ASSERT_SUCCESS(rte_eal_remote_launch(read_positive, NULL, worker),
			"round %u: launch", round);
		TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "round %u: worker read", round);
		TEST_ASSERT_SUCCESS(pthread_create(&t, NULL, registered_read, &tret), "thread");
		pthread_join(t, NULL);
		TEST_ASSERT_SUCCESS(tret, "round %u: registered thread read", round);
		TEST_ASSERT_EQUAL(rte_pmu_lcore_status(rte_lcore_id()), 1, "round %u", round);
		rte_pmu_fini();

		TEST_ASSERT_EQUAL(torture_fd_count(), fds, "round %u: descriptors", round);
		TEST_ASSERT_EQUAL(torture_map_count(true), 0, "round %u: perf mappings", round);
		/* All mappings as after the first round (thread stacks cached);
		 * not under a sanitizer, whose runtime maps memory of its own.
		 */
		if (round == 0)
			maps = torture_map_count(false);
		if (!SANITIZER_MAPS)
			TEST_ASSERT_EQUAL(torture_map_count(false), maps, "round %u: mappings",
				round);
	}
	printf("lifecycle: %u rounds (3 lcores, 2 events each), %d fds and %d mappings "
		"(0 of perf) after each, %.2f s\n", ROUNDS, fds, maps,
		(double)(rte_get_timer_cycles() - start) / rte_get_timer_hz());
	return TEST_SUCCESS;
}

/* ---- thread churn ---- */

#define CHURN_THREADS 100u
#define CHURN_EACH 100u

struct churn {
	pthread_t thread;
	unsigned int done;
	char msg[96];
};

static void *
churn_thread(void *arg)
{
	struct churn *c = arg;
	uint64_t before, after;
	unsigned int i, id;

	for (i = 0; i < CHURN_EACH; i++) {
		if (rte_thread_register() != 0) {
			snprintf(c->msg, sizeof(c->msg), "register %u: %s", i,
				strerror(rte_errno));
			return NULL;
		}
		id = rte_lcore_id();
		before = rte_pmu_read(0);
		after = torture_spin_until_changed(before);
		if (rte_pmu_lcore_status(id) != 1 || after <= before) {
			snprintf(c->msg, sizeof(c->msg), "lcore %u: status %d, task-clock %"
				PRIu64 " then %" PRIu64, id, rte_pmu_lcore_status(id), before,
				after);
			rte_thread_unregister();
			return NULL;
		}
		rte_thread_unregister();
		c->done++;
	}
	return NULL;
}

static int
test_thread_churn(void)
{
	static struct churn churn[CHURN_THREADS];
	int fds = torture_fd_count();
	uint64_t start = rte_get_timer_cycles();
	unsigned int i, total = 0;

	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");
	memset(churn, 0, sizeof(churn));
	for (i = 0; i < CHURN_THREADS; i++)
		TEST_ASSERT_SUCCESS(pthread_create(&churn[i].thread, NULL, churn_thread,
			&churn[i]), "thread %u", i);
	for (i = 0; i < CHURN_THREADS; i++) {
		pthread_join(churn[i].thread, NULL);
		if (churn[i].msg[0] != '\0')
			printf("thread %u: %s\n", i, churn[i].msg);
		total += churn[i].done;
	}
	rte_pmu_fini();
	printf("thread churn: %u threads, %u registrations with a read, %.2f s\n",
		CHURN_THREADS, total, (double)(rte_get_timer_cycles() - start) / rte_get_timer_hz());
	TEST_ASSERT_EQUAL(total, CHURN_THREADS * CHURN_EACH, "registrations completed");
	TEST_ASSERT_EQUAL(torture_fd_count(), fds, "descriptors");
	TEST_ASSERT_EQUAL(torture_map_count(true), 0, "perf mappings");
	return TEST_SUCCESS;
}

/* ---- every lcore id open at once ---- */

struct all_open {
	pthread_barrier_t opened;   /* every id open */
	pthread_barrier_t checked;  /* main counted them */
	unsigned int failed;
};

static void *
all_open_thread(void *arg)
{
	struct all_open *a = arg;
	int registered = rte_thread_register();

	if (registered != 0 || rte_pmu_read(0) == 0)
		__atomic_fetch_add(&a->failed, 1, __ATOMIC_RELAXED);
	pthread_barrier_wait(&a->opened);
	pthread_barrier_wait(&a->checked);
	if (registered == 0)
		rte_thread_unregister();
	return NULL;
}

static int
test_all_lcores_open(void)
{
	static pthread_t threads[RTE_MAX_LCORE];
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	unsigned int n = RTE_MAX_LCORE - rte_lcore_count();
	int fds = torture_fd_count();
	uint64_t start = rte_get_timer_cycles();
	struct all_open a = { .failed = 0 };
	unsigned int i, open = 0;
	struct rlimit rl;
	int open_fds, open_maps, lcore_fds, lcore_maps;

	/* A few descriptors per lcore, and the EAL's own. */
	TEST_ASSERT_SUCCESS(getrlimit(RLIMIT_NOFILE, &rl), "getrlimit");
	rl.rlim_cur = rl.rlim_max;
	TEST_ASSERT_SUCCESS(setrlimit(RLIMIT_NOFILE, &rl), "setrlimit");

	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");
	TEST_ASSERT(rte_pmu_read(0) != 0, "main lcore read");
	/* What one lcore's open group holds, whatever the library's layout. */
	lcore_fds = torture_fd_count() - fds;
	lcore_maps = torture_map_count(true);
	TEST_ASSERT(lcore_fds > 0 && lcore_maps > 0, "main lcore: %d descriptors, %d pages",
		lcore_fds, lcore_maps);
	if (worker < RTE_MAX_LCORE) {
		TEST_ASSERT_SUCCESS(rte_eal_remote_launch(read_positive, NULL, worker), "launch");
		TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "worker read");
	}

	pthread_barrier_init(&a.opened, NULL, n + 1);
	pthread_barrier_init(&a.checked, NULL, n + 1);
	for (i = 0; i < n; i++)
		TEST_ASSERT_SUCCESS(pthread_create(&threads[i], NULL, all_open_thread, &a),
			"thread %u", i);
	pthread_barrier_wait(&a.opened);
	for (i = 0; i < RTE_MAX_LCORE; i++)
		open += rte_pmu_lcore_status(i) == 1;
	open_fds = torture_fd_count();
	open_maps = torture_map_count(true);
	pthread_barrier_wait(&a.checked);
	for (i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	pthread_barrier_destroy(&a.opened);
	pthread_barrier_destroy(&a.checked);

	printf("all lcores: %u open at once (%u registered threads), %d fds and %d perf "
		"mappings open (%d and %d per lcore), %.2f s\n", open, n, open_fds, open_maps,
		lcore_fds, lcore_maps, (double)(rte_get_timer_cycles() - start) / rte_get_timer_hz());
	TEST_ASSERT_EQUAL(a.failed, 0, "threads that could not register or read");
	TEST_ASSERT_EQUAL(open, RTE_MAX_LCORE, "lcores open at once");
	TEST_ASSERT_EQUAL(open_fds, fds + RTE_MAX_LCORE * lcore_fds, "descriptors per lcore");
	TEST_ASSERT_EQUAL(open_maps, RTE_MAX_LCORE * lcore_maps, "user pages per lcore");
	/* Released ids closed their groups; the EAL lcores close at fini. */
	for (i = 0; i < RTE_MAX_LCORE; i++) {
		if (rte_eal_lcore_role(i) == ROLE_RTE)
			TEST_ASSERT_EQUAL(rte_pmu_lcore_status(i), 1, "EAL lcore %u", i);
		else
			TEST_ASSERT_EQUAL(rte_pmu_lcore_status(i), 0, "released lcore %u", i);
	}
	rte_pmu_fini();
	TEST_ASSERT_EQUAL(torture_fd_count(), fds, "descriptors");
	TEST_ASSERT_EQUAL(torture_map_count(true), 0, "perf mappings");
	return TEST_SUCCESS;
}

static struct unit_test_suite torture_suite = {
	.suite_name = "pmu torture",
	.unit_test_cases = {
		TEST_CASE(test_page_read_torn),
		TEST_CASE(test_lifecycle_rounds),
		TEST_CASE(test_thread_churn),
		TEST_CASE(test_all_lcores_open),
		TEST_CASES_END()
	}
};

static int
test_pmu_torture(void)
{
	return unit_test_suite_runner(&torture_suite);
}

REGISTER_TEST_COMMAND(pmu_torture_autotest, test_pmu_torture);
