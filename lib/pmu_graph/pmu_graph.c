/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Every node of a graph a stage: the wrapper of struct rte_node::process
 * and the control path that installs and removes it.
 */

#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <rte_common.h>
#include <rte_graph.h>
#include <rte_graph_worker.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_spinlock.h>

#include "rte_pmu_graph.h"
#include "pmu_graph_private.h"

RTE_LOG_REGISTER_DEFAULT(pmu_graph_logtype, INFO);

#define PMU_GRAPH_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, pmu_graph_logtype, "PMU_GRAPH: " fmt "\n", ##__VA_ARGS__)

/* What the wrapper needs of a node, by node id. A node id has one process
 * function (its registration's) and one name in every graph instance that
 * holds it, so the slot serves them all. Written under the lock before any
 * node points to the wrapper, never cleared: a walk that still runs the
 * wrapper always finds its slot whole. call (first, so that a pointer to
 * it is one to the slot) holds the same function for the measured calls,
 * which lib/pmu makes: its type has the node function's shape, with the
 * graph and the node as void pointers.
 */
struct pmu_graph_slot pmu_graph_slots[RTE_PMU_GRAPH_MAX_NODES];

/* The layout the architecture's wrapper is written for. */
static_assert(offsetof(struct rte_node, id) == PMU_GRAPH_NODE_ID, "node id");
static_assert(sizeof(struct pmu_graph_slot) == 1 << PMU_GRAPH_SLOT_SHIFT &&
	offsetof(struct pmu_graph_slot, call) == 0 &&
	offsetof(struct pmu_graph_slot, call.id) == PMU_GRAPH_SLOT_ID &&
	offsetof(struct pmu_graph_slot, process) == PMU_GRAPH_SLOT_PROCESS, "slot");
static_assert(offsetof(struct __rte_pmu_stage_lcore, sp) == PMU_GRAPH_SL_SP &&
	offsetof(struct __rte_pmu_stage_lcore, limit) == PMU_GRAPH_SL_LIMIT &&
	offsetof(struct __rte_pmu_stage_lcore, measured.call) == PMU_GRAPH_SL_CALL &&
	offsetof(struct __rte_pmu_stage_lcore, countdown) == PMU_GRAPH_SL_COUNTDOWN &&
	offsetof(struct __rte_pmu_stage_lcore, pending) == PMU_GRAPH_SL_PENDING &&
	sizeof(((struct __rte_pmu_stage_lcore *)0)->countdown[0]) == 4 &&
	sizeof(((struct __rte_pmu_stage_lcore *)0)->pending[0]) == 8, "stage state");
static_assert(sizeof(struct __rte_pmu_stage_frame) == PMU_GRAPH_FRAME_SIZE &&
	offsetof(struct __rte_pmu_stage_frame, tag) == 0, "frame");
static_assert(__RTE_PMU_STAGE_PENDING_SHIFT == PMU_GRAPH_PENDING_SHIFT, "pending word");
static struct rte_graph *enabled[RTE_PMU_GRAPH_MAX_GRAPHS];
static rte_spinlock_t lock = RTE_SPINLOCK_INITIALIZER;

/* A node call as rte_pmu_stage_begin() and rte_pmu_stage_end() make it:
 * where the lcore has no stage state yet, the stack is full, a measured
 * stage is open (the node's call is then measured too) or the node's
 * stage is open already (misuse).
 */
__rte_noinline uint16_t
pmu_graph_process_framed(void *graph, void *node, void **objs, uint16_t nb_objs,
	struct __rte_pmu_stage_lcore *sl, const struct __rte_pmu_stage_call *c)
{
	const struct pmu_graph_slot *s = (const struct pmu_graph_slot *)c;
	uint16_t ret;

	RTE_SET_USED(sl);
	rte_pmu_stage_begin(c->id);
	ret = s->process(graph, node, objs, nb_objs);
	rte_pmu_stage_end(c->id, ret);

	return ret;
}

#ifndef RTE_ARCH_ARM64
/* A node call not measured, where no measured stage is open: no frame
 * (the wrapper's begin and end pair by construction). The call and its
 * items go to the stage's pending word, as an unmeasured end adds them.
 */
static __rte_noinline uint16_t
pmu_graph_process_unmeasured(void *graph, void *node, void **objs, uint16_t nb_objs,
	struct __rte_pmu_stage_lcore *sl, const struct __rte_pmu_stage_call *c)
{
	const struct pmu_graph_slot *s = (const struct pmu_graph_slot *)c;
	unsigned int id = c->id;
	uint16_t ret;

	ret = s->process(graph, node, objs, nb_objs);
	__rte_pmu_stage_pending_add(sl, id, ret);

	return ret;
}

/* The wrapper: it only chooses, and goes on by a tail call with its own
 * arguments first, which stay in their registers. A call it does not
 * measure, where no measured stage is open, counts down the stage's period
 * and takes no frame; a call to measure goes to lib/pmu's measured call,
 * which reads the counters on both sides of the node in one function;
 * anything else to the framed call. A tail call a path (not one through a
 * pointer chosen on the way) spares each path the pointer's choice: 5
 * instructions less where measured, 4 where not (GCC 12, arm64).
 */
uint16_t
pmu_graph_process(struct rte_graph *graph, struct rte_node *node, void **objs,
	uint16_t nb_objs)
{
	const struct pmu_graph_slot *s = &pmu_graph_slots[node->id];
	struct __rte_pmu_stage_lcore *sl = RTE_PER_LCORE(_pmu_stage);
	struct __rte_pmu_stage_frame *f = sl->sp;
	unsigned int id = s->call.id;
	uint32_t countdown = sl->countdown[id];

	/* The limit is NULL while a measured stage is open (and before the
	 * lcore's first stage call): no frame is below it then.
	 */
	if (unlikely(f >= sl->limit || countdown == 0))
		return pmu_graph_process_framed(graph, node, objs, nb_objs, sl, &s->call);
	if (likely(countdown > 1)) {
		sl->countdown[id] = countdown - 1;
		return pmu_graph_process_unmeasured(graph, node, objs, nb_objs, sl, &s->call);
	}
	if (unlikely((uint32_t)f[-1].tag == id))
		return pmu_graph_process_framed(graph, node, objs, nb_objs, sl, &s->call);
	return sl->measured.call(graph, node, objs, nb_objs, sl, &s->call);
}

#endif /* !RTE_ARCH_ARM64 */

/* Index of @p graph among the enabled ones, or -1 (lock held). */
static int
enabled_find(const struct rte_graph *graph)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(enabled); i++)
		if (enabled[i] == graph)
			return (int)i;

	return -1;
}

/* Whether @p graph is a graph instance lib/graph knows. */
static int
graph_known(struct rte_graph *graph)
{
	char name[RTE_GRAPH_NAMESIZE];

	/* A copy: rte_graph_lookup() of a name that is not terminated. */
	memcpy(name, graph->name, sizeof(name));
	name[sizeof(name) - 1] = '\0';

	return rte_graph_lookup(name) == graph;
}

static void
nodes_restore(struct rte_graph *graph)
{
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;

	rte_graph_foreach_node(count, off, graph, node) {
		if (node->process == pmu_graph_process && node->id < RTE_PMU_GRAPH_MAX_NODES)
			__atomic_store_n(&node->process_u64,
				(uint64_t)(uintptr_t)pmu_graph_slots[node->id].process,
				__ATOMIC_RELEASE);
	}
}

/* Whether an enabled graph holds node id @p id (lock held). */
static int
id_in_use(rte_node_t id)
{
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;
	unsigned int i;

	for (i = 0; i < RTE_DIM(enabled); i++) {
		if (enabled[i] == NULL)
			continue;
		rte_graph_foreach_node(count, off, enabled[i], node)
			if (node->id == id)
				return 1;
	}

	return 0;
}

/* Check every node of @p graph and fill its slot; change no node (lock held). */
static int
nodes_prepare(struct rte_graph *graph)
{
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;
	int stage;

	rte_graph_foreach_node(count, off, graph, node) {
		if (node->id >= RTE_PMU_GRAPH_MAX_NODES) {
			PMU_GRAPH_LOG(ERR, "graph %s: node %s has id %u, at or above %d",
				graph->name, node->name, node->id, RTE_PMU_GRAPH_MAX_NODES);
			return -ENOSPC;
		}
		if (node->process == pmu_graph_process) {
			/* Another graph left a node of this one wrapped: impossible
			 * through this API, which wraps whole graphs.
			 */
			PMU_GRAPH_LOG(ERR, "graph %s: node %s already wrapped", graph->name,
				node->name);
			return -EBUSY;
		}
		stage = rte_pmu_stage_register(node->name);
		if (stage < 0) {
			PMU_GRAPH_LOG(ERR, "graph %s: node %s: no stage: %s", graph->name,
				node->name, strerror(-stage));
			return stage;
		}
		/* The slot of an id that an enabled graph holds stays as it is. */
		if (id_in_use(node->id) && (pmu_graph_slots[node->id].process != node->process ||
				pmu_graph_slots[node->id].call.id != (uint32_t)stage)) {
			PMU_GRAPH_LOG(ERR, "graph %s: node %s (id %u): another process function "
				"or stage than in an enabled graph", graph->name, node->name,
				node->id);
			return -EBUSY;
		}
	}

	return 0;
}

int
rte_pmu_graph_enable(struct rte_graph *graph)
{
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;
	int free_slot = -1, ret;
	unsigned int i;

	if (graph == NULL) {
		PMU_GRAPH_LOG(ERR, "enable: NULL graph");
		return -EINVAL;
	}
	if (!graph_known(graph)) {
		PMU_GRAPH_LOG(ERR, "enable: %p is not a graph lib/graph knows", (void *)graph);
		return -EINVAL;
	}

	rte_spinlock_lock(&lock);
	if (enabled_find(graph) >= 0) {
		PMU_GRAPH_LOG(ERR, "enable: graph %s already enabled", graph->name);
		ret = -EALREADY;
		goto out;
	}
	for (i = 0; i < RTE_DIM(enabled) && free_slot < 0; i++)
		if (enabled[i] == NULL)
			free_slot = (int)i;
	if (free_slot < 0) {
		PMU_GRAPH_LOG(ERR, "enable: graph %s: %d graphs already enabled", graph->name,
			RTE_PMU_GRAPH_MAX_GRAPHS);
		ret = -ENOSPC;
		goto out;
	}
	ret = nodes_prepare(graph);
	if (ret != 0)
		goto out;

	/* Every check passed: fill the slots, then point the nodes at the
	 * wrapper (a release store each: the slot is seen before the pointer).
	 */
	rte_graph_foreach_node(count, off, graph, node) {
		if (id_in_use(node->id))
			continue; /* the same slot, checked above */
		pmu_graph_slots[node->id].process = node->process;
		/* The same function, called by lib/pmu through a pointer of its
		 * own type (the node function's shape, void pointers for the
		 * graph and the node).
		 */
		pmu_graph_slots[node->id].call.fn = (__rte_pmu_stage_fn_t)node->process;
		pmu_graph_slots[node->id].call.id = (uint32_t)rte_pmu_stage_register(node->name);
	}
	rte_graph_foreach_node(count, off, graph, node)
		__atomic_store_n(&node->process_u64, (uint64_t)(uintptr_t)pmu_graph_process,
			__ATOMIC_RELEASE);
	enabled[free_slot] = graph;
	PMU_GRAPH_LOG(DEBUG, "graph %s: %u nodes are stages", graph->name, graph->nb_nodes);
out:
	rte_spinlock_unlock(&lock);

	return ret;
}

int
rte_pmu_graph_enable_by_name(const char *name)
{
	struct rte_graph *graph;

	if (name == NULL) {
		PMU_GRAPH_LOG(ERR, "enable: NULL graph name");
		return -EINVAL;
	}
	graph = rte_graph_lookup(name);
	if (graph == NULL) {
		PMU_GRAPH_LOG(ERR, "enable: no graph called %s", name);
		return -ENOENT;
	}

	return rte_pmu_graph_enable(graph);
}

int
rte_pmu_graph_disable(struct rte_graph *graph)
{
	int i;

	if (graph == NULL) {
		PMU_GRAPH_LOG(ERR, "disable: NULL graph");
		return -EINVAL;
	}
	rte_spinlock_lock(&lock);
	i = enabled_find(graph);
	if (i < 0) {
		rte_spinlock_unlock(&lock);
		PMU_GRAPH_LOG(ERR, "disable: graph %p was not enabled", (void *)graph);
		return -ENOENT;
	}
	nodes_restore(graph);
	enabled[i] = NULL;
	rte_spinlock_unlock(&lock);

	return 0;
}

int
rte_pmu_graph_disable_by_name(const char *name)
{
	struct rte_graph *graph;

	if (name == NULL) {
		PMU_GRAPH_LOG(ERR, "disable: NULL graph name");
		return -EINVAL;
	}
	graph = rte_graph_lookup(name);
	if (graph == NULL) {
		PMU_GRAPH_LOG(ERR, "disable: no graph called %s", name);
		return -ENOENT;
	}

	return rte_pmu_graph_disable(graph);
}

int
rte_pmu_graph_disable_all(void)
{
	unsigned int i;
	int n = 0;

	rte_spinlock_lock(&lock);
	for (i = 0; i < RTE_DIM(enabled); i++) {
		if (enabled[i] == NULL)
			continue;
		nodes_restore(enabled[i]);
		enabled[i] = NULL;
		n++;
	}
	rte_spinlock_unlock(&lock);

	return n;
}

/* Stage id of @p name, without registering it. */
static int
stage_find(const char *name)
{
	char stage_name[RTE_PMU_STAGE_NAME_MAX];
	int n, i;

	n = rte_pmu_stage_count();
	if (n < 0)
		return n;
	for (i = 0; i < n; i++)
		if (rte_pmu_stage_info(i, stage_name, NULL) == 0 &&
				strcmp(stage_name, name) == 0)
			return i;

	return -ENOENT;
}

int
rte_pmu_graph_node_stats_get(const char *name, unsigned int lcore_id,
	struct rte_pmu_stage_stats *stats)
{
	struct rte_pmu_stage_stats one;
	unsigned int lcore, e;
	int id, ret;

	if (name == NULL || stats == NULL ||
			(lcore_id >= RTE_MAX_LCORE && lcore_id != RTE_PMU_GRAPH_ALL_LCORES)) {
		PMU_GRAPH_LOG(ERR, "node stats: NULL name or stats, or lcore %u out of range",
			lcore_id);
		return -EINVAL;
	}
	id = stage_find(name);
	if (id < 0) {
		if (id == -ENOENT)
			PMU_GRAPH_LOG(ERR, "node stats: no stage called %s", name);
		return id;
	}
	if (lcore_id != RTE_PMU_GRAPH_ALL_LCORES)
		return rte_pmu_stage_stats_get(lcore_id, id, stats);

	memset(stats, 0, sizeof(*stats));
	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++) {
		ret = rte_pmu_stage_stats_get(lcore, id, &one);
		if (ret != 0)
			return ret;
		stats->calls += one.calls;
		stats->items += one.items;
		stats->measured += one.measured;
		stats->misuse += one.misuse;
		for (e = 0; e < RTE_DIM(one.values); e++) {
			stats->values[e] += one.values[e];
			stats->self_values[e] += one.self_values[e];
		}
		if (one.num_events > stats->num_events)
			stats->num_events = one.num_events;
	}

	return 0;
}
