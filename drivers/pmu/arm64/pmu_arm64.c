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

#include "pmu_private.h"

#define PERF_USER_ACCESS "/proc/sys/kernel/perf_user_access"

static bool
is_core_pmu(const char *name)
{
	char buf[64];

	if (strncmp(name, "armv8_", 6) != 0 && strncmp(name, "armv9_", 6) != 0)
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

static bool
arm64_attr_retry(const char *core_pmu, struct pmu_event_desc *desc, int err)
{
	uint64_t bits;

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
	.init = arm64_init,
	.attr_fixup = arm64_attr_fixup,
	.attr_retry = arm64_attr_retry,
};

RTE_PMU_REGISTER_ARCH(arm64, arm64_ops);
