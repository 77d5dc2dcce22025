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
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_telemetry.h>

#include "pmu_stage_private.h"

/* What a reply's lists may take: DPDK 22.11 leaves out whole a container
 * that does not fit in its 16 KiB reply, so a longer list goes on in the
 * next reply (a first stage id or lcore id as the parameter).
 */
#define REPLY_ROOM 12000

/* The length of @p s as a JSON string (its quotes and a comma in). */
static size_t
json_len(const char *s)
{
	size_t len = 3;

	for (; *s != '\0'; s++)
		len += *s == '"' || *s == '\\' ? 2 : 1;
	return len;
}

/* The most the figures of one lcore take in a reply (five counts, and
 * per event its key and seven numbers), or with @p names, an lcore of
 * /pmu/stage_lcores (three numbers, the event's name and unit).
 */
static size_t
lcore_room(const struct rte_pmu_lcore_info *info, unsigned int n, bool names)
{
	size_t room = 200;
	unsigned int i;

	for (i = 0; i < n; i++)
		room += json_len(info->events[i].key) + 270 + (names ?
			json_len(info->events[i].name) + json_len(info->events[i].unit) + 20 : 0);
	return room;
}

/* The first id of a list from @p params (digits; none: 0), or -1. */
static long
first_id(const char *params)
{
	unsigned long v;
	char *end;

	if (params == NULL || params[0] == '\0')
		return 0;
	if (params[0] < '0' || params[0] > '9')
		return -1;
	errno = 0;
	v = strtoul(params, &end, 10);
	return *end != '\0' || errno != 0 || v > INT32_MAX ? -1 : (long)v;
}

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
handle_stages(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_tel_data *names;
	long first = first_id(params);
	size_t used = 0;
	unsigned int i, n;

	if (first < 0) {
		STAGE_LOG(NOTICE, "telemetry %s: '%s' is not a stage id", cmd, params);
		return -EINVAL;
	}
	names = rte_tel_data_alloc();
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
	rte_tel_data_add_dict_int(d, "first", first);
	/* From id first, as many as a reply holds: the next ids in the next. */
	for (i = first; i < n && i - first < RTE_TEL_MAX_ARRAY_ENTRIES; i++) {
		used += json_len(stage_reg.names[i]);
		if (used > REPLY_ROOM)
			break;
		rte_tel_data_add_array_string(names, stage_reg.names[i]);
	}
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
		/* Sums over the measured calls, which never go down. */
		rte_tel_data_add_dict_u64(e, "measured_value", s->measured_values[i]);
		rte_tel_data_add_dict_u64(e, "measured_children", s->measured_children[i]);
		rte_tel_data_add_dict_u64(e, "overhead", s->overhead[i]);
		/* 0: exact; 1: not (rte_pmu_stage_stats::inexact). */
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

/* The stage named by @p params, "<name>,<first lcore id>" where <name> is
 * a stage's, else "<name>" whole (a name with a comma and digits at its
 * end, where the part before is a stage's too, is asked for with its
 * lcore: "a,1,0"), into @p name; its id, and the first lcore in @p first;
 * a negative errno (-ERANGE: a stage's, with an lcore id out of range).
 */
static int
stage_param(const char *params, char *name, size_t len, long *first)
{
	const char *comma = params != NULL ? strrchr(params, ',') : NULL;
	int ret;

	*first = comma != NULL && comma[1] != '\0' ? first_id(comma + 1) : -1;
	if (*first >= 0 && (size_t)(comma - params) < len) {
		snprintf(name, len, "%.*s", (int)(comma - params), params);
		ret = rte_pmu_stage_lookup(name);
		if (ret != -ENOENT)
			return ret >= 0 && *first >= RTE_MAX_LCORE ? -ERANGE : ret;
	}
	*first = 0;
	snprintf(name, len, "%s", params != NULL ? params : "");
	return params != NULL ? rte_pmu_stage_lookup(params) : -ENOENT;
}

static int
handle_stage(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_tel_data *lcores, *events, *tot;
	char key[16], name[RTE_PMU_STAGE_NAME_MAX];
	struct rte_pmu_stage_stats s, total;
	struct rte_pmu_lcore_info info;
	unsigned int id, n, lcore_id, i;
	size_t used, room;
	long first;
	int ret = stage_param(params, name, sizeof(name), &first);

	if (ret == -ENODEV)
		return ret;
	if (ret == -ERANGE) {
		STAGE_LOG(NOTICE, "telemetry %s: '%s': lcore id out of range (0 to %d)", cmd,
			params, RTE_MAX_LCORE - 1);
		return -EINVAL;
	}
	if (ret < 0) {
		STAGE_LOG(NOTICE, "telemetry %s: no stage named '%s' (see /pmu/stages)", cmd,
			params != NULL ? params : "");
		return -EINVAL;
	}
	id = ret;
	ret = 0;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "stage", name);
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
	/* The total is filled after the lcores: of the same reads. The lcores
	 * from the first asked for, as many as the reply holds; "next_lcore"
	 * where more follow.
	 */
	tot = dict_in(d, "total", NULL);
	lcores = dict_in(d, "lcores", NULL);
	if (tot == NULL || lcores == NULL)
		return -ENOMEM;
	/* The rest of the reply, but one lcore always listed (no endless pages). */
	room = lcore_room(&info, n, false);
	used = RTE_MIN(2 * room + lcore_room(&info, n, true), REPLY_ROOM - room);
	memset(&total, 0, sizeof(total));
	for (lcore_id = 0; lcore_id < RTE_MAX_LCORE && ret == 0; lcore_id++) {
		stage_stats_fill(stage_lcore_get(lcore_id), id, &s, NULL);
		if (s.calls == 0 && s.misuse == 0)
			continue;
		stage_total_add(&total, &s);
		if (lcore_id < first || used > REPLY_ROOM)
			continue;
		used += room;
		if (used > REPLY_ROOM) {
			rte_tel_data_add_dict_int(d, "next_lcore", lcore_id);
			continue;
		}
		snprintf(key, sizeof(key), "%u", lcore_id);
		ret = stage_figures(dict_in(lcores, key, NULL), &s, n, &info);
	}
	stage_total_end(&total);
	return ret != 0 ? ret : stage_figures(tot, &total, n, &info);
}

static int
handle_lcores(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_pmu_stage_lcore_stats ls;
	struct rte_pmu_lcore_info info;
	unsigned int n, lcore_id, i;
	long first = first_id(params);
	char key[16];
	struct rte_tel_data *l, *e;
	struct stage_lcore *sl;
	size_t used = 0;

	if (first < 0 || first >= RTE_MAX_LCORE) {
		STAGE_LOG(NOTICE, "telemetry %s: '%s' is not an lcore id", cmd, params);
		return -EINVAL;
	}
	n = stage_events(&info);
	rte_tel_data_start_dict(d);
	/* From the first lcore asked for, as many as the reply holds. */
	for (lcore_id = first; lcore_id < RTE_MAX_LCORE; lcore_id++) {
		sl = stage_lcore_get(lcore_id);
		if (sl == NULL)
			continue;
		used += lcore_room(&info, n, true);
		if (used > REPLY_ROOM) {
			rte_tel_data_add_dict_int(d, "next_lcore", lcore_id);
			break;
		}
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
	const char *help;
} commands[] = {
	{ "/pmu/stages", handle_stages,
		"Returns the stages' names in id order, from the first id given, as many as a "
		"reply holds. Parameters: int id (optional)" },
	{ "/pmu/stage", handle_stage,
		"Returns a stage's figures per lcore (from the lcore id given; next_lcore) and in "
		"total. Parameters: string name[,int lcore]" },
	{ "/pmu/stage_lcores", handle_lcores,
		"Returns each lcore's totals and the part outside its stages (from the lcore "
		"given; next_lcore). Parameters: int lcore" },
};

/* The callback of every command: its handler (each checks its parameter). */
int
stage_telemetry_call(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(commands) && strcmp(commands[i].cmd, cmd) != 0; i++)
		;
	return i < RTE_DIM(commands) ? commands[i].fn(cmd, params, d) : -ENOENT;
}

RTE_INIT(pmu_stage_telemetry_init)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(commands); i++)
		if (rte_telemetry_register_cmd(commands[i].cmd, stage_telemetry_call,
				commands[i].help) != 0)
			STAGE_LOG(WARNING, "telemetry command %s not registered", commands[i].cmd);
}
