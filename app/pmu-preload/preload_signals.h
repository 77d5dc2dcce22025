/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PRELOAD_SIGNALS_H
#define PRELOAD_SIGNALS_H

/* SIGINT, SIGTERM, SIGHUP (signals.c): where one would kill the program
 * (it set no handler), @p report called from a thread of its own before
 * the process dies of it; 0 or -errno (then no report at such a death).
 */
int preload_signals_report(void (*report)(void));

/* The calling thread (one of the preload's) never gets those signals. */
void preload_thread_block_signals(void);

#endif /* PRELOAD_SIGNALS_H */
