/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_PERF_H
#define TEST_PMU_PERF_H

/* The goals table of pmu_perf_autotest, shared by its parts. */

#include <stdbool.h>

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
