/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_hybrid_open_autotest: each lcore's group is opened with the core PMU
 * of the CPUs its thread may run on. The fixture trees hybridsw/ (x86
 * names) and biglsw/ (arm64 names) give CPU 0 and CPU 1 different core
 * PMUs whose type is the software PMU's, so the groups really open here:
 * event "work" counts task-clock on CPU 0's core type and page-faults on
 * CPU 1's; "core-only" exists on CPU 0's type alone. Needs 2 CPUs.
 *
 * On arm64 (the guest) a second case makes the real core PMU look like two
 * core types, for the generic events of a kernel whose arm PMU driver takes
 * no extended type.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_string_fns.h>

#include "pmu_private.h"
#include "test.h"
#include "test_pmu_fixture.h"
#include "test_pmu_loop.h"

/* A registered thread allowed on CPU @p cpu (-1: CPUs 0 and 1). */
struct reader {
	int cpu;
	unsigned int tries; /* loops counted; the least delta is kept (0: 1) */
	int status;      /* rte_pmu_lcore_status() after its reads */
	uint64_t delta;  /* the event over a busy loop */
};

static void *
reader_run(void *arg)
{
	struct reader *r = arg;
	unsigned int t;
	uint64_t v0;
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	if (r->cpu < 0) {
		CPU_SET(0, &set);
		CPU_SET(1, &set);
	} else {
		CPU_SET(r->cpu, &set);
	}
	ret = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (ret != 0) {
		r->status = -ret;
		return NULL;
	}
	if (rte_thread_register() != 0) {
		r->status = -ENOSPC;
		return NULL;
	}
	r->delta = UINT64_MAX;
	t = 0;
	do {
		v0 = rte_pmu_read(0);
		test_loop(1000000);
		r->delta = RTE_MIN(r->delta, rte_pmu_read(0) - v0);
	} while (++t < r->tries);
	r->status = rte_pmu_lcore_status(rte_lcore_id());
	rte_thread_unregister();
	return NULL;
}

static int
run_reader(struct reader *r)
{
	pthread_t t;

	r->status = 0;
	r->delta = 0;
	TEST_ASSERT_SUCCESS(pthread_create(&t, NULL, reader_run, r), "pthread_create");
	TEST_ASSERT_SUCCESS(pthread_join(t, NULL), "pthread_join");
	return TEST_SUCCESS;
}

/* Library on @p tree with the one event @p name. */
static int
start(const char *tree, const char *name)
{
	int idx;

	rte_pmu_fini();
	TEST_ASSERT_SUCCESS(use_root(tree), "root %s", tree);
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init on %s", tree);
	idx = rte_pmu_add_event(name);
	TEST_ASSERT_EQUAL(idx, 0, "add %s on %s: %d", name, tree, idx);
	return TEST_SUCCESS;
}

static int
test_group_per_core_type(void)
{
	struct reader r = { .tries = 1 };
	const char *tree;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("SKIP: needs CPUs 0 and 1\n");
		return TEST_SKIPPED;
	}
	tree = strcmp(pmu_arch_name(), "arm64") == 0 ? "biglsw" : "hybridsw";

	if (start(tree, "work") != TEST_SUCCESS)
		return TEST_FAILED;
	/* CPU 0: task-clock, nanoseconds of the loop. */
	r.cpu = 0;
	if (run_reader(&r) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(r.status, 1, "CPU 0: status %d", r.status);
	TEST_ASSERT(r.delta > 100000, "CPU 0: task-clock %" PRIu64 " ns", r.delta);
	/* CPU 1: encoded again for its core type: page-faults, a few. */
	r.cpu = 1;
	if (run_reader(&r) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(r.status, 1, "CPU 1: status %d", r.status);
	TEST_ASSERT(r.delta < 1000, "CPU 1: %" PRIu64 ", not page-faults", r.delta);
	/* CPUs of both core types: refused, with the reason. */
	r.cpu = -1;
	if (run_reader(&r) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(r.status, -EXDEV, "CPUs 0-1: status %d", r.status);
	TEST_ASSERT_EQUAL(r.delta, 0, "CPUs 0-1: read %" PRIu64, r.delta);

	/* An event of CPU 0's core type: counted there, reported on CPU 1. */
	if (start(tree, "core-only") != TEST_SUCCESS)
		return TEST_FAILED;
	r.cpu = 0;
	if (run_reader(&r) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(r.status, 1, "core-only on CPU 0: status %d", r.status);
	r.cpu = 1;
	if (run_reader(&r) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(r.status, -EOPNOTSUPP, "core-only on CPU 1: status %d", r.status);
	rte_pmu_fini();
	return TEST_SUCCESS;
}

/* The real core PMU as two core types: "realbig/armv8_cortex_a53" on CPU 0
 * and ".._a72" on CPU 1, each with the real type, format/ and events/.
 */
static int
real_as_two_types(const char *real, uint32_t type)
{
	static const char *const names[] = { "armv8_cortex_a53", "armv8_cortex_a72" };
	char path[PATH_MAX], target[PATH_MAX], text[32];
	unsigned int i;

	snprintf(text, sizeof(text), "%u\n", type);
	for (i = 0; i < RTE_DIM(names); i++) {
		snprintf(path, sizeof(path), "realbig/%s/type", names[i]);
		TEST_ASSERT_SUCCESS(pmu_fixture_file(path, text), "%s", path);
		snprintf(path, sizeof(path), "realbig/%s/cpus", names[i]);
		TEST_ASSERT_SUCCESS(pmu_fixture_file(path, i == 0 ? "0\n" : "1\n"), "%s", path);
		snprintf(path, sizeof(path), "realbig/%s/format", names[i]);
		snprintf(target, sizeof(target), "%s/%s/format", PMU_SYSFS_ROOT_DEFAULT, real);
		TEST_ASSERT_SUCCESS(pmu_fixture_link(path, target), "%s", path);
		snprintf(path, sizeof(path), "realbig/%s/events", names[i]);
		snprintf(target, sizeof(target), "%s/%s/events", PMU_SYSFS_ROOT_DEFAULT, real);
		TEST_ASSERT_SUCCESS(pmu_fixture_link(path, target), "%s", path);
	}
	return TEST_SUCCESS;
}

/* @p name on both core types of realbig/: encoded with the extended type or,
 * where the kernel refuses it, as the PMU's own event @p arm_event; counted
 * on CPU 0 and on CPU 1 over the loop; @p exact: instructions, 2 an
 * iteration.
 */
static int
generic_on_realbig(const char *name, uint32_t type, uint64_t arm_event, bool exact)
{
	const struct perf_event_attr *attr;
	struct reader r = { .tries = 3 };
	int cpu;

	if (start("realbig", name) != TEST_SUCCESS)
		return TEST_FAILED;
	attr = &pmu.events[0].desc.attr;
	if (attr->type == PERF_TYPE_HARDWARE) {
		printf("%s: the kernel takes the extended type (config 0x%" PRIx64 ")\n",
			name, (uint64_t)attr->config);
		TEST_ASSERT_EQUAL(attr->config >> 32, type, "extended type");
	} else {
		printf("%s: no extended type in this kernel: counted as type %u config 0x%"
			PRIx64 "\n", name, attr->type, (uint64_t)attr->config);
		TEST_ASSERT_EQUAL(attr->type, type, "%s: type", name);
		TEST_ASSERT_EQUAL(attr->config & 0xffff, arm_event, "%s: event number", name);
		TEST_ASSERT(attr->exclude_kernel && attr->exclude_hv && !attr->exclude_user,
			"%s: user space only, as a generic hardware event", name);
	}
	for (cpu = 0; cpu < 2; cpu++) {
		r.cpu = cpu;
		if (run_reader(&r) != TEST_SUCCESS)
			return TEST_FAILED;
		TEST_ASSERT_EQUAL(r.status, 1, "%s on CPU %d: status %d", name, cpu, r.status);
		/* The least of 3 loops: an interrupt in a loop once cost 2782
		 * instructions more here.
		 */
		printf("%s on CPU %d: %" PRIu64 " over 1000000 iterations (least of %u)\n",
			name, cpu, r.delta, r.tries);
		if (exact)
			TEST_ASSERT(r.delta >= 2000000 && r.delta < 2000000 + 1000,
				"%s on CPU %d: %" PRIu64, name, cpu, r.delta);
		else
			TEST_ASSERT(r.delta >= 1000000, "%s on CPU %d: %" PRIu64, name, cpu,
				r.delta);
	}
	return TEST_SUCCESS;
}

static int
test_generic_without_extended_type(void)
{
	char real[PMU_NAME_MAX];
	uint32_t type;

	if (strcmp(pmu_arch_name(), "arm64") != 0) {
		printf("SKIP: the arm64 backend's case; this is %s\n", pmu_arch_name());
		return TEST_SKIPPED;
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("SKIP: needs CPUs 0 and 1\n");
		return TEST_SKIPPED;
	}
	rte_pmu_fini();
	__rte_pmu_sysfs_root_set(NULL);
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init on the real sysfs");
	rte_strscpy(real, __rte_pmu_core_pmu(), sizeof(real));
	rte_pmu_fini();
	if (real[0] == '\0') {
		printf("SKIP: no arm64 core PMU here (the arm64 guest has one)\n");
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(pmu_sysfs_type(real, &type), "type of %s", real);
	if (real_as_two_types(real, type) != TEST_SUCCESS)
		return TEST_FAILED;

	/* INST_RETIRED 0x08 and CPU_CYCLES 0x11, as Linux maps the two. */
	if (generic_on_realbig("instructions", type, 0x08, TEST_LOOP_INSNS == 2) !=
			TEST_SUCCESS)
		return TEST_FAILED;
	if (generic_on_realbig("cycles", type, 0x11, false) != TEST_SUCCESS)
		return TEST_FAILED;
	rte_pmu_fini();
	return TEST_SUCCESS;
}

static void
open_teardown(void)
{
	rte_pmu_fini();
	pmu_fixture_teardown();
}

static struct unit_test_suite pmu_hybrid_open_testsuite = {
	.suite_name = "pmu group per core type",
	.setup = pmu_fixture_setup,
	.teardown = open_teardown,
	.unit_test_cases = {
		TEST_CASE(test_group_per_core_type),
		TEST_CASE(test_generic_without_extended_type),
		TEST_CASES_END()
	}
};

static int
test_pmu_hybrid_open(void)
{
	return unit_test_suite_runner(&pmu_hybrid_open_testsuite);
}

REGISTER_FAST_TEST(pmu_hybrid_open_autotest, true, true, test_pmu_hybrid_open);
