/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_LOG_H
#define PMU_LOG_H

/* The library's log type (lib.pmu) and its macros, for the library and
 * its drivers. Defined in pmu_state.c.
 */

#include <rte_log.h>
#include <rte_per_lcore.h>

extern int pmu_logtype;

/**
 * Set by a thread while the failures it meets are results rather than news
 * (listing events, trying an encoding on each core PMU): the library's log
 * lines from that thread are dropped. Other threads still log.
 */
RTE_DECLARE_PER_LCORE(unsigned int, pmu_log_quiet);

/** Log at a level given as a value (RTE_LOG_ERR, ...). */
#define PMU_LOG_AT(lvl, fmt, ...) do { \
	if (RTE_PER_LCORE(pmu_log_quiet) == 0) \
		rte_log(lvl, pmu_logtype, "PMU: " fmt "\n", ##__VA_ARGS__); \
} while (0)

#define PMU_LOG(level, fmt, ...) PMU_LOG_AT(RTE_LOG_ ## level, fmt, ##__VA_ARGS__)

/** Bytes of a name printed in a log line; a longer one ends with "...". */
#define PMU_NAME_LOG_MAX 64

/**
 * A name given by the user, made printable for a log line: control and
 * non-ASCII bytes and the backslash escaped (\n, \t, \r, \\, \xff), at
 * most PMU_NAME_LOG_MAX bytes of it. The text is in one of a few buffers
 * of the calling thread, valid until its 8th next call: enough for every
 * name of one log line. NULL gives "(null)".
 */
const char *pmu_name_printable(const char *name);

/**
 * An API return code for a log line: "-EINVAL (Invalid argument)", the
 * number where libc has no name for it. In a buffer of the calling thread
 * as pmu_name_printable()'s, valid until its 4th next call.
 */
const char *pmu_strerror(int ret);

#endif /* PMU_LOG_H */
