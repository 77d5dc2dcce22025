/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_FIXTURE_H
#define TEST_PMU_FIXTURE_H

#include <stdint.h>

#include <linux/perf_event.h>

/* Fixture sysfs trees (see test_pmu_fixture.c for their content). */

/* The fixture's folder, "" when not made. */
extern char fixture_dir[32];

/* Make the trees: a suite setup. */
int pmu_fixture_setup(void);
/* Restore the default sysfs root and remove the trees: a suite teardown. */
void pmu_fixture_teardown(void);
/* Add a file, or a symbolic link to @p target, at @p path under
 * fixture_dir (folders made as needed). Return 0 or -1 (printed).
 */
int pmu_fixture_file(const char *path, const char *content);
int pmu_fixture_link(const char *path, const char *target);
/* Use the tree of @arch ("x86", "amd", "arm64", "hybrid", "biglittle") as the
 * sysfs root.
 */
int use_root(const char *arch);

/* Expected encoding: @p levels holds the privilege levels counted ("u",
 * "uk", "k", "h", ...); every other field zero.
 */
void pmu_want_attr(struct perf_event_attr *attr, uint32_t type, uint64_t config,
	const char *levels);
/* Encode @p name for @p core_pmu: the whole attr equals @p want, PMU folder
 * @p pmu_name. Returns TEST_SUCCESS or TEST_FAILED (with the difference).
 */
int pmu_check_attr(const char *name, const char *core_pmu, const struct perf_event_attr *want,
	const char *pmu_name);
/* Encoding @p name for @p core_pmu fails with @p err and leaves nothing. */
int pmu_check_fail(const char *name, const char *core_pmu, int err);

/* rte_pmu_init() on the real kernel: TEST_SUCCESS; TEST_FAILED (printed)
 * where perf_event exists (PMU_SYSFS_ROOT_DEFAULT is there); TEST_SKIPPED
 * with the reason only where it does not.
 */
int pmu_init_real(void);

#endif /* TEST_PMU_FIXTURE_H */
