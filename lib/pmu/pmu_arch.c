/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Registration of the architecture backend and NULL-safe calls into it. */

#include <errno.h>

#include "pmu_arch.h"
#include "pmu_driver.h"
#include "pmu_log.h"

static const struct pmu_arch_ops *arch_ops;

int
pmu_arch_register(const struct pmu_arch_ops *ops)
{
	if (ops == NULL || ops->name == NULL || ops->core_pmu == NULL ||
			ops->is_core_pmu == NULL) {
		PMU_LOG(ERR, "backend %s not registered: name, core_pmu and is_core_pmu "
			"are mandatory",
			ops != NULL && ops->name != NULL ? ops->name : "(unnamed)");
		return -EINVAL;
	}
	if (arch_ops != NULL) {
		PMU_LOG(ERR, "backend %s not registered: %s already is", ops->name,
			arch_ops->name);
		return -EEXIST;
	}
	arch_ops = ops;

	return 0;
}

const struct pmu_arch_ops *
pmu_arch_swap(const struct pmu_arch_ops *ops)
{
	const struct pmu_arch_ops *old = arch_ops;

	arch_ops = ops;
	return old;
}

bool
pmu_arch_is_core_pmu(const char *name)
{
	return arch_ops != NULL && arch_ops->is_core_pmu(name);
}

const char *
pmu_arch_name(void)
{
	return arch_ops != NULL ? arch_ops->name : "none";
}

bool
pmu_arch_present(void)
{
	return arch_ops != NULL;
}

int
pmu_arch_core_pmu(char *name, size_t len)
{
	if (arch_ops == NULL)
		return -ENODEV;

	return arch_ops->core_pmu(name, len);
}

void
pmu_arch_init(const char *core_pmu)
{
	if (arch_ops != NULL && arch_ops->init != NULL)
		arch_ops->init(core_pmu);
}

void
pmu_arch_attr_fixup(const char *core_pmu, struct pmu_event_desc *desc)
{
	if (arch_ops != NULL && arch_ops->attr_fixup != NULL)
		arch_ops->attr_fixup(core_pmu, desc);
}

bool
pmu_arch_attr_retry(const char *core_pmu, struct pmu_event_desc *desc, int err)
{
	if (arch_ops == NULL || arch_ops->attr_retry == NULL)
		return false;

	return arch_ops->attr_retry(core_pmu, desc, err);
}

int
pmu_arch_counts_tsc(const struct pmu_event_desc *desc)
{
	if (arch_ops == NULL || arch_ops->counts_tsc == NULL)
		return 0;

	return arch_ops->counts_tsc(desc);
}
