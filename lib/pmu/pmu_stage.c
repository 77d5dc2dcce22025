/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Stages: registration and sampling, each lcore's stage state (on its
 * NUMA node, growing with the stages registered), the cost of its reads,
 * and the figures read from any thread, with their reset. The inline calls
 * are in rte_pmu_stage.h, the out-of-line ones in pmu_stage_engine.c.
 *
 * Locking: whatever other threads touch of an lcore's state (its arrays,
 * the periods in its slots, the figures read and the reset baselines) is
 * changed and read with the library's lock held (pmu_state_locked()), and
 * nothing under it calls the system or logs: memory is allocated before
 * and freed after.
 */

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <numa.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "pmu_log.h"
#include "pmu_read.h"
#include "pmu_snapshot.h"
#include "pmu_stage.h"
#include "pmu_state.h"
#include "rte_pmu_stage.h"
#include "rte_pmu_trace.h"

/* Where a thread's stage calls go before its first one: no stage known, so
 * every call goes out of line, which points the thread at its own state.
 */
static struct pmu_stage_lcore stage_none = { .lcore_id = RTE_MAX_LCORE, .node = -1 };

RTE_DEFINE_PER_LCORE(struct __rte_pmu_stage_lcore *, _pmu_stage) = &stage_none.pub;

/* Ids of an lcore's arrays come in blocks of this many. */
#define STAGE_BLOCK 64

/* One allocation holds an lcore's slots, figures and baselines. */
struct stage_arrays {
	void *mem;
	size_t size;
	bool numa;    /* from numa_alloc_onnode() */
	unsigned int cap;
};

static size_t
arrays_size(unsigned int cap)
{
	return (size_t)cap * (sizeof(struct __rte_pmu_stage_slot) +
		sizeof(struct pmu_stage_figures) + sizeof(struct pmu_stage_sums));
}

static void
arrays_free(struct stage_arrays *a)
{
	if (a->mem == NULL)
		return;
	if (a->numa)
		numa_free(a->mem, a->size);
	else
		free(a->mem);
	a->mem = NULL;
}

/* Zeroed arrays for @p cap ids on NUMA node @p node (-1: any). */
static int
arrays_alloc(struct stage_arrays *a, unsigned int cap, int node)
{
	a->cap = cap;
	a->size = arrays_size(cap);
	a->numa = node >= 0;
	if (a->numa)
		a->mem = numa_alloc_onnode(a->size, node);
	else
		a->mem = aligned_alloc(RTE_CACHE_LINE_SIZE,
			RTE_ALIGN_CEIL(a->size, RTE_CACHE_LINE_SIZE));
	if (a->mem == NULL)
		return -ENOMEM;
	/* Touched here, by the lcore: its pages are placed now. */
	memset(a->mem, 0, a->size);
	return 0;
}

/* The arrays @p sl uses now, as a struct stage_arrays. */
static struct stage_arrays
arrays_of(const struct pmu_stage_lcore *sl)
{
	struct stage_arrays a = {
		.mem = sl->pub.slots, .size = sl->mem_size, .numa = sl->mem_numa,
		.cap = sl->num_stages,
	};

	return a;
}

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
rte_pmu_stage_register_bulk(const char *const *names, unsigned int n, unsigned int *ids)
{
	unsigned int i, failed = 0;
	int ret = 0;

	if (names == NULL || ids == NULL) {
		PMU_LOG(ERR, "stage register: %s is NULL", names == NULL ? "names" : "ids");
		return -EINVAL;
	}
	for (i = 0; i < n && ret == 0; i++)
		ret = stage_name_check(names[i]);
	if (ret == 0)
		ret = pmu_state_stage_register(names, n, ids, &failed);
	if (ret == -ENODEV)
		PMU_LOG(ERR, "stage %s: rte_pmu_init() not called",
			n > 0 ? pmu_name_printable(names[0]) : "");
	else if (ret == -ENOSPC)
		PMU_LOG(ERR, "stage %s: no room for it (%d stages at most), none of the %u "
			"registered", pmu_name_printable(names[failed]), RTE_PMU_MAX_STAGES, n);
	for (i = 0; i < n; i++)
		rte_pmu_trace_stage_register(names[i] != NULL ? names[i] : "",
			ret == 0 ? (int)ids[i] : ret);

	return ret;
}

int
rte_pmu_stage_register(const char *name)
{
	unsigned int id;
	int ret;

	ret = rte_pmu_stage_register_bulk(&name, 1, &id);
	return ret == 0 ? (int)id : ret;
}

/* The calling thread's lcore state, allocated on first use (NULL: no
 * memory); its node is EAL's socket of an EAL lcore, the node of its CPU
 * for a registered thread.
 */
static struct pmu_stage_lcore *
lcore_state(unsigned int lcore_id)
{
	struct __rte_pmu_stage_lcore *pub = pmu_state_stage_lcore(lcore_id);
	struct pmu_stage_lcore *sl;

	if (pub != NULL)
		return pmu_stage_of(pub);
	sl = aligned_alloc(RTE_CACHE_LINE_SIZE, RTE_ALIGN_CEIL(sizeof(*sl), RTE_CACHE_LINE_SIZE));
	if (sl == NULL) {
		PMU_LOG(ERR, "lcore %u: no memory for its stage state (%zu bytes): its stage "
			"calls are not counted", lcore_id, sizeof(*sl));
		return NULL;
	}
	memset(sl, 0, sizeof(*sl));
	sl->lcore_id = lcore_id;
	sl->node = -1;
	pmu_state_stage_lcore_set(lcore_id, &sl->pub);
	return sl;
}

static int
lcore_node(unsigned int lcore_id)
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

/* What the lcore's sync does under the lock. */
struct sync_op {
	struct pmu_stage_lcore *sl;
	struct stage_arrays grown;   /* in: bigger arrays, or none; out: the old ones */
	struct stage_arrays dropped; /* out: arrays a stale state let go */
	bool initialized;
	unsigned int registered;
};

static void
sync_locked(void *arg)
{
	struct sync_op *op = arg;
	struct pmu_stage_lcore *sl = op->sl;
	struct __rte_pmu_stage_slot *slots;
	struct pmu_stage_figures *figs;
	struct pmu_stage_sums *base;
	struct stage_arrays old;
	unsigned int i, cap;

	op->initialized = pmu_state_initialized_locked();
	/* rte_pmu_fini() or the lcore id given back: start again. */
	if (__atomic_load_n(&sl->pub.stale, __ATOMIC_RELAXED) != 0) {
		op->dropped = arrays_of(sl);
		sl->pub.slots = NULL;
		sl->figs = NULL;
		sl->base = NULL;
		sl->num_stages = 0;
		sl->depth = 0;
		sl->num_events = 0;
		sl->misuse_logged = 0;
		__atomic_store_n(&sl->lcore_misuse, 0, __ATOMIC_RELAXED);
		sl->base_lcore_misuse = 0;
		__atomic_store_n(&sl->pub.stale, 0, __ATOMIC_RELAXED);
	}
	op->registered = op->initialized ? pmu_state_stage_count() : 0;
	cap = op->grown.cap;
	if (op->initialized && op->grown.mem != NULL && cap > sl->num_stages) {
		slots = op->grown.mem;
		figs = (struct pmu_stage_figures *)(slots + cap);
		base = (struct pmu_stage_sums *)(figs + cap);
		if (sl->num_stages != 0) {
			memcpy(slots, sl->pub.slots, sl->num_stages * sizeof(*slots));
			memcpy(figs, sl->figs, sl->num_stages * sizeof(*figs));
			memcpy(base, sl->base, sl->num_stages * sizeof(*base));
		}
		for (i = sl->num_stages; i < cap && i < op->registered; i++)
			slots[i].period_m1 = pmu_state_stage_period_locked(i) - 1;
		old = arrays_of(sl);
		sl->mem_size = op->grown.size;
		sl->mem_numa = op->grown.numa;
		op->grown = old;
		sl->pub.slots = slots;
		sl->figs = figs;
		sl->base = base;
		sl->num_stages = RTE_MIN(cap, op->registered);
	}
	if (!op->initialized || sl->depth == 0)
		__atomic_store_n(&sl->pub.limit, op->initialized ? pmu_stage_limit(sl) : 0,
			__ATOMIC_RELAXED);
}

/* The stage engine's read of the lcore's counters: rte_pmu_read_group()'s
 * loop over the pages, without its argument and open checks (a measured
 * call reads an open group of known size; through rte_pmu_read_group() the
 * guest's measured pair cost 393 instructions, not 341).
 *
 * Events the user pages could not give (bit i: event i): from one read()
 * of the group, as rte_pmu_read_group() takes them. Where that fails they
 * read as 0 and the read counts as an error (read_errors, the first
 * logged), as a failed rte_pmu_read() does.
 */
static __rte_noinline void
read_slow(struct pmu_stage_lcore *sl, uint64_t *v, uint32_t slow)
{
	struct pmu_lcore *lc = pmu_state_lcore(sl->lcore_id);
	unsigned int i;
	int ret;

	ret = pmu_read_group_fallback(lc, v, sl->num_events, slow);
	if (ret >= 0)
		return;
	for (i = 0; i < sl->num_events; i++)
		if ((slow & (UINT32_C(1) << i)) != 0)
			v[i] = 0;
	pmu_read_error(lc, (unsigned int)__builtin_ctz(slow), ret);
}

__rte_noinline void
pmu_stage_read(struct pmu_stage_lcore *sl, uint64_t *v)
{
	struct perf_event_mmap_page *const *pages = sl->pages;
	unsigned int i, n = sl->num_events;
	uint32_t slow = 0;

	for (i = 0; i < n; i++)
		if (unlikely(__rte_pmu_page_read(pages[i], false, &v[i]) != 0))
			slow |= UINT32_C(1) << i;
	if (unlikely(slow != 0))
		read_slow(sl, v, slow);
}

struct pmu_stage_lcore *
pmu_stage_self(int *err)
{
	unsigned int lcore_id = rte_lcore_id(), events, i;
	struct sync_op op = { 0 };
	struct pmu_stage_lcore *sl;
	int ret;

	*err = 0;
	if (lcore_id >= RTE_MAX_LCORE) {
		RTE_PER_LCORE(_pmu_stage) = &stage_none.pub;
		*err = -ESRCH;
		return NULL;
	}
	sl = lcore_state(lcore_id);
	if (sl == NULL) {
		*err = -ENOMEM;
		return NULL;
	}
	RTE_PER_LCORE(_pmu_stage) = &sl->pub;
	/* The group first: its events are what stages count. */
	ret = pmu_read_prepare(&lcore_id);
	if (ret == -ENODEV) {
		*err = ret;
		return NULL;
	}
	/* The node of the thread that has the lcore id now: a stale state
	 * (the id given back) gets its arrays again, there.
	 */
	if (sl->depth == 0 && (sl->node < 0 || __atomic_load_n(&sl->pub.stale,
			__ATOMIC_RELAXED) != 0))
		sl->node = lcore_node(lcore_id);
	op.sl = sl;
	pmu_state_locked(sync_locked, &op);
	arrays_free(&op.dropped);
	if (!op.initialized) {
		*err = -ENODEV;
		return NULL;
	}
	if (op.registered > sl->num_stages) {
		/* Room for every stage registered, in whole blocks. */
		if (arrays_alloc(&op.grown, RTE_ALIGN_CEIL(op.registered, STAGE_BLOCK),
				sl->node) != 0) {
			PMU_LOG(ERR, "lcore %u: no memory for the state of %u stages (%zu bytes, "
				"node %d): its stage calls are not counted", lcore_id, op.registered,
				arrays_size(RTE_ALIGN_CEIL(op.registered, STAGE_BLOCK)), sl->node);
			*err = -ENOMEM;
			return NULL;
		}
		pmu_state_locked(sync_locked, &op);
		arrays_free(&op.grown);
		arrays_free(&op.dropped);
	}
	if (!op.initialized) {
		*err = -ENODEV;
		return NULL;
	}
	/* The group's events, and what reading them costs, outside a call. */
	events = ret == 0 ? pmu_state_lcore_ready(lcore_id) : 0;
	if (sl->depth == 0 && (events != sl->num_events || sl->pages == NULL)) {
		sl->pages = pmu_state_lcore_pages(lcore_id);
		__atomic_store_n(&sl->num_events, events, __ATOMIC_RELAXED);
		/* The engine measures the new reads' cost before its next call. */
		for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++)
			__atomic_store_n(&sl->overhead[i], 0, __ATOMIC_RELAXED);
		sl->calibrated = events == 0;
	}

	return sl;
}

void
pmu_stage_sums_get(const struct pmu_stage_lcore *sl, unsigned int id, struct pmu_stage_sums *s)
{
	const struct pmu_stage_figures *fig = &sl->figs[id];
	const uint64_t *src;
	uint64_t *dst = (uint64_t *)s;
	uint64_t seq, pending;
	unsigned int i;

	for (;;) {
		seq = __atomic_load_n(&fig->seq, __ATOMIC_ACQUIRE);
		if ((seq & 1) != 0) {
			rte_pause();
			continue;
		}
		src = (const uint64_t *)&fig->sums;
		for (i = 0; i < sizeof(*s) / sizeof(uint64_t); i++)
			dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
		pending = __atomic_load_n(&sl->pub.slots[id].pending, __ATOMIC_RELAXED);
		rte_smp_rmb();
		if (__atomic_load_n(&fig->seq, __ATOMIC_RELAXED) == seq)
			break;
	}
	s->calls += pending & ((UINT64_C(1) << __RTE_PMU_STAGE_PENDING_SHIFT) - 1);
	s->items += pending >> __RTE_PMU_STAGE_PENDING_SHIFT;
}

/* What a stats read does under the lock. */
struct stats_op {
	unsigned int lcore_id;
	unsigned int id;
	int ret;
	struct pmu_stage_sums now, base;
	uint64_t overhead[RTE_MAX_NUM_GROUP_EVENTS];
	uint64_t lcore_misuse;
	unsigned int num_events;
};

static void
stats_locked(void *arg)
{
	struct stats_op *op = arg;
	struct __rte_pmu_stage_lcore *pub;
	struct pmu_stage_lcore *sl;
	unsigned int i;

	if (!pmu_state_initialized_locked()) {
		op->ret = -ENODEV;
		return;
	}
	if (op->id >= pmu_state_stage_count()) {
		op->ret = -EINVAL;
		return;
	}
	op->ret = 0;
	pub = pmu_state_stage_lcore(op->lcore_id);
	if (pub == NULL || __atomic_load_n(&pub->stale, __ATOMIC_RELAXED) != 0)
		return;
	sl = pmu_stage_of(pub);
	op->num_events = __atomic_load_n(&sl->num_events, __ATOMIC_RELAXED);
	for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++)
		op->overhead[i] = __atomic_load_n(&sl->overhead[i], __ATOMIC_RELAXED);
	op->lcore_misuse = __atomic_load_n(&sl->lcore_misuse, __ATOMIC_RELAXED) -
		sl->base_lcore_misuse;
	if (op->id >= sl->num_stages)
		return;
	pmu_stage_sums_get(sl, op->id, &op->now);
	op->base = sl->base[op->id];
}

int
rte_pmu_stage_stats_get(unsigned int lcore_id, unsigned int id,
	struct rte_pmu_stage_stats *stats)
{
	struct stats_op op = { .lcore_id = lcore_id, .id = id };
	unsigned int i;

	if (stats == NULL || lcore_id >= RTE_MAX_LCORE) {
		PMU_LOG(ERR, "stage stats: %s", stats == NULL ? "stats is NULL" :
			"lcore id out of range");
		return -EINVAL;
	}
	pmu_state_locked(stats_locked, &op);
	if (op.ret == -ENODEV) {
		PMU_LOG(ERR, "stage stats: rte_pmu_init() not called");
		return op.ret;
	}
	if (op.ret != 0) {
		PMU_LOG(ERR, "stage stats: stage %u not registered (%d stages)", id,
			rte_pmu_stage_count());
		return op.ret;
	}
	memset(stats, 0, sizeof(*stats));
	stats->num_events = RTE_MIN(op.num_events, (unsigned int)RTE_MAX_NUM_GROUP_EVENTS);
	stats->calls = op.now.calls - op.base.calls;
	stats->items = op.now.items - op.base.items;
	stats->measured = op.now.measured - op.base.measured;
	stats->misuse = op.now.misuse - op.base.misuse;
	stats->lcore_misuse = op.lcore_misuse;
	for (i = 0; i < stats->num_events; i++) {
		stats->values[i] = op.now.values[i] - op.base.values[i];
		stats->self_values[i] = stats->values[i] -
			(op.now.children[i] - op.base.children[i]);
		stats->overhead[i] = op.overhead[i];
		/* Sampled: from the measured calls to all calls. */
		if (stats->measured != 0) {
			stats->values[i] = __rte_pmu_scale(stats->values[i], stats->calls,
				stats->measured);
			stats->self_values[i] = __rte_pmu_scale(stats->self_values[i],
				stats->calls, stats->measured);
		}
	}

	return 0;
}

/* The reset under the lock: every lcore's sums now are its new zero. */
static void
reset_locked(void *arg)
{
	struct __rte_pmu_stage_lcore *pub;
	struct pmu_stage_lcore *sl;
	unsigned int lcore_id, id;
	int *ret = arg;

	if (!pmu_state_initialized_locked()) {
		*ret = -ENODEV;
		return;
	}
	for (lcore_id = 0; lcore_id < RTE_MAX_LCORE; lcore_id++) {
		pub = pmu_state_stage_lcore(lcore_id);
		if (pub == NULL || __atomic_load_n(&pub->stale, __ATOMIC_RELAXED) != 0)
			continue;
		sl = pmu_stage_of(pub);
		for (id = 0; id < sl->num_stages; id++)
			pmu_stage_sums_get(sl, id, &sl->base[id]);
		sl->base_lcore_misuse = __atomic_load_n(&sl->lcore_misuse, __ATOMIC_RELAXED);
	}
	*ret = 0;
}

int
rte_pmu_stage_reset(void)
{
	int ret = 0;

	pmu_state_locked(reset_locked, &ret);
	if (ret != 0)
		PMU_LOG(ERR, "stage reset: rte_pmu_init() not called");
	return ret;
}

/* A period set under the lock: in the registry, and in each lcore's slots. */
struct period_op {
	unsigned int id;
	uint32_t period;
	int ret;
};

static void
period_locked(void *arg)
{
	struct period_op *op = arg;
	struct __rte_pmu_stage_lcore *pub;
	struct pmu_stage_lcore *sl;
	unsigned int lcore_id, id;

	op->ret = pmu_state_stage_period_set_locked(op->id, op->period);
	if (op->ret != 0)
		return;
	for (lcore_id = 0; lcore_id < RTE_MAX_LCORE; lcore_id++) {
		pub = pmu_state_stage_lcore(lcore_id);
		if (pub == NULL)
			continue;
		sl = pmu_stage_of(pub);
		for (id = 0; id < sl->num_stages; id++)
			if (op->id == RTE_PMU_STAGE_ALL || op->id == id)
				__atomic_store_n(&pub->slots[id].period_m1, op->period - 1,
					__ATOMIC_RELAXED);
	}
}

int
rte_pmu_stage_sampling_set(unsigned int id, unsigned int period)
{
	struct period_op op = { .id = id, .period = period };

	if (period == 0 || period > 65536) {
		PMU_LOG(ERR, "stage %u: sampling period %u out of range (1 to 65536)", id,
			period);
		return -EINVAL;
	}
	pmu_state_locked(period_locked, &op);
	if (op.ret == -ENODEV)
		PMU_LOG(ERR, "stage sampling: rte_pmu_init() not called");
	else if (op.ret != 0)
		PMU_LOG(ERR, "stage %u: not registered (%d stages)", id, rte_pmu_stage_count());

	return op.ret;
}

int
rte_pmu_stage_info(unsigned int id, char *name, unsigned int *period)
{
	if (name == NULL) {
		PMU_LOG(ERR, "stage info: name is NULL");
		return -EINVAL;
	}

	return pmu_state_stage_info(id, name, period);
}

int
rte_pmu_stage_count(void)
{
	return pmu_state_stage_count_checked();
}
