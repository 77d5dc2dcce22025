/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The status and info queries: what each lcore's group is doing. */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_string_fns.h>
#include <rte_lcore.h>

#include "pmu_private.h"

static int
lcore_check(unsigned int lcore_id)
{
	if (lcore_id == LCORE_ID_ANY)
		return -ESRCH;
	if (lcore_id >= RTE_MAX_LCORE)
		return -EINVAL;
	if (!pmu.initialized)
		return -ENODEV;

	return 0;
}

int
rte_pmu_lcore_status(unsigned int lcore_id)
{
	int ret;

	rte_spinlock_lock(&pmu.lock);
	ret = lcore_check(lcore_id);
	if (ret == 0)
		ret = pmu.num_events == 0 ? -ENODATA : pmu.lcores[lcore_id].status;
	rte_spinlock_unlock(&pmu.lock);

	return ret;
}

/* Describe one open event from its page (a snapshot for diagnostics, not
 * a counter read) and the kernel's own count.
 */
static void
event_info(unsigned int lcore_id, unsigned int i, struct rte_pmu_event_info *ei)
{
	struct perf_event_mmap_page *pc = rte_pmu_event_groups[lcore_id].mmap_pages[i];
	struct pmu_lcore *lc = &pmu.lcores[lcore_id];
	uint64_t value;
	int ret;

	ei->user_index = __RTE_PMU_LOAD(pc->index);
	ei->pmc_width = __RTE_PMU_LOAD(pc->pmc_width);
	ei->cap_user_rdpmc = (__RTE_PMU_LOAD(pc->capabilities) & __RTE_PMU_CAP_USER_RDPMC) != 0;
	ei->path = __RTE_PMU_HAVE_USER_READ && ei->user_index != 0 && ei->cap_user_rdpmc ?
		RTE_PMU_PATH_USER : RTE_PMU_PATH_SYSCALL;
	ret = pmu_fd_read(lc->fds[i], &value, &ei->value, &ei->time_enabled, &ei->time_running);
	if (ret == 0)
		ei->multiplexed = ei->time_enabled != ei->time_running;
	else
		PMU_LOG(WARNING, "lcore %u: read() of event %s failed (%s): its value and times "
			"are left 0", lcore_id, ei->name, strerror(-ret));
}

int
rte_pmu_lcore_info_get(unsigned int lcore_id, struct rte_pmu_lcore_info *info)
{
	unsigned int i;
	int ret;

	if (info == NULL)
		return -EINVAL;

	rte_spinlock_lock(&pmu.lock);
	ret = lcore_check(lcore_id);
	if (ret != 0)
		goto out;

	memset(info, 0, sizeof(*info));
	info->status = pmu.num_events == 0 ? -ENODATA : pmu.lcores[lcore_id].status;
	info->num_events = pmu.num_events;
	info->slow_reads = __atomic_load_n(&rte_pmu_event_groups[lcore_id].slow_reads,
		__ATOMIC_RELAXED);
	info->read_errors = __atomic_load_n(&pmu.lcores[lcore_id].read_errors, __ATOMIC_RELAXED);
	for (i = 0; i < pmu.num_events; i++) {
		struct rte_pmu_event_info *ei = &info->events[i];

		strlcpy(ei->name, pmu.events[i].name, sizeof(ei->name));
		ei->path = RTE_PMU_PATH_NONE;
		if (info->status > 0)
			event_info(lcore_id, i, ei);
	}
out:
	rte_spinlock_unlock(&pmu.lock);
	return ret;
}

const char *
__rte_pmu_core_pmu(void)
{
	return __atomic_load_n(&pmu.initialized, __ATOMIC_ACQUIRE) ? pmu.core_pmu : "";
}
