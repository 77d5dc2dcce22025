/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* rte_pmu_stage_dump(): every stage's figures per lcore and in total, laid
 * out as VPP's "show runtime", from rte_pmu_stage_stats_get().
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include "pmu_log.h"
#include "pmu_state.h"
#include "rte_pmu_stage.h"

static double
ratio(uint64_t a, uint64_t b)
{
	return b != 0 ? (double)a / (double)b : 0.0;
}

/* The table's header line. */
static int
dump_header(FILE *f, int width, const struct pmu_events_copy *c, bool ipc)
{
	unsigned int i;
	int ret;

	ret = fprintf(f, "  %-*s %14s %14s %11s", width, "Name", "Calls", "Items", "Items/Call");
	for (i = 0; i < c->num_events && ret >= 0; i++)
		ret = fprintf(f, " %15.15s/Item %15.15s/Call", c->names[i], c->names[i]);
	if (ret >= 0 && ipc)
		ret = fprintf(f, " %7s", "IPC");
	if (ret >= 0)
		ret = fputc('\n', f);
	return ret < 0 ? -EIO : 0;
}

/* One stage's line. */
static int
dump_line(FILE *f, int width, const char *name, const struct rte_pmu_stage_stats *s,
	const struct pmu_events_copy *c, int cycles, int instructions)
{
	unsigned int i;
	int ret;

	ret = fprintf(f, "  %-*s %14" PRIu64 " %14" PRIu64 " %11.2f", width, name, s->calls,
		s->items, ratio(s->items, s->calls));
	for (i = 0; i < c->num_events && ret >= 0; i++)
		ret = fprintf(f, " %20.2f %20.2f", ratio(s->values[i], s->items),
			ratio(s->values[i], s->calls));
	if (ret >= 0 && cycles >= 0 && instructions >= 0)
		ret = fprintf(f, " %7.2f", ratio(s->values[instructions], s->values[cycles]));
	if (ret >= 0)
		ret = fputc('\n', f);
	return ret < 0 ? -EIO : 0;
}

static void
stats_add(struct rte_pmu_stage_stats *t, const struct rte_pmu_stage_stats *s)
{
	unsigned int i;

	t->calls += s->calls;
	t->items += s->items;
	t->measured += s->measured;
	for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++)
		t->values[i] += s->values[i];
}

int
rte_pmu_stage_dump(FILE *f)
{
	struct rte_pmu_stage_stats s, *total = NULL;
	struct pmu_events_copy *c = NULL;
	char name[RTE_PMU_STAGE_NAME_MAX];
	int n, id, cycles, instructions, ret, width = 16;
	unsigned int lcore_id;
	bool header;

	if (f == NULL) {
		PMU_LOG(ERR, "stage dump: f is NULL");
		return -EINVAL;
	}
	n = rte_pmu_stage_count();
	if (n < 0)
		return n;
	c = malloc(sizeof(*c));
	total = calloc(RTE_MAX(n, 1), sizeof(*total));
	ret = c == NULL || total == NULL ? -ENOMEM : pmu_state_events(c);
	if (ret != 0)
		goto out;
	pmu_events_ipc(c, &cycles, &instructions);
	/* The name column as wide as the longest name. */
	for (id = 0; id < n; id++)
		if (rte_pmu_stage_info(id, name, NULL) == 0)
			width = RTE_MAX(width, (int)strlen(name));
	for (lcore_id = 0; lcore_id < RTE_MAX_LCORE && ret == 0; lcore_id++) {
		header = false;
		for (id = 0; id < n && ret == 0; id++) {
			if (rte_pmu_stage_stats_get(lcore_id, id, &s) != 0 || s.calls == 0 ||
					rte_pmu_stage_info(id, name, NULL) != 0)
				continue;
			stats_add(&total[id], &s);
			if (!header) {
				header = true;
				ret = fprintf(f, "lcore %u\n", lcore_id) < 0 ? -EIO :
					dump_header(f, width, c, cycles >= 0 && instructions >= 0);
			}
			if (ret == 0)
				ret = dump_line(f, width, name, &s, c, cycles, instructions);
		}
	}
	if (ret == 0)
		ret = fprintf(f, "total\n") < 0 ? -EIO :
			dump_header(f, width, c, cycles >= 0 && instructions >= 0);
	for (id = 0; id < n && ret == 0; id++)
		if (total[id].calls != 0 && rte_pmu_stage_info(id, name, NULL) == 0)
			ret = dump_line(f, width, name, &total[id], c, cycles,
				instructions);
	if (ret == 0 && fflush(f) != 0)
		ret = -EIO;
out:
	if (ret == -ENOMEM)
		PMU_LOG(ERR, "stage dump: out of memory");
	else if (ret == -EIO)
		PMU_LOG(ERR, "stage dump: a write failed");
	free(c);
	free(total);
	return ret;
}
