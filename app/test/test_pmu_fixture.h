/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_FIXTURE_H
#define TEST_PMU_FIXTURE_H

/* Fixture sysfs trees (see test_pmu_fixture.c for their content). */

/* The fixture's folder, "" when not made. */
extern char fixture_dir[32];

/* Make the trees: a suite setup. */
int pmu_fixture_setup(void);
/* Restore the default sysfs root and remove the trees: a suite teardown. */
void pmu_fixture_teardown(void);
/* Use the tree of @arch ("x86", "amd", "arm64") as the sysfs root. */
int use_root(const char *arch);

#endif /* TEST_PMU_FIXTURE_H */
