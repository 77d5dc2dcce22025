/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_pfm_autotest: vendor event names through libpfm4, checked against
 * the event and unit mask numbers the CPU vendors publish (Intel SDM
 * volume 3B, Skylake events; Arm ARM, PMUv3 common events), not against
 * libpfm4's own output. LIBPFM_FORCE_PMU makes libpfm4 use those tables on
 * any host; the sysfs side is a fixture tree. Those cases skip, with the
 * reason, without libpfm4 or without the tables; a build without libpfm4
 * checks that vendor names are then unknown.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "pmu_event.h"
#include "test.h"
#include "test_pmu_fixture.h"

#define CHECK(expr) do { \
	if ((expr) != TEST_SUCCESS) \
		return TEST_FAILED; \
} while (0)

/* Make libpfm4 use the tables of @p pmu_name; 0 when it has them. */
static int
force_pmu(const char *pmu_name, const char *probe, const char *core_pmu)
{
	struct pmu_event_desc d;

	setenv("LIBPFM_FORCE_PMU", pmu_name, 1);
	pmu_pfm_reset();
	if (!pmu_pfm_available()) {
		printf("libpfm4 did not initialise with LIBPFM_FORCE_PMU=%s\n", pmu_name);
		return -1;
	}
	if (pmu_event_encode(probe, core_pmu, &d) != 0) {
		printf("this libpfm4 has no %s tables (%s unknown)\n", pmu_name, probe);
		return -1;
	}
	return 0;
}

/* Skip a case that needs libpfm4, saying why. */
#define NEED_PFM() do { \
	if (!pmu_pfm_available()) { \
		printf("SKIP: built without libpfm4 (apt-get install libpfm4-dev, then " \
			"reconfigure): vendor event names are not resolved\n"); \
		return TEST_SKIPPED; \
	} \
} while (0)

static void
pfm_teardown(void)
{
	unsetenv("LIBPFM_FORCE_PMU");
	pmu_pfm_reset();
	pmu_fixture_teardown();
}

static int
test_skylake(void)
{
	/* Intel SDM vol. 3B, Skylake: event select in bits 0-7, umask 8-15. */
	static const struct {
		const char *name;
		uint64_t config;
	} names[] = {
		{ "INST_RETIRED.ANY_P", 0x00c0 },
		{ "CPU_CLK_UNHALTED.THREAD_P", 0x003c },
		{ "BR_INST_RETIRED.ALL_BRANCHES", 0x00c4 },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", 0x00c5 },
		{ "L2_RQSTS.MISS", 0x3f24 },
		{ "LONGEST_LAT_CACHE.MISS", 0x412e },
		{ "LONGEST_LAT_CACHE.REFERENCE", 0x4f2e },
		{ "MEM_LOAD_RETIRED.L1_MISS", 0x08d1 },
		/* libpfm4's own spelling. */
		{ "INST_RETIRED:ANY_P", 0x00c0 },
		{ "skl::L2_RQSTS:MISS", 0x3f24 },
	};
	struct perf_event_attr attr;
	unsigned int i;

	NEED_PFM();
	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	if (force_pmu("skl", "INST_RETIRED.ANY_P", "cpu") != 0)
		return TEST_SKIPPED;

	for (i = 0; i < RTE_DIM(names); i++) {
		pmu_want_attr(&attr, 4, names[i].config, "u");
		CHECK(pmu_check_attr(names[i].name, "cpu", &attr, "cpu"));
	}
	pmu_want_attr(&attr, 4, 0x3f24, "k");
	CHECK(pmu_check_attr("L2_RQSTS.MISS:k", "cpu", &attr, "cpu"));

	/* perf's names stay perf's; sysfs events come before libpfm4's. */
	pmu_want_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "u");
	CHECK(pmu_check_attr("cycles", "cpu", &attr, ""));
	CHECK(pmu_check_fail("Cycles", "cpu", -ENOENT));

	/* The type is the core PMU's, not libpfm4's PERF_TYPE_RAW (4). */
	TEST_ASSERT_SUCCESS(use_root("hybrid"), "root");
	pmu_want_attr(&attr, 10, 0x00c0, "u");
	CHECK(pmu_check_attr("INST_RETIRED.ANY_P", "cpu_atom", &attr, "cpu_atom"));
	TEST_ASSERT_SUCCESS(use_root("x86"), "root");

	/* A known event with a unit mask it has not; unknown names. */
	CHECK(pmu_check_fail("L2_RQSTS.BOGUS", "cpu", -EINVAL));
	CHECK(pmu_check_fail("NO_SUCH_EVENT.ANY", "cpu", -ENOENT));
	/* Known, but no core PMU to count it with. */
	CHECK(pmu_check_fail("INST_RETIRED.ANY_P", "", -EOPNOTSUPP));
	return TEST_SUCCESS;
}

static int
test_arm_common_events(void)
{
	/* Arm ARM, PMUv3 common event numbers. */
	/* Arm ARM, PMUv3 common event numbers. libpfm4's core tables spell
	 * some of them their own way (the A57's L1D_CACHE_ACCESS): the second
	 * name is tried when a table lacks the first.
	 */
	static const struct {
		const char *name;
		const char *alt;
		uint64_t config;
	} names[] = {
		{ "L1D_CACHE_REFILL", NULL, 0x03 },
		{ "L1D_CACHE", "L1D_CACHE_ACCESS", 0x04 },
		{ "INST_RETIRED", NULL, 0x08 },
		{ "BR_MIS_PRED", "BRANCH_MISPRED", 0x10 },
		{ "CPU_CYCLES", NULL, 0x11 },
	};
	struct perf_event_attr attr;
	struct pmu_event_desc d;
	const char *name;
	unsigned int i;

	/* Cores whose libpfm4 tables hold the common events; which of them
	 * a libpfm4 build has varies (Debian 12's arm64 one lacks the A72).
	 */
	static const char * const arm_pmus[] = { "arm_ac72", "arm_ac57", "arm_ac53", "arm_n1" };
	unsigned int p;

	NEED_PFM();
	TEST_ASSERT_SUCCESS(use_root("arm64"), "root");
	for (p = 0; p < RTE_DIM(arm_pmus); p++)
		if (force_pmu(arm_pmus[p], "L1D_CACHE_REFILL", "armv8_pmuv3_0") == 0)
			break;
	if (p == RTE_DIM(arm_pmus)) {
		printf("SKIP: this libpfm4 has no Arm core tables (amd64 builds have none; "
			"the arm64 guest checks them)\n");
		return TEST_SKIPPED;
	}
	printf("Arm common events checked through libpfm4's %s tables\n", arm_pmus[p]);

	for (i = 0; i < RTE_DIM(names); i++) {
		name = names[i].name;
		if (names[i].alt != NULL && pmu_event_encode(name, "armv8_pmuv3_0", &d) == -ENOENT)
			name = names[i].alt;
		pmu_want_attr(&attr, 8, names[i].config, "u");
		CHECK(pmu_check_attr(name, "armv8_pmuv3_0", &attr, "armv8_pmuv3_0"));
	}
	return TEST_SUCCESS;
}

/* Without libpfm4 a vendor name is unknown, and nothing else changes. */
static int
test_without_libpfm(void)
{
	struct perf_event_attr attr;

	if (pmu_pfm_available()) {
		printf("SKIP: built with libpfm4: the build without it is tested by "
			"devtools/ci-events.sh\n");
		return TEST_SKIPPED;
	}
	TEST_ASSERT_EQUAL(pmu_pfm_foreach(10, NULL, NULL), 0, "vendor names listed");
	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	CHECK(pmu_check_fail("INST_RETIRED.ANY_P", "cpu", -ENOENT));
	CHECK(pmu_check_fail("skl::L2_RQSTS:MISS", "cpu", -ENOENT));
	pmu_want_attr(&attr, 4, 0x1cd, "u");
	attr.config1 = 3;
	CHECK(pmu_check_attr("mem-loads", "cpu", &attr, "cpu"));
	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_pfm_testsuite = {
	.suite_name = "pmu vendor names (libpfm4)",
	.setup = pmu_fixture_setup,
	.teardown = pfm_teardown,
	.unit_test_cases = {
		TEST_CASE(test_skylake),
		TEST_CASE(test_arm_common_events),
		TEST_CASE(test_without_libpfm),
		TEST_CASES_END()
	}
};

static int
test_pmu_pfm(void)
{
	return unit_test_suite_runner(&pmu_pfm_testsuite);
}

REGISTER_FAST_TEST(pmu_pfm_autotest, true, true, test_pmu_pfm);
