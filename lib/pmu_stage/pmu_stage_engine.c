/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Each lcore's state (allocated at its open or first call, started again
 * for each rte_pmu_init(), calibrated) and the out-of-line stage calls: a
 * call to measure, any call while a measured one is open on the lcore,
 * debug builds, an lcore's first call.
 * Such calls are tracked in frames above frames[0], the lcore's own: a
 * measured begin reads the counters last, its end reads them first, and
 * what the lcore's calibration says measuring cost is taken out where it
 * landed. The same code runs at every depth, so that the calibration's
 * runs cost what real calls cost, within the few instructions by which
 * the program's inline code and the library's differ. Misuse is found
 * here, so on tracked calls only; the first misuse of each kind on an lcore
 * is logged from its datapath call (an error path). The commonest calls,
 * a begin to measure (or inside open frames), a measured end and a
 * boundary whose ending call is measured, each have a path of their own,
 * the same at every depth, with no function call in it but where misuse
 * is found (nothing kept across one): any other goes on to begin_other(),
 * end_other() or next_other().
 */

#include <errno.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_memory.h>

#include "pmu_stage_private.h"

/* Where a thread's stage calls go before its first one: no stage known,
 * so every call goes out of line, which gives the thread its own state.
 */
static struct stage_lcore stage_none = { .pub.pending = stage_zeros, .lcore_id = RTE_MAX_LCORE };

RTE_DEFINE_PER_LCORE(struct __rte_pmu_stage_lcore *, _pmu_stage) = &stage_none.pub;

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

/* Add @p v to figure @p f, which readers load whole while the lcore runs. */
#define FIG_ADD(f, v) __atomic_store_n(&(f), (f) + (v), __ATOMIC_RELAXED)

/* Add the square of @p v to the sum of squares @p f, loaded whole as well. */
static __rte_always_inline void
square_add(double *f, uint64_t v)
{
	double sum = *f + (double)v * (double)v;

	__atomic_store(f, &sum, __ATOMIC_RELAXED);
}

/* A misuse of stage @p id: counted on it, or on the lcore for an id not
 * registered; the first of each kind on the lcore is logged.
 */
static void __rte_cold
misuse(struct stage_lcore *sl, unsigned int id, enum misuse_kind kind)
{
	bool known = id < sl->known, named;

	rte_seqcount_write_begin(&sl->seq);
	if (known)
		FIG_ADD(sl->figs[id].misuse, 1);
	else
		FIG_ADD(sl->lcore_misuse, 1);
	rte_seqcount_write_end(&sl->seq);
	if ((sl->misuse_logged & (1u << kind)) != 0)
		return;
	sl->misuse_logged |= 1u << kind;
	named = known && id < RTE_PMU_MAX_STAGES;
	STAGE_LOG(ERR, "lcore %u, stage %u%s%s%s: %s: not counted (rte_pmu_stage_stats::%s "
		"counts such calls, only the first of each kind is logged)", sl->lcore_id, id,
		named ? " (" : "", named ? stage_reg.names[id] : "", named ? ")" : "",
		misuse_what[kind], known ? "misuse" : "lcore_misuse");
}

/* The lcore's @p n counters (sl->num_events) into @p v, in one pass over
 * their user pages; not 0 where a page could not give its event, or was
 * updated during the pass (a context switch): then the group is read again
 * whole, so that each counter is read at the same point of its pass as at
 * every other read, which the calibration measured.
 */
static __rte_always_inline int
counters_try(struct stage_lcore *sl, unsigned int n, uint64_t *v)
{
	struct perf_event_mmap_page *const *pages = sl->pages;
	unsigned int i;
	int slow = 0;

	for (i = 0; i < n; i++)
		slow |= __rte_pmu_page_read(pages[i], __RTE_PMU_PAGE_GROUP, &v[i]);
	return slow;
}

/* counters() where its pass failed (@p why): where a page changed, more
 * passes; where a page could not give its event, or pages still changed,
 * the whole group through librte_pmu (its pages, each retried alone, and
 * one read() for the events they cannot give); where that fails, the last
 * good values, so that a delta across it is never above the truth.
 */
static __rte_noinline void
counters_slow(struct stage_lcore *sl, uint64_t *v, int why)
{
	unsigned int pass;

	for (pass = 0; why == __RTE_PMU_PAGE_CHANGED && pass < 3; pass++)
		why = counters_try(sl, sl->num_events, v);
	if (why != 0 && rte_pmu_read_group(v, sl->num_events) != (int)sl->num_events)
		memcpy(v, sl->last, sizeof(sl->last));
}

/* The lcore's @p n counters into @p v, each from its page where it can be. */
static __rte_always_inline void
counters(struct stage_lcore *sl, unsigned int n, uint64_t *v)
{
	int why = counters_try(sl, n, v);

	if (unlikely(why != 0))
		counters_slow(sl, v, why);
}

#define COUNTDOWN(w) ((w) & ((UINT64_C(1) << __RTE_PMU_STAGE_PENDING_SHIFT) - 1))
#define ITEMS(items) ((uint64_t)(items) << __RTE_PMU_STAGE_PENDING_SHIFT)

/* A countdown drawn for a period of @p period_m1 + 1: uniform on 0 to
 * 2 @p period_m1 (16 bits at RTE_PMU_STAGE_PERIOD_MAX), so that one call
 * in the period is measured on average, at random: work that repeats in step with the
 * period (a stage called twice a round, sampled 1 in 16) is not aliased,
 * as every period_m1 + 1-th call would be (+50 % or -48 % by the calls
 * before the reset).
 */
static inline uint32_t
countdown_draw(struct stage_lcore *sl, uint32_t period_m1)
{
	uint64_t x = sl->rng;

	RTE_BUILD_BUG_ON(2 * (RTE_PMU_STAGE_PERIOD_MAX - 1) > UINT16_MAX);
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	sl->rng = x;
	return (uint32_t)(((x >> 32) * (2 * (uint64_t)period_m1 + 1)) >> 32);
}

/* The calls of stage @p id on the lcore, folded and pending (low 32 bits):
 * a period set folds them, changing none.
 */
static inline uint32_t
stage_calls(const struct stage_lcore *sl, unsigned int id)
{
	return (uint32_t)(sl->figs[id].calls + sl->start[id] - COUNTDOWN(sl->words[id]));
}

/* Whether stage @p id's call is its one in a period: its countdown is 0. */
static inline bool
due(const struct stage_lcore *sl, unsigned int id)
{
	return COUNTDOWN(sl->words[id]) == 0;
}

/* The periods set since @p sl took them: for each stage whose period
 * changed, the calls pending fold in (a period cut short) and a new period
 * begins. The others keep their countdowns: a stage registered or another
 * stage's period set does not move their measured calls.
 */
static __rte_noinline void
periods_take(struct stage_lcore *sl)
{
	uint64_t *w = sl->words;
	uint32_t period_m1, start;
	unsigned int id;

	if (__atomic_exchange_n(&sl->periods_set, 0, __ATOMIC_SEQ_CST) == 0)
		return;
	/* Gone (rte_pmu_fini(), its thread unregistered): its next call
	 * starts it again, not the countdowns of before.
	 */
	if (__atomic_load_n(&sl->gone, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&sl->pub.pending, stage_zeros, __ATOMIC_SEQ_CST);
		return;
	}
	rte_seqcount_write_begin(&sl->seq);
	for (id = 0; id < sl->known; id++) {
		period_m1 = __atomic_load_n(&stage_reg.period_m1[id], __ATOMIC_RELAXED);
		if (period_m1 == sl->period_m1[id])
			continue;
		/* A countdown 0 now (period 1, or drawn so) where a call begun
		 * inline may be open: its end is a call, not misuse.
		 */
		start = countdown_draw(sl, period_m1);
		if (start == 0 && COUNTDOWN(w[id]) != 0)
			sl->begun_inline[id] = stage_calls(sl, id) + 1;
		if (period_m1 != 0 && sl->period_m1[id] == 0)
			FIG_ADD(sl->figs[id].p1_measured, sl->figs[id].measured -
				sl->figs[id].p1_enter);
		else if (period_m1 == 0 && sl->period_m1[id] != 0)
			__atomic_store_n(&sl->figs[id].p1_enter, sl->figs[id].measured,
				__ATOMIC_RELAXED);
		FIG_ADD(sl->figs[id].calls, sl->start[id] - COUNTDOWN(w[id]));
		FIG_ADD(sl->figs[id].items, w[id] >> __RTE_PMU_STAGE_PENDING_SHIFT);
		__atomic_store_n(&sl->start[id], start, __ATOMIC_RELAXED);
		__atomic_store_n(&w[id], start, __ATOMIC_RELAXED);
		__atomic_store_n(&sl->period_m1[id], period_m1, __ATOMIC_RELAXED);
	}
	rte_seqcount_write_end(&sl->seq);
}

/* Open the inline path of @p sl (no frame open; a debug build keeps it
 * shut), with the periods set last (the ordering: pmu_stage_private.h).
 */
static inline void
words_open(struct stage_lcore *sl)
{
	__atomic_store_n(&sl->pub.pending, STAGE_DEBUG ? stage_zeros : sl->words, __ATOMIC_SEQ_CST);
	if (unlikely(__atomic_load_n(&sl->periods_set, __ATOMIC_SEQ_CST) != 0))
		periods_take(sl);
}

void
stage_periods_changed(void)
{
	struct stage_lcore *sl;
	unsigned int i;

	for (i = 0; i < RTE_MAX_LCORE; i++) {
		sl = __atomic_load_n(&stage_reg.lcores[i], __ATOMIC_ACQUIRE);
		if (sl != NULL) {
			__atomic_store_n(&sl->periods_set, 1, __ATOMIC_SEQ_CST);
			__atomic_store_n(&sl->pub.pending, stage_zeros, __ATOMIC_SEQ_CST);
		}
	}
}

/* @p a - @p b, or 0 where that is below 0. */
static inline uint64_t
minus(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) > 0 ? a - b : 0;
}

/* Begin stage @p id tracked inside the lcore's @p depth open frames
 * (sl->depth), its counters from @p now where it is chained
 * to a measured call (not NULL) and measured itself, else read last.
 * Checks first. A frame's inside and child sums are zero when it begins:
 * its end leaves them so.
 */
static __rte_always_inline void
frame_begin(struct stage_lcore *sl, unsigned int id, const uint64_t *now, bool is_due,
	unsigned int depth)
{
	struct stage_frame *f = &sl->frames[depth + 1];
	const unsigned int n = sl->num_events;
	bool measured;

	/* The same checks at every depth: what they cost lands in a parent
	 * or the stage before a boundary, as in the calibration's shapes.
	 */
	if (unlikely(depth == RTE_PMU_STAGE_DEPTH)) {
		misuse(sl, id, MISUSE_TOO_DEEP);
		return;
	}
	if (unlikely(sl->open[id])) {
		misuse(sl, id, MISUSE_BEGIN_TWICE);
		return;
	}
	sl->open[id] = true;
	/* Measured where due, or nested in a measured call (its self values
	 * need its children's); a stage chained to a measured one only shares
	 * its read where it is due itself.
	 */
	measured = (n != 0) & (is_due | f[-1].measured); /* frames[0]'s: false */
	f->id = id;
	f->due = is_due;
	f->measured = measured;
	f->start_edge = now == NULL ? EDGE_CALL : sl->fold_full ? EDGE_NEXT_FULL : EDGE_NEXT;
	f->nested = false;
	sl->depth = depth + 1;
	/* A boundary (@p now) begins inside a frame, where the inline calls
	 * already go out of line (only words_open() points them elsewhere).
	 */
	if (now == NULL)
		__atomic_store_n(&sl->pub.pending, stage_zeros, __ATOMIC_RELAXED);
	if (!measured)
		return;
	if (now == NULL)
		counters(sl, n, f->start);
	else    /* all of it, a size known (past the events: never read) */
		memcpy(f->start, now, sizeof(f->start));
}

/* End the innermost frame @p f, of stage @p id (f->id) and @p measured
 * (f->measured: the callers have looked), with @p items, the counters then
 * in @p now where it is measured, by rte_pmu_stage_end() or a boundary
 * (@p edge). What it reads of @p f is read once, before the figures are
 * written.
 */
static __rte_always_inline void
frame_end(struct stage_lcore *sl, struct stage_frame *f, unsigned int id, bool measured,
	unsigned int items, const uint64_t *now, unsigned int edge)
{
	const unsigned int n = sl->num_events;
	const struct cal_ev *cal;
	const uint64_t *start = f->start;
	struct frame_ev *fe = f->ev, *pe = f[-1].ev;
	uint64_t *pending = &sl->words[id], pend = *pending, incl, period_m1, t;
	struct stage_sums *sum = &sl->figs[id];
	const bool top = --sl->depth == 0;
	/* Its fold lands in a stage: its parent's, or the next one's, which
	 * shares its read.
	 */
	const bool lands = !top || edge == EDGE_NEXT;
	unsigned int i;
	bool plain;

	sl->open[id] = false;
	/* Not its own call to measure: one call less to it, as inline. */
	if (unlikely(!(f->due | measured))) {
		__atomic_store_n(pending, pend + ITEMS(items) - 1, __ATOMIC_RELAXED);
		/* What measured stages nested in it gave it: left, it would go
		 * to the next frame begun in its place.
		 */
		if (unlikely(f->nested))
			memset(f->ev, 0, sizeof(f->ev));
		return;
	}
	/* Measured for its parent's sake (nested in a measured call, not
	 * due): one call less to it, and the same work as its own call to
	 * measure, into the figures of an id that nothing reads, and what
	 * that costs its parent calibrated apart.
	 * Its stage's estimate is told from its own calls to measure, one in
	 * its period on average (counted with these, the calls in measured
	 * parents weighed more, and each started the countdown again: its
	 * own ones fell on the same calls).
	 */
	__atomic_store_n(pending, f->due ? pend : pend + ITEMS(items) - 1, __ATOMIC_RELAXED);
	id = f->due ? id : STAGE_SINK;
	pending = &sl->words[id];
	pend = *pending;
	sum = &sl->figs[id];
	cal = (f->due ? sl->cal.ev : sl->cal.fev)[f->start_edge][edge];
	/* The calls pending fold in; a new countdown begins. A plain fold
	 * (an outermost call at period 1, nothing measured inside it) is the
	 * least work; where it lands in the next stage, that stage takes out
	 * the calibration's plain chain. Every other fold that lands in a
	 * stage is the same work whatever the period, nesting and depth (a
	 * countdown drawn at period 1 too, the nested path at every depth): its
	 * next stage takes out the calibration's full chain (EDGE_NEXT_FULL),
	 * its parent the nested shape.
	 */
	period_m1 = sl->period_m1[id];
	plain = top & !f->nested & (period_m1 == 0); /* the same work either way */
	sl->fold_full = !plain;
	rte_seqcount_write_begin(&sl->seq);
	FIG_ADD(sum->items, items + (pend >> __RTE_PMU_STAGE_PENDING_SHIFT));
	if (plain) {
		FIG_ADD(sum->calls, 1);
		__atomic_store_n(pending, 0, __ATOMIC_RELAXED);
	} else {
		FIG_ADD(sum->calls, 1 + sl->start[id] - COUNTDOWN(pend));
		__atomic_store_n(&sl->start[id], countdown_draw(sl, period_m1), __ATOMIC_RELAXED);
		__atomic_store_n(pending, sl->start[id], __ATOMIC_RELAXED);
	}
	if (measured) {
		FIG_ADD(sum->measured, 1);
		/* The fold of an outermost frame ended by rte_pmu_stage_end()
		 * lands in no stage: with nothing measured inside it, it has
		 * no nested values to take out, and at period 1 (no spread)
		 * it keeps its values only. Every other fold lands in a stage
		 * and is the same work whatever the frame's period, nesting
		 * and depth: as in the calibration's chain and nested shapes
		 * (a frame folded otherwise there put 20 to 40 instructions a
		 * call in its parent or the next stage).
		 */
		if (plain) {
			for (i = 0; i < n; i++) {
				t = now[i];
				FIG_ADD(sum->ev[i].value, minus(t - start[i], cal[i].own));
				__atomic_store_n(&sl->last[i], t, __ATOMIC_RELAXED);
			}
		} else if (!lands && !f->nested) {
			for (i = 0; i < n; i++) {
				t = now[i];
				incl = minus(t - start[i], cal[i].own);
				FIG_ADD(sum->ev[i].value, incl);
				square_add(&sum->ev[i].squares, incl);
				__atomic_store_n(&sl->last[i], t, __ATOMIC_RELAXED);
			}
		} else {
			for (i = 0; i < n; i++) {
				t = now[i];
				incl = minus(t - start[i], cal[i].own + fe[i].inside);
				FIG_ADD(sum->ev[i].value, incl);
				FIG_ADD(sum->ev[i].children, fe[i].child);
				square_add(&sum->ev[i].squares, minus(incl, fe[i].child));
				/* Into frames[0], the lcore's own, too, which
				 * nothing reads: the same work at every depth.
				 */
				pe[i].child += incl;
				pe[i].inside += fe[i].inside + cal[i].seen;
				fe[i].inside = 0;
				fe[i].child = 0;
				__atomic_store_n(&sl->last[i], t, __ATOMIC_RELAXED);
			}
			f[-1].nested = true;
		}
	}
	rte_seqcount_write_end(&sl->seq);
}

static struct stage_lcore *stage_lcore_sync(struct stage_lcore *sl);

/* self_for() where the lcore's state is not of this epoch or does not know
 * stage @p id (registered since).
 */
static __rte_noinline struct stage_lcore *
self_sync(struct stage_lcore *sl, unsigned int id)
{
	sl = stage_lcore_sync(sl);
	if (sl != NULL && id >= sl->known) {
		misuse(sl, id, MISUSE_UNKNOWN_ID);
		return NULL;
	}
	return sl;
}

/* The calling lcore's state, able to take stage @p id; NULL where the call
 * is not counted.
 */
static __rte_always_inline struct stage_lcore *
self_for(struct __rte_pmu_stage_lcore *pub, unsigned int id)
{
	struct stage_lcore *sl = stage_lcore_of(pub);

	/* rte_pmu_fini() sets known to 0: the sync finds the new epoch. */
	if (unlikely(id >= __atomic_load_n(&sl->known, __ATOMIC_RELAXED)))
		return self_sync(sl, id);
	return sl;
}

/* __rte_pmu_stage_begin_slow() where it is not a begin inside open frames
 * or an outermost call to measure: any call.
 */
static __rte_noinline void
begin_other(struct __rte_pmu_stage_lcore *pub, unsigned int id)
{
	struct stage_lcore *sl = self_for(pub, id);

	if (sl == NULL)
		return;
	/* Untracked: only a call to measure begins a frame. Here with a
	 * countdown not 0, the calls were pointed at the zeros: periods set
	 * (a debug build takes them at each begin).
	 */
	if (sl->depth == 0 && (STAGE_DEBUG || !due(sl, id))) {
		words_open(sl);
		if (!STAGE_DEBUG && !due(sl, id))
			return;
	}
	frame_begin(sl, id, NULL, due(sl, id), sl->depth);
}

void
__rte_pmu_stage_begin_slow(struct __rte_pmu_stage_lcore *pub, unsigned int id)
{
	struct stage_lcore *sl = stage_lcore_of(pub);
	const unsigned int depth = sl->depth;

	/* The common case apart: a begin inside open frames, or an outermost
	 * call to measure.
	 */
	if (!STAGE_DEBUG && id < __atomic_load_n(&sl->known, __ATOMIC_RELAXED) &&
			(depth != 0 || due(sl, id)))
		frame_begin(sl, id, NULL, due(sl, id), depth);
	else
		begin_other(pub, id);
}

/* The common end apart: that of measured call @p id, the innermost one,
 * its counters read from their pages into @p now (first: the checks before
 * are the same at every such end, calibrated). False where the call is not
 * such a one, and nothing done.
 */
static __rte_always_inline bool
measured_end(struct stage_lcore *sl, unsigned int id, unsigned int items, uint64_t *now,
	unsigned int edge)
{
	struct stage_frame *f = &sl->frames[sl->depth];

	if (STAGE_DEBUG || sl->depth == 0 || !f->measured || f->id != id ||
			unlikely(counters_try(sl, sl->num_events, now) != 0))
		return false;
	frame_end(sl, f, id, true, items, now, edge);
	return true;
}
/* __rte_pmu_stage_end_slow() where measured_end() does not end it: any
 * call.
 */
static __rte_noinline void
end_other(struct __rte_pmu_stage_lcore *pub, unsigned int id, unsigned int items)
{
	struct stage_lcore *sl = stage_lcore_of(pub);
	uint64_t now[RTE_MAX_NUM_GROUP_EVENTS];
	struct stage_frame *f = &sl->frames[sl->depth];

	if (sl->depth == 0) {
		sl = self_for(pub, id);
		if (sl == NULL)
			return;
		if (STAGE_DEBUG || due(sl, id)) {
			/* Not misuse where a call begun inline (not measured) ends
			 * after its period became 1: a call, as inline.
			 */
			if (!STAGE_DEBUG && sl->begun_inline[id] == stage_calls(sl, id) + 1) {
				sl->begun_inline[id] = 0;
				rte_seqcount_write_begin(&sl->seq);
				FIG_ADD(sl->figs[id].calls, 1);
				FIG_ADD(sl->figs[id].items, items);
				rte_seqcount_write_end(&sl->seq);
			} else {
				misuse(sl, id, MISUSE_END_NONE);
			}
			return;
		}
		/* As inline, where the calls were pointed at the zeros; this
		 * was the call a period set may have left open.
		 */
		__atomic_store_n(&sl->words[id], sl->words[id] + ITEMS(items) - 1,
			__ATOMIC_RELAXED);
		words_open(sl);
		sl->begun_inline[id] = 0;
		return;
	}
	if (f->measured)
		counters(sl, sl->num_events, now);
	if (f->id != id) {
		misuse(sl, id, MISUSE_END_OTHER);
		return;
	}
	frame_end(sl, f, id, f->measured, items, now, EDGE_CALL);
	if (sl->depth == 0)
		words_open(sl);
}

void
__rte_pmu_stage_end_slow(struct __rte_pmu_stage_lcore *pub, unsigned int id,
	unsigned int items)
{
	struct stage_lcore *sl = stage_lcore_of(pub);
	uint64_t now[RTE_MAX_NUM_GROUP_EVENTS];

	if (!measured_end(sl, id, items, now, EDGE_CALL))
		end_other(pub, id, items);
	else if (sl->depth == 0)
		words_open(sl);
}

/* __rte_pmu_stage_next_slow() where measured_end() does not end its call:
 * any boundary.
 */
static __rte_noinline void
next_other(struct __rte_pmu_stage_lcore *pub, unsigned int end_id, unsigned int items,
	unsigned int begin_id)
{
	struct stage_lcore *sl = stage_lcore_of(pub);
	uint64_t now[RTE_MAX_NUM_GROUP_EVENTS];
	struct stage_frame *f = &sl->frames[sl->depth];

	/* A measured call ends: the stage that begins shares its read. */
	if (sl->depth > 0 && f->id == end_id && f->measured && begin_id < sl->known) {
		counters(sl, sl->num_events, now);
		frame_end(sl, f, end_id, true, items, now, EDGE_NEXT);
		frame_begin(sl, begin_id, now, due(sl, begin_id), sl->depth);
		return;
	}
	__rte_pmu_stage_end_slow(pub, end_id, items);
	rte_pmu_stage_begin(begin_id);
}

void
__rte_pmu_stage_next_slow(struct __rte_pmu_stage_lcore *pub, unsigned int end_id,
	unsigned int items, unsigned int begin_id)
{
	struct stage_lcore *sl = stage_lcore_of(pub);
	uint64_t now[RTE_MAX_NUM_GROUP_EVENTS];

	if (begin_id >= sl->known || !measured_end(sl, end_id, items, now, EDGE_NEXT)) {
		next_other(pub, end_id, items, begin_id);
		return;
	}
	/* Never at depth 0 after it: it begins a frame there (misuse of a
	 * begin is found in open frames only).
	 */
	frame_begin(sl, begin_id, now, due(sl, begin_id), sl->depth);
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

/* Calibration rounds: 31 where the counters are read from their pages; 9
 * where one is read with read() (each run a few system calls), which keeps
 * an lcore's open short and the fault harness's sweep of those calls too.
 */
enum { ROUNDS = 31, ROUNDS_READ = 9, A = RTE_PMU_MAX_STAGES, B, C };

/* The values stage @p id's last measured call added. */
static void
last_call(const struct stage_lcore *sl, unsigned int id, const struct stage_sums *before,
	uint64_t *v)
{
	unsigned int i;

	for (i = 0; i < sl->num_events; i++)
		v[i] = sl->figs[id].ev[i].value - before[id - A].ev[i].value;
}

/* One calibration run of each shape around nothing, through the public
 * calls, as a program makes them: into @p d[shape][event][round].
 */
static void
calibration_round(struct stage_lcore *sl, uint64_t d[][RTE_MAX_NUM_GROUP_EVENTS][ROUNDS],
	unsigned int r)
{
	uint64_t v[STAGE_CAL_IDS][RTE_MAX_NUM_GROUP_EVENTS];
	struct stage_sums before[STAGE_CAL_IDS];
	unsigned int i;

#define SNAP() memcpy(before, &sl->figs[A], sizeof(before))
	SNAP();
	rte_pmu_stage_begin(A);
	rte_pmu_stage_end(A, 0);
	last_call(sl, A, before, v[0]);
	for (i = 0; i < sl->num_events; i++)
		d[0][i][r] = v[0][i];          /* call..call */
	SNAP();
	rte_pmu_stage_begin(A);
	rte_pmu_stage_next(A, 0, B);
	rte_pmu_stage_next(B, 0, C);
	rte_pmu_stage_end(C, 0);
	last_call(sl, A, before, v[0]);
	last_call(sl, B, before, v[1]);
	last_call(sl, C, before, v[2]);
	for (i = 0; i < sl->num_events; i++) {
		d[1][i][r] = v[0][i];          /* call..next */
		d[2][i][r] = v[1][i];          /* next..next */
		d[3][i][r] = v[2][i];          /* next..call */
	}
	SNAP();
	rte_pmu_stage_begin(A);
	rte_pmu_stage_begin(B);
	rte_pmu_stage_end(B, 0);
	rte_pmu_stage_end(A, 0);
	last_call(sl, A, before, v[0]);
	last_call(sl, B, before, v[1]);
	for (i = 0; i < sl->num_events; i++)
		d[4][i][r] = v[0][i] - v[1][i]; /* a measured child, as its parent sees it */
	/* The child not due (its countdown 1, 0 again at its end): measured
	 * for its parent's sake only, as the parent sees it.
	 */
	SNAP();
	__atomic_store_n(&sl->words[B], 1, __ATOMIC_RELAXED); /* not in A's call */
	rte_pmu_stage_begin(A);
	rte_pmu_stage_begin(B);
	rte_pmu_stage_end(B, 0);
	rte_pmu_stage_end(A, 0);
	for (i = 0; i < sl->num_events; i++)
		d[5][i][r] = sl->figs[A].ev[i].value - before[0].ev[i].value -
			(sl->figs[A].ev[i].children - before[0].ev[i].children);
	/* A chain after a full fold: A with a stage measured inside it. */
	SNAP();
	rte_pmu_stage_begin(A);
	rte_pmu_stage_begin(B);
	rte_pmu_stage_end(B, 0);
	rte_pmu_stage_next(A, 0, C);
	rte_pmu_stage_next(C, 0, B);
	rte_pmu_stage_end(B, 0);
	last_call(sl, C, before, v[2]);
	SNAP();
	rte_pmu_stage_begin(A);
	rte_pmu_stage_begin(B);
	rte_pmu_stage_end(B, 0);
	rte_pmu_stage_next(A, 0, C);
	rte_pmu_stage_end(C, 0);
	last_call(sl, C, before, v[1]);
	for (i = 0; i < sl->num_events; i++) {
		d[6][i][r] = v[2][i];          /* full next..next */
		d[7][i][r] = v[1][i];          /* full next..call */
	}
#undef SNAP
}

/* Measure what measuring costs on @p sl: an explicit step of its setup. */
static void
stage_calibrate(struct stage_lcore *sl)
{
	uint64_t d[8][RTE_MAX_NUM_GROUP_EVENTS][ROUNDS];   /* about 16 KiB */
	struct cal_ev (*c)[EDGE_KINDS][RTE_MAX_NUM_GROUP_EVENTS] = sl->cal.ev;
	unsigned int i, r, rounds = ROUNDS;
	uint64_t around;

	RTE_BUILD_BUG_ON(C + 1 != STAGE_IDS);   /* a pending word for each id */
	RTE_BUILD_BUG_ON(STAGE_SINK != C);
	words_copy(&sl->cal, NULL, sizeof(sl->cal)); /* readers load own */
	if (sl->num_events == 0 || sl->depth != 0)
		return;
	/* The three calibration ids, measured at every call. */
	sl->known = STAGE_IDS;
	words_open(sl);
	for (i = 0; i < sl->num_events && rounds == ROUNDS; i++)
		if (__rte_pmu_page_read(sl->pages[i], false, &d[0][0][0]) != 0)
			rounds = ROUNDS_READ;
	for (r = 0; r < rounds; r++)
		calibration_round(sl, d, r);
	for (i = 0; i < sl->num_events; i++) {
		__atomic_store_n(&c[EDGE_CALL][EDGE_CALL][i].own, median(d[0][i], rounds),
			__ATOMIC_RELAXED);
		c[EDGE_CALL][EDGE_NEXT][i].own = median(d[1][i], rounds);
		c[EDGE_NEXT][EDGE_NEXT][i].own = median(d[2][i], rounds);
		c[EDGE_NEXT][EDGE_CALL][i].own = median(d[3][i], rounds);
		c[EDGE_NEXT_FULL][EDGE_NEXT][i].own = median(d[6][i], rounds);
		c[EDGE_NEXT_FULL][EDGE_CALL][i].own = median(d[7][i], rounds);
		around = median(d[4][i], rounds);
		/* The child's begin and end around its reads land in the parent
		 * once per chain: on the frame that rte_pmu_stage_end() closes.
		 */
		c[EDGE_CALL][EDGE_CALL][i].seen = around;
		c[EDGE_NEXT][EDGE_CALL][i].seen = around - c[EDGE_CALL][EDGE_CALL][i].own +
			c[EDGE_NEXT][EDGE_CALL][i].own;
		c[EDGE_NEXT_FULL][EDGE_CALL][i].seen = around - c[EDGE_CALL][EDGE_CALL][i].own +
			c[EDGE_NEXT_FULL][EDGE_CALL][i].own;
		c[EDGE_CALL][EDGE_NEXT][i].seen = c[EDGE_CALL][EDGE_NEXT][i].own;
		c[EDGE_NEXT][EDGE_NEXT][i].seen = c[EDGE_NEXT][EDGE_NEXT][i].own;
		c[EDGE_NEXT_FULL][EDGE_NEXT][i].seen = c[EDGE_NEXT_FULL][EDGE_NEXT][i].own;
	}
	/* Measured for its parent only: the same, but where
	 * rte_pmu_stage_end() ends it, its own bookkeeping.
	 */
	memcpy(sl->cal.fev, c, sizeof(sl->cal.fev));
	for (i = 0; i < sl->num_events; i++) {
		around = median(d[5][i], rounds);
		sl->cal.fev[EDGE_CALL][EDGE_CALL][i].seen = around;
		sl->cal.fev[EDGE_NEXT][EDGE_CALL][i].seen = around -
			c[EDGE_CALL][EDGE_CALL][i].own + c[EDGE_NEXT][EDGE_CALL][i].own;
		sl->cal.fev[EDGE_NEXT_FULL][EDGE_CALL][i].seen = around -
			c[EDGE_CALL][EDGE_CALL][i].own + c[EDGE_NEXT_FULL][EDGE_CALL][i].own;
	}
	sl->known = stage_count();
	words_open(sl);
}

/* The state of the calling lcore @p lcore_id, allocated at its first call
 * (by the lcore: its pages are placed on its node as it touches them).
 */
static struct stage_lcore *
lcore_alloc(unsigned int lcore_id)
{
	struct stage_lcore *sl = __atomic_load_n(&stage_reg.lcores[lcore_id], __ATOMIC_ACQUIRE);
	size_t size = sizeof(*sl) + sizeof(uint64_t) * STAGE_IDS +
		sizeof(struct stage_sums) * (STAGE_IDS + RTE_PMU_MAX_STAGES);
	unsigned int socket = rte_socket_id();

	/* A thread on another node that took the lcore id gets a state of
	 * its own there; the old one is left to readers that may hold it.
	 */
	if (sl != NULL && (sl->socket == socket || socket == (unsigned int)SOCKET_ID_ANY))
		return sl;
	/* Its type's alignment: a frame's is 256. */
	sl = aligned_alloc(alignof(struct stage_lcore),
		RTE_ALIGN_CEIL(size, alignof(struct stage_lcore)));
	if (sl == NULL) {
		STAGE_LOG(ERR, "lcore %u: no memory for its stage state (%zu bytes): its stage "
			"calls are not counted", lcore_id, size);
		return NULL;
	}
	memset(sl, 0, size);
	sl->lcore_id = lcore_id;
	sl->socket = socket;
	__atomic_store_n(&sl->epoch, UINT32_MAX, __ATOMIC_RELEASE);
	sl->figs = (struct stage_sums *)(sl + 1);
	sl->base = sl->figs + STAGE_IDS;
	sl->words = (uint64_t *)(sl->base + RTE_PMU_MAX_STAGES);
	sl->pub.pending = stage_zeros;
	rte_seqcount_init(&sl->seq);
	rte_seqlock_init(&sl->base_lock);
	__atomic_store_n(&stage_reg.lcores[lcore_id], sl, __ATOMIC_RELEASE);
	return sl;
}

/* Start @p sl again for this epoch: nothing counted, its events, its
 * calibration.
 */
static void
lcore_restart(struct stage_lcore *sl, uint32_t epoch)
{
	uint64_t v[RTE_MAX_NUM_GROUP_EVENTS] = { 0 };
	unsigned int i;

	/* Hidden from readers and resets until calibrated (they may hold it
	 * already: the figures and baselines are zeroed in one section of the
	 * baselines' lock, word by word, as they load them).
	 */
	__atomic_store_n(&sl->epoch, UINT32_MAX, __ATOMIC_RELEASE);
	/* Opens the group where it is not: then its events are known. */
	rte_pmu_read_group(v, RTE_MAX_NUM_GROUP_EVENTS);
	__atomic_store_n(&sl->pub.pending, stage_zeros, __ATOMIC_RELAXED);
	rte_seqlock_write_lock(&sl->base_lock);
	rte_seqcount_write_begin(&sl->seq);
	words_copy(sl->figs, NULL, sizeof(*sl->figs) * STAGE_IDS);
	words_copy(sl->words, NULL, sizeof(uint64_t) * STAGE_IDS);
	for (i = 0; i < RTE_DIM(sl->period_m1); i++) {
		__atomic_store_n(&sl->period_m1[i], 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sl->start[i], 0, __ATOMIC_RELAXED);
	}
	/* The same draws on an lcore id, run after run, for the same calls
	 * and period settings.
	 */
	sl->rng = UINT64_C(0x9e3779b97f4a7c15) ^ sl->lcore_id;
	__atomic_store_n(&sl->lcore_misuse, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&sl->base_lcore_misuse, 0, __ATOMIC_RELAXED);
	words_copy(sl->base_total, NULL, sizeof(sl->base_total));
	__atomic_store_n(&sl->num_events, rte_pmu_lcore_num_events(), __ATOMIC_RELAXED);
	sl->pages = RTE_PER_LCORE(_pmu_group)->mmap_pages;
	words_copy(sl->first, v, sizeof(v));
	words_copy(sl->last, v, sizeof(v));
	rte_seqcount_write_end(&sl->seq);
	words_copy(sl->base, NULL, sizeof(*sl->base) * RTE_PMU_MAX_STAGES);
	__atomic_store_n(&sl->restarts, sl->restarts + 1, __ATOMIC_RELEASE);
	rte_seqlock_write_unlock(&sl->base_lock);
	sl->depth = 0;
	memset(sl->frames, 0, sizeof(sl->frames));
	memset(sl->open, 0, sizeof(sl->open));
	memset(sl->begun_inline, 0, sizeof(sl->begun_inline));
	sl->misuse_logged = 0;
	stage_calibrate(sl);
	/* The lcore's whole counts from here; a reset that copied the total
	 * meanwhile (the calibration's reads) sets no baseline from it. No
	 * event: nothing to read (a read of none is refused, and logged).
	 */
	if (sl->num_events != 0)
		rte_pmu_read_group(v, sl->num_events);
	rte_seqlock_write_lock(&sl->base_lock);
	rte_seqcount_write_begin(&sl->seq);
	words_copy(sl->first, v, sizeof(v));
	words_copy(sl->last, v, sizeof(v));
	rte_seqcount_write_end(&sl->seq);
	words_copy(sl->base_total, NULL, sizeof(sl->base_total));
	__atomic_store_n(&sl->base_lcore_misuse, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&sl->restarts, sl->restarts + 1, __ATOMIC_RELEASE);
	rte_seqlock_write_unlock(&sl->base_lock);
	__atomic_store_n(&sl->gone, false, __ATOMIC_RELAXED);
	__atomic_store_n(&sl->epoch, epoch, __ATOMIC_RELEASE);
}

/* The calling thread's state, brought up to date with the registry (its
 * first call, a stage registered since, rte_pmu_fini()): NULL where its
 * calls cannot be counted.
 */
static struct stage_lcore *
stage_lcore_sync(struct stage_lcore *sl)
{
	static uint32_t logged; /* bit 0: not an lcore, bit 1: before rte_pmu_init() */
	unsigned int lcore_id = rte_lcore_id();
	uint32_t epoch = __atomic_load_n(&stage_reg.epoch, __ATOMIC_ACQUIRE);

	if (lcore_id >= RTE_MAX_LCORE) {
		if ((__atomic_fetch_or(&logged, 1, __ATOMIC_RELAXED) & 1) == 0)
			STAGE_LOG(ERR, "stage call from a thread that is not an lcore: not counted "
				"(register the thread with rte_thread_register())");
		return NULL;
	}
	/* Counted from rte_pmu_init() on (a new stage needs no check); said
	 * once before the first (after rte_pmu_fini(), calls count nowhere).
	 */
	if ((sl == &stage_none || __atomic_load_n(&sl->epoch, __ATOMIC_RELAXED) != epoch) &&
			!pmu_ready()) {
		if (!__atomic_load_n(&stage_reg.was_init, __ATOMIC_RELAXED) &&
				(__atomic_fetch_or(&logged, 2, __ATOMIC_RELAXED) & 2) == 0)
			STAGE_LOG(ERR, "stage call before rte_pmu_init(): not counted");
		return NULL;
	}
	if (sl == &stage_none) {
		sl = lcore_alloc(lcore_id);
		if (sl == NULL)
			return NULL;
		RTE_PER_LCORE(_pmu_stage) = &sl->pub;
	}
	/* Started again also where it was started with no event and the
	 * lcore's group has some now (events added after its first call or
	 * open): else none of its calls would ever be measured.
	 */
	if (__atomic_load_n(&sl->epoch, __ATOMIC_RELAXED) != epoch ||
			__atomic_load_n(&sl->gone, __ATOMIC_ACQUIRE) ||
			(sl->depth == 0 && sl->num_events != rte_pmu_lcore_num_events()))
		lcore_restart(sl, epoch);
	/* The periods of the stages it did not know. */
	__atomic_store_n(&sl->known, stage_count(), __ATOMIC_RELAXED);
	__atomic_store_n(&sl->periods_set, 1, __ATOMIC_RELAXED);
	if (sl->depth == 0)
		words_open(sl);
	return sl;
}

/* rte_pmu_lcore_open() on @p lcore_id: its state, synced and calibrated
 * (once an epoch: the events are fixed once a group opened).
 */
int
stage_on_lcore_open(unsigned int lcore_id __rte_unused, void *arg __rte_unused)
{
	struct stage_lcore *sl = stage_lcore_of(RTE_PER_LCORE(_pmu_stage));

	return stage_lcore_sync(sl) != NULL ? 0 : -ENOMEM;
}

/* A registered thread gives its lcore id back: its figures stay for the
 * readers until the id's next thread starts the state again.
 */
void
stage_on_lcore_gone(unsigned int lcore_id, void *arg __rte_unused)
{
	struct stage_lcore *sl;

	if (lcore_id >= RTE_MAX_LCORE)
		return;
	if (lcore_id == rte_lcore_id())
		RTE_PER_LCORE(_pmu_stage) = &stage_none.pub;
	sl = __atomic_load_n(&stage_reg.lcores[lcore_id], __ATOMIC_ACQUIRE);
	if (sl != NULL) {
		__atomic_store_n(&sl->known, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sl->gone, true, __ATOMIC_RELEASE);
		/* As stage_periods_changed(): a measured call open now, ended
		 * later, shuts the inline path again as it ends (periods_take()).
		 */
		__atomic_store_n(&sl->periods_set, 1, __ATOMIC_SEQ_CST);
		__atomic_store_n(&sl->pub.pending, stage_zeros, __ATOMIC_SEQ_CST);
	}
}
