/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_sysfs_autotest: the sysfs layer on fixture trees: reading PMU files,
 * types, folders, the root setting, format terms applied from sysfs.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "pmu_private.h"
#include "test.h"
#include "test_pmu_fixture.h"

static int
test_sysfs_files(void)
{
	char buf[16];
	char root[PATH_MAX];
	uint32_t type = 0;
	char *long_path;
	int ret;

	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	snprintf(root, sizeof(root), "%s/x86", fixture_dir);
	TEST_ASSERT(strcmp(pmu_sysfs_root(), root) == 0, "root is %s", pmu_sysfs_root());

	ret = pmu_sysfs_read("cpu", "events/cpu-cycles", buf, sizeof(buf));
	TEST_ASSERT_EQUAL(ret, 10, "read length %d", ret);
	TEST_ASSERT(strcmp(buf, "event=0x3c") == 0, "newline not stripped: \"%s\"", buf);
	ret = pmu_sysfs_read("cpu", "events/empty", buf, sizeof(buf));
	TEST_ASSERT_EQUAL(ret, 0, "empty file: %d", ret);
	TEST_ASSERT_EQUAL(pmu_sysfs_read("cpu", "events/none", buf, sizeof(buf)), -ENOENT,
		"missing file");
	TEST_ASSERT_EQUAL(pmu_sysfs_read("cpu", "events/mem-loads", buf, 8), -EOVERFLOW,
		"file longer than the buffer");
	/* Exactly fits: "event=0x3c\n" is 11 bytes. */
	TEST_ASSERT_EQUAL(pmu_sysfs_read("cpu", "events/cpu-cycles", buf, 12), 10, "fit");
	TEST_ASSERT_EQUAL(pmu_sysfs_read("cpu", "type", buf, 0), -EINVAL, "len 0");

	TEST_ASSERT_SUCCESS(pmu_sysfs_type("cpu", &type), "cpu type");
	TEST_ASSERT_EQUAL(type, 4, "cpu type %u", type);
	TEST_ASSERT_SUCCESS(pmu_sysfs_type("msr", &type), "msr type");
	TEST_ASSERT_EQUAL(type, 9, "msr type %u", type);
	TEST_ASSERT_EQUAL(pmu_sysfs_type("notype", &type), -ENOENT, "no type file");
	TEST_ASSERT_EQUAL(pmu_sysfs_type("nope", &type), -ENOENT, "no PMU");

	TEST_ASSERT(pmu_sysfs_pmu_exists("cpu"), "cpu exists");
	TEST_ASSERT(pmu_sysfs_pmu_exists("msr"), "msr exists");
	TEST_ASSERT(!pmu_sysfs_pmu_exists("nope"), "nope exists");
	TEST_ASSERT(!pmu_sysfs_pmu_exists("."), ". is a PMU");
	TEST_ASSERT(!pmu_sysfs_pmu_exists(".."), ".. is a PMU");
	TEST_ASSERT(!pmu_sysfs_pmu_exists("cpu/format"), "cpu/format is a PMU");
	TEST_ASSERT(!pmu_sysfs_pmu_exists(""), "empty name is a PMU");
	/* A folder, reached through "..": the root itself. */
	TEST_ASSERT(!pmu_sysfs_pmu_exists("../x86"), "../x86 is a PMU");
	/* A file of the root is not a PMU folder. */
	TEST_ASSERT(!pmu_sysfs_pmu_exists("README"), "README is a PMU");

	/* Root handling: too long, NULL restores the default. */
	long_path = malloc(PATH_MAX + 16);
	TEST_ASSERT_NOT_NULL(long_path, "malloc");
	memset(long_path, 'a', PATH_MAX + 15);
	long_path[0] = '/';
	long_path[PATH_MAX + 15] = '\0';
	ret = __rte_pmu_sysfs_root_set(long_path);
	free(long_path);
	TEST_ASSERT_EQUAL(ret, -ENAMETOOLONG, "long root: %d", ret);
	TEST_ASSERT(strcmp(pmu_sysfs_root(), root) == 0, "root changed by a failed set");
	TEST_ASSERT_EQUAL(__rte_pmu_sysfs_root_set(""), -EINVAL, "empty root");
	TEST_ASSERT(strcmp(pmu_sysfs_root(), root) == 0, "root changed by a failed set");
	TEST_ASSERT_SUCCESS(__rte_pmu_sysfs_root_set(NULL), "NULL root");
	TEST_ASSERT(strcmp(pmu_sysfs_root(), PMU_SYSFS_ROOT_DEFAULT) == 0,
		"default root not restored: %s", pmu_sysfs_root());
	return TEST_SUCCESS;
}

static int
test_sysfs_format_apply(void)
{
	struct perf_event_attr attr;

	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT_SUCCESS(pmu_sysfs_format_apply("cpu", "umask", 0x3, &attr), "umask");
	TEST_ASSERT_EQUAL(attr.config, UINT64_C(0x300), "umask=3");
	TEST_ASSERT_SUCCESS(pmu_sysfs_format_apply("cpu", "ldlat", 0x80, &attr), "ldlat");
	TEST_ASSERT_EQUAL(attr.config1, UINT64_C(0x80), "ldlat in config1");
	TEST_ASSERT_EQUAL(pmu_sysfs_format_apply("cpu", "umask", 0x100, &attr), -ERANGE,
		"umask too wide");
	TEST_ASSERT_EQUAL(pmu_sysfs_format_apply("cpu", "nope", 1, &attr), -ENOENT, "term");
	TEST_ASSERT_EQUAL(pmu_sysfs_format_apply("nope", "event", 1, &attr), -ENOENT, "PMU");
	TEST_ASSERT_EQUAL(pmu_sysfs_format_apply("badfmt", "event", 1, &attr), -EINVAL,
		"malformed format file");
	TEST_ASSERT_EQUAL(pmu_sysfs_format_apply("cpu", "../type", 1, &attr), -EINVAL,
		"term with ..");
	TEST_ASSERT_EQUAL(pmu_sysfs_format_apply("..", "event", 1, &attr), -EINVAL,
		"PMU ..");
	TEST_ASSERT_EQUAL(attr.config, UINT64_C(0x300), "attr changed by failures");

	TEST_ASSERT_SUCCESS(use_root("amd"), "root");
	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT_SUCCESS(pmu_sysfs_format_apply("cpu", "event", 0x1c2, &attr), "AMD");
	TEST_ASSERT_EQUAL(attr.config, UINT64_C(0x1000000c2), "AMD event 0x1c2");
	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_sysfs_testsuite = {
	.suite_name = "pmu sysfs files",
	.setup = pmu_fixture_setup,
	.teardown = pmu_fixture_teardown,
	.unit_test_cases = {
		TEST_CASE(test_sysfs_files),
		TEST_CASE(test_sysfs_format_apply),
		TEST_CASES_END()
	}
};

static int
test_pmu_sysfs(void)
{
	return unit_test_suite_runner(&pmu_sysfs_testsuite);
}

REGISTER_FAST_TEST(pmu_sysfs_autotest, true, true, test_pmu_sysfs);
