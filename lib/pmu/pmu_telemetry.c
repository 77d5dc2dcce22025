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
	if (*end != '\0') {
		PMU_LOG(NOTICE, "telemetry %s: lcore id '%s' is not a number", cmd, params);
		return -EINVAL;
	}
	if (errno != 0 || id >= RTE_MAX_LCORE) {
		PMU_LOG(NOTICE, "telemetry %s: lcore id %s out of range (< %d)", cmd, params,
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

/* Each event as every reply gives it: under its key, its exact name and
 * unit; the figures follow.
 */
static struct rte_tel_data *
event_dict(struct rte_tel_data *events, const char *key, const char *name, const char *unit)
{
	struct rte_tel_data *e = dict_dict(events, key);

	if (e == NULL)
		return NULL;
	rte_tel_data_add_dict_string(e, "name", name);
	rte_tel_data_add_dict_string(e, "unit", unit);

	return e;
}

/* "events" of /pmu/list and /pmu/info: per event its name, unit and index. */
static struct rte_tel_data *
list_events(struct rte_tel_data *d, const struct pmu_events_copy *c, unsigned int i,
	const char (*keys)[PMU_KEY_MAX])
{
	struct rte_tel_data *e = event_dict(d, keys[i], c->names[i],
		pmu_event_unit(c, i, c->names[i]));

	if (e != NULL)
		rte_tel_data_add_dict_int(e, "index", i);

	return e;
}

static int
handle_list(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char keys[RTE_MAX_NUM_GROUP_EVENTS][PMU_KEY_MAX];
	struct pmu_events_copy *c;
	unsigned int i;
	int ret;

	ret = no_param(cmd, params);
	if (ret != 0)
		return ret;
	c = malloc(sizeof(*c));
	if (c == NULL)
		return -ENOMEM;

	rte_tel_data_start_dict(d);
	pmu_state_events(c);
	pmu_event_keys((const char (*)[PMU_SNAP_NAME_MAX])c->names, c->num_events, keys);
	for (i = 0; i < c->num_events && ret == 0; i++)
		if (list_events(d, c, i, (const char (*)[PMU_KEY_MAX])keys) == NULL)
			ret = -ENOMEM;
	free(c);

	return ret;
}

/* The read path in the words of dpdk-test-pmu: "user" ("user (rdtsc)"
 * for x86's msr/tsc/, which has no page index), "read()" or "none".
 */
static const char *
path_word(enum rte_pmu_read_path path, uint32_t user_index)
{
	switch (path) {
	case RTE_PMU_PATH_USER:
		return user_index == 0 ? "user (rdtsc)" : "user";
	case RTE_PMU_PATH_SYSCALL:
		return "read()";
	default:
		return "none";
	}
}

/* One word for an lcore's read paths: each event's, or "mixed". */
static const char *
lcore_path(const struct pmu_snapshot *s)
{
	const char *word;
	unsigned int i;

	if (s->status <= 0 || s->num_events == 0)
		return path_word(RTE_PMU_PATH_NONE, 0);
	word = path_word(s->path[0], s->user_index[0]);
	for (i = 1; i < s->num_events; i++)
		if (strcmp(path_word(s->path[i], s->user_index[i]), word) != 0)
			return "mixed";

	return word;
}

/* rte_pmu_lcore_status() in a word a Prometheus label takes as it is:
 * "open", "not_open", or the errno's name ("ENODATA").
 */
static const char *
status_word(int status, char *buf, size_t len)
{
	static const struct {
		int err;
		const char *name;
	} names[] = {
		{ EACCES, "EACCES" }, { EAGAIN, "EAGAIN" }, { EBUSY, "EBUSY" },
		{ EINVAL, "EINVAL" }, { EIO, "EIO" }, { EMFILE, "EMFILE" },
		{ ENFILE, "ENFILE" }, { ENODATA, "ENODATA" }, { ENODEV, "ENODEV" },
		{ ENOENT, "ENOENT" }, { ENOMEM, "ENOMEM" }, { ENOSPC, "ENOSPC" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { EPERM, "EPERM" }, { ESRCH, "ESRCH" },
		{ EXDEV, "EXDEV" },
	};
	unsigned int i;

	if (status == 1)
		return "open";
	if (status == 0)
		return "not_open";
	for (i = 0; i < RTE_DIM(names); i++)
		if (-status == names[i].err)
			return names[i].name;
	snprintf(buf, len, "errno_%d", -status);

	return buf;
}

/* An lcore's status (its word, and the number as "status_code") and CPUs:
 * a number for one CPU, else the set as a string ("0-3,8").
 */
static void
lcore_state(struct rte_tel_data *d, const struct pmu_snapshot *s)
{
	char word[24], *end;
	unsigned long cpu;

	rte_tel_data_add_dict_string(d, "status", status_word(s->status, word, sizeof(word)));
	rte_tel_data_add_dict_int(d, "status_code", s->status);
	cpu = strtoul(s->cpu, &end, 10);
	if (isdigit((unsigned char)s->cpu[0]) && *end == '\0' && cpu <= INT32_MAX)
		rte_tel_data_add_dict_int(d, "cpu", (int)cpu);
	else
		rte_tel_data_add_dict_string(d, "cpu", s->cpu);
}

/* "events": per event its name, unit, index, PMU, type and config. */
static int
info_events(struct rte_tel_data *d)
{
	char keys[RTE_MAX_NUM_GROUP_EVENTS][PMU_KEY_MAX];
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
	pmu_event_keys((const char (*)[PMU_SNAP_NAME_MAX])c->names, c->num_events, keys);
	for (i = 0; i < c->num_events; i++) {
		const struct pmu_event_desc *desc = &c->descs[i];

		e = list_events(events, c, i, (const char (*)[PMU_KEY_MAX])keys);
		if (e == NULL) {
			free(c);
			return -ENOMEM;
		}
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
		lcore_state(l, snap);
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
	char keys[RTE_MAX_NUM_GROUP_EVENTS][PMU_KEY_MAX];
	struct rte_tel_data *events, *e;
	struct pmu_events_copy *c;
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
	lcore_state(d, &snap);
	rte_tel_data_add_dict_int(d, "values_error", snap.read_error);
	rte_tel_data_add_dict_u64(d, "slow_reads", snap.slow_reads);
	rte_tel_data_add_dict_u64(d, "read_errors", snap.read_errors);
	if (snap.have_values) {
		rte_tel_data_add_dict_u64(d, "time_enabled", snap.time_enabled);
		rte_tel_data_add_dict_u64(d, "time_running", snap.time_running);
		rte_tel_data_add_dict_int(d, "multiplexed", snap.multiplexed);
	}
	events = dict_dict(d, "events");
	c = malloc(sizeof(*c));
	if (events == NULL || c == NULL) {
		free(c);
		return -ENOMEM;
	}
	pmu_state_events(c);
	pmu_event_keys((const char (*)[PMU_SNAP_NAME_MAX])snap.names, snap.num_events, keys);
	for (i = 0; i < snap.num_events; i++) {
		e = event_dict(events, keys[i], snap.names[i], pmu_event_unit(c, i, snap.names[i]));
		if (e == NULL) {
			free(c);
			return -ENOMEM;
		}
		rte_tel_data_add_dict_string(e, "path", path_word(snap.path[i],
			snap.user_index[i]));
		if (!snap.have_values)
			continue;
		rte_tel_data_add_dict_u64(e, "raw", snap.raw[i]);
		rte_tel_data_add_dict_u64(e, "scaled", snap.scaled[i]);
	}
	free(c);

	return 0;
}

/* Help strings stay under RTE_TEL_MAX_STRING_LEN, or registration fails. */
static const struct {
	const char *cmd;
	telemetry_cb fn;
	const char *help;
} commands[] = {
	{ "/pmu/list", handle_list,
		"Returns the added events in index order, keyed as in every reply: name, unit, "
		"index. Takes no parameters" },
	{ "/pmu/info", handle_info,
		"Returns the core PMU, per event its name, unit, PMU, type, config, per lcore "
		"its status, CPUs, read path. No parameters" },
	{ "/pmu/lcore", handle_lcore,
		"Returns an lcore's live values per event (raw, scaled), time enabled and "
		"running, multiplexing. Parameters: int lcore_id" },
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
