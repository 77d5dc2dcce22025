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

static size_t
page_size(void)
{
	static size_t size;

	if (size == 0)
		size = (size_t)sysconf(_SC_PAGESIZE);

	return size;
}

int
pmu_fd_open(struct perf_event_attr *attr, int group_fd)
{
	int fd;

	fd = syscall(SYS_perf_event_open, attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
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

static void
log_open_error(const char *name, int err)
{
	switch (err) {
	case -EACCES:
	case -EPERM:
		PMU_LOG(ERR, "event %s: permission denied (kernel.perf_event_paranoid = %d); "
			"run as root, grant CAP_PERFMON, or set kernel.perf_event_paranoid "
			"to 2 or lower", name, paranoid_level());
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
		if (fd == -EINVAL && (desc->attr.exclude_kernel || desc->attr.exclude_hv)) {
			PMU_LOG(INFO, "event %s: PMU '%s' cannot exclude kernel space; "
				"counting user and kernel", name,
				desc->pmu[0] != '\0' ? desc->pmu : "generic");
			desc->attr.exclude_kernel = 0;
			desc->attr.exclude_hv = 0;
			continue;
		}
		if (desc->core && pmu_arch_attr_retry(core_pmu, desc, fd))
			continue;

		log_open_error(name, fd);
		if (fd == -EPERM)
			return -EACCES;
		return fd;
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
	if (fd < 0)
		log_open_error(name, fd);

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
	if (fd < 0)
		log_open_error("group reader (software dummy)", fd);

	return fd;
}

int
pmu_fd_map(int fd, struct perf_event_mmap_page **page)
{
	void *p;

	p = mmap(NULL, page_size(), PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
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
	if (ioctl(leader_fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) != 0)
		return -errno;

	return 0;
}

void
pmu_fd_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int
pmu_fd_read(int fd, uint64_t *value, uint64_t *raw, uint64_t *enabled, uint64_t *running)
{
	struct event_read buf;
	ssize_t n;

	n = read(fd, &buf, sizeof(buf));
	if (unlikely(n != (ssize_t)sizeof(buf))) {
		if (n < 0)
			return -errno;
		/* A pinned group the kernel could not schedule reads 0 bytes. */
		return -ENODATA;
	}

	*value = __rte_pmu_scale(buf.value, buf.time_enabled, buf.time_running);
	if (raw != NULL)
		*raw = buf.value;
	if (enabled != NULL)
		*enabled = buf.time_enabled;
	if (running != NULL)
		*running = buf.time_running;

	return 0;
}

uint64_t
pmu_fd_read_value(int fd)
{
	struct event_read buf;

	if (unlikely(read(fd, &buf, sizeof(buf)) != (ssize_t)sizeof(buf)))
		return 0;

	return __rte_pmu_scale(buf.value, buf.time_enabled, buf.time_running);
}

int
pmu_fd_read_group(int fd, uint64_t *values, unsigned int n, uint64_t *enabled,
	uint64_t *running)
{
	struct group_read buf;
	unsigned int i;
	ssize_t len;

	len = read(fd, &buf, sizeof(buf));
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
