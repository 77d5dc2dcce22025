/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_REPEAT_H
#define TEST_PMU_REPEAT_H

/* --repeat N (perf stat -r): the reports of N runs into one, each figure
 * their mean, each event count with its spread as perf stat gives it: the
 * standard deviation of the mean, in percent of the mean.
 */

#include "report.h"

/* Add the report of one run (the same lcores in every run). */
void tool_repeat_add(const struct tool_report *rep);

/* Turn @p rep, the last run's report (added), into the mean of the runs. */
void tool_repeat_finish(struct tool_report *rep);

#endif /* TEST_PMU_REPEAT_H */
