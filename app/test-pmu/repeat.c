/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The mean and spread of --repeat's runs. Counts go through Welford's
 * running mean and sum of squared deviations (as perf's update_stats());
 * every other figure is summed and divided by the number of runs.
 */

#include <math.h>
#include <string.h>

#include "repeat.h"

/* One event of one record over the runs. */
struct repeat_row {
	double mean;
	double m2;                      /* sum of squared deviations from the mean */
	double per_iteration;
	double overhead;
	double ratio;
};

struct repeat_record {
	double iterations;
	double rounds;
	double elapsed_ns;
	double overhead_ns;
	struct repeat_row rows[TOOL_MAX_EVENTS];
};

struct repeat_stage {
	double calls;
	double items;
	double measured;
	double items_per_call;
	double ipc;
	double values[RTE_MAX_NUM_GROUP_EVENTS];
	double per_item[RTE_MAX_NUM_GROUP_EVENTS];
};

static unsigned int runs;
static struct repeat_record recs[RTE_MAX_LCORE + 1];
static struct repeat_stage stages[(RTE_MAX_LCORE + 1) * TOOL_STAGES];

void
tool_repeat_add(const struct tool_report *rep)
{
	const struct tool_record *rec;
	const struct tool_stage_row *st;
	struct repeat_record *rr;
	struct repeat_stage *rs;
	struct repeat_row *row;
	unsigned int r, i;
	double delta;

	runs++;
	for (r = 0; r < rep->count; r++) {
		rec = &rep->rec[r];
		rr = &recs[r];
		rr->iterations += (double)rec->iterations;
		rr->rounds += (double)rec->rounds;
		rr->elapsed_ns += rec->elapsed_ns;
		rr->overhead_ns += rec->overhead_ns;
		for (i = 0; i < rep->evs->count; i++) {
			row = &rr->rows[i];
			delta = (double)rec->rows[i].value - row->mean;
			row->mean += delta / runs;
			row->m2 += delta * ((double)rec->rows[i].value - row->mean);
			row->per_iteration += rec->rows[i].per_iteration;
			row->overhead += (double)rec->rows[i].overhead;
			row->ratio += rec->rows[i].ratio;
		}
	}
	for (r = 0; r < rep->stage_count; r++) {
		st = &rep->stages[r];
		rs = &stages[r];
		rs->calls += (double)st->calls;
		rs->items += (double)st->items;
		rs->measured += (double)st->measured;
		rs->items_per_call += st->items_per_call;
		rs->ipc += st->ipc;
		for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++) {
			rs->values[i] += (double)st->values[i];
			rs->per_item[i] += st->per_item[i];
		}
	}
}

/* The spread of a mean as perf stat prints it: the standard deviation of
 * the mean (the runs' sample deviation over the square root of their
 * number), in percent of the mean.
 */
static double
spread(const struct repeat_row *row)
{
	if (runs < 2 || row->mean == 0)
		return 0;
	return 100 * sqrt(row->m2 / (runs - 1) / runs) / fabs(row->mean);
}

void
tool_repeat_finish(struct tool_report *rep)
{
	struct tool_stage_row *st;
	struct tool_record *rec;
	struct repeat_record *rr;
	struct repeat_stage *rs;
	struct tool_row *row;
	unsigned int r, i;

	for (r = 0; r < rep->count; r++) {
		rec = &rep->rec[r];
		rr = &recs[r];
		if (rec->status != 1)
			continue;
		rec->iterations = (uint64_t)llround(rr->iterations / runs);
		rec->rounds = (uint64_t)llround(rr->rounds / runs);
		rec->elapsed_ns = rr->elapsed_ns / runs;
		rec->overhead_ns = rr->overhead_ns / runs;
		for (i = 0; i < rep->evs->count; i++) {
			row = &rec->rows[i];
			row->value = llround(rr->rows[i].mean);
			row->per_iteration = rr->rows[i].per_iteration / runs;
			row->overhead = (uint64_t)llround(rr->rows[i].overhead / runs);
			row->ratio = rr->rows[i].ratio / runs;
			row->has_spread = row->ev->supported;
			row->spread = spread(&rr->rows[i]);
		}
	}
	for (r = 0; r < rep->stage_count; r++) {
		st = &rep->stages[r];
		rs = &stages[r];
		st->calls = (uint64_t)llround(rs->calls / runs);
		st->items = (uint64_t)llround(rs->items / runs);
		st->measured = (uint64_t)llround(rs->measured / runs);
		st->items_per_call = rs->items_per_call / runs;
		st->ipc = rs->ipc / runs;
		for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++) {
			st->values[i] = (uint64_t)llround(rs->values[i] / runs);
			st->per_item[i] = rs->per_item[i] / runs;
		}
	}
	rep->runs = runs;
}
