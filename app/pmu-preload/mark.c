/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The run's mark. dpdk-pmu-run opens a memfd that the process it starts
 * inherits (exec keeps its pid and the descriptor) and names its number in
 * RTE_PMU_RUN_MARK. A process of the run that reaches rte_eal_init()
 * opens it again through /proc/RUN_PID/fd/N, which works where its own
 * copy was closed on the way (Python's subprocess closes descriptors), and
 * gives it a byte. The started process keeps a copy of its own and looks
 * at the size at its exit. Each descriptor is checked to be the memfd
 * before it is written: a program may have put another file at N.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "preload_mark.h"

/* The memfd's name as dpdk-pmu-run gives it; /proc shows "/memfd:NAME". */
#define MARK_LINK "/memfd:dpdk-pmu-run-mark"

static pid_t mark_pid;      /* the started process */
static int mark_num = -1;   /* the memfd's number in it */
static int mark_own = -1;   /* the started process's copy (close on exec) */

/* Whether /proc link @p path names the run's memfd. */
static bool
is_mark(const char *path)
{
	char target[sizeof(MARK_LINK) + 16];
	ssize_t len = readlink(path, target, sizeof(target) - 1);

	return len >= (ssize_t)strlen(MARK_LINK) &&
		strncmp(target, MARK_LINK, strlen(MARK_LINK)) == 0;
}

void
preload_mark_init(pid_t run_pid)
{
	const char *env = getenv("RTE_PMU_RUN_MARK");
	char path[64], *end;
	long num;

	if (env == NULL || run_pid <= 0)
		return;
	num = strtol(env, &end, 10);
	/* Never 0, 1 or 2: dpdk-pmu-run puts it above them. */
	if (*env == '\0' || *end != '\0' || num <= STDERR_FILENO || num > INT_MAX)
		return;
	mark_pid = run_pid;
	mark_num = (int)num;
	if (getpid() != run_pid)
		return;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", mark_num);
	if (is_mark(path))
		mark_own = fcntl(mark_num, F_DUPFD_CLOEXEC, 3);
}

void
preload_mark_set(void)
{
	char path[64];
	int fd;

	if (mark_num < 0)
		return;
	/* The program's own children are not of the run: the mark is not
	 * theirs (a tool that lists open descriptors would see it).
	 */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", mark_num);
	if (is_mark(path))
		fcntl(mark_num, F_SETFD, FD_CLOEXEC);
	unsetenv("RTE_PMU_RUN_MARK");
	if (getpid() == mark_pid)
		return;
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)mark_pid, mark_num);
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* Where the byte does not go, the launcher says its line, as before. */
	if (is_mark(path) && pwrite(fd, "1", 1, 0) != 1)
		mark_num = -1;
	close(fd);
}

/* Whether a child of this process still runs (the main thread's, as
 * /proc lists them): a launcher that starts the program in the background
 * and exits (setsid -f, sh -c 'prog &') ends before it reaches
 * rte_eal_init().
 */
static bool
children_alive(void)
{
	char path[64], c;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, &c, 1);
	close(fd);
	return n == 1;
}

bool
preload_mark_seen(void)
{
	struct stat st;

	if (mark_own < 0)
		return false;
	return (fstat(mark_own, &st) == 0 && st.st_size > 0) || children_alive();
}
