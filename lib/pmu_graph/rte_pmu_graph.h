/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef RTE_PMU_GRAPH_H
#define RTE_PMU_GRAPH_H

/**
 * @file
 * RTE PMU graph: every node of a DPDK graph (lib/graph) a stage of
 * rte_pmu_stage.h, without changing DPDK or the nodes. Not in upstream
 * DPDK. A library of its own (librte_pmu_graph), so that librte_pmu does
 * not depend on lib/graph.
 *
 * rte_pmu_graph_enable() replaces the process function of each node of
 * one graph instance (struct rte_node::process, in the graph's fast-path
 * memory) by a wrapper that does, per call:
 *
 *   rte_pmu_stage_begin(stage);
 *   ret = original(graph, node, objs, nb_objs);
 *   rte_pmu_stage_end(stage, ret);
 *
 * where stage is the id rte_pmu_stage_register() gives for the node's name
 * (the name in the graph instance: a cloned node keeps its clone's name,
 * such as "ethdev_rx-0-0"). The items of a call are the node's return
 * value, the objects it handled, as lib/graph's own total_objs counts
 * them: a source node (ethdev_rx) counts the packets it received. Each
 * lcore walks its own graph instance; nodes of the same name in two
 * instances are one stage, counted per lcore by the stage API:
 * rte_pmu_stage_stats_get() gives one lcore's figures,
 * rte_pmu_graph_node_stats_get() one lcore's or their sum.
 * rte_pmu_graph_disable() puts the original functions back.
 *
 * Call order:
 *  1. rte_pmu_init(), rte_pmu_add_event() (librte_pmu);
 *  2. the graphs created (rte_graph_create());
 *  3. rte_pmu_graph_enable() for each graph, while no lcore walks it:
 *     before the lcores are launched, or between two of their walks when
 *     the application makes them wait;
 *  4. the lcores walk their graphs (rte_graph_walk()), each after
 *     rte_pmu_lcore_open() so that its first walk opens nothing;
 *  5. rte_pmu_graph_disable() for each graph, or rte_pmu_graph_disable_all(),
 *     again while no lcore walks it;
 *  6. rte_pmu_fini(), then rte_graph_destroy().
 * librte_pmu cannot call into lib/graph, so rte_pmu_fini() does not
 * restore the nodes: disable first (step 5). A graph left enabled across
 * rte_pmu_fini() still runs its nodes, but every wrapped call then goes
 * through the stage API's slow path and is counted as misuse.
 *
 * Thread safety: enable, disable, disable_all and node_stats_get are
 * thread-safe (one lock, control path); enable and disable must not run
 * while an lcore walks the graph concerned. The wrapper runs on the
 * walking lcore: lock-free, as the stage calls are.
 *
 * lib/graph's own statistics (rte_graph_cluster_stats, built in when the
 * application defines RTE_LIBRTE_GRAPH_STATS) still count every call and
 * object; their cycles of a node, measured by rte_graph_walk() around
 * node->process, then include the wrapper's cost (a stage begin and end).
 *
 * Sampling: rte_pmu_stage_sampling_set() on a node's stage id, which
 * rte_pmu_stage_register(node name) gives back.
 */

#include <stdint.h>

#include <rte_compat.h>
#include <rte_graph.h>

#include <rte_pmu.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Largest node id (rte_node_t) a wrapped node may have, plus one. */
#define RTE_PMU_GRAPH_MAX_NODES 1024
/** Most graphs enabled at once. */
#define RTE_PMU_GRAPH_MAX_GRAPHS 128
/** rte_pmu_graph_node_stats_get(): the sum over every lcore. */
#define RTE_PMU_GRAPH_ALL_LCORES UINT32_MAX

struct rte_graph;

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Make every node of @p graph a stage named after the node. Control path;
 * thread-safe; not while an lcore walks @p graph.
 *
 * @param graph
 *   A graph instance, from rte_graph_lookup().
 * @return
 *   0, or
 *   -EINVAL NULL @p graph, or not a graph lib/graph knows;
 *   -EALREADY @p graph already enabled;
 *   -ENOSPC a node id at or above RTE_PMU_GRAPH_MAX_NODES, too many
 *   graphs, or no stage left (rte_pmu_stage_register());
 *   -EBUSY a node's process function is not the one its id had in
 *   another enabled graph;
 *   the error of rte_pmu_stage_register() for a node's name (-ENODEV
 *   before rte_pmu_init(), -EINVAL a name too long for a stage).
 *   On error no node of @p graph is changed.
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
 * Put back the original process function of every node of @p graph.
 * Control path; thread-safe; not while an lcore walks @p graph. The
 * stages and their figures stay.
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
 * A node's figures on one lcore, or summed over every lcore: calls, items,
 * measured, values, self values and misuse added up (num_events is the
 * largest of the lcores'). Thread-safe; from any thread, at any time.
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
