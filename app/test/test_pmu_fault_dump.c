/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* dpdk-test-fault's check that rte_pmu_stage_dump() allocates nothing: its
 * header lists 0, -EINVAL, -ENODEV and -EIO, so no allocation may fail it
 * (the dump of the stages' first library returned -ENOMEM when one did).
 */

#include <errno.h>
#include <stdio.h>

#include <rte_common.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "test.h"
#include "test_pmu_fault.h"

int
test_stage_dump_no_alloc(void)
{
	unsigned int i, n, allocs = 0;
	FILE *f;
	int id, ret;

	rte_pmu_fini();
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT_EQUAL(rte_pmu_add_event(FAULT_FIRST_EVENT), 0, "add %s", FAULT_FIRST_EVENT);
	id = rte_pmu_stage_register("dump");
	TEST_ASSERT(id >= 0, "register: %d", id);
	rte_pmu_stage_begin(id);
	rte_pmu_stage_end(id, 1);
	f = fopen("/dev/null", "w");
	TEST_ASSERT_NOT_NULL(f, "/dev/null");
	/* Its buffer allocated before the dump, by a first write. */
	fputc('\n', f);
	fault_reset(NULL);
	fault_arm(true);
	ret = rte_pmu_stage_dump(f);
	fault_arm(false);
	n = fault_calls();
	for (i = 0; i < n && i < FAULT_TRACE_MAX; i++)
		allocs += fault_trace(i) == FK_ALLOC;
	fault_reset(NULL);
	fclose(f);
	rte_pmu_fini();
	printf("stage dump: %d, %u library calls, %u allocations\n", ret, n, allocs);
	TEST_ASSERT_EQUAL(ret, 0, "dump: %d", ret);
	TEST_ASSERT_EQUAL(allocs, 0u, "the dump allocated %u times", allocs);
	return TEST_SUCCESS;
}
