/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>

#include "report.h"

const char *const tool_clock_names[] = { "task-clock", "cpu-clock", NULL };
static const char *const cycles_names[] = { "cycles", "cpu-cycles", "cpu_cycles", NULL };
static const char *const instr_names[] = { "instructions", "inst_retired", NULL };
static const char *const branch_names[] = {
	"branches", "branch-instructions", "br_retired", NULL };
static const char *const bmiss_names[] = { "branch-misses", "br_mis_pred_retired", NULL };
static const char *const cref_names[] = { "cache-references", NULL };
static const char *const cmiss_names[] = { "cache-misses", NULL };
static const char *const rate_names[] = {
	"context-switches", "cs", "cpu-migrations", "migrations", "page-faults",
	"faults", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", NULL };

/* A ratio of an event to another one (the first counted of den); a NULL
 * den divides by the elapsed time in ns.
 */
struct ratio {
	const char *const *num;
	const char *const *den;
	double scale;
	const char *unit;
};

static const struct ratio ratios[] = {
	{ tool_clock_names, NULL, 1.0, "CPUs utilized" },
	{ cycles_names, tool_clock_names, 1.0, "GHz" },
	{ instr_names, cycles_names, 1.0, "insn per cycle" },
	{ bmiss_names, branch_names, 100.0, "% of all branches" },
	{ cmiss_names, cref_names, 100.0, "% of all cache refs" },
	{ rate_names, NULL, 1e9, "/sec" },
};

static double
tsc_to_ns(double tsc)
{
	return tsc * 1e9 / (double)rte_get_tsc_hz();
}

void
tool_report_init(struct tool_report *rep, const struct tool_options *opts,
	const struct tool_events *evs, unsigned int interval, double time_s)
{
	rep->opts = opts;
	rep->evs = evs;
	rep->interval = interval;
	rep->time_s = time_s;
	rep->count = 0;
	rep->stage_count = 0;
}

/* How @p ev is read: in full, or in brief (without index and width). */
static void
format_path(const struct rte_pmu_event_info *ev, bool brief, char *buf, size_t len)
{
	int n;

	switch (ev->path) {
	case RTE_PMU_PATH_USER:
		/* No page index: x86's msr/tsc/, read with rdtsc. */
		if (ev->user_index == 0) {
			n = snprintf(buf, len, "user (rdtsc)");
			break;
		}
		n = brief ? snprintf(buf, len, "user page") :
			snprintf(buf, len, "user page (index %u, width %u)", ev->user_index,
				ev->pmc_width);
		break;
	case RTE_PMU_PATH_SYSCALL:
		n = snprintf(buf, len, "read()");
		break;
	default:
		n = snprintf(buf, len, "none");
		break;
	}
	if (ev->multiplexed && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, brief ? ", mux %.0f%%" :
			", multiplexed (running %.1f%%)", ev->time_enabled != 0 ?
			100.0 * ev->time_running / ev->time_enabled : 0.0);
}

static struct tool_record *
new_record(struct tool_report *rep, unsigned int lcore_id)
{
	struct tool_record *rec = &rep->rec[rep->count++];
	unsigned int i;

	memset(rec, 0, sizeof(*rec));
	rec->lcore_id = lcore_id;
	rec->status = 1;
	for (i = 0; i < rep->evs->count; i++) {
		rec->rows[i].ev = &rep->evs->ev[i];
		rec->rows[i].unit = tool_event_is(&rep->evs->ev[i], tool_clock_names) ? "ns" : "";
		rec->rows[i].running_pct = 100.0;
	}

	return rec;
}

void
tool_report_add(struct tool_report *rep, unsigned int lcore_id,
	const struct tool_lcore *l, const struct tool_snap *from, const struct tool_snap *to)
{
	struct tool_record *rec = new_record(rep, lcore_id);
	const struct rte_pmu_lcore_info *info = &l->info;
	const struct rte_pmu_event_info *ei;
	const struct tool_event *ev;
	struct tool_row *row;
	uint64_t raw;
	unsigned int i;

	rec->status = rte_pmu_lcore_status(lcore_id);
	if (l->work_ret != 0 || to == NULL) {
		rec->status = l->work_ret != 0 ? l->work_ret : -ENODATA;
		rec->error = l->work_ret != 0 ? "workload failed" : "no figures";
		return;
	}
	if (rec->status != 1) {
		rec->status = rec->status < 0 ? rec->status : -ENODATA;
		rec->error = "group not open";
		return;
	}

	rec->rounds = to->rounds - from->rounds;
	rec->iterations = to->iterations - from->iterations;
	rec->overhead_ns = tsc_to_ns((double)l->overhead_tsc);
	rec->first_tsc = from->tsc;
	rec->last_tsc = to->tsc;
	rec->read_tsc = RTE_MIN(to->tsc - from->tsc, rec->rounds * l->overhead_tsc);
	rec->elapsed_ns = tsc_to_ns((double)(to->tsc - from->tsc - rec->read_tsc));
	for (i = 0; i < rep->evs->count; i++) {
		row = &rec->rows[i];
		ev = row->ev;
		if (!ev->supported)
			continue;
		/* Never more than was counted: a figure is not pushed below zero
		 * by a read that cost less here than when it was calibrated.
		 */
		raw = to->val[ev->index] - from->val[ev->index];
		row->overhead = RTE_MIN(raw, rec->rounds * l->overhead[ev->index]);
		row->value = (int64_t)(raw - row->overhead);
		if (l->info_ret != 0 || ev->index >= info->num_events)
			continue;
		ei = &info->events[ev->index];
		if (ei->multiplexed && ei->time_enabled != 0)
			row->running_pct = 100.0 * ei->time_running / ei->time_enabled;
		format_path(ei, false, row->path, sizeof(row->path));
		format_path(ei, true, row->path_brief, sizeof(row->path_brief));
	}
}

void
tool_report_add_stages(struct tool_report *rep, unsigned int lcore_id,
	struct rte_pmu_stage_stats prev[TOOL_STAGES])
{
	struct rte_pmu_stage_stats now;
	struct tool_stage_row *row;
	unsigned int s, id, i;
	const char *name;

	for (s = 0; s < TOOL_STAGES; s++) {
		if (!tool_measure_stage(s, &name, &id) ||
				rte_pmu_stage_stats_get(lcore_id, id, &now) != 0)
			continue;
		row = &rep->stages[rep->stage_count++];
		memset(row, 0, sizeof(*row));
		row->name = name;
		row->lcore_id = lcore_id;
		row->calls = now.calls - prev[s].calls;
		row->items = now.items - prev[s].items;
		row->measured = now.measured - prev[s].measured;
		row->misuse = now.misuse;
		/* The library's verdict on the figures since the reset (none
		 * measured: not exact either).
		 */
		row->inexact = now.inexact;
		/* The interval's measured calls (sums that never go down: the
		 * whole run's estimates may) scaled to its calls.
		 */
		for (i = 0; i < now.num_events && row->measured != 0; i++)
			row->values[i] = (uint64_t)((double)(now.measured_values[i] -
				prev[s].measured_values[i]) * row->calls / row->measured + 0.5);
		prev[s] = now;
	}
}

/* Ratios of a stage row: items per call, each event per item, IPC. */
static void
stage_ratios(const struct tool_report *rep, struct tool_stage_row *row)
{
	const struct tool_event *cyc = tool_events_find(rep->evs, cycles_names);
	const struct tool_event *ins = tool_events_find(rep->evs, instr_names);
	unsigned int i;

	if (row->calls != 0)
		row->items_per_call = (double)row->items / (double)row->calls;
	for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS && row->items != 0; i++)
		row->per_item[i] = (double)row->values[i] / (double)row->items;
	if (cyc != NULL && ins != NULL && row->values[cyc->index] != 0) {
		row->has_ipc = true;
		row->ipc = (double)row->values[ins->index] / (double)row->values[cyc->index];
	}
}

/* The totals of each stage over the lcores, after their rows. */
static void
stage_totals(struct tool_report *rep)
{
	unsigned int n = rep->stage_count, s, r, i, lcores = 0;
	struct tool_stage_row *total, *row;
	const char *name;
	unsigned int id;

	for (r = 0; r < n; r++) {
		stage_ratios(rep, &rep->stages[r]);
		lcores += r == 0 || rep->stages[r].lcore_id != rep->stages[r - 1].lcore_id;
	}
	if (lcores < 2)
		return;
	for (s = 0; s < TOOL_STAGES; s++) {
		if (!tool_measure_stage(s, &name, &id))
			continue;
		total = &rep->stages[rep->stage_count++];
		memset(total, 0, sizeof(*total));
		total->name = name;
		total->lcore_id = TOOL_TOTAL;
		for (r = 0; r < n; r++) {
			row = &rep->stages[r];
			if (row->name != name)
				continue;
			total->calls += row->calls;
			total->items += row->items;
			total->measured += row->measured;
			total->misuse += row->misuse;
			total->inexact |= row->inexact;
			for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++)
				total->values[i] += row->values[i];
		}
		stage_ratios(rep, total);
	}
}

/* The modifiers of event name @p name ("u" of cycles:u or cpu/cycles/u). */
static const char *
name_mods(const char *name)
{
	const char *colon = strchr(name, ':'), *slash = strrchr(name, '/');

	return colon != NULL ? colon + 1 : slash != NULL && slash != strchr(name, '/') ?
		slash + 1 : "";
}

/* The row of the first counted event of @p names with the modifiers of
 * @p like, as perf pairs events (not user instructions over kernel
 * cycles), any where @p names are the clocks.
 */
static const struct tool_row *
find_row(const struct tool_report *rep, const struct tool_record *rec,
	const char *const names[], const struct tool_event *like)
{
	const struct tool_event *ev;
	unsigned int i;

	for (i = 0; i < rep->evs->count; i++) {
		ev = &rep->evs->ev[i];
		if (ev->supported && tool_event_is(ev, names) && (names == tool_clock_names ||
				strcmp(name_mods(ev->name), name_mods(like->name)) == 0))
			return &rec->rows[i];
	}
	return NULL;
}

static void
compute_ratios(const struct tool_report *rep, struct tool_record *rec)
{
	const struct tool_row *den;
	const struct ratio *r;
	struct tool_row *row;
	unsigned int i;
	double d;

	for (i = 0; i < rep->evs->count; i++) {
		row = &rec->rows[i];
		if (!row->ev->supported)
			continue;
		if (rec->iterations != 0)
			row->per_iteration = (double)row->value / (double)rec->iterations;
		for (r = ratios; r < ratios + RTE_DIM(ratios); r++)
			if (tool_event_is(row->ev, r->num))
				break;
		if (r == ratios + RTE_DIM(ratios))
			continue;
		den = r->den != NULL ? find_row(rep, rec, r->den, row->ev) : NULL;
		if (r->den != NULL && den == NULL)
			continue;
		d = den != NULL ? (double)den->value : rec->elapsed_ns;
		row->ratio_unit = r->unit;
		row->has_ratio = d > 0;
		if (d > 0)
			row->ratio = r->scale * (double)row->value / d;
	}
}

void
tool_report_finish(struct tool_report *rep)
{
	struct tool_record *total, *rec;
	unsigned int i, r, lcores = rep->count, ok = 0;
	double longest = 0;

	total = new_record(rep, TOOL_TOTAL);
	for (r = 0; r < lcores; r++) {
		rec = &rep->rec[r];
		if (rec->status != 1)
			continue;
		ok++;
		total->iterations += rec->iterations;
		total->rounds += rec->rounds;
		/* From the first lcore's start to the last one's end: lcores
		 * that took turns on one CPU ran for their sum, not for the
		 * longest (a read overhead taken out, as the lcores' overlap).
		 */
		total->first_tsc = ok == 1 ? rec->first_tsc : RTE_MIN(total->first_tsc,
			rec->first_tsc);
		total->last_tsc = RTE_MAX(total->last_tsc, rec->last_tsc);
		total->read_tsc = RTE_MAX(total->read_tsc, rec->read_tsc);
		total->elapsed_ns = tsc_to_ns((double)(total->last_tsc - total->first_tsc -
			RTE_MIN(total->last_tsc - total->first_tsc, total->read_tsc)));
		longest = RTE_MAX(longest, rec->elapsed_ns);
		total->overhead_ns += rec->overhead_ns;
		for (i = 0; i < rep->evs->count; i++) {
			total->rows[i].value += rec->rows[i].value;
			total->rows[i].overhead += rec->rows[i].overhead;
			total->rows[i].running_pct = RTE_MIN(total->rows[i].running_pct,
				rec->rows[i].running_pct);
		}
		compute_ratios(rep, rec);
	}
	/* Never less than an lcore's own: the read overhead taken out is the
	 * lcore's with the most reads, maybe not the one that ran longest.
	 */
	total->elapsed_ns = RTE_MAX(total->elapsed_ns, longest);
	if (ok != 0)
		total->overhead_ns /= ok;
	else
		total->status = -ENODATA;
	compute_ratios(rep, total);
	stage_totals(rep);
}
