/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* dpdk-test-fault's check of the lock rule: the library makes no system
 * call, file access or allocation, and writes no log line, while the calling
 * thread holds its lock (test_pmu_fault_wrap.c checks every wrapped call and
 * every rte_log(); these cases run the paths that refuse, and the observers
 * on top of the sweep, and read the verdict).
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_telemetry.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "pmu_observe.h"
#include "pmu_stage_private.h"
#include "test.h"
#include "test_pmu_fault.h"
#include "test_pmu_lsan.h"

static int
list_count(const struct rte_pmu_event_entry *e __rte_unused, void *arg)
{
	(*(unsigned int *)arg)++;
	return 0;
}

/* No log line of the whole run so far was written under the lock. */
static int
log_verdict(void)
{
	const char *first;
	uint32_t bad;

	bad = fault_log_violations(&first);
	printf("lock-free log: %u log lines checked, %u written under the library's lock%s%s\n",
		fault_log_checked(), bad, bad != 0 ? ", the first: " : "",
		bad != 0 ? first : "");
	TEST_ASSERT_EQUAL(bad, 0u, "%u log lines written under the library's lock", bad);
	return TEST_SUCCESS;
}

/* The refusals that the library decides under its lock, each logged once
 * the lock is dropped: an add before rte_pmu_init() and one after an lcore
 * opened its group, an lcore open with no event, an lcore open whose
 * system calls fail. Their lines say what happened, whoever asked: an open
 * from rte_pmu_lcore_open() is not called a read.
 */
int
test_lock_free_log(void)
{
	struct fault_plan plan = { .index = 0, .count = UINT32_MAX, .err = EINVAL };
	unsigned int lcore = rte_lcore_id();
	char log[4096], what[64];
	uint32_t before, lines;
	long mark;
	int ret;

	before = fault_log_checked();
	mark = log_mark();
	TEST_ASSERT_EQUAL(rte_pmu_add_event(FAULT_FIRST_EVENT), -ENODEV, "add before init");
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	rte_pmu_lcore_open();
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(lcore), -ENODATA, "status without events");

	/* Every armed call of the open fails. */
	TEST_ASSERT(rte_pmu_add_event(FAULT_FIRST_EVENT) == 0, "add %s", FAULT_FIRST_EVENT);
	fault_reset(&plan);
	fault_arm(true);
	ret = rte_pmu_lcore_open();
	fault_arm(false);
	fault_reset(NULL);
	TEST_ASSERT(ret < 0, "open with its calls failing: %d", ret);
	rte_pmu_fini();

	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init again");
	TEST_ASSERT(rte_pmu_add_event(FAULT_FIRST_EVENT) == 0, "add %s", FAULT_FIRST_EVENT);
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_open(), "open");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), -EBUSY, "add after an open");
	rte_pmu_fini();
	log_since(mark, log, sizeof(log));
	lines = fault_log_checked() - before;
	printf("refusals logged (%u lines):\n%s", lines, log);

	TEST_ASSERT(lines >= 4, "%u log lines for 4 refusals", lines);
	TEST_ASSERT_SUCCESS(log_verdict(), "log lines under the lock");
	TEST_ASSERT(strstr(log, "rte_pmu_init() not called: -ENODEV") != NULL,
		"add before init: no line naming -ENODEV");
	TEST_ASSERT(strstr(log, "already opened their group") != NULL &&
		strstr(log, "-EBUSY") != NULL, "add after an open: no line naming -EBUSY");
	snprintf(what, sizeof(what), "opening the group of lcore %u: no event", lcore);
	TEST_ASSERT(strstr(log, what) != NULL, "open without events: no '%s'", what);
	snprintf(what, sizeof(what), "opening the group of lcore %u failed: -", lcore);
	TEST_ASSERT(strstr(log, what) != NULL, "failed open: no '%s'", what);
	TEST_ASSERT(strstr(log, "rte_pmu_read()") == NULL,
		"opens from rte_pmu_lcore_open() logged as reads");
	return TEST_SUCCESS;
}

/* Every wrapped call of the sweep above, and of the observers here (info,
 * telemetry with the stage commands, the event list), was made without the
 * library's lock.
 */
int
test_lock_free_io(void)
{
	static const char *const cmds[] = { "/pmu/list", "/pmu/info", "/pmu/lcore",
		"/pmu/stages", "/pmu/stage" };
	struct rte_pmu_lcore_info info;
	struct rte_tel_data *d;
	enum fault_kind first;
	unsigned int i, listed = 0;
	char param[16];
	uint32_t bad;
	int ret;

	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT(rte_pmu_add_event(FAULT_FIRST_EVENT) == 0, "add %s", FAULT_FIRST_EVENT);
	rte_pmu_read(0);
	TEST_ASSERT(rte_pmu_stage_register("fault_stage") == 0, "register a stage");
	rte_pmu_stage_begin(0);
	rte_pmu_stage_end(0, 1);
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(rte_lcore_id(), &info), "info");
	snprintf(param, sizeof(param), "%u", rte_lcore_id());
	/* A reply each: a handler starts its reply afresh. */
	for (i = 0; i < RTE_DIM(cmds); i++) {
		d = rte_tel_data_alloc();
		TEST_ASSERT_NOT_NULL(d, "telemetry data");
		LSAN_OFF();
		ret = pmu_telemetry_call(cmds[i], strcmp(cmds[i], "/pmu/lcore") == 0 ? param :
			strcmp(cmds[i], "/pmu/stage") == 0 ? "fault_stage" : NULL, d);
		if (ret == -ENOENT)
			ret = stage_telemetry_call(cmds[i], strcmp(cmds[i], "/pmu/stage") == 0 ?
				"fault_stage" : NULL, d);
		LSAN_ON();
		rte_tel_data_free(d);
		TEST_ASSERT_SUCCESS(ret, "telemetry %s", cmds[i]);
	}
	rte_pmu_event_list(list_count, &listed);
	rte_pmu_fini();

	bad = fault_lock_violations(&first);
	printf("lock-free I/O: %u wrapped calls checked, %u made under the library's lock%s%s\n",
		fault_lock_checked(), bad, bad != 0 ? ", the first: " : "",
		bad != 0 ? (first < FK_MAX ? fault_kind_name(first) : "syscall") : "");
	TEST_ASSERT(listed > 0, "the event list listed nothing");
	TEST_ASSERT(fault_lock_checked() > 1000, "only %u wrapped calls seen",
		fault_lock_checked());
	TEST_ASSERT_EQUAL(bad, 0u, "%u calls made under the library's lock", bad);
	return log_verdict();
}
