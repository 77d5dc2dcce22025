/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_OUTPUT_H
#define TEST_PMU_OUTPUT_H

/* Output formats: a perf-stat-like table, perf stat's CSV (-x) and JSON
 * (-j), and the tool's own CSV (--csv) and JSON (--json).
 */

#include <stdbool.h>
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
extern const struct tool_output tool_output_perf_csv;
extern const struct tool_output tool_output_perf_json;

/* The begin of the machine-readable formats: notes to stderr. */
void tool_output_notes(const struct tool_options *opts, const struct tool_events *evs,
	unsigned int lcores);

/* @p s as a CSV field on stdout, quoted when it holds @p separator, a
 * quote or a line break; then @p separator, or the end of the line when
 * @p last.
 */
void tool_csv_field(const char *s, const char *separator, bool last);

/* @p s as a JSON string on stdout. */
void tool_json_str(const char *s);

/* The output of @p opts' format. */
const struct tool_output *tool_output_get(const struct tool_options *opts);

/* @p v with thousands grouped by commas ("1,234,567"). Returns @p buf. */
char *tool_group_digits(int64_t v, char *buf, size_t len);

/* @p time_s as perf stat stamps an interval: seconds with 9 decimals, the
 * whole seconds right-aligned in 6 characters ("     0.500283167").
 * Returns @p buf.
 */
char *tool_format_stamp(double time_s, char *buf, size_t len);

#endif /* TEST_PMU_OUTPUT_H */
