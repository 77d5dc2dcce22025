/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_autotest: the API against the real kernel. Software events run
 * everywhere; hardware events run where a PMU exists and skip with the
 * reason elsewhere. Run with two lcores (-l 0-1).
 */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include <rte_pmu.h>

#include "pmu_private.h"
#include "test.h"

static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* Run in user space until this thread has used @ms ms of CPU time (so a
 * loaded machine cannot shorten it), or 5 s of wall time went by.
 */
static uint64_t
busy_ms(unsigned int ms)
{
	uint64_t end = thread_cpu_ns() + ms * UINT64_C(1000000);
	uint64_t deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	volatile uint64_t sink = 0;

	while (thread_cpu_ns() < end && rte_get_timer_cycles() < deadline)
		for (int i = 0; i < 1000; i++)
			sink = sink + i;

	return sink;
}

static int
sw_worker_read(void *arg __rte_unused)
{
	return rte_pmu_read(0) != 0 ? 0 : -1;
}

static int
pmu_setup(void)
{
	return rte_pmu_init() == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static void
pmu_teardown(void)
{
	rte_pmu_fini();
}

static unsigned int
first_worker(void)
{
	return rte_get_next_lcore(-1, 1, 0);
}

static int
test_init_fini(void)
{
	int idx;

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

	return TEST_SUCCESS;
}

static int
count_fds(void)
{
	struct dirent *de;
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	if (dir == NULL)
		return -1;
	while ((de = readdir(dir)) != NULL)
		n += de->d_name[0] != '.';
	closedir(dir);

	return n;
}

/* fini closes every descriptor the groups opened, on every lcore. */
static int
test_fini_closes_fds(void)
{
	unsigned int worker = first_worker();
	int before, after, open_fds;

	before = count_fds();
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("page-faults"), 1, "add");
	rte_pmu_read(0);
	if (worker < RTE_MAX_LCORE) {
		rte_eal_remote_launch(sw_worker_read, NULL, worker);
		rte_eal_wait_lcore(worker);
	}
	open_fds = count_fds();
	rte_pmu_fini();
	after = count_fds();
	TEST_ASSERT(open_fds >= before + 2, "groups opened %d descriptors", open_fds - before);
	TEST_ASSERT_EQUAL(after, before, "%d descriptors before, %d after fini", before, after);

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

static int
test_bad_names(void)
{
	TEST_ASSERT_EQUAL(rte_pmu_add_event(NULL), -EINVAL, "NULL name");
	TEST_ASSERT_EQUAL(rte_pmu_add_event(""), -EINVAL, "empty name");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("no-such-event"), -ENOENT, "unknown name");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("nosuchpmu/event=1/"), -ENOENT, "unknown PMU");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("../../etc/passwd"), -EINVAL, "path in a name");
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
	busy_ms(5);
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

/* Context switches happen in the kernel: software events are not
 * restricted to user space, or this count would stay 0.
 */
static int
test_software_kernel_side(void)
{
	uint64_t before, after;

	TEST_ASSERT_EQUAL(rte_pmu_add_event("context-switches"), 0, "add");
	before = rte_pmu_read(0);
	for (int i = 0; i < 5; i++)
		usleep(1000);
	after = rte_pmu_read(0);
	TEST_ASSERT(after - before >= 5, "5 sleeps gave %" PRIu64 " context switches",
		after - before);

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

/* Per-lcore results of the software-event worker. */
struct lcore_result {
	uint64_t before;
	uint64_t after;
	int status_before;
	int status_after;
	struct rte_pmu_lcore_info info;
};

static struct lcore_result results[RTE_MAX_LCORE];

static int
sw_worker(void *arg __rte_unused)
{
	unsigned int lcore_id = rte_lcore_id();
	struct lcore_result *r = &results[lcore_id];

	r->status_before = rte_pmu_lcore_status(lcore_id);
	r->before = rte_pmu_read(0);
	busy_ms(10);
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

	return TEST_SUCCESS;
}

static int
test_software_two_lcores(void)
{
	unsigned int main_lcore = rte_lcore_id();
	unsigned int worker = first_worker();

	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("needs two lcores (-l 0-1)");

	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add task-clock");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("context-switches"), 1, "add context-switches");
	memset(results, 0, sizeof(results));

	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(sw_worker, NULL, worker), "launch");
	sw_worker(NULL);
	TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "worker");

	if (check_result(main_lcore) != TEST_SUCCESS ||
			check_result(worker) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_NOT_EQUAL(rte_pmu_event_groups[main_lcore].mmap_pages[0],
		rte_pmu_event_groups[worker].mmap_pages[0], "lcores share a page");

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
	busy_ms(10);
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
	fds = count_fds();
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
	TEST_ASSERT_EQUAL(count_fds(), fds, "descriptors kept after release");

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
	unsigned int worker = first_worker();
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

/* rte_pmu_read() bounds the index by a constant: every slot without a
 * ready event must hold the library's empty page (never NULL, never a page
 * that was unmapped), and a read there must give 0, before the open, with
 * the group open and after fini.
 */
static int
test_empty_slots(void)
{
	struct rte_pmu_event_group *group = &rte_pmu_event_groups[rte_lcore_id()];
	unsigned int i;

	for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++)
		TEST_ASSERT(group->mmap_pages[i] == &pmu_page_none,
			"slot %u before the open: %p", i, (void *)group->mmap_pages[i]);
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("page-faults"), 1, "add");
	for (i = 2; i < RTE_MAX_NUM_GROUP_EVENTS; i++)
		TEST_ASSERT_EQUAL(rte_pmu_read(i), UINT64_C(0), "slot %u before the open", i);
	TEST_ASSERT(rte_pmu_read(0) != 0 || rte_pmu_read(0) != 0, "task-clock reads 0");
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(rte_lcore_id()), 1, "group not open");
	for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++) {
		TEST_ASSERT(i < 2 ? group->mmap_pages[i] != &pmu_page_none :
			group->mmap_pages[i] == &pmu_page_none, "slot %u with the group open", i);
		if (i >= 2)
			TEST_ASSERT_EQUAL(rte_pmu_read(i), UINT64_C(0), "empty slot %u", i);
	}
	rte_pmu_fini();
	for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++) {
		TEST_ASSERT(group->mmap_pages[i] == &pmu_page_none, "slot %u after fini", i);
		TEST_ASSERT_EQUAL(rte_pmu_read(i), UINT64_C(0), "slot %u after fini", i);
	}
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init for teardown");

	return TEST_SUCCESS;
}

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

static unsigned int
count_in(const char *text, const char *what)
{
	unsigned int n = 0;

	for (; text != NULL && (text = strstr(text, what)) != NULL; text++)
		n++;

	return n;
}

/* Reads with an empty event list: 0, a status of their own, one log line. */
static int
test_read_without_events(void)
{
	unsigned int lcore_id = rte_lcore_id();
	size_t loglen = 0;
	char *logbuf = NULL;
	uint64_t sum = 0;
	unsigned int warnings;
	FILE *log;
	int i;

	log = open_memstream(&logbuf, &loglen);
	TEST_ASSERT_NOT_NULL(log, "open_memstream");
	rte_openlog_stream(log);
	for (i = 0; i < 5; i++)
		sum += rte_pmu_read(0);
	rte_openlog_stream(NULL);
	fclose(log);
	warnings = count_in(logbuf, "no event was added");
	free(logbuf);

	TEST_ASSERT_EQUAL(sum, 0u, "reads with no event gave %" PRIu64, sum);
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(lcore_id), -ENODATA, "status");
	TEST_ASSERT_EQUAL(warnings, 1u, "%u warnings for 5 reads, expected 1", warnings);

	/* Adding an event afterwards works and the next read opens. */
	TEST_ASSERT_SUCCESS(rte_pmu_add_event("task-clock") < 0, "add after empty reads");
	rte_pmu_read(0);
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(lcore_id), 1, "status after add and read");

	return TEST_SUCCESS;
}

/* The msr PMU cannot exclude kernel space: the event is retried without
 * exclusion. It counts through read() (no user index).
 */
static int
test_msr_tsc(void)
{
	uint64_t a, b;
	int idx;

	if (!pmu_sysfs_pmu_exists("msr"))
		TEST_SKIP("no msr PMU on this machine");
	idx = rte_pmu_add_event("msr/tsc/");
	if (idx == -EACCES || idx == -EOPNOTSUPP || idx == -ENOENT)
		TEST_SKIP("msr/tsc cannot be opened here: %s", strerror(-idx));
	TEST_ASSERT_EQUAL(idx, 0, "add msr/tsc/: %d", idx);
	a = rte_pmu_read(0);
	busy_ms(2);
	b = rte_pmu_read(0);
	/* Opened as probed: without kernel exclusion, which msr refuses. */
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(rte_lcore_id()), 1, "msr/tsc group not open");
	TEST_ASSERT(b > a, "tsc did not advance: %" PRIu64 " -> %" PRIu64, a, b);

	return TEST_SUCCESS;
}

/* Hardware events: user-page reads where a PMU exists. */
static int
test_hardware_events(void)
{
	static const char * const names[] = { "cycles", "instructions" };
	struct rte_pmu_lcore_info info;
	uint64_t before[2], after[2];
	unsigned int i;
	int idx;

	for (i = 0; i < RTE_DIM(names); i++) {
		idx = rte_pmu_add_event(names[i]);
		if (idx == -ENOENT || idx == -EOPNOTSUPP || idx == -EACCES) {
			/* The arm64 guest has a PMU: there, this is a failure. */
			TEST_ASSERT(getenv("RTE_PMU_TEST_GUEST") == NULL,
				"hardware event %s missing in the test guest: %s", names[i],
				strerror(-idx));
			TEST_SKIP("hardware event %s unavailable here (%s): no hardware PMU "
				"or no permission", names[i], strerror(-idx));
		}
		TEST_ASSERT_EQUAL(idx, (int)i, "add %s: %d", names[i], idx);
	}

	for (i = 0; i < 2; i++)
		before[i] = rte_pmu_read(i);
	busy_ms(5);
	for (i = 0; i < 2; i++)
		after[i] = rte_pmu_read(i);
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(rte_lcore_id()), 1, "group");
	for (i = 0; i < 2; i++)
		TEST_ASSERT(after[i] > before[i] + 10000, "%s grew only %" PRIu64, names[i],
			after[i] - before[i]);

	TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(rte_lcore_id(), &info), "info");
	for (i = 0; i < 2; i++) {
		printf("%s: path %s, index %u, width %u, cap_user_rdpmc %d\n", names[i],
			info.events[i].path == RTE_PMU_PATH_USER ? "user" : "read()",
			info.events[i].user_index, info.events[i].pmc_width,
			info.events[i].cap_user_rdpmc);
		if (__RTE_PMU_HAVE_USER_READ && info.events[i].path != RTE_PMU_PATH_USER)
			printf("note: %s is read with read(): user access is off "
				"(x86 cpu/rdpmc, arm64 perf_user_access)\n", names[i]);
	}

	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_suite = {
	.suite_name = "pmu autotest",
	.unit_test_cases = {
		TEST_CASE(test_init_fini),
		TEST_CASE(test_not_initialised),
		TEST_CASE(test_fini_closes_fds),
		TEST_CASE_ST(pmu_setup, pmu_teardown, test_bad_names),
		TEST_CASE_ST(pmu_setup, pmu_teardown, test_status_args),
		TEST_CASE_ST(pmu_setup, pmu_teardown, test_read_without_events),
		TEST_CASE_ST(pmu_setup, pmu_teardown, test_eight_events),
		TEST_CASE_ST(pmu_setup, pmu_teardown, test_add_after_open),
		TEST_CASE_ST(pmu_setup, pmu_teardown, test_software_kernel_side),
		TEST_CASE_ST(pmu_setup, pmu_teardown, test_software_two_lcores),
		TEST_CASE_ST(pmu_setup, pmu_teardown, test_non_eal_thread),
		TEST_CASE_ST(pmu_setup, pmu_teardown, test_open_failure_remembered),
		TEST_CASE_ST(pmu_setup, pmu_teardown, test_read_after_fini),
		TEST_CASE_ST(pmu_setup, pmu_teardown, test_empty_slots),
		TEST_CASE_ST(pmu_setup, pmu_teardown, test_msr_tsc),
		TEST_CASE_ST(pmu_setup, pmu_teardown, test_hardware_events),
		TEST_CASES_END()
	}
};

static int
test_pmu(void)
{
	return unit_test_suite_runner(&pmu_suite);
}

REGISTER_FAST_TEST(pmu_autotest, true, true, test_pmu);
