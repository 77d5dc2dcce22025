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

#include <stdint.h>
#include <sys/types.h>

#include <linux/perf_event.h>

struct pmu_event_desc;

/** What read() of a group member returns (see pmu_fd_read()). */
#define PMU_FD_READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_ID | \
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

/** The event's id (PERF_EVENT_IOC_ID) in @p id. Returns 0 or -EIO. */
int pmu_fd_id(int fd, uint64_t *id);

/**
 * Map the event's user page (tried again on a transient failure).
 * Returns 0, -ENOMEM, -EACCES, -EMFILE, -EAGAIN or -EIO.
 */
int pmu_fd_map(int fd, struct perf_event_mmap_page **page);

/** Unmap a user page mapped by pmu_fd_map(); NULL is ignored. Returns 0 or -errno. */
int pmu_fd_unmap(struct perf_event_mmap_page *page);

/**
 * Enable a group through its leader (tried again on a transient failure).
 * Returns 0, -EAGAIN, or another code of pmu_fd_map().
 */
int pmu_fd_enable_group(int leader_fd);

/** Close @p *fd if open and set it to -1 (Linux frees it even when close() fails). */
void pmu_fd_close(int *fd);

/**
 * read() an open event (again after EINTR, a few times): its value scaled by its enabled/running times, its
 * raw value and the times, when the pointers are not NULL. Returns 0 or
 * negative errno (-ENODATA: the group is in error state, read() gave 0
 * bytes; -ENOENT: @p id is not in the group).
 */
int pmu_fd_read(int fd, uint64_t id, uint64_t *value, uint64_t *raw,
	uint64_t *enabled, uint64_t *running);

#endif /* PMU_FD_H */
