/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#include <stdio.h>
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
static bool m_stages_on;
static unsigned int m_stage[TOOL_STAGES];
static const char *m_stage_name[TOOL_STAGES];
/* Lcores that run rounds, those done calibrating, and whether the last of
 * them reset the stages' figures (see settle()).
 */
static unsigned int m_lcores;
static uint32_t m_settled;
static uint32_t m_reset_done;

void
tool_measure_init(const struct tool_options *opts, const struct tool_events *evs)
{
	unsigned int i;
	int ret;

	m_opts = opts;
	m_count = 0;
	m_lcores = RTE_MAX(rte_lcore_count() - 1, 1u);
	__atomic_store_n(&m_settled, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&m_reset_done, 0, __ATOMIC_RELAXED);
	for (i = 0; i < evs->count; i++)
		if (evs->ev[i].supported)
			m_index[m_count++] = evs->ev[i].index;
	__atomic_store_n(&m_stop, 0, __ATOMIC_RELAXED);

	m_stage_name[TOOL_STAGE_WORK] = opts->workload->name;
	m_stage_name[TOOL_STAGE_SNAPSHOT] = "snapshot";
	m_stages_on = true;
	for (i = 0; i < TOOL_STAGES; i++) {
		ret = rte_pmu_stage_register(m_stage_name[i]);
		if (ret < 0) {
			fprintf(stderr, "dpdk-test-pmu: stage %s: %s: no stage figures\n",
				m_stage_name[i], strerror(-ret));
			m_stages_on = false;
			break;
		}
		m_stage[i] = (unsigned int)ret;
	}
}

bool
tool_measure_stage(enum tool_stage s, const char **name, unsigned int *id)
{
	if (!m_stages_on || s >= TOOL_STAGES)
		return false;
	*name = m_stage_name[s];
	*id = m_stage[s];

	return true;
}

void
tool_measure_rearm(void)
{
	unsigned int lcore_id;

	for (lcore_id = 0; lcore_id < RTE_MAX_LCORE; lcore_id++) {
		lcores[lcore_id].ran = false;
		lcores[lcore_id].seq = 0;
		lcores[lcore_id].stage_ready = 0;
	}
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

/* The snapshot of a round end, in the stage "snapshot": take and publish
 * it, then look at the stop flag; end "snapshot" and begin the next round's
 * workload stage at the same point when there is a next round (or when
 * @p next, as calibration and the base snapshot want), else just end it.
 * Returns true to run another round.
 */
static inline bool
end_snapshot(struct tool_lcore *l, struct tool_snap *s, uint64_t iterations, bool next)
{
	bool again;

	take(s);
	s->rounds++;
	s->iterations += iterations;
	publish(l, s);
	again = tool_options_continuous(m_opts) &&
		__atomic_load_n(&m_stop, __ATOMIC_RELAXED) == 0;
	if (m_stages_on && (again || next))
		rte_pmu_stage_next(m_stage[TOOL_STAGE_SNAPSHOT], 1, m_stage[TOOL_STAGE_WORK]);
	else if (m_stages_on)
		rte_pmu_stage_end(m_stage[TOOL_STAGE_SNAPSHOT], 1);

	return again;
}

/* All that a round does besides the workload: end the workload's stage
 * and begin "snapshot" at the same point, then end_snapshot().
 */
static inline bool
end_round(struct tool_lcore *l, struct tool_snap *s, uint64_t iterations, bool next)
{
	if (m_stages_on)
		rte_pmu_stage_next(m_stage[TOOL_STAGE_WORK], iterations,
			m_stage[TOOL_STAGE_SNAPSHOT]);

	return end_snapshot(l, s, iterations, next);
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
			end_round(&scratch, &a, 0, true);
			end_round(&scratch, &b, 0, true);
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

/* Every lcore that runs rounds gets here once, done calibrating (or having
 * failed). The last one resets the stages' figures (rte_pmu_stage_reset(),
 * every lcore's at once), so that they, and the stage dump of the report,
 * leave calibration out and start at the base snapshots; the others wait
 * for it, sleeping. A stop lets them go.
 */
static void
settle(void)
{
	if (!m_stages_on)
		return;
	if (__atomic_add_fetch(&m_settled, 1, __ATOMIC_ACQ_REL) == m_lcores) {
		rte_pmu_stage_reset();
		__atomic_store_n(&m_reset_done, 1, __ATOMIC_RELEASE);
	}
	while (__atomic_load_n(&m_reset_done, __ATOMIC_ACQUIRE) == 0 &&
			__atomic_load_n(&m_stop, __ATOMIC_RELAXED) == 0)
		rte_delay_us_sleep(100);
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
	unsigned int i;

	l->ran = true;
	l->work_ret = w->prepare(&ctx);
	if (l->work_ret != 0) {
		settle();
		/* Seen by the main lcore as a published, failed lcore. */
		__atomic_store_n(&l->seq, 2, __ATOMIC_RELEASE);
		return -1;
	}

	/* The group and the stage state first (rte_pmu_lcore_open()), then
	 * the overhead, and the read paths while this lcore runs (from another
	 * thread, a sleeping lcore's counters are off the hardware).
	 */
	rte_pmu_lcore_open();
	take(&s);
	if (m_stages_on)
		rte_pmu_stage_begin(m_stage[TOOL_STAGE_WORK]);
	calibrate(l);
	l->info_ret = rte_pmu_lcore_info_get(rte_lcore_id(), &l->info);

	/* The stages' figures so far are calibration's: reset once every
	 * lcore is here, and read back, with no stage open, not inside the
	 * first round; the base snapshot is then a call of "snapshot" of its
	 * own.
	 */
	if (m_stages_on)
		rte_pmu_stage_end(m_stage[TOOL_STAGE_WORK], 0);
	settle();
	for (i = 0; m_stages_on && i < TOOL_STAGES; i++)
		rte_pmu_stage_stats_get(rte_lcore_id(), m_stage[i], &l->stage_base[i]);
	__atomic_store_n(&l->stage_ready, 1, __ATOMIC_RELEASE);

	memset(&s, 0, sizeof(s));
	if (m_stages_on)
		rte_pmu_stage_begin(m_stage[TOOL_STAGE_SNAPSHOT]);
	end_snapshot(l, &s, 0, true);
	l->base = s;
	do
		sum += w->run(ctx, m_opts->iterations);
	while (end_round(l, &s, m_opts->iterations, false));

	l->sink = sum;
	w->release(ctx);

	return 0;
}
