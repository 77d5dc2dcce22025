/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The preload's table, as VPP's "show runtime" reads: per lcore, then in
 * total, a block per stage with its calls and items, and a row per event:
 * the exclusive (self: nested stages left out) cost per call and per item,
 * the inclusive cost per item, the self total and, where the stage is
 * sampled, the spread of its self figures as perf stat gives it ("+- 2.31%":
 * the standard error of the estimate over the estimate; nothing where
 * every call was measured, '-' where it cannot be told). Names are never
 * cut: the name column is as wide as the longest; with the default events
 * and the ports' stage names, a line is at most 132 characters. A figure
 * not measured (no measured call, no item) is '-', but an interval's self
 * total of a stage with calls and none measured, 0~; one that is not exact
 * (rte_pmu_stage_stats::inexact) is marked '~', and a line under the table
 * says what the mark means. Then per lcore its total and the part outside
 * every stage, from preload_lcore_totals() (one place), of the same
 * moment or interval as the stages' figures above them.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_pmu_stage.h>

#include "preload_table.h"

/* The unit of event @p name, for the event column ("" where a count). */
static const char *
unit_of(const char *name)
{
	size_t len = strcspn(name, ":"); /* a modifier left out */

	if ((len == 10 && strncmp(name, "task-clock", len) == 0) ||
			(len == 9 && strncmp(name, "cpu-clock", len) == 0))
		return "ns";
	if (strncmp(name, "msr/tsc/", 8) == 0) /* msr/tsc/u too */
		return "tsc";
	if (strstr(name, "cycles") != NULL)
		return "cycles";
	if (strstr(name, "instructions") != NULL || strstr(name, "inst_retired") != NULL)
		return "instr";
	return "";
}

/* The spread of @p a + @p b, whose spreads are @p sa and @p sb: their
 * standard errors added as independent ones, over the sum; 0 where both are
 * exact, NAN where one is not known or the sum is 0 with an error.
 */
static double
spread_sum(uint64_t a, double sa, uint64_t b, double sb)
{
	double err = hypot(sa * (double)a, sb * (double)b);

	if (isnan(sa) || isnan(sb))
		return NAN;
	if (err == 0)
		return 0;
	return a + b != 0 ? err / (double)(a + b) : NAN;
}

void
preload_fig_add(struct preload_fig *t, const struct preload_fig *s)
{
	unsigned int e;

	/* A stage with no call on an lcore adds nothing, its spread either. */
	if (s->calls == 0)
		return;
	if (t->calls == 0) {
		*t = *s;
		return;
	}
	t->calls += s->calls;
	t->items += s->items;
	t->measured += s->measured;
	t->inexact |= s->inexact;
	for (e = 0; e < RTE_MAX_NUM_GROUP_EVENTS; e++) {
		t->spread[e] = spread_sum(t->self[e], t->spread[e], s->self[e], s->spread[e]);
		t->values[e] += s->values[e];
		t->self[e] += s->self[e];
		t->measured_values[e] += s->measured_values[e];
		t->measured_children[e] += s->measured_children[e];
	}
}

/* @p a - @p b, 0 below 0. */
static uint64_t
minus(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void
preload_fig_interval(struct preload_fig *t, const struct preload_fig *s)
{
	uint64_t calls, measured, values, self;
	double scale;
	unsigned int e;

	/* The stage's counts started again (a reset, a new thread on the
	 * lcore): the interval's are all of @p t's.
	 */
	if (t->calls < s->calls || t->measured < s->measured)
		return;
	for (e = 0; e < RTE_MAX_NUM_GROUP_EVENTS; e++)
		if (t->measured_values[e] < s->measured_values[e] ||
				t->measured_children[e] < s->measured_children[e])
			return;
	calls = t->calls - s->calls;
	measured = t->measured - s->measured;
	t->items -= s->items;
	t->inexact |= s->inexact;
	/* The interval's measured calls scaled to its calls: sums, not
	 * estimates, where each was measured; where none was, 0, not exact
	 * (its work is in the lcore's part outside the stages).
	 */
	scale = measured != 0 ? (double)calls / (double)measured : 0;
	if (measured == 0 && calls != 0)
		t->inexact = UINT32_MAX;
	for (e = 0; e < RTE_MAX_NUM_GROUP_EVENTS; e++) {
		values = t->measured_values[e] - s->measured_values[e];
		self = minus(values, t->measured_children[e] - s->measured_children[e]);
		t->values[e] = (uint64_t)llround((double)values * scale);
		t->self[e] = (uint64_t)llround((double)self * scale);
		/* The running sums do not give a sampled interval's spread. */
		t->spread[e] = measured == calls ? 0 : NAN;
	}
	t->calls = calls;
	t->measured = measured;
}
void
preload_lcore_fit(struct preload_fig *figs, unsigned int n, struct preload_lcore_totals *t)
{
	uint64_t sum;
	unsigned int e, id;

	if (t->num_events == 0)
		return;
	for (e = 0; e < t->num_events; e++) {
		sum = 0;
		for (id = 0; id < n; id++) {
			if (figs[id].calls == 0)
				continue;
			sum += figs[id].self[e];
			/* Its figure not exact: nor is the part outside. */
			if ((figs[id].inexact >> e) & 1)
				t->inexact |= UINT32_C(1) << e;
		}
		if (sum <= t->total[e]) {
			t->outside[e] = t->total[e] - sum;
			continue;
		}
		/* The stages above the total: scaled down to it, as the
		 * library does over the whole run; nothing outside.
		 */
		for (id = 0; id < n; id++) {
			if (figs[id].calls == 0 || figs[id].measured == 0)
				continue;
			figs[id].values[e] = __rte_pmu_scale(figs[id].values[e], t->total[e], sum);
			figs[id].self[e] = __rte_pmu_scale(figs[id].self[e], t->total[e], sum);
			figs[id].inexact |= UINT32_C(1) << e;
		}
		t->outside[e] = 0;
		t->inexact |= UINT32_C(1) << e;
	}
}

int
preload_lcore_totals(unsigned int lcore, struct preload_lcore_totals *t)
{
	struct rte_pmu_stage_lcore_stats ls;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = rte_pmu_stage_lcore_stats_get(lcore, &ls);
	if (ret != 0)
		return ret;
	if (ls.num_events == 0)
		return -ENODATA;
	t->num_events = ls.num_events;
	t->inexact = ls.inexact;
	memcpy(t->total, ls.total, sizeof(t->total));
	memcpy(t->outside, ls.outside, sizeof(t->outside));
	return 0;
}

void
preload_lcore_totals_sub(struct preload_lcore_totals *t, const struct preload_lcore_totals *s)
{
	unsigned int e;

	if (t->num_events == 0 || s->num_events != t->num_events) {
		memset(t, 0, sizeof(*t));
		return;
	}
	for (e = 0; e < t->num_events; e++) {
		/* Where the total went down, the counts started again. */
		if (t->total[e] >= s->total[e])
			t->total[e] -= s->total[e];
		/* The stages' figures of the interval set it again. */
		t->outside[e] = t->total[e];
	}
	t->measured = t->measured >= s->measured ? t->measured - s->measured : t->measured;
	t->inexact |= s->inexact;
}

/* @p num / @p den with 2 decimals in @p buf, "-" where @p den is 0;
 * followed by @p mark where it is not '\0'.
 */
static const char *
per(char *buf, size_t len, uint64_t num, uint64_t den, char mark)
{
	if (den == 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f%.1s", (double)num / (double)den, &mark);
	return buf;
}

/* The end of an event's line on @p f: spread @p v in the last column as
 * perf stat prints it ("+- 2.31%"), "-" where it cannot be told; nothing
 * where the figure is exact (every call measured).
 */
static void
spread_end(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, " %9s\n", "-");
	else if (v != 0)
		fprintf(f, " +- %5.2f%%\n", v * 100);
	else
		fputc('\n', f);
}

/* The widths of a table. */
struct widths {
	int name;
	int event;
};

/* Event @p e's label: its name and unit. */
static void
event_label(char *buf, size_t len, const char (*events)[PRELOAD_EVENT_NAME_MAX], unsigned int e)
{
	const char *unit = unit_of(events[e]);

	snprintf(buf, len, "%s%s%s", events[e], unit[0] != '\0' ? " " : "", unit);
}

static void
header(FILE *f, const char *lead, const struct widths *w)
{
	fprintf(f, "%s  %-*s %11s %12s %10s  %-*s %12s %10s %10s %14s %9s\n", lead, w->name,
		"Stage", "Calls", "Items", "Items/Call", w->event, "Event", "Self/Call",
		"Self/Item", "Incl/Item", "Self total", "Spread");
}

/* A stage's block: its first line with calls and items, an event a line;
 * true where a figure of it is marked not exact. In an interval
 * (@p interval), a stage with calls but none measured shows 0~ as its self
 * total, and @p unmeasured is set. @p rough is set where an Incl figure
 * alone is marked.
 */
static bool
stage_rows(FILE *f, const char *lead, const struct widths *w, const char *name,
	const struct preload_fig *s, const char (*events)[PRELOAD_EVENT_NAME_MAX],
	unsigned int num_events, bool interval, bool *unmeasured, bool *rough)
{
	char a[32], b[32], c[32], d[32], ipc[32], label[PRELOAD_EVENT_NAME_MAX + 16];
	bool marked = false;
	unsigned int e;
	char mark, imark;

	fprintf(f, "%s  %-*s %11" PRIu64 " %12" PRIu64 " %10s", lead, w->name, name, s->calls,
		s->items, per(ipc, sizeof(ipc), s->items, s->calls, '\0'));
	if (num_events == 0)
		fputc('\n', f);
	for (e = 0; e < num_events; e++) {
		if (e != 0)
			fprintf(f, "%s  %-*s %11s %12s %10s", lead, w->name, "", "", "", "");
		event_label(label, sizeof(label), events, e);
		mark = (s->inexact >> e) & 1 ? '~' : '\0';
		/* In an interval, a stage with no call measured in it: 0~,
		 * said on its own line under the table; in the final table -~
		 * (none measured: not exact, rte_pmu_stage_stats::inexact).
		 */
		/* The Incl of a sampled stage with stages inside it is told
		 * from its own measured calls alone, with no spread, wider than
		 * its self figure's: marked where that one is above 5 % or not
		 * told (an outside tester's find: 667.71 an item, where its self
		 * figure and the nested stage's added up to 348, unmarked).
		 */
		imark = mark != '\0' || (s->measured < s->calls && s->items != 0 &&
			s->values[e] > s->self[e] && !(s->spread[e] <= 0.05)) ? '~' : '\0';
		*rough |= imark != mark && s->measured != 0;
		marked |= mark != '\0' && (s->measured != 0 || !interval);
		*unmeasured |= mark != '\0' && s->measured == 0 && interval;
		if (s->measured == 0 && !interval)
			snprintf(d, sizeof(d), "-%.1s", &mark);
		else
			snprintf(d, sizeof(d), "%" PRIu64 "%.1s", s->self[e], &mark);
		if (s->measured == 0)
			fprintf(f, "  %-*s %12s %10s %10s %14s", w->event, label, "-", "-", "-", d);
		else
			fprintf(f, "  %-*s %12s %10s %10s %14s", w->event, label,
				per(a, sizeof(a), s->self[e], s->calls, mark),
				per(b, sizeof(b), s->self[e], s->items, mark),
				per(c, sizeof(c), s->values[e], s->items, imark), d);
		spread_end(f, s->measured == 0 ? NAN : s->spread[e]);
	}
	return marked;
}

/* The lcore's total and its part outside every stage, @p t (those of
 * the table's figures), '-' where the library does not give them; true
 * where the part outside is marked not exact.
 */
static bool
lcore_rows(FILE *f, const char *lead, const struct widths *w,
	const struct preload_lcore_totals *t, const char (*events)[PRELOAD_EVENT_NAME_MAX],
	unsigned int num_events)
{
	static const char *const what[] = { "(lcore total)", "(outside stages)" };
	char label[PRELOAD_EVENT_NAME_MAX + 16], v[32];
	unsigned int e, k;
	bool have = t->num_events != 0;

	for (k = 0; k < RTE_DIM(what); k++) {
		for (e = 0; e < num_events; e++) {
			event_label(label, sizeof(label), events, e);
			if (have)
				snprintf(v, sizeof(v), "%" PRIu64 "%s", k == 0 ? t->total[e] :
					t->outside[e], k == 1 && (t->inexact >> e) & 1 ? "~" : "");
			else
				snprintf(v, sizeof(v), "-");
			fprintf(f, "%s  %-*s %11s %12s %10s  %-*s %12s %10s %10s %14s\n", lead,
				w->name, e == 0 ? what[k] : "", "-", "-", "-", w->event, label, "-",
				"-", "-", v);
		}
	}
	return have && t->inexact != 0;
}

/* Add the lcore's @p lt to the lcores' @p sum; an lcore without its
 * totals leaves the sum without them too.
 */
static void
totals_add(struct preload_lcore_totals *sum, const struct preload_lcore_totals *lt,
	unsigned int num_events)
{
	unsigned int e;

	if (lt->num_events == 0)
		sum->num_events = 0;
	for (e = 0; e < num_events; e++) {
		sum->total[e] += lt->total[e];
		sum->outside[e] += lt->outside[e];
	}
	sum->inexact |= lt->inexact;
}

void
preload_table_write(FILE *f, const char *lead, const struct preload_table *t)
{
	struct widths w = { .name = (int)strlen("(outside stages)"), .event = 5 };
	char label[PRELOAD_EVENT_NAME_MAX + 16];
	struct preload_lcore_totals now, sum = { .num_events = t->num_events };
	const struct preload_lcore_totals *lt;
	struct preload_fig *total;
	unsigned int lcore, id, e;
	bool any, marked = false, unmeasured = false, rough = false;
	int len, status;

	for (id = 0; id < t->num_stages; id++) {
		len = (int)strlen(t->names[id]);
		w.name = RTE_MAX(w.name, len);
	}
	for (e = 0; e < t->num_events; e++) {
		event_label(label, sizeof(label), t->events, e);
		w.event = RTE_MAX(w.event, (int)strlen(label));
	}
	total = calloc(t->num_stages + 1, sizeof(*total));
	if (total == NULL)
		return;
	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++) {
		any = false;
		for (id = 0; id < t->num_stages; id++) {
			const struct preload_fig *s = &t->figs[lcore * t->num_stages + id];

			if (s->calls == 0)
				continue;
			if (!any)
				fprintf(f, "%slcore %u%s\n", lead, lcore, t->gone != NULL &&
					t->gone[lcore] ? " (its thread ended before exit)" : "");
			if (!any)
				header(f, lead, &w);
			any = true;
			marked |= stage_rows(f, lead, &w, t->names[id], s, t->events,
				t->num_events, t->interval, &unmeasured, &rough);
			preload_fig_add(&total[id], s);
		}
		if (!any)
			continue;
		if (t->totals == NULL)
			preload_lcore_totals(lcore, &now);
		lt = t->totals != NULL ? &t->totals[lcore] : &now;
		marked |= lcore_rows(f, lead, &w, lt, t->events, t->num_events);
		totals_add(&sum, lt, t->num_events);
		/* Its figures are no counts: said under them. */
		status = rte_pmu_lcore_status(lcore);
		if (status == -ENOSPC)
			fprintf(f, "%s  (the kernel never ran this lcore's counters: more events "
				"than the PMU has counters; its figures are 0, not counts)\n", lead);
	}
	any = false;
	for (id = 0; id < t->num_stages; id++) {
		if (total[id].calls == 0)
			continue;
		if (!any) {
			fprintf(f, "%stotal\n", lead);
			header(f, lead, &w);
		}
		any = true;
		marked |= stage_rows(f, lead, &w, t->names[id], &total[id], t->events,
			t->num_events, t->interval, &unmeasured, &rough);
	}
	if (!any)
		fprintf(f, "%sno stage called\n", lead);
	else
		marked |= lcore_rows(f, lead, &w, &sum, t->events, t->num_events);
	if (marked)
		fprintf(f, "%s%s\n", lead, RTE_PMU_STAGE_INEXACT_NOTE);
	if (rough)
		fprintf(f, "%sIncl ~ alone: a sampled stage with stages inside it, its Incl told "
			"from its measured calls alone (no spread; its Self's above 5 %%)\n", lead);
	if (unmeasured)
		fprintf(f, "%s0~ no call of the stage measured in the interval: its work is in "
			"(outside stages)\n", lead);
	free(total);
	fflush(f);
}
