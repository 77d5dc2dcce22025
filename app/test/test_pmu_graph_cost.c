/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* What a node call counts and costs, cases of pmu_graph_autotest
 * (test_pmu_graph.c, whose graph and setup they run on):
 *  - where counts are exact (the arm64 guest, QEMU -icount), a loop node's
 *    instructions per call are its loop's within the measurement residue
 *    (TEST_RESIDUE_MAX), the two loop nodes differ by exactly the loops'
 *    difference, and two runs give the same figures;
 *  - the wrapper's cost per node call, 2 and 4 events, every call and 1 in
 *    16 sampled: printed, and what the wrapper adds gated where counts are exact.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_graph.h>
#include <rte_graph_worker.h>
#include <rte_lcore.h>

#include <rte_pmu.h>
#include <rte_pmu_graph.h>

#include "test.h"
#include "test_pmu_graph.h"
#include "test_pmu_graph_cost.h"
#include "test_pmu_perf.h"

/* What a loop node's measured call may count besides its loop and the
 * residue of an empty stage (the begin after its counter read, the end
 * before its read, measured in the same run): the wrapper's call of the
 * node through its slot, the node function's entry and exit and its call
 * of the loop.
 */
#define TEST_CALL_MAX 24
/* Issue 32's goals, printed: a node call costs at most a stage pair + 10
 * instructions, and 30 on average sampled 1 in 16. The wrapper of this
 * release is plain C: a call through the node's slot that tests the
 * stage's begin inline, then goes on by a tail call, either to the node
 * and the stage's end (a call not measured) or to the node between the
 * stage's out-of-line begin and end (a measured one). It adds about 35 at
 * every call and 30 sampled. The gate, where counts are exact, is what it
 * adds, so that a dearer wrapper fails.
 */
#define GOAL_OVER_PAIR 10
#define GOAL_SAMPLED 30
#define GATE_OVER_PAIR 37

/* Instructions per call of the loop nodes over WALKS walks, after one walk
 * that lets the lcore learn the stages (its first calls take the slow path).
 * Where a walk counted more than its loops (the kernel changed a counter's
 * page meanwhile, and a call read the counters again), the walks run
 * again, at most 4 times.
 */
static int
loop_figures(uint64_t *a, uint64_t *b)
{
	struct rte_graph *graph = test_pmu_graph_main();
	struct rte_pmu_stage_stats st0[3], st1[3];
	unsigned int tries = 0;
	uint64_t va, vb;

	TEST_ASSERT_SUCCESS(rte_pmu_graph_enable(graph), "enable");
	do {
		TEST_ASSERT_SUCCESS(pg_walk_counted(1, st0), "walk");
		TEST_ASSERT_SUCCESS(pg_walk_counted(WALKS, st1), "walk");
		va = st1[1].values[pg_idx_instr] - st0[1].values[pg_idx_instr];
		vb = st1[2].values[pg_idx_instr] - st0[2].values[pg_idx_instr];
	} while ((va % WALKS != 0 || vb % WALKS != 0) && ++tries < 4);
	TEST_ASSERT_SUCCESS(rte_pmu_graph_disable(graph), "disable");
	if (tries > 0)
		printf("pg_loop: %u run(s) again: a walk counted more than its loops\n", tries);
	TEST_ASSERT_EQUAL(st1[1].calls - st0[1].calls, (uint64_t)WALKS, "calls");
	*a = va / WALKS;
	*b = vb / WALKS;
	TEST_ASSERT_EQUAL(va % WALKS, 0, "pg_loop_a: same count every call (%" PRIu64
		" over %u calls)", va, WALKS);
	TEST_ASSERT_EQUAL(vb % WALKS, 0, "pg_loop_b: same count every call (%" PRIu64
		" over %u calls)", vb, WALKS);

	return TEST_SUCCESS;
}

/* Instructions an empty stage counts per call: the stage API's residue. */
static uint64_t
empty_residue(void)
{
	struct rte_pmu_stage_stats st0, st1;
	int id = rte_pmu_stage_register("pg_empty");
	unsigned int k;

	if (id < 0)
		return UINT64_MAX;
	/* The first call takes the slow path (the lcore learns the stage). */
	rte_pmu_stage_begin(id);
	rte_pmu_stage_end(id, 1);
	if (rte_pmu_stage_stats_get(rte_lcore_id(), id, &st0) != 0)
		return UINT64_MAX;
	for (k = 0; k < 64; k++) {
		rte_pmu_stage_begin(id);
		rte_pmu_stage_end(id, 1);
	}
	if (rte_pmu_stage_stats_get(rte_lcore_id(), id, &st1) != 0 ||
			st1.calls - st0.calls != 64)
		return UINT64_MAX;
	return (st1.values[pg_idx_instr] - st0.values[pg_idx_instr]) / 64;
}

int
test_loop_exact(void)
{
	uint64_t a1, b1, a2, b2, r;

	if (!perf_counts_exact(pg_idx_instr, pg_idx_cycles))
		TEST_SKIP("instruction counts are not exact on this machine "
			"(the arm64 guest under QEMU -icount runs this case)");
	r = empty_residue();
	TEST_ASSERT(r != UINT64_MAX, "empty stage");
	TEST_ASSERT_SUCCESS(loop_figures(&a1, &b1), "first run");
	printf("pg_loop_a: %" PRIu64 " instructions per call (loop %u), pg_loop_b: %" PRIu64
		" (loop %u); an empty stage counts %" PRIu64 "\n", a1, LOOP_A * pg_loop_insns,
		b1, LOOP_B * pg_loop_insns, r);
	TEST_ASSERT(a1 >= LOOP_A * pg_loop_insns + r &&
		a1 <= LOOP_A * pg_loop_insns + r + TEST_CALL_MAX,
		"pg_loop_a: %" PRIu64 " per call, loop %u + empty stage %" PRIu64 " + at most %u",
		a1, LOOP_A * pg_loop_insns, r, TEST_CALL_MAX);
	TEST_ASSERT_EQUAL(b1 - a1, (uint64_t)(LOOP_B - LOOP_A) * pg_loop_insns,
		"the loop nodes differ by their loops exactly");
	/* Fresh stages, the same figures. */
	rte_pmu_fini();
	TEST_ASSERT_SUCCESS(test_pmu_graph_setup(), "setup again");
	TEST_ASSERT_SUCCESS(loop_figures(&a2, &b2), "second run");
	TEST_ASSERT_EQUAL(a1, a2, "pg_loop_a repeats");
	TEST_ASSERT_EQUAL(b1, b2, "pg_loop_b repeats");

	return TEST_SUCCESS;
}

/* Rounds of each cost measurement, of which the least counts: what comes
 * now and then in a round only adds to it: the other CPU's work (QEMU
 * keeps one instruction count for all CPUs of the guest), or a user page
 * update, which the next measured call then handles. Each round holds
 * whole sampling periods.
 */
#define COST_ROUNDS 5

/* Instructions per walk over @p walks walks, the least of COST_ROUNDS. */
static double
walk_cost(unsigned int walks)
{
	struct rte_graph *graph = test_pmu_graph_main();
	double best = 0;
	uint64_t i0, i1;
	unsigned int k, r;

	for (r = 0; r < COST_ROUNDS; r++) {
		i0 = rte_pmu_read(pg_idx_instr);
		for (k = 0; k < walks; k++)
			rte_graph_walk(graph);
		i1 = rte_pmu_read(pg_idx_instr);
		if (r == 0 || (double)(i1 - i0) / walks < best)
			best = (double)(i1 - i0) / walks;
	}

	return best;
}

/* Instructions per begin/end pair of a stage around nothing, the least of
 * COST_ROUNDS.
 */
static double
pair_cost(unsigned int id, unsigned int n)
{
	double best = 0, cost;
	uint64_t i0, i1, i2;
	unsigned int k, r;

	for (r = 0; r < COST_ROUNDS; r++) {
		i0 = rte_pmu_read(pg_idx_instr);
		for (k = 0; k < n; k++)
			rte_compiler_barrier();
		i1 = rte_pmu_read(pg_idx_instr);
		for (k = 0; k < n; k++) {
			rte_pmu_stage_begin(id);
			rte_pmu_stage_end(id, 1);
			rte_compiler_barrier();
		}
		i2 = rte_pmu_read(pg_idx_instr);
		cost = ((double)(i2 - i1) - (double)(i1 - i0)) / n;
		if (r == 0 || cost < best)
			best = cost;
	}

	return best;
}

/* The wrapper's cost per node call with the events of the setup: the
 * walk of the three nodes with the drop-in off, on, and sampled 1 in 16,
 * against a stage begin/end pair alone (every call, and sampled 1 in 16).
 */
static int
wrapper_cost(unsigned int num_events)
{
	struct rte_graph *graph = test_pmu_graph_main();
	double off, on, sampled, pair, pair16, per_on, per_sampled;
	unsigned int i, calls = RTE_DIM(pg_node_names);
	bool exact = perf_counts_exact(pg_idx_instr, pg_idx_cycles);
	int id, id16, failed = 0;

	if (pg_idx_instr == UINT32_MAX)
		TEST_SKIP("no instructions event here: the cost is counted in the arm64 guest");
	id = rte_pmu_stage_register("pg_pair");
	id16 = rte_pmu_stage_register("pg_pair16");
	TEST_ASSERT(id >= 0 && id16 >= 0, "register pg_pair, pg_pair16");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(id16, 16), "sampling");
	walk_cost(WALKS); /* warm */
	off = walk_cost(WALKS);
	TEST_ASSERT_SUCCESS(rte_pmu_graph_enable(graph), "enable");
	walk_cost(WALKS);
	on = walk_cost(WALKS);
	for (i = 0; i < calls; i++)
		TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(
			rte_pmu_stage_register(pg_node_names[i]), 16), "sampling");
	walk_cost(WALKS);
	sampled = walk_cost(WALKS * 4);
	TEST_ASSERT_SUCCESS(rte_pmu_graph_disable(graph), "disable");
	pair_cost(id, 64);
	pair = pair_cost(id, 256);
	pair_cost(id16, 64);
	pair16 = pair_cost(id16, 1024);
	per_on = (on - off) / calls;
	per_sampled = (sampled - off) / calls;

	printf("pmu_graph wrapper cost, %u events (%s)\n", num_events,
		exact ? "exact: gated" : "counts not exact here: printed");
	printf("  walk of %u nodes: %.1f instructions off, %.1f on, %.1f sampled 1 in 16\n",
		calls, off, on, sampled);
	printf("  %-34s %8.1f  (stage pair alone %.1f: wrapper +%.1f)\n",
		"per node call, every call:", per_on, pair, per_on - pair);
	printf("  %-34s %8.1f  (stage pair alone %.1f: wrapper +%.1f)\n",
		"per node call, sampled 1 in 16:", per_sampled, pair16, per_sampled - pair16);
	printf("  goal every call: pair + %d = %.1f: %s; goal sampled: %d: %s\n",
		GOAL_OVER_PAIR, pair + GOAL_OVER_PAIR,
		per_on <= pair + GOAL_OVER_PAIR ? "met" : "missed", GOAL_SAMPLED,
		per_sampled <= GOAL_SAMPLED ? "met" : "missed");
	if (exact) {
		printf("  gate: a node call at most the stage pair + %d, every call and "
			"sampled: %s\n", GATE_OVER_PAIR, per_on - pair <= GATE_OVER_PAIR &&
			per_sampled - pair16 <= GATE_OVER_PAIR ? "pass" : "FAIL");
		failed += per_on - pair > GATE_OVER_PAIR;
		failed += per_sampled - pair16 > GATE_OVER_PAIR;
	}
	TEST_ASSERT_EQUAL(failed, 0, "%d gate(s) failed", failed);

	return TEST_SUCCESS;
}

int
test_cost_2_events(void)
{
	return wrapper_cost(2);
}

int
test_cost_4_events(void)
{
	return wrapper_cost(4);
}
