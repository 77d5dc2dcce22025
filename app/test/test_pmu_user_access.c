/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_user_access_autotest: arm64 with kernel.perf_user_access = 0. The
 * library warns once, every read takes the read() path, and the values
 * still count. It switches the setting off and on again, so it runs only
 * on the test's own machine (RTE_PMU_TEST_GUEST=1: the arm64 guest) and
 * skips, with the reason, elsewhere. Then the same setting switched off
 * under running stages.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "test.h"
#include "test_pmu_loop.h"

#define PERF_USER_ACCESS "/proc/sys/kernel/perf_user_access"

static bool
env_set(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && strcmp(v, "1") == 0;
}

static int
sysctl_user_access(const char *val)
{
	int fd = open(PERF_USER_ACCESS, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, 1);
	close(fd);

	return n == 1 ? 0 : -EIO;
}

/* TEST_SUCCESS where a case may switch perf_user_access (the test's own
 * machine), else the skip, its reason printed.
 */
static int
switch_allowed(void)
{
	if (access(PERF_USER_ACCESS, F_OK) != 0)
		TEST_SKIP("no %s on this kernel", PERF_USER_ACCESS);
	if (!env_set("RTE_PMU_TEST_GUEST"))
		TEST_SKIP("changes %s: only in the test's own machine (RTE_PMU_TEST_GUEST=1)",
			PERF_USER_ACCESS);
	return TEST_SUCCESS;
}

static int
test_user_access_off(void)
{
	struct rte_pmu_lcore_info info;
	char *logbuf = NULL;
	size_t loglen = 0;
	uint64_t a, b;
	FILE *log;
	unsigned int warnings = 0;
	const char *p;
	int idx, ret = TEST_SUCCESS;

	ret = switch_allowed();
	if (ret != TEST_SUCCESS)
		return ret;

	rte_pmu_fini();
	TEST_ASSERT_SUCCESS(sysctl_user_access("0"), "write %s", PERF_USER_ACCESS);
	log = open_memstream(&logbuf, &loglen);
	rte_openlog_stream(log);

	if (rte_pmu_init() != 0 || (idx = rte_pmu_add_event("instructions")) < 0) {
		ret = TEST_FAILED;
		goto restore;
	}
	a = rte_pmu_read(idx);
	for (int i = 0; i < 100; i++)
		rte_pmu_read(idx);
	test_loop(100000);
	b = rte_pmu_read(idx);
	rte_pmu_lcore_info_get(rte_lcore_id(), &info);
restore:
	rte_openlog_stream(NULL);
	fclose(log);
	sysctl_user_access("1");
	for (p = logbuf; p != NULL && (p = strstr(p, "perf_user_access is 0")) != NULL; p++)
		warnings++;
	printf("log with user access off:\n%s", logbuf != NULL ? logbuf : "");
	free(logbuf);
	TEST_ASSERT_EQUAL(ret, TEST_SUCCESS, "init or add failed with user access off");

	printf("instructions with user access off: %" PRIu64 " (path %s, index %u)\n",
		b - a, info.events[0].path == RTE_PMU_PATH_USER ? "user" : "read()",
		info.events[0].user_index);
	TEST_ASSERT_EQUAL(warnings, 1u, "%u warnings about perf_user_access", warnings);
	TEST_ASSERT_EQUAL(info.events[0].path, RTE_PMU_PATH_SYSCALL, "path");
	TEST_ASSERT(b - a >= TEST_LOOP_INSNS * 100000, "value did not grow: %" PRIu64,
		b - a);

	return TEST_SUCCESS;
}

/* User access taken away while stages run (perf_user_access set to 0,
 * then the thread sleeps: the kernel rewrites its pages with index 0): the
 * stage calls go on through read(), counted, and never run the counter
 * instruction as the old page allowed (a SIGILL: cached counter views,
 * tried, did).
 */
static int
test_user_access_revoked(void)
{
	struct rte_pmu_stage_stats s;
	unsigned int i;
	int id, ret = TEST_SUCCESS;

	ret = switch_allowed();
	if (ret != TEST_SUCCESS)
		return ret;

	rte_pmu_fini();
	TEST_ASSERT_SUCCESS(sysctl_user_access("1"), "write %s", PERF_USER_ACCESS);
	TEST_ASSERT(rte_pmu_init() == 0 && rte_pmu_add_event("instructions") == 0,
		"init, add instructions");
	id = rte_pmu_stage_register("revoked");
	TEST_ASSERT(id >= 0, "register: %d", id);
	for (i = 0; i < 100; i++) {
		rte_pmu_stage_begin(id);
		rte_pmu_stage_end(id, 1);
	}
	/* The kernel turns the access off at once, and says so in the pages
	 * only at their next update: a read between traps, whatever reads.
	 * A sleep first, which updates them.
	 */
	if (sysctl_user_access("0") != 0)
		ret = TEST_FAILED;
	usleep(2000);
	for (i = 0; i < 20 && ret == TEST_SUCCESS; i++) {
		rte_pmu_stage_begin(id);
		usleep(2000);
		rte_pmu_stage_end(id, 1);
		usleep(2000);
	}
	sysctl_user_access("1");
	TEST_ASSERT_EQUAL(ret, TEST_SUCCESS, "write 0 to %s", PERF_USER_ACCESS);
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), id, &s), "stats");
	printf("stages with user access taken away: %" PRIu64 " calls, %" PRIu64 " measured\n",
		s.calls, s.measured);
	TEST_ASSERT(s.calls == 120 && s.measured == 120, "calls %" PRIu64 ", measured %" PRIu64,
		s.calls, s.measured);
	rte_pmu_fini();
	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_user_access_suite = {
	.suite_name = "pmu with perf_user_access off",
	.unit_test_cases = {
		TEST_CASE(test_user_access_off),
		TEST_CASE(test_user_access_revoked),
		TEST_CASES_END()
	}
};

static int
test_pmu_user_access(void)
{
	return unit_test_suite_runner(&pmu_user_access_suite);
}

REGISTER_FAST_TEST(pmu_user_access_autotest, true, true, test_pmu_user_access);
