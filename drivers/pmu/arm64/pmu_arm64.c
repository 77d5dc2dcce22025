/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* arm64 control-path backend: the PMUv3 core PMU, EL0 counter access
 * (the format/rdpmc config1 bit), 64-bit counters (format/long) where the
 * PMU gives them, and the perf_user_access switch.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_string_fns.h>

#include "pmu_driver.h"

#define PERF_USER_ACCESS "/proc/sys/kernel/perf_user_access"

/* The CPU PMUs' folders: armv8_pmuv3, armv8_pmuv3_0, armv8_cortex_a72, ... */
static bool
arm64_is_core_pmu(const char *name)
{
	return strncmp(name, "armv8_", 6) == 0 || strncmp(name, "armv9_", 6) == 0;
}

/* A CPU PMU whose counters user space may be allowed to read. */
static bool
is_core_pmu(const char *name)
{
	char buf[64];

	if (!arm64_is_core_pmu(name))
		return false;

	/* A CPU PMU with EL0 access lists the rdpmc format term. */
	return pmu_sysfs_read(name, "format/rdpmc", buf, sizeof(buf)) >= 0;
}

static int
arm64_core_pmu(char *name, size_t len)
{
	struct dirent **list;
	int i, n, found = 0;

	n = scandir(pmu_sysfs_root(), &list, NULL, alphasort);
	if (n < 0)
		return -ENODEV;
	for (i = 0; i < n; i++) {
		if (is_core_pmu(list[i]->d_name)) {
			if (found == 0)
				strlcpy(name, list[i]->d_name, len);
			found++;
		}
		free(list[i]);
	}
	free(list);

	if (found > 1)
		PMU_LOG(INFO, "%d CPU PMUs (big.LITTLE): each lcore uses the PMU of its "
			"cluster ('%s' when its CPUs span clusters)", found, name);

	return found > 0 ? 0 : -ENODEV;
}

static void
arm64_init(const char *core_pmu __rte_unused)
{
	char buf[8] = "";
	ssize_t n;
	int fd;

	fd = open(PERF_USER_ACCESS, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		PMU_LOG(WARNING, "%s missing (kernel older than 5.17): counters are read "
			"with read()", PERF_USER_ACCESS);
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n > 0 && buf[0] == '0')
		PMU_LOG(WARNING, "%s is 0: counters are read with read(), not from user "
			"space; as root, 'sysctl kernel.perf_user_access=1' enables user access",
			PERF_USER_ACCESS);
}

/* config1 bits of a one-bit format term, or 0 when the PMU lacks it. */
static uint64_t
term_bits(const char *core_pmu, const char *term)
{
	uint64_t bits;

	if (pmu_sysfs_format_config1(core_pmu, term, &bits) != 0)
		return 0;

	return bits;
}

static void
arm64_attr_fixup(const char *core_pmu, struct pmu_event_desc *desc)
{
	uint64_t bits;

	/* EL0 access, and 64-bit counters; attr_retry drops the latter
	 * where the PMU cannot give them (before PMUv3p5, event counters).
	 */
	bits = term_bits(core_pmu, "rdpmc") | term_bits(core_pmu, "long");
	desc->attr.config1 |= bits & ~desc->config1_user;
}

/* perf's generic hardware events as the architected PMUv3 events that
 * Linux maps them to, by their names in a core PMU's events/ folder (the
 * first one the PMU lists is taken).
 */
static const char *const generic_alias[PERF_COUNT_HW_MAX][2] = {
	[PERF_COUNT_HW_CPU_CYCLES] = { "cpu_cycles" },
	[PERF_COUNT_HW_INSTRUCTIONS] = { "inst_retired" },
	[PERF_COUNT_HW_CACHE_REFERENCES] = { "l1d_cache" },
	[PERF_COUNT_HW_CACHE_MISSES] = { "l1d_cache_refill" },
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = { "pc_write_retired", "br_retired" },
	[PERF_COUNT_HW_BRANCH_MISSES] = { "br_mis_pred" },
	[PERF_COUNT_HW_BUS_CYCLES] = { "bus_cycles" },
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] = { "stall_frontend" },
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND] = { "stall_backend" },
};

/* perf's cache events that Linux's generic PMUv3 map counts: reads only,
 * by cache and result (access, miss).
 */
static const char *const cache_alias[PERF_COUNT_HW_CACHE_MAX][2] = {
	[PERF_COUNT_HW_CACHE_L1D] = { "l1d_cache", "l1d_cache_refill" },
	[PERF_COUNT_HW_CACHE_L1I] = { "l1i_cache", "l1i_cache_refill" },
	[PERF_COUNT_HW_CACHE_LL] = { "ll_cache_rd", "ll_cache_miss_rd" },
	[PERF_COUNT_HW_CACHE_DTLB] = { "l1d_tlb", "l1d_tlb_refill" },
	[PERF_COUNT_HW_CACHE_ITLB] = { "l1i_tlb", "l1i_tlb_refill" },
	[PERF_COUNT_HW_CACHE_BPU] = { "br_pred", "br_mis_pred" },
};

/* The core PMU event names to try for a generic or cache event (config
 * without the extended type); the second may be NULL. False: none.
 */
static bool
core_event_names(uint32_t type, uint64_t config, const char *names[2])
{
	uint64_t cache = config & 0xff, op = (config >> 8) & 0xff, result = config >> 16;

	names[0] = names[1] = NULL;
	if (type == PERF_TYPE_HARDWARE && config < PERF_COUNT_HW_MAX) {
		names[0] = generic_alias[config][0];
		names[1] = generic_alias[config][1];
	} else if (type == PERF_TYPE_HW_CACHE && cache < PERF_COUNT_HW_CACHE_MAX &&
			op == PERF_COUNT_HW_CACHE_OP_READ &&
			result < PERF_COUNT_HW_CACHE_RESULT_MAX) {
		names[0] = cache_alias[cache][result];
	}
	return names[0] != NULL;
}

/* A generic hardware or cache event with a core PMU's extended type,
 * refused by a kernel whose arm PMU driver does not take the extended type
 * (Debian 12's 6.1 among them): the same event as the core PMU's own event,
 * which needs no extended type. The privilege levels stay; the fixup adds
 * config1's bits again. Returns true when @p desc was rewritten.
 */
static bool
generic_as_core_event(const char *core_pmu, struct pmu_event_desc *desc, int err)
{
	uint64_t config = desc->attr.config & PERF_HW_EVENT_MASK;
	struct pmu_event_desc alias;
	const char *names[2];
	const char *name = NULL;
	unsigned int i;
	int ret = -ENOENT;

	if ((desc->attr.type != PERF_TYPE_HARDWARE && desc->attr.type != PERF_TYPE_HW_CACHE) ||
			(desc->attr.config >> 32) == 0 ||
			(err != -ENOENT && err != -EINVAL && err != -EOPNOTSUPP) ||
			!core_event_names(desc->attr.type, config, names))
		return false;

	for (i = 0; i < RTE_DIM(names) && ret != 0; i++) {
		name = names[i];
		if (name == NULL)
			break;
		memset(&alias, 0, sizeof(alias));
		alias.attr.size = sizeof(alias.attr);
		RTE_PER_LCORE(pmu_log_quiet)++;
		ret = pmu_sysfs_event_encode(name, core_pmu, &alias);
		RTE_PER_LCORE(pmu_log_quiet)--;
	}
	if (ret != 0)
		return false;

	PMU_LOG(INFO, "%s event 0x%" PRIx64 ": the kernel takes no extended type for "
		"PMU '%s' (%s); counting its event %s",
		desc->attr.type == PERF_TYPE_HARDWARE ? "generic" : "cache", config, core_pmu,
		strerror(-err), name);
	desc->attr.type = alias.attr.type;
	desc->attr.config = alias.attr.config;
	desc->attr.config1 = alias.attr.config1;
	desc->attr.config2 = alias.attr.config2;
	desc->config1_user = alias.config1_user;
	rte_strscpy(desc->pmu, core_pmu, sizeof(desc->pmu));
	arm64_attr_fixup(core_pmu, desc);

	return true;
}

static bool
arm64_attr_retry(const char *core_pmu, struct pmu_event_desc *desc, int err)
{
	uint64_t bits;

	if (generic_as_core_event(core_pmu, desc, err))
		return true;
	if (err != -EOPNOTSUPP)
		return false;

	bits = term_bits(core_pmu, "long") & ~desc->config1_user;
	if (bits == 0 || (desc->attr.config1 & bits) == 0)
		return false;

	PMU_LOG(INFO, "PMU '%s' has no 64-bit counter for config 0x%" PRIx64
		": using a 32-bit counter", core_pmu, (uint64_t)desc->attr.config);
	desc->attr.config1 &= ~bits;

	return true;
}

static const struct pmu_arch_ops arm64_ops = {
	.name = "arm64",
	.core_pmu = arm64_core_pmu,
	.is_core_pmu = arm64_is_core_pmu,
	.init = arm64_init,
	.attr_fixup = arm64_attr_fixup,
	.attr_retry = arm64_attr_retry,
};

RTE_PMU_REGISTER_ARCH(arm64, arm64_ops);
