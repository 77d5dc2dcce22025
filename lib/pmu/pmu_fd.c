/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* perf_event file descriptors: open, probe, read, map, enable, close. */

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

#include "pmu_private.h"

/* Layout of read() with PMU_FD_READ_FORMAT. */
struct event_read {
	uint64_t value;
	uint64_t time_enabled;
	uint64_t time_running;
};

/* Layout of read() with PMU_FD_GROUP_FORMAT: the events and the reader. */
struct group_read {
	uint64_t nr;
	uint64_t time_enabled;
	uint64_t time_running;
	uint64_t values[RTE_MAX_NUM_GROUP_EVENTS + 1];
};

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


/* EINTR: a signal came; EAGAIN, EBUSY: the kernel or the PMU is busy now. */
static bool
transient(int err)
{
	return err == EINTR || err == EAGAIN || err == EBUSY;
}

/* The errno the API returns for @p err (negative) of a perf system call:
 * each of the header's codes, and @p other for what none of them names.
 */
static int
errno_map(int err, int other)
{
	switch (err) {
	case -EMFILE:
	case -ENFILE:
		return -EMFILE;
	case -ENOMEM:
		return -ENOMEM;
	case -EACCES:
	case -EPERM:
		return -EACCES;
	case -EINTR:
	case -EAGAIN:
	case -EBUSY:
		return -EAGAIN;
	default:
		return other;
	}
}

int
pmu_fd_open(struct perf_event_attr *attr, int group_fd)
{
	unsigned int tries = 0;
	int fd;

	do {
		fd = syscall(SYS_perf_event_open, attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
	} while (fd < 0 && transient(errno) && ++tries < PMU_FD_TRIES);
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
	return errno_map(err, -EOPNOTSUPP);
}

int
pmu_fd_probe(const char *name, const char *core_pmu, struct pmu_event_desc *desc)
{
	struct perf_event_attr attr;
	int fd;

	for (;;) {
		attr = desc->attr;
		attr.disabled = 1;
		fd = pmu_fd_open(&attr, -1);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (fd == -EINVAL && (desc->attr.exclude_user || desc->attr.exclude_kernel ||
				desc->attr.exclude_hv)) {
			/* Louder when the name's modifiers asked for the levels. */
			PMU_LOG_AT(desc->levels_given ? RTE_LOG_WARNING : RTE_LOG_INFO,
				"event %s: PMU '%s' cannot exclude kernel space; "
				"counting user and kernel", name,
				desc->pmu[0] != '\0' ? desc->pmu : "generic");
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
	unsigned int tries = 0;
	void *p;

	do {
		p = mmap(NULL, page_size(), PROT_READ, MAP_SHARED, fd, 0);
	} while (p == MAP_FAILED && transient(errno) && ++tries < PMU_FD_TRIES);
	if (p == MAP_FAILED)
		return errno_map(-errno, -EIO);
	*page = p;

	return 0;
}

int
pmu_fd_unmap(struct perf_event_mmap_page *page)
{
	if (page == NULL)
		return 0;
	if (munmap(page, page_size()) != 0)
		return -errno;

	return 0;
}

int
pmu_fd_enable_group(int leader_fd)
{
	unsigned int tries = 0;
	int ret;

	do {
		ret = ioctl(leader_fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	} while (ret != 0 && transient(errno) && ++tries < PMU_FD_TRIES);
	if (ret != 0)
		return errno_map(-errno, -EIO);

	return 0;
}

void
pmu_fd_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* read() of @p len bytes, again after EINTR a few times. */
static ssize_t
read_retry(int fd, void *buf, size_t len)
{
	unsigned int tries = 0;
	ssize_t n;

	do {
		n = read(fd, buf, len);
	} while (unlikely(n < 0) && errno == EINTR && ++tries < PMU_FD_TRIES);

	return n;
}

int
pmu_fd_read(int fd, uint64_t *value, uint64_t *raw, uint64_t *enabled, uint64_t *running)
{
	struct event_read buf;
	ssize_t n;

	n = read_retry(fd, &buf, sizeof(buf));
	if (n < 0)
		return -errno;
	/* A pinned group the kernel could not schedule reads 0 bytes. */
	if (n != (ssize_t)sizeof(buf))
		return -ENODATA;

	*value = __rte_pmu_scale(buf.value, buf.time_enabled, buf.time_running);
	if (raw != NULL)
		*raw = buf.value;
	if (enabled != NULL)
		*enabled = buf.time_enabled;
	if (running != NULL)
		*running = buf.time_running;

	return 0;
}

int
pmu_fd_read_group(int fd, uint64_t *values, unsigned int n, uint64_t *enabled,
	uint64_t *running)
{
	struct group_read buf;
	unsigned int i;
	ssize_t len;

	len = read_retry(fd, &buf, sizeof(buf));
	if (len < 0)
		return -errno;
	if (len < (ssize_t)offsetof(struct group_read, values))
		return -ENODATA;

	for (i = 0; i < n && i < buf.nr; i++) {
		if ((ssize_t)offsetof(struct group_read, values[i + 1]) > len)
			break;
		values[i] = buf.values[i];
	}
	if (enabled != NULL)
		*enabled = buf.time_enabled;
	if (running != NULL)
		*running = buf.time_running;

	return (int)i;
}
