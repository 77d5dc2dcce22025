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

#include <rte_branch_prediction.h>

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
 * read() an open event (one system call, again after EINTR a few times;
 * its own value only): its value scaled by its enabled/running times, its
 * raw value and the times, when the pointers are not NULL. Returns 0 or
 * negative errno (-ENODATA: the group is in error state, read() gave 0
 * bytes).
 */
int pmu_fd_read(int fd, uint64_t *value, uint64_t *raw, uint64_t *enabled,
	uint64_t *running);

/** How many times a call failing with a transient errno is made in a row. */
#define PMU_FD_TRIES 3

/**
 * pmu_fd_read() for the datapath, inline so that the read() fallback costs
 * what a plain read() does: the scaled value alone (again after EINTR a
 * few times). Returns 0 or negative errno (-ENODATA: group in error state).
 */
static inline int
pmu_fd_read_value(int fd, uint64_t *value)
{
	struct {
		uint64_t value, time_enabled, time_running;
	} buf; /* PMU_FD_READ_FORMAT */
	unsigned int tries = 0;
	ssize_t n;

	do {
		n = read(fd, &buf, sizeof(buf));
	} while (unlikely(n < 0) && errno == EINTR && ++tries < PMU_FD_TRIES);
	if (unlikely(n != (ssize_t)sizeof(buf)))
		return n < 0 ? -errno : -ENODATA;
	*value = __rte_pmu_scale(buf.value, buf.time_enabled, buf.time_running);

	return 0;
}

/**
 * read() a group's reader (pmu_fd_group_reader_open()): one system call
 * for the whole group. Fills @p values with the first @p n raw values in
 * group order (the leader, then the members in the order they were
 * opened), and the group's times when the pointers are not NULL.
 * Returns the number of values filled (at most @p n; the reader's own is
 * last) or negative errno (-ENODATA: group in error state).
 */
int pmu_fd_read_group(int fd, uint64_t *values, unsigned int n, uint64_t *enabled,
	uint64_t *running);

#endif /* PMU_FD_H */
