/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Opening and closing an lcore's event group. */

#include <errno.h>
#include <sched.h>
#include <string.h>

#include <rte_common.h>

#include "pmu_private.h"
#include "rte_pmu_trace.h"

/* Unmap @p page; when munmap() fails, keep the page for a later try. */
static void
page_unmap(struct perf_event_mmap_page *page)
{
	unsigned int i;
	int ret;

	ret = pmu_fd_unmap(page);
	if (ret == 0)
		return;
	for (i = 0; i < PMU_STALE_PAGES; i++) {
		if (pmu.stale_pages[i] == NULL) {
			pmu.stale_pages[i] = page;
			PMU_LOG(ERR, "munmap of user page %p: %s; kept, tried again at the next "
				"rte_pmu_init() or rte_pmu_fini()", (void *)page, strerror(-ret));
			return;
		}
	}
	PMU_LOG(ERR, "munmap of user page %p: %s; %d pages already kept, this one is lost",
		(void *)page, strerror(-ret), PMU_STALE_PAGES);
}

void
pmu_group_unmap_stale(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < PMU_STALE_PAGES; i++) {
		if (pmu.stale_pages[i] == NULL)
			continue;
		ret = pmu_fd_unmap(pmu.stale_pages[i]);
		if (ret != 0) {
			PMU_LOG(ERR, "munmap of user page %p failed again: %s",
				pmu.stale_pages[i], strerror(-ret));
			continue;
		}
		pmu.stale_pages[i] = NULL;
	}
}

void
pmu_group_close(unsigned int lcore_id)
{
	struct rte_pmu_event_group *group = &rte_pmu_event_groups[lcore_id];
	struct pmu_lcore *lc = &pmu.lcores[lcore_id];
	bool was_open = group->num_ready != 0;
	unsigned int i;

	/* Hide the pages from the fast path before they go. */
	__atomic_store_n(&group->num_ready, 0, __ATOMIC_RELEASE);

	for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++) {
		if (group->mmap_pages[i] != NULL)
			page_unmap(group->mmap_pages[i]);
		group->mmap_pages[i] = NULL;
		pmu_fd_close(&lc->fds[i]);
		group->fds[i] = -1;
	}
	pmu_fd_close(&lc->group_fd);
	if (was_open)
		rte_pmu_trace_group_close(lcore_id);
	if (was_open && pmu.num_open > 0)
		pmu.num_open--;
	__atomic_store_n(&lc->status, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&group->slow_reads, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&lc->read_errors, 0, __ATOMIC_RELAXED);
	lc->read_error_logged = false;
}

/*
 * The encodings of this lcore: the added ones, except on a machine with
 * several core types, where core events are encoded again for the core PMU
 * of the CPUs the calling thread may run on.
 */
static int
group_encodings(struct pmu_event_desc *descs)
{
	char names[PMU_CORE_MAX][PMU_NAME_MAX];
	char core[PMU_NAME_MAX];
	bool any_core = false;
	const char *name;
	rte_cpuset_t set;
	unsigned int i;
	int ret;

	for (i = 0; i < pmu.num_events; i++) {
		descs[i] = pmu.events[i].desc;
		any_core |= descs[i].core;
	}
	if (!any_core || pmu_core_pmus(names) < 2)
		return 0;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -errno;
	ret = pmu_core_pmu_for_cpuset(&set, core);
	if (ret != 0)
		return ret;
	for (i = 0; i < pmu.num_events; i++) {
		if (!descs[i].core || strcmp(descs[i].core_pmu, core) == 0)
			continue;
		name = pmu.events[i].name;
		ret = pmu_event_encode(name, core, &descs[i]);
		if (ret != 0)
			return ret;
		pmu_arch_attr_fixup(core, &descs[i]);
		ret = pmu_fd_probe(name, core, &descs[i]);
		if (ret != 0)
			return ret;
	}
	return 0;
}

/* Open event @p i of @p lcore_id's group, encoded as @p desc: fd and user page. */
static int
group_event_open(unsigned int lcore_id, unsigned int i, const struct pmu_event_desc *desc)
{
	struct rte_pmu_event_group *group = &rte_pmu_event_groups[lcore_id];
	struct pmu_lcore *lc = &pmu.lcores[lcore_id];
	const struct pmu_event *ev = &pmu.events[i];
	int ret;

	ret = pmu_fd_group_open(ev->name, desc, i == 0 ? -1 : lc->fds[0]);
	if (ret < 0)
		return ret;
	lc->fds[i] = ret;
	group->fds[i] = ret;

	ret = pmu_fd_map(lc->fds[i], &group->mmap_pages[i]);
	if (ret != 0) {
		PMU_LOG(ERR, "event %s: mmap of the user page: %s", ev->name, strerror(-ret));
		return ret;
	}

	return 0;
}

int
pmu_group_open(unsigned int lcore_id)
{
	struct rte_pmu_event_group *group = &rte_pmu_event_groups[lcore_id];
	struct pmu_event_desc descs[RTE_MAX_NUM_GROUP_EVENTS];
	struct pmu_lcore *lc = &pmu.lcores[lcore_id];
	unsigned int i;
	int ret;

	if (pmu.num_events == 0)
		return -ENODATA;

	ret = group_encodings(descs);
	if (ret != 0)
		goto fail;
	for (i = 0; i < pmu.num_events; i++) {
		ret = group_event_open(lcore_id, i, &descs[i]);
		if (ret != 0) {
			rte_pmu_trace_error(lcore_id, pmu.events[i].name, ret);
			goto fail;
		}
	}

	/* Last, so that the group's values come in event index order. */
	ret = pmu_fd_group_reader_open(lc->fds[0]);
	if (ret < 0)
		goto fail;
	lc->group_fd = ret;

	ret = pmu_fd_enable_group(lc->fds[0]);
	if (ret != 0) {
		PMU_LOG(ERR, "lcore %u: enabling the group: %s", lcore_id, strerror(-ret));
		goto fail;
	}

	pmu.num_open++;
	lc->open_failures = 0;
	__atomic_store_n(&lc->status, 1, __ATOMIC_RELAXED);
	/* Pages first, then the count that lets the fast path use them. */
	__atomic_store_n(&group->num_ready, pmu.num_events, __ATOMIC_RELEASE);
	PMU_LOG(DEBUG, "lcore %u: group of %u event(s) open", lcore_id, pmu.num_events);
	rte_pmu_trace_group_open(lcore_id, pmu.num_events, 0);

	return 0;
fail:
	pmu_group_close(lcore_id);
	__atomic_store_n(&lc->status, ret, __ATOMIC_RELAXED);
	if (ret != -EAGAIN)
		PMU_LOG(ERR, "lcore %u: group not opened (%s); its reads return 0 until "
			"rte_pmu_fini()", lcore_id, strerror(-ret));
	else
		PMU_LOG_AT(lc->open_failures++ == 0 ? RTE_LOG_ERR : RTE_LOG_DEBUG,
			"lcore %u: group not opened (%s); its next read tries again",
			lcore_id, strerror(-ret));
	rte_pmu_trace_group_open(lcore_id, pmu.num_events, ret);

	return ret;
}

int
pmu_group_read(unsigned int lcore_id, uint64_t *values, unsigned int n, uint64_t *enabled,
	uint64_t *running)
{
	struct pmu_lcore *lc = &pmu.lcores[lcore_id];
	unsigned int num = rte_pmu_event_groups[lcore_id].num_ready;
	uint64_t raw[RTE_MAX_NUM_GROUP_EVENTS + 1];
	uint64_t te, tr;
	int i, ret;

	if (num == 0 || lc->group_fd < 0)
		return -ENODEV;
	if (n > num)
		n = num;

	ret = pmu_fd_read_group(lc->group_fd, raw, n, &te, &tr);
	if (ret < 0)
		return ret;
	for (i = 0; i < ret; i++)
		values[i] = __rte_pmu_scale(raw[i], te, tr);
	if (enabled != NULL)
		*enabled = te;
	if (running != NULL)
		*running = tr;

	return ret;
}
