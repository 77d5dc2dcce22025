/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "measure.h"

/* Back-to-back read pairs timed for the read overhead: blocks of pairs,
 * spread over a span of time.
 */
#define CALIBRATION_PAIRS 127
#define CALIBRATION_BLOCKS 16
#define CALIBRATION_SPAN_MS 32

static struct tool_lcore lcores[RTE_MAX_LCORE];
static const struct tool_options *m_opts;
static unsigned int m_index[RTE_MAX_NUM_GROUP_EVENTS];
static unsigned int m_count;
static uint32_t m_stop;

void
tool_measure_init(const struct tool_options *opts, const struct tool_events *evs)
{
	unsigned int i;

	m_opts = opts;
	m_count = 0;
	for (i = 0; i < evs->count; i++)
		if (evs->ev[i].supported)
			m_index[m_count++] = evs->ev[i].index;
	__atomic_store_n(&m_stop, 0, __ATOMIC_RELAXED);
}

void
tool_measure_stop(void)
{
	__atomic_store_n(&m_stop, 1, __ATOMIC_RELAXED);
}

struct tool_lcore *
tool_measure_state(unsigned int lcore_id)
{
	return &lcores[lcore_id];
}

/* The same sequence at every snapshot: the clock, then each event. */
static inline void
take(struct tool_snap *s)
{
	unsigned int i;

	s->tsc = rte_rdtsc();
	for (i = 0; i < m_count; i++)
		s->val[m_index[i]] = rte_pmu_read(m_index[i]);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t
median(uint64_t *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

static void
publish(struct tool_lcore *l, const struct tool_snap *s)
{
	uint32_t seq = l->seq;

	__atomic_store_n(&l->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(&l->live, s, sizeof(*s));
	__atomic_store_n(&l->seq, seq + 2, __ATOMIC_RELEASE);
}

/* All that a round does besides the workload: take and publish the
 * snapshot, then look at the stop flag. Returns true to run another round.
 */
static inline bool
end_round(struct tool_lcore *l, struct tool_snap *s, uint64_t iterations)
{
	take(s);
	s->rounds++;
	s->iterations += iterations;
	publish(l, s);

	return tool_options_continuous(m_opts) &&
		__atomic_load_n(&m_stop, __ATOMIC_RELAXED) == 0;
}

/* What two round ends with no workload between them differ by: the cost of
 * the reads (and the rest of a round's end) as a round sees it. A block of
 * pairs gives medians; blocks are spread over CALIBRATION_SPAN_MS, since on a
 * shared (virtual) machine the cost of a read steps between levels tens of
 * milliseconds apart. The block with the lowest TSC median is kept: a round
 * never costs less than that, so what is subtracted never exceeds what the
 * reads took, and figures stay at or above zero. Pairs go to a scratch state.
 */
static void
calibrate(struct tool_lcore *l)
{
	static __thread uint64_t d[RTE_MAX_NUM_GROUP_EVENTS + 1][CALIBRATION_PAIRS];
	static __thread struct tool_lcore scratch;
	uint64_t gap, t0, best = UINT64_MAX, tsc;
	struct tool_snap a, b;
	unsigned int blk, p, i;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	gap = rte_get_tsc_hz() / 1000 * CALIBRATION_SPAN_MS / CALIBRATION_BLOCKS;
	for (blk = 0; blk < CALIBRATION_BLOCKS; blk++) {
		/* Busy between blocks, as the lcore is while it works. */
		t0 = rte_rdtsc();
		while (blk != 0 && rte_rdtsc() - t0 < gap)
			rte_pause();
		for (p = 0; p < CALIBRATION_PAIRS; p++) {
			end_round(&scratch, &a, 0);
			end_round(&scratch, &b, 0);
			d[RTE_MAX_NUM_GROUP_EVENTS][p] = b.tsc - a.tsc;
			for (i = 0; i < m_count; i++)
				d[i][p] = b.val[m_index[i]] - a.val[m_index[i]];
		}
		tsc = median(d[RTE_MAX_NUM_GROUP_EVENTS], CALIBRATION_PAIRS);
		if (m_opts->raw || tsc >= best)
			continue;
		best = tsc;
		l->overhead_tsc = tsc;
		for (i = 0; i < m_count; i++)
			l->overhead[m_index[i]] = median(d[i], CALIBRATION_PAIRS);
	}
}

bool
tool_measure_snapshot(struct tool_lcore *l, struct tool_snap *snap)
{
	uint32_t seq;

	do {
		seq = __atomic_load_n(&l->seq, __ATOMIC_ACQUIRE);
		if (seq == 0)
			return false;
		memcpy(snap, &l->live, sizeof(*snap));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) != 0 || __atomic_load_n(&l->seq, __ATOMIC_RELAXED) != seq);

	return true;
}

int
tool_measure_lcore(void *arg __rte_unused)
{
	struct tool_lcore *l = &lcores[rte_lcore_id()];
	const struct workload *w = m_opts->workload;
	struct tool_snap s;
	uint64_t sum = 0;
	void *ctx = NULL;

	l->ran = true;
	l->work_ret = w->prepare(&ctx);
	if (l->work_ret != 0) {
		/* Seen by the main lcore as a published, failed lcore. */
		__atomic_store_n(&l->seq, 2, __ATOMIC_RELEASE);
		return -1;
	}

	/* The first read opens this lcore's group; then the overhead, and the
	 * read paths while this lcore runs (from another thread, a sleeping
	 * lcore's counters are off the hardware).
	 */
	take(&s);
	calibrate(l);
	l->info_ret = rte_pmu_lcore_info_get(rte_lcore_id(), &l->info);

	memset(&s, 0, sizeof(s));
	end_round(l, &s, 0);
	l->base = s;
	do
		sum += w->run(ctx, m_opts->iterations);
	while (end_round(l, &s, m_opts->iterations));

	l->sink = sum;
	w->release(ctx);

	return 0;
}
