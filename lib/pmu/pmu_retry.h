/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_RETRY_H
#define PMU_RETRY_H

/* The library's one retry rule, for every system call it makes (perf
 * descriptors in pmu_fd.c, sysfs files in pmu_sysfs.c): a call that fails
 * with EINTR (a signal came), EAGAIN or EBUSY (the kernel or the PMU is busy
 * now) is made again, up to PMU_RETRIES times, as rte_pmu.h promises.
 */

#include <errno.h>
#include <stdbool.h>

/** Times a call failing with a transient errno is made again. */
#define PMU_RETRIES 3

/**
 * After a call failed: true when errno is transient (EINTR, EAGAIN, EBUSY)
 * and fewer than PMU_RETRIES retries were counted in @p retries (0 before
 * the first call), which counts this one.
 */
static inline bool
pmu_retry(unsigned int *retries)
{
	int err = errno;

	return (err == EINTR || err == EAGAIN || err == EBUSY) && ++*retries <= PMU_RETRIES;
}

/**
 * Run @p call, and again while @p failed holds and pmu_retry() allows it:
 * at most 1 + PMU_RETRIES times in all. errno is the last call's.
 */
#define PMU_RETRY(call, failed) do { \
	unsigned int retries_ = 0; \
	do { \
		call; \
	} while ((failed) && pmu_retry(&retries_)); \
} while (0)

#endif /* PMU_RETRY_H */
