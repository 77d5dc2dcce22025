/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The files of a run that measures nothing: the line that says why in the
 * -o file and a JSON with no stage (report.c decides when, under its lock),
 * and the same from a signal handler that ends the program in its
 * rte_eal_init(), with async-signal-safe calls only.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE  /* sigabbrev_np() */
#endif

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include "preload_nothing.h"
#include "preload_run.h"

/* Whether the file at @p path holds a report of stages (another process
 * of the run made it): lines of an lcore's stages, or a JSON list of
 * stages with one in it.
 */
static bool
holds_stages(const char *path, bool json)
{
	char buf[4096];
	struct stat st;
	ssize_t n;
	/* Not blocking on a FIFO; and of a file only: a pipe or a terminal
	 * (-o /dev/stdout) is not read, its reader's.
	 */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, buf, sizeof(buf) - 1) : 0;
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return json ? strstr(buf, "\"stages\": [{") != NULL :
		strncmp(buf, "lcore ", 6) == 0 || strstr(buf, "\nlcore ") != NULL;
}

FILE *
preload_fopen_w(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0666);
	FILE *f;

	if (fd < 0)
		return NULL;
	/* Blocking again for the writes (a FIFO's reader may be slow). */
	f = fcntl(fd, F_SETFL, O_WRONLY) == 0 ? fdopen(fd, "w") : NULL;
	if (f == NULL)
		close(fd);
	return f;
}

bool
preload_nothing_may_write(const char *path, bool json, bool weak)
{
	struct stat st;

	/* A FIFO is never empty that way: its reader is the program's. */
	if (weak)
		return stat(path, &st) != 0 || (S_ISREG(st.st_mode) && st.st_size == 0);
	return !holds_stages(path, json);
}

int
preload_nothing_write(const char *path, const char *line, bool json)
{
	FILE *f = preload_fopen_w(path);
	int ret;

	if (f == NULL)
		return errno;
	errno = 0;
	if (json)
		fprintf(f, "{\"events\": [], \"sampling\": %u, \"stages\": [], "
			"\"lcores\": []}\n", preload_run.sampling);
	else
		fprintf(f, "%s\n", line);
	ret = fflush(f) != 0 || ferror(f) ? (errno != 0 ? errno : EIO) : 0;
	if (fclose(f) != 0 && ret == 0)
		ret = errno;

	return ret;
}

/* @p s after the @p len bytes of @p buf (@p size bytes), cut to fit: the
 * new length. Async-signal-safe.
 */
static size_t
text_add(char *buf, size_t len, size_t size, const char *s)
{
	size_t n = RTE_MIN(strlen(s), size - 1 - len);

	memcpy(buf + len, s, n);
	buf[len + n] = '\0';
	return len + n;
}

/* @p text into the file at @p path, emptied, never blocking on a FIFO.
 * Async-signal-safe.
 */
static void
text_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0666);
	ssize_t n;

	if (fd < 0)
		return;
	n = write(fd, text, strlen(text));
	RTE_SET_USED(n);
	close(fd);
}

void
preload_nothing_dying(int sig, int fd, bool failed)
{
	char line[160], json[128], num[12], *p = num + sizeof(num);
	const char *name = sigabbrev_np(sig);
	struct pollfd out = { .fd = fd, .events = POLLOUT };
	unsigned int v = preload_run.sampling;
	size_t len;
	ssize_t n;

	*--p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	len = text_add(line, 0, sizeof(line), PRELOAD_TAG "the program died of SIG");
	len = text_add(line, len, sizeof(line), name != NULL ? name : "?");
	len = text_add(line, len, sizeof(line), failed ? " after its rte_eal_init() failed: "
		"nothing measured\n" : " in its rte_eal_init(): nothing measured\n");
	text_add(json, text_add(json, text_add(json, 0, sizeof(json),
		"{\"events\": [], \"sampling\": "), sizeof(json), p), sizeof(json),
		", \"stages\": [], \"lcores\": []}\n");
	/* The files first, as preload_report_nothing() writes them. */
	if (preload_run.output != NULL && !holds_stages(preload_run.output, false))
		text_write(preload_run.output, line + strlen(PRELOAD_TAG));
	if (preload_run.json != NULL && !holds_stages(preload_run.json, true))
		text_write(preload_run.json, json);
	/* The line where it goes at once: no wait on a stderr no one reads. */
	if (fd >= 0 && poll(&out, 1, 0) == 1 && (out.revents & POLLOUT) != 0) {
		n = write(fd, line, len);
		RTE_SET_USED(n);
	}
}
