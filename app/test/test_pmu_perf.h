/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_PERF_H
#define TEST_PMU_PERF_H

/* The goals table of pmu_perf_autotest, shared by its parts. */

#include <stdbool.h>
#include <stdint.h>

#include <rte_cycles.h>

#include <rte_pmu.h>

/* Rounds of each measurement (medians) and calls of an inline one. */
#define ROUNDS 9
#define CALLS_INLINE 20000u

/* The measurement state of pmu_perf_autotest (test_pmu_perf.c). */
extern unsigned int perf_idx_instr;  /* "instructions" when added, else UINT32_MAX */
extern unsigned int perf_idx_cycles; /* "cycles" when added, else UINT32_MAX */
extern bool perf_exact;              /* counts exact here: goals gated */
extern volatile uint64_t perf_sink;  /* keeps measured values alive */
/* Median of the per-round ratios a / b of the last ROUNDS_OF(): each
 * round's pair runs back to back, so a slow spell of the machine hits both.
 */
extern double perf_last_ratio;

double perf_median(double *v, unsigned int n);

/* Add events from @p names until @p want of them are in; returns how many
 * (sets perf_idx_instr and perf_idx_cycles).
 */
unsigned int perf_add_events(const char *const *names, unsigned int num, unsigned int want);

/* rte_pmu_fini() and rte_pmu_init(): no event added. */
void perf_reset_events(void);

/* Events of the calling lcore read from their user page. */
unsigned int perf_user_events(void);

/* The stage rows of the goals table (test_pmu_perf_stage.c). */
void perf_stages(void);

struct cost {
	double ns;
	double instr; /* user-space instructions; < 0: not counted */
};

/* Run @body @n times: ns and user instructions per run. */
#define MEASURE(result, n, body) do { \
	uint64_t _i0 = 0, _i1 = 0, _t0, _t1; \
	if (perf_idx_instr != UINT32_MAX) \
		_i0 = rte_pmu_read(perf_idx_instr); \
	_t0 = rte_rdtsc_precise(); \
	for (unsigned int _k = 0; _k < (n); _k++) { \
		body; \
		rte_compiler_barrier(); \
	} \
	_t1 = rte_rdtsc_precise(); \
	if (perf_idx_instr != UINT32_MAX) \
		_i1 = rte_pmu_read(perf_idx_instr); \
	(result).ns = (double)(_t1 - _t0) * 1e9 / rte_get_tsc_hz() / (n); \
	(result).instr = perf_idx_instr != UINT32_MAX ? (double)(_i1 - _i0) / (n) : -1.0; \
} while (0)

/* Interleaved rounds of a baseline and two bodies; medians of the
 * per-call costs with the baseline taken off, and of their ratio.
 */
#define ROUNDS_OF(n, out_a, body_a, out_b, body_b) do { \
	double _na[ROUNDS], _ia[ROUNDS], _nb[ROUNDS], _ib[ROUNDS], _q[ROUNDS]; \
	struct cost _base, _a, _b; \
	for (unsigned int _r = 0; _r < ROUNDS; _r++) { \
		MEASURE(_base, n, perf_sink += _k); \
		MEASURE(_a, n, body_a); \
		MEASURE(_b, n, body_b); \
		_na[_r] = _a.ns - _base.ns; \
		_ia[_r] = _a.instr - _base.instr; \
		_nb[_r] = _b.ns - _base.ns; \
		_ib[_r] = _b.instr - _base.instr; \
		_q[_r] = _nb[_r] > 0 ? _na[_r] / _nb[_r] : 0; \
	} \
	perf_last_ratio = perf_median(_q, ROUNDS); \
	(out_a).ns = perf_median(_na, ROUNDS); \
	(out_a).instr = perf_idx_instr != UINT32_MAX ? perf_median(_ia, ROUNDS) : -1.0; \
	(out_b).ns = perf_median(_nb, ROUNDS); \
	(out_b).instr = perf_idx_instr != UINT32_MAX ? perf_median(_ib, ROUNDS) : -1.0; \
} while (0)



/* Add a measured figure. @limit > 0: the figure is gated (fails above
 * @limit) when @gate is true; @ref <= 0: no reference (printed only).
 */
void perf_figure(const char *name, const char *unit, double ours, double ref, bool gate,
	double limit);

/* A figure that could not be measured here, and why. */
void perf_figure_skip(const char *name, const char *why);

/* Open, read and close 8 events (the current event list) on every free
 * lcore id, the groups opened in turn or, with @p at_once, all at once;
 * adds its figures to the table. Returns 0 or negative errno.
 */
int perf_many_lcores(unsigned int num_events, bool at_once);

/*
 * Are counts exact here (QEMU -icount)? Two identical loops count the same
 * instructions (event index @p instr), and cycles (@p cycles) equal
 * instructions. Prints what it measured. False when either is UINT32_MAX.
 */
bool perf_counts_exact(unsigned int instr, unsigned int cycles);

#endif /* TEST_PMU_PERF_H */
