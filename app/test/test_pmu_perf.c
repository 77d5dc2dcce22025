/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_perf_autotest: what each datapath read costs, against the goals of
 * issue 9, printed as one table (figure, ours, reference, ratio). Every
 * figure is measured in this run, medians of interleaved rounds, each
 * against a baseline of the same run (an empty loop, a plain read()).
 *
 * Gates apply only where the machine counts exactly: a probe checks that
 * two identical loops retire the same number of instructions and that
 * cycles equal instructions (QEMU -icount: one instruction = one cycle =
 * 1 ns, so ns also count instructions including the kernel's). Elsewhere
 * (the x86 host, real hardware) the figures are printed, never asserted,
 * except the read() call count, which the kernel counts exactly anywhere.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_lcore.h>

#include <rte_pmu.h>

#include "pmu_private.h"
#include "test.h"
#include "test_pmu_fixture.h"
#include "test_pmu_loop.h"
#include "test_pmu_perf.h"
#include "test_pmu_syscount.h"

#define ROUNDS 9
#define CALLS_INLINE 20000u
#define CALLS_SYS 2000u
#define SNAP_EVENTS 7 /* what the arm64 guest's counters hold: 6 + the cycle counter */

/* Goals of the stage calls (issue 13), exact instructions, user page:
 * printed in the rows' names, not gated yet (not met: see the release
 * notes); the reference column is the same work written by hand.
 */
#define GATE_STAGE_PAIR_2 80
#define GATE_STAGE_PAIR_4 130
#define GATE_STAGE_NEXT_2 50
#define GATE_STAGE_SAMPLED 25
#define STAGE_ITEMS 32

/* Goals (issue 9). */
#define GOAL_INLINE 24
#define GATE_INLINE 25
#define GOAL_SCALED 60
#define GOAL_SNAP_EXTRA 20 /* over a single read of each event */
#define GOAL_FALLBACK 1.05

struct figure {
	char name[64];
	char unit[16];
	double ours, ref, limit;
	bool gate, measured;
	char why[96];
};

static struct figure table[40];
static unsigned int num_figures;
static bool exact;

static unsigned int idx_instr = UINT32_MAX;
static unsigned int idx_cycles = UINT32_MAX;
static volatile uint64_t sink;

/* The next row of the table, cleared and named; NULL when it is full. */
static struct figure *
figure_new(const char *name)
{
	struct figure *f;

	if (num_figures == RTE_DIM(table))
		return NULL;
	f = &table[num_figures++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	return f;
}

void
perf_figure(const char *name, const char *unit, double ours, double ref, bool gate,
	double limit)
{
	struct figure *f = figure_new(name);

	if (f == NULL)
		return;
	snprintf(f->unit, sizeof(f->unit), "%s", unit);
	/* Instructions per call are whole where counted exactly: the residue
	 * is the counter reads around the loop, spread over its calls.
	 */
	f->ours = strcmp(unit, "instr") == 0 ? (double)(int64_t)(ours + 0.5) : ours;
	f->ref = ref;
	f->gate = gate && limit > 0;
	f->limit = limit;
	f->measured = true;
}

void
perf_figure_skip(const char *name, const char *why)
{
	struct figure *f = figure_new(name);

	if (f == NULL)
		return;
	snprintf(f->why, sizeof(f->why), "%s", why);
}

/* Print the table; returns the number of gates that failed. */
static unsigned int
print_table(void)
{
	unsigned int i, failed = 0;

	printf("\nrte_pmu datapath goals (%s)\n", exact ?
		"exact counting machine: gated" : "counts not exact here: printed, not gated");
	printf("%-44s %12s %12s %8s  %s\n", "figure", "ours", "reference", "ratio", "verdict");
	for (i = 0; i < num_figures; i++) {
		const struct figure *f = &table[i];
		const char *verdict = "printed";
		char ref[16] = "-", ratio[16] = "-";

		if (!f->measured) {
			printf("%-44s %12s %12s %8s  skipped: %s\n", f->name, "-", "-", "-", f->why);
			continue;
		}
		if (f->ref > 0) {
			snprintf(ref, sizeof(ref), "%.2f", f->ref);
			snprintf(ratio, sizeof(ratio), "%.3f", f->ours / f->ref);
		}
		if (f->gate) {
			verdict = f->ours <= f->limit ? "pass" : "FAIL";
			if (f->ours > f->limit)
				failed++;
		}
		printf("%-44s %12.2f %12s %8s  %s (%s", f->name, f->ours, ref, ratio, verdict,
			f->unit);
		if (f->gate)
			printf(", limit %.2f", f->limit);
		printf(")\n");
	}
	printf("\n");

	return failed;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

struct cost {
	double ns;
	double instr; /* user-space instructions; < 0: not counted */
};

/* Run @body @n times: ns and user instructions per run. */
#define MEASURE(result, n, body) do { \
	uint64_t _i0 = 0, _i1 = 0, _t0, _t1; \
	if (idx_instr != UINT32_MAX) \
		_i0 = rte_pmu_read(idx_instr); \
	_t0 = rte_rdtsc_precise(); \
	for (unsigned int _k = 0; _k < (n); _k++) { \
		body; \
		rte_compiler_barrier(); \
	} \
	_t1 = rte_rdtsc_precise(); \
	if (idx_instr != UINT32_MAX) \
		_i1 = rte_pmu_read(idx_instr); \
	(result).ns = (double)(_t1 - _t0) * 1e9 / rte_get_tsc_hz() / (n); \
	(result).instr = idx_instr != UINT32_MAX ? (double)(_i1 - _i0) / (n) : -1.0; \
} while (0)

/* Median of the per-round ratios a / b of the last ROUNDS_OF(): each
 * round's pair runs back to back, so a slow spell of the machine hits both.
 */
static double last_ratio;

/* Interleaved rounds of a baseline and two bodies; medians of the
 * per-call costs with the baseline taken off, and of their ratio.
 */
#define ROUNDS_OF(n, out_a, body_a, out_b, body_b) do { \
	double _na[ROUNDS], _ia[ROUNDS], _nb[ROUNDS], _ib[ROUNDS], _q[ROUNDS]; \
	struct cost _base, _a, _b; \
	for (unsigned int _r = 0; _r < ROUNDS; _r++) { \
		MEASURE(_base, n, sink += _k); \
		MEASURE(_a, n, body_a); \
		MEASURE(_b, n, body_b); \
		_na[_r] = _a.ns - _base.ns; \
		_ia[_r] = _a.instr - _base.instr; \
		_nb[_r] = _b.ns - _base.ns; \
		_ib[_r] = _b.instr - _base.instr; \
		_q[_r] = _nb[_r] > 0 ? _na[_r] / _nb[_r] : 0; \
	} \
	last_ratio = median(_q, ROUNDS); \
	(out_a).ns = median(_na, ROUNDS); \
	(out_a).instr = idx_instr != UINT32_MAX ? median(_ia, ROUNDS) : -1.0; \
	(out_b).ns = median(_nb, ROUNDS); \
	(out_b).instr = idx_instr != UINT32_MAX ? median(_ib, ROUNDS) : -1.0; \
} while (0)

/* Add events from @names until @want of them are in; returns how many. */
static unsigned int
add_events(const char *const *names, unsigned int num, unsigned int want)
{
	unsigned int i, added = 0;
	int ret;

	for (i = 0; i < num && added < want; i++) {
		ret = rte_pmu_add_event(names[i]);
		if (ret < 0)
			continue;
		added++;
		if (strcmp(names[i], "instructions") == 0)
			idx_instr = ret;
		else if (strcmp(names[i], "cycles") == 0)
			idx_cycles = ret;
	}

	return added;
}

static void
reset_events(void)
{
	rte_pmu_fini();
	idx_instr = idx_cycles = UINT32_MAX;
	rte_pmu_init();
}

bool
perf_counts_exact(unsigned int instr, unsigned int cycles)
{
	uint64_t i0, i1, i2, c1, c2;

	if (instr == UINT32_MAX || cycles == UINT32_MAX || TEST_LOOP_INSNS == 0)
		return false;
	i0 = rte_pmu_read(instr);
	test_loop(100000);
	i1 = rte_pmu_read(instr);
	test_loop(100000);
	i2 = rte_pmu_read(instr);
	c1 = rte_pmu_read(cycles);
	test_loop(100000);
	c2 = rte_pmu_read(cycles);
	printf("exactness probe: loops of %" PRIu64 " and %" PRIu64 " instructions, "
		"%" PRIu64 " cycles\n", i1 - i0, i2 - i1, c2 - c1);

	return i1 - i0 == i2 - i1 && i1 - i0 >= 100000u * TEST_LOOP_INSNS &&
		i1 - i0 < 100000u * TEST_LOOP_INSNS + 500 &&
		llabs((long long)(c2 - c1) - (long long)(i2 - i1)) < 100;
}

/* Every open event of the calling lcore read from its user page? */
static unsigned int
user_events(void)
{
	struct rte_pmu_lcore_info info;
	unsigned int i, n = 0;

	if (rte_pmu_lcore_info_get(rte_lcore_id(), &info) != 0)
		return 0;
	for (i = 0; i < info.num_events; i++)
		if (info.events[i].path == RTE_PMU_PATH_USER)
			n++;

	return n;
}

/* rte_pmu_read() alone in a function, for the disassembly that
 * devtools/ci-perf.sh counts (static instructions of the inline read).
 */
uint64_t test_pmu_perf_read(unsigned int index);

__rte_noinline uint64_t
test_pmu_perf_read(unsigned int index)
{
	return rte_pmu_read(index);
}

static struct perf_event_mmap_page scaled_page __rte_aligned(4096);

/* The inline read of a multiplexed counter: the cycles page copied with
 * time_enabled != time_running, put in place of the real one for the
 * measurement (the counter register is the real one).
 */
static void
measure_scaled(unsigned int idx)
{
	struct rte_pmu_event_group *group = &rte_pmu_event_groups[rte_lcore_id()];
	struct perf_event_mmap_page *real = group->mmap_pages[idx];
	struct cost base, scaled;
	uint64_t caps;

	memcpy(&scaled_page, real, sizeof(scaled_page));
	caps = scaled_page.capabilities;
	if ((caps & __RTE_PMU_CAP_USER_TIME) == 0) {
		perf_figure_skip("scaled read (multiplexed), instructions",
			"the page has no cap_user_time");
		return;
	}
	/* The real offset: count = the real count, small; 0 would leave the
	 * raw register (started near 2^63 by the kernel) as the count.
	 */
	scaled_page.lock = 2;
	scaled_page.time_running = 1000;
	scaled_page.time_enabled = 3000;
	/* Time since the update close to 0, so that count x enabled fits in
	 * 64 bits: the common case; the overflow case is pmu_scale_autotest's.
	 */
	scaled_page.time_offset = 0;
	scaled_page.time_offset = -__rte_pmu_page_time_since(&scaled_page, caps,
		__rte_pmu_time_read);

	group->mmap_pages[idx] = &scaled_page;
	ROUNDS_OF(CALLS_INLINE, base, sink += _k, scaled, sink += rte_pmu_read(idx));
	group->mmap_pages[idx] = real;
	RTE_SET_USED(base);

	perf_figure("scaled read (multiplexed), instructions", "instr", scaled.instr,
		GOAL_SCALED, exact, GOAL_SCALED);
}

/* Inline read, scaled read, snapshot of the user-page events. */
static void
phase_user_page(void)
{
	static const char *const hw[] = {
		"instructions", "cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
		"inst_retired", "cpu_cycles", "armv8_pmuv3/inst_retired,long=0/",
		"armv8_pmuv3/cpu_cycles,long=0/", "branches", "branch-misses",
		"cache-references", "cache-misses", "bus-cycles",
	};
	uint64_t values[RTE_MAX_NUM_GROUP_EVENTS];
	struct cost single, snap;
	unsigned int i, n, users, idx;
	double sum = 0;
	char name[64];

	n = add_events(hw, RTE_DIM(hw), SNAP_EVENTS);
	sink += rte_pmu_read(0);
	users = user_events();
	printf("hardware events: %u added, %u read from the user page\n", n, users);
	exact = perf_counts_exact(idx_instr, idx_cycles);
	if (n == 0 || users == 0 || (idx_cycles == UINT32_MAX && idx_instr == UINT32_MAX)) {
		perf_figure_skip("inline read (user page), instructions",
			"no user-readable hardware counter here");
		perf_figure_skip("scaled read (multiplexed), instructions", "idem");
		perf_figure_skip("snapshot of the user-page events, instr", "idem");
		return;
	}
	idx = idx_cycles != UINT32_MAX ? idx_cycles : idx_instr;

	ROUNDS_OF(CALLS_INLINE, single, sink += rte_pmu_read(idx), snap,
		sink += rte_pmu_read_group(values, n));
	printf("inline read: %.1f instr, %.1f ns; snapshot of %u: %.1f instr, %.1f ns\n",
		single.instr, single.ns, n, snap.instr, snap.ns);
	perf_figure("inline read (user page), instructions", "instr", single.instr,
		GOAL_INLINE, exact, GATE_INLINE);
	if (idx_instr != UINT32_MAX && idx != idx_instr) {
		struct cost other, none;

		ROUNDS_OF(CALLS_INLINE, other, sink += rte_pmu_read(idx_instr), none,
			sink += _k);
		RTE_SET_USED(none);
		perf_figure("inline read, event counter (not cycles)", "instr", other.instr,
			GOAL_INLINE, exact, GATE_INLINE);
	}
	/* The reference: a single read of each of the same events. */
	for (i = 0; i < n; i++) {
		struct cost one, none;

		ROUNDS_OF(CALLS_INLINE, one, sink += rte_pmu_read(i), none, sink += _k);
		RTE_SET_USED(none);
		sum += one.instr;
	}
	snprintf(name, sizeof(name), "snapshot of %u user-page events, instr", n);
	perf_figure(name, "instr", snap.instr, sum + GOAL_SNAP_EXTRA, exact && users == n,
		sum + GOAL_SNAP_EXTRA);

	measure_scaled(idx);
}

/* Fallback read of a software event against a plain read() of a
 * single-value descriptor; snapshot of software events; read() count.
 */
static void
phase_fallback(void)
{
	static const char *const sw[] = { "task-clock", "context-switches", "page-faults" };
	struct perf_event_attr attr;
	uint64_t values[RTE_DIM(sw)], buf[4], before, after;
	struct cost plain, fb, snap, plain2;
	double fb_ratio, snap_ratio;
	struct syscount sc;
	char name[64];
	unsigned int n;
	int fd;

	reset_events();
	n = add_events(sw, RTE_DIM(sw), RTE_DIM(sw));
	if (n == 0) {
		perf_figure_skip("fallback read / plain read()", "no software event");
		return;
	}
	sink += rte_pmu_read(0);

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	fd = pmu_fd_open(&attr, -1);
	if (fd < 0) {
		perf_figure_skip("fallback read / plain read()", "perf_event_open(task-clock)");
		return;
	}

	ROUNDS_OF(CALLS_SYS, fb, sink += rte_pmu_read(0), plain,
		sink += read(fd, buf, sizeof(buf)));
	fb_ratio = last_ratio;
	ROUNDS_OF(CALLS_SYS, snap, sink += rte_pmu_read_group(values, n), plain2,
		sink += read(fd, buf, sizeof(buf)));
	snap_ratio = last_ratio;
	close(fd);
	printf("plain read(): %.1f ns; fallback read: %.1f ns; snapshot of %u software "
		"events: %.1f ns (plain read() beside it: %.1f ns); medians of %u rounds\n",
		plain.ns, fb.ns, n, snap.ns, plain2.ns, ROUNDS);
	perf_figure("fallback read, ns per plain read() ns", "ratio", fb_ratio,
		GOAL_FALLBACK, exact, GOAL_FALLBACK);
	/* Printed: the group read() gives n + 1 values, a plain read() one. */
	snprintf(name, sizeof(name), "snapshot of %u software events / read()", n);
	perf_figure(name, "ratio", snap_ratio, 1, false, 0);

	if (syscount_open(&sc) != 0) {
		perf_figure_skip("snapshot of software events, read() calls",
			"no /proc/thread-self/io");
		return;
	}
	before = syscount_reads(&sc);
	sink += rte_pmu_read_group(values, n);
	after = syscount_reads(&sc);
	syscount_close(&sc);
	perf_figure("snapshot of software events, read() calls", "calls",
		(double)(after - before), 1, true, 1);
}

/* First read on a fresh lcore: opens its group of 8 events. */
struct first_read {
	int kfd;         /* instructions with the kernel's, or -1 */
	double us;
	double instr;    /* < 0: not counted */
	int ret;
};

static uint64_t
kinstr(int fd)
{
	uint64_t v = 0;

	if (fd >= 0 && read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		v = 0;

	return v;
}

static void *
first_read_thread(void *arg)
{
	struct first_read *fr = arg;
	uint64_t i0, i1, i2, t0, t1;

	if (rte_thread_register() != 0) {
		fr->ret = -ENOSPC;
		return NULL;
	}
	fr->kfd = -1;
	if (exact) {
		struct perf_event_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_HARDWARE;
		attr.config = PERF_COUNT_HW_INSTRUCTIONS;
		fr->kfd = pmu_fd_open(&attr, -1);
	}
	i0 = kinstr(fr->kfd);
	i1 = kinstr(fr->kfd);
	t0 = rte_rdtsc_precise();
	sink += rte_pmu_read(0);
	t1 = rte_rdtsc_precise();
	i2 = kinstr(fr->kfd);
	fr->us = (double)(t1 - t0) * 1e6 / rte_get_tsc_hz();
	/* The read() pair around the first read costs what the pair before it did. */
	fr->instr = fr->kfd >= 0 ? (double)(i2 - i1) - (double)(i1 - i0) : -1.0;
	fr->ret = rte_pmu_lcore_status(rte_lcore_id());
	if (fr->kfd >= 0)
		close(fr->kfd);
	rte_thread_unregister();

	return NULL;
}

static void
phase_eight_events(void)
{
	static const char *const hw[] = {
		"instructions", "cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
		"inst_retired", "cpu_cycles", "branches", "cache-references",
	};
	static const char *const sw[] = {
		"task-clock", "context-switches", "page-faults", "cpu-clock", "minor-faults",
		"major-faults", "cpu-migrations", "msr/tsc/",
	};
	uint64_t values[RTE_MAX_NUM_GROUP_EVENTS], before, after;
	struct first_read fr = { .ret = 0 };
	unsigned int n, nhw, users;
	struct syscount sc;
	pthread_t t;
	char name[64];

	reset_events();
	nhw = add_events(hw, RTE_DIM(hw), 5);
	n = nhw + add_events(sw, RTE_DIM(sw), RTE_MAX_NUM_GROUP_EVENTS - nhw);
	printf("group of %u events (%u hardware)\n", n, nhw);

	if (pthread_create(&t, NULL, first_read_thread, &fr) == 0 && pthread_join(t, NULL) == 0 &&
			fr.ret == 1) {
		snprintf(name, sizeof(name), "first read, %u events (lazy open), us", n);
		perf_figure(name, "us", fr.us, 0, false, 0);
		snprintf(name, sizeof(name), "first read, %u events, instr incl. kernel", n);
		if (fr.instr >= 0)
			perf_figure(name, "instr", fr.instr, 0, false, 0);
		else
			perf_figure_skip(name, "instructions not counted exactly here");
	} else {
		perf_figure_skip("first read (lazy open)", "no registered thread or open failed");
	}

	sink += rte_pmu_read_group(values, n);
	users = user_events();
	if (syscount_open(&sc) == 0) {
		before = syscount_reads(&sc);
		sink += rte_pmu_read_group(values, n);
		after = syscount_reads(&sc);
		syscount_close(&sc);
		snprintf(name, sizeof(name), "snapshot, %u page + %u fallback: read() calls",
			users, n - users);
		perf_figure(name, "calls", (double)(after - before), 1, n > users, 1);
	}

	perf_many_lcores(n, false);
	perf_many_lcores(n, true);
}

/* The hand-written way, for the reference column: two snapshots of the
 * group around the stage, the sums, calls and items.
 */
static uint64_t hand_start[RTE_MAX_NUM_GROUP_EVENTS], hand_now[RTE_MAX_NUM_GROUP_EVENTS];
static uint64_t hand_sum[RTE_MAX_NUM_GROUP_EVENTS], hand_calls, hand_items;

static __rte_always_inline void
hand_pair(unsigned int n)
{
	unsigned int i;

	rte_pmu_read_group(hand_start, n);
	rte_pmu_read_group(hand_now, n);
	for (i = 0; i < n; i++)
		hand_sum[i] += hand_now[i] - hand_start[i];
	hand_calls++;
	hand_items += STAGE_ITEMS;
}

/* One chained boundary by hand: one snapshot, the sums from the last. */
static __rte_always_inline void
hand_next(unsigned int n)
{
	unsigned int i;

	rte_pmu_read_group(hand_now, n);
	for (i = 0; i < n; i++) {
		hand_sum[i] += hand_now[i] - hand_start[i];
		hand_start[i] = hand_now[i];
	}
	hand_calls++;
	hand_items += STAGE_ITEMS;
}

/* Stage calls with @p want user-page events: a begin/end pair, a chained
 * boundary, a pair sampled 1 in 16; against the same by hand.
 */
static void
stage_rows(unsigned int want, double pair_gate)
{
	static const char *const hw[] = {
		"instructions", "cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
		"branches", "branch-misses", "cache-references", "cache-misses",
	};
	static const char *const sw[] = {
		"task-clock", "page-faults", "context-switches", "cpu-migrations",
	};
	struct cost pair, hand, next, hnext, sampled, none;
	bool user = true, gate;
	const char *unit;
	unsigned int n;
	char name[64];
	int a, b, s16;

	reset_events();
	n = add_events(hw, RTE_DIM(hw), want);
	if (n != want || rte_pmu_lcore_open() != 0 || user_events() != n) {
		/* No user-page counters: the read() path, in ns, not gated. */
		reset_events();
		n = add_events(sw, RTE_DIM(sw), want);
		user = false;
		if (n != want || rte_pmu_lcore_open() != 0) {
			snprintf(name, sizeof(name), "stage begin/end pair, %u events", want);
			perf_figure_skip(name, "not that many events here");
			return;
		}
	}
	gate = false;
	unit = user ? "instr" : "ns";
	a = rte_pmu_stage_register("perf-a");
	b = rte_pmu_stage_register("perf-b");
	s16 = rte_pmu_stage_register("perf-sampled");
	rte_pmu_stage_sampling_set(s16, 16);
	rte_pmu_stage_begin(a);
	rte_pmu_stage_end(a, STAGE_ITEMS);

	ROUNDS_OF(CALLS_INLINE, pair, {
			rte_pmu_stage_begin(a);
			rte_pmu_stage_end(a, STAGE_ITEMS);
		}, hand, hand_pair(n));
	snprintf(name, sizeof(name), "stage pair, %u events (goal %.0f), %s", n, pair_gate,
		unit);
	if (user)
		perf_figure(name, unit, pair.instr, hand.instr, gate, pair_gate);
	else
		perf_figure(name, unit, pair.ns, hand.ns, false, 0);

	/* Two boundaries an iteration: a -> b -> a. */
	rte_pmu_stage_begin(a);
	rte_pmu_read_group(hand_start, n);
	ROUNDS_OF(CALLS_INLINE, next, {
			rte_pmu_stage_next(a, STAGE_ITEMS, b);
			rte_pmu_stage_next(b, STAGE_ITEMS, a);
		}, hnext, {
			hand_next(n);
			hand_next(n);
		});
	rte_pmu_stage_end(a, 0);
	snprintf(name, sizeof(name), "stage chained boundary, %u events (goal %d), %s", n,
		n == 2 ? GATE_STAGE_NEXT_2 : 0, unit);
	if (user)
		perf_figure(name, unit, next.instr / 2, hnext.instr / 2, gate && n == 2,
			n == 2 ? GATE_STAGE_NEXT_2 : 0);
	else
		perf_figure(name, unit, next.ns / 2, hnext.ns / 2, false, 0);

	ROUNDS_OF(CALLS_INLINE * 4, sampled, {
			rte_pmu_stage_begin(s16);
			rte_pmu_stage_end(s16, STAGE_ITEMS);
		}, none, sink += _k);
	RTE_SET_USED(none);
	snprintf(name, sizeof(name), "stage pair 1 in 16, %u events (goal %d), %s", n,
		GATE_STAGE_SAMPLED, unit);
	if (user)
		perf_figure(name, unit, sampled.instr, pair.instr / 16, gate,
			GATE_STAGE_SAMPLED);
	else
		perf_figure(name, unit, sampled.ns, pair.ns / 16, false, 0);
	sink += hand_sum[0] + hand_calls + hand_items;
}

static void
phase_stages(void)
{
	stage_rows(2, GATE_STAGE_PAIR_2);
	stage_rows(4, GATE_STAGE_PAIR_4);
}

static int
test_pmu_perf(void)
{
	unsigned int failed;
	int ret;

	ret = pmu_init_real();
	if (ret != TEST_SUCCESS)
		return ret;
	num_figures = 0;
	exact = false;

	phase_user_page();
	phase_stages();
	phase_fallback();
	phase_eight_events();

	rte_pmu_fini();
	idx_instr = idx_cycles = UINT32_MAX;

	failed = print_table();
	TEST_ASSERT_EQUAL(failed, 0u, "%u goal(s) missed", failed);

	return sink != 0 ? TEST_SUCCESS : TEST_FAILED;
}

REGISTER_PERF_TEST(pmu_perf_autotest, test_pmu_perf);
