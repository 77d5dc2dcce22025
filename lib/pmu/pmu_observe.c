/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* An lcore's counters seen from another thread: copy its state under the
 * library's lock, duplicate its group reader's fd there, and read the group
 * with one read() after the lock is released, so that the lcore's fast path
 * and its lazy open never wait on a system call made here.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* cpu_set_t, for rte_lcore_cpuset() */
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_string_fns.h>

#include "pmu_private.h"
#include "pmu_observe.h"

/* Next 64-bit word of a read() buffer, if there is one. */
static bool
take(const uint64_t *w, size_t nw, size_t *pos, uint64_t *v)
{
	if (*pos >= nw)
		return false;
	*v = w[(*pos)++];

	return true;
}

int
pmu_read_parse(const void *buf, size_t len, uint64_t fmt, struct pmu_read_values *out)
{
	const bool group = (fmt & PERF_FORMAT_GROUP) != 0;
	const uint64_t *w = buf;
	size_t nw = len / sizeof(uint64_t);
	size_t pos = 0;
	uint64_t nr = 1, lost, i;
	bool ok = true;

	memset(out, 0, sizeof(*out));
	if (len == 0)
		return -ENODATA;
	if (group && !take(w, nw, &pos, &nr))
		return -EINVAL;
	if (nr > RTE_MAX_NUM_GROUP_EVENTS)
		return -EINVAL;
	/* A group read has the times first; a single event after its value. */
	if (!group)
		ok = take(w, nw, &pos, &out->value[0]);
	if (ok && (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) != 0)
		ok = take(w, nw, &pos, &out->time_enabled);
	if (ok && (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) != 0)
		ok = take(w, nw, &pos, &out->time_running);
	for (i = 0; ok && i < nr; i++) {
		if (group)
			ok = take(w, nw, &pos, &out->value[i]);
		if (ok && (fmt & PERF_FORMAT_ID) != 0)
			ok = take(w, nw, &pos, &out->id[i]);
		if (ok && (fmt & PERF_FORMAT_LOST) != 0)
			ok = take(w, nw, &pos, &lost);
	}
	if (!ok)
		return -EINVAL;
	out->nr = nr;

	return 0;
}

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

/* Path of the lcore's next read, from its page (no counter value is taken
 * from it). Lock held: the page cannot be unmapped meanwhile.
 */
static enum rte_pmu_read_path
page_path(const struct perf_event_mmap_page *pc)
{
	uint32_t index = __RTE_PMU_LOAD(pc->index);
	uint64_t caps = __RTE_PMU_LOAD(pc->capabilities);

	if (__RTE_PMU_HAVE_USER_READ && index != 0 && (caps & __RTE_PMU_CAP_USER_RDPMC) != 0)
		return RTE_PMU_PATH_USER;

	return RTE_PMU_PATH_SYSCALL;
}

/* Event index of the j-th value of the read of fds[f]. */
static int
value_event(const struct pmu_read_values *rv, unsigned int j, unsigned int f, uint64_t fmt,
	const uint64_t *ids, unsigned int num_events)
{
	unsigned int k;

	if ((fmt & PERF_FORMAT_ID) == 0)
		return (fmt & PERF_FORMAT_GROUP) != 0 ? (int)j : (int)f;
	for (k = 0; k < num_events; k++)
		if (ids[k] == rv->id[j])
			return k;

	return -1;
}

int
pmu_snapshot_read(const int *fds, unsigned int nfd, uint64_t fmt, const uint64_t *ids,
	struct pmu_snapshot *snap)
{
	uint64_t buf[3 + 3 * RTE_MAX_NUM_GROUP_EVENTS];
	struct pmu_read_values rv;
	unsigned int f, j, seen = 0;
	ssize_t n;
	int k, ret;

	for (f = 0; f < nfd; f++) {
		n = read(fds[f], buf, sizeof(buf));
		if (n < 0)
			return -errno;
		ret = pmu_read_parse(buf, (size_t)n, fmt, &rv);
		if (ret != 0)
			return ret;
		if (f == 0) {
			snap->time_enabled = rv.time_enabled;
			snap->time_running = rv.time_running;
		}
		for (j = 0; j < rv.nr; j++) {
			k = value_event(&rv, j, f, fmt, ids, snap->num_events);
			if (k < 0 || (unsigned int)k >= snap->num_events)
				continue;
			snap->raw[k] = rv.value[j];
			snap->scaled[k] = __rte_pmu_scale(rv.value[j], rv.time_enabled,
				rv.time_running);
			seen |= 1U << k;
		}
	}
	if (seen != (1U << snap->num_events) - 1)
		return -ENOENT;
	snap->multiplexed = snap->time_enabled != snap->time_running;

	return 0;
}

int
pmu_lcore_snapshot(unsigned int lcore_id, bool values, struct pmu_snapshot *snap)
{
	const uint64_t fmt = PMU_FD_GROUP_FORMAT;
	int fds[1];
	struct pmu_lcore *lc;
	unsigned int i, nfd = 0;
	bool exists;

	memset(snap, 0, sizeof(*snap));
	snap->lcore_id = lcore_id;
	if (lcore_id >= RTE_MAX_LCORE)
		return -EINVAL;
	exists = lcore_exists(lcore_id);
	cpuset_format(lcore_id, snap->cpu, sizeof(snap->cpu));

	rte_spinlock_lock(&pmu.lock);
	if (!pmu.initialized) {
		rte_spinlock_unlock(&pmu.lock);
		return -ENODEV;
	}
	lc = &pmu.lcores[lcore_id];
	if (lc->status == 0 && !exists) {
		rte_spinlock_unlock(&pmu.lock);
		return -EINVAL;
	}
	snap->status = lc->status;
	snap->slow_reads = __atomic_load_n(&rte_pmu_event_groups[lcore_id].slow_reads,
		__ATOMIC_RELAXED);
	snap->read_errors = __atomic_load_n(&lc->read_errors, __ATOMIC_RELAXED);
	snap->num_events = pmu.num_events;
	for (i = 0; i < pmu.num_events; i++) {
		strlcpy(snap->names[i], pmu.events[i].name, sizeof(snap->names[i]));
		snap->path[i] = RTE_PMU_PATH_NONE;
	}
	if (snap->status > 0) {
		for (i = 0; i < pmu.num_events; i++) {
			const struct perf_event_mmap_page *pc =
				rte_pmu_event_groups[lcore_id].mmap_pages[i];

			snap->path[i] = pc != NULL && pc != &pmu_page_none ?
				page_path(pc) : RTE_PMU_PATH_SYSCALL;
		}
		/* The group's reader gives every event's value, in index
		 * order, with one read().
		 */
		if (values) {
			fds[0] = fcntl(lc->group_fd, F_DUPFD_CLOEXEC, 0);
			if (fds[0] < 0)
				snap->read_error = -errno;
			else
				nfd = 1;
		}
	}
	rte_spinlock_unlock(&pmu.lock);

	if (values && snap->status > 0 && snap->read_error == 0)
		snap->read_error = pmu_snapshot_read(fds, nfd, fmt, NULL, snap);
	for (i = 0; i < nfd; i++)
		close(fds[i]);
	snap->have_values = values && snap->status > 0 && snap->read_error == 0;
	if (snap->status > 0 && snap->read_error != 0)
		PMU_LOG(DEBUG, "lcore %u: reading its group from another thread: %s",
			lcore_id, strerror(-snap->read_error));

	return 0;
}
