/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_GRAPH_PRIVATE_H
#define PMU_GRAPH_PRIVATE_H

/* What the node wrapper reads, shared by pmu_graph.c and the wrappers
 * written for an architecture (pmu_graph_arm64.S): the offsets below are
 * checked against the structures where pmu_graph.c is compiled.
 */

/* struct rte_node (rte_graph_worker.h): the node's id. */
#define PMU_GRAPH_NODE_ID 12
/* struct pmu_graph_slot: 32 bytes, the call's id, the node's function. */
#define PMU_GRAPH_SLOT_SHIFT 5
#define PMU_GRAPH_SLOT_ID 8
#define PMU_GRAPH_SLOT_PROCESS 16
/* struct __rte_pmu_stage_lcore: sp and limit (one pair), the measured
 * call, the countdowns (4 bytes each) and the pending words (8 bytes).
 */
#define PMU_GRAPH_SL_SP 0
#define PMU_GRAPH_SL_LIMIT 8
#define PMU_GRAPH_SL_CALL 64
#define PMU_GRAPH_SL_COUNTDOWN 368
#define PMU_GRAPH_SL_PENDING 880
/* struct __rte_pmu_stage_frame: 256 bytes, the tag first. */
#define PMU_GRAPH_FRAME_SIZE 256
/* __RTE_PMU_STAGE_PENDING_SHIFT */
#define PMU_GRAPH_PENDING_SHIFT 16

#ifndef __ASSEMBLER__

#include <stdint.h>

#include <rte_graph_worker.h>

#include "rte_pmu_stage.h"

/* What the wrapper needs of a node, by node id (see pmu_graph.c). */
struct pmu_graph_slot {
	struct __rte_pmu_stage_call call;
	rte_node_process_t process;
} __rte_aligned(32);

extern struct pmu_graph_slot pmu_graph_slots[] __attribute__((visibility("hidden")));

/* The wrapper of struct rte_node::process. */
uint16_t pmu_graph_process(struct rte_graph *graph, struct rte_node *node, void **objs,
	uint16_t nb_objs) __attribute__((visibility("hidden")));

/* A node call as rte_pmu_stage_begin() and rte_pmu_stage_end() make it. */
uint16_t pmu_graph_process_framed(void *graph, void *node, void **objs, uint16_t nb_objs,
	struct __rte_pmu_stage_lcore *sl, const struct __rte_pmu_stage_call *c)
	__attribute__((visibility("hidden")));

#endif /* __ASSEMBLER__ */

#endif /* PMU_GRAPH_PRIVATE_H */
