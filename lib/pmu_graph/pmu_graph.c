/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Every node of a graph a stage: the wrapper of struct rte_node::process
 * and the control path that installs and removes it.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_graph_worker.h>
#include <rte_log.h>
#include <rte_spinlock.h>

#include "rte_pmu_graph.h"

RTE_LOG_REGISTER_DEFAULT(pmu_graph_logtype, INFO);

#define PMU_GRAPH_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, pmu_graph_logtype, "PMU_GRAPH: " fmt "\n", ##__VA_ARGS__)

/* What the wrapper needs of a node, by node id. A node id has one name and
 * one process function in every graph instance that holds it, so one slot
 * serves them all. Filled under the lock before any node points at the
 * wrapper and never cleared: a walk that still runs the wrapper finds its
 * slot whole.
 */
struct pmu_graph_slot {
	rte_node_process_t process;
	unsigned int stage;
	unsigned int users; /* enabled graphs holding the id */
};

static struct pmu_graph_slot slots[RTE_PMU_GRAPH_MAX_NODES];
static struct rte_graph *enabled[RTE_PMU_GRAPH_MAX_GRAPHS];
static char enabled_names[RTE_PMU_GRAPH_MAX_GRAPHS][RTE_GRAPH_NAMESIZE];
/* The graph slot an enable took at its first check, until its install:
 * two graphs after the last free slot both registered their stages, and
 * one failed. Held by no lock between (the stage API logs).
 */
static struct rte_graph *claimed[RTE_PMU_GRAPH_MAX_GRAPHS];
static rte_spinlock_t lock = RTE_SPINLOCK_INITIALIZER;

/* A node's call measured: its stage's begin and end by what the inline
 * calls call where their inline part cannot begin or end it (any call).
 * Kept apart: the other calls keep nothing across a stage call.
 */
static __rte_noinline uint16_t
process_measured(struct rte_graph *graph, struct rte_node *node, void **objs,
	uint16_t nb_objs, rte_node_process_t process, unsigned int id)
{
	uint16_t n;

	__rte_pmu_stage_begin_slow(RTE_PER_LCORE(_pmu_stage), id);
	n = process(graph, node, objs, nb_objs);
	__rte_pmu_stage_end_slow(RTE_PER_LCORE(_pmu_stage), id, n);
	return n;
}

/* A node's call whose stage begin was inline (not measured). */
static __rte_noinline uint16_t
process_counted(struct rte_graph *graph, struct rte_node *node, void **objs,
	uint16_t nb_objs, rte_node_process_t process, unsigned int id)
{
	uint16_t n = process(graph, node, objs, nb_objs);

	rte_pmu_stage_end(id & (RTE_PMU_MAX_STAGES - 1), n);
	return n;
}

/* The wrapper of struct rte_node::process: the node's call as a stage,
 * each way on a tail call (nothing kept across a call). A node's stage id
 * is registered, below the power of two RTE_PMU_MAX_STAGES: masked, the
 * inline calls need not check it.
 */
static uint16_t
pmu_graph_process(struct rte_graph *graph, struct rte_node *node, void **objs,
	uint16_t nb_objs)
{
	const struct pmu_graph_slot *s = &slots[node->id];
	unsigned int id = s->stage & (RTE_PMU_MAX_STAGES - 1);

	RTE_BUILD_BUG_ON(!RTE_IS_POWER_OF_2(RTE_PMU_MAX_STAGES));
	if (rte_pmu_stage_begin_try(id))
		return process_counted(graph, node, objs, nb_objs, s->process, id);
	return process_measured(graph, node, objs, nb_objs, s->process, id);
}

/* Whether enabled[@p i] is still the graph enabled (lock held): one
 * destroyed while enabled, its memory maybe another graph's now, is never
 * written to.
 */
static bool
live(unsigned int i)
{
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;

	if (rte_graph_lookup(enabled_names[i]) != enabled[i])
		return false;
	/* Made again in its memory with its name: its nodes not wrapped. */
	rte_graph_foreach_node(count, off, enabled[i], node)
		return node->process == pmu_graph_process;
	return true;
}

/* Whether @p graph can be enabled, lock held: a free graph slot (its index
 * returned, claimed), every node id below the limit, not wrapped, and with
 * the process function (and, with @p ids, the stage) of its slot where an
 * enabled graph holds it. Fills @p names; a failure is described in
 * @p why, for a log line after the lock. Only checked without @p ids;
 * with them (the nodes' stages, in the slot it claimed) enabled too, each
 * node wrapped.
 */
static int
graph_enable(struct rte_graph *graph, const char **names, const unsigned int *ids,
	char *why, size_t len)
{
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;
	unsigned int i;
	int slot = -1;

	/* Not enabled yet, and the first free graph slot (its own claim). */
	for (i = 0; i < RTE_DIM(enabled); i++) {
		if (enabled[i] == graph && !live(i))
			enabled[i] = NULL; /* destroyed while enabled: forgotten */
		if (enabled[i] == graph || (ids == NULL && claimed[i] == graph)) {
			snprintf(why, len, "already enabled");
			return -EALREADY;
		}
		if (ids != NULL ? claimed[i] == graph : slot < 0 && enabled[i] == NULL &&
				claimed[i] == NULL)
			slot = (int)i;
	}
	if (slot < 0) {
		snprintf(why, len, "%d graphs enabled already", RTE_PMU_GRAPH_MAX_GRAPHS);
		return -ENOSPC;
	}
	rte_graph_foreach_node(count, off, graph, node) {
		names[count] = node->name;
		if (node->id >= RTE_PMU_GRAPH_MAX_NODES) {
			snprintf(why, len, "node %s has id %u, at or above %d", node->name,
				node->id, RTE_PMU_GRAPH_MAX_NODES);
			return -ENOSPC;
		}
		if (node->process == pmu_graph_process) {
			snprintf(why, len, "node %s already wrapped", node->name);
			return -EBUSY;
		}
		if (slots[node->id].users != 0 && (slots[node->id].process != node->process ||
				(ids != NULL && slots[node->id].stage != ids[count]))) {
			snprintf(why, len, "node %s (id %u): another process function or stage "
				"than in an enabled graph", node->name, node->id);
			return -EBUSY;
		}
	}
	if (ids == NULL) {
		claimed[slot] = graph;
		return slot;
	}
	rte_graph_foreach_node(count, off, graph, node) {
		/* A slot in use is the same, checked. */
		if (slots[node->id].users++ == 0) {
			slots[node->id].process = node->process;
			slots[node->id].stage = ids[count];
		}
		/* A release store: the slot is seen before the pointer. */
		__atomic_store_n(&node->process_u64, (uint64_t)(uintptr_t)pmu_graph_process,
			__ATOMIC_RELEASE);
	}
	enabled[slot] = graph;
	snprintf(enabled_names[slot], sizeof(enabled_names[slot]), "%s", graph->name);

	return slot;
}

int
rte_pmu_graph_enable(struct rte_graph *graph)
{
	unsigned int *ids;
	const char **names;
	char why[RTE_NODE_NAMESIZE + 96];
	int ret, slot;

	/* A graph lib/graph knows, by a name it can look up. */
	if (graph == NULL || strnlen(graph->name, RTE_GRAPH_NAMESIZE) == RTE_GRAPH_NAMESIZE ||
			rte_graph_lookup(graph->name) != graph) {
		PMU_GRAPH_LOG(ERR, "enable: %p is not a graph lib/graph knows", (void *)graph);
		return -EINVAL;
	}
	/* One allocation: the names, then the ids (a pointer's alignment is an int's). */
	names = calloc(graph->nb_nodes, sizeof(*names) + sizeof(*ids));
	if (names == NULL) {
		PMU_GRAPH_LOG(ERR, "enable: graph %s: out of memory", graph->name);
		return -ENOMEM;
	}
	ids = (unsigned int *)(names + graph->nb_nodes);
	/* Checked first, so that a graph that cannot be enabled registers no
	 * stage, its slot claimed; registered without the lock (the stage API
	 * takes its own); checked again, and installed, under it.
	 */
	rte_spinlock_lock(&lock);
	slot = graph_enable(graph, names, NULL, why, sizeof(why));
	rte_spinlock_unlock(&lock);
	ret = slot;
	if (ret >= 0) {
		ret = rte_pmu_stage_register_bulk(names, graph->nb_nodes, ids);
		if (ret == -EINVAL)
			snprintf(why, sizeof(why), "a node's name cannot be a stage's "
				"(the line before names it)");
		else if (ret != 0)
			snprintf(why, sizeof(why), "no stages for its %u nodes: %s",
				graph->nb_nodes, strerror(-ret));
	}
	rte_spinlock_lock(&lock);
	if (ret >= 0)
		ret = graph_enable(graph, names, ids, why, sizeof(why));
	if (slot >= 0)
		claimed[slot] = NULL;
	rte_spinlock_unlock(&lock);
	free(names);
	if (ret < 0) {
		PMU_GRAPH_LOG(ERR, "enable: graph %s: %s; no node wrapped", graph->name, why);
		return ret;
	}
	PMU_GRAPH_LOG(DEBUG, "graph %s: %u nodes are stages", graph->name, graph->nb_nodes);

	return 0;
}

/* @p fn (enable or disable, said by @p what) of the graph called @p name. */
static int
by_name(const char *name, const char *what, int (*fn)(struct rte_graph *graph))
{
	struct rte_graph *graph = name != NULL ? rte_graph_lookup(name) : NULL;

	if (graph == NULL) {
		PMU_GRAPH_LOG(ERR, "%s: no graph called %s", what, name != NULL ? name : "(null)");
		return name != NULL ? -ENOENT : -EINVAL;
	}

	return fn(graph);
}

int
rte_pmu_graph_enable_by_name(const char *name)
{
	return by_name(name, "enable", rte_pmu_graph_enable);
}

/* Put back the original functions of enabled graph @p graph, or of every
 * enabled graph with NULL (takes the lock); returns how many it restored.
 */
static int
graph_restore(const struct rte_graph *graph)
{
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;
	unsigned int i, gone = 0;
	int n = 0;

	rte_spinlock_lock(&lock);
	for (i = 0; i < RTE_DIM(enabled); i++) {
		if (enabled[i] == NULL || (graph != NULL && enabled[i] != graph))
			continue;
		if (!live(i)) {
			gone++;
			enabled[i] = NULL;
			continue;
		}
		rte_graph_foreach_node(count, off, enabled[i], node) {
			__atomic_store_n(&node->process_u64,
				(uint64_t)(uintptr_t)slots[node->id].process, __ATOMIC_RELEASE);
			slots[node->id].users--;
		}
		enabled[i] = NULL;
		n++;
	}
	/* None enabled now: the users a destroyed graph held go too. */
	for (i = 0; graph == NULL && i < RTE_DIM(slots); i++)
		slots[i].users = 0;
	rte_spinlock_unlock(&lock);
	if (gone != 0)
		PMU_GRAPH_LOG(WARNING, "%u graph(s) destroyed while enabled: forgotten (disable "
			"a graph before rte_graph_destroy())", gone);

	return n;
}

int
rte_pmu_graph_disable(struct rte_graph *graph)
{
	if (graph == NULL) {
		PMU_GRAPH_LOG(ERR, "disable: NULL graph");
		return -EINVAL;
	}
	if (graph_restore(graph) == 0) {
		PMU_GRAPH_LOG(ERR, "disable: graph %p was not enabled", (void *)graph);
		return -ENOENT;
	}

	return 0;
}

int
rte_pmu_graph_disable_by_name(const char *name)
{
	return by_name(name, "disable", rte_pmu_graph_disable);
}

int
rte_pmu_graph_disable_all(void)
{
	return graph_restore(NULL);
}

/* rte_pmu_fini(): its stages go, and their ids are the next init's: the
 * graphs left enabled get their functions back, or their calls would count
 * in the next init's stages.
 */
static void
on_fini(void *arg __rte_unused)
{
	if (graph_restore(NULL) > 0)
		PMU_GRAPH_LOG(WARNING, "rte_pmu_fini(): graphs still enabled: their nodes' "
			"functions put back (disable them before it)");
}

RTE_INIT(pmu_graph_init)
{
	const struct rte_pmu_callbacks cb = { .fini = on_fini };

	if (rte_pmu_callbacks_register(&cb) != 0)
		PMU_GRAPH_LOG(ERR, "cannot follow rte_pmu_fini(): disable every graph before it");
}

int
rte_pmu_graph_node_stats_get(const char *name, unsigned int lcore_id,
	struct rte_pmu_stage_stats *stats)
{
	int id;

	if (stats == NULL) {
		PMU_GRAPH_LOG(ERR, "node stats: stats is NULL");
		return -EINVAL;
	}
	id = rte_pmu_stage_lookup(name); /* logs a NULL name */
	if (id == -ENOENT || id == -ENODEV)
		PMU_GRAPH_LOG(ERR, "node stats: %s%s", id == -ENOENT ? "no stage called " :
			"rte_pmu_init() not called", id == -ENOENT ? name : "");
	return id < 0 ? id : rte_pmu_stage_stats_get(lcore_id, id, stats);
}
