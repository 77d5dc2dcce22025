/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The state container and the control path: init, fini, add_event. */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "pmu_private.h"

RTE_LOG_REGISTER_DEFAULT(pmu_logtype, INFO);

struct rte_pmu_event_group rte_pmu_event_groups[RTE_MAX_LCORE];

struct pmu_state pmu = {
	.lock = RTE_SPINLOCK_INITIALIZER,
};

static const struct pmu_arch_ops *arch_ops;

void
pmu_arch_register(const struct pmu_arch_ops *ops)
{
	arch_ops = ops;
}

int
pmu_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd)
{
	int fd;

	fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;

	return fd;
}

static int
paranoid_level(void)
{
	char buf[16];
	ssize_t n;
	int fd;

	fd = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return INT32_MIN;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return INT32_MIN;
	buf[n] = '\0';

	return atoi(buf);
}

void
pmu_log_open_error(const char *name, int err)
{
	int level;

	switch (err) {
	case -EACCES:
	case -EPERM:
		level = paranoid_level();
		PMU_LOG(ERR, "event %s: permission denied (kernel.perf_event_paranoid = %d); "
			"run as root, grant CAP_PERFMON, or set kernel.perf_event_paranoid "
			"to 2 or lower", name, level);
		break;
	case -ENOENT:
		PMU_LOG(ERR, "event %s: not supported by this machine's kernel or PMU "
			"(perf_event_open: %s)", name, strerror(-err));
		break;
	case -EOPNOTSUPP:
		PMU_LOG(ERR, "event %s: the PMU cannot count it as asked "
			"(perf_event_open: %s)", name, strerror(-err));
		break;
	default:
		PMU_LOG(ERR, "event %s: perf_event_open failed: %s", name, strerror(-err));
		break;
	}
}

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

static bool
sysfs_has_pmus(void)
{
	struct dirent *de;
	bool found = false;
	DIR *dir;

	dir = opendir(pmu_sysfs_root());
	if (dir == NULL)
		return false;
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] != '.') {
			found = true;
			break;
		}
	}
	closedir(dir);

	return found;
}

int
rte_pmu_init(void)
{
	static unsigned int no_core_logged;
	unsigned int i;

	rte_spinlock_lock(&pmu.lock);
	if (pmu.initialized) {
		rte_spinlock_unlock(&pmu.lock);
		return 0;
	}

	if (!sysfs_has_pmus()) {
		rte_spinlock_unlock(&pmu.lock);
		PMU_LOG(ERR, "no PMU under %s: kernel without perf_event?", pmu_sysfs_root());
		return -ENODEV;
	}

	pmu.ops = arch_ops;
	pmu.core_pmu[0] = '\0';
	if (pmu.ops != NULL && pmu.ops->core_pmu(pmu.core_pmu, sizeof(pmu.core_pmu)) != 0) {
		pmu.core_pmu[0] = '\0';
		rte_log(no_core_logged++ == 0 ? RTE_LOG_WARNING : RTE_LOG_DEBUG, pmu_logtype,
			"PMU: no core PMU under %s: hardware events unavailable, "
			"software and pmu/event/ events still work\n", pmu_sysfs_root());
	}
	if (pmu.ops == NULL)
		PMU_LOG(WARNING, "no backend for this architecture: counters are read with read()");
	else if (pmu.core_pmu[0] != '\0')
		pmu.ops->init(pmu.core_pmu);

	for (i = 0; i < RTE_MAX_LCORE; i++) {
		memset(pmu.lcores[i].fds, -1, sizeof(pmu.lcores[i].fds));
		pmu.lcores[i].status = 0;
		pmu.lcores[i].slow_reads = 0;
	}
	pmu.num_events = 0;
	pmu.num_open = 0;
	pmu.initialized = true;
	rte_spinlock_unlock(&pmu.lock);

	if (lcore_cb == NULL)
		PMU_LOG(WARNING, "cannot watch lcore release: unregister threads only after "
			"rte_pmu_fini()");

	PMU_LOG(DEBUG, "initialised, core PMU '%s', backend %s", pmu.core_pmu,
		pmu.ops != NULL ? pmu.ops->name : "none");

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
	for (i = 0; i < RTE_MAX_LCORE; i++)
		pmu_group_close(i);
	for (i = 0; i < pmu.num_events; i++) {
		free(pmu.events[i].name);
		pmu.events[i].name = NULL;
	}
	pmu.num_events = 0;
	pmu.num_open = 0;
	pmu.initialized = false;
	rte_spinlock_unlock(&pmu.lock);
}

/* Open the event alone on the calling thread, to report problems at add
 * time and settle the attributes every lcore will use: exclusion a PMU
 * cannot do is dropped, and the backend may adjust what the PMU refuses.
 */
static int
event_probe(const char *name, struct pmu_event_desc *desc)
{
	struct perf_event_attr attr;
	int fd;

	for (;;) {
		attr = desc->attr;
		attr.disabled = 1;
		fd = pmu_perf_event_open(&attr, 0, -1, -1);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (fd == -EINVAL && (desc->attr.exclude_kernel || desc->attr.exclude_hv)) {
			PMU_LOG(INFO, "event %s: PMU '%s' cannot exclude kernel space; "
				"counting user and kernel", name,
				desc->pmu[0] != '\0' ? desc->pmu : "generic");
			desc->attr.exclude_kernel = 0;
			desc->attr.exclude_hv = 0;
			continue;
		}
		if (desc->core && pmu.ops != NULL && pmu.ops->attr_retry != NULL &&
				pmu.ops->attr_retry(pmu.core_pmu, desc, fd))
			continue;

		pmu_log_open_error(name, fd);
		if (fd == -EPERM)
			return -EACCES;
		return fd;
	}
}

int
rte_pmu_add_event(const char *name)
{
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
	if (pmu.num_open != 0) {
		ret = -EBUSY;
		PMU_LOG(ERR, "add event %s: %u lcore(s) already opened their group; "
			"add every event before the first rte_pmu_read()", name, pmu.num_open);
		goto out;
	}
	if (pmu.num_events == RTE_MAX_NUM_GROUP_EVENTS) {
		ret = -ENOSPC;
		PMU_LOG(ERR, "add event %s: group is full (%d events)", name,
			RTE_MAX_NUM_GROUP_EVENTS);
		goto out;
	}

	ret = pmu_event_encode(name, pmu.core_pmu, &desc);
	if (ret != 0)
		goto out;
	/* User space only, except software events: the kernel counts
	 * context switches and migrations in its own context.
	 */
	if (desc.attr.type != PERF_TYPE_SOFTWARE) {
		desc.attr.exclude_kernel = 1;
		desc.attr.exclude_hv = 1;
	}
	if (desc.core && pmu.ops != NULL && pmu.ops->attr_fixup != NULL)
		pmu.ops->attr_fixup(pmu.core_pmu, &desc);

	ret = event_probe(name, &desc);
	if (ret != 0)
		goto out;

	ev = &pmu.events[pmu.num_events];
	ev->name = strdup(name);
	if (ev->name == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	ev->desc = desc;
	ret = pmu.num_events++;
	PMU_LOG(DEBUG, "event %s: index %d type %u config 0x%" PRIx64 " config1 0x%" PRIx64,
		name, ret, desc.attr.type, (uint64_t)desc.attr.config,
		(uint64_t)desc.attr.config1);
out:
	rte_spinlock_unlock(&pmu.lock);
	return ret;
}
