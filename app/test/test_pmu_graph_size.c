/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_graph_size_autotest: librte_pmu_graph on graphs of a real
 * application's size, on the setup of test_pmu_graph.c. Checks:
 *  - a graph of MANY_NODES cloned source nodes and a sink, one instance
 *    per lcore walked on two lcores at once: each node's calls and items
 *    on each lcore are what the node counted itself;
 *  - enable is all or nothing: a node name that cannot be a stage name,
 *    or more new names than stages left, fail with no stage registered
 *    and no node wrapped, the log naming the node or the graph;
 *  - a node name of 63 characters is a stage name.
 */

#include <errno.h>
#include <inttypes.h>
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

#define BURST 32
/* The graph of clones: source nodes per graph, walks on each lcore. */
#define MANY_NODES 300
#define MANY_WALKS 100
/* Stages left free when enable must fail for want of them. */
#define STAGES_LEFT 100
/* A clone name that makes a node name of 63 characters with "pg_long-". */
#define LONG_SUFFIX "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrs"

static void *fake_objs[BURST];

/* What the nodes of the other graphs count themselves, by node id: row 0
 * on the main lcore, row 1 on the worker.
 */
static uint64_t node_calls[2][RTE_PMU_GRAPH_MAX_NODES];
static uint64_t node_objs[2][RTE_PMU_GRAPH_MAX_NODES];

static unsigned int
counts_row(void)
{
	return rte_lcore_id() == rte_get_main_lcore() ? 0 : 1;
}

/* pg_rx (cloned): hands 0 to 3 objects to pg_sink, as its calls go. */
static uint16_t
rx_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t nb_objs)
{
	unsigned int row = counts_row();
	uint16_t n = (uint16_t)((node_calls[row][node->id] + node->id) % 4);

	RTE_SET_USED(objs);
	RTE_SET_USED(nb_objs);
	if (n != 0)
		rte_node_enqueue(graph, node, 0, fake_objs, n);
	node_calls[row][node->id]++;
	node_objs[row][node->id] += n;

	return n;
}

static uint16_t
sink_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t nb_objs)
{
	unsigned int row = counts_row();

	RTE_SET_USED(graph);
	RTE_SET_USED(objs);
	node_calls[row][node->id]++;
	node_objs[row][node->id] += nb_objs;

	return nb_objs;
}

static struct rte_node_register rx_node = {
	.name = "pg_rx",
	.flags = RTE_NODE_SOURCE_F,
	.process = rx_process,
	.nb_edges = 1,
	.next_nodes = { "pg_sink" },
};
RTE_NODE_REGISTER(rx_node);

/* Parent of a clone with a name that cannot be a stage name. */
static struct rte_node_register odd_node = {
	.name = "pg_odd",
	.flags = RTE_NODE_SOURCE_F,
	.process = rx_process,
	.nb_edges = 1,
	.next_nodes = { "pg_sink" },
};
RTE_NODE_REGISTER(odd_node);

/* Parent of a clone with the longest node name. */
static struct rte_node_register long_node = {
	.name = "pg_long",
	.flags = RTE_NODE_SOURCE_F,
	.process = rx_process,
	.nb_edges = 1,
	.next_nodes = { "pg_sink" },
};
RTE_NODE_REGISTER(long_node);

static struct rte_node_register sink_node = {
	.name = "pg_sink",
	.process = sink_process,
};
RTE_NODE_REGISTER(sink_node);

/* Graphs made by the cases besides the first, destroyed at the end. */
static rte_graph_t made[8];
static unsigned int num_made;


/* The clones: pg_rx-0 to pg_rx-<MANY_NODES - 1>, pg_odd-ok, pg_odd-x\x01y
 * (no stage name: a control character) and pg_long-LONG_SUFFIX; once.
 */
static int
clones_make(void)
{
	static bool done;
	char name[RTE_NODE_NAMESIZE];
	unsigned int i;

	if (done)
		return 0;
	for (i = 0; i < MANY_NODES; i++) {
		snprintf(name, sizeof(name), "%u", i);
		if (rte_node_clone(rx_node.id, name) == RTE_NODE_ID_INVALID)
			return -1;
	}
	if (rte_node_clone(odd_node.id, "ok") == RTE_NODE_ID_INVALID ||
			rte_node_clone(odd_node.id, "x\x01y") == RTE_NODE_ID_INVALID ||
			rte_node_clone(long_node.id, LONG_SUFFIX) == RTE_NODE_ID_INVALID)
		return -1;
	done = true;

	return 0;
}

/* Graph @p name of the nodes matching @p pattern and pg_sink, made once. */
static struct rte_graph *
graph_of(const char *name, const char *pattern)
{
	const char *patterns[] = { pattern, "pg_sink" };
	struct rte_graph_param prm;
	rte_graph_t id;

	if (rte_graph_lookup(name) != NULL)
		return rte_graph_lookup(name);
	if (clones_make() != 0 || num_made == RTE_DIM(made))
		return NULL;
	memset(&prm, 0, sizeof(prm));
	prm.socket_id = SOCKET_ID_ANY;
	prm.nb_node_patterns = RTE_DIM(patterns);
	prm.node_patterns = patterns;
	id = rte_graph_create(name, &prm);
	if (id == RTE_GRAPH_ID_INVALID)
		return NULL;
	made[num_made++] = id;

	return rte_graph_lookup(name);
}


/* One lcore's walks of its graph instance. */
struct walker {
	struct rte_graph *graph;
	unsigned int walks;
	int ret;
};

static int
walker_main(void *arg)
{
	struct walker *w = arg;
	unsigned int k;

	w->ret = rte_pmu_lcore_open();
	for (k = 0; k < w->walks && w->ret == 0; k++)
		rte_graph_walk(w->graph);

	return 0;
}

/* MANY_NODES source nodes and a sink, one graph instance per lcore, walked
 * on two lcores at once (a different number of walks each): every node's
 * calls and items on each lcore, and their sum, as the node counted them.
 */
static int
test_many_nodes_two_lcores(void)
{
	unsigned int worker = rte_get_next_lcore(-1, 1, 0), lcores[2], row, nodes = 0;
	struct rte_pmu_stage_stats st, sum;
	struct walker w[2];
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;
	uint64_t total = 0;

	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("two lcores needed (-l 0-1)");
	w[0].graph = graph_of("pg_many0", "pg_rx-*");
	w[1].graph = graph_of("pg_many1", "pg_rx-*");
	TEST_ASSERT(w[0].graph != NULL && w[1].graph != NULL, "rte_graph_create: %s",
		strerror(rte_errno));
	TEST_ASSERT(w[0].graph->nb_nodes == MANY_NODES + 1, "%u nodes",
		w[0].graph->nb_nodes);
	TEST_ASSERT_SUCCESS(rte_pmu_graph_enable(w[0].graph), "enable pg_many0");
	TEST_ASSERT_SUCCESS(rte_pmu_graph_enable(w[1].graph), "enable pg_many1");
	memset(node_calls, 0, sizeof(node_calls));
	memset(node_objs, 0, sizeof(node_objs));
	w[0].walks = MANY_WALKS;
	w[1].walks = MANY_WALKS + MANY_WALKS / 2;
	lcores[0] = rte_lcore_id();
	lcores[1] = worker;
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(walker_main, &w[1], worker), "launch");
	walker_main(&w[0]);
	rte_eal_wait_lcore(worker);
	TEST_ASSERT_SUCCESS(w[0].ret, "lcore %u: rte_pmu_lcore_open", lcores[0]);
	TEST_ASSERT_SUCCESS(w[1].ret, "lcore %u: rte_pmu_lcore_open", lcores[1]);
	rte_graph_foreach_node(count, off, w[0].graph, node) {
		for (row = 0; row < 2; row++) {
			TEST_ASSERT_SUCCESS(test_pmu_graph_node_stats(node->name, lcores[row], &st),
				"stats of %s", node->name);
			TEST_ASSERT(st.calls == node_calls[row][node->id] &&
				st.items == node_objs[row][node->id], "%s, lcore %u: %" PRIu64
				" calls, %" PRIu64 " items; the node counted %" PRIu64 " and %"
				PRIu64, node->name, lcores[row], st.calls, st.items,
				node_calls[row][node->id], node_objs[row][node->id]);
			TEST_ASSERT(st.misuse == 0 && st.lcore_misuse == 0,
				"%s, lcore %u: misuse", node->name, lcores[row]);
		}
		TEST_ASSERT(node_calls[0][node->id] == MANY_WALKS || node->id == sink_node.id,
			"%s: called on every walk", node->name);
		TEST_ASSERT_SUCCESS(test_pmu_graph_node_stats(node->name, RTE_PMU_GRAPH_ALL_LCORES, &sum),
			"sum of %s", node->name);
		TEST_ASSERT(sum.calls == node_calls[0][node->id] + node_calls[1][node->id] &&
			sum.items == node_objs[0][node->id] + node_objs[1][node->id],
			"%s: the sum over the lcores", node->name);
		total += sum.calls;
		nodes++;
	}
	printf("%u nodes per graph, walked on lcores %u and %u: %" PRIu64
		" node calls, each node's as it counted them\n", nodes, lcores[0], lcores[1],
		total);

	return TEST_SUCCESS;
}

static rte_node_process_t saved_process[RTE_PMU_GRAPH_MAX_NODES];

static void
nodes_save(struct rte_graph *g)
{
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;

	rte_graph_foreach_node(count, off, g, node)
		saved_process[count] = node->process;
}

/* Nodes of @p g whose process function changed since nodes_save(). */
static unsigned int
nodes_changed(struct rte_graph *g)
{
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;
	unsigned int n = 0;

	rte_graph_foreach_node(count, off, g, node)
		n += node->process != saved_process[count];

	return n;
}

/* rte_pmu_graph_enable() of @p g, its log lines in *@p text (to free). */
static int
enable_logged(struct rte_graph *g, char **text)
{
	FILE *log, *saved;
	size_t len = 0;
	int ret;

	*text = NULL;
	log = open_memstream(text, &len);
	if (log == NULL)
		return -ENOMEM;
	saved = rte_log_get_stream();
	rte_openlog_stream(log);
	ret = rte_pmu_graph_enable(g);
	rte_openlog_stream(saved);
	fclose(log);

	return ret;
}

/* Enable is all or nothing: a node name that cannot be a stage name, then
 * more new node names than stages left, each fail with no stage registered
 * and no node wrapped; a graph that fits in what is left is enabled.
 */
static int
test_enable_all_or_nothing(void)
{
	struct rte_graph *many = graph_of("pg_many0", "pg_rx-*");
	struct rte_graph *odd = graph_of("pg_odd_graph", "pg_odd-*");
	struct rte_graph *graph;
	char name[RTE_PMU_STAGE_NAME_MAX], *text;
	int before, i, ret;

	TEST_ASSERT(many != NULL && odd != NULL, "rte_graph_create: %s", strerror(rte_errno));
	TEST_ASSERT(odd->nb_nodes == 3, "pg_odd_graph: %u nodes", odd->nb_nodes);
	before = rte_pmu_stage_count();
	nodes_save(odd);
	ret = enable_logged(odd, &text);
	TEST_ASSERT_EQUAL(ret, -EINVAL, "a node name with a control character: %d", ret);
	TEST_ASSERT_EQUAL(rte_pmu_stage_count(), before, "a stage left registered");
	TEST_ASSERT_EQUAL(nodes_changed(odd), 0, "a node wrapped");
	TEST_ASSERT(text != NULL && strstr(text, "pg_odd-x") != NULL &&
		strstr(text, "pg_odd_graph") != NULL, "the log names the node and the graph: %s",
		text != NULL ? text : "");
	printf("logged: %s", text);
	free(text);

	for (i = before; i < RTE_PMU_MAX_STAGES - STAGES_LEFT; i++) {
		snprintf(name, sizeof(name), "pg_fill%d", i);
		TEST_ASSERT(rte_pmu_stage_register(name) >= 0, "register %s", name);
	}
	before = rte_pmu_stage_count();
	TEST_ASSERT_EQUAL(before, RTE_PMU_MAX_STAGES - STAGES_LEFT, "stages registered");
	nodes_save(many);
	ret = enable_logged(many, &text);
	TEST_ASSERT_EQUAL(ret, -ENOSPC, "%u nodes, %d stages left: %d", many->nb_nodes,
		STAGES_LEFT, ret);
	TEST_ASSERT_EQUAL(rte_pmu_stage_count(), before, "a stage left registered");
	TEST_ASSERT_EQUAL(nodes_changed(many), 0, "a node wrapped");
	TEST_ASSERT(text != NULL && strstr(text, "pg_many0") != NULL, "the log names the "
		"graph: %s", text != NULL ? text : "");
	printf("logged: %s", text);
	free(text);

	graph = test_pmu_graph_main();
	nodes_save(graph);
	TEST_ASSERT_SUCCESS(rte_pmu_graph_enable(graph), "a graph of 3 nodes fits");
	TEST_ASSERT_EQUAL(rte_pmu_stage_count(), before + 3, "its 3 stages");
	TEST_ASSERT_EQUAL(nodes_changed(graph), 3, "its 3 nodes wrapped");

	return TEST_SUCCESS;
}

/* A node name of RTE_NODE_NAMESIZE - 1 characters is a stage name. */
static int
test_long_name(void)
{
	struct rte_graph *g = graph_of("pg_long_graph", "pg_long-*");
	const char *longest = "pg_long-" LONG_SUFFIX;
	struct rte_pmu_stage_stats st;
	char name[RTE_PMU_STAGE_NAME_MAX];
	unsigned int period;

	RTE_BUILD_BUG_ON(RTE_NODE_NAMESIZE != RTE_PMU_STAGE_NAME_MAX);
	RTE_BUILD_BUG_ON(sizeof("pg_long-" LONG_SUFFIX) != RTE_NODE_NAMESIZE);
	TEST_ASSERT(g != NULL, "rte_graph_create: %s", strerror(rte_errno));
	TEST_ASSERT_SUCCESS(rte_pmu_graph_enable(g), "enable");
	rte_graph_walk(g);
	TEST_ASSERT_SUCCESS(test_pmu_graph_node_stats(longest, rte_lcore_id(), &st), "stats");
	TEST_ASSERT_EQUAL(st.calls, 1, "one call");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_info(rte_pmu_stage_register(longest), name, &period),
		"info");
	TEST_ASSERT(strcmp(name, longest) == 0, "stage name %s", name);

	return TEST_SUCCESS;
}

/* A graph destroyed while enabled, and another made in its memory: the new
 * one is enabled (it was "already enabled"), and disabling forgets the
 * destroyed one without writing into it (it put back functions of node ids
 * never wrapped: NULL, then a crash at the next walk).
 */
static int
test_destroyed_enabled(void)
{
	const char *patterns[] = { "pg_long-*", "pg_sink" };
	struct rte_graph_param prm = { .socket_id = SOCKET_ID_ANY,
		.nb_node_patterns = RTE_DIM(patterns), .node_patterns = patterns };
	struct rte_graph *x, *y;
	rte_graph_t id;
	int ret;

	TEST_ASSERT_SUCCESS(clones_make(), "clones");
	id = rte_graph_create("pg_gone_x", &prm);
	x = rte_graph_lookup("pg_gone_x");
	TEST_ASSERT(x != NULL && rte_pmu_graph_enable(x) == 0, "make and enable pg_gone_x");
	TEST_ASSERT_SUCCESS(rte_graph_destroy(id), "destroy pg_gone_x, enabled");
	id = rte_graph_create("pg_gone_y", &prm);
	y = rte_graph_lookup("pg_gone_y");
	TEST_ASSERT(y != NULL, "make pg_gone_y: %s", strerror(rte_errno));
	printf("pg_gone_y %s pg_gone_x's memory\n", x == y ? "in" : "not in");
	nodes_save(y);
	ret = rte_pmu_graph_enable(y);
	TEST_ASSERT(ret == 0 && nodes_changed(y) == y->nb_nodes, "enable pg_gone_y: %d", ret);
	ret = rte_pmu_graph_disable_all();
	TEST_ASSERT(ret == 1 && nodes_changed(y) == 0, "disable all: %d, not pg_gone_y alone "
		"(%d nodes still wrapped)", ret, nodes_changed(y));
	rte_graph_walk(y);
	TEST_ASSERT_SUCCESS(rte_graph_destroy(id), "destroy pg_gone_y");

	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_graph_size_suite = {
	.suite_name = "pmu graph: graphs of hundreds of nodes",
	.unit_test_cases = {
		TEST_CASE_ST(test_pmu_graph_setup, test_pmu_graph_teardown,
			test_many_nodes_two_lcores),
		TEST_CASE_ST(test_pmu_graph_setup, test_pmu_graph_teardown,
			test_enable_all_or_nothing),
		TEST_CASE_ST(test_pmu_graph_setup, test_pmu_graph_teardown, test_long_name),
		TEST_CASE_ST(test_pmu_graph_setup, test_pmu_graph_teardown,
			test_destroyed_enabled),
		TEST_CASES_END()
	}
};

static int
test_pmu_graph_size(void)
{
	int ret = unit_test_suite_runner(&pmu_graph_size_suite);

	while (num_made > 0)
		rte_graph_destroy(made[--num_made]);
	test_pmu_graph_destroy();

	return ret;
}

REGISTER_FAST_TEST(pmu_graph_size_autotest, true, true, test_pmu_graph_size);
