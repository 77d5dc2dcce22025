/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef GRAPH_REPORT_H
#define GRAPH_REPORT_H

/* What the graph runner (main.c) and its report (report.c) of
 * dpdk-pmu-graph share: the figures collected after the run and the
 * calls that collect and print them.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_graph.h>
#include <rte_graph_worker.h>

#include "pmu_example.h"

#define MAX_PORTS 16
#define MAX_NODES 64

/* --rounds: per node, the round with the fewest instructions per packet. */
struct round_best {
	char name[RTE_NODE_NAMESIZE];
	int id;
	/* Of the previous round's end: instructions over the measured calls. */
	uint64_t calls, items, measured, instructions;
	uint64_t best_calls, best_items, best_instr;
	bool have;
};

/* Per port: totals over the whole program. */
struct port_counts {
	uint64_t rx, tx, dropped;
};

/* Options the report reads. */
extern bool opt_compare;
extern bool opt_json;
extern unsigned long opt_walks;
extern unsigned long opt_inject;
extern unsigned long opt_rounds;

extern struct round_best round_nodes[MAX_NODES];
extern unsigned int num_round_nodes;
extern uint16_t num_ports;
extern unsigned int worker_lcore;
extern struct rte_graph *graph;
/* Each mode's run of the worker: how long, and what it counted. */
extern struct mode_result results[MODE_COUNT];

/* Filled by ports_collect() and stats_collect(). */
extern struct port_counts ports[MAX_PORTS];
extern uint64_t pkt_drop_total;

/* lib/graph's own figures of each node (rte_graph_cluster_stats callback). */
int graph_stats_cb(bool is_first, bool is_last, void *cookie,
	const struct rte_graph_cluster_node_stats *st);
/* Each node's stage figures on the worker, and lib/graph's through @p cs. */
void stats_collect(struct rte_graph_cluster_stats *cs);
/* The ports' totals from ethdev. */
void ports_collect(void);

/* The per-node table (VPP's shape, lib/graph's figures beside). */
void print_table(FILE *f);
/* --rounds: each node's round with the fewest instructions per packet. */
void print_rounds(FILE *f);
/* --compare's modes. */
void print_compare(FILE *f);
/* The JSON object on stdout. */
void print_json(void);

#endif /* GRAPH_REPORT_H */
