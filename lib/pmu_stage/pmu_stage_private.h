/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_STAGE_PRIVATE_H
#define PMU_STAGE_PRIVATE_H

/* The stage library's state, shared by its files: the registry
 * (pmu_stage.c), each lcore's state and the engine (pmu_stage_engine.c),
 * the readers (pmu_stage_stats.c, pmu_stage_dump.c, pmu_stage_telemetry.c).
 * Not installed.
 *
 * Orderings, each said once:
 *  - the registry's count is stored with release after a stage's name and
 *    period, and loaded with acquire: whoever sees an id sees its stage;
 *  - an lcore's state pointer is published the same way, after its arrays
 *    are set up;
 *  - an lcore writes its figures inside its rte_seqcount; readers copy
 *    them and copy again while the count says the lcore wrote meanwhile.
 *    Readers hold no lock then; the lcore never waits for them;
 *  - pending words and periods are single words, stored and loaded whole
 *    (relaxed): a reader sees an old or a new value, never a torn one;
 *  - a period set marks each lcore, then points its inline calls at the
 *    zeros; an lcore that points them back at its words stores that
 *    pointer, then loads its mark (all four sequentially consistent): it
 *    sees the mark, or the zeros stay and its next call comes out of line
 *    (words_open());
 *  - the reset baselines are written under each lcore's rte_seqlock by
 *    the control path only (never by an lcore), after the figures were
 *    copied without it.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_log.h>
#include <rte_seqcount.h>
#include <rte_seqlock.h>
#include <rte_spinlock.h>

#include "rte_pmu_stage.h"

extern int pmu_stage_logtype;
#define STAGE_LOG(level, ...) \
	rte_log(RTE_LOG_ ## level, pmu_stage_logtype, \
		RTE_FMT("PMU_STAGE: " RTE_FMT_HEAD(__VA_ARGS__,) "\n", RTE_FMT_TAIL(__VA_ARGS__,)))

/* Every id an lcore has a pending word for: the registered stages', then
 * calibration's three, past them (as rte_pmu_stage.h counts the words).
 */
#define STAGE_IDS __RTE_PMU_STAGE_WORDS
#define STAGE_CAL_IDS (STAGE_IDS - RTE_PMU_MAX_STAGES)
/** Where a call measured only for its parent puts its figures: the last
 *  calibration id's, which nothing reads once the lcore is calibrated.
 */
#define STAGE_SINK (STAGE_IDS - 1)

/** The registered stages. Written under lock, by the control path. */
struct stage_registry {
	rte_spinlock_t lock;
	uint32_t count;          /**< registered; release after name and period */
	uint32_t epoch;          /**< rte_pmu_fini() calls: older lcore state is void */
	bool was_init;           /**< rte_pmu_fini() ended an rte_pmu_init() */
	uint32_t default_period;
	uint32_t period_m1[STAGE_IDS];   /**< each lcore counts down from it */
	char names[RTE_PMU_MAX_STAGES][RTE_PMU_STAGE_NAME_MAX];
	struct stage_lcore *lcores[RTE_MAX_LCORE];  /**< release, once each */
};

extern struct stage_registry stage_reg;

/** One event's figures of a stage on one lcore. */
struct stage_ev_sums {
	uint64_t value;     /**< inclusive, measured calls */
	/** The inclusive values of the stages nested in its measured calls. */
	uint64_t children;
	/** The squares of the measured calls' self values, added up: for the
	 *  spread of the sampled figures.
	 */
	double squares;
};

/** A stage's figures on one lcore. */
struct stage_sums {
	uint64_t calls;     /**< folded in (pending calls aside) */
	uint64_t items;
	uint64_t measured;
	uint64_t misuse;
	struct stage_ev_sums ev[RTE_MAX_NUM_GROUP_EVENTS];
	/** Its measured calls at period 1, which add no square where
	 *  rte_pmu_stage_end() ends them outside others: those of its past
	 *  stretches at period 1 (in a reader's copy, of the open one too),
	 *  and its measured count where the open stretch began. The lcore
	 *  writes them as it takes a period.
	 */
	uint64_t p1_measured;
	uint64_t p1_enter;
	uint64_t pending;   /**< in a reader's copy: items << 16 | calls pending */
};

/** How a measured frame began or ended: a call, or a boundary; began
 *  too at a boundary after a full fold (the stage ended there had stages
 *  measured inside it, a period above 1 or a parent: its fold more work).
 */
enum { EDGE_CALL, EDGE_NEXT, EDGE_KINDS, EDGE_NEXT_FULL = EDGE_KINDS, START_KINDS };

/** What the frames nested in a frame gave it, per event. */
struct frame_ev {
	uint64_t inside;    /**< their measuring, to take out of it */
	uint64_t child;     /**< their inclusive values */
};

/** A stage open on the lcore, where calls are tracked. */
struct stage_frame {
	uint32_t id;
	bool measured;
	bool due;           /**< its period's call: pending calls fold in */
	uint8_t start_edge;
	bool nested;        /**< a measured frame ended inside it */
	uint64_t start[RTE_MAX_NUM_GROUP_EVENTS];
	struct frame_ev ev[RTE_MAX_NUM_GROUP_EVENTS];
} __rte_aligned(256);  /* a power of two: a frame's address is a shift */

/** What the lcore's calibration found for one event. */
struct cal_ev {
	/** A measured frame's own reads and bookkeeping: taken out of it. */
	uint64_t own;
	/** What such a frame costs its parent: own, and for a frame ended by
	 *  rte_pmu_stage_end() the begin and end around its reads.
	 */
	uint64_t seen;
};

/** What the lcore's calibration found, by how a frame began and ended:
 *  of its own calls to measure, and of calls measured for their parent's
 *  sake only (fev: their bookkeeping differs, which the parent sees).
 */
struct stage_cal {
	struct cal_ev ev[START_KINDS][EDGE_KINDS][RTE_MAX_NUM_GROUP_EVENTS];
	struct cal_ev fev[START_KINDS][EDGE_KINDS][RTE_MAX_NUM_GROUP_EVENTS];
};

/** An lcore's stage state: allocated by the lcore, kept for the process. */
struct stage_lcore {
	struct __rte_pmu_stage_lcore pub;
	unsigned int lcore_id;
	unsigned int socket;       /**< rte_socket_id() of the thread that made it */
	uint32_t epoch;            /**< of the registry when the lcore synced */
	bool gone;                 /**< its thread unregistered: the next one restarts it */
	/** Restarts of the state (under base_lock): a reset that copied the
	 *  figures before one sets no baseline from them.
	 */
	uint32_t restarts;
	uint32_t periods_set;      /**< 1: periods set that the lcore has not taken */
	uint64_t *words;           /**< its pending words (pub.pending when open) */
	uint32_t known;            /**< ids the lcore takes (registered, or cal) */
	unsigned int num_events;
	unsigned int depth;        /**< frames open above frames[0], the lcore's */
	bool fold_full;            /**< the last fold was not plain (frame_end()) */
	struct perf_event_mmap_page *const *pages; /**< its events' user pages */
	uint32_t misuse_logged;    /**< a bit per kind already logged */
	struct stage_cal cal;
	/* Written by the lcore inside seq. */
	rte_seqcount_t seq;
	uint64_t lcore_misuse;
	uint64_t first[RTE_MAX_NUM_GROUP_EVENTS];  /**< at its first read */
	uint64_t last[RTE_MAX_NUM_GROUP_EVENTS];   /**< at its last measured end */
	struct stage_sums *figs;   /**< STAGE_IDS */
	/* Written by rte_pmu_stage_reset() under base_lock. */
	rte_seqlock_t base_lock;
	/** Resets in their pass over the baselines (stage by stage), and the
	 *  passes ended: a reader's figures and total are of one reset where
	 *  neither moved across its reads.
	 */
	uint32_t resetting;
	uint32_t resets;
	uint64_t base_total[RTE_MAX_NUM_GROUP_EVENTS];
	uint64_t base_lcore_misuse;
	struct stage_sums *base;   /**< RTE_PMU_MAX_STAGES */
	struct stage_frame frames[RTE_PMU_STAGE_DEPTH + 1];
	/** The periods (less one) as the lcore took them. Written by the
	 *  lcore inside seq.
	 */
	uint32_t period_m1[STAGE_IDS];
	/** Where each stage's countdown began, with no call pending: drawn
	 *  at random around its period less one after each measured call.
	 *  Written by the lcore inside seq.
	 */
	uint32_t start[STAGE_IDS];
	/** Per stage whose countdown became 0 by a period set while it was
	 *  not 0 (a call of it begun inline may be open, whose end finds no
	 *  frame): its calls then (stage_calls()) + 1, 0 for none. Its next
	 *  call, begun or ended, makes it stale: a later end with no begin is
	 *  misuse.
	 */
	uint32_t begun_inline[STAGE_IDS];
	/** Per stage: a frame of it is open on the lcore (a begin twice is
	 *  misuse), told at the same cost at every depth.
	 */
	bool open[STAGE_IDS];
	uint64_t rng;              /**< the draws' state (xorshift64), not 0 */
};

static inline struct stage_lcore *
stage_lcore_of(struct __rte_pmu_stage_lcore *pub)
{
	return container_of(pub, struct stage_lcore, pub);
}

/** Whether every stage call goes out of line (-Dstage_debug=true). */
#ifdef RTE_PMU_STAGE_DEBUG
#define STAGE_DEBUG true
#else
#define STAGE_DEBUG false
#endif

/** Pending words all 0: the inline calls of an lcore pointed at them go
 *  out of line. Never written.
 */
extern uint64_t stage_zeros[STAGE_IDS];

/** The passes of rte_pmu_stage_reset() over @p sl ended and its restarts
 *  (each only grows), once no reset runs.
 */
static inline uint32_t
stage_bases_begin(const struct stage_lcore *sl)
{
	while (__atomic_load_n(&sl->resetting, __ATOMIC_ACQUIRE) != 0)
		rte_pause();
	return __atomic_load_n(&sl->resets, __ATOMIC_ACQUIRE) +
		__atomic_load_n(&sl->restarts, __ATOMIC_ACQUIRE);
}

/** Whether a reset or restart wrote @p sl's baselines since
 *  stage_bases_begin() gave @p r: what was read since may mix two sets.
 */
static inline bool
stage_bases_moved(const struct stage_lcore *sl, uint32_t r)
{
	rte_atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&sl->resetting, __ATOMIC_RELAXED) != 0 ||
		__atomic_load_n(&sl->resets, __ATOMIC_RELAXED) +
		__atomic_load_n(&sl->restarts, __ATOMIC_RELAXED) != r;
}

/** @p size bytes (whole words) from @p src to @p dst, each word loaded and
 *  stored whole: figures one thread writes and another reads inside a
 *  sequence count or lock.
 */
static inline void
words_copy(void *dst, const void *src, size_t size)
{
	const uint64_t *s = src;
	uint64_t *d = dst;
	size_t i;

	for (i = 0; i < size / sizeof(uint64_t); i++)
		__atomic_store_n(&d[i], s != NULL ? __atomic_load_n(&s[i], __ATOMIC_RELAXED) : 0,
			__ATOMIC_RELAXED);
}

/** Stages registered (acquire: their names and periods are set). */
static inline uint32_t
stage_count(void)
{
	return __atomic_load_n(&stage_reg.count, __ATOMIC_ACQUIRE);
}

/** The state of @p lcore_id, or NULL where it has none of this epoch. */
static inline struct stage_lcore *
stage_lcore_get(unsigned int lcore_id)
{
	struct stage_lcore *sl = __atomic_load_n(&stage_reg.lcores[lcore_id], __ATOMIC_ACQUIRE);

	if (sl == NULL || __atomic_load_n(&sl->epoch, __ATOMIC_ACQUIRE) !=
			__atomic_load_n(&stage_reg.epoch, __ATOMIC_ACQUIRE))
		return NULL;
	return sl;
}

/** Whether rte_pmu_init() was called: librte_pmu says -ENODEV otherwise. */
static inline bool
pmu_ready(void)
{
	return rte_pmu_lcore_status(0) != -ENODEV;
}

/** rte_pmu_lcore_open()'s callback (pmu_stage_engine.c). */
int stage_on_lcore_open(unsigned int lcore_id, void *arg);

/** An lcore id given back (rte_lcore_callback_register()'s uninit), or
 *  every lcore's at rte_pmu_fini(): its state void, its calls out of line.
 */
void stage_on_lcore_gone(unsigned int lcore_id, void *arg);

/** rte_pmu_stage_sampling_set() changed periods: each lcore takes them
 *  at its next stage call (pmu_stage_engine.c).
 */
void stage_periods_changed(void);

/** The events of the first lcore with a group, in @p info: their number. */
unsigned int stage_events(struct rte_pmu_lcore_info *info);

/** A consistent copy of stage @p id's sums on @p sl, pending calls in. */
void stage_sums_read(const struct stage_lcore *sl, unsigned int id, struct stage_sums *s);

/** What @p sl counted in total per event, and its misuse of unknown ids,
 *  from one copy (the reset's baselines not taken out).
 */
void stage_total_read(const struct stage_lcore *sl, uint64_t *total, uint64_t *misuse);

/** @p sl's total and its stages' self values added up (in outside),
 *  read once for many stages' figures; all zero for a NULL @p sl.
 */
void stage_lcore_sums(const struct stage_lcore *sl, struct rte_pmu_stage_lcore_stats *st);

/**
 * Stage @p id's figures on @p sl since the reset, as the API gives them
 * (pmu_stage_stats.c); @p sl may be NULL (all zero). Scaled down to the
 * lcore's total by @p sums (stage_lcore_sums() of @p sl), or, NULL, by
 * sums read after the stage's figures.
 */
void stage_stats_fill(const struct stage_lcore *sl, unsigned int id,
	struct rte_pmu_stage_stats *st, const struct rte_pmu_stage_lcore_stats *sums);

/** A stage's figures on an lcore, @p s, added to @p total (zeroed first);
 *  stage_total_end() once all are in gives its spread.
 */
void stage_total_add(struct rte_pmu_stage_stats *total, const struct rte_pmu_stage_stats *s);
void stage_total_end(struct rte_pmu_stage_stats *total);

/** Stage @p id's figures on @p lcore_id, or the sum over every lcore
 *  (RTE_PMU_STAGE_ALL_LCORES), as rte_pmu_stage_stats_get() gives them;
 *  with @p sums, each lcore's stage_lcore_sums() (by lcore id).
 */
void stage_stats_sum(unsigned int lcore_id, unsigned int id, struct rte_pmu_stage_stats *st,
	const struct rte_pmu_stage_lcore_stats *sums);

/** The lcore's whole since the reset (pmu_stage_stats.c). */
void stage_lcore_fill(const struct stage_lcore *sl, struct rte_pmu_stage_lcore_stats *st);

struct rte_tel_data;
/** A telemetry command of this library run directly (for tests). */
int stage_telemetry_call(const char *cmd, const char *params, struct rte_tel_data *d);

#endif /* PMU_STAGE_PRIVATE_H */
