/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef RTE_PMU_STAGE_H
#define RTE_PMU_STAGE_H

/**
 * @file
 * RTE PMU stages: what each stage of a packet pipeline costs, per lcore,
 * in the events added with rte_pmu_add_event(). Not in upstream DPDK.
 *
 * A stage is a named region of the datapath (rx, a lookup, tx, a graph
 * node). Each lcore counts, for each stage: calls, items (packets, or any
 * unit the caller passes), measured calls, and for each added event the
 * counts between begin and end, net of the library's own reads.
 *
 * Call order:
 *  1. rte_pmu_init(), rte_pmu_add_event() as usual;
 *  2. rte_pmu_stage_register() for each stage (control path; at most
 *     RTE_PMU_MAX_STAGES), optionally rte_pmu_stage_sampling_set();
 *  3. on each lcore, rte_pmu_lcore_open() before its loop, then
 *     rte_pmu_stage_begin() / rte_pmu_stage_end() around each stage, or
 *     rte_pmu_stage_next() where one stage ends and the next begins;
 *  4. rte_pmu_stage_stats_get(), rte_pmu_stage_dump() and
 *     rte_pmu_stage_reset() from any thread, at any time;
 *  5. rte_pmu_fini() drops every stage (no lcore may be inside a stage).
 *     Stage calls made after it, until the next rte_pmu_init() and its
 *     stages, are not counted anywhere.
 *
 * Thread safety: registration, sampling, stats, dump and reset are
 * thread-safe. Begin, end and next act on the calling lcore only and take
 * no lock, no string, no allocation and, where the counters are read from
 * user space, no system call (the first call on an lcore that did not
 * call rte_pmu_lcore_open() opens its group and its stage state).
 *
 * Sampling: with a period of N, one call of a stage in N is measured: the
 * decision is the stage's own, taken at its begin on each lcore. Calls and
 * items count every call; values are summed over measured calls and
 * scaled to all calls. Every stage begun while a measured call is open on
 * the lcore is measured too (nested or chained with rte_pmu_stage_next()),
 * so that self values stay exact.
 *
 * Datapath checks, as DPDK's RTE_ETHDEV_DEBUG_RX: a call that is not
 * measured only counts its call and items (one compare of the id against
 * the lcore's known stages, so an id out of range never writes outside the
 * state). Misuse (an id not registered, an end that is not of the
 * innermost stage begun, a stage begun twice, nesting deeper than
 * RTE_PMU_STAGE_DEPTH) is detected on measured calls, and on every call
 * where the library was built with -Dstage_debug=true. Misuse is not
 * counted as a call: it is counted on the stage it names
 * (rte_pmu_stage_stats::misuse) or, for an id not registered, on the
 * lcore (rte_pmu_stage_stats::lcore_misuse); the first of each kind on
 * each lcore is logged.
 *
 * Read cost: when an lcore opens its stage state it measures what its own
 * pair of counter reads adds to a measured call (per event, the median of
 * back-to-back reads) and subtracts it from each measured call, never
 * below zero (rte_pmu_stage_stats::overhead).
 */

#include <stdint.h>
#include <stdio.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_compat.h>
#include <rte_per_lcore.h>

#include "rte_pmu.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most stages registered at once. */
#define RTE_PMU_MAX_STAGES 1024
/** Deepest nesting of stages on one lcore. */
#define RTE_PMU_STAGE_DEPTH 8
/** Longest stage name, terminating NUL included (lib/graph's node name size). */
#define RTE_PMU_STAGE_NAME_MAX 64
/** rte_pmu_stage_sampling_set(): every stage, and those registered later. */
#define RTE_PMU_STAGE_ALL UINT32_MAX

/** Bits of __rte_pmu_stage_slot::pending holding the calls. */
#define __RTE_PMU_STAGE_PENDING_SHIFT 16

/** What the inline calls keep of one stage on one lcore. Internal. */
struct __rte_pmu_stage_slot {
	/** Calls not measured since the stage's last measured one, in one
	 *  word that readers load whole: items << 16 | calls (below 65536,
	 *  the longest period). Written by the lcore only.
	 */
	uint64_t pending;
	/** The period minus one: the begin that finds that many calls
	 *  pending is measured.
	 */
	uint32_t period_m1;
	uint32_t reserved;
};

/** What the inline calls keep of one lcore. Internal. */
struct __rte_pmu_stage_lcore {
	/** Ids below it take the inline path; 0 while a measured call is
	 *  open, before the lcore's first stage call, after rte_pmu_fini()
	 *  and in debug builds (every call then goes out of line).
	 */
	uint32_t limit;
	/** Set by rte_pmu_fini() and when the lcore id is given back (with
	 *  limit 0): the lcore forgets its stages at its next call.
	 */
	uint32_t stale;
	/** One slot per stage id below limit. */
	struct __rte_pmu_stage_slot *slots;
};

/**
 * The calling thread's stage state; until its first stage call a state
 * whose limit sends every call out of line. Internal.
 */
RTE_DECLARE_PER_LCORE(struct __rte_pmu_stage_lcore *, _pmu_stage)
	__attribute__((tls_model("initial-exec")));

/** Out-of-line calls (measured, debug, first call, misuse). Internal. */
__rte_experimental
void __rte_pmu_stage_begin_slow(unsigned int id);
__rte_experimental
void __rte_pmu_stage_end_slow(unsigned int id, unsigned int items);
__rte_experimental
void __rte_pmu_stage_next_slow(unsigned int end_id, unsigned int items,
	unsigned int begin_id);

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
 *   Stage name, 1 to RTE_PMU_STAGE_NAME_MAX - 1 printable characters.
 * @return
 *   Stage id (>= 0, below RTE_PMU_MAX_STAGES), or
 *   -EINVAL NULL, empty, too long or unprintable name;
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
 * default: every call). Each lcore takes it at its next call of the
 * stage.
 *
 * Thread-safe; control path.
 *
 * @param id
 *   Stage id from rte_pmu_stage_register(), or RTE_PMU_STAGE_ALL: every
 *   stage registered, and the period of those registered later.
 * @param period
 *   1 to 65536.
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

/** A stage's figures on one lcore (since rte_pmu_stage_reset()). */
struct rte_pmu_stage_stats {
	uint64_t calls;     /**< calls ended */
	uint64_t items;     /**< items passed to those calls */
	uint64_t measured;  /**< calls whose counters were read (0 with no event) */
	/** Per event (rte_pmu_add_event() index): counts between begin and
	 *  end, net of the library's reads, summed over the measured calls
	 *  and scaled to all calls (calls / measured); nested stages included.
	 */
	uint64_t values[RTE_MAX_NUM_GROUP_EVENTS];
	/** The same, with the stages nested in it left out. */
	uint64_t self_values[RTE_MAX_NUM_GROUP_EVENTS];
	/** Per event: what was subtracted from each measured call (the
	 *  lcore's own read cost).
	 */
	uint64_t overhead[RTE_MAX_NUM_GROUP_EVENTS];
	unsigned int num_events; /**< entries of values in use */
	uint64_t misuse;    /**< misuse of this stage on the lcore: not calls */
	uint64_t lcore_misuse; /**< calls on the lcore naming no registered stage */
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * A consistent snapshot of a stage's figures on an lcore, from any
 * thread, while the lcore runs: never a mix of two updates, nor of before
 * and after a reset.
 *
 * Thread-safe; control path (it takes the stage lock briefly).
 *
 * @param lcore_id
 *   An lcore id.
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
 * runtime" lays them out: Calls, Items, Items/Call, each event per item
 * and per call, and IPC where cycles and instructions are both counted.
 * Stages with no call are left out.
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
	const struct __rte_pmu_stage_lcore *sl = RTE_PER_LCORE(_pmu_stage);
	const struct __rte_pmu_stage_slot *s;

	if (likely(id < sl->limit)) {
		s = &sl->slots[id];
		/* Not this stage's call to measure: nothing to do. */
		if (likely((uint32_t)(s->pending & 0xffff) <
				__atomic_load_n(&s->period_m1, __ATOMIC_RELAXED)))
			return;
	}
	__rte_pmu_stage_begin_slow(id);
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
	const struct __rte_pmu_stage_lcore *sl = RTE_PER_LCORE(_pmu_stage);
	struct __rte_pmu_stage_slot *s;

	if (likely(id < sl->limit)) {
		s = &sl->slots[id];
		__atomic_store_n(&s->pending, s->pending +
			(((uint64_t)items << __RTE_PMU_STAGE_PENDING_SHIFT) | 1),
			__ATOMIC_RELAXED);
		return;
	}
	__rte_pmu_stage_end_slow(id, items);
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
	if (unlikely(RTE_PER_LCORE(_pmu_stage)->limit == 0)) {
		__rte_pmu_stage_next_slow(end_id, items, begin_id);
		return;
	}
	rte_pmu_stage_end(end_id, items);
	rte_pmu_stage_begin(begin_id);
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMU_STAGE_H */
