/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* perf stat's formats, for perf stat's letters: -x SEP (perf's CSV) and -j
 * (perf's JSON lines), as perf 6.1 prints them. A line per event: of the
 * total over the lcores, or with -A of each lcore (as perf's -A gives a
 * line per CPU, "CPU0" first). The fields, in perf's order:
 *
 *   [interval stamp] [lcoreN] value unit event [variance%] run-time
 *   percent-running metric-value metric-unit net-of-read-cost|raw
 *
 * task-clock and cpu-clock in msec, other counts as integers;
 * "<not supported>" for an event that does not open, "<not counted>" on an
 * lcore that counted nothing. run-time is the lcore's elapsed ns (the
 * longest lcore's in the total); percent-running 100.00 unless the event
 * was multiplexed. The variance (perf's, -r) is the spread of the mean,
 * on each line of a run with -r (0.00 where there is none: the
 * <not supported> and <not counted> lines, and each interval of -I).
 * The last field, the tool's own, says whether the figures are net of
 * the read overhead (perf has no such cost to take away).
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "output.h"

/* One line's fields, formatted as the two formats share them. */
struct perf_line {
	char value[48];                 /* CSV's */
	char json_value[48];            /* JSON's counter-value */
	const char *unit;
	bool has_variance;
	double variance;
	uint64_t runtime;
	double running_pct;
	bool has_metric;
	double metric;
	char metric_unit[48];
};

static const char *sep = ",";

/* A rate per second scaled with perf's prefixes: 27.994 K/sec. */
static void
perf_rate(struct perf_line *l, double rate)
{
	static const char *const prefix[] = { "", "K", "M", "G" };
	unsigned int p = 0;

	while (rate >= 1000.0 && p + 1 < RTE_DIM(prefix)) {
		rate /= 1000.0;
		p++;
	}
	l->metric = rate;
	snprintf(l->metric_unit, sizeof(l->metric_unit), "%s/sec", prefix[p]);
}

static void
perf_fill(const struct tool_report *rep, const struct tool_record *rec,
	const struct tool_row *row, struct perf_line *l)
{
	bool clock = row->unit[0] != '\0';

	memset(l, 0, sizeof(*l));
	l->unit = clock ? "msec" : "";
	l->running_pct = 100.0;
	/* With -r, on every line of the run, as perf stat prints it: the
	 * <not supported> and <not counted> ones too, and those of -I (0.00:
	 * an interval is one reading, the mean of no runs).
	 */
	l->has_variance = rep->opts->repeat > 1;
	if (!row->ev->supported || rec->status != 1) {
		snprintf(l->value, sizeof(l->value), "%s",
			!row->ev->supported ? "<not supported>" : "<not counted>");
		snprintf(l->json_value, sizeof(l->json_value), "%s", l->value);
		return;
	}
	if (clock) {
		snprintf(l->value, sizeof(l->value), "%.2f", (double)row->value / 1e6);
		snprintf(l->json_value, sizeof(l->json_value), "%f", (double)row->value / 1e6);
	} else {
		snprintf(l->value, sizeof(l->value), "%" PRId64, row->value);
		snprintf(l->json_value, sizeof(l->json_value), "%f", (double)row->value);
	}
	l->variance = row->has_spread ? row->spread : 0.0;
	l->runtime = (uint64_t)(rec->elapsed_ns + 0.5);
	l->running_pct = row->running_pct;
	if (!row->has_ratio)
		return;
	l->has_metric = true;
	if (strcmp(row->ratio_unit, "/sec") == 0) {
		perf_rate(l, row->ratio);
		return;
	}
	l->metric = row->ratio;
	/* "% of all branches": perf's unit leaves the % to the value. */
	snprintf(l->metric_unit, sizeof(l->metric_unit), "%s",
		strncmp(row->ratio_unit, "% ", 2) == 0 ? row->ratio_unit + 2 : row->ratio_unit);
}

static void
perf_begin(const struct tool_options *opts, const struct tool_events *evs, unsigned int lcores)
{
	tool_output_notes(opts, evs, lcores);
	sep = opts->csv_sep != NULL ? opts->csv_sep : ",";
}

static void
perf_csv_line(const struct tool_report *rep, const struct tool_record *rec,
	const struct tool_row *row)
{
	char buf[48];
	struct perf_line l;

	perf_fill(rep, rec, row, &l);
	if (rep->interval != 0)
		printf("%s%s", tool_format_stamp(rep->time_s, buf, sizeof(buf)), sep);
	if (rep->opts->no_aggr)
		printf("lcore%u%s", rec->lcore_id, sep);
	/* A field holding the separator quoted ("/sec" with -x /, "CPUs
	 * utilized" with -x ' '), as the event's name is.
	 */
	tool_csv_field(l.value, sep, false);
	tool_csv_field(l.unit, sep, false);
	tool_csv_field(row->ev->name, sep, false);
	if (l.has_variance) {
		snprintf(buf, sizeof(buf), "%.2f%%", l.variance);
		tool_csv_field(buf, sep, false);
	}
	snprintf(buf, sizeof(buf), "%" PRIu64, l.runtime);
	tool_csv_field(buf, sep, false);
	snprintf(buf, sizeof(buf), "%.2f", l.running_pct);
	tool_csv_field(buf, sep, false);
	if (l.has_metric)
		snprintf(buf, sizeof(buf), "%.3f", l.metric);
	tool_csv_field(l.has_metric ? buf : "", sep, false);
	tool_csv_field(l.has_metric ? l.metric_unit : "", sep, false);
	printf("%s\n", rep->opts->raw ? "raw" : "net-of-read-cost");
}

static void
perf_json_line(const struct tool_report *rep, const struct tool_record *rec,
	const struct tool_row *row)
{
	struct perf_line l;

	perf_fill(rep, rec, row, &l);
	printf("{");
	if (rep->interval != 0)
		printf("\"interval\" : %.9f, ", rep->time_s);
	if (rep->opts->no_aggr)
		printf("\"lcore\" : \"%u\", ", rec->lcore_id);
	printf("\"counter-value\" : \"%s\", \"unit\" : \"%s\", \"event\" : ", l.json_value,
		l.unit);
	tool_json_str(row->ev->name);
	if (l.has_variance)
		printf(", \"variance\" : %.2f", l.variance);
	printf(", \"event-runtime\" : %" PRIu64 ", \"pcnt-running\" : %.2f, "
		"\"metric-value\" : %f, \"metric-unit\" : ", l.runtime, l.running_pct,
		l.has_metric ? l.metric : 0.0);
	tool_json_str(l.metric_unit);
	printf(", \"net-of-read-cost\" : %s}\n", rep->opts->raw ? "false" : "true");
}

/* The total's lines, or each lcore's with -A; the events in their order. */
static void
perf_report(const struct tool_report *rep, void (*line)(const struct tool_report *,
	const struct tool_record *, const struct tool_row *))
{
	unsigned int r, i, first = rep->opts->no_aggr ? 0 : rep->count - 1;
	unsigned int end = rep->opts->no_aggr ? rep->count - 1 : rep->count;

	for (r = first; r < end; r++)
		for (i = 0; i < rep->evs->count; i++)
			line(rep, &rep->rec[r], &rep->rec[r].rows[i]);
}

static void
perf_csv_report(const struct tool_report *rep)
{
	perf_report(rep, perf_csv_line);
}

static void
perf_json_report(const struct tool_report *rep)
{
	perf_report(rep, perf_json_line);
}

const struct tool_output tool_output_perf_csv = {
	.begin = perf_begin,
	.report = perf_csv_report,
};

const struct tool_output tool_output_perf_json = {
	.begin = perf_begin,
	.report = perf_json_report,
};
