/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The report however the program ends. The signals watched get the
 * preload's handler from the start (a constructor), and sigaction() and
 * signal() are interposed: a handler the program sets for them, before or
 * after rte_eal_init() (testpmd sets its own first thing), is kept here
 * and called by the preload's handler as the kernel would have called it.
 *  - Where the program has a handler, the preload's handler only calls
 *    it: the program decides whether the signal ends it, and the report
 *    comes at its exit (rte_eal_cleanup() or atexit), with what it did
 *    after the signal (testpmd stops forwarding, then counts). A report
 *    made at the signal would miss that, and a SIGHUP that reloads a
 *    configuration would end no run.
 *  - Where it has none, the signal would kill it: the report first, then
 *    the default disposition put back and the signal raised again, so
 *    that the process dies of it, its status as without the preload.
 * The report is not made in signal context (it allocates and uses stdio):
 * the handler writes into a pipe and waits, on a second pipe and 10 s at
 * most, for the reporter thread, which calls preload_report_final() (the
 * report once, whatever calls it). Where the thread that got the signal
 * held a lock the report needs (stderr's, while it printed), the wait ends
 * at its limit and the report may be lost: the death is never held up.
 * The preload's own threads block the signals; a forked child reports
 * nothing (its reporter is the parent's).
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>

#include "preload_signals.h"

/* The handler's wait for the report, milliseconds. */
#define REPORT_WAIT_MS 10000

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

/* What the program set for each signal watched (SIG_DFL until it sets
 * one), and whether the preload's handler is in place for it.
 */
static struct sigaction program_act[NSIG];
static bool watched[NSIG];
static const int watch_list[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGALRM, SIGUSR1, SIGUSR2
};

static int request_pipe[2] = { -1, -1 };
static int done_pipe[2] = { -1, -1 };
static volatile sig_atomic_t reporter_on;
static int reported; /* atomic: the first signal reports */
static void (*report_fn)(void);
static void (*early_fn)(int sig);

static sigaction_fn
real_sigaction(void)
{
	static sigaction_fn fn;

	if (fn == NULL)
		fn = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
	return fn;
}

/* Ask the reporter for the report, or find it asked by a signal before
 * (a process-directed one may come to any thread, as timeout(1) sends it
 * twice), and wait for it (async-signal-safe).
 */
static void
report_from_handler(void)
{
	struct pollfd pfd;
	char c = 1;
	ssize_t n = 1;

	if (!reporter_on)
		return;
	if (__atomic_exchange_n(&reported, 1, __ATOMIC_ACQ_REL) == 0) {
		do {
			n = write(request_pipe[1], &c, 1);
		} while (n < 0 && errno == EINTR);
	}
	if (n != 1)
		return;
	pfd.fd = done_pipe[0];
	pfd.events = POLLIN;
	while (poll(&pfd, 1, REPORT_WAIT_MS) < 0 && errno == EINTR)
		;
}

static void
on_signal(int sig, siginfo_t *info, void *uc)
{
	int saved = errno;
	struct sigaction act = program_act[sig];
	struct sigaction dfl;
	sigset_t set;

	if (act.sa_handler == SIG_IGN) {
		errno = saved;
		return;
	}
	if (act.sa_handler == SIG_DFL) {
		/* Die of it: its status, as without the preload. */
		if (!reporter_on && early_fn != NULL)
			early_fn(sig);
		report_from_handler();
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		real_sigaction()(sig, &dfl, NULL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		raise(sig);
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
		errno = saved;
		return;
	}
	if (act.sa_flags & SA_RESETHAND)
		program_act[sig].sa_handler = SIG_DFL;
	if (act.sa_flags & SA_SIGINFO)
		act.sa_sigaction(sig, info, uc);
	else
		act.sa_handler(sig);
	errno = saved;
}

/* Put the preload's handler for @p sig in place with the program's mask
 * and flags; the program's own disposition where it ignores the signal.
 */
static int
install(int sig)
{
	struct sigaction act = program_act[sig];

	if (act.sa_handler == SIG_IGN)
		return real_sigaction()(sig, &act, NULL);
	/* SA_NODEFER kept where the program's handler is called: the signal
	 * is not blocked in it, nor after it longjmp()s out, as without the
	 * preload. Where the preload's handler makes the report (SIG_DFL), the
	 * signal stays blocked in it.
	 */
	act.sa_sigaction = on_signal;
	act.sa_flags = (act.sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
	if (program_act[sig].sa_handler == SIG_DFL)
		act.sa_flags &= ~SA_NODEFER;
	return real_sigaction()(sig, &act, NULL);
}

int
sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	sigaction_fn real = real_sigaction();
	struct sigaction prev;

	if (real == NULL) {
		errno = ENOSYS;
		return -1;
	}
	if (sig <= 0 || sig >= NSIG || !watched[sig])
		return real(sig, act, old);
	prev = program_act[sig];
	if (act != NULL) {
		program_act[sig] = *act;
		if (install(sig) != 0) {
			program_act[sig] = prev;
			return -1;
		}
	}
	if (old != NULL)
		*old = prev;

	return 0;
}

sighandler_t
signal(int sig, sighandler_t handler)
{
	struct sigaction act, old;

	memset(&act, 0, sizeof(act));
	act.sa_handler = handler;
	act.sa_flags = SA_RESTART; /* glibc's signal(): BSD semantics */
	sigemptyset(&act.sa_mask);
	if (sigaction(sig, &act, &old) != 0)
		return SIG_ERR;

	return old.sa_handler;
}

/* The reporter: the report at the first signal, then the handler told. */
static void *
reporter(void *arg __rte_unused)
{
	char c;
	ssize_t n;

	do {
		n = read(request_pipe[0], &c, 1);
	} while (n < 0 && errno == EINTR);
	if (n == 1 && report_fn != NULL)
		report_fn();
	do {
		n = write(done_pipe[1], &c, 1);
	} while (n < 0 && errno == EINTR);

	return NULL;
}

static void
fork_child(void)
{
	reporter_on = 0;
}

/* The signals watched, in @p set. */
static void
watch_set(sigset_t *set)
{
	unsigned int i;

	sigemptyset(set);
	for (i = 0; i < RTE_DIM(watch_list); i++)
		sigaddset(set, watch_list[i]);
}

void
preload_thread_block_signals(sigset_t *old)
{
	sigset_t set;

	watch_set(&set);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

int
preload_signals_report(void (*fn)(void))
{
	pthread_attr_t attr;
	pthread_t tid;
	sigset_t set, old;
	int ret;

	report_fn = fn;
	if (pipe2(request_pipe, O_CLOEXEC) != 0 || pipe2(done_pipe, O_CLOEXEC) != 0)
		return -errno;
	/* Created with the signals blocked: it inherits the mask. */
	watch_set(&set);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	ret = pthread_create(&tid, &attr, reporter, NULL);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret != 0)
		return -ret;
	pthread_setname_np(tid, "pmu-run-report");
	pthread_atfork(NULL, NULL, fork_child);
	reporter_on = 1;

	return 0;
}

void
preload_signals_early(void (*fn)(int sig))
{
	early_fn = fn;
}

/* Before the program's main(): the handlers in place, the program's
 * dispositions (inherited: SIG_IGN under nohup) kept.
 */
RTE_INIT(preload_signals_init)
{
	sigaction_fn real = real_sigaction();
	unsigned int i;
	int sig;

	if (real == NULL)
		return;
	for (i = 0; i < RTE_DIM(watch_list); i++) {
		sig = watch_list[i];
		if (real(sig, NULL, &program_act[sig]) != 0)
			continue;
		if (install(sig) == 0)
			watched[sig] = true;
	}
}
