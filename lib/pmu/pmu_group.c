/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Preparing events and opening an lcore's group: the work of the open,
 * on the descriptors and pages it is given, without the library's lock.
 * The control path (pmu.c) decides when, and publishes the result.
 */

#include <errno.h>
#include <sched.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "pmu_driver.h"
#include "pmu_event.h"
#include "pmu_fd.h"
#include "pmu_group.h"
#include "pmu_log.h"
#include "pmu_state.h"
#include "pmu_sysfs.h"
#include "rte_pmu.h"
#include "rte_pmu_trace.h"

int
pmu_event_prepare(const char *name, const char *core_pmu, bool any_core,
	struct pmu_event_desc *desc)
{
	int ret;

	ret = any_core ? pmu_event_encode_any(name, core_pmu, desc) :
		pmu_event_encode(name, core_pmu, desc);
	if (ret != 0)
		return pmu_errno(ret, ret == -ENOENT || ret == -EINVAL ||
			ret == -EOPNOTSUPP ? ret : -EIO);
	if (desc->core)
		pmu_arch_attr_fixup(desc->core_pmu, desc);

	return pmu_fd_probe(name, desc->core_pmu, desc);
}

void
pmu_group_res_init(struct pmu_group_res *res)
{
	unsigned int i;

	for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++) {
		res->fds[i] = -1;
		res->pages[i] = NULL;
	}
	res->group_fd = -1;
}

void
pmu_group_release(struct pmu_group_res *res)
{
	unsigned int i;

	for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++) {
		pmu_fd_unmap(res->pages[i]);
		res->pages[i] = NULL;
		pmu_fd_close(&res->fds[i]);
	}
	pmu_fd_close(&res->group_fd);
}

/*
 * The encodings of this lcore: the added ones, except on a machine with
 * several core types, where core events are encoded again for the core PMU
 * of the CPUs the calling thread may run on.
 */
static int
group_encodings(struct pmu_group_opening *op)
{
	char names[PMU_CORE_MAX][PMU_NAME_MAX];
	char core[PMU_NAME_MAX];
	bool any_core = false;
	rte_cpuset_t set;
	unsigned int i;
	int ret;

	for (i = 0; i < op->num_events; i++)
		any_core |= op->descs[i].core;
	if (!any_core || pmu_core_pmus(names) < 2)
		return 0;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -errno;
	ret = pmu_core_pmu_for_cpuset(&set, core);
	if (ret != 0)
		return ret;
	for (i = 0; i < op->num_events; i++) {
		if (!op->descs[i].core || strcmp(op->descs[i].core_pmu, core) == 0)
			continue;
		ret = pmu_event_prepare(op->names[i], core, false, &op->descs[i]);
		if (ret != 0)
			return ret;
	}
	return 0;
}

/*
 * The events of @p op that count the TSC (pmu_arch_counts_tsc()), in
 * op->tsc_events. Returns 0 or negative errno (a sysfs file unreadable).
 */
static int
group_tsc_events(struct pmu_group_opening *op)
{
	unsigned int i;
	int ret;

	for (i = 0; i < op->num_events; i++) {
		ret = pmu_arch_counts_tsc(&op->descs[i]);
		if (ret < 0) {
			PMU_LOG(ERR, "lcore %u: event %s: its PMU's sysfs files, which say whether "
				"it counts the TSC, cannot be read: %s", op->lcore_id,
				pmu_name_printable(op->names[i]), strerror(-ret));
			return pmu_errno(ret, -EIO);
		}
		if (ret == 0)
			continue;
		op->tsc_events |= UINT32_C(1) << i;
		PMU_LOG(DEBUG, "lcore %u: event %s counts the TSC: read with rdtsc",
			op->lcore_id, pmu_name_printable(op->names[i]));
	}
	return 0;
}

int
pmu_group_open(struct pmu_group_opening *op)
{
	struct pmu_group_res *res = &op->res;
	const char *step;
	unsigned int i;
	uint64_t tsc;
	int ret;

	pmu_group_res_init(res);
	op->tsc_events = 0;
	step = "core type";
	ret = group_encodings(op);
	if (ret != 0)
		goto fail;
	step = "tsc";
	ret = group_tsc_events(op);
	if (ret != 0)
		goto fail;
	for (i = 0; i < op->num_events; i++) {
		step = op->names[i];
		ret = pmu_fd_group_open(op->names[i], &op->descs[i],
			i == 0 ? -1 : res->fds[0]);
		if (ret < 0)
			goto fail;
		res->fds[i] = ret;

		ret = pmu_fd_map(res->fds[i], &res->pages[i]);
		if (ret != 0) {
			PMU_LOG(ERR, "event %s: mmap of the user page: %s",
				pmu_name_printable(op->names[i]),
				strerror(-ret));
			goto fail;
		}
	}

	/* Last, so that the group's values come in event index order. */
	step = "group reader";
	ret = pmu_fd_group_reader_open(res->fds[0]);
	if (ret < 0)
		goto fail;
	res->group_fd = ret;

	/* The group counts from its enable on: an event that counts the TSC
	 * reads rte_rdtsc() less the TSC just before it, never below the
	 * kernel's count (which starts inside the enable), with no read().
	 */
	step = "enable";
	tsc = rte_rdtsc_precise();
	ret = pmu_fd_enable_group(res->fds[0]);
	if (ret != 0) {
		PMU_LOG(ERR, "lcore %u: enabling the group: %s", op->lcore_id, strerror(-ret));
		goto fail;
	}
	for (i = 0; i < op->num_events; i++)
		op->tsc_base[i] = (op->tsc_events & (UINT32_C(1) << i)) != 0 ? tsc : 0;

	return 0;

fail:
	/* op names the event whose open or mapping failed, or the step. */
	rte_pmu_trace_error(op->lcore_id, step, ret);
	return ret;
}

int
pmu_group_read(int group_fd, unsigned int num_events, uint64_t *values, unsigned int n,
	uint64_t *enabled, uint64_t *running)
{
	struct pmu_read_values rv;
	unsigned int i;
	int ret;

	if (group_fd < 0 || num_events == 0)
		return -ENODEV;
	ret = pmu_fd_read(group_fd, PMU_FD_GROUP_FORMAT, &rv);
	if (ret != 0)
		return ret;
	/* The reader's own value comes last: never one of the events. */
	if (n > num_events)
		n = num_events;
	if (n > rv.nr)
		n = rv.nr;
	for (i = 0; i < n; i++)
		values[i] = __rte_pmu_scale(rv.value[i], rv.time_enabled, rv.time_running);
	if (enabled != NULL)
		*enabled = rv.time_enabled;
	if (running != NULL)
		*running = rv.time_running;

	return (int)n;
}
