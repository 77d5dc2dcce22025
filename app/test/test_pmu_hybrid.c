/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_hybrid_autotest: machines with several core types, on fixture sysfs
 * trees: an Alder-Lake-like hybrid x86 (cpu_core CPUs 0-15, cpu_atom CPUs
 * 16-23) and a Cortex-A53 + A72 arm64 (CPUs 0-3 and 4-5). For a given CPU
 * set (an lcore's), the core PMU chosen and the exact perf_event_attr of
 * each event. No hybrid hardware needed.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "pmu_private.h"
#include "test.h"
#include "test_pmu_fixture.h"

#define CHECK(expr) do { \
	if ((expr) != TEST_SUCCESS) \
		return TEST_FAILED; \
} while (0)

#define EXT(type) ((uint64_t)(type) << PERF_PMU_TYPE_SHIFT)

/* The core PMU for CPU list @p cpus is @p expected (NULL: fails with @p err). */
static int
check_chooser(const char *cpus, const char *expected, int err)
{
	char name[PMU_NAME_MAX] = "";
	rte_cpuset_t set;
	int ret;

	TEST_ASSERT_SUCCESS(pmu_cpulist_parse(cpus, &set), "cpu list %s", cpus);
	ret = pmu_core_pmu_for_cpuset(&set, name);
	if (expected == NULL) {
		TEST_ASSERT_EQUAL(ret, err, "CPUs %s: %d (%s), expected %d", cpus, ret, name,
			err);
		return TEST_SUCCESS;
	}
	TEST_ASSERT_EQUAL(ret, 0, "CPUs %s: %d", cpus, ret);
	TEST_ASSERT(strcmp(name, expected) == 0, "CPUs %s: core PMU %s, expected %s", cpus,
		name, expected);
	return TEST_SUCCESS;
}

/* An lcore allowed on @p cpus encodes @p name as @p type / @p config. */
static int
check_lcore(const char *cpus, const char *name, uint32_t type, uint64_t config,
	const char *levels, const char *pmu_name)
{
	struct perf_event_attr attr;
	char core[PMU_NAME_MAX];
	rte_cpuset_t set;

	TEST_ASSERT_SUCCESS(pmu_cpulist_parse(cpus, &set), "cpu list %s", cpus);
	TEST_ASSERT_SUCCESS(pmu_core_pmu_for_cpuset(&set, core), "chooser for %s", cpus);
	pmu_want_attr(&attr, type, config, levels);
	return pmu_check_attr(name, core, &attr, pmu_name);
}

static int
test_cpulist(void)
{
	static const char *const bad[] = {
		"", "3-1", "a", "1,", "1-", "-1", "1,,2", "0-3 ", "99999", "1-99999", "0x1",
	};
	rte_cpuset_t set;
	unsigned int i;

	TEST_ASSERT_SUCCESS(pmu_cpulist_parse("0-3,8,10-11", &set), "list");
	TEST_ASSERT_EQUAL(CPU_COUNT(&set), 7, "count %d", CPU_COUNT(&set));
	TEST_ASSERT(CPU_ISSET(3, &set) && CPU_ISSET(8, &set) && CPU_ISSET(11, &set) &&
		!CPU_ISSET(4, &set) && !CPU_ISSET(9, &set), "members");
	TEST_ASSERT_SUCCESS(pmu_cpulist_parse("5", &set), "one CPU");
	TEST_ASSERT(CPU_COUNT(&set) == 1 && CPU_ISSET(5, &set), "one CPU");
	for (i = 0; i < RTE_DIM(bad); i++)
		TEST_ASSERT_EQUAL(pmu_cpulist_parse(bad[i], &set), -EINVAL, "\"%s\"", bad[i]);
	return TEST_SUCCESS;
}

static int
test_chooser(void)
{
	char names[PMU_CORE_MAX][PMU_NAME_MAX];
	char name[PMU_NAME_MAX];
	rte_cpuset_t set;

	TEST_ASSERT_SUCCESS(use_root("hybrid"), "root");
	TEST_ASSERT_EQUAL(pmu_core_pmus(names), 2, "hybrid core PMUs");
	TEST_ASSERT(strcmp(names[0], "cpu_atom") == 0 && strcmp(names[1], "cpu_core") == 0,
		"%s %s", names[0], names[1]);
	CHECK(check_chooser("0", "cpu_core", 0));
	CHECK(check_chooser("0-15", "cpu_core", 0));
	CHECK(check_chooser("16", "cpu_atom", 0));
	CHECK(check_chooser("17-23", "cpu_atom", 0));
	CHECK(check_chooser("15-16", NULL, -EXDEV));
	CHECK(check_chooser("0,23", NULL, -EXDEV));
	CHECK(check_chooser("24-31", NULL, -ENODEV));
	/* CPUs of no core PMU beside those of one: that one. */
	CHECK(check_chooser("20,30", "cpu_atom", 0));
	CPU_ZERO(&set);
	TEST_ASSERT_EQUAL(pmu_core_pmu_for_cpuset(&set, name), -EINVAL, "empty set");
	TEST_ASSERT_EQUAL(pmu_core_pmu_for_cpuset(NULL, name), -EINVAL, "NULL set");

	TEST_ASSERT_SUCCESS(use_root("biglittle"), "root");
	TEST_ASSERT_EQUAL(pmu_core_pmus(names), 2, "big.LITTLE core PMUs");
	CHECK(check_chooser("0-3", "armv8_cortex_a53", 0));
	CHECK(check_chooser("4", "armv8_cortex_a72", 0));
	CHECK(check_chooser("4-5", "armv8_cortex_a72", 0));
	CHECK(check_chooser("3-4", NULL, -EXDEV));

	/* One core PMU: it, whatever the CPUs. */
	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	TEST_ASSERT_EQUAL(pmu_core_pmus(names), 1, "x86 core PMUs");
	CHECK(check_chooser("0", "cpu", 0));
	CHECK(check_chooser("0-127", "cpu", 0));
	TEST_ASSERT_SUCCESS(use_root("arm64"), "root");
	CHECK(check_chooser("1", "armv8_pmuv3_0", 0));
	TEST_ASSERT_SUCCESS(use_root("amd"), "root");
	CHECK(check_chooser("1", "cpu", 0));
	return TEST_SUCCESS;
}

static int
test_hybrid_x86(void)
{
	TEST_ASSERT_SUCCESS(use_root("hybrid"), "root");
	/* A P-core lcore: generic events carry cpu_core's type (4). */
	CHECK(check_lcore("2", "cycles", PERF_TYPE_HARDWARE, EXT(4) | 0, "u", ""));
	CHECK(check_lcore("2-3", "instructions:k", PERF_TYPE_HARDWARE, EXT(4) | 1, "k", ""));
	CHECK(check_lcore("2", "cpu-cycles", PERF_TYPE_HARDWARE, EXT(4) | 0, "u", ""));
	CHECK(check_lcore("2", "L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
		EXT(4) | 0x10000, "u", ""));
	CHECK(check_lcore("2", "r3c", 4, 0x3c, "u", "cpu_core"));
	CHECK(check_lcore("2", "slots", 4, 0x400, "u", "cpu_core"));
	CHECK(check_lcore("2", "cpu_core/instructions/", 4, 0xc0, "u", "cpu_core"));
	CHECK(check_lcore("2", "task-clock", PERF_TYPE_SOFTWARE, 1, "ukh", ""));

	/* An E-core lcore: cpu_atom's type (10). */
	CHECK(check_lcore("16", "cycles", PERF_TYPE_HARDWARE, EXT(10) | 0, "u", ""));
	CHECK(check_lcore("16-23", "instructions", PERF_TYPE_HARDWARE, EXT(10) | 1, "u", ""));
	CHECK(check_lcore("16", "LLC-loads:uk", PERF_TYPE_HW_CACHE, EXT(10) | 2, "uk", ""));
	CHECK(check_lcore("16", "r3c", 10, 0x3c, "u", "cpu_atom"));
	CHECK(check_lcore("16", "cpu_atom/cpu-cycles/", 10, 0x3c, "u", "cpu_atom"));
	CHECK(check_lcore("16", "msr/tsc/", 9, 0, "u", "msr"));
	/* An event of the P-cores only: known, not countable on an E-core. */
	CHECK(pmu_check_fail("slots", "cpu_atom", -EOPNOTSUPP));
	CHECK(pmu_check_fail("no-such-event", "cpu_atom", -ENOENT));
	return TEST_SUCCESS;
}

static int
test_biglittle(void)
{
	const char *a53 = "armv8_cortex_a53";
	const char *a72 = "armv8_cortex_a72";

	TEST_ASSERT_SUCCESS(use_root("biglittle"), "root");
	CHECK(check_lcore("0", "cycles", PERF_TYPE_HARDWARE, EXT(8) | 0, "u", ""));
	CHECK(check_lcore("0", "cpu_cycles", 8, 0x11, "u", a53));
	CHECK(check_lcore("0", "dTLB-load-misses", PERF_TYPE_HW_CACHE, EXT(8) | 0x10003, "u",
		""));
	CHECK(check_lcore("5", "cycles", PERF_TYPE_HARDWARE, EXT(9) | 0, "u", ""));
	CHECK(check_lcore("5", "inst_retired", 9, 0x8, "u", a72));
	CHECK(check_lcore("4", "l1d_cache_refill_rd", 9, 0x42, "u", a72));
	CHECK(check_lcore("4", "r42:k", 9, 0x42, "k", a72));
	/* An A72 event on an A53 lcore. */
	CHECK(pmu_check_fail("l1d_cache_refill_rd", a53, -EOPNOTSUPP));
	return TEST_SUCCESS;
}

/* The arm64 hook's answer to a kernel that refuses the extended type, as
 * the probe calls it after the open failed with @p err: @p name encoded for
 * @p core becomes the core PMU's own event @p config (0: left as it was),
 * with the levels @p levels and config1's rdpmc and long bits.
 */
static int
check_no_ext(const char *core, const char *name, int err, uint64_t config, const char *levels)
{
	struct perf_event_attr want;
	struct pmu_event_desc d;
	uint32_t type;
	bool rewritten;

	TEST_ASSERT_SUCCESS(pmu_event_encode(name, core, &d), "encode %s", name);
	pmu_arch_attr_fixup(core, &d);
	TEST_ASSERT(d.attr.config >> 32 != 0, "%s on %s: no extended type", name, core);
	rewritten = pmu_arch_attr_retry(core, &d, err);
	if (config == 0) {
		TEST_ASSERT(!rewritten && d.attr.config >> 32 != 0,
			"%s on %s (error %d): rewritten as type %u config 0x%" PRIx64, name, core,
			err, d.attr.type, (uint64_t)d.attr.config);
		return TEST_SUCCESS;
	}
	TEST_ASSERT(rewritten, "%s on %s (error %d): not rewritten", name, core, err);
	TEST_ASSERT_SUCCESS(pmu_sysfs_type(core, &type), "type");
	pmu_want_attr(&want, type, config, levels);
	want.config1 = 0x3;
	TEST_ASSERT(d.attr.type == want.type && d.attr.config == want.config &&
		d.attr.config1 == want.config1 && d.attr.config2 == 0 &&
		d.attr.exclude_user == want.exclude_user &&
		d.attr.exclude_kernel == want.exclude_kernel &&
		d.attr.exclude_hv == want.exclude_hv && strcmp(d.pmu, core) == 0,
		"%s on %s: type %u config 0x%" PRIx64 " config1 0x%" PRIx64 " excl %u%u%u pmu %s",
		name, core, d.attr.type, (uint64_t)d.attr.config, (uint64_t)d.attr.config1,
		d.attr.exclude_user, d.attr.exclude_kernel, d.attr.exclude_hv, d.pmu);
	return TEST_SUCCESS;
}

static int
test_biglittle_without_extended_type(void)
{
	const char *a53 = "armv8_cortex_a53";
	const char *a72 = "armv8_cortex_a72";

	if (strcmp(pmu_arch_name(), "arm64") != 0) {
		printf("SKIP: the arm64 backend's hook; this is %s\n", pmu_arch_name());
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(use_root("biglittle"), "root");
	CHECK(check_no_ext(a53, "cycles", -ENOENT, 0x11, "u"));
	CHECK(check_no_ext(a72, "instructions", -EINVAL, 0x08, "u"));
	CHECK(check_no_ext(a53, "cycles:k", -EOPNOTSUPP, 0x11, "k"));
	CHECK(check_no_ext(a53, "dTLB-load-misses", -ENOENT, 0x05, "u"));
	CHECK(check_no_ext(a53, "L1-dcache-load-misses", -ENOENT, 0x03, "u"));
	/* branches: pc_write_retired where listed, else br_retired (A72 here). */
	CHECK(check_no_ext(a72, "branches", -ENOENT, 0x21, "u"));
	/* Not rewritten: neither name listed; a store (the map has loads);
	 * an error that is not a refused type.
	 */
	CHECK(check_no_ext(a53, "branches", -ENOENT, 0, "u"));
	CHECK(check_no_ext(a53, "L1-dcache-store-misses", -ENOENT, 0, "u"));
	CHECK(check_no_ext(a53, "cycles", -EACCES, 0, "u"));
	return TEST_SUCCESS;
}

static int
test_single_core_type(void)
{
	/* One core PMU: no extended type, as before. */
	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	CHECK(check_lcore("0", "cycles", PERF_TYPE_HARDWARE, 0, "u", ""));
	CHECK(check_lcore("0", "LLC-loads", PERF_TYPE_HW_CACHE, 2, "u", ""));
	TEST_ASSERT_SUCCESS(use_root("arm64"), "root");
	CHECK(check_lcore("1", "instructions", PERF_TYPE_HARDWARE, 1, "u", ""));
	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_hybrid_testsuite = {
	.suite_name = "pmu hybrid and big.LITTLE",
	.setup = pmu_fixture_setup,
	.teardown = pmu_fixture_teardown,
	.unit_test_cases = {
		TEST_CASE(test_cpulist),
		TEST_CASE(test_chooser),
		TEST_CASE(test_hybrid_x86),
		TEST_CASE(test_biglittle),
		TEST_CASE(test_biglittle_without_extended_type),
		TEST_CASE(test_single_core_type),
		TEST_CASES_END()
	}
};

static int
test_pmu_hybrid(void)
{
	return unit_test_suite_runner(&pmu_hybrid_testsuite);
}

REGISTER_FAST_TEST(pmu_hybrid_autotest, true, true, test_pmu_hybrid);
