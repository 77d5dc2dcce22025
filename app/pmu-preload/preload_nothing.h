/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PRELOAD_NOTHING_H
#define PRELOAD_NOTHING_H

/* The files of a run that measures nothing (nothing.c): the line that says
 * why in the -o file, a JSON with no stage, never over another process's
 * report of stages.
 */

#include <stdbool.h>
#include <stdio.h>

/* fopen(@p path, "w") that never waits for a FIFO's reader: ENXIO where
 * it has none.
 */
FILE *preload_fopen_w(const char *path);

/* Whether a file of the run may take a line saying nothing was measured:
 * never over a report of stages; where @p weak, into an empty file only
 * (dpdk-pmu-run empties them as the run starts).
 */
bool preload_nothing_may_write(const char *path, bool json, bool weak);

/* @p line in the -o file (@p json false), or a JSON with no stage; 0 or
 * an errno.
 */
int preload_nothing_write(const char *path, const char *line, bool json);

/* Said from a signal handler, in the program's rte_eal_init() that signal
 * @p sig ends, or after it @p failed (rte_panic()'s abort()): the files
 * first, where they hold no report of stages, then the line on @p fd (-1:
 * none) only where it goes at once. Async-signal-safe.
 */
void preload_nothing_dying(int sig, int fd, bool failed);

#endif /* PRELOAD_NOTHING_H */
