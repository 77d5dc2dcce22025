/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The tool's own machine-readable output, every figure it has: --csv (one
 * table: a header, then a row per report, lcore and event, and per stage,
 * lcore and event) and --json (one object per report, on one line). Values
 * are the kernel's units: clocks in ns, counts as integers, never grouped.
 * perf stat's formats (-x, -j) are output_perf.c's.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "output.h"

static const char *
status_text(const struct tool_record *rec, const struct tool_row *row)
{
	if (rec->status != 1)
		return "error";
	return row->ev->supported ? "counted" : "not supported";
}

/* The separator (--csv: a comma). */
static const char *sep = ",";

/* Empty CSV fields, each followed by the separator. */
static void
csv_empty(unsigned int n)
{
	while (n-- > 0)
		fputs(sep, stdout);
}

void
tool_csv_field(const char *s, const char *separator, bool last)
{
	const char *p;

	if (strstr(s, separator) == NULL && strpbrk(s, "\"\n") == NULL) {
		fputs(s, stdout);
	} else {
		putchar('"');
		for (p = s; *p != '\0'; p++) {
			if (*p == '"')
				putchar('"');
			putchar(*p);
		}
		putchar('"');
	}
	fputs(last ? "\n" : separator, stdout);
}

static void
csv_field(const char *s, bool last)
{
	tool_csv_field(s, sep, last);
}

/* A number in a CSV field (printf's @p fmt), then the separator. */
static void __rte_format_printf(1, 2)
csv_num(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputs(sep, stdout);
}

/* Notes go to stderr: stdout holds only data. */
void
tool_output_notes(const struct tool_options *opts __rte_unused, const struct tool_events *evs,
	unsigned int lcores __rte_unused)
{
	if (evs->fell_back)
		fprintf(stderr, "dpdk-test-pmu: no hardware events here; counting %s instead\n",
			evs->fallback);
}

/* One table, as perf stat -x gives: a row per report, lcore and event
 * (stage empty), then a row per stage, lcore and counted event (the
 * lcore's columns empty, not with --interval).
 */
static const char *const csv_columns[] = {
	"time_s", "interval", "lcore", "iterations", "elapsed_ns", "event", "value", "unit",
	"per_iteration", "read_overhead", "ratio", "ratio_unit", "read_path", "status",
	"reason", "stage", "calls", "items", "items_per_call", "measured", "misuse",
	"per_item", "ipc", "spread_pct", "inexact",
};

static void
csv_begin(const struct tool_options *opts, const struct tool_events *evs,
	unsigned int lcores)
{
	unsigned int i;

	tool_output_notes(opts, evs, lcores);
	sep = opts->csv_sep != NULL ? opts->csv_sep : ",";
	for (i = 0; i < RTE_DIM(csv_columns); i++)
		csv_field(csv_columns[i], i + 1 == RTE_DIM(csv_columns));
}

/* time_s, interval and lcore. */
static void
csv_where(const struct tool_report *rep, unsigned int lcore_id)
{
	csv_num("%.9f", rep->time_s);
	csv_num("%u", rep->interval);
	if (lcore_id == TOOL_TOTAL)
		csv_field("total", false);
	else
		csv_num("%u", lcore_id);
}

static void
csv_row(const struct tool_report *rep, const struct tool_record *rec,
	const struct tool_row *row)
{
	char buf[64];
	bool ok = rec->status == 1 && row->ev->supported;

	csv_where(rep, rec->lcore_id);
	csv_num("%" PRIu64, rec->iterations);
	csv_num("%.0f", rec->elapsed_ns);
	csv_field(row->ev->name, false);
	if (ok) {
		csv_num("%" PRId64, row->value);
		csv_field(row->unit, false);
		csv_num("%.6f", row->per_iteration);
		csv_num("%" PRIu64, row->overhead);
	} else {
		csv_empty(4);
	}
	if (ok && row->has_ratio)
		csv_num("%.6f", row->ratio);
	else
		csv_empty(1);
	csv_field(ok && row->ratio_unit != NULL ? row->ratio_unit : "", false);
	csv_field(ok ? row->path : "", false);
	csv_field(status_text(rec, row), false);
	if (rec->status != 1)
		snprintf(buf, sizeof(buf), "%s: %s", rec->error, strerror(-rec->status));
	csv_field(rec->status != 1 ? buf : row->ev->supported ? "" : row->ev->reason, false);
	/* stage .. ipc: empty. */
	csv_empty(8);
	if (ok && row->has_spread)
		printf("%.2f", row->spread);
	/* inexact: empty. */
	csv_empty(1);
	putchar('\n');
}

/* A row per stage, lcore (total last, with several lcores) and counted
 * event; not with --interval.
 */
static void
csv_stages(const struct tool_report *rep)
{
	const struct tool_stage_row *row;
	const struct tool_event *ev;
	unsigned int r, i;

	if (rep->stage_count == 0 || rep->interval != 0)
		return;
	for (r = 0; r < rep->stage_count; r++) {
		row = &rep->stages[r];
		for (i = 0; i < rep->evs->count; i++) {
			ev = &rep->evs->ev[i];
			if (!ev->supported)
				continue;
			csv_where(rep, row->lcore_id);
			/* iterations, elapsed_ns: the lcore's. */
			csv_empty(2);
			csv_field(ev->name, false);
			csv_num("%" PRIu64, row->values[ev->index]);
			/* unit .. reason: the lcore's. */
			csv_empty(8);
			csv_field(row->name, false);
			csv_num("%" PRIu64, row->calls);
			csv_num("%" PRIu64, row->items);
			csv_num("%.6f", row->items_per_call);
			csv_num("%" PRIu64, row->measured);
			csv_num("%" PRIu64, row->misuse);
			csv_num("%.6f", row->per_item[ev->index]);
			if (row->has_ipc)
				csv_num("%.6f", row->ipc);
			else
				csv_empty(1);
			/* spread_pct: empty. */
			csv_empty(1);
			printf("%u\n", (row->inexact >> ev->index) & 1);
		}
	}
}

static void
csv_report(const struct tool_report *rep)
{
	unsigned int r, i;

	for (r = 0; r < rep->count; r++)
		for (i = 0; i < rep->evs->count; i++)
			csv_row(rep, &rep->rec[r], &rep->rec[r].rows[i]);
	csv_stages(rep);
}

const struct tool_output tool_output_csv = {
	.begin = csv_begin,
	.report = csv_report,
};

void
tool_json_str(const char *s)
{
	const unsigned char *p;

	putchar('"');
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f) /* valid JSON whatever the bytes */
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

static void
json_event(const struct tool_row *row)
{
	printf("{\"event\":");
	tool_json_str(row->ev->name);
	if (!row->ev->supported) {
		printf(",\"supported\":false,\"reason\":");
		tool_json_str(row->ev->reason);
		printf("}");
		return;
	}
	printf(",\"supported\":true,\"value\":%" PRId64 ",\"unit\":", row->value);
	tool_json_str(row->unit);
	printf(",\"per_iteration\":%.6f,\"read_overhead\":%" PRIu64 ",\"read_path\":",
		row->per_iteration, row->overhead);
	tool_json_str(row->path);
	if (row->has_ratio) {
		printf(",\"ratio\":%.6f,\"ratio_unit\":", row->ratio);
		tool_json_str(row->ratio_unit);
	}
	if (row->has_spread)
		printf(",\"spread_pct\":%.2f", row->spread);
	printf("}");
}

static void
json_record(const struct tool_report *rep, const struct tool_record *rec)
{
	unsigned int i;

	if (rec->lcore_id == TOOL_TOTAL)
		printf("{\"lcores\":%u", rep->count - 1);
	else
		printf("{\"lcore\":%u", rec->lcore_id);
	if (rec->status != 1) {
		printf(",\"status\":\"error\",\"error\":");
		tool_json_str(rec->error != NULL ? rec->error : "failed");
		printf(",\"errno\":%d}", -rec->status);
		return;
	}
	printf(",\"status\":\"ok\",\"iterations\":%" PRIu64 ",\"rounds\":%" PRIu64
		",\"elapsed_ns\":%.0f,\"read_overhead_ns\":%.1f,\"events\":[",
		rec->iterations, rec->rounds, rec->elapsed_ns, rec->overhead_ns);
	for (i = 0; i < rep->evs->count; i++) {
		if (i != 0)
			putchar(',');
		json_event(&rec->rows[i]);
	}
	printf("]}");
}

static void
json_stage(const struct tool_report *rep, const struct tool_stage_row *row)
{
	const struct tool_event *ev;
	unsigned int i, n = 0;

	printf("{\"stage\":");
	tool_json_str(row->name);
	if (row->lcore_id == TOOL_TOTAL)
		printf(",\"lcores\":%u", rep->count - 1);
	else
		printf(",\"lcore\":%u", row->lcore_id);
	printf(",\"calls\":%" PRIu64 ",\"items\":%" PRIu64 ",\"items_per_call\":%.6f,"
		"\"measured\":%" PRIu64 ",\"misuse\":%" PRIu64 ",\"events\":[", row->calls,
		row->items, row->items_per_call, row->measured, row->misuse);
	for (i = 0; i < rep->evs->count; i++) {
		ev = &rep->evs->ev[i];
		if (!ev->supported)
			continue;
		printf("%s{\"event\":", n++ != 0 ? "," : "");
		tool_json_str(ev->name);
		printf(",\"value\":%" PRIu64 ",\"per_item\":%.6f,\"inexact\":%s}",
			row->values[ev->index], row->per_item[ev->index],
			(row->inexact >> ev->index) & 1 ? "true" : "false");
	}
	printf("]");
	if (row->has_ipc)
		printf(",\"ipc\":%.6f", row->ipc);
	printf("}");
}

/* "stages": a row per stage and lcore; "stage_totals": per stage, with
 * several lcores.
 */
static void
json_stages(const struct tool_report *rep)
{
	unsigned int r, n = 0, t = 0;

	printf(",\"stages\":[");
	for (r = 0; r < rep->stage_count; r++)
		if (rep->stages[r].lcore_id != TOOL_TOTAL) {
			printf("%s", n++ != 0 ? "," : "");
			json_stage(rep, &rep->stages[r]);
		}
	printf("],\"stage_totals\":[");
	for (r = 0; r < rep->stage_count; r++)
		if (rep->stages[r].lcore_id == TOOL_TOTAL) {
			printf("%s", t++ != 0 ? "," : "");
			json_stage(rep, &rep->stages[r]);
		}
	printf("]");
}

static void
json_report(const struct tool_report *rep)
{
	unsigned int r;

	printf("{\"time_s\":%.9f,\"interval\":%u,\"workload\":", rep->time_s, rep->interval);
	tool_json_str(rep->opts->workload->name);
	printf(",\"read_overhead_subtracted\":%s,", rep->opts->raw ? "false" : "true");
	if (rep->runs != 0)
		printf("\"runs\":%u,", rep->runs);
	printf("\"lcores\":[");
	for (r = 0; r + 1 < rep->count; r++) {
		if (r != 0)
			putchar(',');
		json_record(rep, &rep->rec[r]);
	}
	printf("],\"total\":");
	json_record(rep, &rep->rec[rep->count - 1]);
	json_stages(rep);
	printf("}\n");
}

const struct tool_output tool_output_json = {
	.begin = tool_output_notes,
	.report = json_report,
};
