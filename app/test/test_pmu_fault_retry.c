/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The retry promise of rte_pmu.h, call by call: a system call that fails
 * with EINTR, EAGAIN or EBUSY is made again up to 3 times. Up to 3 such
 * failures in a row are absorbed; the 4th is the API's documented failure.
 * Two calls: the read() of the lcore's first read, right after its group
 * opens, and a sysfs read of rte_pmu_add_event().
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include <rte_pmu.h>

#include "test.h"
#include "test_pmu_fault.h"

/* Failures in a row that the library absorbs, and the one more that it
 * gives back.
 */
#define RETRIES 3

static const int retry_errs[] = { EAGAIN, EBUSY };

/* Index of the first armed call of @p kind since fault_reset(), or -1. */
static int
first_of(enum fault_kind kind)
{
	uint32_t i, n = fault_calls();

	for (i = 0; i < n && i < FAULT_TRACE_MAX; i++)
		if (fault_trace(i) == kind)
			return (int)i;
	return -1;
}

/* A fresh library with cpu-clock; the calling lcore's first read, armed,
 * under @p plan (NULL: none). Its value, and the lcore's info after it.
 */
static int
first_read(const struct fault_plan *plan, uint64_t *value, struct rte_pmu_lcore_info *info)
{
	int ret;

	rte_pmu_fini();
	ret = rte_pmu_init();
	if (ret == 0 && rte_pmu_add_event(FAULT_FIRST_EVENT) != 0)
		ret = -ENOENT;
	if (ret != 0)
		return ret;
	fault_reset(plan);
	fault_arm(true);
	*value = rte_pmu_read(0);
	fault_arm(false);
	return rte_pmu_lcore_info_get(rte_lcore_id(), info);
}

int
test_retry_read_at_open(void)
{
	struct fault_plan plan = { 0 };
	struct rte_pmu_lcore_info info;
	unsigned int e, count;
	uint64_t value;
	int at, ret;

	/* The dry run: the read() of the first read. */
	ret = first_read(NULL, &value, &info);
	at = first_of(FK_READ_PERF);
	fault_reset(NULL);
	rte_pmu_fini();
	TEST_ASSERT_SUCCESS(ret, "first read without a fault");
	if (at < 0)
		TEST_SKIP("the first read of %s made no read() here", FAULT_FIRST_EVENT);

	for (e = 0; e < RTE_DIM(retry_errs); e++) {
		for (count = 1; count <= RETRIES + 1; count++) {
			plan = (struct fault_plan){ .index = at, .count = count,
				.err = retry_errs[e] };
			ret = first_read(&plan, &value, &info);
			fault_reset(NULL);
			rte_pmu_fini();
			TEST_ASSERT_SUCCESS(ret, "first read, %u x %s", count,
				strerror(retry_errs[e]));
			printf("first read, read() failed %u x %s: value %" PRIu64 ", status %d, "
				"%" PRIu64 " read errors\n", count, strerror(retry_errs[e]), value,
				info.status, info.read_errors);
			TEST_ASSERT_EQUAL(info.status, 1, "status %d", info.status);
			if (count <= RETRIES) {
				TEST_ASSERT(value != 0 && info.read_errors == 0,
					"%u x %s not retried: value %" PRIu64 ", %" PRIu64
					" read errors", count, strerror(retry_errs[e]), value,
					info.read_errors);
			} else {
				/* rte_pmu_read(): a failed read() fallback reads 0, counted. */
				TEST_ASSERT(value == 0 && info.read_errors == 1,
					"%u x %s: value %" PRIu64 ", %" PRIu64 " read errors",
					count, strerror(retry_errs[e]), value, info.read_errors);
			}
		}
	}
	return TEST_SUCCESS;
}

/* A fresh library; an armed add of an event read from sysfs. */
static int
sysfs_add(const struct fault_plan *plan)
{
	int ret;

	rte_pmu_fini();
	ret = rte_pmu_init();
	if (ret != 0)
		return ret;
	fault_reset(plan);
	fault_arm(true);
	ret = rte_pmu_add_event("software/config=2/");
	fault_arm(false);
	return ret;
}

int
test_retry_sysfs_read(void)
{
	struct fault_plan plan = { 0 };
	unsigned int e, count;
	int at, ret;

	/* The dry run: the first sysfs read() of the add. */
	ret = sysfs_add(NULL);
	at = first_of(FK_READ_FILE);
	fault_reset(NULL);
	rte_pmu_fini();
	if (ret == -ENOENT || ret == -EOPNOTSUPP)
		TEST_SKIP("software/config=2/ not countable here (%s)", strerror(-ret));
	TEST_ASSERT_EQUAL(ret, 0, "add without a fault: %d", ret);
	TEST_ASSERT(at >= 0, "the add of software/config=2/ read no sysfs file");

	for (e = 0; e < RTE_DIM(retry_errs); e++) {
		for (count = 1; count <= RETRIES + 1; count++) {
			plan = (struct fault_plan){ .index = at, .count = count,
				.err = retry_errs[e] };
			ret = sysfs_add(&plan);
			fault_reset(NULL);
			rte_pmu_fini();
			printf("add, sysfs read() failed %u x %s: %d\n", count,
				strerror(retry_errs[e]), ret);
			/* rte_pmu_add_event(): -EAGAIN once the kernel stayed busy. */
			TEST_ASSERT_EQUAL(ret, count <= RETRIES ? 0 : -EAGAIN,
				"add, sysfs read() failed %u x %s: %d", count,
				strerror(retry_errs[e]), ret);
		}
	}
	return TEST_SUCCESS;
}
