/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Opening and closing an lcore's event group. */

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_common.h>

#include "pmu_private.h"

/* Every event reads its whole group with one read(): the fallback path
 * and the diagnostics find their own value by id.
 */
#define PMU_READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_ID | \
	PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static size_t
page_size(void)
{
	static size_t size;

	if (size == 0)
		size = (size_t)sysconf(_SC_PAGESIZE);

	return size;
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
		if (group->mmap_pages[i] != NULL) {
			munmap(group->mmap_pages[i], page_size());
			group->mmap_pages[i] = NULL;
		}
		if (lc->fds[i] >= 0) {
			close(lc->fds[i]);
			lc->fds[i] = -1;
		}
		lc->ids[i] = 0;
	}
	if (was_open && pmu.num_open > 0)
		pmu.num_open--;
	lc->status = 0;
	lc->slow_reads = 0;
}

static int
event_open(const struct pmu_event *ev, int leader_fd)
{
	struct perf_event_attr attr = ev->desc.attr;

	attr.read_format = PMU_READ_FORMAT;
	/* The leader starts disabled; members follow it. */
	attr.disabled = leader_fd < 0;

	return pmu_perf_event_open(&attr, 0, -1, leader_fd);
}

int
pmu_group_open(unsigned int lcore_id)
{
	struct rte_pmu_event_group *group = &rte_pmu_event_groups[lcore_id];
	struct pmu_lcore *lc = &pmu.lcores[lcore_id];
	unsigned int i;
	void *page;
	int ret;

	if (pmu.num_events == 0)
		return -ENOENT;

	for (i = 0; i < pmu.num_events; i++) {
		ret = event_open(&pmu.events[i], i == 0 ? -1 : lc->fds[0]);
		if (ret < 0) {
			pmu_log_open_error(pmu.events[i].name, ret);
			goto fail;
		}
		lc->fds[i] = ret;

		if (ioctl(lc->fds[i], PERF_EVENT_IOC_ID, &lc->ids[i]) != 0) {
			ret = -errno;
			PMU_LOG(ERR, "event %s: PERF_EVENT_IOC_ID: %s", pmu.events[i].name,
				strerror(errno));
			goto fail;
		}

		page = mmap(NULL, page_size(), PROT_READ, MAP_SHARED, lc->fds[i], 0);
		if (page == MAP_FAILED) {
			ret = -errno;
			PMU_LOG(ERR, "event %s: mmap of the user page: %s", pmu.events[i].name,
				strerror(errno));
			goto fail;
		}
		group->mmap_pages[i] = page;
	}

	if (ioctl(lc->fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) != 0) {
		ret = -errno;
		PMU_LOG(ERR, "lcore %u: enabling the group: %s", lcore_id, strerror(errno));
		goto fail;
	}

	pmu.num_open++;
	lc->status = 1;
	/* Pages first, then the count that lets the fast path use them. */
	__atomic_store_n(&group->num_ready, pmu.num_events, __ATOMIC_RELEASE);
	PMU_LOG(DEBUG, "lcore %u: group of %u event(s) open", lcore_id, pmu.num_events);

	return 0;
fail:
	pmu_group_close(lcore_id);
	lc->status = ret;
	PMU_LOG(ERR, "lcore %u: group not opened (%s); its reads return 0 until rte_pmu_fini()",
		lcore_id, strerror(-ret));

	return ret;
}
