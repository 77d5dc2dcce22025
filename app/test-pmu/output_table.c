/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The human-readable table, shaped like perf stat's. */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_pmu_stage.h>

#include "output.h"

static int name_width;

const struct tool_output *
tool_output_get(const struct tool_options *opts)
{
	switch (opts->format) {
	case TOOL_FORMAT_CSV:
		return &tool_output_csv;
	case TOOL_FORMAT_JSON:
		return &tool_output_json;
	case TOOL_FORMAT_PERF_CSV:
		return &tool_output_perf_csv;
	case TOOL_FORMAT_PERF_JSON:
		return &tool_output_perf_json;
	default:
		return &tool_output_table;
	}
}

char *
tool_group_digits(int64_t v, char *buf, size_t len)
{
	char digits[32], out[48];
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	int n, i, o = 0;

	n = snprintf(digits, sizeof(digits), "%" PRIu64, u);
	if (v < 0)
		out[o++] = '-';
	for (i = 0; i < n; i++) {
		if (i != 0 && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	snprintf(buf, len, "%s", out);

	return buf;
}

char *
tool_format_stamp(double time_s, char *buf, size_t len)
{
	uint64_t ns = time_s > 0 ? (uint64_t)(time_s * 1e9 + 0.5) : 0;

	snprintf(buf, len, "%6" PRIu64 ".%09" PRIu64, ns / 1000000000, ns % 1000000000);

	return buf;
}

static void
table_begin(const struct tool_options *opts, const struct tool_events *evs,
	unsigned int lcores)
{
	char it[32];
	unsigned int i;

	name_width = 16;
	for (i = 0; i < evs->count; i++)
		name_width = RTE_MAX(name_width, (int)strlen(evs->ev[i].name));
	if (evs->fell_back)
		printf("no hardware events here: counting %s instead\n", evs->fallback);
	/* Above INT64_MAX, digits alone (they read -1 grouped). */
	if (opts->iterations > INT64_MAX)
		snprintf(it, sizeof(it), "%" PRIu64, opts->iterations);
	printf("workload %s, %s iterations %s, on %u lcore(s)", opts->workload->name,
		opts->iterations > INT64_MAX ? it :
		tool_group_digits((int64_t)opts->iterations, it, sizeof(it)),
		tool_options_continuous(opts) ? "per round" : "per lcore", lcores);
	if (opts->duration_s != 0)
		printf(" for %" PRIu64 " s", opts->duration_s);
	if (opts->timeout_ms != 0)
		printf(", timeout %" PRIu64 " ms", opts->timeout_ms);
	if (opts->interval_ms != 0)
		printf(", every %" PRIu64 " ms", opts->interval_ms);
	if (opts->repeat > 1)
		printf(" (%u runs)", opts->repeat);
	printf("\n");
	if (opts->interval_ms == 0)
		return;

	for (i = 0; i < evs->count; i++)
		if (!evs->ev[i].supported)
			printf("%18s  %s (%s)\n", "<not supported>", evs->ev[i].name,
				evs->ev[i].reason);

	/* One line per interval and lcore: a column per counted event. */
	printf("%16s %6s %15s", "time(s)", "lcore", "iterations");
	for (i = 0; i < evs->count; i++) {
		if (!evs->ev[i].supported)
			continue;
		if (tool_event_is(&evs->ev[i], tool_clock_names))
			printf(" %*s(msec)", name_width > 14 ? 14 : name_width, evs->ev[i].name);
		else
			printf(" %*s", name_width, evs->ev[i].name);
	}
	printf("\n");
}

/* A rate per second with a K, M or G prefix, as perf stat writes it. */
static void
format_rate(double rate, char *buf, size_t len)
{
	static const char *const prefix[] = { "", "K", "M", "G" };
	unsigned int p = 0;

	while (rate >= 1000.0 && p + 1 < RTE_DIM(prefix)) {
		rate /= 1000.0;
		p++;
	}
	snprintf(buf, len, "# %8.3f %s/sec", rate, prefix[p]);
}

static void
print_row(const struct tool_row *row)
{
	char v[32], ratio[48] = "", line[512];
	int n;

	if (!row->ev->supported) {
		printf("  %15s      %-*s  (%s)\n", "<not supported>", name_width, row->ev->name,
			row->ev->reason);
		return;
	}
	if (row->has_ratio && strcmp(row->ratio_unit, "/sec") == 0)
		format_rate(row->ratio, ratio, sizeof(ratio));
	else if (row->has_ratio)
		snprintf(ratio, sizeof(ratio), "# %8.3f %s", row->ratio, row->ratio_unit);
	else if (row->ratio_unit != NULL)
		snprintf(ratio, sizeof(ratio), "# %8s %s", "n/a", row->ratio_unit);
	if (row->unit[0] != '\0')
		snprintf(v, sizeof(v), row->value >= 1000000 ? "%.2f" : "%.4f",
			(double)row->value / 1e6);
	else
		tool_group_digits(row->value, v, sizeof(v));
	/* No blank at the line's end (the total has no read path). */
	n = snprintf(line, sizeof(line), "  %15s %-4s %-*s  %-28s %10.3f %-7s  %s", v,
		row->unit[0] != '\0' ? "msec" : "", name_width, row->ev->name, ratio,
		row->per_iteration, row->unit[0] != '\0' ? "ns/iter" : "/iter", row->path_brief);
	while (n > 0 && (size_t)n < sizeof(line) && line[n - 1] == ' ')
		line[--n] = '\0';
	printf("%s", line);
	if (row->has_spread)
		printf("  ( +- %5.2f%% )", row->spread);
	printf("\n");
}

static void
print_record(const struct tool_report *rep, const struct tool_record *rec)
{
	char it[32], ov[32], who[32];
	unsigned int i;

	if (rec->lcore_id == TOOL_TOTAL)
		snprintf(who, sizeof(who), "total of %u lcores", rep->count - 1);
	else
		snprintf(who, sizeof(who), "lcore %u", rec->lcore_id);
	if (rec->status != 1) {
		printf("\n %s: %s: %s\n", who, rec->error != NULL ? rec->error : "failed",
			strerror(-rec->status));
		return;
	}
	printf("\n Counts for %s (%s x %s iterations):\n\n", who, rep->opts->workload->name,
		tool_group_digits((int64_t)rec->iterations, it, sizeof(it)));
	for (i = 0; i < rep->evs->count; i++)
		print_row(&rec->rows[i]);
	if (rec->elapsed_ns >= 1e6)
		printf("\n  %15.3f ms   elapsed", rec->elapsed_ns / 1e6);
	else
		printf("\n  %15.3f us   elapsed", rec->elapsed_ns / 1e3);
	printf(" (%.3f ns/iteration)\n",
		rec->iterations != 0 ? rec->elapsed_ns / (double)rec->iterations : 0.0);
	if (rep->opts->raw) {
		printf("  read overhead not subtracted (--raw)\n");
		return;
	}
	printf("  read overhead subtracted per round: %.1f ns (%.1f ns a read)",
		rec->overhead_ns, rec->overhead_ns / rep->evs->counted);
	for (i = 0; i < rep->evs->count; i++)
		if (rec->rows[i].ev->supported)
			printf(", %s %s", rec->rows[i].ev->name,
				tool_group_digits((int64_t)rec->rows[i].overhead, ov, sizeof(ov)));
	printf("\n");
}

static void
print_line(const struct tool_report *rep, const struct tool_record *rec)
{
	char v[32], who[16], stamp[32];
	unsigned int i;

	if (rec->lcore_id == TOOL_TOTAL)
		snprintf(who, sizeof(who), "total");
	else
		snprintf(who, sizeof(who), "%u", rec->lcore_id);
	tool_format_stamp(rep->time_s, stamp, sizeof(stamp));
	if (rec->status != 1) {
		printf("%16s %6s %s: %s\n", stamp, who,
			rec->error != NULL ? rec->error : "failed", strerror(-rec->status));
		return;
	}
	printf("%16s %6s %15s", stamp, who,
		tool_group_digits((int64_t)rec->iterations, v, sizeof(v)));
	for (i = 0; i < rep->evs->count; i++) {
		if (!rec->rows[i].ev->supported)
			continue;
		if (rec->rows[i].unit[0] != '\0')
			printf(" %*.2f", (name_width > 14 ? 14 : name_width) + 6,
				(double)rec->rows[i].value / 1e6);
		else
			printf(" %*s", name_width,
				tool_group_digits(rec->rows[i].value, v, sizeof(v)));
	}
	printf("\n");
}

/* The stages, as the library prints them (rte_pmu_stage_dump(): shaped
 * like VPP's perfmon, a line per stage per lcore and in total, each event
 * per item and per call, IPC when cycles and instructions are both
 * counted). Their figures start at the base snapshots: the lcores reset
 * them after calibration.
 */
static void
print_stages(const struct tool_report *rep)
{
	if (rep->stage_count == 0)
		return;
	printf("\n Stages (\"%s\" and the tool's \"snapshot\", chained):\n\n",
		rep->opts->workload->name);
	fflush(stdout);
	if (rte_pmu_stage_dump(stdout) != 0)
		printf("  (rte_pmu_stage_dump failed)\n");
}

static void
table_report(const struct tool_report *rep)
{
	unsigned int r;
	/* The total repeats a single lcore: shown only for several, not with -A. */
	unsigned int shown = rep->count > 2 && !rep->opts->no_aggr ? rep->count : rep->count - 1;

	for (r = 0; r < shown; r++) {
		if (rep->interval != 0)
			print_line(rep, &rep->rec[r]);
		else
			print_record(rep, &rep->rec[r]);
	}
	if (rep->interval == 0 && !rep->opts->raw)
		printf("\nFigures exclude the read overhead: the median cost of back-to-back\n"
			"reads with nothing between them, measured on each lcore.\n");
	if (rep->interval == 0)
		print_stages(rep);
}

const struct tool_output tool_output_table = {
	.begin = table_begin,
	.report = table_report,
};
