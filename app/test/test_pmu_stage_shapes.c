/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Stage figures against known work where measuring is not what the
 * calibration measured alone: a chain after a stage with a child, a chain
 * inside a measured parent, chains and nests of stages at mixed periods, a
 * parent with children sampled or not. A stage's code costs the same
 * whatever its neighbours' periods, so where instructions are read from
 * the user page (the arm64 guest: exact counts) each self figure is its
 * loop's within a few instructions, and the same at every period mix.
 * Everywhere, calls are exact and the stages add up to no more than the
 * lcore's total.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "test.h"
#include "test_pmu_loop.h"

#define CALLS 2000u
#define LOOP 1000u                          /* iterations a unit of work */
#define WORK ((double)LOOP * TEST_LOOP_INSNS)
#define TOL 6.0        /* instructions a call: the program's calls, inline */
#define KIDS 8u

enum shape { AFTER_CHILD, IN_PARENT, DEEP, CHILDREN, SHAPES };
static const char *const shape_name[] = { "after-child", "in-parent", "deep", "children" };
/* Stages a shape uses, and each one's work in units (0: not checked). */
static const unsigned int used[] = { 3, 4, 4, 1 + KIDS };
static const unsigned int units[][1 + KIDS] = {
	{ 2, 1, 1 },    /* A { X } -> B */
	{ 2, 1, 1, 1 }, /* P { A -> B -> C } */
	{ 1, 1, 1, 1 }, /* D1 { D2 { D3 { D4 } } } */
	{ 0 },          /* P { 8 x C }: P's own loop of its children: no known work */
};

static bool exact;

/* Begin stage @p id, then its unit of work. */
static __rte_always_inline void
enter(int id)
{
	rte_pmu_stage_begin(id);
	test_loop(LOOP);
}

/* End stage @p from, begin @p to (a boundary), then a unit of work. */
static __rte_always_inline void
hop(int from, int to)
{
	rte_pmu_stage_next(from, 1, to);
	test_loop(LOOP);
}

static void
run_shape(enum shape shape, const int *s)
{
	unsigned int k;

	switch (shape) {
	case AFTER_CHILD:
		enter(s[0]);
		enter(s[1]);
		rte_pmu_stage_end(s[1], 1);
		test_loop(LOOP);
		hop(s[0], s[2]);
		rte_pmu_stage_end(s[2], 1);
		break;
	case IN_PARENT:
		enter(s[0]);
		enter(s[1]);
		hop(s[1], s[2]);
		hop(s[2], s[3]);
		rte_pmu_stage_end(s[3], 1);
		test_loop(LOOP);
		rte_pmu_stage_end(s[0], 1);
		break;
	case DEEP:
		enter(s[0]);
		enter(s[1]);
		enter(s[2]);
		enter(s[3]);
		rte_pmu_stage_end(s[3], 1);
		rte_pmu_stage_end(s[2], 1);
		rte_pmu_stage_end(s[1], 1);
		rte_pmu_stage_end(s[0], 1);
		break;
	default:
		enter(s[0]);
		for (k = 1; k <= KIDS; k++) {
			rte_pmu_stage_begin(s[k]);
			test_loop(LOOP / 4);
			rte_pmu_stage_end(s[k], 1);
		}
		rte_pmu_stage_end(s[0], 1);
		break;
	}
}

/* @p shape with its stages at @p periods (the last one for the rest):
 * checked, each stage's self figure a call into @p self; @p off set where
 * one is not its known work.
 */
static int
check_shape(enum shape shape, const unsigned int *periods, unsigned int n, double *self,
	bool *off)
{
	struct rte_pmu_stage_lcore_stats ls;
	struct rte_pmu_stage_stats st;
	char name[48], mix[32] = "";
	uint64_t sum = 0;
	unsigned int i;
	int s[1 + KIDS];
	double want;

	for (i = 0; i < n; i++)
		snprintf(mix + strlen(mix), sizeof(mix) - strlen(mix), "%s%u", i ? "," : "",
			periods[i]);
	for (i = 0; i < used[shape]; i++) {
		snprintf(name, sizeof(name), "%s-%u", shape_name[shape], i);
		s[i] = rte_pmu_stage_register(name);
		TEST_ASSERT(s[i] >= 0, "register %s: %d", name, s[i]);
		TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(s[i], periods[RTE_MIN(i, n - 1)]),
			"period of %s", name);
	}
	/* The lcore learns the stages at their first calls (its slow path,
	 * in the parent's call): before the reset.
	 */
	run_shape(shape, s);
	TEST_ASSERT_SUCCESS(rte_pmu_stage_reset(), "reset");
	for (i = 0; i < CALLS; i++)
		run_shape(shape, s);
	TEST_ASSERT_SUCCESS(rte_pmu_stage_lcore_stats_get(rte_lcore_id(), &ls), "lcore");
	for (i = 0; i < used[shape]; i++) {
		TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), s[i], &st), "stats");
		TEST_ASSERT_EQUAL(st.calls, (uint64_t)CALLS, "%s-%u: calls", shape_name[shape], i);
		self[i] = (double)st.self_values[0] / st.calls;
		sum += st.self_values[0];
		want = units[shape][i] * WORK;
		if (shape == CHILDREN && i > 0)
			want = WORK / 4;
		if (i < 4 || shape != CHILDREN)
			printf("%s (%s) stage %u: self %.2f a call (work %.0f)\n",
				shape_name[shape], mix, i, self[i], exact ? want : 0.0);
		if (exact && want != 0 && fabs(self[i] - want) > TOL) {
			printf("%s at periods %s, stage %u: %.2f instructions a call for %.0f "
				"of work\n", shape_name[shape], mix, i, self[i], want);
			*off = true;
		}
	}
	printf("%s (%s): stages %" PRIu64 ", lcore %" PRIu64 "\n", shape_name[shape], mix, sum,
		ls.total[0]);
	TEST_ASSERT(sum <= ls.total[0], "%s at periods %s: stages add up to %" PRIu64
		", above the lcore's %" PRIu64, shape_name[shape], mix, sum, ls.total[0]);
	return TEST_SUCCESS;
}

/* Each shape at its period mixes; where counts are exact, every stage's
 * figure the same at each mix as at the first (all at period 1) within 3
 * instructions: the code measured is the same (a chain's stage measured
 * for its parent's sake only leaves about 3 more in the next stage: 2,004.8
 * a call for 2,002 with the chain sampled 1 in 16). Its measuring landed in a
 * parent or the next stage as the calibration did not measure it: a
 * chain in a parent read 2,039 for 2,000, after a stage with a child
 * 2,021; a parent of 8 children read 2,060, 2,131 and 2,041 with them at
 * periods 1, 2 and 16 (an outside reviewer's finds).
 */
static int
test_stage_shapes(void)
{
	static const struct {
		enum shape shape;
		unsigned int n;
		unsigned int periods[4];
	} mixes[] = {
		{ AFTER_CHILD, 1, { 1 } }, { AFTER_CHILD, 3, { 1, 16, 1 } },
		{ AFTER_CHILD, 3, { 2, 1, 1 } },
		{ IN_PARENT, 1, { 1 } }, { IN_PARENT, 2, { 1, 16 } }, { IN_PARENT, 2, { 16, 1 } },
		{ IN_PARENT, 4, { 1, 2, 1, 4 } },
		{ DEEP, 1, { 1 } }, { DEEP, 4, { 1, 4, 1, 16 } }, { DEEP, 4, { 16, 1, 4, 1 } },
		{ CHILDREN, 1, { 1 } }, { CHILDREN, 2, { 1, 2 } }, { CHILDREN, 2, { 1, 16 } },
		{ CHILDREN, 2, { 16, 1 } },
	};
	double first[1 + KIDS], self[1 + KIDS];
	struct rte_pmu_lcore_info info;
	unsigned int m, i, tries, failed = 0;
	int ret = TEST_SUCCESS;
	bool off = false;

	rte_pmu_fini();
	if (rte_pmu_init() != 0 || (rte_pmu_add_event("instructions") != 0 &&
			rte_pmu_add_event("task-clock") != 0) || rte_pmu_lcore_open() != 0) {
		rte_pmu_fini();
		TEST_SKIP("no event opens here");
	}
	exact = rte_pmu_lcore_info_get(rte_lcore_id(), &info) == 0 &&
		strcmp(info.events[0].name, "instructions") == 0 &&
		info.events[0].path == RTE_PMU_PATH_USER && TEST_LOOP_INSNS != 0;
	for (m = 0; m < RTE_DIM(mixes) && ret == TEST_SUCCESS; m++) {
		for (tries = 0; tries < 3; tries++) {
			off = false;
			ret = check_shape(mixes[m].shape, mixes[m].periods, mixes[m].n, self, &off);
			if (ret != TEST_SUCCESS)
				break;
			for (i = 0; mixes[m].n > 1 && exact && i < used[mixes[m].shape]; i++)
				if (fabs(self[i] - first[i]) > 3.0) {
					printf("%s: stage %u read %.2f a call at mix %u, %.2f at "
						"period 1\n", shape_name[mixes[m].shape], i,
						self[i], m, first[i]);
					off = true;
				}
			if (!off)
				break;
			/* A measured call that read its counters again (the kernel
			 * changed a page meanwhile) counts that too: run again.
			 */
			printf("run again (%u)\n", tries + 1);
		}
		if (off) {
			printf("%s: FAIL, 3 runs\n", shape_name[mixes[m].shape]);
			failed++;
		}
		if (mixes[m].n == 1)
			memcpy(first, self, sizeof(first));
	}
	rte_pmu_fini();
	return failed != 0 ? TEST_FAILED : ret;
}

REGISTER_FAST_TEST(pmu_stage_shapes_autotest, true, true, test_stage_shapes);
