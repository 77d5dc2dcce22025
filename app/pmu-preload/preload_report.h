/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PRELOAD_REPORT_H
#define PRELOAD_REPORT_H

#include <stdbool.h>

/* What the preload reports (report.c). */

#include <stdio.h>

/* The table (to stderr, each line prefixed, or to the -o file), the JSON
 * file where asked for; with --interval, the interval since the last
 * table before it. Once; later calls do nothing.
 */
void preload_report_final(void);

/* Where the run measures nothing (the program is not a DPDK program, its
 * rte_eal_init() or rte_pmu_init() failed, it uses rte_pmu itself): @p why,
 * the line said on stderr, written in the -o file, and a JSON file with no
 * event and no stage, so that neither keeps an earlier run's figures.
 * Never over another process's report of stages; @p weak (a process that
 * never reached DPDK): into an empty file only. Failures said on @p fd.
 * Once, and only where no report was made; no report after it.
 */
void preload_report_nothing(const char *why, int fd, bool weak);

/* Start the thread printing the table every interval_ms, and at the final
 * report the interval since the last; 0 or -errno.
 */
int preload_report_interval_start(void);

/* Keep the figures of @p lcore, whose thread unregisters now. */
void preload_lcore_leaving(unsigned int lcore);

#endif /* PRELOAD_REPORT_H */
