/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_H
#define PMU_H

/* The control path (pmu.c): what the layers above it call besides the
 * API of rte_pmu.h, and its hook for tests.
 */

/**
 * Open @p lcore_id's group now, from the lcore's own thread, unless it is
 * open or failed for good (again after a transient failure, -EAGAIN).
 * Returns 0 when it is open, or negative errno: -ENODEV library not
 * initialised; -ENODATA no event added; the group's failed status
 * otherwise.
 */
int pmu_lcore_open(unsigned int lcore_id);

/**
 * The core PMU's folder name found by rte_pmu_init() (e.g. "cpu",
 * "armv8_pmuv3_0"), "" when there is none or the library is not
 * initialised. For tests and tools that build pmu/term/ names.
 */
const char *__rte_pmu_core_pmu(void);

#endif /* PMU_H */
