/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_graph_autotest: librte_pmu_graph on a graph of test nodes.
 *
 * The graph: a source node that hands BURST objects to two sink nodes,
 * each running the fixed loop of test_pmu_loop.h (LOOP_A and LOOP_B
 * iterations) and nothing else. Checks:
 *  - misuse: NULL, unknown, enabled twice, disabled when not enabled;
 *  - enable wraps every node and disable puts the original back;
 *  - calls and items per node, on the walking lcore and summed;
 *  - sampled, nested in a measured stage, and nested too deep.
 * What a node call counts and costs: test_pmu_graph_cost.c. Graphs of
 * real size are test_pmu_graph_size.c's, on this file's setup.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_graph.h>
#include <rte_graph_worker.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include <rte_pmu.h>
#include <rte_pmu_graph.h>

#include "test.h"
#include "test_pmu_graph.h"
#include "test_pmu_graph_cost.h"
#include "test_pmu_perf.h"
#include "test_pmu_loop.h"

#define BURST 32
#define GRAPH_NAME "pmu_graph_test"

static void *fake_objs[BURST];

static uint16_t
src_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t nb_objs)
{
	RTE_SET_USED(objs);
	RTE_SET_USED(nb_objs);
	rte_node_enqueue(graph, node, 0, fake_objs, BURST);
	rte_node_enqueue(graph, node, 1, fake_objs, BURST);

	return BURST;
}

static uint16_t
loop_a_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t nb_objs)
{
	RTE_SET_USED(graph);
	RTE_SET_USED(node);
	RTE_SET_USED(objs);
	test_loop(LOOP_A);

	return nb_objs;
}

static uint16_t
loop_b_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t nb_objs)
{
	RTE_SET_USED(graph);
	RTE_SET_USED(node);
	RTE_SET_USED(objs);
	test_loop(LOOP_B);

	return nb_objs;
}

static struct rte_node_register src_node = {
	.name = "pg_src",
	.flags = RTE_NODE_SOURCE_F,
	.process = src_process,
	.nb_edges = 2,
	.next_nodes = { "pg_loop_a", "pg_loop_b" },
};
RTE_NODE_REGISTER(src_node);

static struct rte_node_register loop_a_node = {
	.name = "pg_loop_a",
	.process = loop_a_process,
};
RTE_NODE_REGISTER(loop_a_node);

static struct rte_node_register loop_b_node = {
	.name = "pg_loop_b",
	.process = loop_b_process,
};
RTE_NODE_REGISTER(loop_b_node);

const unsigned int pg_loop_insns = TEST_LOOP_INSNS;

const char *const pg_node_names[PG_NODES] = { "pg_src", "pg_loop_a", "pg_loop_b" };

static struct rte_graph *graph;
static rte_graph_t graph_id = RTE_GRAPH_ID_INVALID;
unsigned int pg_idx_instr = UINT32_MAX, pg_idx_cycles = UINT32_MAX;

static int
graph_make(void)
{
	const char *patterns[] = { "pg_src", "pg_loop_a", "pg_loop_b" };
	struct rte_graph_param prm;

	memset(&prm, 0, sizeof(prm));
	prm.socket_id = SOCKET_ID_ANY;
	prm.nb_node_patterns = RTE_DIM(patterns);
	prm.node_patterns = patterns;
	graph_id = rte_graph_create(GRAPH_NAME, &prm);
	if (graph_id == RTE_GRAPH_ID_INVALID)
		return -1;
	graph = rte_graph_lookup(GRAPH_NAME);

	return graph != NULL ? 0 : -1;
}

/* Add events from @p names until @p want are in (the perf table's helper);
 * 0, or -1 when fewer could be added.
 */
static int
events_add(const char *const *names, unsigned int num, unsigned int want)
{
	unsigned int added;

	perf_idx_instr = perf_idx_cycles = UINT32_MAX;
	added = perf_add_events(names, num, want);
	pg_idx_instr = perf_idx_instr;
	pg_idx_cycles = perf_idx_cycles;
	return added == want ? 0 : -1;
}

static const char *const hw_events[] = {
	"instructions", "cycles", "inst_retired", "cpu_cycles",
	"branch-instructions", "branches", "br_retired", "l1d_cache", "mem_access",
	"cache-references", "bus-cycles",
};
static const char *const sw_events[] = { "task-clock", "context-switches" };

static int
setup_common(unsigned int num_events)
{
	int ret;

	pg_idx_instr = pg_idx_cycles = UINT32_MAX;
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "rte_pmu_init");
	if (events_add(hw_events, RTE_DIM(hw_events), num_events) != 0 ||
			pg_idx_instr == UINT32_MAX) {
		rte_pmu_fini();
		TEST_ASSERT_SUCCESS(rte_pmu_init(), "rte_pmu_init");
		pg_idx_instr = pg_idx_cycles = UINT32_MAX;
		if (events_add(sw_events, RTE_DIM(sw_events), 2) != 0) {
			rte_pmu_fini();
			TEST_SKIP("neither hardware nor software events can be added");
		}
	}
	ret = rte_pmu_lcore_open();
	if (ret != 0) {
		rte_pmu_fini();
		TEST_SKIP("rte_pmu_lcore_open: %s", strerror(-ret));
	}
	if (graph == NULL && graph_make() != 0) {
		rte_pmu_fini();
		TEST_ASSERT(0, "rte_graph_create: %s", strerror(rte_errno));
	}

	return TEST_SUCCESS;
}

int
test_pmu_graph_setup(void)
{
	return setup_common(2);
}

void
test_pmu_graph_teardown(void)
{
	rte_pmu_graph_disable_all();
	rte_pmu_fini();
}

int
test_pmu_graph_node_stats(const char *name, unsigned int lcore, struct rte_pmu_stage_stats *st)
{
	return rte_pmu_graph_node_stats_get(name, lcore, st);
}

static int
test_misuse(void)
{
	struct rte_pmu_stage_stats st;
	FILE *log, *saved;
	char *text = NULL;
	size_t len = 0;
	bool found;
	int ret;

	TEST_ASSERT_EQUAL(rte_pmu_graph_enable(NULL), -EINVAL, "enable NULL");
	TEST_ASSERT_EQUAL(rte_pmu_graph_enable_by_name(NULL), -EINVAL, "enable NULL name");
	TEST_ASSERT_EQUAL(rte_pmu_graph_enable_by_name("no_such_graph"), -ENOENT,
		"enable an unknown graph");
	TEST_ASSERT_EQUAL(rte_pmu_graph_disable(graph), -ENOENT, "disable, never enabled");
	TEST_ASSERT_EQUAL(rte_pmu_graph_disable_by_name("no_such_graph"), -ENOENT,
		"disable an unknown graph");
	TEST_ASSERT_EQUAL(rte_pmu_graph_disable(NULL), -EINVAL, "disable NULL");
	TEST_ASSERT_SUCCESS(rte_pmu_graph_enable_by_name(GRAPH_NAME), "enable by name");
	TEST_ASSERT_EQUAL(rte_pmu_graph_enable(graph), -EALREADY, "enable twice");
	TEST_ASSERT_SUCCESS(rte_pmu_graph_disable(graph), "disable");
	TEST_ASSERT_EQUAL(rte_pmu_graph_disable_by_name(GRAPH_NAME), -ENOENT,
		"disable twice");
	TEST_ASSERT_EQUAL(test_pmu_graph_node_stats(NULL, 0, &st), -EINVAL, "stats of NULL name");
	TEST_ASSERT_EQUAL(test_pmu_graph_node_stats("pg_src", 0, NULL), -EINVAL, "stats into NULL");
	TEST_ASSERT_EQUAL(test_pmu_graph_node_stats("pg_src", RTE_MAX_LCORE, &st), -EINVAL, "bad lcore");
	TEST_ASSERT_EQUAL(test_pmu_graph_node_stats("no_such_node", 0, &st), -ENOENT, "unknown node");
	TEST_ASSERT_EQUAL(test_pmu_graph_node_stats("no_such_node", 0, NULL), -EINVAL,
		"unknown node into NULL");
	/* After fini: no stage can be registered, nothing is changed. */
	rte_pmu_fini();
	TEST_ASSERT_EQUAL(rte_pmu_graph_enable(graph), -ENODEV, "enable before init");
	/* Said in a line of its own (it said nothing: an outside tester's find). */
	saved = rte_log_get_stream();
	log = open_memstream(&text, &len);
	TEST_ASSERT(log != NULL, "memstream");
	rte_openlog_stream(log);
	ret = test_pmu_graph_node_stats("pg_src", 0, &st);
	rte_openlog_stream(saved);
	fclose(log);
	found = text != NULL && strstr(text, "node stats: rte_pmu_init() not called") != NULL;
	free(text);
	TEST_ASSERT(ret == -ENODEV && found, "stats before init: %d, logged: %d", ret, found);
	TEST_ASSERT_EQUAL(rte_pmu_graph_disable(graph), -ENOENT, "not enabled by that");
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init again");

	return TEST_SUCCESS;
}

/* A graph left enabled across rte_pmu_fini(): its functions are put
 * back, so that its calls count in no stage of the next init (whose ids
 * its nodes' stages had), and it can be enabled again.
 */
static int
test_fini_enabled(void)
{
	struct rte_pmu_stage_stats st;
	unsigned int i;
	int other, ret;

	TEST_ASSERT_SUCCESS(rte_pmu_graph_enable(graph), "enable");
	rte_pmu_fini();
	ret = setup_common(2);
	if (ret != TEST_SUCCESS)
		return ret;
	other = rte_pmu_stage_register("pg_other");
	TEST_ASSERT(other >= 0, "register: %d", other);
	for (i = 0; i < 10; i++)
		rte_graph_walk(graph);
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), other, &st), "stats");
	printf("a graph left enabled across rte_pmu_fini(), walked 10 times after the next "
		"init: %" PRIu64 " calls in that init's stage %d\n", st.calls, other);
	TEST_ASSERT_EQUAL(st.calls, 0, "the graph's calls counted in a stage of the next init");
	TEST_ASSERT_SUCCESS(rte_pmu_graph_enable(graph), "enable after the next init");
	TEST_ASSERT_EQUAL(rte_pmu_graph_disable_all(), 1, "disable_all");

	return TEST_SUCCESS;
}

/* Wrapped while enabled, original after: every node. */
static int
test_wrap_restore(void)
{
	rte_node_process_t orig[8];
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;

	TEST_ASSERT(graph->nb_nodes == RTE_DIM(pg_node_names), "%u nodes", graph->nb_nodes);
	rte_graph_foreach_node(count, off, graph, node)
		orig[count] = node->process;
	TEST_ASSERT_SUCCESS(rte_pmu_graph_enable(graph), "enable");
	rte_graph_foreach_node(count, off, graph, node)
		TEST_ASSERT(node->process != orig[count], "node %s not wrapped", node->name);
	TEST_ASSERT_EQUAL(rte_pmu_graph_disable_all(), 1, "disable_all: one graph");
	rte_graph_foreach_node(count, off, graph, node)
		TEST_ASSERT(node->process == orig[count], "node %s not restored", node->name);
	TEST_ASSERT_EQUAL(rte_pmu_graph_disable_all(), 0, "disable_all: none left");

	return TEST_SUCCESS;
}

/* Stats of the three nodes on this lcore, before and after @p walks walks. */
int
pg_walk_counted(unsigned int walks, struct rte_pmu_stage_stats *st)
{
	unsigned int i, lcore = rte_lcore_id();

	for (i = 0; i < walks; i++)
		rte_graph_walk(graph);
	for (i = 0; i < RTE_DIM(pg_node_names); i++)
		TEST_ASSERT_SUCCESS(test_pmu_graph_node_stats(pg_node_names[i], lcore, &st[i]),
			"stats of %s", pg_node_names[i]);

	return TEST_SUCCESS;
}

/* Whether rte_pmu_stage_dump() gives an IPC column, in @p ipc; -1 where a
 * line of it ends with a blank (the (lcore total) row did, with IPC).
 */
static int
dump_has_ipc(bool *ipc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	f = open_memstream(&text, &len);
	TEST_ASSERT_NOT_NULL(f, "open_memstream");
	ret = rte_pmu_stage_dump(f);
	fclose(f);
	*ipc = text != NULL && strstr(text, " IPC\n") != NULL;
	if (text != NULL && strstr(text, " \n") != NULL) {
		printf("a dump line ends with a blank:\n%s", text);
		ret = -1;
	}
	free(text);
	return ret;
}

static int
test_calls_items(void)
{
	struct rte_pmu_stage_stats st[3], sum;
	unsigned int i;
	bool ipc;

	TEST_ASSERT_SUCCESS(rte_pmu_graph_enable(graph), "enable");
	TEST_ASSERT_SUCCESS(pg_walk_counted(WALKS, st), "walk");
	for (i = 0; i < RTE_DIM(pg_node_names); i++) {
		TEST_ASSERT_EQUAL(st[i].calls, (uint64_t)WALKS, "%s: calls", pg_node_names[i]);
		TEST_ASSERT_EQUAL(st[i].items, (uint64_t)WALKS * BURST, "%s: items",
			pg_node_names[i]);
		TEST_ASSERT_EQUAL(st[i].measured, (uint64_t)WALKS, "%s: measured",
			pg_node_names[i]);
		TEST_ASSERT_EQUAL(st[i].misuse, 0, "%s: misuse", pg_node_names[i]);
		TEST_ASSERT_SUCCESS(test_pmu_graph_node_stats(pg_node_names[i],
			RTE_PMU_GRAPH_ALL_LCORES, &sum), "sum");
		TEST_ASSERT_EQUAL(sum.calls, st[i].calls, "%s: one lcore walked: sum of calls",
			pg_node_names[i]);
		TEST_ASSERT_EQUAL(sum.items, st[i].items, "%s: sum of items", pg_node_names[i]);
	}
	/* The dump's IPC column, where cycles and instructions are counted
	 * (librte_pmu says where they are).
	 */
	TEST_ASSERT_SUCCESS(dump_has_ipc(&ipc), "dump");
	TEST_ASSERT_EQUAL(ipc, pg_idx_instr != UINT32_MAX && pg_idx_cycles != UINT32_MAX,
		"the dump's IPC column (instructions at %u, cycles at %u)", pg_idx_instr,
		pg_idx_cycles);
	/* Disabled: walks no longer counted. */
	TEST_ASSERT_SUCCESS(rte_pmu_graph_disable(graph), "disable");
	TEST_ASSERT_SUCCESS(pg_walk_counted(WALKS, st), "walk");
	for (i = 0; i < RTE_DIM(pg_node_names); i++)
		TEST_ASSERT_EQUAL(st[i].calls, (uint64_t)WALKS, "%s: calls after disable",
			pg_node_names[i]);

	return TEST_SUCCESS;
}

/* The node calls as stage calls: sampled 1 in 4 (calls and items exact, a
 * quarter measured), walked inside a measured stage (every node call
 * measured then for the outer stage's sake, the nodes' figures still from
 * their own quarter), and walked
 * nested too deep (no node call counted, each one misuse).
 */
static int
test_sampled_nested_full(void)
{
	struct rte_pmu_stage_stats st0[3], st1[3], outer, sum;
	unsigned int i, k, lcore = rte_lcore_id();
	int id, user[RTE_PMU_STAGE_DEPTH];
	char name[RTE_PMU_STAGE_NAME_MAX];

	TEST_ASSERT_SUCCESS(rte_pmu_graph_enable(graph), "enable");
	for (i = 0; i < RTE_DIM(pg_node_names); i++)
		TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(
			rte_pmu_stage_register(pg_node_names[i]), 4), "sampling of %s",
			pg_node_names[i]);
	TEST_ASSERT_SUCCESS(pg_walk_counted(WALKS, st0), "sampled walks");
	for (i = 0; i < RTE_DIM(pg_node_names); i++) {
		TEST_ASSERT_EQUAL(st0[i].calls, (uint64_t)WALKS, "%s: calls, sampled",
			pg_node_names[i]);
		TEST_ASSERT_EQUAL(st0[i].items, (uint64_t)WALKS * BURST, "%s: items, sampled",
			pg_node_names[i]);
		/* One in 4 at random: a quarter, within the draws' spread. */
		TEST_ASSERT(st0[i].measured >= WALKS / 8 && st0[i].measured <= WALKS / 2,
			"%s: %" PRIu64 " measured, 1 in 4 of %u", pg_node_names[i],
			st0[i].measured, WALKS);
		/* One lcore walked: its figures are the sum's, the estimate's
		 * spread and the inexact marks too.
		 */
		TEST_ASSERT_SUCCESS(test_pmu_graph_node_stats(pg_node_names[i],
			RTE_PMU_GRAPH_ALL_LCORES, &sum), "sum");
		TEST_ASSERT_EQUAL(sum.calls, st0[i].calls, "%s: sum of calls", pg_node_names[i]);
		TEST_ASSERT_EQUAL(sum.inexact, st0[i].inexact, "%s: sum's inexact marks",
			pg_node_names[i]);
		for (k = 0; k < st0[i].num_events; k++)
			TEST_ASSERT(isnan(sum.spread[k]) ? isnan(st0[i].spread[k]) :
				fabs(sum.spread[k] - st0[i].spread[k]) <= 1e-9 * (1 + st0[i].spread[k]),
				"%s: event %u: the sum's spread %g, the lcore's %g", pg_node_names[i],
				k, sum.spread[k], st0[i].spread[k]);
	}
	id = rte_pmu_stage_register("pg_outer");
	TEST_ASSERT(id >= 0, "register pg_outer");
	for (k = 0; k < WALKS; k++) {
		rte_pmu_stage_begin(id);
		rte_graph_walk(graph);
		rte_pmu_stage_end(id, 1);
	}
	TEST_ASSERT_SUCCESS(pg_walk_counted(0, st1), "stats");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(lcore, id, &outer), "outer stats");
	TEST_ASSERT_EQUAL(outer.calls, (uint64_t)WALKS, "pg_outer: calls");
	for (i = 0; i < RTE_DIM(pg_node_names); i++) {
		TEST_ASSERT_EQUAL(st1[i].calls - st0[i].calls, (uint64_t)WALKS,
			"%s: calls inside a measured stage", pg_node_names[i]);
		TEST_ASSERT(st1[i].measured - st0[i].measured >= WALKS / 8 &&
			st1[i].measured - st0[i].measured <= WALKS / 2,
			"%s: its own calls to measure, 1 in 4 of %u, inside a measured stage: "
			"%" PRIu64, pg_node_names[i], WALKS, st1[i].measured - st0[i].measured);
		TEST_ASSERT_EQUAL(st1[i].misuse, 0, "%s: misuse", pg_node_names[i]);
	}
	/* Nested too deep: with RTE_PMU_STAGE_DEPTH measured stages open,
	 * every node call is misuse on the node's stage, not a call.
	 */
	for (k = 0; k < RTE_DIM(user); k++) {
		snprintf(name, sizeof(name), "pg_user%u", k);
		user[k] = rte_pmu_stage_register(name);
		TEST_ASSERT(user[k] >= 0, "register %s", name);
	}
	for (k = 0; k < RTE_DIM(user); k++)
		rte_pmu_stage_begin(user[k]);
	TEST_ASSERT_SUCCESS(pg_walk_counted(WALKS, st0), "walks nested too deep");
	for (k = RTE_DIM(user); k > 0; k--)
		rte_pmu_stage_end(user[k - 1], 0);
	for (i = 0; i < RTE_DIM(pg_node_names); i++) {
		TEST_ASSERT_EQUAL(st0[i].calls, st1[i].calls, "%s: calls nested too deep",
			pg_node_names[i]);
		TEST_ASSERT(st0[i].misuse >= (uint64_t)WALKS, "%s: misuse %" PRIu64
			" nested too deep", pg_node_names[i], st0[i].misuse);
	}
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(lcore, user[0], &outer), "user stats");
	TEST_ASSERT_EQUAL(outer.calls, 1, "the user stages end as they began");

	return TEST_SUCCESS;
}

/* The setup of test_cost_4_events: four events. */
static int
setup_4(void)
{
	return setup_common(4);
}

static struct unit_test_suite pmu_graph_suite = {
	.suite_name = "pmu graph: lib/graph nodes as stages",
	.unit_test_cases = {
		TEST_CASE_ST(test_pmu_graph_setup, test_pmu_graph_teardown, test_misuse),
		TEST_CASE_ST(test_pmu_graph_setup, test_pmu_graph_teardown, test_wrap_restore),
		TEST_CASE_ST(test_pmu_graph_setup, test_pmu_graph_teardown, test_fini_enabled),
		TEST_CASE_ST(test_pmu_graph_setup, test_pmu_graph_teardown, test_calls_items),
		TEST_CASE_ST(test_pmu_graph_setup, test_pmu_graph_teardown, test_sampled_nested_full),
		TEST_CASE_ST(test_pmu_graph_setup, test_pmu_graph_teardown, test_loop_exact),
		TEST_CASE_ST(test_pmu_graph_setup, test_pmu_graph_teardown, test_cost_2_events),
		TEST_CASE_ST(setup_4, test_pmu_graph_teardown, test_cost_4_events),
		TEST_CASES_END()
	}
};

struct rte_graph *
test_pmu_graph_main(void)
{
	return graph;
}

void
test_pmu_graph_destroy(void)
{
	if (graph_id != RTE_GRAPH_ID_INVALID)
		rte_graph_destroy(graph_id);
	graph = NULL;
	graph_id = RTE_GRAPH_ID_INVALID;
}

static int
test_pmu_graph(void)
{
	int ret = unit_test_suite_runner(&pmu_graph_suite);

	test_pmu_graph_destroy();

	return ret;
}

REGISTER_FAST_TEST(pmu_graph_autotest, true, true, test_pmu_graph);
