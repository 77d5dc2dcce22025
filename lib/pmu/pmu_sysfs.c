/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The sysfs side of the library: files under <root>/<pmu>/ and the format
 * specifications of format/<term> ("config:0-7,32-35").
 *
 * Every path is built from a PMU folder name and a relative path whose
 * components are checked first: none may be empty, ".", contain ".." or a
 * '/' of its own, so no name can lead a lookup out of the sysfs root.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include "pmu_retry.h"
#include "pmu_sysfs.h"

/* Attribute files are one short line; a type file is a decimal number. */
#define PMU_SYSFS_TYPE_MAX 32
#define PMU_SYSFS_FORMAT_MAX 256

static char sysfs_root[PATH_MAX] = PMU_SYSFS_ROOT_DEFAULT;

int
__rte_pmu_sysfs_root_set(const char *root)
{
	size_t len;

	if (root == NULL)
		root = PMU_SYSFS_ROOT_DEFAULT;

	len = strlen(root);
	if (len == 0)
		return -EINVAL;
	if (len >= sizeof(sysfs_root))
		return -ENAMETOOLONG;

	memcpy(sysfs_root, root, len + 1);
	return 0;
}

const char *
pmu_sysfs_root(void)
{
	return sysfs_root;
}

bool
pmu_sysfs_name_valid(const char *s, size_t len, enum pmu_name_kind kind)
{
	size_t i;
	char c;

	if (len == 0)
		return false;
	if (len == 1 && s[0] == '.')
		return false;
	if (kind == PMU_NAME_PMU && len >= PMU_NAME_MAX)
		return false;
	for (i = 0; i < len; i++) {
		c = s[i];
		if (c == '/' || c == '\0')
			return false;
		if (c == '.' && i + 1 < len && s[i + 1] == '.')
			return false;
		if (kind == PMU_NAME_WORD && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				(c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
			return false;
	}
	return true;
}

/* A relative path made of valid components ("events/cpu-cycles"). */
static bool
rel_valid(const char *rel)
{
	const char *slash;

	for (;;) {
		slash = strchr(rel, '/');
		if (slash == NULL)
			return pmu_sysfs_name_valid(rel, strlen(rel), PMU_NAME_COMPONENT);
		if (!pmu_sysfs_name_valid(rel, slash - rel, PMU_NAME_COMPONENT))
			return false;
		rel = slash + 1;
	}
}

/* Build <root>/<pmu_name>[/<rel>] in @p path. */
static int
sysfs_path(char *path, size_t size, const char *pmu_name, const char *rel)
{
	int n;

	if (pmu_name == NULL ||
			!pmu_sysfs_name_valid(pmu_name, strlen(pmu_name), PMU_NAME_COMPONENT))
		return -EINVAL;
	if (rel != NULL && !rel_valid(rel))
		return -EINVAL;

	if (rel != NULL)
		n = snprintf(path, size, "%s/%s/%s", sysfs_root, pmu_name, rel);
	else
		n = snprintf(path, size, "%s/%s", sysfs_root, pmu_name);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

/* Read at most @p len - 1 bytes of @p fd; -EOVERFLOW when more follow. A
 * transient failure is tried again (pmu_retry.h), up to PMU_RETRIES times
 * over the whole file.
 */
static int
fd_read_all(int fd, char *buf, size_t len)
{
	unsigned int retries = 0;
	size_t total = 0;
	ssize_t n;
	char extra;

	while (total < len - 1) {
		n = read(fd, buf + total, len - 1 - total);
		if (n < 0) {
			if (pmu_retry(&retries))
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		total += (size_t)n;
	}
	buf[total] = '\0';

	if (total == len - 1) {
		do {
			n = read(fd, &extra, 1);
		} while (n < 0 && pmu_retry(&retries));
		if (n < 0)
			return -errno;
		if (n > 0)
			return -EOVERFLOW;
	}
	return 0;
}

int
pmu_sysfs_read(const char *pmu_name, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	size_t n;
	int ret;
	int fd;

	if (rel == NULL || buf == NULL || len == 0)
		return -EINVAL;

	ret = sysfs_path(path, sizeof(path), pmu_name, rel);
	if (ret != 0)
		return ret;

	PMU_RETRY(fd = open(path, O_RDONLY | O_CLOEXEC), fd < 0);
	if (fd < 0)
		return -errno;
	ret = fd_read_all(fd, buf, len);
	close(fd);
	if (ret != 0) {
		buf[0] = '\0';
		return ret;
	}

	n = strlen(buf);
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return (int)n;
}

int
pmu_sysfs_type(const char *pmu_name, uint32_t *type)
{
	char buf[PMU_SYSFS_TYPE_MAX];
	uint64_t value = 0;
	const char *p;
	int ret;

	if (type == NULL)
		return -EINVAL;

	ret = pmu_sysfs_read(pmu_name, "type", buf, sizeof(buf));
	if (ret < 0)
		return ret;
	if (ret == 0)
		return -EINVAL;

	p = buf;
	ret = pmu_parse_u64(&p, 10, UINT32_MAX, &value);
	if (ret != 0)
		return ret;
	if (*p != '\0')
		return -EINVAL;

	*type = (uint32_t)value;
	return 0;
}

bool
pmu_sysfs_pmu_exists(const char *pmu_name)
{
	char path[PATH_MAX];
	struct stat st;

	if (sysfs_path(path, sizeof(path), pmu_name, NULL) != 0)
		return false;
	if (stat(path, &st) != 0)
		return false;
	return S_ISDIR(st.st_mode);
}

/* Value of digit @p c in @p base (10 or 16), or UINT_MAX. */
static unsigned int
digit(char c, unsigned int base)
{
	if (c >= '0' && c <= '9')
		return (unsigned int)(c - '0');
	if (base == 16 && c >= 'a' && c <= 'f')
		return (unsigned int)(c - 'a') + 10;
	if (base == 16 && c >= 'A' && c <= 'F')
		return (unsigned int)(c - 'A') + 10;
	return UINT_MAX;
}

int
pmu_parse_u64(const char **p, unsigned int base, uint64_t max, uint64_t *value)
{
	const char *s = *p;
	uint64_t v = 0;
	unsigned int d;

	if (digit(*s, base) == UINT_MAX)
		return -EINVAL;
	for (; (d = digit(*s, base)) != UINT_MAX; s++) {
		if (d > max || v > (max - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*p = s;
	*value = v;
	return 0;
}

/* A decimal bit number (0-63) at *@p p; advances *@p p. -EINVAL otherwise. */
static int
parse_bit(const char **p, unsigned int *bit)
{
	uint64_t v;

	if (pmu_parse_u64(p, 10, 63, &v) != 0)
		return -EINVAL;
	*bit = (unsigned int)v;
	return 0;
}

/* Width of a run of bits: 1..64. */
static uint64_t
low_mask(unsigned int width)
{
	return width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

int
pmu_format_apply(const char *spec, uint64_t value, struct perf_event_attr *attr)
{
	unsigned int lo[64];
	unsigned int hi[64];
	unsigned int nr = 0;
	unsigned int width = 0;
	unsigned int i, w;
	uint64_t mask = 0;
	uint64_t range, bits;
	__u64 *field;
	const char *p;
	int ret;

	if (spec == NULL || attr == NULL)
		return -EINVAL;

	/* Field name. */
	if (strncmp(spec, "config2:", 8) == 0) {
		field = &attr->config2;
		p = spec + 8;
	} else if (strncmp(spec, "config1:", 8) == 0) {
		field = &attr->config1;
		p = spec + 8;
	} else if (strncmp(spec, "config:", 7) == 0) {
		field = &attr->config;
		p = spec + 7;
	} else {
		return -EINVAL;
	}

	/* Parse every range before touching attr. */
	for (;;) {
		if (nr == RTE_DIM(lo))
			return -EINVAL;
		ret = parse_bit(&p, &lo[nr]);
		if (ret != 0)
			return ret;
		hi[nr] = lo[nr];
		if (*p == '-') {
			p++;
			ret = parse_bit(&p, &hi[nr]);
			if (ret != 0)
				return ret;
			if (lo[nr] > hi[nr])
				return -EINVAL;
		}
		w = hi[nr] - lo[nr] + 1;
		range = low_mask(w) << lo[nr];
		/* Overlapping ranges have no meaning. */
		if ((mask & range) != 0)
			return -EINVAL;
		mask |= range;
		width += w;
		nr++;
		if (*p != ',')
			break;
		p++;
	}
	/* Only the trailing newlines may follow. */
	while (*p == '\n')
		p++;
	if (*p != '\0')
		return -EINVAL;

	if (width < 64 && (value >> width) != 0)
		return -ERANGE;

	bits = 0;
	for (i = 0; i < nr; i++) {
		w = hi[i] - lo[i] + 1;
		bits |= (value & low_mask(w)) << lo[i];
		value = w >= 64 ? 0 : value >> w;
	}
	*field = (*field & ~mask) | bits;
	return 0;
}

int
pmu_sysfs_format_apply(const char *pmu_name, const char *term, uint64_t value,
	struct perf_event_attr *attr)
{
	char spec[PMU_SYSFS_FORMAT_MAX];
	char rel[PMU_SYSFS_FORMAT_MAX];
	int n;
	int ret;

	if (term == NULL || attr == NULL)
		return -EINVAL;
	if (!pmu_sysfs_name_valid(term, strlen(term), PMU_NAME_COMPONENT))
		return -EINVAL;

	n = snprintf(rel, sizeof(rel), "format/%s", term);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return -EINVAL;

	ret = pmu_sysfs_read(pmu_name, rel, spec, sizeof(spec));
	if (ret < 0)
		return ret;
	return pmu_format_apply(spec, value, attr);
}

int
pmu_sysfs_format_config1(const char *pmu_name, const char *term, uint64_t *bits)
{
	struct perf_event_attr probe;
	int ret;

	/* Clearing the term's bits shows which of config1 it owns. */
	memset(&probe, 0, sizeof(probe));
	probe.config1 = UINT64_MAX;
	ret = pmu_sysfs_format_apply(pmu_name, term, 0, &probe);
	if (ret != 0)
		return ret;
	*bits = ~probe.config1;

	return 0;
}
