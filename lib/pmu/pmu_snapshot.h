/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_SNAPSHOT_H
#define PMU_SNAPSHOT_H

/* Snapshots of a group (pmu_snapshot.c), from the lcore's thread.
 */

#include <stdint.h>

#include "pmu_state.h"

/**
 * The events of @p lc whose pages could not give them (bit i of @p slow:
 * event i of @p values, @p n of them): those pmu_read_tsc() gives from
 * rte_rdtsc(), the rest from one read() of the whole group (a slow read,
 * counted); the others are left as they are. Returns @p n, or negative
 * errno when read() failed or gave fewer values (values of the events it
 * was for left unchanged).
 */
int pmu_read_group_fallback(struct pmu_lcore *lc, uint64_t *values, unsigned int n,
	uint32_t slow);

#endif /* PMU_SNAPSHOT_H */
