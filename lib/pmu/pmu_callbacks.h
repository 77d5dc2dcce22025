/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_CALLBACKS_H
#define PMU_CALLBACKS_H

/* The callbacks of rte_pmu_callbacks_register(), run by the control path
 * without the library's lock (pmu_callbacks.c).
 */

/** Run every lcore_open callback for @p lcore_id: 0, or the first error. */
int pmu_callbacks_lcore_open(unsigned int lcore_id);

/** Run every fini callback. */
void pmu_callbacks_fini(void);

#endif /* PMU_CALLBACKS_H */
