/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Core PMUs and the CPUs each one counts on.
 *
 * A machine with one core type has one core PMU ("cpu" on x86,
 * "armv8_pmuv3_0" on arm64). Hybrid x86 has "cpu_core" and "cpu_atom";
 * big.LITTLE arm64 one "armv8_cortex_*" per cluster. Each of those lists its
 * CPUs in a "cpus" (or "cpumask") file, and an event counts only when opened
 * with the type of the PMU of the CPU the thread runs on: a thread allowed
 * on CPUs of two core types cannot count hardware events reliably.
 */

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_string_fns.h>

#include "pmu_driver.h"
#include "pmu_event.h"
#include "pmu_log.h"
#include "pmu_sysfs.h"

/* Longest CPU list file read. */
#define PMU_CPULIST_MAX 4096

unsigned int
pmu_core_pmus(char names[][PMU_NAME_MAX])
{
	struct dirent **list;
	unsigned int found = 0;
	int i, n;

	n = scandir(pmu_sysfs_root(), &list, NULL, alphasort);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (found < PMU_CORE_MAX && pmu_arch_is_core_pmu(list[i]->d_name) &&
				strlen(list[i]->d_name) < PMU_NAME_MAX &&
				pmu_sysfs_pmu_exists(list[i]->d_name))
			rte_strscpy(names[found++], list[i]->d_name, PMU_NAME_MAX);
		free(list[i]);
	}
	free(list);
	return found;
}

/* A decimal CPU number below CPU_SETSIZE at *p; advances *p. */
static int
parse_cpu(const char **p, unsigned int *cpu)
{
	uint64_t v;

	if (pmu_parse_u64(p, 10, CPU_SETSIZE - 1, &v) != 0)
		return -EINVAL;
	*cpu = (unsigned int)v;
	return 0;
}

int
pmu_cpulist_parse(const char *list, rte_cpuset_t *set)
{
	unsigned int lo, hi, cpu;
	const char *p = list;

	if (list == NULL || set == NULL)
		return -EINVAL;
	CPU_ZERO(set);
	if (*p == '\0')
		return -EINVAL;
	for (;;) {
		if (parse_cpu(&p, &lo) != 0)
			return -EINVAL;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_cpu(&p, &hi) != 0 || hi < lo)
				return -EINVAL;
		}
		for (cpu = lo; cpu <= hi; cpu++)
			CPU_SET(cpu, set);
		if (*p != ',')
			break;
		p++;
	}
	return *p == '\0' ? 0 : -EINVAL;
}

/* CPUs of a core PMU; every CPU when it lists none. */
static int
core_cpus(const char *pmu_name, rte_cpuset_t *set, char *list, size_t len)
{
	int ret;

	ret = pmu_sysfs_read(pmu_name, "cpus", list, len);
	if (ret == -ENOENT)
		ret = pmu_sysfs_read(pmu_name, "cpumask", list, len);
	if (ret == -ENOENT) {
		rte_strscpy(list, "all", len);
		memset(set, 0xff, sizeof(*set));
		return 0;
	}
	if (ret < 0 || pmu_cpulist_parse(list, set) != 0) {
		PMU_LOG(ERR, "core PMU %s: unreadable CPU list in %s/%s/cpus", pmu_name,
			pmu_sysfs_root(), pmu_name);
		return -EINVAL;
	}
	return 0;
}

static int
core_pmu_for_cpuset(const rte_cpuset_t *set, char *name, uint32_t log_level)
{
	char names[PMU_CORE_MAX][PMU_NAME_MAX];
	char list[PMU_CPULIST_MAX], first_list[PMU_CPULIST_MAX];
	rte_cpuset_t cpus, both;
	unsigned int i, n;
	int found = -1;

	if (set == NULL || name == NULL || CPU_COUNT(set) == 0)
		return -EINVAL;

	n = pmu_core_pmus(names);
	if (n == 0)
		return -ENODEV;
	if (n == 1) {
		rte_strscpy(name, names[0], PMU_NAME_MAX);
		return 0;
	}

	for (i = 0; i < n; i++) {
		if (core_cpus(names[i], &cpus, list, sizeof(list)) != 0)
			continue;
		CPU_AND(&both, &cpus, set);
		if (CPU_COUNT(&both) == 0)
			continue;
		if (found >= 0) {
			PMU_LOG_AT(log_level, "the thread may run on CPUs of "
				"core PMU %s (CPUs %s) and of %s (CPUs %s): pin it to CPUs of "
				"one core type to count hardware events", names[found],
				first_list, names[i], list);
			return -EXDEV;
		}
		found = (int)i;
		rte_strscpy(first_list, list, sizeof(first_list));
	}
	if (found < 0) {
		PMU_LOG_AT(log_level, "no core PMU among %u lists the "
			"thread's CPUs", n);
		return -ENODEV;
	}
	rte_strscpy(name, names[found], PMU_NAME_MAX);
	return 0;
}

int
pmu_core_pmu_for_cpuset(const rte_cpuset_t *set, char *name)
{
	return core_pmu_for_cpuset(set, name, RTE_LOG_ERR);
}

void
pmu_core_pmu_of_thread(const char *fallback, char *name)
{
	char names[PMU_CORE_MAX][PMU_NAME_MAX];
	rte_cpuset_t set;

	if (pmu_core_pmus(names) < 2 || sched_getaffinity(0, sizeof(set), &set) != 0 ||
			core_pmu_for_cpuset(&set, name, RTE_LOG_DEBUG) != 0)
		rte_strscpy(name, fallback, PMU_NAME_MAX);
}
