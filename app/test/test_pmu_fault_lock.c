/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* dpdk-test-fault's check of the lock rule: the library makes no system
 * call, file access or allocation while the calling thread holds its lock
 * (test_pmu_fault_wrap.c checks every wrapped call; this case runs the
 * observers on top of the sweep and reads the verdict).
 */

#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_telemetry.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "pmu_observe.h"
#include "test.h"
#include "test_pmu_fault.h"
#include "test_pmu_lsan.h"

static int
list_count(const struct rte_pmu_event_entry *e __rte_unused, void *arg)
{
	(*(unsigned int *)arg)++;
	return 0;
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
	return TEST_SUCCESS;
}
