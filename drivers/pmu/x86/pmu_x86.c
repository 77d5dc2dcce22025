/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* x86 control-path backend: core PMU "cpu" (hybrid parts: "cpu_core",
 * "cpu_atom"), whether the kernel lets rdpmc run in user space, and which
 * event counts the TSC (msr/tsc/, read with rdtsc).
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_string_fns.h>

#include "pmu_driver.h"

/* The CPU PMUs' folders, the preferred first: "cpu", or on hybrid parts
 * one per core type.
 */
static const char * const core_pmus[] = { "cpu", "cpu_core", "cpu_atom", "cpu_lowpower" };

static bool
x86_is_core_pmu(const char *name)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(core_pmus); i++)
		if (strcmp(name, core_pmus[i]) == 0)
			return true;
	return false;
}

static int
x86_core_pmu(char *name, size_t len)
{
	const char * const *candidates = core_pmus;
	unsigned int i;

	for (i = 0; i < RTE_DIM(core_pmus); i++) {
		if (!pmu_sysfs_pmu_exists(candidates[i]))
			continue;
		if (i > 0)
			PMU_LOG(INFO, "hybrid CPU: each lcore uses the core PMU of its CPUs "
				"('%s' when they span core types)", candidates[i]);
		strlcpy(name, candidates[i], len);
		return 0;
	}

	return -ENODEV;
}

static void
x86_init(const char *core_pmu)
{
	char buf[16];

	/* 0: never, 1 (default): while an event is mapped, 2: always. */
	if (pmu_sysfs_read(core_pmu, "rdpmc", buf, sizeof(buf)) < 0)
		return;
	if (strcmp(buf, "0") == 0)
		PMU_LOG(WARNING, "user-space rdpmc is disabled (%s/%s/rdpmc = 0): counters are "
			"read with read(); as root, 'echo 1 > %s/%s/rdpmc' allows rdpmc",
			pmu_sysfs_root(), core_pmu, pmu_sysfs_root(), core_pmu);
}

/* The msr PMU's tsc event: its type and config as sysfs gives them (the
 * PMU's type file, its events/tsc file), never assumed. The kernel reads
 * the TSC for it, so rdtsc in user space reads the same clock. perf's own
 * types (below PERF_TYPE_MAX) are no PMU folder's: no file is read.
 */
static int
x86_counts_tsc(const struct pmu_event_desc *desc)
{
	struct pmu_event_desc tsc;
	uint32_t type;
	int ret;

	if (desc->attr.type < PERF_TYPE_MAX)
		return 0;
	ret = pmu_sysfs_type("msr", &type);
	if (ret != 0 || desc->attr.type != type)
		return ret == -ENOENT ? 0 : ret;
	memset(&tsc, 0, sizeof(tsc));
	ret = pmu_sysfs_event_encode("tsc", "msr", &tsc);
	if (ret != 0)
		return ret == -ENOENT || ret == -EINVAL ? 0 : ret;

	return desc->attr.config == tsc.attr.config &&
		desc->attr.config1 == tsc.attr.config1 &&
		desc->attr.config2 == tsc.attr.config2;
}

static const struct pmu_arch_ops x86_ops = {
	.name = "x86",
	.core_pmu = x86_core_pmu,
	.is_core_pmu = x86_is_core_pmu,
	.init = x86_init,
	.counts_tsc = x86_counts_tsc,
};

RTE_PMU_REGISTER_ARCH(x86, x86_ops);
