/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* rte_pmu_read_group() and rte_pmu_read_group_delta() on software events
 * (every event takes the read() fallback, so this runs on any machine
 * with perf_event): values in index order, one read() system call for the
 * whole group, single-value reads of each event's own descriptor, the
 * delta helper, and every error code.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include <rte_pmu.h>

#include "pmu_private.h"
#include "test.h"
#include "test_pmu_syscount.h"

#define TOUCH_PAGES 64

/* Indexes of the events the cases add, in this order. */
enum { EV_CLOCK, EV_FAULTS, EV_SWITCHES, EV_NUM };
static const char *const ev_names[EV_NUM] = { "task-clock", "page-faults", "context-switches" };

static int
setup_events(void)
{
	unsigned int i;
	int ret;

	TEST_ASSERT_SUCCESS(rte_pmu_init(), "rte_pmu_init");
	for (i = 0; i < EV_NUM; i++) {
		ret = rte_pmu_add_event(ev_names[i]);
		if (ret < 0) {
			rte_pmu_fini();
			TEST_SKIP("event %s: %s", ev_names[i], strerror(-ret));
		}
		TEST_ASSERT_EQUAL(ret, (int)i, "index of %s", ev_names[i]);
	}

	return TEST_SUCCESS;
}

static void
teardown_events(void)
{
	rte_pmu_fini();
}

/* Page faults the kernel counts for sure: touch fresh anonymous pages. */
static int
touch_pages(unsigned int n)
{
	size_t len = (size_t)n * (size_t)sysconf(_SC_PAGESIZE);
	volatile char *p;
	unsigned int i;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	for (i = 0; i < n; i++)
		p[(size_t)i * (size_t)sysconf(_SC_PAGESIZE)] = 1;
	munmap((void *)(uintptr_t)p, len);

	return 0;
}

static int
test_snapshot_values(void)
{
	uint64_t start[EV_NUM], single[EV_NUM], delta[EV_NUM];
	unsigned int i;

	TEST_ASSERT_EQUAL(rte_pmu_read_group(start, EV_NUM), EV_NUM, "first snapshot");
	for (i = 0; i < EV_NUM; i++)
		single[i] = rte_pmu_read(i);
	TEST_ASSERT_SUCCESS(touch_pages(TOUCH_PAGES), "mmap");
	TEST_ASSERT_EQUAL(rte_pmu_read_group_delta(start, delta, EV_NUM), EV_NUM, "delta");

	/* In index order: each snapshot brackets the single reads. */
	for (i = 0; i < EV_NUM; i++) {
		printf("%-16s start %" PRIu64 " single %" PRIu64 " delta %" PRIu64 "\n",
			ev_names[i], start[i], single[i], delta[i]);
		TEST_ASSERT(start[i] <= single[i] && single[i] - start[i] <= delta[i],
			"%s: snapshot does not bracket rte_pmu_read()", ev_names[i]);
	}
	TEST_ASSERT(delta[EV_FAULTS] >= TOUCH_PAGES && delta[EV_FAULTS] < 100 * TOUCH_PAGES,
		"page faults over %u touched pages: %" PRIu64, TOUCH_PAGES, delta[EV_FAULTS]);
	/* task-clock counts ns: touching 64 pages takes well over 64 ns. */
	TEST_ASSERT(delta[EV_CLOCK] > delta[EV_FAULTS], "task-clock %" PRIu64 " ns",
		delta[EV_CLOCK]);

	return TEST_SUCCESS;
}

/* One read() system call for the whole group, whatever the number of
 * events that need it; and one per single rte_pmu_read() of such an event.
 */
static int
test_snapshot_one_syscall(void)
{
	uint64_t values[EV_NUM], before, after, slow_before;
	unsigned int lcore_id = rte_lcore_id();
	struct syscount sc;
	int ret;

	TEST_ASSERT_EQUAL(rte_pmu_read_group(values, EV_NUM), EV_NUM, "open the group");
	ret = syscount_open(&sc);
	if (ret != 0)
		TEST_SKIP("no per-thread read() count (/proc/thread-self/io): %s",
			strerror(-ret));

	slow_before = pmu_state_lcore(lcore_id)->slow_reads;
	before = syscount_reads(&sc);
	ret = rte_pmu_read_group(values, EV_NUM);
	after = syscount_reads(&sc);
	TEST_ASSERT_EQUAL(ret, EV_NUM, "snapshot");
	printf("snapshot of %d fallback events: %" PRIu64 " read() call(s)\n", EV_NUM,
		after - before);
	TEST_ASSERT_EQUAL(after - before, UINT64_C(1), "read() calls in one snapshot");
	TEST_ASSERT_EQUAL(pmu_state_lcore(lcore_id)->slow_reads - slow_before, UINT64_C(1),
		"slow reads counted for one snapshot");

	before = syscount_reads(&sc);
	values[0] = rte_pmu_read(EV_SWITCHES);
	after = syscount_reads(&sc);
	TEST_ASSERT_EQUAL(after - before, UINT64_C(1), "read() calls in one rte_pmu_read()");
	syscount_close(&sc);

	return TEST_SUCCESS;
}

/* Each event's descriptor reads its own value only (24 bytes: value,
 * enabled, running); the group's reader gives every event, in index
 * order, then its own zero.
 */
static int
test_read_formats(void)
{
	struct pmu_lcore *lc = pmu_state_lcore(rte_lcore_id());
	uint64_t buf[3 + RTE_MAX_NUM_GROUP_EVENTS + 1], values[EV_NUM];
	unsigned int i;
	ssize_t n;

	TEST_ASSERT_EQUAL(rte_pmu_read_group(values, EV_NUM), EV_NUM, "open the group");
	for (i = 0; i < EV_NUM; i++) {
		n = read(lc->fds[i], buf, sizeof(buf));
		TEST_ASSERT_EQUAL(n, (ssize_t)(3 * sizeof(uint64_t)),
			"%s: read() gave %zd bytes", ev_names[i], n);
	}
	n = read(lc->group_fd, buf, sizeof(buf));
	TEST_ASSERT_EQUAL(n, (ssize_t)((3 + EV_NUM + 1) * sizeof(uint64_t)),
		"group reader gave %zd bytes", n);
	TEST_ASSERT_EQUAL(buf[0], (uint64_t)EV_NUM + 1, "group of %" PRIu64, buf[0]);
	TEST_ASSERT_EQUAL(buf[3 + EV_NUM], UINT64_C(0), "reader's own count");

	/* The internal reader others call gives the same order. */
	TEST_ASSERT_EQUAL(pmu_group_read(lc->group_fd, EV_NUM, values, EV_NUM, NULL, NULL),
		EV_NUM, "pmu_group_read");
	TEST_ASSERT(values[EV_CLOCK] > values[EV_FAULTS], "task-clock %" PRIu64
		" ns not first", values[EV_CLOCK]);
	TEST_ASSERT_EQUAL(pmu_group_read(pmu_state_lcore(RTE_MAX_LCORE - 1)->group_fd, EV_NUM,
		values, EV_NUM, NULL, NULL), -ENODEV, "group never opened");

	return TEST_SUCCESS;
}

/* Less room than events: only @n values written. */
static int
test_snapshot_short_array(void)
{
	uint64_t values[EV_NUM + 1];

	memset(values, 0xa5, sizeof(values));
	TEST_ASSERT_EQUAL(rte_pmu_read_group(values, 1), 1, "n = 1");
	TEST_ASSERT_NOT_EQUAL(values[0], UINT64_C(0xa5a5a5a5a5a5a5a5), "value 0 not written");
	TEST_ASSERT_EQUAL(values[1], UINT64_C(0xa5a5a5a5a5a5a5a5), "value 1 written");

	/* More room than events: the number of events. */
	TEST_ASSERT_EQUAL(rte_pmu_read_group(values, EV_NUM + 1), EV_NUM, "n above events");
	TEST_ASSERT_EQUAL(values[EV_NUM], UINT64_C(0xa5a5a5a5a5a5a5a5), "beyond events written");

	return TEST_SUCCESS;
}

static void *
unregistered_thread(void *arg)
{
	uint64_t values[EV_NUM];

	*(int *)arg = rte_pmu_read_group(values, EV_NUM);

	return NULL;
}

/* A NULL delta is refused, and the log line names that parameter. */
static int
test_delta_null_logged(void)
{
	uint64_t start[EV_NUM] = { 0 };
	size_t loglen = 0;
	char *logbuf = NULL;
	bool named, other;
	FILE *log;
	int ret;

	log = open_memstream(&logbuf, &loglen);
	TEST_ASSERT_NOT_NULL(log, "open_memstream");
	rte_openlog_stream(log);
	ret = rte_pmu_read_group_delta(start, NULL, EV_NUM);
	rte_openlog_stream(NULL);
	fclose(log);
	named = logbuf != NULL && strstr(logbuf, "delta is NULL") != NULL;
	other = logbuf != NULL && strstr(logbuf, "values is NULL") != NULL;
	printf("log of a NULL delta: %s", logbuf != NULL ? logbuf : "(none)\n");
	free(logbuf);

	TEST_ASSERT_EQUAL(ret, -EINVAL, "NULL delta: %d", ret);
	TEST_ASSERT(named && !other, "the log line does not name the NULL parameter delta");

	return TEST_SUCCESS;
}

static int
test_snapshot_errors(void)
{
	uint64_t values[EV_NUM];
	pthread_t t;
	int ret;

	TEST_ASSERT_EQUAL(rte_pmu_read_group(NULL, EV_NUM), -EINVAL, "NULL values");
	TEST_ASSERT_EQUAL(rte_pmu_read_group(values, 0), -EINVAL, "n = 0");
	TEST_ASSERT_EQUAL(rte_pmu_read_group_delta(NULL, values, EV_NUM), -EINVAL,
		"NULL start");
	TEST_ASSERT_SUCCESS(test_delta_null_logged(), "NULL delta");

	TEST_ASSERT_SUCCESS(pthread_create(&t, NULL, unregistered_thread, &ret), "thread");
	TEST_ASSERT_SUCCESS(pthread_join(t, NULL), "join");
	TEST_ASSERT_EQUAL(ret, -ESRCH, "unregistered thread");

	rte_pmu_fini();
	TEST_ASSERT_EQUAL(rte_pmu_read_group(values, EV_NUM), -ENODEV, "not initialised");
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT_EQUAL(rte_pmu_read_group(values, EV_NUM), -ENODATA, "no event");

	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_snapshot_suite = {
	.suite_name = "pmu group snapshot",
	.unit_test_cases = {
		TEST_CASE_ST(setup_events, teardown_events, test_snapshot_values),
		TEST_CASE_ST(setup_events, teardown_events, test_snapshot_one_syscall),
		TEST_CASE_ST(setup_events, teardown_events, test_read_formats),
		TEST_CASE_ST(setup_events, teardown_events, test_snapshot_short_array),
		TEST_CASE_ST(setup_events, teardown_events, test_snapshot_errors),
		TEST_CASES_END()
	}
};

static int
test_pmu_snapshot(void)
{
	return unit_test_suite_runner(&pmu_snapshot_suite);
}

REGISTER_FAST_TEST(pmu_snapshot_autotest, true, true, test_pmu_snapshot);
