/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_GRAPH_COST_H
#define TEST_PMU_GRAPH_COST_H

/* The parts of pmu_graph_autotest: the graph, its setup, the suite and the
 * cases of enable, disable and the figures in test_pmu_graph.c; what a
 * node call counts and costs in test_pmu_graph_cost.c.
 */

#include <rte_pmu_stage.h>

/* Iterations of test_loop() in pg_loop_a and pg_loop_b. */
#define LOOP_A 1000
#define LOOP_B 3000
/* Instructions of an iteration of those loops: TEST_LOOP_INSNS of
 * test_pmu_loop.h (test_pmu_graph.c).
 */
extern const unsigned int pg_loop_insns;
/* Walks of a measurement. */
#define WALKS 64

/* The graph's nodes: pg_src, pg_loop_a, pg_loop_b (test_pmu_graph.c). */
#define PG_NODES 3
extern const char *const pg_node_names[PG_NODES];
/* Indexes of instructions and cycles in the setup's events, UINT32_MAX
 * where not added.
 */
extern unsigned int pg_idx_instr, pg_idx_cycles;

/* Stats of the three nodes on this lcore, after @p walks walks. */
int pg_walk_counted(unsigned int walks, struct rte_pmu_stage_stats *st);

/* test_pmu_graph_cost.c */
int test_loop_exact(void);
int test_cost_2_events(void);
int test_cost_4_events(void);

#endif /* TEST_PMU_GRAPH_COST_H */
