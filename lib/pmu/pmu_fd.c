/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* perf_event file descriptors: open, probe, read, map, enable, close. The
 * only file that makes these system calls; none is made with the library's
 * lock held.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>

#include <rte_common.h>
#include <rte_debug.h>

#include "pmu_driver.h"
#include "pmu_event.h"
#include "pmu_fd.h"
#include "pmu_log.h"
#include "pmu_retry.h"
#include "pmu_state.h"
#include "rte_pmu.h"

/* munmap() failed on these pages: kept, and tried again later. Slots are
 * taken and given back with atomic exchanges: no lock is needed.
 */
#define STALE_PAGES 16
static struct perf_event_mmap_page *stale_pages[STALE_PAGES];

/* Lcores open their groups at once: each may store the same value. */
static size_t
page_size(void)
{
	static size_t size;
	size_t n = __atomic_load_n(&size, __ATOMIC_RELAXED);

	if (n == 0) {
		n = (size_t)sysconf(_SC_PAGESIZE);
		__atomic_store_n(&size, n, __ATOMIC_RELAXED);
	}

	return n;
}

int
pmu_fd_open(struct perf_event_attr *attr, int group_fd)
{
	int fd;

	PMU_RETRY(fd = syscall(SYS_perf_event_open, attr, 0, -1, group_fd,
		PERF_FLAG_FD_CLOEXEC), fd < 0);
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

/* Root, CAP_PERFMON or CAP_SYS_ADMIN: what lifts perf_event_paranoid. */
static bool
privileged(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	uint64_t eff;

	if (geteuid() == 0)
		return true;
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) != 0)
		return false;
	eff = (uint64_t)data[1].effective << 32 | data[0].effective;
#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
	return (eff & (UINT64_C(1) << CAP_PERFMON)) != 0 ||
		(eff & (UINT64_C(1) << CAP_SYS_ADMIN)) != 0;
}

/* Why permission was denied, and what would change it. */
static void
log_permission(const char *name)
{
	int level = paranoid_level();

	if (privileged())
		PMU_LOG(ERR, "event %s: permission denied to a privileged process "
			"(kernel.perf_event_paranoid = %d does not apply): a security policy "
			"(SELinux, AppArmor, seccomp, lockdown, a container profile) refuses "
			"perf_event_open", name, level);
	else if (level > 2 || level == INT32_MIN)
		PMU_LOG(ERR, "event %s: permission denied (kernel.perf_event_paranoid = %d); "
			"set it to 2 or lower, grant CAP_PERFMON, or run as root", name, level);
	else
		PMU_LOG(ERR, "event %s: permission denied (kernel.perf_event_paranoid = %d "
			"allows user-space self-monitoring only): the event needs more; grant "
			"CAP_PERFMON, run as root, or lower the setting", name, level);
}

static void
log_open_error(const char *name, int err)
{
	name = pmu_name_printable(name);
	switch (err) {
	case -EACCES:
	case -EPERM:
		log_permission(name);
		break;
	case -ENOENT:
		PMU_LOG(ERR, "event %s: not supported by this machine's kernel or PMU "
			"(perf_event_open: %s)", name, strerror(-err));
		break;
	case -EOPNOTSUPP:
		PMU_LOG(ERR, "event %s: the PMU cannot count it as asked "
			"(perf_event_open: %s)", name, strerror(-err));
		break;
	case -EMFILE:
	case -ENFILE:
		PMU_LOG(ERR, "event %s: out of file descriptors (perf_event_open: %s)", name,
			strerror(-err));
		break;
	default:
		PMU_LOG(ERR, "event %s: perf_event_open failed: %s", name, strerror(-err));
		break;
	}
}

/* The API's errno for a failed perf_event_open(). */
static int
open_errno(int err)
{
	/* Every event opened was encoded from a known name: ENOENT (the kernel
	 * or PMU has no such event), E2BIG (attr newer than the kernel),
	 * ENODEV, EINVAL, ENOSPC... all mean that this machine cannot count it.
	 */
	return pmu_errno(err, -EOPNOTSUPP);
}


/* A clock event (task-clock, cpu-clock): the kernel counts it in user and
 * kernel space alike, whatever it excludes (that applies to its samples).
 */
static bool
clock_event(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE && (attr->config == PERF_COUNT_SW_CPU_CLOCK ||
		attr->config == PERF_COUNT_SW_TASK_CLOCK);
}

int
pmu_fd_probe(const char *name, const char *core_pmu, struct pmu_event_desc *desc)
{
	struct perf_event_attr attr;
	bool user_only = false;
	int fd;

	for (;;) {
		attr = desc->attr;
		attr.disabled = 1;
		fd = pmu_fd_open(&attr, -1);
		if (fd >= 0) {
			close(fd);
			if ((user_only || desc->levels_given) && clock_event(&desc->attr) &&
					(desc->attr.exclude_user || desc->attr.exclude_kernel))
				PMU_LOG(WARNING, "event %s: a clock event: the kernel counts it in "
					"user and kernel space alike, whatever %s", pmu_name_printable(name),
					user_only ? "kernel.perf_event_paranoid allows" : "its modifier");
			else if (user_only && desc->attr.exclude_kernel)
				PMU_LOG(WARNING, "event %s: kernel.perf_event_paranoid = %d allows "
					"user space only: counting user space (add :u to ask for it)",
					pmu_name_printable(name), paranoid_level());
			return 0;
		}
		/* A software event counts the kernel's part by default; refused
		 * that (an unprivileged process, paranoid 2), it counts user space,
		 * as perf stat falls back to. Levels asked for are kept. Not the
		 * events that happen in the kernel's context only, which would
		 * read 0 there (context, cgroup switches, migrations): refused.
		 */
		if ((fd == -EACCES || fd == -EPERM) && desc->attr.type == PERF_TYPE_SOFTWARE &&
				desc->attr.config != PERF_COUNT_SW_CONTEXT_SWITCHES &&
				desc->attr.config != PERF_COUNT_SW_CPU_MIGRATIONS &&
				desc->attr.config != PERF_COUNT_SW_CGROUP_SWITCHES &&
				!desc->levels_given && !user_only && !desc->attr.exclude_kernel) {
			desc->attr.exclude_kernel = 1;
			desc->attr.exclude_hv = 1;
			user_only = true;
			continue;
		}
		if (fd == -EINVAL && (desc->attr.exclude_user || desc->attr.exclude_kernel ||
				desc->attr.exclude_hv)) {
			/* Louder when the name's modifiers asked for the levels. */
			PMU_LOG_AT(desc->levels_given ? RTE_LOG_WARNING : RTE_LOG_INFO,
				"event %s: PMU '%s' cannot %s; counting user and kernel",
				pmu_name_printable(name), desc->pmu[0] != '\0' ? desc->pmu : "generic",
				desc->attr.exclude_user == desc->attr.exclude_kernel ?
				"leave out the hypervisor" : desc->attr.exclude_user ?
				"count kernel space alone" : "count user space alone");
			desc->attr.exclude_user = 0;
			desc->attr.exclude_kernel = 0;
			desc->attr.exclude_hv = 0;
			continue;
		}
		if (desc->core && pmu_arch_attr_retry(core_pmu, desc, fd))
			continue;

		log_open_error(name, fd);
		return open_errno(fd);
	}
}

int
pmu_fd_read_path(const struct pmu_event_desc *desc, enum rte_pmu_read_path *path)
{
	struct perf_event_mmap_page *page;
	struct perf_event_attr attr = desc->attr;
	uint64_t value;
	int fd;

	fd = pmu_fd_open(&attr, -1);
	if (fd < 0)
		return open_errno(fd);
	*path = RTE_PMU_PATH_SYSCALL;
	if (pmu_fd_map(fd, &page) == 0) {
		if (__rte_pmu_page_read(page, true, &value) == 0)
			*path = RTE_PMU_PATH_USER;
		pmu_fd_unmap(page);
	}
	pmu_fd_close(&fd);

	return 0;
}

int
pmu_fd_group_open(const char *name, const struct pmu_event_desc *desc, int leader_fd)
{
	struct perf_event_attr attr = desc->attr;
	int fd;

	attr.read_format = PMU_FD_READ_FORMAT;
	/* The leader starts disabled; members follow it. */
	attr.disabled = leader_fd < 0;

	fd = pmu_fd_open(&attr, leader_fd);
	if (fd < 0) {
		log_open_error(name, fd);
		return open_errno(fd);
	}

	return fd;
}

int
pmu_fd_group_reader_open(int leader_fd)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.read_format = PMU_FD_GROUP_FORMAT;
	/* It counts nothing: user space only opens at any paranoid level
	 * that lets the process count itself (2 and below).
	 */
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;

	fd = pmu_fd_open(&attr, leader_fd);
	if (fd < 0) {
		log_open_error("group reader (software dummy)", fd);
		return open_errno(fd);
	}

	return fd;
}

int
pmu_fd_map(int fd, struct perf_event_mmap_page **page)
{
	void *p;

	PMU_RETRY(p = mmap(NULL, page_size(), PROT_READ, MAP_SHARED, fd, 0),
		p == MAP_FAILED);
	if (p == MAP_FAILED)
		return pmu_errno(-errno, -EIO);
	*page = p;

	return 0;
}

/* Keep @p page for a later munmap(); false when every slot is taken. */
static bool
stale_keep(struct perf_event_mmap_page *page)
{
	struct perf_event_mmap_page *none;
	unsigned int i;

	for (i = 0; i < STALE_PAGES; i++) {
		none = NULL;
		if (__atomic_compare_exchange_n(&stale_pages[i], &none, page, false,
				__ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			return true;
	}
	return false;
}

int
pmu_fd_unmap(struct perf_event_mmap_page *page)
{
	int err;

	if (page == NULL || page == &pmu_page_none)
		return 0;
	if (munmap(page, page_size()) == 0)
		return 0;
	err = errno;
	if (stale_keep(page))
		PMU_LOG(ERR, "munmap of user page %p: %s; kept, tried again at the next "
			"rte_pmu_init() or rte_pmu_fini()", (void *)page, strerror(err));
	else
		PMU_LOG(ERR, "munmap of user page %p: %s; %d pages already kept, this one "
			"is lost", (void *)page, strerror(err), STALE_PAGES);

	return -err;
}

void
pmu_fd_unmap_stale(void)
{
	struct perf_event_mmap_page *page;
	unsigned int i;

	for (i = 0; i < STALE_PAGES; i++) {
		page = __atomic_exchange_n(&stale_pages[i], NULL, __ATOMIC_ACQ_REL);
		if (page == NULL)
			continue;
		if (munmap(page, page_size()) == 0)
			continue;
		PMU_LOG(ERR, "munmap of user page %p failed again: %s", (void *)page,
			strerror(errno));
		if (!stale_keep(page))
			PMU_LOG(ERR, "user page %p is lost", (void *)page);
	}
}

int
pmu_fd_enable_group(int leader_fd)
{
	int ret;

	PMU_RETRY(ret = ioctl(leader_fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP),
		ret != 0);
	if (ret != 0)
		return pmu_errno(-errno, -EIO);

	return 0;
}

void
pmu_fd_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

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

	out->nr = 0;
	out->time_enabled = 0;
	out->time_running = 0;
	if (len == 0)
		return -ENODATA;
	if (group && !take(w, nw, &pos, &nr))
		return -EINVAL;
	if (nr > PMU_READ_VALUES_MAX)
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
		out->id[i] = 0;
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

/* Any read format: read() into a buffer, then the general decoder. */
static __rte_noinline int
read_any(int fd, uint64_t read_format, struct pmu_read_values *out)
{
	/* Room for every value with its id and lost count, and the header. */
	uint64_t buf[3 + 3 * PMU_READ_VALUES_MAX];
	ssize_t n;

	PMU_RETRY(n = read(fd, buf, sizeof(buf)), n < 0);
	if (unlikely(n < 0)) {
		out->nr = 0;
		return -errno;
	}

	/* 0 bytes: a pinned group the kernel could not schedule. */
	return pmu_read_parse(buf, (size_t)n, read_format, out);
}

/* An event's own read that did not give its 24 bytes at once: a transient
 * failure tried again (pmu_retry()), the rest an error. Out of line, so that
 * the common read stays short.
 */
static __rte_noinline int
read_event_again(int fd, struct pmu_read_values *out, ssize_t n)
{
	unsigned int retries = 0;

	while (n < 0 && pmu_retry(&retries))
		n = read(fd, out, 3 * sizeof(uint64_t));
	if (n == 3 * sizeof(uint64_t)) {
		out->value[0] = out->value0;
		out->nr = 1;
		return 0;
	}
	out->nr = 0;

	/* 0 bytes: a pinned group the kernel could not schedule. */
	return n < 0 ? -errno : -ENODATA;
}

int
pmu_fd_read(int fd, uint64_t read_format, struct pmu_read_values *out)
{
	ssize_t n;

	/* An event's own read (the datapath's fallback): its layout is the
	 * head of struct pmu_read_values, so read() fills it in place.
	 */
	RTE_BUILD_BUG_ON(offsetof(struct pmu_read_values, time_enabled) != sizeof(uint64_t));
	RTE_BUILD_BUG_ON(offsetof(struct pmu_read_values, time_running) != 2 * sizeof(uint64_t));
	if (unlikely(read_format != PMU_FD_READ_FORMAT))
		return read_any(fd, read_format, out);

	n = read(fd, out, 3 * sizeof(uint64_t));
	if (unlikely(n != 3 * sizeof(uint64_t)))
		return read_event_again(fd, out, n);
	out->value[0] = out->value0;
	out->nr = 1;

	return 0;
}
