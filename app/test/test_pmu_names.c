/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_names_autotest: the names perf accepts, encoded on the fixture sysfs
 * trees: modifiers, cache events, raw events, every software event, and
 * the error code of each kind of bad name. No PMU hardware needed.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>

#include "pmu_private.h"
#include "test.h"
#include "test_pmu_fixture.h"

#define CHECK(expr) do { \
	if ((expr) != TEST_SUCCESS) \
		return TEST_FAILED; \
} while (0)

/* Encode @p name on the x86 fixture (core PMU "cpu", type 4). */
static int
want(const char *name, uint32_t type, uint64_t config, const char *levels,
	const char *pmu_name)
{
	struct perf_event_attr attr;

	pmu_want_attr(&attr, type, config, levels);
	return pmu_check_attr(name, "cpu", &attr, pmu_name);
}

static int
test_modifiers(void)
{
	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	/* Defaults: hardware user only, software with the kernel. */
	CHECK(want("instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "u", ""));
	CHECK(want("cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "ukh", ""));
	CHECK(want("msr/tsc/", 9, 0, "u", "msr"));

	CHECK(want("cpu-clock:u", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "u", ""));
	CHECK(want("task-clock:k", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "k", ""));
	CHECK(want("task-clock:uk", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "uk", ""));
	CHECK(want("instructions:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "u", ""));
	CHECK(want("instructions:k", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "k", ""));
	CHECK(want("cycles:ku", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "uk", ""));
	CHECK(want("cycles:h", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "h", ""));
	CHECK(want("cycles:ukh", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "ukh", ""));
	/* perf's pmu/.../ form: after the last '/', with or without ':'. */
	CHECK(want("msr/tsc/u", 9, 0, "u", "msr"));
	CHECK(want("msr/tsc/k", 9, 0, "k", "msr"));
	CHECK(want("msr/tsc/:uk", 9, 0, "uk", "msr"));
	CHECK(want("cpu/event=0x3c,umask=1/k", 4, 0x13c, "k", "cpu"));
	CHECK(want("cpu/instructions/uk", 4, 0xc0, "uk", "cpu"));

	/* Modifiers perf has but this library does not, and nonsense. */
	CHECK(pmu_check_fail("cycles:p", "cpu", -EINVAL));
	CHECK(pmu_check_fail("cycles:upp", "cpu", -EINVAL));
	CHECK(pmu_check_fail("cycles:G", "cpu", -EINVAL));
	CHECK(pmu_check_fail("cycles:x", "cpu", -EINVAL));
	CHECK(pmu_check_fail("cycles:uu", "cpu", -EINVAL));
	CHECK(pmu_check_fail("cycles:", "cpu", -EINVAL));
	CHECK(pmu_check_fail(":u", "cpu", -EINVAL));
	CHECK(pmu_check_fail("msr/tsc/x", "cpu", -EINVAL));
	CHECK(pmu_check_fail("msr/tsc/u/", "cpu", -EINVAL));
	/* A software event never runs in a hypervisor. */
	CHECK(pmu_check_fail("task-clock:h", "cpu", -EINVAL));
	/* Unknown name: modifiers do not make it known. */
	CHECK(pmu_check_fail("no-such-event:u", "cpu", -ENOENT));
	return TEST_SUCCESS;
}

static int
test_raw(void)
{
	struct perf_event_attr attr;

	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	CHECK(want("r3c", 4, 0x3c, "u", "cpu"));
	CHECK(want("r003c", 4, 0x3c, "u", "cpu"));
	CHECK(want("r01C0:k", 4, 0x1c0, "k", "cpu"));
	CHECK(want("rffffffffffffffff", 4, UINT64_MAX, "u", "cpu"));
	/* 17 digits, no digit, not hexadecimal: not raw, and not an event. */
	CHECK(pmu_check_fail("r10000000000000000", "cpu", -ENOENT));
	CHECK(pmu_check_fail("r", "cpu", -ENOENT));
	CHECK(pmu_check_fail("r3g", "cpu", -ENOENT));
	CHECK(pmu_check_fail("R3c", "cpu", -ENOENT));
	/* Raw needs a core PMU; its type is the core PMU's. */
	CHECK(pmu_check_fail("r3c", "", -EOPNOTSUPP));
	TEST_ASSERT_SUCCESS(use_root("arm64"), "root");
	pmu_want_attr(&attr, 8, 0x11, "u");
	CHECK(pmu_check_attr("r11", "armv8_pmuv3_0", &attr, "armv8_pmuv3_0"));
	return TEST_SUCCESS;
}

static int
test_cache(void)
{
	/* config = cache | op << 8 | result << 16 (perf_event.h). */
	static const struct {
		const char *name;
		uint64_t config;
	} names[] = {
		{ "L1-dcache-loads", 0x00000 },
		{ "L1-dcache-load-misses", 0x10000 },
		{ "L1-dcache-stores", 0x00100 },
		{ "L1-dcache-store-misses", 0x10100 },
		{ "L1-dcache-prefetches", 0x00200 },
		{ "L1-dcache-prefetch-misses", 0x10200 },
		{ "L1-icache-load-misses", 0x10001 },
		{ "L1-icache-loads", 0x00001 },
		{ "LLC-loads", 0x00002 },
		{ "LLC-load-misses", 0x10002 },
		{ "LLC-stores", 0x00102 },
		{ "LLC-store-misses", 0x10102 },
		{ "LLC-prefetches", 0x00202 },
		{ "dTLB-loads", 0x00003 },
		{ "dTLB-load-misses", 0x10003 },
		{ "dTLB-store-misses", 0x10103 },
		{ "iTLB-loads", 0x00004 },
		{ "iTLB-load-misses", 0x10004 },
		{ "branch-loads", 0x00005 },
		{ "branch-load-misses", 0x10005 },
		{ "node-loads", 0x00006 },
		{ "node-load-misses", 0x10006 },
		{ "node-stores", 0x00106 },
		{ "node-prefetch-misses", 0x10206 },
		/* Other spellings, defaults, any case. */
		{ "l1d-load-misses", 0x10000 },
		{ "L1-data-write-access", 0x00100 },
		{ "l1-d-read-miss", 0x10000 },
		{ "L1-instruction-speculative-load", 0x00201 },
		{ "l1i-prefetches-ops", 0x00201 },
		{ "LLC", 0x00002 },
		{ "L2-misses", 0x10002 },
		{ "llc-Reference", 0x00002 },
		{ "LLC-misses-loads", 0x10002 },
		{ "d-tlb-speculative-read-miss", 0x10203 },
		{ "Data-TLB-store-refs", 0x00103 },
		{ "i-tlb-miss", 0x10004 },
		{ "Instruction-TLB-loads", 0x00004 },
		{ "bpu-refs", 0x00005 },
		{ "btb-misses", 0x10005 },
		{ "bpc-read-access", 0x00005 },
		{ "node-speculative-load-misses", 0x10206 },
	};
	unsigned int i;

	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	for (i = 0; i < RTE_DIM(names); i++)
		CHECK(want(names[i].name, PERF_TYPE_HW_CACHE, names[i].config, "u", ""));
	CHECK(want("LLC-load-misses:k", PERF_TYPE_HW_CACHE, 0x10002, "k", ""));
	/* "branches" alone is the generic hardware event. */
	CHECK(want("branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "u", ""));

	/* Operations the cache has not. */
	CHECK(pmu_check_fail("L1-icache-stores", "cpu", -EINVAL));
	CHECK(pmu_check_fail("iTLB-store-misses", "cpu", -EINVAL));
	CHECK(pmu_check_fail("branch-prefetches", "cpu", -EINVAL));
	/* Not cache names. */
	CHECK(pmu_check_fail("L3-loads", "cpu", -ENOENT));
	CHECK(pmu_check_fail("LLC-loads-loads", "cpu", -ENOENT));
	CHECK(pmu_check_fail("LLC-misses-misses", "cpu", -ENOENT));
	CHECK(pmu_check_fail("LLC-load-misses-", "cpu", -ENOENT));
	CHECK(pmu_check_fail("LLC--loads", "cpu", -ENOENT));
	CHECK(pmu_check_fail("LLCloads", "cpu", -ENOENT));
	/* Known, but not countable without a core PMU. */
	CHECK(pmu_check_fail("LLC-loads", "", -EOPNOTSUPP));
	return TEST_SUCCESS;
}

static int
test_software(void)
{
	static const struct {
		const char *name;
		uint64_t config;
	} names[] = {
		{ "alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS },
		{ "emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS },
		{ "dummy", PERF_COUNT_SW_DUMMY },
		{ "cgroup-switches", PERF_COUNT_SW_CGROUP_SWITCHES },
		{ "minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN },
		{ "cs", PERF_COUNT_SW_CONTEXT_SWITCHES },
	};
	struct perf_event_attr attr;
	unsigned int i;

	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	for (i = 0; i < RTE_DIM(names); i++) {
		pmu_want_attr(&attr, PERF_TYPE_SOFTWARE, names[i].config, "ukh");
		CHECK(pmu_check_attr(names[i].name, "cpu", &attr, ""));
		/* No core PMU needed. */
		CHECK(pmu_check_attr(names[i].name, "", &attr, ""));
	}
	CHECK(want("idle-cycles-frontend", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, "u", ""));
	/* Known to perf, counts nothing. */
	CHECK(pmu_check_fail("bpf-output", "cpu", -EOPNOTSUPP));
	return TEST_SUCCESS;
}

static int
test_error_codes(void)
{
	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	/* Known, not countable here. */
	CHECK(pmu_check_fail("cycles", "", -EOPNOTSUPP));
	CHECK(pmu_check_fail("instructions:u", "", -EOPNOTSUPP));
	/* Unknown name or PMU. */
	CHECK(pmu_check_fail("no-such-event", "cpu", -ENOENT));
	CHECK(pmu_check_fail("nopmu/event=1/", "cpu", -ENOENT));
	/* Malformed, a term the PMU lacks, a value wider than its field. */
	CHECK(pmu_check_fail("cpu/event=1,,/", "cpu", -EINVAL));
	CHECK(pmu_check_fail("msr/umask=1/", "cpu", -EINVAL));
	CHECK(pmu_check_fail("msr/nosuch/", "cpu", -ENOENT));
	CHECK(pmu_check_fail("cpu/event=0x100/", "cpu", -EINVAL));
	CHECK(pmu_check_fail("cpu/umask=0x1ff/u", "cpu", -EINVAL));
	CHECK(pmu_check_fail("cpu/config=0x10000000000000000/", "cpu", -EINVAL));
	return TEST_SUCCESS;
}

/* Bad bytes in a name reach the log escaped: no line is split by a
 * newline of the name, no byte outside printable ASCII is printed, a long
 * name is cut, and each refusal still logs its line.
 */
static int
test_bad_bytes_logged(void)
{
	static const char *const names[] = {
		"task-clock\n", "\xff\xfe", "cycles:u\x01", "cycles:\x01",
		"cpu/event=0x3c,um\nask=1/", "cpu/event=0x3c,umask=\xff/", "no\npmu/event=1/",
		"msr/ts\xff" "c/", "cpu/event=1/\xff", "cpu/event=1,\x1b[31m/",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
	};
	struct pmu_event_desc d;
	unsigned int i;
	size_t loglen, j, line;
	char *logbuf;
	FILE *log;
	int ret;

	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	for (i = 0; i < RTE_DIM(names); i++) {
		logbuf = NULL;
		loglen = 0;
		log = open_memstream(&logbuf, &loglen);
		TEST_ASSERT_NOT_NULL(log, "open_memstream");
		rte_openlog_stream(log);
		ret = pmu_event_encode(names[i], "cpu", &d);
		rte_openlog_stream(NULL);
		fclose(log);
		printf("name %u: %d, log: %s", i, ret, logbuf != NULL ? logbuf : "(none)\n");

		ret = ret < 0 && loglen > 0 ? TEST_SUCCESS : TEST_FAILED;
		for (j = 0, line = 0; ret == TEST_SUCCESS && j < loglen; j++, line++) {
			unsigned char c = (unsigned char)logbuf[j];

			if (line == 0 && strncmp(&logbuf[j], "PMU: ", 5) != 0)
				ret = TEST_FAILED;
			else if (c == '\n')
				line = (size_t)-1;
			else if (c < 0x20 || c >= 0x7f || line > 400)
				ret = TEST_FAILED;
		}
		if (i == 0 && strstr(logbuf, "task-clock\\n") == NULL)
			ret = TEST_FAILED;
		free(logbuf);
		TEST_ASSERT_SUCCESS(ret, "name %u refused with no log line, or logged raw or "
			"uncut (see the log above)", i);
	}

	return TEST_SUCCESS;
}

/* A list's first name as perf stat -e reads it: commas between a PMU's
 * slashes are its terms'.
 */
static int
test_list_names(void)
{
	static const struct {
		const char *list;
		size_t len;
	} lists[] = {
		{ "cycles,instructions", 6 },
		{ "cpu/event=0x3c,umask=0x0/,instructions", 25 },
		{ "cpu/event=0x3c,umask=0x0/u,cycles", 26 },
		{ "msr/tsc/,cpu/event=0x3c,umask=0x0/", 8 },
		{ "cycles:u", 8 },
		{ ",cycles", 0 },
		{ "", 0 },
		{ "cpu/event=0x3c,umask=0x0", 24 }, /* no closing slash: the rest */
	};
	unsigned int i;

	TEST_ASSERT_EQUAL(rte_pmu_event_name_len(NULL), 0, "NULL: 0");
	for (i = 0; i < RTE_DIM(lists); i++)
		TEST_ASSERT_EQUAL(rte_pmu_event_name_len(lists[i].list), lists[i].len,
			"'%s': %zu, not %zu", lists[i].list,
			rte_pmu_event_name_len(lists[i].list), lists[i].len);
	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_names_testsuite = {
	.suite_name = "pmu names as perf spells them",
	.setup = pmu_fixture_setup,
	.teardown = pmu_fixture_teardown,
	.unit_test_cases = {
		TEST_CASE(test_modifiers),
		TEST_CASE(test_raw),
		TEST_CASE(test_cache),
		TEST_CASE(test_software),
		TEST_CASE(test_error_codes),
		TEST_CASE(test_bad_bytes_logged),
		TEST_CASE(test_list_names),
		TEST_CASES_END()
	}
};

static int
test_pmu_names(void)
{
	return unit_test_suite_runner(&pmu_names_testsuite);
}

REGISTER_FAST_TEST(pmu_names_autotest, true, true, test_pmu_names);
