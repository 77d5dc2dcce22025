/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_API_H
#define TEST_PMU_API_H

/* What the tests of the API against the real kernel share: their case
 * setup, the busy loop and the descriptor count. Each test_pmu_<what>.c
 * exports its suite for pmu_autotest (test_pmu.c), which runs them all.
 */

#include <stdint.h>

#include "test.h"

/* Case setup and teardown: rte_pmu_init(), rte_pmu_fini(). */
int pmu_api_setup(void);
void pmu_api_teardown(void);

/* Run in user space until this thread has used @p ms ms of CPU time (so a
 * loaded machine cannot shorten it), or 5 s of wall time went by.
 */
uint64_t pmu_api_busy_ms(unsigned int ms);

/* The first worker lcore, RTE_MAX_LCORE when there is none. */
unsigned int pmu_api_first_worker(void);

/* Entries of /proc/self/fd, -1 when it cannot be read. */
int pmu_api_count_fds(void);

/* Occurrences of @p what in @p text (NULL: 0). */
unsigned int pmu_api_count_in(const char *text, const char *what);

/* The suites, each also a test of its own (pmu_<what>_autotest). */
extern struct unit_test_suite pmu_init_suite;
extern struct unit_test_suite pmu_add_suite;
extern struct unit_test_suite pmu_read_suite;
extern struct unit_test_suite pmu_lcore_suite;

#endif /* TEST_PMU_API_H */
