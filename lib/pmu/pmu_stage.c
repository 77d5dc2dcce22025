/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Stages: registration and sampling, each lcore's stage state (allocated
 * on its NUMA node), the slow paths of begin and end, misuse, and the
 * consistent reads of the figures from any thread. The datapath itself is
 * inline, in rte_pmu_stage.h; its measured calls are in pmu_stage_measure.c.
 */

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <numa.h>
#include <numaif.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "pmu_private.h"
#include "rte_pmu_trace.h"

_Static_assert(__RTE_PMU_STAGE_EVENTS == RTE_MAX_NUM_GROUP_EVENTS,
	"a stage holds a value per event of the group");

/* A stage name: printable, no space, not too long. */
static int
stage_name_check(const char *name)
{
	size_t len, i;

	if (name == NULL) {
		PMU_LOG(ERR, "stage name is NULL");
		return -EINVAL;
	}
	len = strnlen(name, RTE_PMU_STAGE_NAME_MAX);
	if (len == 0 || len == RTE_PMU_STAGE_NAME_MAX) {
		PMU_LOG(ERR, "stage name '%s': 1 to %d characters", pmu_name_printable(name),
			RTE_PMU_STAGE_NAME_MAX - 1);
		return -EINVAL;
	}
	for (i = 0; i < len; i++) {
		if (!isgraph((unsigned char)name[i])) {
			PMU_LOG(ERR, "stage name '%s': only printable characters, no space",
				pmu_name_printable(name));
			return -EINVAL;
		}
	}

	return 0;
}

int
rte_pmu_stage_register(const char *name)
{
	int ret;

	ret = stage_name_check(name);
	if (ret == 0)
		ret = pmu_state_stage_register(name);
	if (ret == -ENODEV)
		PMU_LOG(ERR, "stage %s: rte_pmu_init() not called", pmu_name_printable(name));
	else if (ret == -ENOSPC)
		PMU_LOG(ERR, "stage %s: %d stages already registered", pmu_name_printable(name),
			RTE_PMU_MAX_STAGES);
	rte_pmu_trace_stage_register(name != NULL ? name : "", ret);

	return ret;
}

int
rte_pmu_stage_sampling_set(unsigned int id, unsigned int period)
{
	struct __rte_pmu_stage_lcore *sl;
	unsigned int i;
	int ret;

	if (period == 0 || period > 65536) {
		PMU_LOG(ERR, "stage %u: sampling period %u out of range (1 to 65536)", id,
			period);
		return -EINVAL;
	}
	ret = pmu_state_stage_period_set(id, period);
	if (ret != 0) {
		PMU_LOG(ERR, "stage %u: %s", id, ret == -ENODEV ? "rte_pmu_init() not called" :
			"not registered");
		return ret;
	}
	/* Each lcore takes it at its next measured call. */
	for (i = 0; i < RTE_MAX_LCORE; i++) {
		sl = pmu_state_stage_lcore(i);
		if (sl != NULL)
			__atomic_store_n(&sl->period[id], period, __ATOMIC_RELAXED);
	}

	return 0;
}

int
rte_pmu_stage_info(unsigned int id, char *name, unsigned int *period)
{
	if (name == NULL)
		return -EINVAL;

	return pmu_state_stage_info(id, name, period);
}

int
rte_pmu_stage_count(void)
{
	struct pmu_events_copy *c = malloc(sizeof(*c));
	int ret;

	if (c == NULL)
		return -ENOMEM;
	ret = pmu_state_events(c);
	free(c);

	return ret != 0 ? ret : (int)pmu_state_stage_count();
}

/* The NUMA node whose memory the lcore's stage state should use: EAL's
 * socket for an EAL lcore, the node of the CPU for a registered thread.
 */
static int
stage_node(unsigned int lcore_id)
{
	int cpu;

	if (numa_available() < 0)
		return -1;
	if (rte_lcore_has_role(lcore_id, ROLE_RTE) == 1 ||
			rte_lcore_has_role(lcore_id, ROLE_SERVICE) == 1)
		return (int)rte_lcore_to_socket_id(lcore_id);
	cpu = sched_getcpu();
	return cpu < 0 ? -1 : numa_node_of_cpu(cpu);
}

/* The calling lcore's stage state, allocated on its node (control path). */
static struct __rte_pmu_stage_lcore *
stage_alloc(unsigned int lcore_id)
{
	struct __rte_pmu_stage_lcore *sl;
	int node = stage_node(lcore_id);

	if (node >= 0)
		sl = numa_alloc_onnode(sizeof(*sl), node);
	else
		sl = aligned_alloc(RTE_CACHE_LINE_SIZE,
			RTE_ALIGN_CEIL(sizeof(*sl), RTE_CACHE_LINE_SIZE));
	if (sl == NULL) {
		PMU_LOG(ERR, "lcore %u: no memory for its stage state (%zu bytes, node %d)",
			lcore_id, sizeof(*sl), node);
		return NULL;
	}
	/* Touched here, by the lcore: its pages are placed now. */
	memset(sl, 0, sizeof(*sl));
	pmu_stage_lcore_reset(sl);
	sl->node = node;
	PMU_LOG(DEBUG, "lcore %u: stage state of %zu bytes on node %d", lcore_id, sizeof(*sl),
		node);

	return sl;
}

/* A thread that took an lcore id another thread gave back may run on
 * another node than the one the id's stage state is on: move its pages
 * there (the address stays, so that readers on other threads see nothing).
 */
static void
stage_place(struct __rte_pmu_stage_lcore *sl, unsigned int lcore_id)
{
	enum { PAGES_MAX = 16 };
	void *pages[PAGES_MAX];
	int nodes[PAGES_MAX], status[PAGES_MAX];
	long page = sysconf(_SC_PAGESIZE);
	int node = stage_node(lcore_id);
	unsigned int i, n;

	if (node < 0 || sl->node < 0 || node == sl->node || page <= 0)
		return;
	n = (unsigned int)((sizeof(*sl) + (size_t)page - 1) / (size_t)page);
	if (n > PAGES_MAX) {
		PMU_LOG(WARNING, "lcore %u: stage state of %u pages not moved to node %d",
			lcore_id, n, node);
		return;
	}
	for (i = 0; i < n; i++) {
		pages[i] = (char *)sl + (size_t)i * (size_t)page;
		nodes[i] = node;
	}
	if (numa_move_pages(0, n, pages, nodes, status, MPOL_MF_MOVE) != 0) {
		PMU_LOG(WARNING, "lcore %u: stage state not moved from node %d to node %d: %s",
			lcore_id, sl->node, node, strerror(errno));
		return;
	}
	PMU_LOG(DEBUG, "lcore %u: stage state moved from node %d to node %d", lcore_id,
		sl->node, node);
	sl->node = node;
}

/* Make the stages registered since known to @p sl: safe while stages are
 * open (nothing a frame depends on changes).
 */
static void
stage_sync_ids(struct __rte_pmu_stage_lcore *sl)
{
	unsigned int n = pmu_state_stage_count(), i;

	for (i = sl->num_stages; i < n; i++) {
		__atomic_store_n(&sl->period[i], pmu_state_stage_period(i), __ATOMIC_RELAXED);
		sl->countdown[i] = 1;
	}
	sl->num_stages = n;
}

/* Bring @p sl up to date with the registered stages and the lcore's group
 * (the lcore's own thread, not inside a stage call).
 */
static void
stage_sync(struct __rte_pmu_stage_lcore *sl, unsigned int lcore_id)
{
	stage_sync_ids(sl);
	sl->pages = rte_pmu_event_groups[lcore_id].mmap_pages;
	sl->limit = &sl->frames[RTE_PMU_STAGE_DEPTH + 1];
	/* Read by rte_pmu_stage_stats_get() from other threads. */
	__atomic_store_n(&sl->num_events, __atomic_load_n(&pmu_state_lcore(lcore_id)->num_ready,
		__ATOMIC_ACQUIRE), __ATOMIC_RELAXED);
	/* No stage is open: no frame holds raw counters of an old view. */
	pmu_stage_view_reset(sl);
}

/* The calling thread's stage state, allocated and its group opened on
 * first use; NULL when the thread is not an lcore or out of memory.
 */
static struct __rte_pmu_stage_lcore *
stage_self(int *err)
{
	struct __rte_pmu_stage_lcore *sl;
	unsigned int lcore_id = rte_lcore_id();

	*err = 0;
	if (lcore_id >= RTE_MAX_LCORE) {
		RTE_PER_LCORE(_pmu_stage) = &pmu_stage_none;
		*err = -ESRCH;
		return NULL;
	}
	sl = pmu_state_stage_lcore(lcore_id);
	if (sl == NULL) {
		sl = stage_alloc(lcore_id);
		if (sl == NULL) {
			*err = -ENOMEM;
			return NULL;
		}
		pmu_state_stage_lcore_set(lcore_id, sl);
	} else if (sl->num_stages == 0) {
		/* Reset since its last use: the id may have a new thread. */
		stage_place(sl, lcore_id);
	}
	/* The group first: its events are what stages count. */
	if (__atomic_load_n(&pmu_state_lcore(lcore_id)->num_ready, __ATOMIC_ACQUIRE) == 0)
		*err = pmu_read_prepare(&lcore_id);
	/* With stages open, only the new ids: the group and the view stay. */
	if (sl->sp == &sl->frames[1])
		stage_sync(sl, lcore_id);
	else
		stage_sync_ids(sl);
	RTE_PER_LCORE(_pmu_stage) = sl;

	return sl;
}

void
__rte_pmu_stage_begin_slow(unsigned int id)
{
	struct __rte_pmu_stage_lcore *sl = RTE_PER_LCORE(_pmu_stage);
	struct __rte_pmu_stage_frame *f;
	int err;

	/* Unknown to the lcore: a stage registered since, or its first call. */
	if (unlikely(id >= sl->num_stages)) {
		sl = stage_self(&err);
		if (sl == NULL) {
			pmu_stage_misuse(NULL, PMU_STAGE_MISUSE_NOT_LCORE, id);
			return;
		}
		if (id >= sl->num_stages) {
			pmu_stage_misuse(sl, PMU_STAGE_MISUSE_UNKNOWN_ID, id);
			return;
		}
	}
	f = sl->sp;
	if (f == &sl->frames[RTE_PMU_STAGE_DEPTH + 1])
		pmu_stage_misuse(sl, PMU_STAGE_MISUSE_TOO_DEEP, id);
	else if ((uint32_t)f[-1].tag == id)
		pmu_stage_misuse(sl, PMU_STAGE_MISUSE_BEGIN_TWICE, id);
	else if (sl->countdown[id] <= 1 || sl->limit == NULL)
		sl->measured.begin(sl, id, f);
	else
		__rte_pmu_stage_push(sl, f, id, sl->countdown[id]);
}

void
__rte_pmu_stage_end_slow(unsigned int id, unsigned int items)
{
	struct __rte_pmu_stage_lcore *sl = RTE_PER_LCORE(_pmu_stage);
	struct __rte_pmu_stage_frame *f = sl->sp - 1;
	int err;

	/* A measured call with flags (counter values, nested stages): the
	 * end proper, as soon as possible (the sentinel's tag has more bits).
	 */
	if ((f->tag & ~__RTE_PMU_STAGE_FLAGS) == (id | __RTE_PMU_STAGE_MEASURED)) {
		sl->measured.end_flagged(sl, items, f);
		return;
	}
	sl = stage_self(&err);
	if (sl == NULL) {
		pmu_stage_misuse(NULL, PMU_STAGE_MISUSE_NOT_LCORE, id);
		return;
	}
	f = sl->sp - 1;
	if (f->tag == id)
		__rte_pmu_stage_pop(sl, f, id, items);
	else if (f->tag == (id | __RTE_PMU_STAGE_MEASURED))
		sl->measured.end(sl, items, f);
	else
		pmu_stage_misuse(sl, id < sl->num_stages ? PMU_STAGE_MISUSE_END_WITHOUT_BEGIN : PMU_STAGE_MISUSE_UNKNOWN_ID, id);
}

int
rte_pmu_lcore_open(void)
{
	unsigned int lcore_id;
	int err, ret;

	ret = pmu_read_prepare(&lcore_id);
	if (ret != 0 && ret != -ENODATA)
		return ret;
	if (stage_self(&err) == NULL)
		return err;

	return ret;
}

int
rte_pmu_stage_stats_get(unsigned int lcore_id, unsigned int id,
	struct rte_pmu_stage_stats *stats)
{
	const struct __rte_pmu_stage_acc *acc;
	struct __rte_pmu_stage_lcore *sl;
	char name[RTE_PMU_STAGE_NAME_MAX];
	unsigned int i, n;
	uint64_t pending, seq;
	int ret;

	if (stats == NULL || lcore_id >= RTE_MAX_LCORE) {
		PMU_LOG(ERR, "stage stats: %s", stats == NULL ? "stats is NULL" :
			"lcore id out of range");
		return -EINVAL;
	}
	ret = pmu_state_stage_info(id, name, NULL);
	if (ret != 0)
		return ret;

	memset(stats, 0, sizeof(*stats));
	sl = pmu_state_stage_lcore(lcore_id);
	if (sl == NULL)
		return 0;
	acc = &sl->acc[id];
	n = __atomic_load_n(&sl->num_events, __ATOMIC_RELAXED);
	if (n > RTE_MAX_NUM_GROUP_EVENTS)
		n = RTE_MAX_NUM_GROUP_EVENTS;
	for (;;) {
		seq = __atomic_load_n(&acc->seq, __ATOMIC_ACQUIRE);
		if ((seq & 1) != 0) {
			rte_pause();
			continue;
		}
		pending = __atomic_load_n(&sl->pending[id], __ATOMIC_RELAXED);
		stats->calls = __atomic_load_n(&acc->calls, __ATOMIC_RELAXED) +
			(pending & ((UINT64_C(1) << __RTE_PMU_STAGE_PENDING_SHIFT) - 1));
		stats->items = __atomic_load_n(&acc->items, __ATOMIC_RELAXED) +
			(pending >> __RTE_PMU_STAGE_PENDING_SHIFT);
		stats->measured = seq >> 1;
		for (i = 0; i < n; i++) {
			stats->values[i] = __atomic_load_n(&acc->values[i], __ATOMIC_RELAXED);
			stats->self_values[i] = stats->values[i] -
				__atomic_load_n(&acc->children[i], __ATOMIC_RELAXED);
		}
		rte_smp_rmb();
		if (__atomic_load_n(&acc->seq, __ATOMIC_RELAXED) == seq)
			break;
	}
	stats->num_events = n;
	stats->misuse = __atomic_load_n(&sl->misuse, __ATOMIC_RELAXED);
	/* Sampled: from the measured calls to all calls. */
	for (i = 0; i < n && stats->measured != 0; i++) {
		stats->values[i] = __rte_pmu_scale(stats->values[i], stats->calls,
			stats->measured);
		stats->self_values[i] = __rte_pmu_scale(stats->self_values[i], stats->calls,
			stats->measured);
	}

	return 0;
}
