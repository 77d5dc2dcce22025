/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_read_autotest: rte_pmu_read() on the calling lcore. Reads without
 * events give 0 and one log line, empty slots read 0 before, during and
 * after a group, software events count kernel work, and the msr and
 * hardware events read where this machine has them (a skip with the
 * reason elsewhere).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include <rte_pmu.h>

#include "pmu_private.h"
#include "test.h"
#include "test_pmu_api.h"

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
	warnings = pmu_api_count_in(logbuf, "no event was added");
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

/* A read of an index never added gives 0, says why in read_errors and in
 * one log line per lcore; the status stays "open".
 */
static int
test_bad_index(void)
{
	struct rte_pmu_lcore_info before, after;
	unsigned int lcore = rte_lcore_id();
	char *buf = NULL;
	size_t len = 0;
	FILE *saved, *log;
	const char *p;
	int lines = 0;

	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");
	TEST_ASSERT(rte_pmu_read(0) != 0 || rte_pmu_read(0) != 0, "task-clock reads 0");
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(lcore, &before), "info");
	log = open_memstream(&buf, &len);
	TEST_ASSERT_NOT_NULL(log, "memstream");
	saved = rte_log_get_stream();
	rte_openlog_stream(log);
	TEST_ASSERT_EQUAL(rte_pmu_read(5), UINT64_C(0), "index 5 of 1 event");
	TEST_ASSERT_EQUAL(rte_pmu_read(1), UINT64_C(0), "index 1 of 1 event");
	TEST_ASSERT_EQUAL(rte_pmu_read(1000), UINT64_C(0), "index 1000");
	rte_openlog_stream(saved);
	fclose(log);
	for (p = buf; p != NULL && (p = strstr(p, "no such event")) != NULL; p++)
		lines++;
	free(buf);
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(lcore, &after), "info");
	TEST_ASSERT_EQUAL(after.read_errors - before.read_errors, UINT64_C(3),
		"reads of an index never added counted in read_errors");
	TEST_ASSERT_EQUAL(lines, 1, "one log line for the lcore, %d seen", lines);
	TEST_ASSERT_EQUAL(after.status, 1, "status %d", after.status);

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

/* The msr PMU cannot exclude kernel space: the event is retried without
 * exclusion. Its page has no user index; on x86 it is read with rdtsc
 * (pmu_tsc_autotest), elsewhere through read().
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
	pmu_api_busy_ms(2);
	b = rte_pmu_read(0);
	/* Opened as probed: without kernel exclusion, which msr refuses. */
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(rte_lcore_id()), 1, "msr/tsc group not open");
	TEST_ASSERT(b > a, "tsc did not advance: %" PRIu64 " -> %" PRIu64, a, b);

	return TEST_SUCCESS;
}

/* rte_pmu_add_event(@p name): its index, and whether what it logged
 * holds @p want.
 */
static int
add_saying(const char *name, const char *want, bool *said)
{
	FILE *saved = rte_log_get_stream(), *log;
	char *buf = NULL;
	size_t len = 0;
	int idx;

	log = open_memstream(&buf, &len);
	if (log == NULL)
		return -ENOMEM;
	rte_openlog_stream(log);
	idx = rte_pmu_add_event(name);
	rte_openlog_stream(saved);
	fclose(log);
	*said = buf != NULL && strstr(buf, want) != NULL;
	if (!*said)
		printf("add %s: logged '%s', not '%s'\n", name, buf != NULL ? buf : "", want);
	free(buf);
	return idx;
}

/* A modifier the event cannot honour is said, as what it counts: the
 * clock events count user and kernel space whatever their modifier (the
 * kernel applies it to samples), and msr cannot count kernel space alone
 * (its log said "cannot exclude kernel space": an outside tester's finds).
 */
static int
test_modifier_not_honoured(void)
{
	bool said;

	TEST_ASSERT_EQUAL(add_saying("task-clock:u", "event task-clock:u: a clock event: the "
		"kernel counts it in user and kernel space alike, whatever its modifier", &said),
		0, "add task-clock:u");
	TEST_ASSERT(said, "task-clock:u: the log does not say it counts the kernel too");
	if (!pmu_sysfs_pmu_exists("msr"))
		TEST_SKIP("no msr PMU on this machine: task-clock:u checked");
	TEST_ASSERT_EQUAL(add_saying("msr/tsc/k", "event msr/tsc/k: PMU 'msr' cannot count "
		"kernel space alone; counting user and kernel", &said), 1, "add msr/tsc/k");
	TEST_ASSERT(said, "msr/tsc/k: the log does not say what it counts");
	return TEST_SUCCESS;
}

/* A group whose sysfs reads fail (no file descriptor left) at its open
 * on the first read: the log names the event and the files (it gave only
 * the errno, an outside tester's find), and the status the errno.
 */
static int
test_open_sysfs_fails(void)
{
	FILE *saved_log = rte_log_get_stream(), *log;
	struct rlimit saved, low;
	char *buf = NULL;
	size_t len = 0;
	int fd, status;
	bool said;

	if (!pmu_sysfs_pmu_exists("msr"))
		TEST_SKIP("no msr PMU on this machine (the TSC check reads its sysfs files)");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("msr/tsc/"), 0, "add msr/tsc/");
	TEST_ASSERT_SUCCESS(getrlimit(RLIMIT_NOFILE, &saved), "getrlimit");
	log = open_memstream(&buf, &len);
	TEST_ASSERT_NOT_NULL(log, "memstream");
	fd = dup(0);
	TEST_ASSERT(fd >= 0, "dup");
	close(fd);
	/* No file descriptor from the lowest free one on. */
	low = saved;
	low.rlim_cur = (rlim_t)fd;
	rte_openlog_stream(log);
	if (setrlimit(RLIMIT_NOFILE, &low) == 0) {
		rte_pmu_read(0);
		setrlimit(RLIMIT_NOFILE, &saved);
	}
	rte_openlog_stream(saved_log);
	fclose(log);
	said = buf != NULL && strstr(buf, "event msr/tsc/: its PMU's sysfs files") != NULL;
	printf("logged: %s", buf != NULL && buf[0] != '\0' ? buf : "(nothing)\n");
	free(buf);
	status = rte_pmu_lcore_status(rte_lcore_id());
	TEST_ASSERT(status < 0, "status %d, not an error", status);
	TEST_ASSERT(said, "the failed open's log names neither the event nor its files");
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
	pmu_api_busy_ms(5);
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

struct unit_test_suite pmu_read_suite = {
	.suite_name = "pmu read",
	.unit_test_cases = {
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_read_without_events),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_empty_slots),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_bad_index),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_software_kernel_side),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_msr_tsc),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_modifier_not_honoured),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_open_sysfs_fails),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_hardware_events),
		TEST_CASES_END()
	}
};

static int
test_pmu_read_suite(void)
{
	return unit_test_suite_runner(&pmu_read_suite);
}

REGISTER_FAST_TEST(pmu_read_autotest, true, true, test_pmu_read_suite);
