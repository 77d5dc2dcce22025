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
	struct perf_event_mmap_page *page;
	unsigned int i;

	/* Hide the pages from the fast path before they go. */
	__atomic_store_n(&group->num_ready, 0, __ATOMIC_RELEASE);

	for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++) {
		page = group->mmap_pages[i];
		group->mmap_pages[i] = &pmu_page_none;
		if (page != NULL && page != &pmu_page_none)
			page_unmap(page);
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
group_encodings(struct pmu_group_opening *op)
{
	char names[PMU_CORE_MAX][PMU_NAME_MAX];
	char core[PMU_NAME_MAX];
	bool any_core = false;
	rte_cpuset_t set;
	unsigned int i;
	int ret;

	for (i = 0; i < op->num_events; i++)
		any_core |= op->descs[i].core;
	if (!any_core || pmu_core_pmus(names) < 2)
		return 0;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -errno;
	ret = pmu_core_pmu_for_cpuset(&set, core);
	if (ret != 0)
		return ret;
	for (i = 0; i < op->num_events; i++) {
		if (!op->descs[i].core || strcmp(op->descs[i].core_pmu, core) == 0)
			continue;
		ret = pmu_event_encode(op->names[i], core, &op->descs[i]);
		if (ret != 0)
			return ret;
		pmu_arch_attr_fixup(core, &op->descs[i]);
		ret = pmu_fd_probe(op->names[i], core, &op->descs[i]);
		if (ret != 0)
			return ret;
	}
	return 0;
}

int
pmu_group_open_begin(unsigned int lcore_id, struct pmu_group_opening *op)
{
	unsigned int i;

	if (pmu.num_events == 0)
		return -ENODATA;

	op->lcore_id = lcore_id;
	op->num_events = pmu.num_events;
	op->generation = pmu.generation;
	op->group_fd = -1;
	for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++) {
		op->fds[i] = -1;
		op->pages[i] = NULL;
	}
	/* The names stay: no event is added while a group opens. */
	for (i = 0; i < op->num_events; i++) {
		op->names[i] = pmu.events[i].name;
		op->descs[i] = pmu.events[i].desc;
	}
	pmu.num_opening++;

	return 0;
}

int
pmu_group_open_run(struct pmu_group_opening *op)
{
	const char *step;
	unsigned int i;
	int ret;

	step = "core type";
	ret = group_encodings(op);
	if (ret != 0)
		goto fail;
	for (i = 0; i < op->num_events; i++) {
		step = op->names[i];
		ret = pmu_fd_group_open(op->names[i], &op->descs[i], i == 0 ? -1 : op->fds[0]);
		if (ret < 0)
			goto fail;
		op->fds[i] = ret;

		ret = pmu_fd_map(op->fds[i], &op->pages[i]);
		if (ret != 0) {
			PMU_LOG(ERR, "event %s: mmap of the user page: %s", op->names[i],
				strerror(-ret));
			goto fail;
		}
	}

	/* Last, so that the group's values come in event index order. */
	step = "group reader";
	ret = pmu_fd_group_reader_open(op->fds[0]);
	if (ret < 0)
		goto fail;
	op->group_fd = ret;

	step = "enable";
	ret = pmu_fd_enable_group(op->fds[0]);
	if (ret != 0) {
		PMU_LOG(ERR, "lcore %u: enabling the group: %s", op->lcore_id, strerror(-ret));
		goto fail;
	}

	return 0;

fail:
	/* op names the event whose open or mapping failed, or the step. */
	rte_pmu_trace_error(op->lcore_id, step, ret);
	return ret;
}

int
pmu_group_open_end(struct pmu_group_opening *op, int ret)
{
	unsigned int lcore_id = op->lcore_id;
	struct rte_pmu_event_group *group = &rte_pmu_event_groups[lcore_id];
	struct pmu_lcore *lc = &pmu.lcores[lcore_id];
	unsigned int i;

	if (pmu.num_opening > 0)
		pmu.num_opening--;
	/* The lcore takes the descriptors, to keep them or to close them. */
	for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++) {
		lc->fds[i] = op->fds[i];
		group->fds[i] = op->fds[i];
		group->mmap_pages[i] = op->pages[i] != NULL ? op->pages[i] : &pmu_page_none;
	}
	lc->group_fd = op->group_fd;
	if (ret == 0 && (!pmu.initialized || pmu.generation != op->generation)) {
		/* rte_pmu_fini() ran meanwhile, against the API's contract. */
		PMU_LOG(ERR, "lcore %u: the library was closed while its group opened",
			lcore_id);
		ret = -ENODEV;
	}
	if (ret != 0)
		goto fail;

	pmu.num_open++;
	lc->open_failures = 0;
	__atomic_store_n(&lc->status, 1, __ATOMIC_RELAXED);
	/* Pages first, then the count that lets the fast path use them. */
	__atomic_store_n(&group->num_ready, op->num_events, __ATOMIC_RELEASE);
	PMU_LOG(DEBUG, "lcore %u: group of %u event(s) open", lcore_id, op->num_events);
	rte_pmu_trace_group_open(lcore_id, op->num_events, 0);

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
	rte_pmu_trace_group_open(lcore_id, op->num_events, ret);

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
