/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The out-of-line stage calls: where a call is measured, where a measured
 * call is open on the lcore, in debug builds, and the lcore's first call.
 * Such calls are tracked in frames: a measured begin reads the counters
 * last, its end reads them first, and the counts, net of the lcore's read
 * cost, go to the stage's figures under its sequence count. Misuse is
 * detected here, so on tracked calls only.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include "pmu_log.h"
#include "pmu_read.h"
#include "pmu_stage.h"
#include "rte_pmu_stage.h"
#include "rte_pmu_trace.h"

enum misuse_kind {
	MISUSE_UNKNOWN_ID,
	MISUSE_END_NONE,
	MISUSE_END_OTHER,
	MISUSE_BEGIN_TWICE,
	MISUSE_TOO_DEEP,
};

static const char *const misuse_what[] = {
	[MISUSE_UNKNOWN_ID] = "stage id not registered",
	[MISUSE_END_NONE] = "end of a stage with no stage begun",
	[MISUSE_END_OTHER] = "end of a stage that is not the innermost one begun",
	[MISUSE_BEGIN_TWICE] = "begin of a stage already begun",
	[MISUSE_TOO_DEEP] = "stages nested deeper than RTE_PMU_STAGE_DEPTH",
};

/* A stage figure, read by other threads while the lcore writes it. */
#define FIG_STORE(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)

/* Open @p fig's figures for an update: readers wait until it is closed. */
static __rte_always_inline uint64_t
fig_open(struct pmu_stage_figures *fig)
{
	uint64_t seq = fig->seq;

	FIG_STORE(fig->seq, seq + 1);
	rte_smp_wmb();
	return seq;
}

static __rte_always_inline void
fig_close(struct pmu_stage_figures *fig, uint64_t seq)
{
	__atomic_store_n(&fig->seq, seq + 2, __ATOMIC_RELEASE);
}

/* A misuse of stage @p id: counted on it, or on the lcore for an id not
 * registered; the first of each kind on the lcore is logged.
 */
static void __rte_cold
misuse(struct pmu_stage_lcore *sl, unsigned int id, enum misuse_kind kind)
{
	struct pmu_stage_figures *fig;
	uint64_t seq;

	if (id < sl->num_stages) {
		fig = &sl->figs[id];
		seq = fig_open(fig);
		FIG_STORE(fig->sums.misuse, fig->sums.misuse + 1);
		fig_close(fig, seq);
	} else {
		__atomic_store_n(&sl->lcore_misuse, sl->lcore_misuse + 1, __ATOMIC_RELAXED);
	}
	rte_pmu_trace_error(sl->lcore_id, "stage", -EINVAL);
	if ((sl->misuse_logged & (1u << kind)) != 0)
		return;
	sl->misuse_logged |= 1u << kind;
	PMU_LOG(ERR, "lcore %u, stage %u: %s: not counted (rte_pmu_stage_stats::%s counts "
		"such calls, only the first of each kind is logged)", sl->lcore_id, id,
		misuse_what[kind], id < sl->num_stages ? "misuse" : "lcore_misuse");
}

/* The median of @p n values (sorted in place). */
static uint64_t
median(uint64_t *v, unsigned int n)
{
	unsigned int i, j;
	uint64_t t;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[n / 2];
}

/* The id of the calibration's calls: no stage's, so they touch no slot. */
#define CALIBRATION_ID RTE_PMU_MAX_STAGES

/* What a measured call adds to its own counts, per event: the median of
 * 31 measured calls around nothing, made by the calls a program makes,
 * with nothing accounted. Where a stage is open, at a later call.
 */
static void
calibrate(struct pmu_stage_lcore *sl)
{
	enum { ROUNDS = 31 };
	uint64_t d[RTE_MAX_NUM_GROUP_EVENTS][ROUNDS];
	unsigned int i, r;

	if (sl->calibrated || sl->calibrating || sl->depth != 0)
		return;
	if (sl->num_events == 0) {
		/* Nothing read, nothing to subtract. */
		sl->calibrated = true;
		return;
	}
	sl->calibrating = true;
	for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++)
		__atomic_store_n(&sl->overhead[i], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&sl->pub.limit, 0, __ATOMIC_RELAXED);
	for (r = 0; r < ROUNDS; r++) {
		rte_pmu_stage_begin(CALIBRATION_ID);
		rte_pmu_stage_end(CALIBRATION_ID, 0);
		for (i = 0; i < sl->num_events; i++)
			d[i][r] = sl->cal_last[i];
	}
	/* Read by rte_pmu_stage_stats_get() from other threads. */
	for (i = 0; i < sl->num_events; i++)
		__atomic_store_n(&sl->overhead[i], median(d[i], ROUNDS), __ATOMIC_RELAXED);
	sl->calibrating = false;
	sl->calibrated = true;
	__atomic_store_n(&sl->pub.limit, pmu_stage_limit(sl), __ATOMIC_RELAXED);
}

/* self_for() where the thread's state cannot take the call as it is. */
static __rte_noinline __rte_cold struct pmu_stage_lcore *
self_sync(unsigned int id)
{
	static uint32_t not_lcore_logged;
	struct pmu_stage_lcore *sl;
	int err;

	sl = pmu_stage_self(&err);
	if (sl == NULL) {
		if (err == -ESRCH && __atomic_fetch_or(&not_lcore_logged, 1, __ATOMIC_RELAXED) == 0)
			PMU_LOG(ERR, "stage %u: call from a thread that is not an lcore: not "
				"counted (register the thread with rte_thread_register())", id);
		return NULL;
	}
	calibrate(sl);
	if (id >= sl->num_stages) {
		misuse(sl, id, MISUSE_UNKNOWN_ID);
		return NULL;
	}
	return sl;
}

/* The calling thread's state, able to take stage @p id: synced with the
 * library where it is not (its first call, a stage registered since, after
 * rte_pmu_fini()). NULL where the call is not counted.
 */
static __rte_always_inline struct pmu_stage_lcore *
self_for(unsigned int id)
{
	struct pmu_stage_lcore *sl = pmu_stage_of(RTE_PER_LCORE(_pmu_stage));

	if (likely(id < sl->num_stages && sl->calibrated &&
			__atomic_load_n(&sl->pub.stale, __ATOMIC_RELAXED) == 0))
		return sl;
	if (sl->calibrating)
		return sl;
	return self_sync(id);
}

int
rte_pmu_lcore_open(void)
{
	struct pmu_stage_lcore *sl;
	unsigned int lcore_id;
	int err, ret;

	ret = pmu_read_prepare(&lcore_id);
	if (ret != 0 && ret != -ENODATA)
		return ret;
	sl = pmu_stage_self(&err);
	if (sl == NULL)
		return err;
	calibrate(sl);

	return ret;
}

/* An untracked call of stage @p id ended: it waits with the pending ones. */
static __rte_always_inline void
pending_add(struct pmu_stage_lcore *sl, unsigned int id, unsigned int items)
{
	struct __rte_pmu_stage_slot *s = &sl->pub.slots[id];

	__atomic_store_n(&s->pending, s->pending +
		(((uint64_t)items << __RTE_PMU_STAGE_PENDING_SHIFT) | 1), __ATOMIC_RELAXED);
}

/* Add @p calls calls of stage @p id with @p items, and the pending ones,
 * to its figures; one measured call with net counts @p net and its
 * children's @p child where @p net is not NULL.
 */
static __rte_always_inline void
account(struct pmu_stage_lcore *sl, unsigned int id, unsigned int calls, unsigned int items,
	const uint64_t *net, const uint64_t *child)
{
	struct pmu_stage_figures *fig = &sl->figs[id];
	struct __rte_pmu_stage_slot *s = &sl->pub.slots[id];
	struct pmu_stage_sums *sum = &fig->sums;
	uint64_t pending = s->pending, seq;
	unsigned int i, n = sl->num_events;

	seq = fig_open(fig);
	FIG_STORE(sum->calls, sum->calls + calls +
		(pending & ((UINT64_C(1) << __RTE_PMU_STAGE_PENDING_SHIFT) - 1)));
	FIG_STORE(sum->items, sum->items + items + (pending >> __RTE_PMU_STAGE_PENDING_SHIFT));
	FIG_STORE(s->pending, 0);
	if (net != NULL) {
		FIG_STORE(sum->measured, sum->measured + 1);
		for (i = 0; i < n; i++)
			FIG_STORE(sum->values[i], sum->values[i] + net[i]);
		for (i = 0; child != NULL && i < n; i++)
			FIG_STORE(sum->children[i], sum->children[i] + child[i]);
	}
	fig_close(fig, seq);
}

/* Whether stage @p id's call is its one in a period. */
static __rte_always_inline bool
due(const struct pmu_stage_lcore *sl, unsigned int id)
{
	const struct __rte_pmu_stage_slot *s = &sl->pub.slots[id];

	return (uint32_t)(s->pending & 0xffff) >=
		__atomic_load_n(&s->period_m1, __ATOMIC_RELAXED);
}

/* Begin stage @p id tracked, its counters from @p now where not NULL (a
 * chained boundary), else read last. Checks first.
 */
static __rte_always_inline void
frame_begin(struct pmu_stage_lcore *sl, unsigned int id, const uint64_t *now)
{
	struct pmu_stage_frame *f;
	bool measured;
	unsigned int i;

	if (sl->depth == RTE_PMU_STAGE_DEPTH) {
		misuse(sl, id, MISUSE_TOO_DEEP);
		return;
	}
	for (i = 0; i < sl->depth; i++) {
		if (sl->frames[i].id == id) {
			misuse(sl, id, MISUSE_BEGIN_TWICE);
			return;
		}
	}
	/* In a measured call, or this stage's call to measure. */
	measured = sl->num_events != 0 && (sl->calibrating ||
		(sl->depth > 0 && sl->frames[sl->depth - 1].measured) || due(sl, id));
	if (!measured && due(sl, id))
		account(sl, id, 0, 0, NULL, NULL);   /* no event: the pending calls only */
	f = &sl->frames[sl->depth++];
	__atomic_store_n(&sl->pub.limit, 0, __ATOMIC_RELAXED);
	f->id = id;
	f->measured = measured;
	if (!measured)
		return;
	f->nested = false;
	if (now != NULL)
		memcpy(f->start, now, sizeof(f->start));
	else
		pmu_stage_read(sl, f->start);
}

/* End the innermost frame, @p f, stage @p id, with @p items, the counters
 * then in @p now where it is measured. With @p keep the lcore stays
 * tracked (a stage begins at once).
 */
static __rte_always_inline void
frame_end(struct pmu_stage_lcore *sl, struct pmu_stage_frame *f, unsigned int items,
	const uint64_t *now, bool keep)
{
	uint64_t net[RTE_MAX_NUM_GROUP_EVENTS], d;
	struct pmu_stage_frame *parent;
	unsigned int i, n = sl->num_events;

	sl->depth--;
	if (f->measured && sl->calibrating) {
		for (i = 0; i < n; i++)
			sl->cal_last[i] = now[i] - f->start[i];
	} else if (f->measured) {
		/* Net of the lcore's own reads, never below zero. */
		for (i = 0; i < n; i++) {
			d = now[i] - f->start[i];
			net[i] = d > sl->overhead[i] ? d - sl->overhead[i] : 0;
		}
		account(sl, f->id, 1, items, net, f->nested ? f->child : NULL);
		parent = sl->depth > 0 ? &sl->frames[sl->depth - 1] : NULL;
		if (parent != NULL && parent->measured) {
			/* The parent's first measured child starts its sums. */
			if (!parent->nested)
				memset(parent->child, 0, sizeof(parent->child));
			parent->nested = true;
			for (i = 0; i < n; i++)
				parent->child[i] += net[i];
		}
	} else {
		pending_add(sl, f->id, items);
	}
	if (sl->depth == 0 && !keep && !sl->calibrating)
		__atomic_store_n(&sl->pub.limit, pmu_stage_limit(sl), __ATOMIC_RELAXED);
}

void
__rte_pmu_stage_begin_slow(unsigned int id)
{
	struct pmu_stage_lcore *sl = self_for(id);

	if (sl == NULL)
		return;
	if (sl->depth == 0 && !PMU_STAGE_DEBUG) {
		/* Untracked: only a call to measure begins a frame. */
		if (!sl->calibrating && !due(sl, id))
			return;
		if (sl->num_events == 0) {
			/* No event: the pending calls folded in, nothing read. */
			account(sl, id, 0, 0, NULL, NULL);
			return;
		}
	}
	frame_begin(sl, id, NULL);
}

void
__rte_pmu_stage_end_slow(unsigned int id, unsigned int items)
{
	struct pmu_stage_lcore *sl = pmu_stage_of(RTE_PER_LCORE(_pmu_stage));
	uint64_t now[RTE_MAX_NUM_GROUP_EVENTS];
	struct pmu_stage_frame *f;

	if (sl->depth > 0) {
		f = &sl->frames[sl->depth - 1];
		if (f->measured)
			pmu_stage_read(sl, now);
		if (f->id == id)
			frame_end(sl, f, items, now, false);
		else
			misuse(sl, id, MISUSE_END_OTHER);
		return;
	}
	sl = self_for(id);
	if (sl == NULL)
		return;
	if (PMU_STAGE_DEBUG)
		misuse(sl, id, MISUSE_END_NONE);
	else
		pending_add(sl, id, items);
}

void
__rte_pmu_stage_next_slow(unsigned int end_id, unsigned int items, unsigned int begin_id)
{
	struct pmu_stage_lcore *sl = pmu_stage_of(RTE_PER_LCORE(_pmu_stage));
	uint64_t now[RTE_MAX_NUM_GROUP_EVENTS];
	struct pmu_stage_frame *f;

	/* A measured call ends: the stage that begins shares its read. */
	if (sl->depth > 0 && sl->frames[sl->depth - 1].id == end_id &&
			sl->frames[sl->depth - 1].measured && begin_id < sl->num_stages) {
		f = &sl->frames[sl->depth - 1];
		pmu_stage_read(sl, now);
		frame_end(sl, f, items, now, true);
		frame_begin(sl, begin_id, now);
		if (sl->depth == 0)
			__atomic_store_n(&sl->pub.limit, pmu_stage_limit(sl), __ATOMIC_RELAXED);
		return;
	}
	__rte_pmu_stage_end_slow(end_id, items);
	rte_pmu_stage_begin(begin_id);
}
