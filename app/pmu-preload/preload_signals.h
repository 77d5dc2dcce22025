/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PRELOAD_SIGNALS_H
#define PRELOAD_SIGNALS_H

#include <signal.h>

/* SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGALRM, SIGUSR1, SIGUSR2
 * (signals.c): where one would kill the program
 * (it set no handler), @p report called from a thread of its own before
 * the process dies of it; 0 or -errno (then no report at such a death).
 */
int preload_signals_report(void (*report)(void));

/* Until the report is set up (preload_signals_report()): @p fn(sig)
 * called in the handler, where a watched signal kills the program (it set
 * no handler), before it dies; async-signal-safe. NULL: none.
 */
void preload_signals_early(void (*fn)(int sig));

/* The calling thread never gets those signals (one of the preload's), or
 * not until it sets @p old (not NULL) back.
 */
void preload_thread_block_signals(sigset_t *old);

#endif /* PRELOAD_SIGNALS_H */
