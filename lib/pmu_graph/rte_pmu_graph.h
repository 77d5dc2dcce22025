/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef RTE_PMU_GRAPH_H
#define RTE_PMU_GRAPH_H

/**
 * @file
 * RTE PMU graph: every node of a DPDK graph (lib/graph) a stage of
 * rte_pmu_stage.h, without changing DPDK or the nodes. Not in upstream
 * DPDK; a library of its own, so that librte_pmu does not depend on
 * lib/graph.
 *
 * rte_pmu_graph_enable() registers a stage for each node name of one graph
 * instance (a clone keeps its clone's name, such as "ethdev_rx-0-0") and
 * replaces each node's process function (struct rte_node::process) by a
 * C wrapper that does, per call:
 *
 *   rte_pmu_stage_begin(stage);
 *   n = original(graph, node, objs, nb_objs);
 *   rte_pmu_stage_end(stage, n);
 *
 * The items of a call are the node's return value, as lib/graph's
 * total_objs counts them. Each lcore walks its own graph instance; nodes
 * of the same name in two instances are one stage, counted per lcore.
 * rte_pmu_graph_disable() puts the original functions back.
 *
 * Call order:
 *  1. rte_pmu_init(), rte_pmu_add_event() (librte_pmu);
 *  2. the graphs created (rte_graph_create());
 *  3. rte_pmu_graph_enable() for each graph, while no lcore walks it;
 *  4. the lcores walk their graphs, each after rte_pmu_lcore_open();
 *  5. rte_pmu_graph_disable() or rte_pmu_graph_disable_all(), again while
 *     no lcore walks the graph concerned;
 *  6. rte_pmu_fini(), then rte_graph_destroy().
 * Disable first, as one undoes what a library made before its cleanup. A
 * graph left enabled at rte_pmu_fini() gets its nodes' functions back then
 * (logged), as rte_pmu_graph_disable_all() gives them, while no lcore
 * walks it (rte_pmu_fini() runs while no lcore reads): its calls are not
 * counted, and it can be enabled again after the next rte_pmu_init().
 *
 * Disable a graph before rte_graph_destroy(): one destroyed while enabled
 * is never written to; it is forgotten at the next enable of a graph in
 * its memory, or at a disable (which logs it).
 *
 * Thread safety: every call is thread-safe (control path); enable and
 * disable must not run while an lcore walks the graph concerned. The
 * wrapper runs on the walking lcore, lock-free as the stage calls are.
 *
 * lib/graph's own statistics (RTE_LIBRTE_GRAPH_STATS) still count every
 * call and object; their cycles of a node then include the wrapper.
 * Sampling: rte_pmu_stage_sampling_set() on the stage id that
 * rte_pmu_stage_register(node name) gives back.
 */

#include <stdint.h>

#include <rte_compat.h>
#include <rte_graph.h>

#include <rte_pmu_stage.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Largest node id (rte_node_t) a wrapped node may have, plus one. */
#define RTE_PMU_GRAPH_MAX_NODES 1024
/** Most graphs enabled at once. */
#define RTE_PMU_GRAPH_MAX_GRAPHS 128
/** rte_pmu_graph_node_stats_get(): the sum over every lcore. */
#define RTE_PMU_GRAPH_ALL_LCORES RTE_PMU_STAGE_ALL_LCORES

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Make every node of @p graph a stage named after the node, all or
 * nothing: on error no node is wrapped and no stage is registered by the
 * call (rte_pmu_stage_register_bulk()); the log names the graph and, for
 * a name that cannot be a stage's, the node. Control path; thread-safe;
 * not while an lcore walks @p graph.
 *
 * @param graph
 *   A graph instance, from rte_graph_lookup().
 * @return
 *   0, or
 *   -EINVAL NULL @p graph, not a graph lib/graph knows, or a node name
 *   that cannot be a stage name;
 *   -EALREADY @p graph already enabled;
 *   -ENOSPC a node id at or above RTE_PMU_GRAPH_MAX_NODES, too many
 *   graphs, or fewer stages left than new node names;
 *   -EBUSY a node already wrapped, or with another process function or
 *   stage than in another enabled graph;
 *   -ENOMEM no memory; -ENODEV librte_pmu not initialised.
 */
__rte_experimental
int
rte_pmu_graph_enable(struct rte_graph *graph);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * rte_pmu_graph_enable() of the graph called @p name.
 *
 * @param name
 *   Graph name, as given to rte_graph_create().
 * @return
 *   As rte_pmu_graph_enable(); -ENOENT no graph of that name.
 */
__rte_experimental
int
rte_pmu_graph_enable_by_name(const char *name);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Put back the original process function of every node of @p graph; the
 * stages and their figures stay. Control path; thread-safe; not while an
 * lcore walks @p graph.
 *
 * @param graph
 *   A graph enabled with rte_pmu_graph_enable().
 * @return
 *   0; -EINVAL NULL @p graph; -ENOENT @p graph not enabled.
 */
__rte_experimental
int
rte_pmu_graph_disable(struct rte_graph *graph);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * rte_pmu_graph_disable() of the graph called @p name.
 *
 * @param name
 *   Graph name.
 * @return
 *   As rte_pmu_graph_disable(); -ENOENT also no graph of that name.
 */
__rte_experimental
int
rte_pmu_graph_disable_by_name(const char *name);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * rte_pmu_graph_disable() of every enabled graph: call it before
 * rte_pmu_fini(). Control path; thread-safe; while no lcore walks.
 *
 * @return
 *   The number of graphs disabled.
 */
__rte_experimental
int
rte_pmu_graph_disable_all(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * A node's figures on one lcore, or summed over every lcore, as
 * rte_pmu_stage_stats_get() gives them for the node's stage.
 * Thread-safe; any time.
 *
 * @param name
 *   Node name in the graph instance (its stage's name).
 * @param lcore_id
 *   An lcore id, or RTE_PMU_GRAPH_ALL_LCORES for the sum.
 * @param stats
 *   Filled on success.
 * @return
 *   0; -EINVAL NULL argument or bad lcore id; -ENOENT no stage of that
 *   name; -ENODEV librte_pmu not initialised.
 */
__rte_experimental
int
rte_pmu_graph_node_stats_get(const char *name, unsigned int lcore_id,
	struct rte_pmu_stage_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMU_GRAPH_H */
