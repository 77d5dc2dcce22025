/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The measured stage calls: they read the counters at a stage's begin and
 * end (raw through the lcore's view, pmu_stage_view.h, or as counter
 * values) and add the counts to the stage's figures. Reached through the
 * pointers of struct __rte_pmu_stage_lcore, which pmu_stage_calls_set()
 * sets for the lcore's number of events and its view's layout.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>

#include "pmu_private.h"
#include "pmu_stage_view.h"

/* Events the user pages could not give (bit i: event i): from one read()
 * of the group, as rte_pmu_read_group() takes them. Where that fails they
 * read as 0 and the read counts as an error (the stage's delta is then
 * wrong for this call, and read_errors says so).
 */
static __rte_noinline void
snap_slow(struct __rte_pmu_stage_lcore *sl, uint64_t *values, uint32_t slow)
{
	struct pmu_lcore *lc = RTE_PER_LCORE(pmu_self);
	unsigned int i;

	if (pmu_read_group_fallback(lc, values, sl->num_events, slow) >= 0)
		return;
	for (i = 0; i < sl->num_events; i++)
		if ((slow & (UINT32_C(1) << i)) != 0)
			values[i] = 0;
	__atomic_fetch_add(&lc->read_errors, 1, __ATOMIC_RELAXED);
}

/* Every event of the lcore as rte_pmu_read() gives it: from the user
 * pages, and those a page cannot give from one read() of the group.
 */
static void
snap(struct __rte_pmu_stage_lcore *sl, uint64_t *v)
{
	struct perf_event_mmap_page *const *pages = sl->pages;
	unsigned int i, n = sl->num_events;
	uint32_t slow = 0;

	for (i = 0; i < n; i++)
		if (unlikely(__rte_pmu_page_read(pages[i], false, &v[i]) != 0))
			slow |= UINT32_C(1) << i;
	if (unlikely(slow != 0))
		snap_slow(sl, v, slow);
}

/* A stage's period, which other threads store atomically: a relaxed
 * atomic load, where ThreadSanitizer watches; else a volatile load of the
 * aligned word, the same single load, whose address GCC 12 builds from the
 * countdown's (it spends two adds on the builtin's).
 */
#ifdef __SANITIZE_THREAD__
#define PERIOD_LOAD(field) __atomic_load_n(&(field), __ATOMIC_RELAXED)
#else
#define PERIOD_LOAD(field) (*(const volatile __typeof__(field) *)&(field))
#endif

/* Open measured frame @p f for @p id; its start is read after. */
static __rte_always_inline void
frame_measured(struct __rte_pmu_stage_lcore *sl, struct __rte_pmu_stage_frame *f,
	unsigned int id)
{
	/* The next measured call a period from this one, the period read now
	 * (rte_pmu_stage_sampling_set() may change it). A call measured
	 * because its parent is starts the count again too.
	 */
	sl->countdown[id] = PERIOD_LOAD(sl->period[id]);
	/* id + the bit: one instruction with id's zero extension (arm64).
	 * No flag: raw, as the reads through the view make it (those through
	 * counter values add __RTE_PMU_STAGE_VALUES), nothing nested yet.
	 */
	f->tag = (uint64_t)id + __RTE_PMU_STAGE_MEASURED;
}

/* Push measured frame @p f: stages begun inside it are measured too. */
static __rte_always_inline void
frame_push(struct __rte_pmu_stage_lcore *sl, struct __rte_pmu_stage_frame *f)
{
	sl->sp = f + 1;
	sl->limit = NULL;
}

/* A store to a stage's figures between the two stores of its sequence
 * count: readers that see the count unchanged and even saw no such store
 * (as DPDK's rte_seqlock data), so a plain store, which the compiler may
 * pair with the next; an atomic one where ThreadSanitizer watches.
 */
#ifdef __SANITIZE_THREAD__
#define SEQ_STORE(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)
#else
#define SEQ_STORE(field, v) ((field) = (v))
#endif

/* End the innermost stage, @p f, a measured call with @p n events that
 * counted @p d: with the calls pending since its last measured call, to
 * its figures; @p d to its parent's children. @p pop (a constant): the
 * frame leaves the stack; else it stays, for the stage that begins there
 * (rte_pmu_stage_next()). @p flat (a constant): the frame's tag has no
 * __RTE_PMU_STAGE_NESTED. Returns whether the parent is measured.
 */
static __rte_always_inline bool
end_account(struct __rte_pmu_stage_lcore *sl, struct __rte_pmu_stage_frame *f,
	unsigned int items, const uint64_t *d, unsigned int n, bool pop, bool flat)
{
	struct __rte_pmu_stage_frame *parent = f - 1;
	uint64_t tag = f->tag;
	unsigned int id = (uint32_t)tag, i;
	struct __rte_pmu_stage_acc *acc = &sl->acc[id];
	uint64_t pending, seq, calls, sum;

	/* The stage's figures through one pointer in a register: the
	 * compiler would otherwise rebuild the address for some of them (the
	 * release store takes no offset).
	 */
	__asm__("" : "+r" (acc));
	pending = sl->pending[id];
	seq = acc->seq;

	/* A sequence count, odd while the figures change: readers see the
	 * figures of one update or of the next. Only this lcore writes them.
	 */
	__RTE_PMU_STAGE_STORE(acc->seq, seq + 1);
	rte_smp_wmb();
	calls = acc->calls + 1;
	sum = acc->items + items;
	/* Calls of a sampled stage since its last measured one. */
	if (pending != 0) {
		calls += pending & ((UINT64_C(1) << __RTE_PMU_STAGE_PENDING_SHIFT) - 1);
		sum += pending >> __RTE_PMU_STAGE_PENDING_SHIFT;
		__RTE_PMU_STAGE_STORE(sl->pending[id], 0);
	}
	SEQ_STORE(acc->calls, calls);
	SEQ_STORE(acc->items, sum);
#pragma GCC unroll 8
	for (i = 0; i < n; i++)
		SEQ_STORE(acc->values[i], acc->values[i] + d[i]);
	if (!flat && unlikely((tag & __RTE_PMU_STAGE_NESTED) != 0)) {
#pragma GCC unroll 8
		for (i = 0; i < n; i++)
			SEQ_STORE(acc->children[i], acc->children[i] + f->child[i]);
	}
	__atomic_store_n(&acc->seq, seq + 2, __ATOMIC_RELEASE);
	if (pop)
		sl->sp = f;
	/* The sentinel's tag has no measured bit. */
	if (likely((parent->tag & __RTE_PMU_STAGE_MEASURED) == 0)) {
		if (pop)
			sl->limit = &sl->frames[RTE_PMU_STAGE_DEPTH + 1];
		return false;
	}
	/* A measured stage's parent is measured: it takes the counts. */
	if ((parent->tag & __RTE_PMU_STAGE_NESTED) == 0) {
		parent->tag |= __RTE_PMU_STAGE_NESTED;
#pragma GCC unroll 8
		for (i = 0; i < n; i++)
			parent->child[i] = 0;
	}
#pragma GCC unroll 8
	for (i = 0; i < n; i++)
		parent->child[i] += d[i];
	return true;
}

static void pmu_stage_calls_set(struct __rte_pmu_stage_lcore *sl, unsigned int n);

/* Drop the view, turning the open frames' raw counters into counter
 * values, build a new one and point the lcore's measured calls at those
 * for its layout: whether calls built for @p layout can read the counters
 * raw again. Calls of another layout read counter values until the frames
 * open now are closed: both ends of a call then read the counters with the
 * same code.
 */
static __rte_noinline bool
view_renew(struct __rte_pmu_stage_lcore *sl, uint32_t layout)
{
	bool built;

	if (sl->view.valid != 0)
		view_drop(sl);
	built = view_build(sl) == 0;
	pmu_stage_calls_set(sl, sl->num_events);
	return built && sl->view.layout == layout;
}

/* Whether stage @p begin_id may begin in frame @p f right away where a
 * measured call just ended: an id in range, not the stage below (that
 * would begin it twice), known to the lcore. Else the caller's begin
 * takes it (misuse, or an id registered since the lcore last synced).
 */
static __rte_always_inline bool
next_may_begin(const struct __rte_pmu_stage_lcore *sl, const struct __rte_pmu_stage_frame *f,
	unsigned int begin_id)
{
	return begin_id < RTE_PMU_MAX_STAGES && (uint32_t)f[-1].tag != begin_id &&
		sl->countdown[begin_id] != 0;
}

/* Begin stage @p begin_id where a measured call just ended, the counters
 * then in @p now (raw when @p raw): measured from them, or not measured.
 * False where it may not begin right away (the caller then begins it as
 * rte_pmu_stage_begin() does).
 */
static __rte_always_inline bool
next_begin(struct __rte_pmu_stage_lcore *sl, unsigned int begin_id, const uint64_t *now,
	uint32_t raw, unsigned int n)
{
	struct __rte_pmu_stage_frame *f = sl->sp;
	uint32_t countdown;
	unsigned int i;

	if (unlikely(!next_may_begin(sl, f, begin_id)))
		return false;
	countdown = sl->countdown[begin_id];
	if (countdown > 1 && sl->limit != NULL) {
		__rte_pmu_stage_push(sl, f, begin_id, countdown);
		return true;
	}
	frame_measured(sl, f, begin_id);
#pragma GCC unroll 8
	for (i = 0; i < n; i++)
		f->start[i] = now[i];
	if (!raw)
		f->tag |= __RTE_PMU_STAGE_VALUES;
	frame_push(sl, f);
	return true;
}

/* Begin stage @p begin_id in frame @p f, whose measured call just ended
 * (end_account() without pop), the counters then in @p now, raw: measured
 * from them, or not measured where it is not due and @p parent_measured is
 * false. False, the frame popped, as next_begin().
 */
static __rte_always_inline bool
next_keep(struct __rte_pmu_stage_lcore *sl, struct __rte_pmu_stage_frame *f,
	unsigned int begin_id, const uint64_t *now, bool parent_measured, unsigned int n)
{
	uint32_t countdown;
	unsigned int i;

	if (unlikely(!next_may_begin(sl, f, begin_id))) {
		/* The frame leaves the stack, as at an end. */
		sl->sp = f;
		if (!parent_measured)
			sl->limit = &sl->frames[RTE_PMU_STAGE_DEPTH + 1];
		return false;
	}
	countdown = sl->countdown[begin_id];
	if (countdown > 1 && !parent_measured) {
		sl->countdown[begin_id] = countdown - 1;
		f->tag = begin_id;
		/* No measured stage open now. */
		sl->limit = &sl->frames[RTE_PMU_STAGE_DEPTH + 1];
		return true;
	}
	/* The stack pointer and the limit stay: a measured frame, innermost. */
	frame_measured(sl, f, begin_id);
#pragma GCC unroll 8
	for (i = 0; i < n; i++)
		f->start[i] = now[i];
	return true;
}

/*
 * Measured calls where the counters cannot be read raw: counter values as
 * rte_pmu_read() gives them, from the pages or one read() of the group.
 */

static __rte_noinline void
begin_values(struct __rte_pmu_stage_lcore *sl, struct __rte_pmu_stage_frame *f)
{
	snap(sl, f->start);
	f->tag |= __RTE_PMU_STAGE_VALUES;
	frame_push(sl, f);
}

/* The end of the innermost frame, whose start holds counter values. */
static __rte_noinline void
end_values(struct __rte_pmu_stage_lcore *sl, unsigned int items, uint64_t *now)
{
	struct __rte_pmu_stage_frame *f = sl->sp - 1;
	uint64_t d[RTE_MAX_NUM_GROUP_EVENTS];
	unsigned int i;

	snap(sl, now);
	for (i = 0; i < sl->num_events; i++)
		d[i] = now[i] - f->start[i];
	end_account(sl, f, items, d, sl->num_events, true, false);
}

/* The measured calls' call sets up no frame pointer where GCC would (arm64):
 * one instruction less around every measured node call of lib/pmu_graph.
 */
#if defined(RTE_ARCH_ARM64) && defined(__GNUC__) && !defined(__clang__)
#define NO_FRAME_POINTER __attribute__((optimize("omit-frame-pointer")))
#else
#define NO_FRAME_POINTER
#endif

/* The measured calls for @p N events (a constant where the count is a
 * common one: the loops over events unroll; @p SIZE the arrays' length):
 * raw counters through the view. Where a page changed since the view was
 * built, the open frames become counter values and the call reads the
 * counters again through a new view, out of line but with the same read
 * code, so that the counters are read as far apart as at the other end of
 * the call (their deltas then match, cycles and instructions under QEMU's
 * -icount for one); where there is no view, counter values.
 */
#define VARIANTS(N, SIZE, SFX, L, UNROLL) \
static __rte_noinline void \
begin_retry_##SFX(struct __rte_pmu_stage_lcore *sl, struct __rte_pmu_stage_frame *f) \
{ \
	if (!view_renew(sl, L) || !snap_raw_valid(sl, f->start, N, L)) { \
		begin_values(sl, f); \
		return; \
	} \
	frame_push(sl, f); \
} \
static __rte_noinline void \
begin_##SFX(struct __rte_pmu_stage_lcore *sl, unsigned int id, \
	struct __rte_pmu_stage_frame *f) \
{ \
	frame_measured(sl, f, id); \
	if (unlikely(!snap_raw_valid(sl, f->start, N, L))) { \
		begin_retry_##SFX(sl, f); \
		return; \
	} \
	frame_push(sl, f); \
} \
/* The end where the view did not hold: through a new view (the open \
 * frames' starts made counter values), else with counter values; @p now \
 * (RTE_MAX_NUM_GROUP_EVENTS long) left with the counters read, raw \
 * (returns 1) or values (0). \
 */ \
static __rte_always_inline uint32_t \
end_retry_into_##SFX(struct __rte_pmu_stage_lcore *sl, unsigned int items, uint64_t *now) \
{ \
	struct __rte_pmu_stage_frame *f = sl->sp - 1; \
	uint64_t d[SIZE] = { 0 }; \
	unsigned int i; \
	if ((f->tag & __RTE_PMU_STAGE_VALUES) != 0 || !view_renew(sl, L) || \
			!snap_raw_valid(sl, now, N, L)) { \
		end_values(sl, items, now); \
		return 0; \
	} \
	UNROLL for (i = 0; i < (N); i++) \
		d[i] = view_value(&sl->view, i, now[i]) - f->start[i]; \
	end_account(sl, f, items, d, N, true, false); \
	return 1; \
} \
static __rte_noinline void \
end_retry_##SFX(struct __rte_pmu_stage_lcore *sl, unsigned int items) \
{ \
	uint64_t now[RTE_MAX_NUM_GROUP_EVENTS] = { 0 }; \
	end_retry_into_##SFX(sl, items, now); \
} \
/* The end of frame @p f through the view, the registers read into \
 * @p now: -1, with nothing changed, where it does not hold or the frame \
 * holds counter values (end_retry_ then); else whether the parent is \
 * measured. @p pop and @p flat as for end_account(); @p flat also: the \
 * frame holds raw counters. \
 */ \
static __rte_always_inline int \
end_raw_##SFX(struct __rte_pmu_stage_lcore *sl, struct __rte_pmu_stage_frame *f, \
	unsigned int items, uint64_t *now, bool pop, bool flat) \
{ \
	uint64_t d[SIZE] = { 0 }; \
	unsigned int i; \
	if (unlikely((!flat && (f->tag & __RTE_PMU_STAGE_VALUES) != 0) || \
			!snap_raw_valid(sl, now, N, L))) \
		return -1; \
	UNROLL for (i = 0; i < (N); i++) \
		d[i] = view_delta(&sl->view, i, now[i], f->start[i]); \
	return end_account(sl, f, items, d, N, pop, flat); \
} \
/* A measured end, of a flat call of raw counters where @p flat. */ \
static __rte_always_inline void \
end_any_##SFX(struct __rte_pmu_stage_lcore *sl, unsigned int items, \
	struct __rte_pmu_stage_frame *f, bool flat) \
{ \
	uint64_t now[SIZE] = { 0 }; \
	if (unlikely(end_raw_##SFX(sl, f, items, now, true, flat) < 0)) \
		end_retry_##SFX(sl, items); \
} \
/* The tag without flags; with them (counter values, nested stages). */ \
static __rte_noinline void \
end_##SFX(struct __rte_pmu_stage_lcore *sl, unsigned int items, struct __rte_pmu_stage_frame *f) \
{ end_any_##SFX(sl, items, f, true); } \
static __rte_noinline void \
end_flagged_##SFX(struct __rte_pmu_stage_lcore *sl, unsigned int items, \
	struct __rte_pmu_stage_frame *f) \
{ end_any_##SFX(sl, items, f, false); } \
static __rte_noinline bool \
next_retry_##SFX(struct __rte_pmu_stage_lcore *sl, unsigned int items, \
	unsigned int begin_id) \
{ \
	uint64_t now[RTE_MAX_NUM_GROUP_EVENTS] = { 0 }; \
	uint32_t raw = end_retry_into_##SFX(sl, items, now); \
	return next_begin(sl, begin_id, now, raw, N); \
} \
static __rte_noinline bool \
next_##SFX(struct __rte_pmu_stage_lcore *sl, unsigned int items, unsigned int begin_id) \
{ \
	struct __rte_pmu_stage_frame *f = sl->sp - 1; \
	uint64_t now[SIZE] = { 0 }; \
	int parent_measured = end_raw_##SFX(sl, f, items, now, false, false); \
	if (unlikely(parent_measured < 0)) \
		return next_retry_##SFX(sl, items, begin_id); \
	return next_keep(sl, f, begin_id, now, parent_measured != 0, N); \
} \
/* The end of a measured call around a function (the measured calls' call) that \
 * returned @p ret, where the view does not hold or the stage's frame is \
 * not the innermost one (the function left one of its own open, or ended \
 * this one: misuse, which the end counts). \
 */ \
static __rte_noinline uint16_t \
call_end_slow_##SFX(struct __rte_pmu_stage_lcore *sl, uint32_t id, uint16_t ret) \
{ \
	struct __rte_pmu_stage_frame *f = sl->sp - 1; \
	if (f->tag == (id | __RTE_PMU_STAGE_MEASURED)) \
		end_retry_##SFX(sl, ret); \
	else if ((f->tag & ~__RTE_PMU_STAGE_FLAGS) == (id | __RTE_PMU_STAGE_MEASURED)) \
		end_flagged_##SFX(sl, ret, f); \
	else if (f->tag == id) \
		__rte_pmu_stage_pop(sl, f, id, ret); \
	else \
		pmu_stage_misuse(sl, PMU_STAGE_MISUSE_END_WITHOUT_BEGIN, id); \
	return ret; \
} \
/* The same, the common case inline: apart from call_, so that call_ has \
 * a frame only around the function's call. @p tag: the measured tag of \
 * the call's stage. \
 */ \
static __rte_noinline uint16_t \
call_end_##SFX(struct __rte_pmu_stage_lcore *sl, uint64_t tag, uint16_t ret) \
{ \
	uint64_t now[SIZE] = { 0 }; \
	if (likely(sl->sp[-1].tag == tag && \
			end_raw_##SFX(sl, sl->sp - 1, ret, now, true, true) >= 0)) \
		return ret; \
	return call_end_slow_##SFX(sl, (uint32_t)tag, ret); \
} \
/* The call whose begin found no view to read raw: the frame, opened by \
 * frame_measured(), read as begin_retry reads it. \
 */ \
static __rte_noinline uint16_t \
call_retry_##SFX(void *a0, void *a1, void **a2, uint16_t a3, \
	struct __rte_pmu_stage_lcore *sl, const struct __rte_pmu_stage_call *c) \
{ \
	uint16_t ret; \
	begin_retry_##SFX(sl, sl->sp); \
	ret = c->fn(a0, a1, a2, a3); \
	return call_end_##SFX(sl, c->id | __RTE_PMU_STAGE_MEASURED, ret); \
} \
static __rte_noinline NO_FRAME_POINTER uint16_t \
call_##SFX(void *a0, void *a1, void **a2, uint16_t a3, \
	struct __rte_pmu_stage_lcore *sl, const struct __rte_pmu_stage_call *c) \
{ \
	struct __rte_pmu_stage_frame *f = sl->sp; \
	/* Kept across the function for its end, rather than the call. */ \
	uint64_t tag = (uint64_t)c->id + __RTE_PMU_STAGE_MEASURED; \
	uint16_t ret; \
	frame_measured(sl, f, c->id); \
	if (unlikely(!snap_raw_valid(sl, f->start, N, L))) \
		return call_retry_##SFX(a0, a1, a2, a3, sl, c); \
	frame_push(sl, f); \
	ret = c->fn(a0, a1, a2, a3); \
	return call_end_##SFX(sl, tag, ret); \
}
/* The measured begin and call of an lcore without a view (the calls above
 * read through the view without checking that there is one): the counters
 * read as begin_retry_ reads them, through a view built now where one can
 * be, else as counter values. Their end and next are those above: frames
 * of counter values take their slow path.
 */
#define NO_VIEW(SFX) \
static __rte_noinline void \
begin_no_view_##SFX(struct __rte_pmu_stage_lcore *sl, unsigned int id, \
	struct __rte_pmu_stage_frame *f) \
{ \
	frame_measured(sl, f, id); \
	begin_retry_##SFX(sl, f); \
} \
static __rte_noinline uint16_t \
call_no_view_##SFX(void *a0, void *a1, void **a2, uint16_t a3, \
	struct __rte_pmu_stage_lcore *sl, const struct __rte_pmu_stage_call *c) \
{ \
	frame_measured(sl, sl->sp, c->id); \
	return call_retry_##SFX(a0, a1, a2, a3, sl, c); \
}
/* The loops over a known count of events, unrolled whole. */
#define UNROLL_ALL _Pragma("GCC unroll 8")
VARIANTS(1, 1, 1, VIEW_INDEXED, UNROLL_ALL)
VARIANTS(2, 2, 2, VIEW_INDEXED, UNROLL_ALL)
VARIANTS(3, 3, 3, VIEW_INDEXED, UNROLL_ALL)
VARIANTS(4, 4, 4, VIEW_INDEXED, UNROLL_ALL)
VARIANTS(sl->num_events, RTE_MAX_NUM_GROUP_EVENTS, any, VIEW_INDEXED, )
NO_VIEW(1)
NO_VIEW(2)
NO_VIEW(3)
NO_VIEW(4)
NO_VIEW(any)
#ifdef __RTE_PMU_HAVE_PMC_DIRECT
/* The usual layouts, each register by its own instruction: the cycle
 * counter first, second or not there.
 */
VARIANTS(1, 1, 1c0, VIEW_CYCLES_0, UNROLL_ALL)
VARIANTS(2, 2, 2c0, VIEW_CYCLES_0, UNROLL_ALL)
VARIANTS(3, 3, 3c0, VIEW_CYCLES_0, UNROLL_ALL)
VARIANTS(4, 4, 4c0, VIEW_CYCLES_0, UNROLL_ALL)
VARIANTS(2, 2, 2c1, VIEW_CYCLES_1, UNROLL_ALL)
VARIANTS(3, 3, 3c1, VIEW_CYCLES_1, UNROLL_ALL)
VARIANTS(4, 4, 4c1, VIEW_CYCLES_1, UNROLL_ALL)
VARIANTS(1, 1, 1e, VIEW_EVENTS, UNROLL_ALL)
VARIANTS(2, 2, 2e, VIEW_EVENTS, UNROLL_ALL)
VARIANTS(3, 3, 3e, VIEW_EVENTS, UNROLL_ALL)
VARIANTS(4, 4, 4e, VIEW_EVENTS, UNROLL_ALL)
#define CALLS_DIRECT(N, C1) CALLS(N##c0), CALLS(C1), CALLS(N##e)
#else
#define CALLS_DIRECT(N, C1) CALLS(N), CALLS(N), CALLS(N)
#endif

/* The column of pmu_stage_calls_set()'s table for an lcore without a
 * view, after the layouts'.
 */
#define CALLS_NO_VIEW (VIEW_EVENTS + 1)

/* Point @p sl's measured calls at those for @p n events (their loops
 * unrolled for 1 to 4; any other count takes the general ones) and its
 * view's layout, or at those for no view. Called wherever the view is
 * built or dropped: the calls for a layout read through the view without
 * checking that it is valid.
 */
static void
pmu_stage_calls_set(struct __rte_pmu_stage_lcore *sl, unsigned int n)
{
#define CALLS(N) { begin_##N, end_##N, next_##N, call_##N, end_flagged_##N }
#define CALLS_NV(N) { begin_no_view_##N, end_##N, next_##N, call_no_view_##N, \
	end_flagged_##N }
	/* By count of events, then by layout (VIEW_INDEXED, VIEW_CYCLES_0,
	 * VIEW_CYCLES_1, VIEW_EVENTS), then no view.
	 */
	static const struct __rte_pmu_stage_measured calls[][CALLS_NO_VIEW + 1] = {
		{ CALLS(any), CALLS(any), CALLS(any), CALLS(any), CALLS_NV(any) },
		{ CALLS(1), CALLS_DIRECT(1, 1), CALLS_NV(1) },
		{ CALLS(2), CALLS_DIRECT(2, 2c1), CALLS_NV(2) },
		{ CALLS(3), CALLS_DIRECT(3, 3c1), CALLS_NV(3) },
		{ CALLS(4), CALLS_DIRECT(4, 4c1), CALLS_NV(4) },
	};
#undef CALLS
#undef CALLS_NV
	unsigned int v = n < RTE_DIM(calls) ? n : 0;
	uint32_t column = sl->view.valid != 0 ? sl->view.layout : CALLS_NO_VIEW;

	sl->measured = calls[v][column];
}

void
pmu_stage_view_reset(struct __rte_pmu_stage_lcore *sl)
{
	sl->view.valid = 0;
	/* Where it fails, the calls read counter values (view.valid 0). */
	view_build(sl);
	pmu_stage_calls_set(sl, sl->num_events);
}
