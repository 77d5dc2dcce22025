/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef RTE_PMU_STAGE_H
#define RTE_PMU_STAGE_H

/**
 * @file
 * RTE PMU stages (librte_pmu_stage): what each stage of a packet pipeline
 * costs, per lcore, in the events added with rte_pmu_add_event(). Built on
 * librte_pmu's public API only. Not in upstream DPDK.
 *
 * A stage is a named region of the datapath (rx, a lookup, tx, a graph
 * node). Each lcore counts, for each stage: calls, items (packets, or any
 * unit the caller passes), measured calls, and for each added event the
 * stage's work, inclusive and self; and for itself, its total over the
 * same time and the part outside every stage.
 *
 * Call order:
 *  1. rte_pmu_init(), rte_pmu_add_event() as usual (an lcore whose first
 *     stage call or rte_pmu_lcore_open() came before the first event counts
 *     calls and items only, until it calls rte_pmu_lcore_open() again,
 *     which starts its figures again);
 *  2. rte_pmu_stage_register() for each stage (control path; at most
 *     RTE_PMU_MAX_STAGES), optionally rte_pmu_stage_sampling_set();
 *  3. on each lcore, rte_pmu_lcore_open() before its loop (it prepares the
 *     lcore's stage state and calibrates it), then rte_pmu_stage_begin() /
 *     rte_pmu_stage_end() around each stage, or rte_pmu_stage_next() where
 *     one stage ends and the next begins;
 *  4. rte_pmu_stage_stats_get(), rte_pmu_stage_lcore_stats_get(),
 *     rte_pmu_stage_dump() and rte_pmu_stage_reset() from any thread;
 *  5. rte_pmu_fini() drops every stage (no lcore may be inside a stage).
 *     Stage calls made after it, until the next rte_pmu_init(), are not
 *     counted anywhere; after that init, a call naming a stage not
 *     registered again is misuse (rte_pmu_stage_stats::lcore_misuse).
 *
 * Thread safety: registration, sampling, stats, dump and reset are
 * thread-safe. Begin, end and next act on the calling lcore only. After
 * rte_pmu_lcore_open() they take no lock, no string and no allocation, and
 * where the counters are read from user space no system call: a reader
 * never makes an lcore wait, nor waits on one while it holds a lock. An
 * lcore that did not call rte_pmu_lcore_open() prepares its state at its
 * first stage call. A registered thread's figures stay on its lcore id
 * after rte_thread_unregister(), until the next thread given that id
 * opens it or makes its first stage call: its figures then start again.
 *
 * What the figures mean. Measuring costs work: the reads of the counters
 * and the bookkeeping around them. The lcore measures that cost once, at
 * rte_pmu_lcore_open() (the median of 31 runs, 9 on the read() path, of each
 * shape: a stage, a boundary of rte_pmu_stage_next() on either side, a
 * measured stage as its parent sees it), and takes it out where it lands:
 * a stage's own reads out of the stage, a nested stage's measuring out of
 * its parent, a boundary's out of the stages on either side. A stage's
 * self value is its own code's work; the self values of an lcore's stages
 * add up to no more than its total; the rest is outside every stage
 * (rte_pmu_stage_lcore_stats).
 *
 * Sampling: with a period of N, one call of a stage in N is measured, on
 * average: the decision is the stage's own, taken at its begin on each
 * lcore, which counts down to its next call to measure from a number
 * drawn at random after each measured call (uniform on 0 to 2N - 2, N - 1
 * on average; N at most RTE_PMU_STAGE_PERIOD_MAX), so that work repeating
 * in step with N (a stage called twice a round) is not aliased. Calls and
 * items count every call; values are summed over measured calls and
 * scaled to every call (those since the last measured one too), an
 * estimate of every call's work.
 * Every stage begun while a measured call is open on the lcore is measured
 * too, so that the measured call's self values stay exact; such a call
 * counts in its own stage's values only where it is that stage's own call
 * to measure, so that a stage called both inside measured calls and
 * outside them is estimated from one call in N of all its calls. A stage
 * chained with rte_pmu_stage_next() to a measured call is measured where
 * it is due itself (and then shares its read).
 *
 * Datapath checks, as DPDK's RTE_ETHDEV_DEBUG_RX: a call that is not
 * measured only counts its call and items (one compare of the id against
 * the lcore's known stages, so an id out of range never writes outside the
 * state). Misuse (an id not registered, an end that is not of the
 * innermost stage begun, an end with no begin of a stage measured at
 * every call, a stage begun twice, nesting deeper than RTE_PMU_STAGE_DEPTH)
 * is detected on measured calls, and on every call where the library was
 * built with -Dstage_debug=true. Misuse is not counted as a call: it is
 * counted on the stage it names (rte_pmu_stage_stats::misuse) or, for an id
 * not registered, on the lcore (rte_pmu_stage_stats::lcore_misuse); the
 * first of each kind on each lcore is logged.
 */

#include <stdint.h>
#include <stdio.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_compat.h>
#include <rte_per_lcore.h>

#include <rte_pmu.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most stages registered at once. */
#define RTE_PMU_MAX_STAGES 1024
/** Deepest nesting of stages on one lcore. */
#define RTE_PMU_STAGE_DEPTH 8
/** Longest stage name, terminating NUL included (lib/graph's node name size). */
#define RTE_PMU_STAGE_NAME_MAX 64
/** The longest sampling period: a countdown drawn on 0 to 2 (N - 1) fits
 *  16 bits (at 65,536 it could not be random: every 65,536th call).
 */
#define RTE_PMU_STAGE_PERIOD_MAX 32768
/** rte_pmu_stage_sampling_set(): every stage, and those registered later. */
#define RTE_PMU_STAGE_ALL UINT32_MAX
/** rte_pmu_stage_stats_get(): the sum over every lcore. Not LCORE_ID_ANY
 *  (UINT32_MAX), which rte_lcore_id() gives a thread that is not an lcore:
 *  that is an lcore id out of range, not every lcore.
 */
#define RTE_PMU_STAGE_ALL_LCORES (UINT32_MAX - 1)
/** The line under a table whose figures are marked '~' (inexact), as
 *  rte_pmu_stage_dump() prints it; for tools that print stage figures.
 */
#define RTE_PMU_STAGE_INEXACT_NOTE "~ not exact: cheaper than the read that measures it, " \
	"too few calls measured, or scaled down to the lcore's total"

/** Bits of a pending word below its items: the stage's countdown. */
#define __RTE_PMU_STAGE_PENDING_SHIFT 16

/** Pending words of an lcore: one per stage, three for the library's
 *  calibration. Internal.
 */
#define __RTE_PMU_STAGE_WORDS (RTE_PMU_MAX_STAGES + 3)

/** What the inline calls read of the calling lcore. Internal. */
struct __rte_pmu_stage_lcore {
	/** Per stage id, in one word that readers load whole: the items of
	 *  the calls not measured since its last measured one << 16 | the
	 *  calls left before its next measured one (0: the next call is
	 *  measured, out of line). Written by the lcore only. The pointer is
	 *  to words of 0 (every call out of line) while a measured call is
	 *  open on the lcore, before its first stage call, after
	 *  rte_pmu_fini() or a period set, and in debug builds: stored by the
	 *  control path too, it is loaded whole.
	 */
	uint64_t *pending;
};

/**
 * The calling thread's stage state; until its first stage call one whose
 * pending words (all 0) send every call out of line. Internal.
 */
RTE_DECLARE_PER_LCORE(struct __rte_pmu_stage_lcore *, _pmu_stage)
	__attribute__((tls_model("initial-exec")));

/** Out-of-line calls (measured, debug, first call, misuse). Internal. */
__rte_experimental
void __rte_pmu_stage_begin_slow(struct __rte_pmu_stage_lcore *sl, unsigned int id);
__rte_experimental
void __rte_pmu_stage_end_slow(struct __rte_pmu_stage_lcore *sl, unsigned int id,
	unsigned int items);
__rte_experimental
void __rte_pmu_stage_next_slow(struct __rte_pmu_stage_lcore *sl, unsigned int end_id,
	unsigned int items, unsigned int begin_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Register a stage, or find one: the same name gives the same id. It
 * takes the default period set with RTE_PMU_STAGE_ALL, if any. Records
 * the trace point lib.pmu.stage.register.
 *
 * Thread-safe; control path.
 *
 * @param name
 *   Stage name, 1 to RTE_PMU_STAGE_NAME_MAX - 1 printable characters
 *   other than a space.
 * @return
 *   Stage id (>= 0, below RTE_PMU_MAX_STAGES), or
 *   -EINVAL NULL, empty, too long, unprintable or with a space;
 *   -ENOSPC RTE_PMU_MAX_STAGES stages already registered;
 *   -ENODEV library not initialised.
 */
__rte_experimental
int
rte_pmu_stage_register(const char *name);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Register several stages at once, all or none: on failure no stage is
 * registered by the call.
 *
 * Thread-safe; control path.
 *
 * @param names
 *   @p n stage names, as rte_pmu_stage_register() takes them.
 * @param n
 *   Number of names.
 * @param ids
 *   Filled with the @p n stage ids on success.
 * @return
 *   0, or as rte_pmu_stage_register() (-EINVAL also for NULL arrays);
 *   the log names the first name that failed.
 */
__rte_experimental
int
rte_pmu_stage_register_bulk(const char *const *names, unsigned int n, unsigned int *ids);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Measure one call of a stage in @p period on every lcore (1, the
 * default: every call). Each lcore takes it at its next stage call, where
 * the stage begins a new period: its calls since its last measured one
 * are counted as calls. Setting the period a stage has already, setting
 * another stage's, or registering a stage leaves its countdown alone.
 *
 * Thread-safe; control path.
 *
 * @param id
 *   Stage id from rte_pmu_stage_register(), or RTE_PMU_STAGE_ALL: every
 *   stage registered, and the period of those registered later.
 * @param period
 *   1 to RTE_PMU_STAGE_PERIOD_MAX (32768).
 * @return
 *   0; -EINVAL @p id not registered or @p period out of range; -ENODEV
 *   library not initialised.
 */
__rte_experimental
int
rte_pmu_stage_sampling_set(unsigned int id, unsigned int period);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Name and sampling period of a stage. Thread-safe.
 *
 * @param id
 *   Stage id.
 * @param name
 *   Filled with the name (RTE_PMU_STAGE_NAME_MAX bytes).
 * @param period
 *   Filled with the sampling period, when not NULL.
 * @return
 *   0; -EINVAL NULL @p name or @p id not registered; -ENODEV library not
 *   initialised.
 */
__rte_experimental
int
rte_pmu_stage_info(unsigned int id, char *name, unsigned int *period);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Number of stages registered (ids are 0 to this minus 1). Thread-safe;
 * it allocates nothing.
 *
 * @return
 *   The number, or -ENODEV library not initialised.
 */
__rte_experimental
int
rte_pmu_stage_count(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * The id of the stage called @p name, without registering it.
 * Thread-safe; control path.
 *
 * @param name
 *   Stage name.
 * @return
 *   The stage id; -EINVAL NULL @p name; -ENOENT no stage of that name;
 *   -ENODEV library not initialised.
 */
__rte_experimental
int
rte_pmu_stage_lookup(const char *name);

/** A stage's figures on one lcore (since rte_pmu_stage_reset()). */
struct rte_pmu_stage_stats {
	uint64_t calls;     /**< calls ended */
	uint64_t items;     /**< items passed to those calls */
	uint64_t measured;  /**< the stage's own calls measured (0 with no event) */
	/** Per event (rte_pmu_add_event() index): the stage's own work and
	 *  that of the stages nested in it, the cost of measuring (its reads,
	 *  its children's and its boundaries') taken out; summed over the
	 *  measured calls and scaled to every call (calls / measured).
	 */
	uint64_t values[RTE_MAX_NUM_GROUP_EVENTS];
	/** The same, with the stages nested in it left out: what the stage's
	 *  own code cost. The self values of an lcore's stages add up to no
	 *  more than its total (rte_pmu_stage_lcore_stats_get()).
	 */
	uint64_t self_values[RTE_MAX_NUM_GROUP_EVENTS];
	/** Per event: what a measured call's own reads cost, taken out of
	 *  each measured call (the lcore's calibration).
	 */
	uint64_t overhead[RTE_MAX_NUM_GROUP_EVENTS];
	unsigned int num_events; /**< entries of values in use */
	/** Bit i: the figures of event i are not exact: the stage's self value
	 *  per measured call is below overhead[i] (a read() of the counters,
	 *  as on a VM, costs more than such a stage's work), too few of its
	 *  calls were measured (none, or one of several: no spread can be
	 *  told), or the lcore's stages were scaled down to its total. An event the kernel multiplexed
	 *  (rte_pmu_event_info::multiplexed) is not marked: its counts are
	 *  estimates, and a multiplexed read costs more than the calibrated one.
	 */
	uint32_t inexact;
	uint64_t misuse;    /**< misuse of this stage on the lcore: not calls */
	uint64_t lcore_misuse; /**< calls on the lcore naming no registered stage */
	/** Per event: the spread of self_values[i] where it is an estimate
	 *  (sampled): the standard error of its mean per call over that mean
	 *  (0.02 is perf stat's "+- 2%"), from the measured calls' self values
	 *  taken as a random sample of the calls. 0 where every call was
	 *  measured (the figure is not an estimate), NAN where it cannot be
	 *  told (fewer than 2 measured calls, a mean of 0, or calls measured
	 *  at period 1 since the reset, which keep no square, beside calls
	 *  not measured: the call that takes a new period is measured at its
	 *  old one). Only the first num_events entries are set.
	 */
	double spread[RTE_MAX_NUM_GROUP_EVENTS];
	/** Per event: values[i] as measured, summed over the measured calls
	 *  only, neither scaled to every call nor down to the lcore's total;
	 *  and the values of the stages nested in those calls, which
	 *  self_values[i] leaves out. Unlike the estimates, they never go down
	 *  between two resets (rte_pmu_stage_reset()): over an interval, a
	 *  consumer takes their differences, the self value as the first's
	 *  less the second's (at least 0), and scales them by the interval's
	 *  calls over its measured calls (Prometheus counters, dpdk-pmu-top).
	 */
	uint64_t measured_values[RTE_MAX_NUM_GROUP_EVENTS];
	uint64_t measured_children[RTE_MAX_NUM_GROUP_EVENTS];
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * A consistent snapshot of a stage's figures on an lcore, from any
 * thread, while the lcore runs: never a mix of two updates, nor of before
 * and after a reset.
 *
 * Thread-safe; control path. Takes no lock: it reads the lcore's figures
 * again where the lcore changed them meanwhile.
 *
 * With RTE_PMU_STAGE_ALL_LCORES, the sum over every lcore, as the
 * dump's total prints it: calls, items and values added up, inexact
 * where any lcore's figure is, num_events and overhead the largest of the
 * lcores', and the spread of the sum from the lcores' spreads.
 *
 * @param lcore_id
 *   An lcore id, or RTE_PMU_STAGE_ALL_LCORES.
 * @param id
 *   Stage id.
 * @param stats
 *   Filled on success; all zero for an lcore that never ran the stage.
 * @return
 *   0; -EINVAL NULL @p stats, @p lcore_id out of range or @p id not
 *   registered (logged); -ENODEV library not initialised.
 */
__rte_experimental
int
rte_pmu_stage_stats_get(unsigned int lcore_id, unsigned int id,
	struct rte_pmu_stage_stats *stats);

/** An lcore's whole, beside its stages (since rte_pmu_stage_reset()). */
struct rte_pmu_stage_lcore_stats {
	/** Per event: counted on the lcore from its first stage read (at
	 *  rte_pmu_lcore_open()) to its last measured call. After
	 *  rte_pmu_stage_reset(), from the lcore's last measured call before
	 *  it (the lcore writes nothing for a reset): time the lcore spent
	 *  with no measured call before the reset is in total and outside.
	 */
	uint64_t total[RTE_MAX_NUM_GROUP_EVENTS];
	/** Per event: the part of total in no stage (total less every stage's
	 *  self value, never below 0): the loop around the stages, and the
	 *  cost of measuring them. 0, and marked in inexact, where the stages
	 *  were scaled down to the total: each scaled value is rounded down,
	 *  so that they then add up to the total less a few units (less than
	 *  one a stage).
	 */
	uint64_t outside[RTE_MAX_NUM_GROUP_EVENTS];
	unsigned int num_events; /**< entries in use */
	uint64_t measured;  /**< its stages' own measured calls, added up */
	/** Bit i: outside[i] is not exact, as a stage's self value of event i
	 *  is not (rte_pmu_stage_stats::inexact), or more than 1 in 100 of a
	 *  stage's calls came after its last measured one: scaled to every
	 *  call, its figures may count calls past the total, which ends at
	 *  the lcore's last measured call, and outside[i] reads short.
	 */
	uint32_t inexact;
	/** Calls on the lcore that were misuse, not counted: its stages'
	 *  (rte_pmu_stage_stats::misuse) and those naming no registered stage
	 *  (rte_pmu_stage_stats::lcore_misuse).
	 */
	uint64_t misuse;
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * An lcore's total and the part of it outside every stage, as VPP prints
 * each thread's totals beside its nodes.
 *
 * Thread-safe; control path; takes no lock.
 *
 * @param lcore_id
 *   An lcore id, or RTE_PMU_STAGE_ALL_LCORES for every lcore's added up.
 * @param stats
 *   Filled on success; all zero for an lcore that ran no stage.
 * @return
 *   0; -EINVAL NULL @p stats or @p lcore_id out of range; -ENODEV library
 *   not initialised.
 */
__rte_experimental
int
rte_pmu_stage_lcore_stats_get(unsigned int lcore_id, struct rte_pmu_stage_lcore_stats *stats);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Zero every stage's figures on every lcore, while the lcores run (as
 * VPP's "clear runtime"): later snapshots count from now. Lcores write
 * nothing for it: the figures at the reset are kept and subtracted.
 *
 * Thread-safe; control path.
 *
 * @return
 *   0, or -ENODEV library not initialised.
 */
__rte_experimental
int
rte_pmu_stage_reset(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Print every stage's figures per lcore and in total, as VPP's "show
 * runtime" lays them out: Calls, Items, Items/Call, each event's self
 * value per item and per call, and IPC where cycles and instructions are
 * both counted; per lcore, its total and the part outside every stage.
 * A figure that is not exact (rte_pmu_stage_stats::inexact) is marked '~',
 * and a line under the tables says what the mark means.
 * Stages with no call are left out. It allocates nothing.
 *
 * Thread-safe; control path.
 *
 * @param f
 *   Where to print.
 * @return
 *   0; -EINVAL NULL @p f; -ENODEV library not initialised; -EIO a
 *   write failed.
 */
__rte_experimental
int
rte_pmu_stage_dump(FILE *f);

/* The inline calls reach their out-of-line parts, experimental as they
 * are: without ALLOW_EXPERIMENTAL_API the include alone warns of nothing,
 * a call of them (experimental too) does.
 */
#ifndef ALLOW_EXPERIMENTAL_API
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Begin stage @p id on the calling lcore where its inline part is all
 * that takes: a call not measured. For a wrapper that keeps its measured
 * calls out of line (lib/pmu_graph's node wrapper). Datapath.
 *
 * @param id
 *   Stage id from rte_pmu_stage_register().
 * @return
 *   1: begun. 0: nothing done; rte_pmu_stage_begin() begins it (a call
 *   to measure, or one that is not counted as a call).
 */
__rte_experimental
static __rte_always_inline int
rte_pmu_stage_begin_try(unsigned int id)
{
	return likely(id < __RTE_PMU_STAGE_WORDS) && likely((uint16_t)__atomic_load_n(
		&RTE_PER_LCORE(_pmu_stage)->pending, __ATOMIC_RELAXED)[id] != 0);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Begin stage @p id on the calling lcore. Datapath; see the file's
 * description for threads, nesting, sampling and misuse.
 *
 * @param id
 *   Stage id from rte_pmu_stage_register().
 */
__rte_experimental
static __rte_always_inline void
rte_pmu_stage_begin(unsigned int id)
{
	struct __rte_pmu_stage_lcore *sl = RTE_PER_LCORE(_pmu_stage);

	/* Not this stage's call to measure: nothing to do. */
	if (likely(id < __RTE_PMU_STAGE_WORDS) &&
			likely((uint16_t)__atomic_load_n(&sl->pending, __ATOMIC_RELAXED)[id] != 0))
		return;
	__rte_pmu_stage_begin_slow(sl, id);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * End stage @p id, the innermost one begun on the calling lcore, which
 * handled @p items items (packets, or any unit). Datapath.
 *
 * @param id
 *   Stage id from rte_pmu_stage_register().
 * @param items
 *   Items of this call (0 is fine).
 */
__rte_experimental
static __rte_always_inline void
rte_pmu_stage_end(unsigned int id, unsigned int items)
{
	struct __rte_pmu_stage_lcore *sl = RTE_PER_LCORE(_pmu_stage);

	/* A call not measured: one call less to the next measured one. Where
	 * that is 0, out of line, where an end with no begin is found.
	 */
	if (likely(id < __RTE_PMU_STAGE_WORDS)) {
		uint64_t *p = &__atomic_load_n(&sl->pending, __ATOMIC_RELAXED)[id], w = *p;

		if (likely((uint16_t)w != 0)) {
			__atomic_store_n(p, w + ((uint64_t)items << __RTE_PMU_STAGE_PENDING_SHIFT) - 1,
				__ATOMIC_RELAXED);
			return;
		}
	}
	__rte_pmu_stage_end_slow(sl, id, items);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * End stage @p end_id with @p items items and begin stage @p begin_id at
 * the same point, reading the counters once where both are measured: a
 * burst through three chained stages costs four reads of the counters,
 * not six. The same as rte_pmu_stage_end() then rte_pmu_stage_begin()
 * otherwise (misuse included). Datapath.
 *
 * @param end_id
 *   The innermost stage begun on the calling lcore.
 * @param items
 *   Items of the call that ends.
 * @param begin_id
 *   The stage that begins.
 */
__rte_experimental
static __rte_always_inline void
rte_pmu_stage_next(unsigned int end_id, unsigned int items, unsigned int begin_id)
{
	struct __rte_pmu_stage_lcore *sl = RTE_PER_LCORE(_pmu_stage);
	uint64_t *words = __atomic_load_n(&sl->pending, __ATOMIC_RELAXED), w;

	/* A measured call open, or this one to measure: out of line, where
	 * the stage that begins shares the read of the one that ends. Else
	 * rte_pmu_stage_end() then rte_pmu_stage_begin(), on the same words.
	 */
	if (unlikely(end_id >= __RTE_PMU_STAGE_WORDS || begin_id >= __RTE_PMU_STAGE_WORDS ||
			(uint16_t)(w = words[end_id]) == 0)) {
		__rte_pmu_stage_next_slow(sl, end_id, items, begin_id);
		return;
	}
	__atomic_store_n(&words[end_id], w + ((uint64_t)items << __RTE_PMU_STAGE_PENDING_SHIFT) - 1,
		__ATOMIC_RELAXED);
	if (unlikely((uint16_t)words[begin_id] == 0))
		__rte_pmu_stage_begin_slow(sl, begin_id);
}

#ifndef ALLOW_EXPERIMENTAL_API
#pragma GCC diagnostic pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMU_STAGE_H */
