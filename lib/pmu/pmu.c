/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The state container and the control path: init, fini, add_event. */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "pmu_private.h"
#include "rte_pmu_trace.h"

RTE_LOG_REGISTER_DEFAULT(pmu_logtype, INFO);

RTE_DEFINE_PER_LCORE(unsigned int, pmu_log_quiet);

struct rte_pmu_event_group rte_pmu_event_groups[RTE_MAX_LCORE] = {
	[0 ... RTE_MAX_LCORE - 1] = { .mmap_pages = PMU_PAGES_NONE },
};

struct pmu_state pmu = {
	.lock = RTE_SPINLOCK_INITIALIZER,
};

/* Uninit callback of an lcore, registered for the life of the library: a
 * registered thread that unregisters gives its lcore id back, in its own
 * context. Its fast-path pointer and its group must not outlive the id.
 */
static void
pmu_lcore_release(unsigned int lcore_id, void *arg __rte_unused)
{
	if (lcore_id >= RTE_MAX_LCORE)
		return;
	if (lcore_id == rte_lcore_id())
		RTE_PER_LCORE(_pmu_group) = &pmu_no_group;

	rte_spinlock_lock(&pmu.lock);
	if (pmu.initialized)
		pmu_group_close(lcore_id);
	rte_spinlock_unlock(&pmu.lock);
}

static void *lcore_cb;

RTE_INIT(pmu_lcore_watch)
{
	lcore_cb = rte_lcore_callback_register("pmu", NULL, pmu_lcore_release, NULL);
}

RTE_FINI(pmu_lcore_unwatch)
{
	if (lcore_cb != NULL)
		rte_lcore_callback_unregister(lcore_cb);
	lcore_cb = NULL;
}

/* The errno rte_pmu_init() and rte_pmu_add_event() return for a failed
 * sysfs access or encoding step: each of the header's codes, -EIO else.
 */
static int
sysfs_errno(int err)
{
	switch (err) {
	case -ENOENT:
	case -EINVAL:
	case -EOPNOTSUPP:
	case -EACCES:
	case -EMFILE:
	case -ENOMEM:
		return err;
	case -EPERM:
		return -EACCES;
	case -ENFILE:
		return -EMFILE;
	case -EINTR:
	case -EAGAIN:
		return -EAGAIN;
	default:
		return -EIO;
	}
}

/* 0 when the sysfs root lists a PMU; else the API's errno, logged. */
static int
sysfs_has_pmus(void)
{
	struct dirent *de;
	bool found = false;
	DIR *dir;
	int err;

	dir = opendir(pmu_sysfs_root());
	if (dir == NULL) {
		err = errno;
		if (err == ENOENT || err == ENOTDIR) {
			PMU_LOG(ERR, "no %s: kernel without perf_event?", pmu_sysfs_root());
			return -ENODEV;
		}
		PMU_LOG(ERR, "cannot open %s: %s", pmu_sysfs_root(), strerror(err));
		return sysfs_errno(-err);
	}
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] != '.') {
			found = true;
			break;
		}
	}
	closedir(dir);
	if (!found) {
		PMU_LOG(ERR, "no PMU under %s: kernel without perf_event?", pmu_sysfs_root());
		return -ENODEV;
	}

	return 0;
}

int
rte_pmu_init(void)
{
	static unsigned int no_core_logged;
	unsigned int i;
	int ret;

	rte_spinlock_lock(&pmu.lock);
	if (pmu.initialized) {
		rte_spinlock_unlock(&pmu.lock);
		return 0;
	}

	pmu_group_unmap_stale();
	ret = sysfs_has_pmus();
	if (ret != 0) {
		rte_spinlock_unlock(&pmu.lock);
		rte_pmu_trace_init(ret);
		return ret;
	}

	pmu.core_pmu[0] = '\0';
	if (pmu_arch_present() && pmu_arch_core_pmu(pmu.core_pmu, sizeof(pmu.core_pmu)) != 0) {
		pmu.core_pmu[0] = '\0';
		PMU_LOG_AT(no_core_logged++ == 0 ? RTE_LOG_WARNING : RTE_LOG_DEBUG,
			"no core PMU under %s: hardware events unavailable, "
			"software and pmu/event/ events still work", pmu_sysfs_root());
	}
	if (!pmu_arch_present())
		PMU_LOG(WARNING, "no backend for this architecture: counters are read with read()");
	else if (pmu.core_pmu[0] != '\0')
		pmu_arch_init(pmu.core_pmu);

	for (i = 0; i < RTE_MAX_LCORE; i++) {
		memset(pmu.lcores[i].fds, -1, sizeof(pmu.lcores[i].fds));
		memset(rte_pmu_event_groups[i].fds, -1, sizeof(rte_pmu_event_groups[i].fds));
		pmu.lcores[i].group_fd = -1;
		/* Read without the lock by each lcore's read path. */
		__atomic_store_n(&pmu.lcores[i].status, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&rte_pmu_event_groups[i].slow_reads, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&pmu.lcores[i].read_errors, 0, __ATOMIC_RELAXED);
		pmu.lcores[i].read_error_logged = false;
		pmu.lcores[i].open_failures = 0;
	}
	pmu.num_events = 0;
	pmu.num_open = 0;
	pmu.no_event_logged = false;
	pmu.initialized = true;
	rte_spinlock_unlock(&pmu.lock);

	if (lcore_cb == NULL)
		PMU_LOG(WARNING, "cannot watch lcore release: unregister threads only after "
			"rte_pmu_fini()");

	PMU_LOG(DEBUG, "initialised, core PMU '%s', backend %s", pmu.core_pmu,
		pmu_arch_name());
	rte_pmu_trace_init(0);

	return 0;
}

void
rte_pmu_fini(void)
{
	unsigned int i;

	rte_spinlock_lock(&pmu.lock);
	if (!pmu.initialized) {
		rte_spinlock_unlock(&pmu.lock);
		return;
	}
	/* Pages kept by an earlier fini first: this one's stay for the next. */
	pmu_group_unmap_stale();
	for (i = 0; i < RTE_MAX_LCORE; i++)
		pmu_group_close(i);
	for (i = 0; i < pmu.num_events; i++) {
		free(pmu.events[i].name);
		pmu.events[i].name = NULL;
	}
	pmu.num_events = 0;
	pmu.num_open = 0;
	pmu.num_opening = 0;
	pmu.generation++;
	pmu.initialized = false;
	rte_spinlock_unlock(&pmu.lock);
	rte_pmu_trace_fini();
}

int
rte_pmu_add_event(const char *name)
{
	char core[PMU_NAME_MAX];
	struct pmu_event_desc desc;
	struct pmu_event *ev;
	unsigned int i;
	int ret;

	if (name == NULL) {
		PMU_LOG(ERR, "event name is NULL");
		return -EINVAL;
	}

	rte_spinlock_lock(&pmu.lock);
	if (!pmu.initialized) {
		ret = -ENODEV;
		PMU_LOG(ERR, "add event %s: rte_pmu_init() not called", name);
		goto out;
	}
	for (i = 0; i < pmu.num_events; i++) {
		if (strcmp(pmu.events[i].name, name) == 0) {
			ret = i;
			goto out;
		}
	}
	if (pmu.num_open + pmu.num_opening != 0) {
		ret = -EBUSY;
		PMU_LOG(ERR, "add event %s: %u lcore(s) already opened their group; "
			"add every event before the first rte_pmu_read()", name,
			pmu.num_open + pmu.num_opening);
		goto out;
	}
	if (pmu.num_events == RTE_MAX_NUM_GROUP_EVENTS) {
		ret = -ENOSPC;
		PMU_LOG(ERR, "add event %s: group is full (%d events)", name,
			RTE_MAX_NUM_GROUP_EVENTS);
		goto out;
	}

	/* Encoded for the core type of the calling thread's CPUs (hybrid
	 * machines), with the privilege levels of the name or of its type.
	 */
	pmu_core_pmu_of_thread(pmu.core_pmu, core);
	ret = pmu_event_encode_any(name, core, &desc);
	if (ret != 0) {
		ret = sysfs_errno(ret);
		goto out;
	}
	if (desc.core)
		pmu_arch_attr_fixup(desc.core_pmu, &desc);

	ret = pmu_fd_probe(name, desc.core_pmu, &desc);
	if (ret != 0)
		goto out;

	ev = &pmu.events[pmu.num_events];
	ev->name = strdup(name);
	if (ev->name == NULL) {
		ret = -ENOMEM;
		PMU_LOG(ERR, "add event %s: out of memory", name);
		goto out;
	}
	ev->desc = desc;
	ret = pmu.num_events++;
	PMU_LOG(DEBUG, "event %s: index %d type %u config 0x%" PRIx64 " config1 0x%" PRIx64,
		name, ret, desc.attr.type, (uint64_t)desc.attr.config,
		(uint64_t)desc.attr.config1);
out:
	rte_spinlock_unlock(&pmu.lock);
	rte_pmu_trace_event_add(name, ret);
	return ret;
}
