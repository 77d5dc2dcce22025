/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_STAGE_SETUP_H
#define TEST_PMU_STAGE_SETUP_H

/* What the stage tests share: the library with one event on the calling
 * lcore, and a stage's figures read with a failure said.
 */

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "test.h"

/* Init with one event, instructions where it opens, task-clock else: its
 * name in @p name (may be NULL); the calling lcore's group open.
 */
static inline int
stage_setup_one(const char **name)
{
	const char *ev = "instructions";
	int idx;

	rte_pmu_fini();
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	idx = rte_pmu_add_event(ev);
	if (idx < 0) {
		ev = "task-clock";
		idx = rte_pmu_add_event(ev);
	}
	TEST_ASSERT_EQUAL(idx, 0, "add %s: %d", ev, idx);
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_open(), "lcore open");
	if (name != NULL)
		*name = ev;
	return TEST_SUCCESS;
}

/* Stage @p id's figures on @p lcore in @p s. */
static inline int
stage_get(unsigned int lcore, int id, struct rte_pmu_stage_stats *s)
{
	int ret = rte_pmu_stage_stats_get(lcore, id, s);

	TEST_ASSERT_SUCCESS(ret, "stats of stage %d on lcore %u: %d", id, lcore, ret);
	return TEST_SUCCESS;
}

#endif /* TEST_PMU_STAGE_SETUP_H */
