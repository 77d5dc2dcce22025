/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_SYSFS_H
#define PMU_SYSFS_H

/* The PMU folders under sysfs: files, types, format terms. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

/** Default root of the PMU folders. */
#define PMU_SYSFS_ROOT_DEFAULT "/sys/bus/event_source/devices"

/** Longest PMU folder name kept. */
#define PMU_NAME_MAX 64

/** What a name part may hold (pmu_sysfs_name_valid()). */
enum pmu_name_kind {
	/** Any byte but '/' and NUL: a path component (folder, file). */
	PMU_NAME_COMPONENT,
	/** A component that fits PMU_NAME_MAX with its NUL: a PMU folder. */
	PMU_NAME_PMU,
	/** Letters, digits, '_', '-' and '.' only: a term or event word. */
	PMU_NAME_WORD,
};

/**
 * The one check of a name part that becomes a path under the sysfs root:
 * the @p len bytes at @p s are not empty, not ".", hold no ".." and no '/'
 * or NUL, and only what @p kind allows.
 */
bool pmu_sysfs_name_valid(const char *s, size_t len, enum pmu_name_kind kind);

/** Current sysfs root (default, or set by __rte_pmu_sysfs_root_set()). */
const char *pmu_sysfs_root(void);

/**
 * Read a file under <root>/<pmu>/<rel> into @p buf, trailing newline
 * stripped. Returns length >= 0, or negative errno: -ENOENT missing;
 * -EOVERFLOW longer than @p len - 1 bytes; the errno of open() or read()
 * otherwise (EINTR, EAGAIN and EBUSY are tried again, see pmu_retry.h).
 */
int pmu_sysfs_read(const char *pmu, const char *rel, char *buf, size_t len);


/**
 * The one number parser: the digits of @p base (10 or 16) at *@p p into
 * @p value, and *@p p moved past them; the caller checks what follows
 * (nothing for a whole value, '-' or ',' in sysfs lists). Returns 0;
 * -EINVAL no digit at *@p p; -ERANGE above @p max (*@p p not moved).
 */
int pmu_parse_u64(const char **p, unsigned int base, uint64_t max, uint64_t *value);

/** Read <root>/<pmu>/type. Returns 0 or negative errno. */
int pmu_sysfs_type(const char *pmu, uint32_t *type);

/** True if <root>/<pmu> is a folder. */
bool pmu_sysfs_pmu_exists(const char *pmu);

/**
 * Place @p value in the attr fields that the format term @p term of @p pmu
 * names (<root>/<pmu>/format/<term>, e.g. "config:0-7,32-35" or
 * "config1:1"). Bits of @p value fill the ranges in order, low bits first.
 * Returns 0; -ENOENT no such term; -ERANGE value wider than the field;
 * -EINVAL malformed format file or term name; another negative errno from
 * reading the file, as pmu_sysfs_read() (-EOVERFLOW: too long).
 */
int pmu_sysfs_format_apply(const char *pmu, const char *term, uint64_t value,
	struct perf_event_attr *attr);

/**
 * Which config1 bits the format term @p term of @p pmu owns, in @p bits
 * (0 when the term places its value elsewhere). Returns as
 * pmu_sysfs_format_apply().
 */
int pmu_sysfs_format_config1(const char *pmu, const char *term, uint64_t *bits);

/**
 * Parse a format specification ("config:0-7,32-35") and place @p value.
 * Pure function behind pmu_sysfs_format_apply(), exposed for tests.
 */
int pmu_format_apply(const char *spec, uint64_t value, struct perf_event_attr *attr);

/**
 * Use @p root instead of /sys/bus/event_source/devices (NULL restores it).
 * For tests on fixture trees; takes effect at the next rte_pmu_init().
 */
int __rte_pmu_sysfs_root_set(const char *root);

#endif /* PMU_SYSFS_H */
