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
#include "rte_pmu_trace.h"

/* Where a thread's fast path points before its first read: no events, so
 * every read goes to the slow path.
 */
struct rte_pmu_event_group pmu_no_group = {
	.mmap_pages = PMU_PAGES_NONE,
};

struct perf_event_mmap_page pmu_page_none;

RTE_DEFINE_PER_LCORE(struct rte_pmu_event_group *, _pmu_group) = &pmu_no_group;

/* First read on an lcore: open its group, once (again after a transient
 * failure). Returns 0 when it is open, or negative errno.
 */
static int
lazy_open(unsigned int lcore_id)
{
	struct pmu_group_opening op;
	bool opening = false;
	int ret, status;

	rte_spinlock_lock(&pmu.lock);
	status = pmu.lcores[lcore_id].status;
	if (!pmu.initialized) {
		ret = -ENODEV;
	} else if (pmu.num_events == 0) {
		/* Nothing to open: say so once, the status says it after. */
		if (!pmu.no_event_logged)
			PMU_LOG(WARNING, "lcore %u reads, but no event was added: call "
				"rte_pmu_add_event() before the first rte_pmu_read()", lcore_id);
		pmu.no_event_logged = true;
		ret = -ENODATA;
	} else if (status == 0 || status == -EAGAIN) {
		/* Not opened yet, or a transient failure: (try to) open it. */
		ret = pmu_group_open_begin(lcore_id, &op);
		opening = ret == 0;
	} else {
		ret = status > 0 ? 0 : status;
	}
	rte_spinlock_unlock(&pmu.lock);
	if (!opening)
		return ret;

	/* The system calls, without the lock: other lcores open theirs meanwhile. */
	ret = pmu_group_open_run(&op);

	rte_spinlock_lock(&pmu.lock);
	ret = pmu_group_open_end(&op, ret);
	rte_spinlock_unlock(&pmu.lock);

	return ret;
}

/* A read() fallback failed: the read returns 0; count it, log the first. */
static void
read_error(unsigned int lcore_id, unsigned int index, int err)
{
	struct pmu_lcore *lc = &pmu.lcores[lcore_id];

	__atomic_fetch_add(&lc->read_errors, 1, __ATOMIC_RELAXED);
	rte_pmu_trace_error(lcore_id, "read", err);
	if (lc->read_error_logged)
		return;
	lc->read_error_logged = true;
	PMU_LOG(WARNING, "lcore %u: read() of event %u failed (%s): the read returns 0; "
		"rte_pmu_lcore_info_get() counts such reads (read_errors), only this one "
		"is logged", lcore_id, index, strerror(-err));
}

int
pmu_read_prepare(unsigned int *lcore_idp)
{
	unsigned int lcore_id = rte_lcore_id();
	struct rte_pmu_event_group *group;
	int status;

	if (lcore_id >= RTE_MAX_LCORE) {
		RTE_PER_LCORE(_pmu_group) = &pmu_no_group;
		return -ESRCH;
	}
	group = &rte_pmu_event_groups[lcore_id];
	/* The fast path's pointer follows this thread's current lcore id. */
	RTE_PER_LCORE(_pmu_group) = group;
	*lcore_idp = lcore_id;

	if (__atomic_load_n(&group->num_ready, __ATOMIC_ACQUIRE) != 0)
		return 0;
	/* Unlocked peeks: only this thread opens this lcore's group. */
	if (!__atomic_load_n(&pmu.initialized, __ATOMIC_RELAXED))
		return -ENODEV;
	status = __atomic_load_n(&pmu.lcores[lcore_id].status, __ATOMIC_RELAXED);
	if (status < 0 && status != -EAGAIN)
		return status;

	return lazy_open(lcore_id);
}

uint64_t
__rte_pmu_read_fd(struct rte_pmu_event_group *group, unsigned int index)
{
	uint64_t value = 0;
	int ret;

	/* An empty slot (no group open, or no event there): the slow path. */
	if (unlikely(index >= __atomic_load_n(&group->num_ready, __ATOMIC_ACQUIRE)))
		return __rte_pmu_read_slow(index);

	/* Only this thread writes the count: a relaxed load and store, no
	 * atomic read-modify-write.
	 */
	__atomic_store_n(&group->slow_reads,
		__atomic_load_n(&group->slow_reads, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);

	/* A multiplexed counter that the inline read left to this path. */
	if (!__RTE_PMU_SCALE_INLINE &&
			__rte_pmu_page_read(group->mmap_pages[index], true, &value) == 0)
		return value;

	ret = pmu_fd_read_value(group->fds[index], &value);
	if (unlikely(ret != 0)) {
		read_error(group - rte_pmu_event_groups, index, ret);
		return 0;
	}

	return value;
}

uint64_t
__rte_pmu_read_slow(unsigned int index)
{
	struct rte_pmu_event_group *group;
	unsigned int lcore_id;
	uint64_t value;

	/* First read on the lcore, or a new lcore id, or a bad index. */
	if (pmu_read_prepare(&lcore_id) != 0)
		return 0;
	group = &rte_pmu_event_groups[lcore_id];
	if (index >= __atomic_load_n(&group->num_ready, __ATOMIC_ACQUIRE))
		return 0;
	if (__rte_pmu_page_read(group->mmap_pages[index], true, &value) == 0)
		return value;

	return __rte_pmu_read_fd(group, index);
}
