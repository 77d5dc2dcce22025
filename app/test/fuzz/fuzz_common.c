/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Set-up shared by the libFuzzer targets (see fuzz_common.h). */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_log.h>

#include "pmu_private.h"
#include "test_pmu_fixture.h"
#include "fuzz_common.h"

static unsigned long log_lines;

static void host_types_read(void);

/* Log stream: count the lines, print them only with FUZZ_LOG=1. */
static ssize_t
log_write(void *cookie, const char *buf, size_t size)
{
	size_t i;

	RTE_SET_USED(cookie);
	for (i = 0; i < size; i++) {
		if (buf[i] == '\n')
			log_lines++;
	}
	if (getenv("FUZZ_LOG") != NULL)
		fwrite(buf, 1, size, stderr);
	return (ssize_t)size;
}

unsigned long
fuzz_log_lines(void)
{
	return log_lines;
}

void
fuzz_ret_check(const char *what, int ret, const int *allowed, size_t n)
{
	size_t i;

	if (ret == 0)
		return;
	for (i = 0; i < n; i++) {
		if (ret == allowed[i])
			return;
	}
	fprintf(stderr, "FUZZ CHECK FAILED: %s returned %d (%s), not a documented code\n",
		what, ret, ret < 0 ? strerror(-ret) : "positive");
	abort();
}

char *
fuzz_string(const uint8_t *data, size_t size, char *buf, size_t len)
{
	if (size > len - 1)
		size = len - 1;
	memcpy(buf, data, size);
	buf[size] = '\0';
	return buf;
}

void
fuzz_file_write(const char *rel, const uint8_t *data, size_t size)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/x86/%s", fixture_dir, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	FUZZ_ASSERT(fd >= 0, "open %s: %s", path, strerror(errno));
	n = size == 0 ? 0 : write(fd, data, size);
	FUZZ_ASSERT(n >= 0 && (size_t)n == size, "write %s", path);
	close(fd);
}

static void
fuzz_teardown(void)
{
	pmu_fixture_teardown();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static cookie_io_functions_t io = { .write = log_write };
	char path[PATH_MAX];
	FILE *stream;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);

	stream = fopencookie(NULL, "w", io);
	FUZZ_ASSERT(stream != NULL, "fopencookie");
	setvbuf(stream, NULL, _IONBF, 0);
	rte_openlog_stream(stream);

	FUZZ_ASSERT(pmu_fixture_setup() == 0, "fixture");
	atexit(fuzz_teardown);
	FUZZ_ASSERT(use_root("x86") == 0, "sysfs root");
	host_types_read();

	/* A PMU folder for the type target. */
	snprintf(path, sizeof(path), "%s/x86/fz", fixture_dir);
	FUZZ_ASSERT(mkdir(path, 0755) == 0, "mkdir %s", path);
	return 0;
}

/* Types of the host's PMUs: libpfm4 names resolve against the real sysfs. */
static uint32_t host_types[64];
static unsigned int nr_host_types;

static void
host_types_read(void)
{
	unsigned long type;
	glob_t g;
	size_t i;
	FILE *f;

	if (glob("/sys/bus/event_source/devices/*/type", 0, NULL, &g) != 0)
		return;
	for (i = 0; i < g.gl_pathc && nr_host_types < RTE_DIM(host_types); i++) {
		f = fopen(g.gl_pathv[i], "re");
		if (f == NULL)
			continue;
		if (fscanf(f, "%lu", &type) == 1)
			host_types[nr_host_types++] = (uint32_t)type;
		fclose(f);
	}
	globfree(&g);
}

/* PMU types an encoding may carry: perf's generic ones (hardware, software,
 * cache, raw), the x86 fixture root's, the host's; never the type of the
 * fixture folder outside the root (99).
 */
static bool
type_known(uint32_t type, const uint32_t *fz_type)
{
	static const uint32_t known[] = {
		PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE, PERF_TYPE_HW_CACHE, PERF_TYPE_RAW,
		4, 9, 12,
	};
	unsigned int i;

	if (fz_type != NULL && type == *fz_type)
		return true;
	if (type == 99)
		return false;
	for (i = 0; i < RTE_DIM(known); i++) {
		if (type == known[i])
			return true;
	}
	for (i = 0; i < nr_host_types; i++) {
		if (type == host_types[i])
			return true;
	}
	return false;
}

int
fuzz_encode(const char *name, const uint32_t *fz_type)
{
	struct pmu_event_desc desc, again, cleared;
	unsigned long logs = log_lines;
	size_t len;
	int ret;

	ret = pmu_event_encode(name, "cpu", &desc);
	/* pmu_event.h: its own codes, or the error of a sysfs file that could
	 * not be read (logged, and mapped by rte_pmu_add_event()); over the
	 * fixture only a file too long for its buffer, or a name too long for
	 * the file system.
	 */
	FUZZ_RET_IN("pmu_event_encode", ret, -ENOENT, -EINVAL, -ERANGE, -EOPNOTSUPP,
		-EOVERFLOW, -ENAMETOOLONG);

	memset(&cleared, 0, sizeof(cleared));
	cleared.attr.size = sizeof(cleared.attr);
	if (ret != 0) {
		FUZZ_ASSERT(log_lines > logs, "\"%s\": error %d without a log line", name, ret);
		FUZZ_ASSERT(memcmp(&desc, &cleared, sizeof(desc)) == 0,
			"\"%s\": error %d left a half-encoded event", name, ret);
	} else {
		len = strnlen(desc.pmu, sizeof(desc.pmu));
		FUZZ_ASSERT(len < sizeof(desc.pmu), "\"%s\": PMU name not terminated", name);
		FUZZ_ASSERT(strchr(desc.pmu, '/') == NULL && strstr(desc.pmu, "..") == NULL,
			"\"%s\": PMU %s outside the root", name, desc.pmu);
		FUZZ_ASSERT(type_known(desc.attr.type, fz_type), "\"%s\": type %u from outside the root",
			name, desc.attr.type);
		FUZZ_ASSERT(desc.attr.size == sizeof(desc.attr), "\"%s\": attr.size", name);
	}

	FUZZ_ASSERT(pmu_event_encode(name, "cpu", &again) == ret, "\"%s\": not repeatable",
		name);
	FUZZ_ASSERT(memcmp(&desc, &again, sizeof(desc)) == 0, "\"%s\": not repeatable", name);
	return ret;
}
