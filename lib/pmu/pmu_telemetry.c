/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Telemetry endpoints: /pmu/list, /pmu/info, /pmu/lcore,<lcore_id>,
 * /pmu/stages and /pmu/stage,<name>. They run on the telemetry thread,
 * never on a counted lcore: live values come from pmu_lcore_snapshot() (one
 * read() of the group, no user page), stage figures from the public
 * rte_pmu_stage_stats_get() (lock-free, consistent per stage and lcore).
 *
 * Objects are keyed by event, lcore and stage, as DPDK's /ethdev/xstats.
 * DPDK 22.11 telemetry has no floating-point value, so the replies give
 * totals only and leave ratios (per item, IPC) to the consumer, as
 * /ethdev/stats does.
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

/* A dict container added to @p d under @p name. */
static struct rte_tel_data *
dict_dict(struct rte_tel_data *d, const char *name)
{
	struct rte_tel_data *c = rte_tel_data_alloc();

	if (c == NULL)
		return NULL;
	rte_tel_data_start_dict(c);
	if (rte_tel_data_add_dict_container(d, name, c, 0) != 0) {
		rte_tel_data_free(c);
		return NULL;
	}

	return c;
}

/* Telemetry keys take letters, digits, '_' and '/' only: each event's key is
 * its name with any other character written '_' ("task-clock" gives
 * "task_clock"), and "_<index>" added when an earlier event has that key.
 * The exact names are in /pmu/list and in each event's "name".
 */
#define KEY_MAX (PMU_SNAP_NAME_MAX + 8)

static void
event_keys(const char (*names)[PMU_SNAP_NAME_MAX], unsigned int n, char (*keys)[KEY_MAX])
{
	unsigned int i, j;
	char *k;

	for (i = 0; i < n; i++) {
		strlcpy(keys[i], names[i], KEY_MAX);
		for (k = keys[i]; *k != '\0'; k++)
			if (!isalnum((unsigned char)*k) && *k != '_' && *k != '/')
				*k = '_';
		for (j = 0; j < i; j++)
			if (strcmp(keys[i], keys[j]) == 0)
				break;
		if (j < i)
			snprintf(keys[i] + strlen(keys[i]), KEY_MAX - strlen(keys[i]), "_%u", i);
	}
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

/* The read path in the words of dpdk-test-pmu ("read()" written "read",
 * a word a PromQL label matcher takes as it is).
 */
static const char *
path_word(enum rte_pmu_read_path path)
{
	switch (path) {
	case RTE_PMU_PATH_USER:
		return "user";
	case RTE_PMU_PATH_SYSCALL:
		return "read";
	default:
		return "none";
	}
}

/* One word for an lcore's read paths: each event's, or "mixed". */
static const char *
lcore_path(const struct pmu_snapshot *s)
{
	unsigned int i;

	if (s->status <= 0 || s->num_events == 0)
		return path_word(RTE_PMU_PATH_NONE);
	for (i = 1; i < s->num_events; i++)
		if (s->path[i] != s->path[0])
			return "mixed";

	return path_word(s->path[0]);
}

/* "events": per event (keyed by name) its index, PMU, type and config. */
static int
info_events(struct rte_tel_data *d)
{
	char keys[RTE_MAX_NUM_GROUP_EVENTS][KEY_MAX];
	struct rte_tel_data *events, *e;
	struct pmu_events_copy *c;
	unsigned int i;

	c = malloc(sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	pmu_state_events(c);
	rte_tel_data_add_dict_int(d, "initialized", c->initialized);
	rte_tel_data_add_dict_string(d, "core_pmu", c->core_pmu);
	rte_tel_data_add_dict_string(d, "backend", pmu_arch_name());
	rte_tel_data_add_dict_int(d, "num_events", c->num_events);
	events = dict_dict(d, "events");
	if (events == NULL) {
		free(c);
		return -ENOMEM;
	}
	event_keys((const char (*)[PMU_SNAP_NAME_MAX])c->names, c->num_events, keys);
	for (i = 0; i < c->num_events; i++) {
		const struct pmu_event_desc *desc = &c->descs[i];

		e = dict_dict(events, keys[i]);
		if (e == NULL) {
			free(c);
			return -ENOMEM;
		}
		rte_tel_data_add_dict_string(e, "name", c->names[i]);
		rte_tel_data_add_dict_int(e, "index", i);
		rte_tel_data_add_dict_string(e, "pmu",
			desc->pmu[0] != '\0' ? desc->pmu : "generic");
		rte_tel_data_add_dict_u64(e, "type", desc->attr.type);
		rte_tel_data_add_dict_u64(e, "config", desc->attr.config);
	}
	free(c);

	return 0;
}

/* "lcores": per known lcore (keyed by id) its status, CPUs and read path. */
static int
info_lcores(struct rte_tel_data *d)
{
	struct rte_tel_data *lcores, *l;
	struct pmu_snapshot *snap;
	unsigned int i;
	char key[16];

	lcores = dict_dict(d, "lcores");
	snap = malloc(sizeof(*snap));
	if (lcores == NULL || snap == NULL) {
		free(snap);
		return -ENOMEM;
	}
	for (i = 0; i < RTE_MAX_LCORE; i++) {
		if (pmu_lcore_snapshot(i, false, snap) != 0)
			continue;
		snprintf(key, sizeof(key), "%u", i);
		l = dict_dict(lcores, key);
		if (l == NULL) {
			free(snap);
			return -ENOMEM;
		}
		rte_tel_data_add_dict_int(l, "status", snap->status);
		rte_tel_data_add_dict_string(l, "cpu", snap->cpu);
		rte_tel_data_add_dict_string(l, "path", lcore_path(snap));
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
handle_lcore(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char keys[RTE_MAX_NUM_GROUP_EVENTS][KEY_MAX];
	struct rte_tel_data *events, *e;
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
	if (snap.have_values) {
		rte_tel_data_add_dict_u64(d, "time_enabled", snap.time_enabled);
		rte_tel_data_add_dict_u64(d, "time_running", snap.time_running);
		rte_tel_data_add_dict_int(d, "multiplexed", snap.multiplexed);
	}
	events = dict_dict(d, "events");
	if (events == NULL)
		return -ENOMEM;
	event_keys((const char (*)[PMU_SNAP_NAME_MAX])snap.names, snap.num_events, keys);
	for (i = 0; i < snap.num_events; i++) {
		e = dict_dict(events, keys[i]);
		if (e == NULL)
			return -ENOMEM;
		rte_tel_data_add_dict_string(e, "name", snap.names[i]);
		rte_tel_data_add_dict_string(e, "path", path_word(snap.path[i]));
		if (!snap.have_values)
			continue;
		rte_tel_data_add_dict_u64(e, "raw", snap.raw[i]);
		rte_tel_data_add_dict_u64(e, "scaled", snap.scaled[i]);
	}

	return 0;
}

/* A list of names, as /ethdev/list gives ids; each stage's figures are
 * behind /pmu/stage,<name>. Up to RTE_TEL_MAX_ARRAY_ENTRIES names fit in
 * one reply; num_stages counts them all.
 */
static int
handle_stages(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char name[RTE_PMU_STAGE_NAME_MAX];
	struct rte_tel_data *names;
	unsigned int period;
	int n, i;

	n = no_param(cmd, params);
	if (n != 0)
		return n;
	rte_tel_data_start_dict(d);
	names = rte_tel_data_alloc();
	if (names == NULL)
		return -ENOMEM;
	rte_tel_data_start_array(names, RTE_TEL_STRING_VAL);
	if (rte_tel_data_add_dict_container(d, "names", names, 0) != 0) {
		rte_tel_data_free(names);
		return -ENOMEM;
	}
	/* Before rte_pmu_init(): no stage, as /pmu/list gives no event. */
	n = rte_pmu_stage_count();
	if (n < 0)
		n = 0;
	rte_tel_data_add_dict_int(d, "num_stages", n);
	for (i = 0; i < n; i++) {
		if (rte_pmu_stage_info(i, name, &period) != 0)
			continue; /* dropped by rte_pmu_fini() meanwhile */
		rte_tel_data_add_array_string(names, name);
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

/* One lcore's (or the total's) figures of a stage as a dict: counts, and
 * per event (keyed by name) the values inclusive and self and the read cost.
 * Totals only: a ratio (per item, per call, IPC) is the consumer's division,
 * as with /ethdev/stats, over whatever window it wants.
 */
static int
stage_figures(struct rte_tel_data *d, const char *key, const struct rte_pmu_stage_stats *s,
	unsigned int num_events, const char (*keys)[KEY_MAX])
{
	struct rte_tel_data *f = dict_dict(d, key);
	struct rte_tel_data *events, *e;
	unsigned int i;

	if (f == NULL)
		return -ENOMEM;
	rte_tel_data_add_dict_u64(f, "calls", s->calls);
	rte_tel_data_add_dict_u64(f, "items", s->items);
	rte_tel_data_add_dict_u64(f, "measured", s->measured);
	rte_tel_data_add_dict_u64(f, "misuse", s->misuse);
	rte_tel_data_add_dict_u64(f, "lcore_misuse", s->lcore_misuse);
	events = dict_dict(f, "events");
	if (events == NULL)
		return -ENOMEM;
	for (i = 0; i < num_events; i++) {
		e = dict_dict(events, keys[i]);
		if (e == NULL)
			return -ENOMEM;
		rte_tel_data_add_dict_u64(e, "value", s->values[i]);
		rte_tel_data_add_dict_u64(e, "self_value", s->self_values[i]);
		rte_tel_data_add_dict_u64(e, "overhead", s->overhead[i]);
	}

	return 0;
}

static int
handle_stage(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char keys[RTE_MAX_NUM_GROUP_EVENTS][KEY_MAX];
	struct rte_pmu_stage_stats s, total;
	struct rte_tel_data *names, *lcores;
	struct pmu_events_copy *c;
	unsigned int period, lcore_id, i;
	int id, ret = 0;
	char key[16];

	id = stage_param(cmd, params, &period);
	if (id < 0)
		return id;
	c = malloc(sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	if (pmu_state_events(c) != 0)
		c->num_events = 0;
	event_keys((const char (*)[PMU_SNAP_NAME_MAX])c->names, c->num_events, keys);

	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "stage", params);
	rte_tel_data_add_dict_int(d, "id", id);
	rte_tel_data_add_dict_u64(d, "sampling_period", period);
	/* The key of each event in the figures, and its name. */
	/* "lcores" is filled first but added after "total": telemetry leaves
	 * out a value that does not fit in the reply, so a reply with many
	 * lcores loses them, never the total.
	 */
	names = dict_dict(d, "events");
	lcores = rte_tel_data_alloc();
	if (names == NULL || lcores == NULL) {
		rte_tel_data_free(lcores);
		free(c);
		return -ENOMEM;
	}
	rte_tel_data_start_dict(lcores);
	for (i = 0; i < c->num_events; i++)
		rte_tel_data_add_dict_string(names, keys[i], c->names[i]);

	memset(&total, 0, sizeof(total));
	for (lcore_id = 0; lcore_id < RTE_MAX_LCORE && ret == 0; lcore_id++) {
		if (rte_pmu_stage_stats_get(lcore_id, id, &s) != 0 ||
				(s.calls == 0 && s.misuse == 0))
			continue;
		snprintf(key, sizeof(key), "%u", lcore_id);
		ret = stage_figures(lcores, key, &s, c->num_events,
			(const char (*)[KEY_MAX])keys);
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
		ret = stage_figures(d, "total", &total, c->num_events,
			(const char (*)[KEY_MAX])keys);
	if (rte_tel_data_add_dict_container(d, "lcores", lcores, 0) != 0) {
		rte_tel_data_free(lcores);
		ret = -ENOMEM;
	}
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
		"Returns the core PMU, per event its index, PMU, type and config, per lcore "
		"its status, CPUs and read path. Takes no parameters" },
	{ "/pmu/lcore", handle_lcore,
		"Returns an lcore's live values per event (raw, scaled), time enabled and "
		"running, multiplexing. Parameters: int lcore_id" },
	{ "/pmu/stages", handle_stages,
		"Returns the names of the registered stages, in id order. "
		"Takes no parameters" },
	{ "/pmu/stage", handle_stage,
		"Returns a stage's calls, items, event totals and misuse, per lcore "
		"and in total. Parameters: string name" },
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
