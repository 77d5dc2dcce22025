/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_autotest: the whole API against the real kernel, under the name
 * upstream DPDK's test and CI scripts run (and devtools/ci-observe.sh and
 * the valgrind stage of devtools/ci-sanitize.sh here). It runs the suites
 * of test_pmu_init.c, test_pmu_add.c, test_pmu_read.c and test_pmu_lcore.c,
 * which meson runs and counts as tests of their own; pmu_autotest itself
 * is therefore not in tests.list. Run with two lcores (-l 0-1).
 */

#include <rte_common.h>

#include "test.h"
#include "test_pmu_api.h"

static int
test_pmu(void)
{
	struct unit_test_suite *suites[] = {
		&pmu_init_suite, &pmu_add_suite, &pmu_read_suite, &pmu_lcore_suite,
	};
	int ret = TEST_SKIPPED;
	unsigned int i;

	for (i = 0; i < RTE_DIM(suites); i++) {
		switch (unit_test_suite_runner(suites[i])) {
		case TEST_SUCCESS:
			if (ret == TEST_SKIPPED)
				ret = TEST_SUCCESS;
			break;
		case TEST_SKIPPED:
			break;
		default:
			ret = TEST_FAILED;
			break;
		}
	}

	return ret;
}

REGISTER_FAST_TEST(pmu_autotest, true, true, test_pmu);
