/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* What the fault harness watches: the process's descriptors, perf
 * mappings and the library's allocations, and the log it captures.
 */

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_pmu_fault.h"

FILE *log_f;

/* ---- process resources ---- */

void
snapshot_take(struct snapshot *s)
{
	char path[300], link[128];
	struct dirent *de;
	char line[512];
	FILE *f;
	DIR *d;
	ssize_t n;

	memset(s, 0, sizeof(*s));
	d = opendir("/proc/self/fd");
	if (d != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			s->fds++;
			snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
			n = readlink(path, link, sizeof(link) - 1);
			if (n > 0) {
				link[n] = '\0';
				if (strstr(link, "perf_event") != NULL)
					s->perf_fds++;
			}
		}
		closedir(d);
	}
	f = fopen("/proc/self/maps", "r");
	if (f != NULL) {
		while (fgets(line, sizeof(line), f) != NULL)
			if (strstr(line, "perf_event") != NULL)
				s->perf_maps++;
		fclose(f);
	}
	s->allocs = fault_live_allocs();
}

/* ---- captured log ---- */

long
log_mark(void)
{
	fflush(log_f);
	fseek(log_f, 0, SEEK_END);
	return ftell(log_f);
}

/* Text logged since @p mark, in @p buf; its length. */
size_t
log_since(long mark, char *buf, size_t len)
{
	size_t n;

	fflush(log_f);
	fseek(log_f, mark, SEEK_SET);
	n = fread(buf, 1, len - 1, log_f);
	buf[n] = '\0';
	fseek(log_f, 0, SEEK_END);
	return n;
}
