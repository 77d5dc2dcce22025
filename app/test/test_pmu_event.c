/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_event_autotest: event names encoded into perf_event_attr, on the
 * fixture sysfs trees of test_pmu_fixture.c: nothing here needs PMU
 * hardware.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>

#include "pmu_private.h"
#include "test.h"
#include "test_pmu_fixture.h"

/* Encode @p name and compare every field a caller relies on. */
static int
check_encode(const char *name, const char *core_pmu, uint32_t type, uint64_t config,
	uint64_t config1, uint64_t config1_user, bool core, const char *pmu_name)
{
	struct pmu_event_desc d;
	int ret;

	memset(&d, 0xa5, sizeof(d));
	ret = pmu_event_encode(name, core_pmu, &d);
	TEST_ASSERT_EQUAL(ret, 0, "encode %s: %d", name, ret);
	TEST_ASSERT_EQUAL(d.attr.size, sizeof(struct perf_event_attr), "%s: attr.size", name);
	TEST_ASSERT_EQUAL(d.attr.type, type, "%s: type %u", name, d.attr.type);
	TEST_ASSERT_EQUAL(d.attr.config, config, "%s: config 0x%" PRIx64, name,
		(uint64_t)d.attr.config);
	TEST_ASSERT_EQUAL(d.attr.config1, config1, "%s: config1 0x%" PRIx64, name,
		(uint64_t)d.attr.config1);
	TEST_ASSERT_EQUAL(d.attr.config2, 0, "%s: config2 0x%" PRIx64, name,
		(uint64_t)d.attr.config2);
	TEST_ASSERT_EQUAL(d.config1_user, config1_user, "%s: config1_user 0x%" PRIx64, name,
		d.config1_user);
	TEST_ASSERT_EQUAL(d.core, core, "%s: core %d", name, d.core);
	TEST_ASSERT(strcmp(d.pmu, pmu_name) == 0, "%s: pmu \"%s\", expected \"%s\"", name,
		d.pmu, pmu_name);
	TEST_ASSERT_EQUAL(d.attr.sample_period, 0, "%s: sample_period", name);
	/* Default privilege levels: software events count the kernel too. */
	TEST_ASSERT_EQUAL(d.attr.exclude_kernel, type != PERF_TYPE_SOFTWARE,
		"%s: exclude_kernel %d", name, d.attr.exclude_kernel);
	TEST_ASSERT_EQUAL(d.attr.exclude_hv, type != PERF_TYPE_SOFTWARE,
		"%s: exclude_hv %d", name, d.attr.exclude_hv);
	TEST_ASSERT_EQUAL(d.attr.exclude_user, 0, "%s: exclude_user", name);
	return TEST_SUCCESS;
}

/* Encoding @p name fails with @p err and leaves an empty desc. */
static int
check_fail(const char *name, const char *core_pmu, int err)
{
	struct pmu_event_desc d;
	int ret;

	memset(&d, 0xa5, sizeof(d));
	ret = pmu_event_encode(name, core_pmu, &d);
	TEST_ASSERT_EQUAL(ret, err, "encode \"%s\": %d, expected %d",
		name != NULL ? name : "(null)", ret, err);
	TEST_ASSERT(d.attr.type == 0 && d.attr.config == 0 && d.attr.config1 == 0 &&
		d.pmu[0] == '\0' && d.config1_user == 0,
		"encode \"%s\" failed but left an encoding", name != NULL ? name : "(null)");
	return TEST_SUCCESS;
}

#define CHECK(expr) do { \
	if ((expr) != TEST_SUCCESS) \
		return TEST_FAILED; \
} while (0)

static int
test_generic_names(void)
{
	static const struct {
		const char *name;
		uint32_t type;
		uint64_t config;
	} names[] = {
		{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
		{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
		{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
		{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
		{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
		{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-instructions", PERF_TYPE_HARDWARE,
			PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
		{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
		{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE,
			PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ "stalled-cycles-backend", PERF_TYPE_HARDWARE,
			PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
		{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
		{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
		{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
		{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
		{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
		{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
		{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	};
	unsigned int i;
	bool hw;

	/* The x86 fixture has cpu-cycles, instructions, branch-misses and
	 * ref-cycles events of its own: the generic names come first.
	 */
	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	for (i = 0; i < RTE_DIM(names); i++) {
		hw = names[i].type == PERF_TYPE_HARDWARE;
		CHECK(check_encode(names[i].name, "cpu", names[i].type, names[i].config,
			0, 0, hw, ""));
		if (hw) {
			/* Known, but not countable without a core PMU. */
			CHECK(check_fail(names[i].name, "", -EOPNOTSUPP));
			CHECK(check_fail(names[i].name, NULL, -EOPNOTSUPP));
			continue;
		}
		CHECK(check_encode(names[i].name, "", names[i].type, names[i].config,
			0, 0, hw, ""));
		CHECK(check_encode(names[i].name, NULL, names[i].type, names[i].config,
			0, 0, hw, ""));
	}

	/* Exact match only. */
	CHECK(check_fail("Cycles", "", -ENOENT));
	CHECK(check_fail("cycles ", "", -ENOENT));
	CHECK(check_fail("cycle", "", -ENOENT));
	CHECK(check_fail("cs2", "", -ENOENT));
	return TEST_SUCCESS;
}

static int
test_core_event_x86(void)
{
	struct pmu_event_desc d;

	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	CHECK(check_encode("mem-loads", "cpu", 4, 0x1cd, 3, 0, true, "cpu"));
	CHECK(check_encode("raw-conf", "cpu", 4, 0x5300c0, 0, 0, true, "cpu"));

	memset(&d, 0, sizeof(d));
	TEST_ASSERT_SUCCESS(pmu_event_encode("slow-edge", "cpu", &d), "slow-edge");
	TEST_ASSERT_EQUAL(d.attr.config, UINT64_C(0x4003c), "edge is a bare term: 0x%" PRIx64,
		(uint64_t)d.attr.config);
	TEST_ASSERT_EQUAL(d.attr.sample_period, UINT64_C(1000), "period from events file");
	TEST_ASSERT_EQUAL(d.attr.type, 4, "type");

	/* Without a core PMU only generic and pmu/.../ names resolve. */
	CHECK(check_fail("mem-loads", "", -ENOENT));
	CHECK(check_fail("mem-loads", NULL, -ENOENT));
	/* A core PMU that is not there. */
	CHECK(check_fail("mem-loads", "cpu_core", -ENOENT));
	return TEST_SUCCESS;
}

static int
test_core_event_arm64(void)
{
	TEST_ASSERT_SUCCESS(use_root("arm64"), "root");
	CHECK(check_encode("cpu_cycles", "armv8_pmuv3_0", 8, 0x11, 0, 0, true,
		"armv8_pmuv3_0"));
	CHECK(check_encode("inst_retired", "armv8_pmuv3_0", 8, 0x8, 0, 0, true,
		"armv8_pmuv3_0"));
	/* Generic names keep the generic type on arm64 too. */
	CHECK(check_encode("cycles", "armv8_pmuv3_0", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_CPU_CYCLES, 0, 0, true, ""));
	CHECK(check_fail("cpu-cycles-nope", "armv8_pmuv3_0", -ENOENT));
	/* x86 names are not in this tree. */
	CHECK(check_fail("mem-loads", "armv8_pmuv3_0", -ENOENT));
	return TEST_SUCCESS;
}

static int
test_core_event_bad_files(void)
{
	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	/* "cmask=?": the event needs a parameter. */
	CHECK(check_fail("stall-param", "cpu", -EINVAL));
	CHECK(check_fail("cpu/stall-param/", "cpu", -EINVAL));
	CHECK(check_fail("cpu/stall-param,event=0xa3/", "cpu", -EINVAL));
	/* A term that is not a format term, a bad value, nothing at all. */
	CHECK(check_fail("bad-term", "cpu", -EINVAL));
	CHECK(check_fail("cpu/bad-term/", "cpu", -EINVAL));
	CHECK(check_fail("bad-value", "cpu", -EINVAL));
	CHECK(check_fail("empty", "cpu", -EINVAL));
	CHECK(check_fail("too-wide", "cpu", -EINVAL));
	/* An events file may not name another event. */
	CHECK(check_fail("nested", "cpu", -EINVAL));
	CHECK(check_fail("cpu/nested/", "cpu", -EINVAL));
	return TEST_SUCCESS;
}

static int
test_event_param(void)
{
	struct pmu_event_desc d;

	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	/* The pmu/terms/ form fills the parameter, before or after. */
	CHECK(check_encode("cpu/stall-param,cmask=2/", "cpu", 4, 0x020004a3, 0, 0, true,
		"cpu"));
	CHECK(check_encode("cpu/cmask=3,stall-param/", "cpu", 4, 0x030004a3, 0, 0, true,
		"cpu"));
	CHECK(check_encode("cpu/stall-param,cmask/", "cpu", 4, 0x010004a3, 0, 0, true,
		"cpu"));
	/* The user may not leave a '?' of his own. */
	CHECK(check_fail("cpu/event=0x3c,cmask=?/", "cpu", -EINVAL));

	memset(&d, 0, sizeof(d));
	TEST_ASSERT_EQUAL(pmu_event_encode("cpu/stall-param,umask=9/", "cpu", &d), -EINVAL,
		"parameter still missing");
	return TEST_SUCCESS;
}

static int
test_pmu_terms_x86(void)
{
	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	CHECK(check_encode("cpu/event=0x3c/", "cpu", 4, 0x3c, 0, 0, true, "cpu"));
	CHECK(check_encode("cpu/event=0x3c", "cpu", 4, 0x3c, 0, 0, true, "cpu"));
	CHECK(check_encode("cpu/event=0xc0,umask=0x01/", "cpu", 4, 0x1c0, 0, 0, true, "cpu"));
	CHECK(check_encode("cpu/event=60,umask=1,cmask=255/", "cpu", 4, 0xff00013c, 0, 0,
		true, "cpu"));
	CHECK(check_encode("cpu/event=0X3C,edge,inv/", "cpu", 4, 0x84003c, 0, 0, true,
		"cpu"));
	/* Events of the PMU, with terms on top; later terms win. */
	CHECK(check_encode("cpu/cpu-cycles/", "cpu", 4, 0x3c, 0, 0, true, "cpu"));
	CHECK(check_encode("cpu/instructions,umask=0x2/", "cpu", 4, 0x2c0, 0, 0, true,
		"cpu"));
	CHECK(check_encode("cpu/event=0x11,cpu-cycles/", "cpu", 4, 0x3c, 0, 0, true, "cpu"));
	CHECK(check_encode("cpu/cpu-cycles,event=0x11/", "cpu", 4, 0x11, 0, 0, true, "cpu"));
	CHECK(check_encode("cpu/ref-cycles,umask=0/", "cpu", 4, 0, 0, 0, true, "cpu"));
	/* An explicit config1 term is the user's. */
	CHECK(check_encode("cpu/mem-loads,ldlat=0x40/", "cpu", 4, 0x1cd, 0x40, 0xffff, true,
		"cpu"));
	CHECK(check_encode("cpu/mem-loads/", "cpu", 4, 0x1cd, 3, 0, true, "cpu"));
	/* A core PMU event is not "core" when the PMU is not the core one. */
	CHECK(check_encode("cpu/event=0x3c/", "", 4, 0x3c, 0, 0, false, "cpu"));
	CHECK(check_encode("cpu/event=0x3c/", "cpu_core", 4, 0x3c, 0, 0, false, "cpu"));
	/* config= sets the whole word; terms after it change their bits. */
	CHECK(check_encode("cpu/config=0x5300c0/", "cpu", 4, 0x5300c0, 0, 0, true, "cpu"));
	CHECK(check_encode("cpu/config=0x5300c0,umask=0x2/", "cpu", 4, 0x5302c0, 0, 0, true,
		"cpu"));
	CHECK(check_encode("cpu/umask=0x2,config=0x3c/", "cpu", 4, 0x3c, 0, 0, true, "cpu"));
	/* Values that do not fit. */
	CHECK(check_fail("cpu/event=0x100/", "cpu", -EINVAL));
	CHECK(check_fail("cpu/umask=256/", "cpu", -EINVAL));
	CHECK(check_fail("cpu/event=0x10000000000000000/", "cpu", -EINVAL));
	CHECK(check_fail("cpu/event=18446744073709551616/", "cpu", -EINVAL));
	CHECK(check_encode("cpu/config=18446744073709551615/", "cpu", 4, UINT64_MAX, 0, 0,
		true, "cpu"));
	return TEST_SUCCESS;
}

static int
test_pmu_terms_amd(void)
{
	TEST_ASSERT_SUCCESS(use_root("amd"), "root");
	CHECK(check_encode("cpu/event=0x1c2/", "cpu", 4, UINT64_C(0x1000000c2), 0, 0, true,
		"cpu"));
	CHECK(check_encode("cpu/event=0x1c2,umask=0x3/", "cpu", 4, UINT64_C(0x1000003c2), 0,
		0, true, "cpu"));
	CHECK(check_encode("cpu/event=0xfff/", "cpu", 4, UINT64_C(0xf000000ff), 0, 0, true,
		"cpu"));
	CHECK(check_fail("cpu/event=0x1000/", "cpu", -EINVAL));
	/* The AMD fixture has no events/ folder. */
	CHECK(check_fail("cpu/cpu-cycles/", "cpu", -ENOENT));
	CHECK(check_fail("cpu-cycles-x", "cpu", -ENOENT));
	return TEST_SUCCESS;
}

static int
test_pmu_terms_arm64(void)
{
	const char *arm = "armv8_pmuv3_0";
	struct pmu_event_desc d;

	TEST_ASSERT_SUCCESS(use_root("arm64"), "root");
	/* long=0 is the user's choice: config1 bit 0 recorded and clear. */
	memset(&d, 0, sizeof(d));
	TEST_ASSERT_SUCCESS(pmu_event_encode("armv8_pmuv3_0/event=0x11,long=0/", arm, &d),
		"long=0");
	TEST_ASSERT_EQUAL(d.attr.type, 8, "type");
	TEST_ASSERT_EQUAL(d.attr.config, UINT64_C(0x11), "config");
	TEST_ASSERT_EQUAL(d.attr.config1 & 1, 0, "config1 bit 0 set");
	TEST_ASSERT_EQUAL(d.config1_user, UINT64_C(1), "config1_user 0x%" PRIx64,
		d.config1_user);
	TEST_ASSERT(d.core, "core");

	CHECK(check_encode("armv8_pmuv3_0/cpu_cycles,long,rdpmc/", arm, 8, 0x11, 3, 3, true,
		arm));
	CHECK(check_encode("armv8_pmuv3_0/inst_retired,rdpmc=1/", arm, 8, 0x8, 2, 2, true,
		arm));
	CHECK(check_encode("armv8_pmuv3_0/inst_retired,rdpmc=0,long=1/", arm, 8, 0x8, 1, 3,
		true, arm));
	CHECK(check_encode("armv8_pmuv3_0/cpu_cycles/", arm, 8, 0x11, 0, 0, true, arm));
	CHECK(check_encode("armv8_pmuv3_0/event=0xffff/", arm, 8, 0xffff, 0, 0, true, arm));
	CHECK(check_fail("armv8_pmuv3_0/event=0x10000/", arm, -EINVAL));
	CHECK(check_fail("armv8_pmuv3_0/long=2/", arm, -EINVAL));
	/* Not the core PMU when it was not found. */
	CHECK(check_encode("armv8_pmuv3_0/cpu_cycles/", "", 8, 0x11, 0, 0, false, arm));
	return TEST_SUCCESS;
}

static int
test_pmu_terms_special(void)
{
	const char *arm = "armv8_pmuv3_0";
	struct pmu_event_desc d;

	TEST_ASSERT_SUCCESS(use_root("arm64"), "root");
	memset(&d, 0, sizeof(d));
	TEST_ASSERT_SUCCESS(pmu_event_encode("armv8_pmuv3_0/inst_retired,period=100000/",
		arm, &d), "period");
	TEST_ASSERT_EQUAL(d.attr.sample_period, UINT64_C(100000), "period");
	TEST_ASSERT_EQUAL(d.attr.config, UINT64_C(0x8), "config");

	/* config1= is the user's entire config1. */
	CHECK(check_encode("armv8_pmuv3_0/event=0x8,config1=0x2/", arm, 8, 0x8, 2,
		UINT64_MAX, true, arm));
	CHECK(check_encode("armv8_pmuv3_0/config1=0/", arm, 8, 0, 0, UINT64_MAX, true, arm));
	CHECK(check_encode("armv8_pmuv3_0/config=0x11/", arm, 8, 0x11, 0, 0, true, arm));

	memset(&d, 0, sizeof(d));
	TEST_ASSERT_SUCCESS(pmu_event_encode("armv8_pmuv3_0/config2=0xabc,event=1/", arm,
		&d), "config2");
	TEST_ASSERT_EQUAL(d.attr.config2, UINT64_C(0xabc), "config2");
	TEST_ASSERT_EQUAL(d.attr.config, UINT64_C(1), "config");
	TEST_ASSERT_EQUAL(d.config1_user, 0, "config1_user from config2");

	/* Special terms need a value. */
	CHECK(check_fail("armv8_pmuv3_0/config/", arm, -EINVAL));
	CHECK(check_fail("armv8_pmuv3_0/period/", arm, -EINVAL));
	CHECK(check_fail("armv8_pmuv3_0/config1=/", arm, -EINVAL));
	return TEST_SUCCESS;
}

static int
test_pmu_event_msr(void)
{
	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	CHECK(check_encode("msr/tsc/", "cpu", 9, 0, 0, 0, false, "msr"));
	CHECK(check_encode("msr/aperf/", "cpu", 9, 1, 0, 0, false, "msr"));
	CHECK(check_encode("msr/aperf", "cpu", 9, 1, 0, 0, false, "msr"));
	CHECK(check_encode("msr/event=0xffffffffffffffff/", "cpu", 9, UINT64_MAX, 0, 0,
		false, "msr"));
	/* msr events are not core PMU events. */
	CHECK(check_fail("tsc", "cpu", -ENOENT));
	CHECK(check_fail("msr/cpu-cycles/", "cpu", -ENOENT));
	CHECK(check_fail("msr/umask=1/", "cpu", -EINVAL));
	return TEST_SUCCESS;
}

static int
test_unknown(void)
{
	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	CHECK(check_fail("no-such-event", "cpu", -ENOENT));
	CHECK(check_fail("no-such-event", "", -ENOENT));
	CHECK(check_fail("nopmu/event=1/", "cpu", -ENOENT));
	CHECK(check_fail("nopmu/cycles/", "cpu", -ENOENT));
	CHECK(check_fail("cpu/bogus=1/", "cpu", -EINVAL));
	CHECK(check_fail("cpu/bogus/", "cpu", -ENOENT));
	CHECK(check_fail("cpu/event=1,bogus=1/", "cpu", -EINVAL));
	/* A PMU folder without a type file cannot be opened. */
	CHECK(check_fail("notype/event=1/", "cpu", -ENOENT));
	/* A name that is neither generic nor an event, whatever it looks like. */
	CHECK(check_fail("event=0x3c", "cpu", -ENOENT));
	CHECK(check_fail("cpu-cycles-x:u", "cpu", -ENOENT));
	return TEST_SUCCESS;
}

static int
test_malformed(void)
{
	static const char *const bad[] = {
		"", "cpu/", "cpu//", "/event=1/", "/", "//", "cpu/event=zz/",
		"cpu/event=/", "cpu/=1/", "cpu/event=1,,umask=1/", "cpu/,event=1/",
		"cpu/event=1,/", "cpu/event=-1/", "cpu/event=0x/", "cpu/event= 1/",
		"cpu/event=1 /", "cpu/event=0x3g/", "cpu/event=1e3/", "cpu/event=1//",
		"cpu/event=1/x", "cpu/event==1/", "cpu/ev ent=1/", "cpu/event=0x3c;rm/",
		"../x", "cpu/../../etc", "..", ".", "a..b", "badfmt/event=1/",
	};
	struct pmu_event_desc d;
	unsigned int i;

	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	for (i = 0; i < RTE_DIM(bad); i++)
		CHECK(check_fail(bad[i], "cpu", -EINVAL));
	CHECK(check_fail(NULL, "cpu", -EINVAL));
	TEST_ASSERT_EQUAL(pmu_event_encode("cycles", "cpu", NULL), -EINVAL, "NULL desc");

	/* A bad core PMU name is not looked up. */
	memset(&d, 0, sizeof(d));
	TEST_ASSERT_EQUAL(pmu_event_encode("cpu-cycles-x", "../evil", &d), -EINVAL,
		"core PMU ../evil");
	return TEST_SUCCESS;
}

/* Encoding @p name with core PMU @p core fails with -EINVAL, logging the
 * core-PMU name check's message.
 */
static int
check_core_refused(const char *name, const char *core)
{
	struct pmu_event_desc d;
	char *logbuf = NULL;
	size_t loglen = 0;
	bool logged;
	FILE *log;
	int ret;

	log = open_memstream(&logbuf, &loglen);
	TEST_ASSERT_NOT_NULL(log, "open_memstream");
	rte_openlog_stream(log);
	ret = pmu_event_encode(name, core, &d);
	rte_openlog_stream(NULL);
	fclose(log);
	logged = logbuf != NULL && strstr(logbuf, "bad core PMU name") != NULL;
	printf("event %s, core PMU %s: %d, log: %s", name, core, ret,
		logbuf != NULL && logbuf[0] != '\0' ? logbuf : "(nothing)\n");
	free(logbuf);
	TEST_ASSERT_EQUAL(ret, -EINVAL, "event %s, core PMU %s: %d", name, core, ret);
	TEST_ASSERT(logged, "event %s, core PMU %s: not refused by the core-PMU check",
		name, core);
	return TEST_SUCCESS;
}

static int
test_path_traversal(void)
{
	static const char *const names[] = {
		"../evil/leak/", "../evil/event=1/", "../evil", "..", "../../evil/leak",
		"cpu/../../evil/events/leak", "cpu/../../evil/leak/", "cpu/..,event=1/",
		"cpu/../evil/format/event=1/", "cpu/leak/", "../evil/cpu/leak",
		"evil/leak/", "x86/../evil/leak/", "./cpu/cpu-cycles/", "cpu/./",
		"../evil/cpu/events/leak", "..%2fevil/leak/", "cpu/...,event=1/",
		"cpu/event=1,../evil/", "leak", "..leak", "leak..", "./leak",
	};
	struct pmu_event_desc d;
	char buf[64];
	unsigned int i;
	int ret;

	/* A name reaching evil/ would encode (type 99, config 0x77): each
	 * one fails.
	 */
	TEST_ASSERT_SUCCESS(use_root("x86"), "root");
	for (i = 0; i < RTE_DIM(names); i++) {
		ret = pmu_event_encode(names[i], "cpu", &d);
		TEST_ASSERT(ret == -EINVAL || ret == -ENOENT, "%s: %d", names[i], ret);
	}

	/* A core PMU name with "/" or ".." is refused by the core-PMU check
	 * itself (its log line), before any file is looked up, whatever the
	 * event: names without "/" so that they take the core-PMU path.
	 */
	CHECK(check_core_refused("leak", "../evil/cpu"));
	CHECK(check_core_refused("leak", ".."));
	CHECK(check_core_refused("mem-loads", ".."));
	CHECK(check_core_refused("mem-loads", "."));

	/* The sysfs layer checks every component itself. */
	TEST_ASSERT_EQUAL(pmu_sysfs_read("..", "evil/type", buf, sizeof(buf)), -EINVAL, "..");
	TEST_ASSERT_EQUAL(pmu_sysfs_read("cpu", "../../evil/type", buf, sizeof(buf)),
		-EINVAL, "rel ..");
	TEST_ASSERT_EQUAL(pmu_sysfs_read("cpu", "events/../../../evil/type", buf,
		sizeof(buf)), -EINVAL, "rel .. inside");
	TEST_ASSERT_EQUAL(pmu_sysfs_read("cpu/../..", "evil/type", buf, sizeof(buf)),
		-EINVAL, "PMU with /");
	TEST_ASSERT_EQUAL(pmu_sysfs_read("cpu", "/etc/passwd", buf, sizeof(buf)), -EINVAL,
		"absolute rel");
	TEST_ASSERT_EQUAL(pmu_sysfs_read("cpu", "events//leak", buf, sizeof(buf)), -EINVAL,
		"empty component");
	TEST_ASSERT_EQUAL(pmu_sysfs_read(NULL, "type", buf, sizeof(buf)), -EINVAL, "NULL");

	/* A link the fixture itself put in events/ is followed: only names
	 * are confined, as in sysfs, where every PMU folder is a link.
	 */
	CHECK(check_encode("leak-link", "cpu", 4, 0x77, 0, 0, true, "cpu"));
	return TEST_SUCCESS;
}

static int
test_name_length(void)
{
	char name[300];
	size_t n;

	TEST_ASSERT_SUCCESS(use_root("x86"), "root");

	/* 255 characters: looked up (and not found); 256: refused. */
	memset(name, 'e', 255);
	name[255] = '\0';
	CHECK(check_fail(name, "cpu", -ENOENT));
	memset(name, 'e', 256);
	name[256] = '\0';
	CHECK(check_fail(name, "cpu", -EINVAL));
	memset(name, 'e', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	CHECK(check_fail(name, "cpu", -EINVAL));

	/* pmu/terms/ at 255 characters still parses. */
	n = (size_t)snprintf(name, sizeof(name), "cpu/event=0x3c");
	while (n < 255 - 7)
		n += (size_t)snprintf(name + n, sizeof(name) - n, ",edge=1");
	TEST_ASSERT(n <= 255, "length %zu", n);
	CHECK(check_encode(name, "cpu", 4, 0x4003c, 0, 0, true, "cpu"));
	while (n < 256)
		name[n++] = '/';
	name[n] = '\0';
	CHECK(check_fail(name, "cpu", -EINVAL));

	/* A PMU name longer than desc->pmu can keep. */
	memset(name, 'p', PMU_NAME_MAX);
	strcpy(name + PMU_NAME_MAX, "/event=1/");
	CHECK(check_fail(name, "cpu", -EINVAL));
	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_event_testsuite = {
	.suite_name = "pmu event names",
	.setup = pmu_fixture_setup,
	.teardown = pmu_fixture_teardown,
	.unit_test_cases = {
		TEST_CASE(test_generic_names),
		TEST_CASE(test_core_event_x86),
		TEST_CASE(test_core_event_arm64),
		TEST_CASE(test_core_event_bad_files),
		TEST_CASE(test_event_param),
		TEST_CASE(test_pmu_terms_x86),
		TEST_CASE(test_pmu_terms_amd),
		TEST_CASE(test_pmu_terms_arm64),
		TEST_CASE(test_pmu_terms_special),
		TEST_CASE(test_pmu_event_msr),
		TEST_CASE(test_unknown),
		TEST_CASE(test_malformed),
		TEST_CASE(test_path_traversal),
		TEST_CASE(test_name_length),
		TEST_CASES_END()
	}
};

static int
test_pmu_event(void)
{
	return unit_test_suite_runner(&pmu_event_testsuite);
}

REGISTER_FAST_TEST(pmu_event_autotest, true, true, test_pmu_event);
