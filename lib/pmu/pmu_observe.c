/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* An lcore's counters seen from another thread: the one copy of its state
 * (pmu_state_lcore_copy(), under the library's lock, with the group's
 * reader pinned open) and one read() of its group after the lock, so that
 * the lcore's fast path and its open never wait on a system call made
 * here. rte_pmu_lcore_info_get(), telemetry and through it the exporters
 * all take this snapshot.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* cpu_set_t, for rte_lcore_cpuset() */
#endif

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_string_fns.h>

#include "pmu_group.h"
#include "pmu_log.h"
#include "pmu_observe.h"
#include "pmu_state.h"
#include "rte_pmu.h"

const char *
pmu_path_name(enum rte_pmu_read_path path)
{
	switch (path) {
	case RTE_PMU_PATH_USER:
		return "user";
	case RTE_PMU_PATH_SYSCALL:
		return "syscall";
	default:
		return "none";
	}
}

/* "0-3,8": the CPUs an lcore may run on. */
static void
cpuset_format(unsigned int lcore_id, char *buf, size_t len)
{
	rte_cpuset_t set = rte_lcore_cpuset(lcore_id);
	size_t used = 0;
	int cpu, last;

	buf[0] = '\0';
	for (cpu = 0; cpu < CPU_SETSIZE && used < len; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		for (last = cpu; last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set); last++)
			;
		if (last == cpu)
			used += snprintf(buf + used, len - used, "%s%d", used ? "," : "", cpu);
		else
			used += snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "",
				cpu, last);
		cpu = last;
	}
}

static bool
lcore_exists(unsigned int lcore_id)
{
	return rte_lcore_has_role(lcore_id, ROLE_RTE) == 1 ||
		rte_lcore_has_role(lcore_id, ROLE_SERVICE) == 1 ||
		rte_lcore_has_role(lcore_id, ROLE_NON_EAL) == 1;
}

/* The snapshot; an lcore id not in use is refused when @p in_use. */
static int
snapshot_take(unsigned int lcore_id, bool values, bool in_use, struct pmu_snapshot *snap)
{
	struct pmu_lcore_copy c;
	uint64_t raw[RTE_MAX_NUM_GROUP_EVENTS];
	unsigned int i;
	int ret;

	memset(snap, 0, sizeof(*snap));
	snap->lcore_id = lcore_id;
	if (lcore_id >= RTE_MAX_LCORE)
		return -EINVAL;
	cpuset_format(lcore_id, snap->cpu, sizeof(snap->cpu));

	ret = pmu_state_lcore_copy(lcore_id, values, &c);
	if (ret != 0)
		return ret;
	/* Not open, or no event added (then every id says -ENODATA). */
	if (in_use && (c.status == 0 || c.status == -ENODATA) && !lcore_exists(lcore_id)) {
		pmu_state_lcore_unpin(lcore_id, &c);
		return -EINVAL;
	}
	snap->status = c.status == 1 && c.not_run ? -ENOSPC : c.status;
	snap->num_events = c.num_events;
	snap->slow_reads = c.slow_reads;
	snap->read_errors = c.read_errors;
	for (i = 0; i < c.num_events; i++) {
		strlcpy(snap->names[i], c.names[i], sizeof(snap->names[i]));
		snap->path[i] = c.path[i];
		snap->user_index[i] = c.user_index[i];
		snap->pmc_width[i] = c.pmc_width[i];
		snap->cap_user_rdpmc[i] = c.cap_user_rdpmc[i];
	}
	if (!values || c.status <= 0)
		return 0;

	/* Raw values: scaled here, with the group's times. */
	ret = pmu_group_read(c.group_fd, c.num_events, raw, c.num_events,
		&snap->time_enabled, &snap->time_running);
	pmu_state_lcore_unpin(lcore_id, &c);
	if (ret >= 0 && (unsigned int)ret != c.num_events)
		ret = -ENOENT;
	if (ret < 0) {
		snap->read_error = ret;
		PMU_LOG(DEBUG, "lcore %u: reading its group from another thread: %s",
			lcore_id, strerror(-ret));
		return 0;
	}
	for (i = 0; i < c.num_events; i++) {
		snap->raw[i] = raw[i];
		snap->scaled[i] = __rte_pmu_scale(raw[i], snap->time_enabled,
			snap->time_running);
	}
	snap->multiplexed = snap->time_enabled != snap->time_running;
	snap->have_values = true;

	return 0;
}

int
pmu_lcore_snapshot(unsigned int lcore_id, bool values, struct pmu_snapshot *snap)
{
	return snapshot_take(lcore_id, values, true, snap);
}

/* Telemetry keys take letters, digits, '_' and '/' only ("task-clock"
 * gives "task_clock"); every reply keys events so, each with its exact
 * "name" and "unit".
 */
void
pmu_event_keys(const char (*names)[PMU_SNAP_NAME_MAX], unsigned int n,
	char (*keys)[PMU_KEY_MAX])
{
	unsigned int i, j;
	char *k;

	for (i = 0; i < n; i++) {
		strlcpy(keys[i], names[i], PMU_KEY_MAX);
		for (k = keys[i]; *k != '\0'; k++)
			if (!isalnum((unsigned char)*k) && *k != '_' && *k != '/')
				*k = '_';
		for (j = 0; j < i && strcmp(keys[i], keys[j]) != 0; j++)
			;
		/* Cut where a long key leaves no room for the suffix. */
		if (j < i) {
			k = RTE_MIN(k, keys[i] + PMU_KEY_MAX - 1 - snprintf(NULL, 0, "_%u", i));
			snprintf(k, PMU_KEY_MAX - (k - keys[i]), "_%u", i);
		}
	}
}

const char *
pmu_event_unit(const struct pmu_events_copy *c, unsigned int hint, const char *name)
{
	const struct perf_event_attr *a;
	unsigned int i = hint;

	if (i >= c->num_events || strcmp(c->names[i], name) != 0)
		for (i = 0; i < c->num_events && strcmp(c->names[i], name) != 0; i++)
			;
	if (i == c->num_events)
		return "count";
	a = &c->descs[i].attr;
	return a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_CPU_CLOCK ||
		a->config == PERF_COUNT_SW_TASK_CLOCK) ? "ns" : "count";
}

int
rte_pmu_lcore_info_get(unsigned int lcore_id, struct rte_pmu_lcore_info *info)
{
	char keys[RTE_MAX_NUM_GROUP_EVENTS][PMU_KEY_MAX];
	struct pmu_events_copy ec;
	struct pmu_snapshot snap;
	unsigned int i;
	int ret;

	if (info == NULL || lcore_id >= RTE_MAX_LCORE) {
		PMU_LOG(ERR, "lcore info: %s", info == NULL ? "info is NULL" :
			lcore_id == LCORE_ID_ANY ? "LCORE_ID_ANY: not an lcore" :
			"lcore id out of range");
		return info == NULL || lcore_id != LCORE_ID_ANY ? -EINVAL : -ESRCH;
	}
	/* An lcore id not in use is a valid query here (status 0). */
	ret = snapshot_take(lcore_id, true, false, &snap);
	if (ret == -ENODEV)
		PMU_LOG(ERR, "lcore info: rte_pmu_init() not called");
	if (ret != 0)
		return ret;

	memset(info, 0, sizeof(*info));
	memset(&ec, 0, sizeof(ec));
	pmu_state_events(&ec);
	pmu_events_ipc(&ec, &info->cycles, &info->instructions);
	if (info->cycles >= (int)snap.num_events)
		info->cycles = -1;
	if (info->instructions >= (int)snap.num_events)
		info->instructions = -1;
	pmu_event_keys((const char (*)[PMU_SNAP_NAME_MAX])snap.names, snap.num_events, keys);
	info->status = snap.status;
	info->num_events = snap.num_events;
	info->slow_reads = snap.slow_reads;
	info->read_errors = snap.read_errors;
	for (i = 0; i < snap.num_events; i++) {
		struct rte_pmu_event_info *ei = &info->events[i];

		strlcpy(ei->name, snap.names[i], sizeof(ei->name));
		memcpy(ei->key, keys[i], sizeof(ei->key));
		ei->unit = pmu_event_unit(&ec, i, snap.names[i]);
		ei->path = snap.path[i];
		ei->user_index = snap.user_index[i];
		ei->pmc_width = snap.pmc_width[i];
		ei->cap_user_rdpmc = snap.cap_user_rdpmc[i];
		if (!snap.have_values)
			continue;
		ei->value = snap.raw[i];
		ei->time_enabled = snap.time_enabled;
		ei->time_running = snap.time_running;
		ei->multiplexed = snap.multiplexed;
	}
	if (snap.status > 0 && !snap.have_values)
		PMU_LOG(WARNING, "lcore %u: read() of its group failed (%s): values and times "
			"are left 0", lcore_id, strerror(-snap.read_error));

	return 0;
}
