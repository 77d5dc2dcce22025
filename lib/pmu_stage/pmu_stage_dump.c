/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* rte_pmu_stage_dump(): the figures as VPP's "show runtime" prints them,
 * each lcore's stages beside its total and the part outside them. It
 * allocates nothing: what it keeps of each lcore (about 160 bytes) is on
 * the stack.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_common.h>

#include "pmu_stage_private.h"

/* What the table needs of the events. */
struct dump_ctx {
	FILE *f;
	int width;
	unsigned int num_events;
	int cycles, instructions;   /* their indexes, -1 where not counted */
	int ev_width[RTE_MAX_NUM_GROUP_EVENTS]; /* each event's name, 15 at least */
	bool marked;                /* a figure marked not exact */
	struct rte_pmu_lcore_info info;
	/* Each lcore's total and its stages added up, read once for all its
	 * stages (read for each, a dump of n stages read n * n).
	 */
	struct rte_pmu_stage_lcore_stats sums[RTE_MAX_LCORE];
};

static double
ratio(uint64_t a, uint64_t b)
{
	return b != 0 ? (double)a / (double)b : 0.0;
}

/* A row's end, after @p ret, its last write's: 0, or -EIO where a write failed. */
static int
row_end(FILE *f, int ret)
{
	return ret >= 0 && fputc('\n', f) != EOF ? 0 : -EIO;
}

/* The mark after event @p i's figure in a row: '~' where bit i of
 * @p inexact is set, else a blank, but none where it @p ends the row.
 */
static const char *
mark(const struct dump_ctx *c, uint32_t inexact, unsigned int i, bool ends)
{
	return (inexact >> i) & 1 ? "~" : ends && i + 1 == c->num_events ? "" : " ";
}

/* One stage's line, self values; '~' marks a figure that is not exact. */
static int
dump_line(struct dump_ctx *c, const char *name, const struct rte_pmu_stage_stats *s)
{
	const bool ipc = c->cycles >= 0 && c->instructions >= 0;
	unsigned int i;
	int ret;

	c->marked |= s->inexact != 0;
	ret = fprintf(c->f, "  %-*s %14" PRIu64 " %14" PRIu64 " %11.2f", c->width, name,
		s->calls, s->items, ratio(s->items, s->calls));
	for (i = 0; i < c->num_events && ret >= 0 && s->measured != 0; i++)
		ret = fprintf(c->f, " %*.2f%s %*.2f%s", c->ev_width[i] + 4,
			ratio(s->self_values[i], s->items), mark(c, s->inexact, i, false),
			c->ev_width[i] + 4, ratio(s->self_values[i], s->calls),
			mark(c, s->inexact, i, !ipc));
	/* No call measured: no figure, rather than 0. */
	for (i = 0; i < c->num_events && ret >= 0 && s->measured == 0; i++)
		ret = fprintf(c->f, " %*s%s %*s%s", c->ev_width[i] + 4, "-",
			mark(c, s->inexact, i, false), c->ev_width[i] + 4, "-",
			mark(c, s->inexact, i, !ipc));
	if (ret >= 0 && ipc && s->measured == 0)
		ret = fprintf(c->f, " %7s", "-");
	else if (ret >= 0 && ipc)
		ret = fprintf(c->f, " %7.2f", ratio(s->self_values[c->instructions],
			s->self_values[c->cycles]));
	return row_end(c->f, ret);
}

/* The lcore's whole, as a line of its own: @p v per event, '~' where a
 * bit of @p inexact says it is not exact.
 */
static int
dump_whole(struct dump_ctx *c, const char *what, const uint64_t *v, uint32_t inexact)
{
	unsigned int i;
	int ret;

	c->marked |= inexact != 0;
	ret = fprintf(c->f, "  %-*s %14s %14s %11s", c->width, what, "-", "-", "-");
	for (i = 0; i < c->num_events && ret >= 0; i++)
		ret = fprintf(c->f, " %*s %*" PRIu64 "%s", c->ev_width[i] + 5, "-",
			c->ev_width[i] + 4, v[i], mark(c, inexact, i, true));
	return row_end(c->f, ret);
}

/* The table of @p lcore_id, its stages and its whole; or with
 * RTE_PMU_STAGE_ALL_LCORES the stages' figures of every lcore added up.
 */
static int
dump_table(struct dump_ctx *c, unsigned int lcore_id, unsigned int n)
{
	struct rte_pmu_stage_lcore_stats ls;
	struct rte_pmu_stage_stats s;
	const bool all = lcore_id == RTE_PMU_STAGE_ALL_LCORES;
	char title[32] = "total";
	unsigned int id, i;
	int ret;

	/* Its title, and the columns' heads. */
	if (!all)
		snprintf(title, sizeof(title), "lcore %u", lcore_id);
	ret = fprintf(c->f, "%s\n  %-*s %14s %14s %11s", title, c->width, "Name", "Calls",
		"Items", "Items/Call");
	for (i = 0; i < c->num_events && ret >= 0; i++)
		ret = fprintf(c->f, " %*s/Item %*s/Call", c->ev_width[i], c->info.events[i].name,
			c->ev_width[i], c->info.events[i].name);
	if (ret >= 0 && c->cycles >= 0 && c->instructions >= 0)
		ret = fprintf(c->f, " %7s", "IPC");
	ret = row_end(c->f, ret);
	if (!all)
		stage_lcore_sums(stage_lcore_get(lcore_id), &c->sums[lcore_id]);
	for (id = 0; id < n && ret == 0; id++) {
		stage_stats_sum(lcore_id, id, &s, c->sums);
		if (s.calls != 0)
			ret = dump_line(c, stage_reg.names[id], &s);
	}
	if (ret != 0)
		return ret;
	if (all)
		rte_pmu_stage_lcore_stats_get(RTE_PMU_STAGE_ALL_LCORES, &ls);
	else
		stage_lcore_fill(stage_lcore_get(lcore_id), &ls);
	if (ls.num_events != 0)
		ret = dump_whole(c, "(lcore total)", ls.total, 0);
	if (ls.num_events != 0 && ret == 0)
		ret = dump_whole(c, "(outside stages)", ls.outside, ls.inexact);
	/* Misuse, not counted (logged once a kind): its calls. */
	if (ls.misuse != 0 && ret == 0)
		ret = row_end(c->f, fprintf(c->f, "  %-*s %14" PRIu64, c->width, "(misuse)",
			ls.misuse));
	return ret;
}

int
rte_pmu_stage_dump(FILE *f)
{
	struct dump_ctx c = { .f = f, .width = 16 };
	unsigned int lcore_id, id, n;
	int ret = 0;

	if (f == NULL) {
		STAGE_LOG(ERR, "stage dump: f is NULL");
		return -EINVAL;
	}
	if (rte_pmu_stage_count() < 0) {
		STAGE_LOG(ERR, "stage dump: rte_pmu_init() not called");
		return -ENODEV;
	}
	n = stage_count();
	/* The events of the first lcore with a group; cycles and instructions
	 * where librte_pmu finds them.
	 */
	c.num_events = stage_events(&c.info);
	c.cycles = c.num_events != 0 ? c.info.cycles : -1;
	c.instructions = c.num_events != 0 ? c.info.instructions : -1;
	for (id = 0; id < n; id++)
		c.width = RTE_MAX(c.width, (int)strlen(stage_reg.names[id]));
	/* Names never cut: two that begin alike stay apart. */
	for (id = 0; id < c.num_events; id++)
		c.ev_width[id] = RTE_MAX(15, (int)strlen(c.info.events[id].name));
	/* The lcores' tables, then the total's. */
	for (lcore_id = 0; lcore_id < RTE_MAX_LCORE && ret == 0; lcore_id++)
		if (stage_lcore_get(lcore_id) != NULL)
			ret = dump_table(&c, lcore_id, n);
	if (ret == 0)
		ret = dump_table(&c, RTE_PMU_STAGE_ALL_LCORES, n);
	if (ret == 0 && c.marked && fprintf(f, "%s\n", RTE_PMU_STAGE_INEXACT_NOTE) < 0)
		ret = -EIO;
	if (ret == 0 && fflush(f) != 0)
		ret = -EIO;
	if (ret == -EIO)
		STAGE_LOG(ERR, "stage dump: a write failed");
	return ret;
}
