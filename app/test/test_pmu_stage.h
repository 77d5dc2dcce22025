/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_STAGE_H
#define TEST_PMU_STAGE_H

/* The parts of pmu_stage_autotest: the suite and the counting cases in
 * test_pmu_stage.c, the cases of the API's rules in test_pmu_stage_api.c.
 */

/* rte_pmu up with one event (instructions where it opens, task-clock
 * else), the calling lcore's group open, and what it counts printed
 * (test_pmu_stage.c).
 */
int test_pmu_stage_setup(void);

/* test_pmu_stage_api.c */
int test_stage_register(void);
int test_stage_misuse(void);
int test_stage_lifecycle(void);

#endif /* TEST_PMU_STAGE_H */
