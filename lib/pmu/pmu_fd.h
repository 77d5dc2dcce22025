/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_FD_H
#define PMU_FD_H

/* Everything the library does with perf_event file descriptors: open
 * (alone to probe an event, or into an lcore's group), the read format and
 * read(), the user page mapping, enable, close. Nothing here touches the
 * library's state; callers hold whatever lock they need.
 */

#include <errno.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>


#include "rte_pmu.h"

#include <linux/perf_event.h>

struct pmu_event_desc;

/**
 * read_format of every event of a group, leader included: read() of an
 * event gives its own value and times, nothing else (see pmu_fd_read()).
 */
#define PMU_FD_READ_FORMAT (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/**
 * read_format of a group's reader, a software dummy event that joins the
 * group after the events: one read() of it gives the whole group (see
 * pmu_fd_read_group()). The format is the event's own, so the events
 * keep single-value reads.
 */
#define PMU_FD_GROUP_FORMAT (PERF_FORMAT_GROUP | \
	PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/**
 * perf_event_open(2) for the calling thread on any CPU, close-on-exec; a
 * transient failure (EINTR, EAGAIN, EBUSY) is tried again a few times.
 * Returns fd or the kernel's -errno.
 */
int pmu_fd_open(struct perf_event_attr *attr, int group_fd);

/**
 * Open the event alone on the calling thread, to report problems when it
 * is added and settle the attributes every lcore will use: exclusion the
 * PMU cannot do is dropped, and the backend may adjust what the PMU
 * refuses (@p core_pmu is the core PMU's folder). Logs why it fails.
 * Returns 0 or one of rte_pmu_add_event()'s codes: -EACCES, -ENOENT,
 * -EOPNOTSUPP, -EMFILE, -ENOMEM, -EAGAIN.
 */
int pmu_fd_probe(const char *name, const char *core_pmu, struct pmu_event_desc *desc);

/**
 * Open one event of an lcore's group: the group leader when @p leader_fd
 * is -1 (disabled until pmu_fd_enable_group()), else a member. Logs why
 * it fails. Returns fd or the codes of pmu_fd_probe().
 */
int pmu_fd_group_open(const char *name, const struct pmu_event_desc *desc, int leader_fd);

/**
 * Open a group's reader: a software dummy event (counts nothing, takes no
 * counter) in the group of @p leader_fd, with PMU_FD_GROUP_FORMAT. Open it
 * after every event. Logs why it fails. Returns fd or the codes of
 * pmu_fd_probe().
 */
int pmu_fd_group_reader_open(int leader_fd);

/**
 * Open the event enabled on the calling thread, map its user page and say
 * which path a read of it takes (user page or read()); then close it.
 * Returns 0 or the codes of pmu_fd_probe() (nothing logged).
 */
int pmu_fd_read_path(const struct pmu_event_desc *desc, enum rte_pmu_read_path *path);

/**
 * Map the event's user page (tried again on a transient failure).
 * Returns 0, -ENOMEM, -EACCES, -EMFILE, -EAGAIN or -EIO.
 */
int pmu_fd_map(int fd, struct perf_event_mmap_page **page);

/**
 * Unmap a user page mapped by pmu_fd_map(); NULL and pmu_page_none are
 * ignored. A page whose munmap() fails is logged and kept for
 * pmu_fd_unmap_stale(). Returns 0 or -errno.
 */
int pmu_fd_unmap(struct perf_event_mmap_page *page);

/** Unmap the pages kept by failed pmu_fd_unmap() calls; log those that stay. */
void pmu_fd_unmap_stale(void);

/**
 * Enable a group through its leader (tried again on a transient failure).
 * Returns 0, -EAGAIN, or another code of pmu_fd_map().
 */
int pmu_fd_enable_group(int leader_fd);

/** Close @p *fd if open and set it to -1 (Linux frees it even when close() fails). */
void pmu_fd_close(int *fd);

#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4)
#endif

/** Values one read() can give: every event of a group and its reader. */
#define PMU_READ_VALUES_MAX (RTE_MAX_NUM_GROUP_EVENTS + 1)

/**
 * Values of one read() of a perf event. The head is the layout of an
 * event's own read (PMU_FD_READ_FORMAT: value, enabled, running), which
 * pmu_fd_read() fills in place.
 */
struct pmu_read_values {
	uint64_t value0;        /**< value[0] of an event's own read, before decoding */
	uint64_t time_enabled;  /**< 0 without PERF_FORMAT_TOTAL_TIME_ENABLED */
	uint64_t time_running;  /**< 0 without PERF_FORMAT_TOTAL_TIME_RUNNING */
	unsigned int nr;        /**< values found (1 without PERF_FORMAT_GROUP) */
	uint64_t value[PMU_READ_VALUES_MAX];
	uint64_t id[PMU_READ_VALUES_MAX]; /**< 0 without PERF_FORMAT_ID */
};

/**
 * Decode what read() of a perf event gave, for any read_format (group or
 * single event; ids, times and lost counts optional).
 * Returns 0; -ENODATA @p len is 0 (a pinned group in error state);
 * -EINVAL the buffer is shorter than @p read_format says, or holds more
 * than PMU_READ_VALUES_MAX values.
 */
int pmu_read_parse(const void *buf, size_t len, uint64_t read_format,
	struct pmu_read_values *out);

/**
 * The library's one read() of a perf event: read @p fd (again after a
 * transient failure, see pmu_retry.h) and decode it with @p read_format, the format the event
 * was opened with (PMU_FD_READ_FORMAT for an event, PMU_FD_GROUP_FORMAT
 * for a group's reader: the events' values in index order, then the
 * reader's own). Returns 0 or negative errno (-ENODATA: group in error
 * state).
 */
int pmu_fd_read(int fd, uint64_t read_format, struct pmu_read_values *out);

#endif /* PMU_FD_H */
