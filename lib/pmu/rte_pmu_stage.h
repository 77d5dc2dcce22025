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
 * counts between begin and end.
 *
 * Call order:
 *  1. rte_pmu_init(), rte_pmu_add_event() as usual;
 *  2. rte_pmu_stage_register() for each stage (control path; at most
 *     RTE_PMU_MAX_STAGES), optionally rte_pmu_stage_sampling_set();
 *  3. on each lcore, rte_pmu_lcore_open() before its loop, then
 *     rte_pmu_stage_begin() / rte_pmu_stage_end() around each stage, or
 *     rte_pmu_stage_next() where one stage ends and the next begins;
 *  4. rte_pmu_stage_stats_get() from any thread, at any time;
 *  5. rte_pmu_fini() drops every stage (no lcore may be inside a stage).
 *
 * Thread safety: registration, sampling and stats calls are thread-safe.
 * Begin, end and next act on the calling lcore only and take no lock, no
 * string, no allocation and, where the counters are read from user space,
 * no system call (the first call on an lcore that did not call
 * rte_pmu_lcore_open() opens its group and its stage state).
 *
 * Stages nest up to RTE_PMU_STAGE_DEPTH deep. A stage's values include
 * those of the stages nested in it; its self values leave them out.
 *
 * Sampling: with a period of N, one call in N is measured (the counters
 * are read at its begin and end); calls and items count every call, and
 * values are scaled from the measured calls to all calls. A stage begun
 * inside a measured stage is always measured, so that self values stay
 * exact.
 *
 * Misuse (an id not registered, end or next without the matching begin,
 * a stage begun again before its end, nesting too deep) is never counted
 * as a call and changes no stage's figures; it is counted per lcore
 * (rte_pmu_stage_stats::misuse) and the first of each kind on each lcore
 * is logged.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_compat.h>
#include <rte_per_lcore.h>

#include "rte_pmu_page.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most stages registered at once. */
#define RTE_PMU_MAX_STAGES 64
/** Deepest nesting of stages on one lcore. */
#define RTE_PMU_STAGE_DEPTH 4
/** Longest stage name, terminating NUL included. */
#define RTE_PMU_STAGE_NAME_MAX 32

/* RTE_MAX_NUM_GROUP_EVENTS, without including rte_pmu.h here. */
#define __RTE_PMU_STAGE_EVENTS 8

/** One stage's figures on one lcore, written by that lcore only. Internal.
 *  256 bytes: an lcore's stages are indexed with a shift.
 */
struct __rte_pmu_stage_acc {
	/** Odd while the lcore updates the figures (readers try again);
	 *  twice the measured calls when even.
	 */
	uint64_t seq;
	uint64_t calls;     /**< calls counted so far, pending ones aside */
	uint64_t items;     /**< their items */
	uint64_t values[__RTE_PMU_STAGE_EVENTS];   /**< sums over measured calls */
	/** Sums of the measured stages nested in measured calls of this one:
	 *  self values are values minus these.
	 */
	uint64_t children[__RTE_PMU_STAGE_EVENTS];
	uint64_t pad1[13];
};

/** Bits of __rte_pmu_stage_lcore::pending holding the calls. */
#define __RTE_PMU_STAGE_PENDING_SHIFT 16

/** A stage open on an lcore: 256 bytes. Internal. */
struct __rte_pmu_stage_frame {
	/** The stage's id, and where this call is measured
	 *  __RTE_PMU_STAGE_MEASURED, with __RTE_PMU_STAGE_VALUES and
	 *  __RTE_PMU_STAGE_NESTED where they hold.
	 */
	uint64_t tag;
	/** Counters at begin: raw registers, valid with the lcore's view;
	 *  counter values as rte_pmu_read() gives them with
	 *  __RTE_PMU_STAGE_VALUES.
	 */
	uint64_t start[__RTE_PMU_STAGE_EVENTS];
	/** Counts of measured children, with __RTE_PMU_STAGE_NESTED. */
	uint64_t child[__RTE_PMU_STAGE_EVENTS];
	uint64_t pad1[15];
};

/**
 * Store a figure other threads read (one writer, the lcore): a relaxed
 * atomic store. Internal. GCC 12 spends an add on each address of the
 * builtin's, where a volatile store of an aligned word (the Linux kernel's
 * WRITE_ONCE) takes the field's offset in the instruction and is the same
 * single store on x86_64 and arm64; ThreadSanitizer builds keep the
 * builtin, so that they check the protocol.
 */
#if defined(__SANITIZE_THREAD__) || !(defined(RTE_ARCH_X86_64) || defined(RTE_ARCH_ARM64))
#define __RTE_PMU_STAGE_STORE(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)
#else
#define __RTE_PMU_STAGE_STORE(field, v) (*(volatile __typeof__(field) *)&(field) = (v))
#endif

/** Tag bit of a measured call. */
#define __RTE_PMU_STAGE_MEASURED (UINT64_C(1) << 32)
/** Tag bit of a measured call whose start holds counter values. */
#define __RTE_PMU_STAGE_VALUES (UINT64_C(1) << 33)
/** Tag bit of a measured call in which a measured stage was nested. */
#define __RTE_PMU_STAGE_NESTED (UINT64_C(1) << 34)
/** Tag bits of a measured call that its variant for a flat call of raw
 *  counters (__rte_pmu_stage_measured::end) does not take.
 */
#define __RTE_PMU_STAGE_FLAGS (__RTE_PMU_STAGE_VALUES | __RTE_PMU_STAGE_NESTED)
/** Tag of the sentinel frame: equal to no 32-bit id, measured bit clear. */
#define __RTE_PMU_STAGE_SENTINEL (UINT64_MAX & ~__RTE_PMU_STAGE_MEASURED)

/** How a measured call reads the counters of an lcore while no page
 *  changes: each counter's register, raw, and the deltas masked to its
 *  width. Built from one consistent pass over the pages; it holds while
 *  the sum of their sequence counts (lock) is the one it was built at.
 *  Internal: read and written by the lcore's measured calls only.
 */
struct __rte_pmu_stage_view {
	uint32_t valid;     /**< every counter readable from user space */
	uint32_t lock_sum;  /**< sum of the pages' lock at the build */
	/** How the measured calls read the registers: 0 by each page's index;
	 *  else each by its own register, on architectures that have them:
	 *  the cycle counter at position layout - 1 (1 or 2) or none (3), and
	 *  event counters 0, 1, ... at the others, in the events' order.
	 */
	uint32_t layout;
	uint32_t index[__RTE_PMU_STAGE_EVENTS];  /**< the pages' index */
	uint64_t mask[__RTE_PMU_STAGE_EVENTS];   /**< 2^pmc_width - 1 */
	uint64_t offset[__RTE_PMU_STAGE_EVENTS]; /**< the pages' offset */
	uint32_t width[__RTE_PMU_STAGE_EVENTS];  /**< the pages' pmc_width */
	/** The pages themselves (their lock is summed at each read). */
	struct perf_event_mmap_page *page[__RTE_PMU_STAGE_EVENTS];
	uint64_t drops;     /**< views dropped because a page changed */
};

/** A function run as a measured stage call by the measured calls' call:
 *  the shape of lib/graph's node process function (a graph, a node, the
 *  objects and their count; it returns the items). Internal.
 */
typedef uint16_t (*__rte_pmu_stage_fn_t)(void *a0, void *a1, void **objs, uint16_t nb);

/** What the measured calls' call runs, and as which stage. Internal. */
struct __rte_pmu_stage_call {
	__rte_pmu_stage_fn_t fn;
	uint32_t id;
};

struct __rte_pmu_stage_lcore;

/** An lcore's measured calls, out of line (they read the counters): chosen
 *  for its number of events and its view's layout, so that the common
 *  counts run code with their loops unrolled. Internal.
 */
struct __rte_pmu_stage_measured {
	/** Begin stage id in frame f, the next free one. */
	void (*begin)(struct __rte_pmu_stage_lcore *sl, unsigned int id,
		struct __rte_pmu_stage_frame *f);
	/** End the innermost stage, frame f, measured, its tag without
	 *  __RTE_PMU_STAGE_FLAGS.
	 */
	void (*end)(struct __rte_pmu_stage_lcore *sl, unsigned int items,
		struct __rte_pmu_stage_frame *f);
	/** End the innermost stage, measured, and begin stage begin_id:
	 *  false, the end done, where begin_id may not begin there right away
	 *  (misuse, a stage unknown to the lcore): the caller then begins it
	 *  as rte_pmu_stage_begin() does.
	 */
	bool (*next)(struct __rte_pmu_stage_lcore *sl, unsigned int items,
		unsigned int begin_id);
	/** A measured call of @p c's stage around @p c's function, one
	 *  function for both ends (lib/pmu_graph's node wrapper); the checks
	 *  of rte_pmu_stage_begin() done, the countdown at 1.
	 */
	uint16_t (*call)(void *a0, void *a1, void **objs, uint16_t nb,
		struct __rte_pmu_stage_lcore *sl, const struct __rte_pmu_stage_call *c);
	/** end for a tag with __RTE_PMU_STAGE_FLAGS (the end's slow path). */
	void (*end_flagged)(struct __rte_pmu_stage_lcore *sl, unsigned int items,
		struct __rte_pmu_stage_frame *f);
};

/** Stage state of one lcore. Internal: written by that lcore. */
struct __rte_pmu_stage_lcore {
	/** The next free frame: frames[1] when no stage is open. */
	struct __rte_pmu_stage_frame *sp;
	/** A begin at or past it goes out of line: the end of the stack, or
	 *  NULL while the innermost stage is measured (so are those nested in
	 *  it) and before the lcore's first stage call.
	 */
	struct __rte_pmu_stage_frame *limit;
	uint32_t num_stages;  /**< ids below it are known to the lcore */
	uint32_t num_events;  /**< events read at each measured begin and end */
	uint32_t misuse_logged; /**< a bit per kind of misuse already logged */
	/** NUMA node the state's pages were placed on (-1: none known). */
	int32_t node;
	uint64_t misuse;      /**< misuse on this lcore (atomic) */
	struct __rte_pmu_stage_measured measured; /**< the measured calls */
	/** Pages of the lcore's events, as rte_pmu_read() reads them. */
	struct perf_event_mmap_page *const *pages;
	struct __rte_pmu_stage_view view;
	/** Calls left before the next measured one, per stage (1: the next;
	 *  0: a stage the lcore does not know yet).
	 */
	uint32_t countdown[RTE_PMU_MAX_STAGES];
	/** 1 in period calls is measured, per stage (set by any thread). */
	uint32_t period[RTE_PMU_MAX_STAGES];
	/** Unmeasured calls since the stage's last measured one, in one word
	 *  that readers load whole: items << 16 | calls (fewer than 65536, the
	 *  longest period). A measured call folds them into the figures.
	 */
	uint64_t pending[RTE_PMU_MAX_STAGES];
	/** frames[0] is a sentinel, then the stack. The sentinel's tag
	 *  (__RTE_PMU_STAGE_SENTINEL) matches no id, measured or not.
	 */
	struct __rte_pmu_stage_frame frames[RTE_PMU_STAGE_DEPTH + 1];
	struct __rte_pmu_stage_acc acc[RTE_PMU_MAX_STAGES];
};

/**
 * The calling thread's stage state; until its first stage call (or
 * rte_pmu_lcore_open()) a state with no stage, that sends every call to
 * the slow path. Internal.
 */
RTE_DECLARE_PER_LCORE(struct __rte_pmu_stage_lcore *, _pmu_stage)
	__attribute__((tls_model("initial-exec")));

/** Slow paths of the calls below. Internal: use the calls. */
__rte_experimental
void __rte_pmu_stage_begin_slow(unsigned int id);
__rte_experimental
void __rte_pmu_stage_end_slow(unsigned int id, unsigned int items);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Open the calling lcore's (or registered thread's) event group and stage
 * state now, so that its first rte_pmu_read() or stage call makes no
 * system call and no allocation. Without it, the first read opens the
 * group (upstream's behaviour). The stage state is allocated on the NUMA
 * node of the lcore (EAL's socket of an EAL lcore, libnuma's node of the
 * CPU for a registered thread). Idempotent. Not in upstream DPDK.
 *
 * Thread-safe; control path, from the lcore itself.
 *
 * @return
 *   0, or the negative errno rte_pmu_lcore_status() would then give:
 *   -ESRCH not an lcore; -ENODEV library not initialised; -ENODATA no
 *   event added; -ENOMEM no memory for the stage state; the failed open's
 *   errno (see rte_pmu_lcore_status()).
 */
__rte_experimental
int
rte_pmu_lcore_open(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Register a stage, or find one: the same name gives the same id.
 * Registration records the trace point lib.pmu.stage.register.
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
 * Measure one call of a stage in @p period on every lcore (1, the
 * default: every call). Takes effect at each lcore's next measured call.
 *
 * Thread-safe; control path.
 *
 * @param id
 *   Stage id from rte_pmu_stage_register().
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
 * Number of stages registered (ids are 0 to this minus 1). Thread-safe.
 *
 * @return
 *   The number, or -ENODEV library not initialised.
 */
__rte_experimental
int
rte_pmu_stage_count(void);

/** A stage's figures on one lcore. */
struct rte_pmu_stage_stats {
	uint64_t calls;     /**< calls ended */
	uint64_t items;     /**< items passed to those calls */
	uint64_t measured;  /**< calls whose counters were read */
	/** Per event (rte_pmu_add_event() index): counts between begin and
	 *  end, summed over the measured calls and scaled to all calls
	 *  (calls / measured); nested stages included.
	 */
	uint64_t values[__RTE_PMU_STAGE_EVENTS];
	/** The same, with the stages nested in it left out. */
	uint64_t self_values[__RTE_PMU_STAGE_EVENTS];
	unsigned int num_events; /**< entries of values in use */
	/** Misuse on the lcore (all stages): never counted as calls. */
	uint64_t misuse;
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * A consistent snapshot of a stage's figures on an lcore, from any
 * thread, while the lcore runs: never a mix of two updates.
 *
 * Thread-safe; lock-free (it retries while the lcore updates the stage).
 *
 * @param lcore_id
 *   An lcore id.
 * @param id
 *   Stage id.
 * @param stats
 *   Filled on success; all zero for an lcore that never ran the stage.
 * @return
 *   0; -EINVAL NULL @p stats, @p lcore_id out of range or @p id not
 *   registered; -ENODEV library not initialised.
 */
__rte_experimental
int
rte_pmu_stage_stats_get(unsigned int lcore_id, unsigned int id,
	struct rte_pmu_stage_stats *stats);

/* Begin stage @p id, unmeasured (checks done): a frame, nothing read. */
static __rte_always_inline void
__rte_pmu_stage_push(struct __rte_pmu_stage_lcore *sl, struct __rte_pmu_stage_frame *f,
	unsigned int id, uint32_t countdown)
{
	sl->countdown[id] = countdown - 1;
	f->tag = id;
	sl->sp = f + 1;
}

/* An unmeasured call of stage @p id ended with @p items: the call and its
 * items wait in one word for the stage's next measured call.
 */
static __rte_always_inline void
__rte_pmu_stage_pending_add(struct __rte_pmu_stage_lcore *sl, unsigned int id,
	unsigned int items)
{
	__RTE_PMU_STAGE_STORE(sl->pending[id], sl->pending[id] +
		(((uint64_t)items << __RTE_PMU_STAGE_PENDING_SHIFT) | 1));
}

/* End the innermost stage, @p f (checks done), an unmeasured call. */
static __rte_always_inline void
__rte_pmu_stage_pop(struct __rte_pmu_stage_lcore *sl, struct __rte_pmu_stage_frame *f,
	unsigned int id, unsigned int items)
{
	__rte_pmu_stage_pending_add(sl, id, items);
	/* Its parent is unmeasured too: the limit stays. */
	sl->sp = f;
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
	/* Both loaded before any branch: one load instruction where the
	 * architecture has a load pair.
	 */
	struct __rte_pmu_stage_frame *f = sl->sp, *limit = sl->limit;
	uint32_t countdown;

	/* Out of line: an id out of range (at compile time where constant),
	 * a full stack or a measured stage open (the limit), a call to
	 * measure or an id the lcore does not know (countdown 1 or 0), and
	 * the innermost stage again.
	 */
	if (unlikely(id >= RTE_PMU_MAX_STAGES || f >= limit)) {
		__rte_pmu_stage_begin_slow(id);
		return;
	}
	countdown = sl->countdown[id];
	if (unlikely(countdown <= 1 || (uint32_t)f[-1].tag == id)) {
		if (countdown == 1 && (uint32_t)f[-1].tag != id)
			sl->measured.begin(sl, id, f);
		else
			__rte_pmu_stage_begin_slow(id);
		return;
	}
	__rte_pmu_stage_push(sl, f, id, countdown);
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

	struct __rte_pmu_stage_frame *f = sl->sp - 1;

	/* The innermost stage, unmeasured: one compare (the sentinel's tag
	 * matches no id); anything else out of line, and an id known out of
	 * range at compile time too.
	 */
	if (unlikely((__builtin_constant_p(id) && id >= RTE_PMU_MAX_STAGES) || f->tag != id)) {
		if (f->tag == (id | __RTE_PMU_STAGE_MEASURED))
			sl->measured.end(sl, items, f);
		else
			__rte_pmu_stage_end_slow(id, items);
		return;
	}
	__rte_pmu_stage_pop(sl, f, id, items);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * End stage @p end_id with @p items items and begin stage @p begin_id at
 * the same point, reading the counters once where both are measured: a
 * burst through three chained stages costs four reads of the counters,
 * not six. Same as rte_pmu_stage_end() then rte_pmu_stage_begin()
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
	struct __rte_pmu_stage_frame *f = sl->sp - 1;
	/* 0: the stage ending is the innermost one, not measured; the
	 * measured bit, with flags or not: measured (the sentinel's tag
	 * matches no id).
	 */
	uint64_t other = f->tag ^ end_id;
	uint32_t countdown;

	if (likely(other == 0)) {
		/* Both not measured, the one beginning in range, not the stage
		 * under the frame (that would begin it twice), known to the lcore
		 * and not due for measuring (countdown above 1): the frame passes
		 * from one stage to the next, the stack pointer stays. That is an
		 * end then a begin, also where both ids are the same.
		 */
		if (likely(begin_id < RTE_PMU_MAX_STAGES && (uint32_t)f[-1].tag != begin_id)) {
			countdown = sl->countdown[begin_id];
			if (likely(countdown > 1)) {
				__rte_pmu_stage_pending_add(sl, end_id, items);
				sl->countdown[begin_id] = countdown - 1;
				f->tag = begin_id;
				return;
			}
		}
	} else if ((other & ~__RTE_PMU_STAGE_FLAGS) == __RTE_PMU_STAGE_MEASURED) {
		/* The stage ending measured: the counters read once for both. The
		 * call checks the stage beginning, after the end: where it may not
		 * begin there, the begin below takes it.
		 */
		if (likely(sl->measured.next(sl, items, begin_id)))
			return;
		rte_pmu_stage_begin(begin_id);
		return;
	}
	rte_pmu_stage_end(end_id, items);
	rte_pmu_stage_begin(begin_id);
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMU_STAGE_H */
