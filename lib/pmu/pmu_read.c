/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Everything a read does outside the inline fast path: the first read's
 * open (through the control path), scaling of multiplexed counters, events
 * that count the TSC (pmu_read_tsc()), the read() fallback, and reads that
 * cannot give a value.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include "pmu.h"
#include "pmu_fd.h"
#include "pmu_log.h"
#include "pmu_callbacks.h"
#include "pmu_read.h"
#include "pmu_state.h"
#include "rte_pmu.h"
#include "rte_pmu_trace.h"

/* A read gave 0 although the group is open: count it, log the first.
 * Returns the 0 the read gives. Out of line: the read path saves no
 * register for it.
 */
__rte_noinline __rte_cold uint64_t
pmu_read_error(struct pmu_lcore *lc, unsigned int index, int err)
{
	unsigned int lcore_id = pmu_lcore_id(lc);

	__atomic_fetch_add(&lc->read_errors, 1, __ATOMIC_RELAXED);
	rte_pmu_trace_error(lcore_id, "read", err);
	if (lc->read_error_logged)
		return 0;
	lc->read_error_logged = true;
	if (err == -ENODATA)
		PMU_LOG(WARNING, "lcore %u: the kernel has not run its group since it opened "
			"(more events than the PMU has counters, or pinned events of others "
			"hold them): a read of event %u returns 0, rte_pmu_lcore_status() says "
			"-ENOSPC; rte_pmu_lcore_info_get() counts such reads (read_errors), only "
			"this one is logged", lcore_id, index);
	else
		PMU_LOG(WARNING, "lcore %u: read() of event %u failed (%s): the read returns 0; "
			"rte_pmu_lcore_info_get() counts such reads (read_errors), only this "
			"one is logged", lcore_id, index, strerror(-err));
	return 0;
}

/* A read of an index that was never added: 0, counted, the first logged. */
static __rte_cold uint64_t
bad_index(unsigned int lcore_id, struct pmu_lcore *lc, unsigned int index)
{
	__atomic_fetch_add(&lc->read_errors, 1, __ATOMIC_RELAXED);
	rte_pmu_trace_error(lcore_id, "index", -EINVAL);
	if (!lc->bad_index_logged) {
		lc->bad_index_logged = true;
		PMU_LOG(ERR, "lcore %u: rte_pmu_read(%u): no such event (%u added); the read "
			"returns 0; rte_pmu_lcore_info_get() counts such reads (read_errors), "
			"only this one is logged", lcore_id, index,
			__atomic_load_n(&lc->num_ready, __ATOMIC_RELAXED));
	}

	return 0;
}

int
pmu_read_prepare(unsigned int *lcore_idp)
{
	unsigned int lcore_id = rte_lcore_id();
	struct pmu_lcore *lc;

	if (lcore_id >= RTE_MAX_LCORE) {
		RTE_PER_LCORE(_pmu_group) = &pmu_no_group;
		RTE_PER_LCORE(pmu_self) = &pmu_no_lcore;
		return -ESRCH;
	}
	lc = pmu_state_lcore(lcore_id);
	/* The fast path's pointers follow this thread's current lcore id. */
	RTE_PER_LCORE(_pmu_group) = &rte_pmu_event_groups[lcore_id];
	RTE_PER_LCORE(pmu_self) = lc;
	*lcore_idp = lcore_id;

	if (__atomic_load_n(&lc->num_ready, __ATOMIC_ACQUIRE) != 0)
		return 0;

	return pmu_lcore_open(lcore_id);
}

uint64_t
__rte_pmu_read_fd(struct rte_pmu_event_group *group, unsigned int index)
{
	/* The thread's own lcore state, set with its group pointer. */
	struct pmu_lcore *lc = RTE_PER_LCORE(pmu_self);
	struct pmu_read_values rv;
	uint64_t value = 0;
	int ret;

	/* No group open on this thread, or no event in that slot (the
	 * thread's group and lcore state are set together).
	 */
	if (unlikely(index >= __atomic_load_n(&lc->num_ready, __ATOMIC_ACQUIRE)))
		return __rte_pmu_read_slow(index);

	/* An event that counts the TSC: no system call, no slow read. */
	if (pmu_read_tsc(lc, index, &value))
		return value;

	/* Only this thread writes the count: a relaxed load and store, no
	 * atomic read-modify-write.
	 */
	__atomic_store_n(&lc->slow_reads,
		__atomic_load_n(&lc->slow_reads, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);

	/* A multiplexed counter that the inline read left to this path. */
	if (!__RTE_PMU_SCALE_INLINE &&
			__rte_pmu_page_read(group->mmap_pages[index], true, &value) == 0)
		return value;

	ret = pmu_fd_read(lc->fds[index], PMU_FD_READ_FORMAT, &rv);
	if (unlikely(ret != 0))
		return pmu_read_error(lc, index, ret);
	/* Not run: the flag set (a group read that finds it run clears it).
	 * One test on this path, which has a goal against a plain read().
	 */
	if (unlikely(rv.time_running == 0) &&
			pmu_read_not_run(lc, rv.time_enabled, rv.time_running))
		return pmu_read_error(lc, index, -ENODATA);

	return __rte_pmu_scale(rv.value[0], rv.time_enabled, rv.time_running);
}

uint64_t
__rte_pmu_read_slow(unsigned int index)
{
	struct rte_pmu_event_group *group;
	unsigned int lcore_id;
	struct pmu_lcore *lc;
	uint64_t value;

	/* First read on the lcore, or a new lcore id, or a bad index. */
	if (pmu_read_prepare(&lcore_id) != 0)
		return 0;
	group = &rte_pmu_event_groups[lcore_id];
	lc = pmu_state_lcore(lcore_id);
	if (index >= __atomic_load_n(&lc->num_ready, __ATOMIC_ACQUIRE))
		return bad_index(lcore_id, lc, index);
	if (__rte_pmu_page_read(group->mmap_pages[index], true, &value) == 0)
		return value;

	return __rte_pmu_read_fd(group, index);
}

int
rte_pmu_lcore_open(void)
{
	unsigned int lcore_id;
	int ret, cb;

	ret = pmu_read_prepare(&lcore_id);
	if (ret == -ESRCH || ret == -ENODEV)
		PMU_LOG(ERR, "lcore open: %s", ret == -ESRCH ? "not an lcore (register the "
			"thread with rte_thread_register())" : "rte_pmu_init() not called");
	if (ret != 0 && ret != -ENODATA)
		return ret;
	cb = pmu_callbacks_lcore_open(lcore_id);

	return cb != 0 ? cb : ret;
}
