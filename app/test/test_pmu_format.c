/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_format_autotest: parsing of sysfs format specifications
 * ("config:0-7,32-35") and placing a value in the fields they name. Pure
 * functions: no sysfs, no PMU.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_common.h>

#include "pmu_private.h"
#include "test.h"

static int
test_format_single_bit(void)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT_SUCCESS(pmu_format_apply("config:5", 1, &attr), "config:5");
	TEST_ASSERT_EQUAL(attr.config, UINT64_C(0x20), "config:5 = 1");
	TEST_ASSERT_SUCCESS(pmu_format_apply("config:5", 0, &attr), "config:5 = 0");
	TEST_ASSERT_EQUAL(attr.config, 0, "config:5 cleared");

	TEST_ASSERT_SUCCESS(pmu_format_apply("config1:1\n", 1, &attr), "config1:1");
	TEST_ASSERT_EQUAL(attr.config1, UINT64_C(2), "config1:1 = 1");
	TEST_ASSERT_EQUAL(attr.config, 0, "config untouched by config1");
	TEST_ASSERT_SUCCESS(pmu_format_apply("config2:63", 1, &attr), "config2:63");
	TEST_ASSERT_EQUAL(attr.config2, UINT64_C(1) << 63, "config2:63 = 1");
	TEST_ASSERT_SUCCESS(pmu_format_apply("config:0", 1, &attr), "config:0");
	TEST_ASSERT_EQUAL(attr.config, UINT64_C(1), "config:0 = 1");
	return TEST_SUCCESS;
}

static int
test_format_ranges(void)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT_SUCCESS(pmu_format_apply("config:0-7", 0xab, &attr), "config:0-7");
	TEST_ASSERT_EQUAL(attr.config, UINT64_C(0xab), "config:0-7 = 0xab");
	TEST_ASSERT_SUCCESS(pmu_format_apply("config:8-15\n", 0x12, &attr), "config:8-15");
	TEST_ASSERT_EQUAL(attr.config, UINT64_C(0x12ab), "config:8-15 = 0x12");
	TEST_ASSERT_SUCCESS(pmu_format_apply("config2:0-63", UINT64_MAX, &attr), "0-63");
	TEST_ASSERT_EQUAL(attr.config2, UINT64_MAX, "config2:0-63 = ~0");
	TEST_ASSERT_SUCCESS(pmu_format_apply("config1:32-63", 0xdeadbeef, &attr), "32-63");
	TEST_ASSERT_EQUAL(attr.config1, UINT64_C(0xdeadbeef00000000), "config1:32-63");
	TEST_ASSERT_EQUAL(attr.config, UINT64_C(0x12ab), "config untouched");
	return TEST_SUCCESS;
}

static int
test_format_multi_range(void)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	/* AMD: low 8 bits into 0-7, the next 4 into 32-35. */
	TEST_ASSERT_SUCCESS(pmu_format_apply("config:0-7,32-35", 0x1c2, &attr), "AMD");
	TEST_ASSERT_EQUAL(attr.config, UINT64_C(0x1000000c2), "0x1c2 split: 0x%" PRIx64,
		(uint64_t)attr.config);
	TEST_ASSERT_SUCCESS(pmu_format_apply("config:0-7,32-35\n", 0xfff, &attr), "AMD");
	TEST_ASSERT_EQUAL(attr.config, UINT64_C(0xf000000ff), "0xfff split");

	/* Three ranges, a single bit among them. */
	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT_SUCCESS(pmu_format_apply("config1:0-1,4,8-9", 0x1f, &attr), "3 ranges");
	TEST_ASSERT_EQUAL(attr.config1, UINT64_C(0x313), "0x1f in 0-1,4,8-9: 0x%" PRIx64,
		(uint64_t)attr.config1);
	/* Ranges in any order: filled in the order written, 0x2 then 0x1c. */
	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT_SUCCESS(pmu_format_apply("config:32-35,0-7", 0x1c2, &attr), "reversed");
	TEST_ASSERT_EQUAL(attr.config, UINT64_C(0x20000001c), "reversed ranges: 0x%" PRIx64,
		(uint64_t)attr.config);
	return TEST_SUCCESS;
}

static int
test_format_erange(void)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.config = 0x55;
	TEST_ASSERT_EQUAL(pmu_format_apply("config:5", 2, &attr), -ERANGE, "2 in one bit");
	TEST_ASSERT_EQUAL(pmu_format_apply("config:0-7", 0x100, &attr), -ERANGE, "9 bits");
	TEST_ASSERT_EQUAL(pmu_format_apply("config:0-7,32-35", 0x1000, &attr), -ERANGE,
		"13 bits in 12");
	TEST_ASSERT_EQUAL(pmu_format_apply("config1:0-62", UINT64_C(1) << 63, &attr),
		-ERANGE, "64 bits in 63");
	TEST_ASSERT_EQUAL(attr.config, UINT64_C(0x55), "attr changed by a failed apply");
	TEST_ASSERT_EQUAL(attr.config1, 0, "attr changed by a failed apply");
	TEST_ASSERT_SUCCESS(pmu_format_apply("config:0-7,32-35", 0xfff, &attr), "12 bits");
	return TEST_SUCCESS;
}

static int
test_format_malformed(void)
{
	static const char *const bad[] = {
		"", "config", "config:", "conf:0-7", "config3:0", "CONFIG:0", "config :0",
		"config:64", "config:0-64", "config:8-7", "config:0-7x", "config:0-7,",
		"config:,0", "config:0-7 ", "config:-1", "config:1-", "config:0--7",
		"config:0-7,4-9", "config:3,3", "config:0-7\nx", "config:0x1",
		"config:99999999999999999999", "config1:0-7;8", " config:0",
	};
	const uint64_t pattern = UINT64_C(0x5a5a5a5a5a5a5a5a);
	struct perf_event_attr attr;
	unsigned int i;
	int ret;

	/* A value and fields that any accepted spec would change. */
	memset(&attr, 0, sizeof(attr));
	attr.config = pattern;
	attr.config1 = pattern;
	attr.config2 = pattern;
	for (i = 0; i < RTE_DIM(bad); i++) {
		ret = pmu_format_apply(bad[i], 0x3, &attr);
		TEST_ASSERT_EQUAL(ret, -EINVAL, "spec \"%s\": %d", bad[i], ret);
		TEST_ASSERT(attr.config == pattern && attr.config1 == pattern &&
			attr.config2 == pattern, "spec \"%s\" changed attr", bad[i]);
	}
	TEST_ASSERT_EQUAL(pmu_format_apply(NULL, 0, &attr), -EINVAL, "NULL spec");
	TEST_ASSERT_EQUAL(pmu_format_apply("config:0", 0, NULL), -EINVAL, "NULL attr");
	return TEST_SUCCESS;
}

static int
test_format_override(void)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.config = 0xffff;
	/* Only the term's own bits are replaced. */
	TEST_ASSERT_SUCCESS(pmu_format_apply("config:8-15", 0x01, &attr), "umask");
	TEST_ASSERT_EQUAL(attr.config, UINT64_C(0x01ff), "umask over 0xffff: 0x%" PRIx64,
		(uint64_t)attr.config);
	TEST_ASSERT_SUCCESS(pmu_format_apply("config:0-7", 0, &attr), "event");
	TEST_ASSERT_EQUAL(attr.config, UINT64_C(0x0100), "event cleared");

	attr.config = UINT64_MAX;
	TEST_ASSERT_SUCCESS(pmu_format_apply("config:0-7,32-35", 0, &attr), "AMD clear");
	TEST_ASSERT_EQUAL(attr.config, UINT64_C(0xfffffff0ffffff00), "AMD field cleared");
	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_format_testsuite = {
	.suite_name = "pmu format specifications",
	.unit_test_cases = {
		TEST_CASE(test_format_single_bit),
		TEST_CASE(test_format_ranges),
		TEST_CASE(test_format_multi_range),
		TEST_CASE(test_format_erange),
		TEST_CASE(test_format_malformed),
		TEST_CASE(test_format_override),
		TEST_CASES_END()
	}
};

static int
test_pmu_format(void)
{
	return unit_test_suite_runner(&pmu_format_testsuite);
}

REGISTER_FAST_TEST(pmu_format_autotest, true, true, test_pmu_format);
