/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_SYSCOUNT_H
#define TEST_PMU_SYSCOUNT_H

/* The kernel's own count of the calling thread's read() system calls:
 * "syscr" of /proc/thread-self/io (task I/O accounting, incremented by
 * every read, pread and readv). Reading the count is a read itself; the
 * counts returned leave those out, so the difference of two counts is the
 * calls made between them.
 */

#include <stdint.h>

struct syscount {
	int fd;       /* /proc/thread-self/io, -1 when unavailable */
	uint64_t own; /* reads made by the counter itself so far */
};

/* Open the counter for the calling thread. Returns 0 or negative errno
 * (the kernel has no task I/O accounting, or no /proc).
 */
int syscount_open(struct syscount *sc);

/* read() system calls made by the thread so far, the count's own excluded;
 * UINT64_MAX on error.
 */
uint64_t syscount_reads(struct syscount *sc);

void syscount_close(struct syscount *sc);

#endif /* TEST_PMU_SYSCOUNT_H */
