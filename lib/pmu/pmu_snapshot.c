/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Snapshot of a whole group: one seqlock pass per user page, rte_rdtsc()
 * for events that count the TSC, and one read() of the group's reader for
 * every other event the pages cannot give.
 */

#include <errno.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>

#include "pmu_group.h"
#include "pmu_log.h"
#include "pmu_read.h"
#include "pmu_snapshot.h"
#include "pmu_state.h"
#include "rte_pmu.h"

__rte_noinline int
pmu_read_group_fallback(struct pmu_lcore *lc, uint64_t *values, unsigned int n,
	uint32_t slow)
{
	uint64_t all[RTE_MAX_NUM_GROUP_EVENTS], enabled, running;
	unsigned int i;
	int ret;

	/* Events that count the TSC first: they need no read(). */
	for (i = 0; i < n; i++)
		if ((slow & (UINT32_C(1) << i)) != 0 && pmu_read_tsc(lc, i, &values[i]))
			slow &= ~(UINT32_C(1) << i);
	if (slow == 0)
		return n;

	ret = pmu_group_read(lc->group_fd, lc->num_ready, all, n, &enabled, &running);
	if (ret >= 0 && ret < (int)n)
		ret = -EIO;
	/* Values of a group the kernel never ran are not counts. */
	if (ret >= 0 && pmu_read_not_run(lc, enabled, running))
		ret = -ENODATA;
	if (ret < 0) {
		/* Counted in read_errors and logged, as a failed rte_pmu_read(). */
		pmu_read_error(lc, (unsigned int)__builtin_ctz(slow), ret);
		return ret;
	}

	for (i = 0; i < n; i++)
		if ((slow & (UINT32_C(1) << i)) != 0)
			values[i] = all[i];
	__atomic_store_n(&lc->slow_reads,
		__atomic_load_n(&lc->slow_reads, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);

	return n;
}

/* First snapshot on the lcore (or a new lcore id): open the group, then
 * read. Out of line, as the next one.
 */
static __rte_noinline int
read_group_first(uint64_t *values, unsigned int n)
{
	unsigned int lcore_id;
	int ret;

	ret = pmu_read_prepare(&lcore_id);
	if (ret != 0)
		return ret;

	return rte_pmu_read_group(values, n);
}

/* Out of line, so that the common path makes no call but tail calls and
 * needs no stack frame.
 */
static __rte_noinline __rte_cold int
read_group_bad_args(const uint64_t *values)
{
	PMU_LOG(ERR, "read group: %s", values == NULL ? "values is NULL" : "n is 0");
	return -EINVAL;
}

/* One event from its page, in one seqlock pass, or marked for read(). */
#define SNAP_ONE(i) do { \
	if (unlikely(__rte_pmu_page_read(group->mmap_pages[i], false, &values[i]) != 0)) \
		slow |= UINT32_C(1) << (i); \
} while (0)

int
rte_pmu_read_group(uint64_t *values, unsigned int n)
{
	struct rte_pmu_event_group *group = RTE_PER_LCORE(_pmu_group);
	struct pmu_lcore *lc = RTE_PER_LCORE(pmu_self);
	unsigned int num;
	uint32_t slow = 0;

	if (unlikely(values == NULL || n == 0))
		return read_group_bad_args(values);

	num = lc->num_ready;
	if (unlikely(num == 0))
		return read_group_first(values, n);
	if (n > num)
		n = num;

	/* Unrolled, last event first: no loop counter in the way. */
	RTE_BUILD_BUG_ON(RTE_MAX_NUM_GROUP_EVENTS != 8);
	switch (n) {
	case 8:
		SNAP_ONE(7);
		/* fall through */
	case 7:
		SNAP_ONE(6);
		/* fall through */
	case 6:
		SNAP_ONE(5);
		/* fall through */
	case 5:
		SNAP_ONE(4);
		/* fall through */
	case 4:
		SNAP_ONE(3);
		/* fall through */
	case 3:
		SNAP_ONE(2);
		/* fall through */
	case 2:
		SNAP_ONE(1);
		/* fall through */
	default:
		SNAP_ONE(0);
	}
	if (unlikely(slow != 0))
		return pmu_read_group_fallback(lc, values, n, slow);

	return n;
}

unsigned int
rte_pmu_lcore_num_events(void)
{
	return __atomic_load_n(&RTE_PER_LCORE(pmu_self)->num_ready, __ATOMIC_ACQUIRE);
}

int
rte_pmu_read_group_delta(const uint64_t *start, uint64_t *delta, unsigned int n)
{
	unsigned int i;
	int ret;

	if (start == NULL || delta == NULL) {
		PMU_LOG(ERR, "read group delta: %s is NULL", start == NULL ? "start" : "delta");
		return -EINVAL;
	}

	ret = rte_pmu_read_group(delta, n);
	/* A multiplexed event's value is an estimate that can go back: 0. */
	for (i = 0; ret > 0 && i < (unsigned int)ret; i++)
		delta[i] = delta[i] > start[i] ? delta[i] - start[i] : 0;

	return ret;
}
