/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_GRAPH_H
#define TEST_PMU_GRAPH_H

/* The fixture of test_pmu_graph.c that test_pmu_graph_size.c shares: rte_pmu
 * with two events (hardware where there are, else software), the lcore's
 * group open, and the three-node graph of pg_src, pg_loop_a and pg_loop_b.
 */

#include <rte_graph.h>
#include <rte_pmu.h>

/* A unit test case's setup and teardown: rte_pmu up with two events and
 * the graph made (once); every graph disabled and rte_pmu down.
 */
int test_pmu_graph_setup(void);
void test_pmu_graph_teardown(void);
/* The three-node graph, NULL before the first setup. */
struct rte_graph *test_pmu_graph_main(void);
/* Destroy it, at the end of a suite. */
void test_pmu_graph_destroy(void);
/* rte_pmu_graph_node_stats_get(). */
int test_pmu_graph_node_stats(const char *name, unsigned int lcore,
	struct rte_pmu_stage_stats *st);

#endif
