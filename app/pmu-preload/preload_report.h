/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PRELOAD_REPORT_H
#define PRELOAD_REPORT_H

/* What the preload reports (report.c). */

#include <stdio.h>

/* The table (to stderr, each line prefixed, or to the -o file), the JSON
 * file where asked for. Once; later calls do nothing.
 */
void preload_report_final(void);

/* Start the thread printing the table every interval_ms; 0 or -errno. */
int preload_report_interval_start(void);

/* Keep the figures of @p lcore, whose thread unregisters now. */
void preload_lcore_leaving(unsigned int lcore);

#endif /* PRELOAD_REPORT_H */
