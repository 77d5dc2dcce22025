/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Everything a read does outside the inline fast path: the lazy group open,
 * scaling of multiplexed counters, the read() fallback; and the status and
 * info queries.
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_string_fns.h>
#include <rte_lcore.h>

#include "pmu_private.h"

/* Where a thread's fast path points before its first read: no events, so
 * every read goes to the slow path.
 */
struct rte_pmu_event_group pmu_no_group;

RTE_DEFINE_PER_LCORE(struct rte_pmu_event_group *, _pmu_group) = &pmu_no_group;

/* Layout of read() with PERF_FORMAT_GROUP | ID | TOTAL_TIME_ENABLED | RUNNING. */
struct group_read {
	uint64_t nr;
	uint64_t time_enabled;
	uint64_t time_running;
	struct {
		uint64_t value;
		uint64_t id;
	} values[RTE_MAX_NUM_GROUP_EVENTS];
};

int
pmu_fd_read(int fd, uint64_t id, uint64_t *value, uint64_t *raw, uint64_t *enabled,
	uint64_t *running)
{
	struct group_read buf;
	uint64_t i;
	ssize_t n;

	n = read(fd, &buf, sizeof(buf));
	if (n < 0)
		return -errno;
	/* A pinned group the kernel could not schedule reads 0 bytes. */
	if (n < (ssize_t)offsetof(struct group_read, values))
		return -ENODATA;

	for (i = 0; i < buf.nr && i < RTE_MAX_NUM_GROUP_EVENTS; i++) {
		if ((ssize_t)offsetof(struct group_read, values[i + 1]) > n)
			break;
		if (buf.values[i].id != id)
			continue;
		if (raw != NULL)
			*raw = buf.values[i].value;
		*value = __rte_pmu_scale(buf.values[i].value, buf.time_enabled,
			buf.time_running);
		if (enabled != NULL)
			*enabled = buf.time_enabled;
		if (running != NULL)
			*running = buf.time_running;
		return 0;
	}

	return -ENOENT;
}

/* First read on an lcore: open its group, once. */
static bool
lazy_open(unsigned int lcore_id)
{
	bool ok;

	rte_spinlock_lock(&pmu.lock);
	if (!pmu.initialized)
		ok = false;
	else if (pmu.lcores[lcore_id].status == 0)
		ok = pmu_group_open(lcore_id) == 0;
	else
		ok = pmu.lcores[lcore_id].status > 0;
	rte_spinlock_unlock(&pmu.lock);

	return ok;
}

uint64_t
__rte_pmu_read_slow(unsigned int index)
{
	unsigned int lcore_id = rte_lcore_id();
	struct rte_pmu_event_group *group;
	struct pmu_lcore *lc;
	uint64_t value;

	if (lcore_id >= RTE_MAX_LCORE) {
		RTE_PER_LCORE(_pmu_group) = &pmu_no_group;
		return 0;
	}
	group = &rte_pmu_event_groups[lcore_id];
	lc = &pmu.lcores[lcore_id];
	/* The fast path's pointer follows this thread's current lcore id. */
	RTE_PER_LCORE(_pmu_group) = group;

	if (__atomic_load_n(&group->num_ready, __ATOMIC_ACQUIRE) == 0) {
		/* Unlocked peeks: only this thread opens this lcore's group. */
		if (!__atomic_load_n(&pmu.initialized, __ATOMIC_RELAXED) || lc->status < 0 ||
				index >= pmu.num_events)
			return 0;
		if (!lazy_open(lcore_id))
			return 0;
	}
	if (index >= group->num_ready)
		return 0;

	lc->slow_reads++;
	if (__rte_pmu_page_read(group->mmap_pages[index], true, &value) == 0)
		return value;

	/* The page cannot give the live value: ask the kernel. */
	if (pmu_fd_read(lc->fds[index], lc->ids[index], &value, NULL, NULL, NULL) != 0)
		return 0;

	return value;
}

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
		ret = pmu.lcores[lcore_id].status;
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

	ei->user_index = __RTE_PMU_LOAD(pc->index);
	ei->pmc_width = __RTE_PMU_LOAD(pc->pmc_width);
	ei->cap_user_rdpmc = (__RTE_PMU_LOAD(pc->capabilities) & __RTE_PMU_CAP_USER_RDPMC) != 0;
	ei->path = __RTE_PMU_HAVE_USER_READ && ei->user_index != 0 && ei->cap_user_rdpmc ?
		RTE_PMU_PATH_USER : RTE_PMU_PATH_SYSCALL;
	if (pmu_fd_read(lc->fds[i], lc->ids[i], &value, &ei->value, &ei->time_enabled,
			&ei->time_running) == 0)
		ei->multiplexed = ei->time_enabled != ei->time_running;
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
	info->status = pmu.lcores[lcore_id].status;
	info->num_events = pmu.num_events;
	info->slow_reads = pmu.lcores[lcore_id].slow_reads;
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
