/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_OUTPUT_H
#define TEST_PMU_OUTPUT_H

/* Output formats: a perf-stat-like table, CSV and JSON. */

#include <stddef.h>
#include <stdint.h>

#include "report.h"

struct tool_output {
	/* Once, before the first report; @p lcores is how many lcores count. */
	void (*begin)(const struct tool_options *opts, const struct tool_events *evs,
		unsigned int lcores);
	/* One report: the whole run, or one interval. */
	void (*report)(const struct tool_report *rep);
};

extern const struct tool_output tool_output_table;
extern const struct tool_output tool_output_csv;
extern const struct tool_output tool_output_json;

/* The output of @p opts' format. */
const struct tool_output *tool_output_get(const struct tool_options *opts);

/* @p v with thousands grouped by commas ("1,234,567"). Returns @p buf. */
char *tool_group_digits(int64_t v, char *buf, size_t len);

#endif /* TEST_PMU_OUTPUT_H */
