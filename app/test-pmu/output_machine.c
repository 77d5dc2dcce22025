/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Machine-readable output: CSV (a header, then one row per report, lcore
 * and event) and JSON (one object per report, on one line). Values are the
 * kernel's units: clocks in ns, counts as integers, never grouped.
 */

#include <inttypes.h>
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

/* A CSV field, quoted when it holds a comma, a quote or a line break. */
static void
csv_field(const char *s, bool last)
{
	const char *p;

	if (strpbrk(s, ",\"\n") == NULL) {
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
	putchar(last ? '\n' : ',');
}

/* Notes go to stderr: stdout holds only data. */
static void
machine_begin(const struct tool_options *opts __rte_unused, const struct tool_events *evs,
	unsigned int lcores __rte_unused)
{
	if (evs->fell_back)
		fprintf(stderr, "dpdk-test-pmu: no hardware events here; counting software "
			"events %s\n", evs->fallback);
}

static void
csv_begin(const struct tool_options *opts, const struct tool_events *evs,
	unsigned int lcores)
{
	machine_begin(opts, evs, lcores);
	printf("time_s,interval,lcore,iterations,elapsed_ns,event,value,unit,per_iteration,"
		"read_overhead,ratio,ratio_unit,read_path,status,reason\n");
}

static void
csv_row(const struct tool_report *rep, const struct tool_record *rec,
	const struct tool_row *row)
{
	char buf[64];
	bool ok = rec->status == 1 && row->ev->supported;

	printf("%.3f,%u,", rep->time_s, rep->interval);
	if (rec->lcore_id == TOOL_TOTAL)
		printf("total,");
	else
		printf("%u,", rec->lcore_id);
	printf("%" PRIu64 ",%.0f,", rec->iterations, rec->elapsed_ns);
	csv_field(row->ev->name, false);
	if (ok)
		printf("%" PRId64 ",%s,%.6f,%" PRIu64 ",", row->value, row->unit,
			row->per_iteration, row->overhead);
	else
		printf(",,,,");
	if (ok && row->has_ratio)
		printf("%.6f,", row->ratio);
	else
		printf(",");
	csv_field(ok && row->ratio_unit != NULL ? row->ratio_unit : "", false);
	csv_field(ok ? row->path : "", false);
	csv_field(status_text(rec, row), false);
	if (rec->status != 1)
		snprintf(buf, sizeof(buf), "%s: %s", rec->error, strerror(-rec->status));
	csv_field(rec->status != 1 ? buf : row->ev->supported ? "" : row->ev->reason, true);
}

/* The stages, after the event rows and an empty line (not with
 * --interval): a header, then a row per stage, lcore (total last, with
 * several lcores) and counted event.
 */
static void
csv_stages(const struct tool_report *rep)
{
	const struct tool_stage_row *row;
	const struct tool_event *ev;
	unsigned int r, i;

	if (rep->stage_count == 0 || rep->interval != 0)
		return;
	printf("\nstage,lcore,calls,items,items_per_call,measured,misuse,event,value,"
		"per_item,ipc\n");
	for (r = 0; r < rep->stage_count; r++) {
		row = &rep->stages[r];
		for (i = 0; i < rep->evs->count; i++) {
			ev = &rep->evs->ev[i];
			if (!ev->supported)
				continue;
			csv_field(row->name, false);
			if (row->lcore_id == TOOL_TOTAL)
				printf("total,");
			else
				printf("%u,", row->lcore_id);
			printf("%" PRIu64 ",%" PRIu64 ",%.6f,%" PRIu64 ",%" PRIu64 ",", row->calls,
				row->items, row->items_per_call, row->measured, row->misuse);
			csv_field(ev->name, false);
			printf("%" PRIu64 ",%.6f,", row->values[ev->index],
				row->per_item[ev->index]);
			if (row->has_ipc)
				printf("%.6f", row->ipc);
			printf("\n");
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

static void
json_str(const char *s)
{
	const unsigned char *p;

	putchar('"');
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20)
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
	json_str(row->ev->name);
	if (!row->ev->supported) {
		printf(",\"supported\":false,\"reason\":");
		json_str(row->ev->reason);
		printf("}");
		return;
	}
	printf(",\"supported\":true,\"value\":%" PRId64 ",\"unit\":", row->value);
	json_str(row->unit);
	printf(",\"per_iteration\":%.6f,\"read_overhead\":%" PRIu64 ",\"read_path\":",
		row->per_iteration, row->overhead);
	json_str(row->path);
	if (row->has_ratio) {
		printf(",\"ratio\":%.6f,\"ratio_unit\":", row->ratio);
		json_str(row->ratio_unit);
	}
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
		json_str(rec->error != NULL ? rec->error : "failed");
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
	json_str(row->name);
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
		json_str(ev->name);
		printf(",\"value\":%" PRIu64 ",\"per_item\":%.6f}", row->values[ev->index],
			row->per_item[ev->index]);
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

	printf("{\"time_s\":%.3f,\"interval\":%u,\"workload\":", rep->time_s, rep->interval);
	json_str(rep->opts->workload->name);
	printf(",\"read_overhead_subtracted\":%s,\"lcores\":[",
		rep->opts->raw ? "false" : "true");
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
	.begin = machine_begin,
	.report = json_report,
};
