/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Telemetry: /pmu/stages (names), /pmu/stage,<name> (a stage's figures
 * per lcore and in total) and /pmu/stage_lcores (each lcore's total and
 * the part outside its stages). Totals only, keyed by event as /pmu/lcore
 * keys them, each event with its exact "name" and its "unit"; a ratio is
 * the consumer's division, as with /ethdev/stats.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_telemetry.h>

#include "pmu_stage_private.h"

/* A dict container added to @p d under @p key; for an @p event, with the
 * event's name and unit (as librte_pmu's replies give them).
 */
static struct rte_tel_data *
dict_in(struct rte_tel_data *d, const char *key, const struct rte_pmu_event_info *event)
{
	struct rte_tel_data *c = rte_tel_data_alloc();

	if (c == NULL)
		return NULL;
	rte_tel_data_start_dict(c);
	if (event != NULL) {
		rte_tel_data_add_dict_string(c, "name", event->name);
		rte_tel_data_add_dict_string(c, "unit", event->unit);
	}
	if (rte_tel_data_add_dict_container(d, key, c, 0) != 0) {
		rte_tel_data_free(c);
		return NULL;
	}
	return c;
}

static int
handle_stages(const char *cmd __rte_unused, const char *params __rte_unused,
	struct rte_tel_data *d)
{
	struct rte_tel_data *names = rte_tel_data_alloc();
	unsigned int i, n;

	if (names == NULL)
		return -ENOMEM;
	rte_tel_data_start_dict(d);
	rte_tel_data_start_array(names, RTE_TEL_STRING_VAL);
	if (rte_tel_data_add_dict_container(d, "names", names, 0) != 0) {
		rte_tel_data_free(names);
		return -ENOMEM;
	}
	n = rte_pmu_stage_count() < 0 ? 0 : stage_count();
	rte_tel_data_add_dict_int(d, "num_stages", n);
	for (i = 0; i < n; i++)
		rte_tel_data_add_array_string(names, stage_reg.names[i]);
	return 0;
}

/* One lcore's (or the total's) figures of a stage in @p f, per event keyed. */
static int
stage_figures(struct rte_tel_data *f, const struct rte_pmu_stage_stats *s, unsigned int n,
	const struct rte_pmu_lcore_info *info)
{
	struct rte_tel_data *events, *e;
	unsigned int i;

	if (f == NULL)
		return -ENOMEM;
	rte_tel_data_add_dict_u64(f, "calls", s->calls);
	rte_tel_data_add_dict_u64(f, "items", s->items);
	rte_tel_data_add_dict_u64(f, "measured", s->measured);
	rte_tel_data_add_dict_u64(f, "misuse", s->misuse);
	rte_tel_data_add_dict_u64(f, "lcore_misuse", s->lcore_misuse);
	events = dict_in(f, "events", NULL);
	if (events == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		e = dict_in(events, info->events[i].key, NULL);
		if (e == NULL)
			return -ENOMEM;
		rte_tel_data_add_dict_u64(e, "value", s->values[i]);
		rte_tel_data_add_dict_u64(e, "self_value", s->self_values[i]);
		rte_tel_data_add_dict_u64(e, "overhead", s->overhead[i]);
		/* 0: exact; 1: cheaper than the read that measures it. */
		rte_tel_data_add_dict_int(e, "inexact", (s->inexact >> i) & 1);
		/* Telemetry has no double: the spread in parts per million of
		 * the self value; absent where it cannot be told.
		 */
		if (!isnan(s->spread[i]))
			rte_tel_data_add_dict_u64(e, "spread_ppm",
				(uint64_t)(s->spread[i] * 1e6 + 0.5));
	}
	return 0;
}

static int
handle_stage(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_tel_data *lcores, *events, *tot;
	char key[16];
	struct rte_pmu_stage_stats s, total;
	struct rte_pmu_lcore_info info;
	unsigned int id, n, lcore_id, i;
	int ret = params != NULL ? rte_pmu_stage_lookup(params) : -ENOENT;

	if (ret == -ENODEV)
		return ret;
	if (ret < 0) {
		STAGE_LOG(NOTICE, "telemetry %s: no stage named '%s' (see /pmu/stages)", cmd,
			params != NULL ? params : "");
		return -EINVAL;
	}
	id = ret;
	ret = 0;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "stage", params);
	rte_tel_data_add_dict_int(d, "id", id);
	rte_tel_data_add_dict_u64(d, "sampling_period",
		__atomic_load_n(&stage_reg.period_m1[id], __ATOMIC_RELAXED) + 1);
	/* The key of each event in the figures, its name and unit. */
	n = stage_events(&info);
	events = dict_in(d, "events", NULL);
	if (events == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (dict_in(events, info.events[i].key, &info.events[i]) == NULL)
			return -ENOMEM;
	/* "lcores" is added after "total": a reply too big loses lcores first.
	 * The total is filled after them: that of the figures given per lcore
	 * (of the same reads).
	 */
	tot = dict_in(d, "total", NULL);
	lcores = dict_in(d, "lcores", NULL);
	if (tot == NULL || lcores == NULL)
		return -ENOMEM;
	memset(&total, 0, sizeof(total));
	for (lcore_id = 0; lcore_id < RTE_MAX_LCORE && ret == 0; lcore_id++) {
		stage_stats_fill(stage_lcore_get(lcore_id), id, &s, NULL);
		if (s.calls == 0 && s.misuse == 0)
			continue;
		snprintf(key, sizeof(key), "%u", lcore_id);
		ret = stage_figures(dict_in(lcores, key, NULL), &s, n, &info);
		stage_total_add(&total, &s);
	}
	stage_total_end(&total);
	return ret != 0 ? ret : stage_figures(tot, &total, n, &info);
}

static int
handle_lcores(const char *cmd __rte_unused, const char *params __rte_unused,
	struct rte_tel_data *d)
{
	struct rte_pmu_stage_lcore_stats ls;
	struct rte_pmu_lcore_info info;
	unsigned int n, lcore_id, i;
	char key[16];
	struct rte_tel_data *l, *e;
	struct stage_lcore *sl;

	n = stage_events(&info);
	rte_tel_data_start_dict(d);
	for (lcore_id = 0; lcore_id < RTE_MAX_LCORE; lcore_id++) {
		sl = stage_lcore_get(lcore_id);
		if (sl == NULL)
			continue;
		stage_lcore_fill(sl, &ls);
		snprintf(key, sizeof(key), "%u", lcore_id);
		l = dict_in(d, key, NULL);
		if (l == NULL)
			return -ENOMEM;
		rte_tel_data_add_dict_u64(l, "measured", ls.measured);
		for (i = 0; i < n; i++) {
			e = dict_in(l, info.events[i].key, &info.events[i]);
			if (e == NULL)
				return -ENOMEM;
			rte_tel_data_add_dict_u64(e, "total", ls.total[i]);
			rte_tel_data_add_dict_u64(e, "outside", ls.outside[i]);
			rte_tel_data_add_dict_int(e, "outside_inexact", (ls.inexact >> i) & 1);
		}
	}
	return 0;
}

static const struct {
	const char *cmd;
	telemetry_cb fn;
	bool param;     /* whether it takes one: those that do not refuse one */
	const char *help;
} commands[] = {
	{ "/pmu/stages", handle_stages, false,
		"Returns the names of the registered stages, in id order. Takes no parameters" },
	{ "/pmu/stage", handle_stage, true,
		"Returns per lcore and in total a stage's calls, items, event totals (with "
		"names, units) and misuse. Parameters: string name" },
	{ "/pmu/stage_lcores", handle_lcores, false,
		"Returns each lcore's total per event (with its name and unit) and the part "
		"outside its stages. Takes no parameters" },
};

/* The callback of every command: its handler, after the parameter's check. */
int
stage_telemetry_call(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(commands) && strcmp(commands[i].cmd, cmd) != 0; i++)
		;
	if (i == RTE_DIM(commands))
		return -ENOENT;
	if (!commands[i].param && params != NULL && params[0] != '\0') {
		STAGE_LOG(NOTICE, "telemetry %s: takes no parameter (got '%s')", cmd, params);
		return -EINVAL;
	}
	return commands[i].fn(cmd, params, d);
}

RTE_INIT(pmu_stage_telemetry_init)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(commands); i++)
		if (rte_telemetry_register_cmd(commands[i].cmd, stage_telemetry_call,
				commands[i].help) != 0)
			STAGE_LOG(WARNING, "telemetry command %s not registered", commands[i].cmd);
}
