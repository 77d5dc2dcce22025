/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Telemetry endpoints: /pmu/list, /pmu/info, /pmu/lcore,<lcore_id>,
 * /pmu/stages and /pmu/stage,<name>. They run on the telemetry thread,
 * never on a counted lcore: live values come from pmu_lcore_snapshot() (one
 * read() of the group, no user page), stage figures from the public
 * rte_pmu_stage_stats_get() (lock-free, consistent per stage and lcore).
 *
 * DPDK 22.11 telemetry has no floating-point value: ratios of the stage
 * endpoint (items per call, events per item, IPC) are fixed-point integers
 * in thousandths, named *_milli (1250 is 1.25), rounded to the nearest.
 */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_string_fns.h>
#include <rte_telemetry.h>

#include "pmu_driver.h"
#include "pmu_event.h"
#include "pmu_log.h"
#include "pmu_observe.h"
#include "pmu_state.h"
#include "rte_pmu.h"
#include "rte_pmu_stage.h"

/* Parse "<lcore_id>": decimal digits only, below RTE_MAX_LCORE. */
static int
lcore_param(const char *cmd, const char *params, unsigned int *lcore_id)
{
	unsigned long id;
	char *end;

	if (params == NULL || params[0] == '\0') {
		PMU_LOG(NOTICE, "telemetry %s: missing parameter <lcore_id>", cmd);
		return -EINVAL;
	}
	if (!isdigit((unsigned char)params[0])) {
		PMU_LOG(NOTICE, "telemetry %s: lcore id '%s' is not a number", cmd, params);
		return -EINVAL;
	}
	errno = 0;
	id = strtoul(params, &end, 10);
	if (*end != '\0' || errno != 0) {
		PMU_LOG(NOTICE, "telemetry %s: lcore id '%s' is not a number", cmd, params);
		return -EINVAL;
	}
	if (id >= RTE_MAX_LCORE) {
		PMU_LOG(NOTICE, "telemetry %s: lcore id %lu out of range (< %d)", cmd, id,
			RTE_MAX_LCORE);
		return -EINVAL;
	}
	*lcore_id = (unsigned int)id;

	return 0;
}

static int
no_param(const char *cmd, const char *params)
{
	if (params != NULL && params[0] != '\0') {
		PMU_LOG(NOTICE, "telemetry %s: takes no parameter (got '%s')", cmd, params);
		return -EINVAL;
	}

	return 0;
}

/* An array container of the given type, added to @p d under @p name. */
static struct rte_tel_data *
dict_array(struct rte_tel_data *d, const char *name, enum rte_tel_value_type type)
{
	struct rte_tel_data *a = rte_tel_data_alloc();

	if (a == NULL)
		return NULL;
	rte_tel_data_start_array(a, type);
	if (rte_tel_data_add_dict_container(d, name, a, 0) != 0) {
		rte_tel_data_free(a);
		return NULL;
	}

	return a;
}

static int
handle_list(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct pmu_events_copy *c;
	unsigned int i;
	int ret;

	ret = no_param(cmd, params);
	if (ret != 0)
		return ret;
	c = malloc(sizeof(*c));
	if (c == NULL)
		return -ENOMEM;

	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	pmu_state_events(c);
	for (i = 0; i < c->num_events; i++)
		rte_tel_data_add_array_string(d, c->names[i]);
	free(c);

	return 0;
}

/* One word for an lcore's read paths: each event's, or "mixed". */
static const char *
lcore_path(const struct pmu_snapshot *s)
{
	unsigned int i;

	if (s->status <= 0 || s->num_events == 0)
		return pmu_path_name(RTE_PMU_PATH_NONE);
	for (i = 1; i < s->num_events; i++)
		if (s->path[i] != s->path[0])
			return "mixed";

	return pmu_path_name(s->path[0]);
}

/* Events: their PMU, type and config, from a copy of the state. */
static int
info_events(struct rte_tel_data *d)
{
	struct rte_tel_data *name, *pmu_name, *type, *config;
	struct pmu_events_copy *c;
	unsigned int i;

	name = dict_array(d, "event_names", RTE_TEL_STRING_VAL);
	pmu_name = dict_array(d, "event_pmus", RTE_TEL_STRING_VAL);
	type = dict_array(d, "event_types", RTE_TEL_U64_VAL);
	config = dict_array(d, "event_configs", RTE_TEL_U64_VAL);
	c = malloc(sizeof(*c));
	if (name == NULL || pmu_name == NULL || type == NULL || config == NULL || c == NULL) {
		free(c);
		return -ENOMEM;
	}

	pmu_state_events(c);
	rte_tel_data_add_dict_int(d, "initialized", c->initialized);
	rte_tel_data_add_dict_string(d, "core_pmu", c->core_pmu);
	rte_tel_data_add_dict_string(d, "backend", pmu_arch_name());
	rte_tel_data_add_dict_int(d, "num_events", c->num_events);
	for (i = 0; i < c->num_events; i++) {
		const struct pmu_event_desc *desc = &c->descs[i];

		rte_tel_data_add_array_string(name, c->names[i]);
		rte_tel_data_add_array_string(pmu_name,
			desc->pmu[0] != '\0' ? desc->pmu : "generic");
		rte_tel_data_add_array_u64(type, desc->attr.type);
		rte_tel_data_add_array_u64(config, desc->attr.config);
	}
	free(c);

	return 0;
}

/* Lcores: each known lcore with its status, CPUs and read path. */
static int
info_lcores(struct rte_tel_data *d)
{
	struct rte_tel_data *ids, *status, *path, *cpu;
	struct pmu_snapshot *snap;
	unsigned int i;

	ids = dict_array(d, "lcores", RTE_TEL_INT_VAL);
	status = dict_array(d, "lcore_status", RTE_TEL_INT_VAL);
	path = dict_array(d, "lcore_paths", RTE_TEL_STRING_VAL);
	cpu = dict_array(d, "lcore_cpus", RTE_TEL_STRING_VAL);
	snap = malloc(sizeof(*snap));
	if (ids == NULL || status == NULL || path == NULL || cpu == NULL || snap == NULL) {
		free(snap);
		return -ENOMEM;
	}
	for (i = 0; i < RTE_MAX_LCORE; i++) {
		if (pmu_lcore_snapshot(i, false, snap) != 0)
			continue;
		rte_tel_data_add_array_int(ids, i);
		rte_tel_data_add_array_int(status, snap->status);
		rte_tel_data_add_array_string(path, lcore_path(snap));
		rte_tel_data_add_array_string(cpu, snap->cpu);
	}
	free(snap);

	return 0;
}

static int
handle_info(const char *cmd, const char *params, struct rte_tel_data *d)
{
	int ret;

	ret = no_param(cmd, params);
	if (ret != 0)
		return ret;

	rte_tel_data_start_dict(d);
	ret = info_events(d);
	if (ret != 0)
		return ret;

	/* Lcores: each snapshot takes the lock briefly (none when not
	 * initialised).
	 */
	return info_lcores(d);
}

static int
lcore_values(struct rte_tel_data *d, const struct pmu_snapshot *s)
{
	struct rte_tel_data *raw, *scaled;
	unsigned int i;

	rte_tel_data_add_dict_u64(d, "time_enabled", s->time_enabled);
	rte_tel_data_add_dict_u64(d, "time_running", s->time_running);
	rte_tel_data_add_dict_int(d, "multiplexed", s->multiplexed);
	raw = dict_array(d, "raw", RTE_TEL_U64_VAL);
	scaled = dict_array(d, "scaled", RTE_TEL_U64_VAL);
	if (raw == NULL || scaled == NULL)
		return -ENOMEM;
	for (i = 0; i < s->num_events; i++) {
		rte_tel_data_add_array_u64(raw, s->raw[i]);
		rte_tel_data_add_array_u64(scaled, s->scaled[i]);
	}

	return 0;
}

static int
handle_lcore(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_tel_data *names, *paths;
	struct pmu_snapshot snap;
	unsigned int lcore_id, i;
	int ret;

	ret = lcore_param(cmd, params, &lcore_id);
	if (ret != 0)
		return ret;
	ret = pmu_lcore_snapshot(lcore_id, true, &snap);
	if (ret == -ENODEV)
		PMU_LOG(NOTICE, "telemetry %s: rte_pmu_init() not called", cmd);
	else if (ret != 0)
		PMU_LOG(NOTICE, "telemetry %s: lcore %u is not in use", cmd, lcore_id);
	if (ret != 0)
		return ret;

	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "lcore_id", lcore_id);
	rte_tel_data_add_dict_string(d, "cpu", snap.cpu);
	rte_tel_data_add_dict_int(d, "status", snap.status);
	rte_tel_data_add_dict_int(d, "values_error", snap.read_error);
	rte_tel_data_add_dict_u64(d, "slow_reads", snap.slow_reads);
	rte_tel_data_add_dict_u64(d, "read_errors", snap.read_errors);
	names = dict_array(d, "events", RTE_TEL_STRING_VAL);
	paths = dict_array(d, "paths", RTE_TEL_STRING_VAL);
	if (names == NULL || paths == NULL)
		return -ENOMEM;
	for (i = 0; i < snap.num_events; i++) {
		rte_tel_data_add_array_string(names, snap.names[i]);
		rte_tel_data_add_array_string(paths, pmu_path_name(snap.path[i]));
	}
	if (!snap.have_values)
		return 0;

	return lcore_values(d, &snap);
}

static int
handle_stages(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_tel_data *names, *ids, *periods;
	char name[RTE_PMU_STAGE_NAME_MAX];
	unsigned int period;
	int n, i;

	n = no_param(cmd, params);
	if (n != 0)
		return n;
	rte_tel_data_start_dict(d);
	names = dict_array(d, "names", RTE_TEL_STRING_VAL);
	ids = dict_array(d, "ids", RTE_TEL_INT_VAL);
	periods = dict_array(d, "sampling_periods", RTE_TEL_U64_VAL);
	if (names == NULL || ids == NULL || periods == NULL)
		return -ENOMEM;
	/* Before rte_pmu_init(): no stage, as /pmu/list gives no event. */
	n = rte_pmu_stage_count();
	if (n < 0)
		n = 0;
	rte_tel_data_add_dict_int(d, "num_stages", n);
	for (i = 0; i < n; i++) {
		if (rte_pmu_stage_info(i, name, &period) != 0)
			continue; /* dropped by rte_pmu_fini() meanwhile */
		rte_tel_data_add_array_string(names, name);
		rte_tel_data_add_array_int(ids, i);
		rte_tel_data_add_array_u64(periods, period);
	}

	return 0;
}

/* The id of the stage named @p params; negative errno, logged, if none. */
static int
stage_param(const char *cmd, const char *params, unsigned int *period)
{
	char name[RTE_PMU_STAGE_NAME_MAX];
	int n, i;

	if (params == NULL || params[0] == '\0') {
		PMU_LOG(NOTICE, "telemetry %s: missing parameter <stage name>", cmd);
		return -EINVAL;
	}
	n = rte_pmu_stage_count();
	if (n < 0) {
		PMU_LOG(NOTICE, "telemetry %s: rte_pmu_init() not called", cmd);
		return n;
	}
	for (i = 0; i < n; i++)
		if (rte_pmu_stage_info(i, name, period) == 0 && strcmp(name, params) == 0)
			return i;
	PMU_LOG(NOTICE, "telemetry %s: no stage named '%s' (see /pmu/stages)", cmd,
		pmu_name_printable(params));

	return -EINVAL;
}

/* num / den in thousandths, rounded; 0 when den is 0. */
static uint64_t
milli(uint64_t num, uint64_t den)
{
	if (den == 0)
		return 0;
	return (uint64_t)((double)num * 1000.0 / (double)den + 0.5);
}

/* One lcore's (or the total's) figures of a stage as a dict: counts, raw
 * event values (inclusive and self) and the per-item ratios.
 */
static int
stage_figures(struct rte_tel_data *d, const char *key, const struct rte_pmu_stage_stats *s,
	unsigned int num_events, int cycles, int instructions)
{
	struct rte_tel_data *f = rte_tel_data_alloc();
	struct rte_tel_data *values, *self, *per_item, *self_per_item, *per_call, *overhead;
	unsigned int i;

	if (f == NULL)
		return -ENOMEM;
	rte_tel_data_start_dict(f);
	if (rte_tel_data_add_dict_container(d, key, f, 0) != 0) {
		rte_tel_data_free(f);
		return -ENOMEM;
	}
	rte_tel_data_add_dict_u64(f, "calls", s->calls);
	rte_tel_data_add_dict_u64(f, "items", s->items);
	rte_tel_data_add_dict_u64(f, "measured", s->measured);
	rte_tel_data_add_dict_u64(f, "misuse", s->misuse);
	rte_tel_data_add_dict_u64(f, "lcore_misuse", s->lcore_misuse);
	rte_tel_data_add_dict_u64(f, "items_per_call_milli", milli(s->items, s->calls));
	values = dict_array(f, "values", RTE_TEL_U64_VAL);
	self = dict_array(f, "self_values", RTE_TEL_U64_VAL);
	per_item = dict_array(f, "per_item_milli", RTE_TEL_U64_VAL);
	self_per_item = dict_array(f, "self_per_item_milli", RTE_TEL_U64_VAL);
	/* Per call too: calls with no item (idle polls) show their cost. */
	per_call = dict_array(f, "per_call_milli", RTE_TEL_U64_VAL);
	overhead = dict_array(f, "overhead", RTE_TEL_U64_VAL);
	if (values == NULL || self == NULL || per_item == NULL || self_per_item == NULL ||
			per_call == NULL || overhead == NULL)
		return -ENOMEM;
	for (i = 0; i < num_events; i++) {
		rte_tel_data_add_array_u64(values, s->values[i]);
		rte_tel_data_add_array_u64(self, s->self_values[i]);
		rte_tel_data_add_array_u64(per_item, milli(s->values[i], s->items));
		rte_tel_data_add_array_u64(self_per_item, milli(s->self_values[i], s->items));
		rte_tel_data_add_array_u64(per_call, milli(s->values[i], s->calls));
		rte_tel_data_add_array_u64(overhead, s->overhead[i]);
	}
	if (cycles >= 0 && instructions >= 0)
		rte_tel_data_add_dict_u64(f, "ipc_milli",
			milli(s->values[instructions], s->values[cycles]));

	return 0;
}


static int
handle_stage(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_pmu_stage_stats s, total;
	struct rte_tel_data *names, *lcores;
	struct pmu_events_copy *c;
	unsigned int period, lcore_id, i;
	int id, cycles, instructions, ret = 0;
	char key[32];

	id = stage_param(cmd, params, &period);
	if (id < 0)
		return id;
	c = malloc(sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	if (pmu_state_events(c) != 0)
		c->num_events = 0;
	pmu_events_ipc(c, &cycles, &instructions);

	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "stage", params);
	rte_tel_data_add_dict_int(d, "id", id);
	rte_tel_data_add_dict_u64(d, "sampling_period", period);
	names = dict_array(d, "events", RTE_TEL_STRING_VAL);
	lcores = dict_array(d, "lcores", RTE_TEL_INT_VAL);
	if (names == NULL || lcores == NULL) {
		free(c);
		return -ENOMEM;
	}
	for (i = 0; i < c->num_events; i++)
		rte_tel_data_add_array_string(names, c->names[i]);

	memset(&total, 0, sizeof(total));
	for (lcore_id = 0; lcore_id < RTE_MAX_LCORE && ret == 0; lcore_id++) {
		if (rte_pmu_stage_stats_get(lcore_id, id, &s) != 0 ||
				(s.calls == 0 && s.misuse == 0))
			continue;
		rte_tel_data_add_array_int(lcores, lcore_id);
		snprintf(key, sizeof(key), "lcore_%u", lcore_id);
		ret = stage_figures(d, key, &s, c->num_events, cycles, instructions);
		total.calls += s.calls;
		total.items += s.items;
		total.measured += s.measured;
		total.misuse += s.misuse;
		total.lcore_misuse += s.lcore_misuse;
		for (i = 0; i < c->num_events; i++) {
			total.values[i] += s.values[i];
			total.self_values[i] += s.self_values[i];
			/* The total's read cost: the dearest lcore's. */
			total.overhead[i] = RTE_MAX(total.overhead[i], s.overhead[i]);
		}
	}
	if (ret == 0)
		ret = stage_figures(d, "total", &total, c->num_events, cycles, instructions);
	free(c);

	return ret;
}

/* Help strings stay under RTE_TEL_MAX_STRING_LEN, or registration fails. */
static const struct {
	const char *cmd;
	telemetry_cb fn;
	const char *help;
} commands[] = {
	{ "/pmu/list", handle_list,
		"Returns the names of the added events, in index order. Takes no parameters" },
	{ "/pmu/info", handle_info,
		"Returns the core PMU, each event's PMU, type and config, and each lcore's "
		"status, CPUs and read path. Takes no parameters" },
	{ "/pmu/lcore", handle_lcore,
		"Returns an lcore's live values (raw, scaled), time enabled and running, "
		"multiplexing. Parameters: int lcore_id" },
	{ "/pmu/stages", handle_stages,
		"Returns the registered stages: names, ids, sampling periods. "
		"Takes no parameters" },
	{ "/pmu/stage", handle_stage,
		"Returns a stage's calls, items, events (total, per item x1000), IPC, "
		"misuse, per lcore and in total. Parameters: string name" },
};

int
pmu_telemetry_call(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(commands); i++)
		if (strcmp(commands[i].cmd, cmd) == 0)
			return commands[i].fn(cmd, params, d);

	return -ENOENT;
}

RTE_INIT(pmu_telemetry_init)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(commands); i++)
		if (rte_telemetry_register_cmd(commands[i].cmd, commands[i].fn,
				commands[i].help) != 0)
			PMU_LOG(WARNING, "telemetry command %s not registered", commands[i].cmd);
}
