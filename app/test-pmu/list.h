/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_LIST_H
#define TEST_PMU_LIST_H

/* dpdk-test-pmu --list: the events names can refer to here. */

#include <stdio.h>

/* Print every event rte_pmu_event_list() finds, one a line, with whether it
 * opens and its read path; rte_pmu_init() done. Returns 0 or negative errno.
 */
int list_events(FILE *out);

#endif /* TEST_PMU_LIST_H */
