/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Everything a read does outside the inline fast path: the lazy group open,
 * scaling of multiplexed counters, the read() fallback.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include "pmu_private.h"

/* Where a thread's fast path points before its first read: no events, so
 * every read goes to the slow path.
 */
struct rte_pmu_event_group pmu_no_group;

RTE_DEFINE_PER_LCORE(struct rte_pmu_event_group *, _pmu_group) = &pmu_no_group;

/* First read on an lcore: open its group, once. */
static bool
lazy_open(unsigned int lcore_id)
{
	bool ok;

	rte_spinlock_lock(&pmu.lock);
	if (!pmu.initialized) {
		ok = false;
	} else if (pmu.num_events == 0) {
		/* Nothing to open: say so once, the status says it after. */
		if (!pmu.no_event_logged)
			PMU_LOG(WARNING, "lcore %u reads, but no event was added: call "
				"rte_pmu_add_event() before the first rte_pmu_read()", lcore_id);
		pmu.no_event_logged = true;
		ok = false;
	} else if (pmu.lcores[lcore_id].status == 0 || pmu.lcores[lcore_id].status == -EAGAIN)
		/* Not opened yet, or a transient failure: (try to) open it. */
		ok = pmu_group_open(lcore_id) == 0;
	else
		ok = pmu.lcores[lcore_id].status > 0;
	rte_spinlock_unlock(&pmu.lock);

	return ok;
}

/* A read() fallback failed: the read returns 0; count it, log the first. */
static void
read_error(unsigned int lcore_id, unsigned int index, int err)
{
	struct pmu_lcore *lc = &pmu.lcores[lcore_id];

	__atomic_fetch_add(&lc->read_errors, 1, __ATOMIC_RELAXED);
	if (lc->read_error_logged)
		return;
	lc->read_error_logged = true;
	PMU_LOG(WARNING, "lcore %u: read() of event %u failed (%s): the read returns 0; "
		"rte_pmu_lcore_info_get() counts such reads (read_errors), only this one "
		"is logged", lcore_id, index, strerror(-err));
}

uint64_t
__rte_pmu_read_slow(unsigned int index)
{
	unsigned int lcore_id = rte_lcore_id();
	struct rte_pmu_event_group *group;
	struct pmu_lcore *lc;
	uint32_t ready;
	uint64_t value;
	int status;
	int ret;

	if (lcore_id >= RTE_MAX_LCORE) {
		RTE_PER_LCORE(_pmu_group) = &pmu_no_group;
		return 0;
	}
	group = &rte_pmu_event_groups[lcore_id];
	lc = &pmu.lcores[lcore_id];
	/* The fast path's pointer follows this thread's current lcore id. */
	RTE_PER_LCORE(_pmu_group) = group;

	ready = __atomic_load_n(&group->num_ready, __ATOMIC_ACQUIRE);
	if (ready == 0) {
		/* Unlocked peeks: only this thread opens this lcore's group. */
		status = __atomic_load_n(&lc->status, __ATOMIC_RELAXED);
		if (!__atomic_load_n(&pmu.initialized, __ATOMIC_RELAXED) ||
				(status < 0 && status != -EAGAIN))
			return 0;
		if (!lazy_open(lcore_id))
			return 0;
		ready = __atomic_load_n(&group->num_ready, __ATOMIC_ACQUIRE);
	}
	if (index >= ready)
		return 0;

	__atomic_fetch_add(&lc->slow_reads, 1, __ATOMIC_RELAXED);
	if (__rte_pmu_page_read(group->mmap_pages[index], true, &value) == 0)
		return value;

	/* The page cannot give the live value: ask the kernel. */
	ret = pmu_fd_read(lc->fds[index], lc->ids[index], &value, NULL, NULL, NULL);
	if (ret != 0) {
		read_error(lcore_id, index, ret);
		return 0;
	}

	return value;
}
