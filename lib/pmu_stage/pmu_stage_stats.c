/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The figures as readers see them: from any thread, without a lock, each
 * a consistent copy of what the lcore wrote, less the reset's baselines.
 */

#include <errno.h>
#include <math.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include "pmu_stage_private.h"

#define PENDING_CALLS(p) ((p) & ((UINT64_C(1) << __RTE_PMU_STAGE_PENDING_SHIFT) - 1))
#define PENDING_ITEMS(p) ((p) >> __RTE_PMU_STAGE_PENDING_SHIFT)

void
stage_sums_read(const struct stage_lcore *sl, unsigned int id, struct stage_sums *s)
{
	const uint64_t *src = (const uint64_t *)&sl->figs[id];
	uint64_t *dst = (uint64_t *)s, w;
	unsigned int i;
	uint32_t sn, p;

	do {
		sn = rte_seqcount_read_begin(&sl->seq);
		for (i = 0; i < sizeof(*s) / sizeof(uint64_t); i++)
			dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
		/* The calls pending are what its countdown counted down since
		 * it began.
		 */
		w = __atomic_load_n(&sl->words[id], __ATOMIC_RELAXED);
		p = __atomic_load_n(&sl->period_m1[id], __ATOMIC_RELAXED);
		s->pending = w - PENDING_CALLS(w) + __atomic_load_n(&sl->start[id],
			__ATOMIC_RELAXED) - PENDING_CALLS(w);
		/* At period 1 now: its measured calls since the stretch began. */
		if (p == 0)
			s->p1_measured += s->measured - s->p1_enter;
	} while (rte_seqcount_read_retry(&sl->seq, sn));
}

void
stage_total_read(const struct stage_lcore *sl, uint64_t *total, uint64_t *misuse)
{
	unsigned int i;
	uint32_t sn;

	do {
		sn = rte_seqcount_read_begin(&sl->seq);
		*misuse = __atomic_load_n(&sl->lcore_misuse, __ATOMIC_RELAXED);
		for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++)
			total[i] = __atomic_load_n(&sl->last[i], __ATOMIC_RELAXED) -
				__atomic_load_n(&sl->first[i], __ATOMIC_RELAXED);
	} while (rte_seqcount_read_retry(&sl->seq, sn));
}

/* The spread of a figure estimated from @p m of @p n calls whose values
 * add up to @p sum, their squares to @p squares (rte_pmu_stage_stats::spread):
 * the sample's variance, the finite population's correction (0 where every
 * call was measured), over the mean.
 */
static double
spread(uint64_t m, uint64_t n, uint64_t sum, double squares)
{
	double mean, var;

	if (m >= n)
		return 0;
	if (m < 2 || sum == 0)
		return NAN;
	mean = (double)sum / m;
	var = RTE_MAX((squares - mean * sum) / (m - 1), 0.0);
	return sqrt(var / m * (1 - (double)m / n)) / mean;
}

/* Stage @p id's figures, as measured and scaled; true where more than 1
 * in 100 of its calls came since its last measured one: scaled to every
 * call, it may count calls past the lcore's total (which ends at the
 * lcore's last measured call), and the part outside the stages is short.
 */
static bool
raw_fill(const struct stage_lcore *sl, unsigned int id, struct rte_pmu_stage_stats *st)
{
	uint64_t folded, values, children, self, misuse;
	struct stage_sums now, base;
	unsigned int i;
	uint32_t sn;

	memset(st, 0, sizeof(*st));
	if (sl == NULL)
		return false;
	/* The figures and the baseline of one reset: a reset meanwhile (its
	 * baseline newer than the figures) reads them again.
	 */
	do {
		sn = rte_seqlock_read_begin(&sl->base_lock);
		stage_sums_read(sl, id, &now);
		words_copy(&base, &sl->base[id], sizeof(base));
		misuse = __atomic_load_n(&sl->lcore_misuse, __ATOMIC_RELAXED) -
			__atomic_load_n(&sl->base_lcore_misuse, __ATOMIC_RELAXED);
	} while (rte_seqlock_read_retry(&sl->base_lock, sn));
	st->num_events = __atomic_load_n(&sl->num_events, __ATOMIC_RELAXED);
	/* Sampled: the calls folded at measured ones, and those since. */
	folded = now.calls - base.calls;
	st->calls = folded + PENDING_CALLS(now.pending) - PENDING_CALLS(base.pending);
	st->items = now.items + PENDING_ITEMS(now.pending) - base.items -
		PENDING_ITEMS(base.pending);
	st->measured = now.measured - base.measured;
	st->misuse = now.misuse - base.misuse;
	st->lcore_misuse = misuse;
	/* An lcore that did not run the stage since the reset: all zero. */
	if (st->calls == 0 && st->misuse == 0) {
		memset(st, 0, sizeof(*st));
		return false;
	}
	for (i = 0; i < st->num_events; i++) {
		st->overhead[i] = __atomic_load_n(&sl->cal.ev[EDGE_CALL][EDGE_CALL][i].own,
			__ATOMIC_RELAXED);
		st->spread[i] = NAN;
	}
	for (i = 0; i < st->num_events && st->measured != 0; i++) {
		values = now.ev[i].value - base.ev[i].value;
		children = now.ev[i].children - base.ev[i].children;
		self = values > children ? values - children : 0;
		st->measured_values[i] = values;
		st->measured_children[i] = children;
		if (self / st->measured < st->overhead[i])
			st->inexact |= UINT32_C(1) << i;
		/* Scaled to every call (the calls since the last measured one
		 * too: to the calls up to it, a stage of few calls read low,
		 * half its cost a call for 125 calls 1 in 64).
		 */
		st->values[i] = __rte_pmu_scale(values, st->calls, st->measured);
		st->self_values[i] = __rte_pmu_scale(self, st->calls, st->measured);
		/* Measured calls without a square since the reset: no spread. */
		st->spread[i] = now.p1_measured != base.p1_measured && st->measured < st->calls ?
			NAN : spread(st->measured, st->calls, self,
			now.ev[i].squares - base.ev[i].squares);
	}
	/* Too few of its calls measured (none, or one of several: no spread
	 * can be told): no event's figure is exact.
	 */
	if (st->measured < 2 && st->measured < st->calls)
		st->inexact |= (uint32_t)((UINT64_C(1) << st->num_events) - 1);
	return PENDING_CALLS(now.pending) * 100 > st->calls;
}

/* The lcore's total in @p st, and its stages' self values added up in
 * its outside (stage_lcore_fill() takes them out of the total there).
 */
void
stage_lcore_sums(const struct stage_lcore *sl, struct rte_pmu_stage_lcore_stats *st)
{
	uint64_t total[RTE_MAX_NUM_GROUP_EVENTS], misuse;
	struct rte_pmu_stage_stats s;
	unsigned int i, id, n = stage_count();
	uint32_t sn, r;

	/* The stages and the total of one reset: read again where one ran. */
	do {
		memset(st, 0, sizeof(*st));
		if (sl == NULL)
			return;
		r = stage_bases_begin(sl);
		st->num_events = __atomic_load_n(&sl->num_events, __ATOMIC_RELAXED);
		/* The stages first, the total after them: a total read first
		 * would miss the calls the lcore ends meanwhile, and the stages
		 * would seem to add up to more than it.
		 */
		for (id = 0; id < n; id++) {
			if (raw_fill(sl, id, &s))
				st->inexact |= (uint32_t)((UINT64_C(1) << s.num_events) - 1);
			st->measured += s.measured;
			st->misuse += s.misuse;
			st->inexact |= s.inexact;
			for (i = 0; i < st->num_events; i++)
				st->outside[i] += s.self_values[i];
		}
		/* The total and its baseline, as in raw_fill(). */
		do {
			sn = rte_seqlock_read_begin(&sl->base_lock);
			stage_total_read(sl, total, &misuse);
			for (i = 0; i < st->num_events; i++)
				st->total[i] = total[i] -
					__atomic_load_n(&sl->base_total[i], __ATOMIC_RELAXED);
			misuse -= __atomic_load_n(&sl->base_lcore_misuse, __ATOMIC_RELAXED);
		} while (rte_seqlock_read_retry(&sl->base_lock, sn));
		st->misuse += misuse;
	} while (stage_bases_moved(sl, r));
}

/* Measuring disturbs what it measures in time and cycles (caches, the
 * kernel's read()), and sampling multiplies what it disturbs: where an
 * lcore's stages add up to more than its total, each of them is scaled
 * down to it, and marked inexact.
 */
void
stage_stats_fill(const struct stage_lcore *sl, unsigned int id, struct rte_pmu_stage_stats *st,
	const struct rte_pmu_stage_lcore_stats *sums)
{
	struct rte_pmu_stage_lcore_stats ls;
	const uint64_t *stages, *total;
	unsigned int i;
	uint32_t r;

	/* Without @p sums, its figures and the lcore's of one reset. */
	do {
		r = sl != NULL ? stage_bases_begin(sl) : 0;
		raw_fill(sl, id, st);
		if (st->measured == 0)
			return;
		if (sums == NULL)
			stage_lcore_sums(sl, &ls);
	} while (sums == NULL && stage_bases_moved(sl, r));
	if (sums == NULL)
		sums = &ls;
	stages = sums->outside;   /* as stage_lcore_sums() leaves it */
	total = sums->total;
	for (i = 0; i < st->num_events; i++) {
		if (stages[i] <= total[i])
			continue;
		st->values[i] = __rte_pmu_scale(st->values[i], total[i], stages[i]);
		st->self_values[i] = __rte_pmu_scale(st->self_values[i], total[i], stages[i]);
		st->inexact |= UINT32_C(1) << i;
	}
}

void
stage_lcore_fill(const struct stage_lcore *sl, struct rte_pmu_stage_lcore_stats *st)
{
	unsigned int i;

	stage_lcore_sums(sl, st);
	for (i = 0; i < st->num_events; i++) {
		/* Stages above the total are scaled down to it, inexact. */
		if (st->total[i] < st->outside[i])
			st->inexact |= UINT32_C(1) << i;
		st->outside[i] = st->total[i] > st->outside[i] ? st->total[i] - st->outside[i] : 0;
	}
}

void
stage_total_add(struct rte_pmu_stage_stats *total, const struct rte_pmu_stage_stats *s)
{
	unsigned int i;
	double sd;

	total->num_events = RTE_MAX(total->num_events, s->num_events);
	total->calls += s->calls;
	total->items += s->items;
	total->measured += s->measured;
	total->misuse += s->misuse;
	total->lcore_misuse += s->lcore_misuse;
	total->inexact |= s->inexact;
	for (i = 0; i < s->num_events; i++) {
		total->values[i] += s->values[i];
		total->self_values[i] += s->self_values[i];
		total->measured_values[i] += s->measured_values[i];
		total->measured_children[i] += s->measured_children[i];
		total->overhead[i] = RTE_MAX(total->overhead[i], s->overhead[i]);
		/* Standard errors of the lcores' self values, squared. */
		sd = s->spread[i] * s->self_values[i];
		total->spread[i] += sd * sd;
	}
}

void
stage_total_end(struct rte_pmu_stage_stats *total)
{
	unsigned int i;

	/* The lcores' errors added as independent ones: 0 where each is 0. */
	for (i = 0; i < total->num_events; i++)
		if (total->spread[i] != 0)
			total->spread[i] = total->self_values[i] != 0 ?
				sqrt(total->spread[i]) / total->self_values[i] : NAN;
}

void
stage_stats_sum(unsigned int lcore_id, unsigned int id, struct rte_pmu_stage_stats *st,
	const struct rte_pmu_stage_lcore_stats *sums)
{
	struct rte_pmu_stage_stats s;
	unsigned int l;

	if (lcore_id != RTE_PMU_STAGE_ALL_LCORES) {
		stage_stats_fill(stage_lcore_get(lcore_id), id, st,
			sums != NULL ? &sums[lcore_id] : NULL);
		return;
	}
	memset(st, 0, sizeof(*st));
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		stage_stats_fill(stage_lcore_get(l), id, &s, sums != NULL ? &sums[l] : NULL);
		stage_total_add(st, &s);
	}
	stage_total_end(st);
}

unsigned int
stage_events(struct rte_pmu_lcore_info *info)
{
	unsigned int lcore_id;

	for (lcore_id = 0; lcore_id < RTE_MAX_LCORE && pmu_ready(); lcore_id++)
		if (stage_lcore_get(lcore_id) != NULL && rte_pmu_lcore_info_get(lcore_id, info) == 0)
			return RTE_MIN(info->num_events, (unsigned int)RTE_MAX_NUM_GROUP_EVENTS);
	return 0;
}

/* Checks shared by the two readers: 0, or the error, logged. */
static int
reader_check(const char *what, unsigned int lcore_id, const void *stats)
{
	if (stats == NULL || lcore_id >= RTE_MAX_LCORE) {
		STAGE_LOG(ERR, "%s: %s", what, stats == NULL ? "stats is NULL" :
			lcore_id == LCORE_ID_ANY ? "LCORE_ID_ANY: the caller is not an lcore" :
			"lcore id out of range");
		return -EINVAL;
	}
	if (!pmu_ready()) {
		STAGE_LOG(ERR, "%s: rte_pmu_init() not called", what);
		return -ENODEV;
	}
	return 0;
}

int
rte_pmu_stage_stats_get(unsigned int lcore_id, unsigned int id,
	struct rte_pmu_stage_stats *stats)
{
	int ret = reader_check("stage stats",
		lcore_id == RTE_PMU_STAGE_ALL_LCORES ? 0 : lcore_id, stats);

	if (ret != 0)
		return ret;
	if (id >= stage_count()) {
		STAGE_LOG(ERR, "stage stats: stage %u not registered (%u stages)", id,
			stage_count());
		return -EINVAL;
	}
	stage_stats_sum(lcore_id, id, stats, NULL);
	return 0;
}

int
rte_pmu_stage_lcore_stats_get(unsigned int lcore_id, struct rte_pmu_stage_lcore_stats *stats)
{
	const bool all = lcore_id == RTE_PMU_STAGE_ALL_LCORES;
	struct rte_pmu_stage_lcore_stats one;
	unsigned int l, i;
	int ret = reader_check("stage lcore stats", all ? 0 : lcore_id, stats);

	if (ret != 0)
		return ret;
	/* The lcore's, or every lcore's added up (the dump's total block). */
	memset(stats, 0, sizeof(*stats));
	for (l = all ? 0 : lcore_id; l < (all ? RTE_MAX_LCORE : lcore_id + 1); l++) {
		stage_lcore_fill(stage_lcore_get(l), &one);
		stats->num_events = RTE_MAX(stats->num_events, one.num_events);
		for (i = 0; i < one.num_events; i++) {
			stats->total[i] += one.total[i];
			stats->outside[i] += one.outside[i];
		}
		stats->measured += one.measured;
		stats->inexact |= one.inexact;
		stats->misuse += one.misuse;
	}
	return 0;
}
