/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PRELOAD_MARK_H
#define PRELOAD_MARK_H

/* The run's mark (mark.c): a process of the run that reaches
 * rte_eal_init() marks it, so that the process dpdk-pmu-run started, a
 * launcher that runs the DPDK program as its child (timeout, a script),
 * does not say at its exit that nothing was measured.
 */

#include <stdbool.h>
#include <sys/types.h>

/* The mark of the run whose started process is @p run_pid (0: none),
 * from RTE_PMU_RUN_MARK; called as the library loads.
 */
void preload_mark_init(pid_t run_pid);

/* Mark the run: this process reached rte_eal_init(). */
void preload_mark_set(void);

/* Whether another process of the run marked it, or still may: a child of
 * this process still runs (the started process only).
 */
bool preload_mark_seen(void);

#endif /* PRELOAD_MARK_H */
