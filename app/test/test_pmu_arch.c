/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The backend ops table: registration checks its mandatory hooks, and the
 * wrappers of the optional ones are safe to call when a hook is missing.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_common.h>

#include "pmu_private.h"
#include "test.h"
#include "test_pmu_fixture.h"

static int
core_pmu_stub(char *name, size_t len)
{
	if (len == 0)
		return -ENODEV;
	name[0] = '\0';
	return 0;
}

static bool
is_core_stub(const char *name)
{
	return strcmp(name, "stub") == 0;
}

static int
test_register_checks(void)
{
	const struct pmu_arch_ops no_name = { .core_pmu = core_pmu_stub,
		.is_core_pmu = is_core_stub };
	const struct pmu_arch_ops no_core = { .name = "no-core", .is_core_pmu = is_core_stub };
	const struct pmu_arch_ops no_naming = { .name = "no-naming", .core_pmu = core_pmu_stub };
	const struct pmu_arch_ops complete = { .name = "second", .core_pmu = core_pmu_stub,
		.is_core_pmu = is_core_stub };
	const struct pmu_arch_ops *saved;
	const char *before = pmu_arch_name();

	TEST_ASSERT_EQUAL(pmu_arch_register(NULL), -EINVAL, "NULL ops");
	TEST_ASSERT_EQUAL(pmu_arch_register(&no_name), -EINVAL, "ops without a name");
	TEST_ASSERT_EQUAL(pmu_arch_register(&no_core), -EINVAL, "ops without core_pmu");
	TEST_ASSERT_EQUAL(pmu_arch_register(&no_naming), -EINVAL, "ops without is_core_pmu");

	/* Core-PMU names come from the backend alone. */
	saved = pmu_arch_swap(&complete);
	TEST_ASSERT(pmu_arch_is_core_pmu("stub") && !pmu_arch_is_core_pmu("cpu") &&
		!pmu_arch_is_core_pmu("armv8_pmuv3"), "core-PMU names not the backend's");
	pmu_arch_swap(NULL);
	TEST_ASSERT(!pmu_arch_is_core_pmu("stub"), "a core PMU without a backend");
	pmu_arch_swap(saved);
#if defined(RTE_ARCH_X86_64)
	TEST_ASSERT(pmu_arch_is_core_pmu("cpu") && pmu_arch_is_core_pmu("cpu_atom") &&
		!pmu_arch_is_core_pmu("armv8_pmuv3") && !pmu_arch_is_core_pmu("msr"),
		"x86 core-PMU names");
#elif defined(RTE_ARCH_ARM64)
	TEST_ASSERT(pmu_arch_is_core_pmu("armv8_pmuv3_0") &&
		pmu_arch_is_core_pmu("armv8_cortex_a72") && !pmu_arch_is_core_pmu("cpu"),
		"arm64 core-PMU names");
#endif
	if (pmu_arch_present()) {
		/* The architecture's backend registered from its constructor. */
		TEST_ASSERT_EQUAL(pmu_arch_register(&complete), -EEXIST, "second backend");
		TEST_ASSERT(strcmp(pmu_arch_name(), before) == 0, "backend replaced by %s",
			pmu_arch_name());
	}
#if defined(RTE_ARCH_X86_64) || defined(RTE_ARCH_ARM64)
	TEST_ASSERT(pmu_arch_present(), "no backend registered on this architecture");
#endif

	return TEST_SUCCESS;
}

/* The optional hooks, through their NULL-safe wrappers, on every
 * architecture: for a PMU without a sysfs folder they change nothing and
 * say no (x86 has neither fixup nor retry, arm64 finds no format terms, and
 * no hardware event counts the TSC); where the
 * backend has them, they do their work on the fixture's tree.
 */
static int
test_optional_hooks(void)
{
	struct pmu_event_desc desc;
	const char *arch = pmu_arch_name();

	memset(&desc, 0, sizeof(desc));
	desc.attr.config1 = 0x5;
	pmu_arch_attr_fixup("no-such-pmu", &desc);
	TEST_ASSERT_EQUAL(desc.attr.config1, 0x5u, "%s fixup changed config1 to 0x%" PRIx64
		" for a PMU without a folder", arch, (uint64_t)desc.attr.config1);
	TEST_ASSERT(!pmu_arch_attr_retry("no-such-pmu", &desc, -EOPNOTSUPP),
		"%s retry hook asked for a retry on a PMU without a folder", arch);
	TEST_ASSERT_EQUAL(desc.attr.config1, 0x5u, "%s retry changed config1", arch);
	pmu_arch_init("no-such-pmu");
	TEST_ASSERT(pmu_arch_counts_tsc(&desc) == 0, "%s: a hardware event counts the TSC",
		arch);

	if (!pmu_arch_present())
		TEST_SKIP("no PMU backend on this architecture: only the wrappers' "
			"no-backend path was checked");

	if (strcmp(arch, "x86") == 0) {
		/* x86 has no fixup and no retry hook, even on a real core PMU. */
		TEST_ASSERT_SUCCESS(use_root("x86"), "root");
		desc.attr.config1 = 0;
		pmu_arch_attr_fixup("cpu", &desc);
		TEST_ASSERT_EQUAL(desc.attr.config1, 0u, "x86 fixup changed config1");
		TEST_ASSERT(!pmu_arch_attr_retry("cpu", &desc, -EOPNOTSUPP), "x86 retry hook ran");
		/* The TSC event: msr's type and events/tsc, as sysfs says. */
		TEST_ASSERT_SUCCESS(pmu_event_encode("msr/tsc/", "cpu", &desc), "msr/tsc/");
		TEST_ASSERT(pmu_arch_counts_tsc(&desc) == 1, "x86: msr/tsc/ does not count the TSC");
		TEST_ASSERT_SUCCESS(pmu_event_encode("msr/aperf/", "cpu", &desc), "msr/aperf/");
		TEST_ASSERT(pmu_arch_counts_tsc(&desc) == 0, "x86: msr/aperf/ counts the TSC");
		TEST_ASSERT_SUCCESS(pmu_event_encode("task-clock", "cpu", &desc), "task-clock");
		TEST_ASSERT(pmu_arch_counts_tsc(&desc) == 0, "x86: task-clock counts the TSC");
		TEST_ASSERT_SUCCESS(pmu_fixture_file("x86/msr/events/tsc", "event=0x05\n"), "tsc");
		desc.attr.type = 9;
		desc.attr.config = 5;
		TEST_ASSERT(pmu_arch_counts_tsc(&desc) == 1, "x86: the tsc config is not events/tsc's");
		TEST_ASSERT_SUCCESS(pmu_fixture_file("x86/msr/events/tsc", "event=0x00\n"), "tsc");
		TEST_ASSERT(pmu_arch_counts_tsc(&desc) == 0, "x86: events/tsc was read once only");
	} else if (strcmp(arch, "arm64") == 0) {
		/* arm64 asks for EL0 access (rdpmc = config1:1) and a 64-bit
		 * counter (long = config1:0), and drops the latter when the
		 * kernel refuses it.
		 */
		TEST_ASSERT_SUCCESS(use_root("arm64"), "root");
		desc.attr.type = 8;
		desc.attr.config = 0x08;
		desc.attr.config1 = 0;
		pmu_arch_attr_fixup("armv8_pmuv3_0", &desc);
		TEST_ASSERT_EQUAL(desc.attr.config1, 0x3u, "arm64 fixup: config1 0x%" PRIx64,
			(uint64_t)desc.attr.config1);
		TEST_ASSERT(pmu_arch_attr_retry("armv8_pmuv3_0", &desc, -EOPNOTSUPP),
			"arm64 retry without the 64-bit counter");
		TEST_ASSERT_EQUAL(desc.attr.config1, 0x2u, "arm64 retry: config1 0x%" PRIx64,
			(uint64_t)desc.attr.config1);
		TEST_ASSERT(!pmu_arch_attr_retry("armv8_pmuv3_0", &desc, -EOPNOTSUPP),
			"arm64 retried twice");
	} else {
		TEST_SKIP("backend %s: no expected hook behaviour written for it", arch);
	}

	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_arch_suite = {
	.suite_name = "pmu backend ops",
	.setup = pmu_fixture_setup,
	.teardown = pmu_fixture_teardown,
	.unit_test_cases = {
		TEST_CASE(test_register_checks),
		TEST_CASE(test_optional_hooks),
		TEST_CASES_END()
	}
};

static int
test_pmu_arch(void)
{
	return unit_test_suite_runner(&pmu_arch_suite);
}

REGISTER_FAST_TEST(pmu_arch_autotest, true, true, test_pmu_arch);
