/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The report of dpdk-pmu-graph: per node, the stage figures of the drop-in
 * beside lib/graph's own, the ports, --rounds, --compare and the JSON.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_pmu.h>
#include <rte_pmu_graph.h>

#include "graph_report.h"

struct port_counts ports[MAX_PORTS];
uint64_t pkt_drop_total;

/* A node's figures: the stage's (drop-in) and lib/graph's own. */
struct node_row {
	char name[RTE_NODE_NAMESIZE];
	struct rte_pmu_stage_stats stage;
	uint64_t graph_calls, graph_objs, graph_cycles;
};
static struct node_row rows[MAX_NODES];
static unsigned int num_rows;
/* The table's figures are taken: later stats reads update pkt_drop only. */
static bool rows_taken;

static struct node_row *
row_of(const char *name)
{
	unsigned int i;

	for (i = 0; i < num_rows; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	if (num_rows == MAX_NODES)
		return NULL;
	snprintf(rows[num_rows].name, sizeof(rows[num_rows].name), "%s", name);
	return &rows[num_rows++];
}

/* lib/graph's own figures of each node, summed over the graphs. */
int
graph_stats_cb(bool is_first, bool is_last, void *cookie,
	const struct rte_graph_cluster_node_stats *st)
{
	struct node_row *row;

	RTE_SET_USED(is_first);
	RTE_SET_USED(is_last);
	RTE_SET_USED(cookie);
	row = rows_taken ? NULL : row_of(st->name);
	if (row != NULL) {
		row->graph_calls = st->calls;
		row->graph_objs = st->objs;
		row->graph_cycles = st->cycles;
	}
	if (strcmp(st->name, "pkt_drop") == 0)
		pkt_drop_total = st->objs;
	return 0;
}

void
stats_collect(struct rte_graph_cluster_stats *cs)
{
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;
	struct node_row *row;

	rte_graph_foreach_node(count, off, graph, node) {
		row = row_of(node->name);
		if (row != NULL)
			rte_pmu_graph_node_stats_get(node->name, worker_lcore, &row->stage);
	}
	if (cs != NULL)
		rte_graph_cluster_stats_get(cs, false);
	rows_taken = true;
}

void
ports_collect(void)
{
	struct rte_eth_stats st;
	uint16_t p;

	for (p = 0; p < num_ports; p++) {
		if (rte_eth_stats_get(p, &st) != 0)
			continue;
		ports[p].rx = st.ipackets;
		ports[p].tx = st.opackets;
		ports[p].dropped = st.imissed + st.rx_nombuf + st.oerrors;
	}
}

static double
per(uint64_t a, uint64_t b)
{
	return b != 0 ? (double)a / (double)b : 0.0;
}

void
print_table(FILE *f)
{
	uint64_t hz = rte_get_timer_hz();
	unsigned int i, e;
	bool marked = false;
	char head[32];

	fprintf(f, "\nper node, lcore %u (rte_pmu stages; lib/graph's own figures on the right)\n",
		worker_lcore);
	fprintf(f, "%-16s %10s %10s %8s", "Node", "Calls", "Packets", "Pkts/Call");
	for (e = 0; e < num_events; e++) {
		snprintf(head, sizeof(head), "%.12s/pkt", event_names[e] != NULL ?
			event_names[e] : "?");
		fprintf(f, " %16s", head);
	}
	if (ev_cycles >= 0 && ev_instructions >= 0)
		fprintf(f, " %6s", "IPC");
	fprintf(f, " | %10s %10s %12s %12s\n", "g.calls", "g.objs", "g.cyc/call", "g.ns/obj");
	for (i = 0; i < num_rows; i++) {
		const struct node_row *r = &rows[i];
		const struct rte_pmu_stage_stats *s = &r->stage;

		fprintf(f, "%-16s %10" PRIu64 " %10" PRIu64 " %8.2f", r->name, s->calls,
			s->items, per(s->items, s->calls));
		/* '~': not exact (rte_pmu_stage_stats::inexact), as in the dump;
		 * '-': no call measured, not known (not 0), or no packet.
		 */
		for (e = 0; e < num_events; e++) {
			if (s->measured == 0 || s->items == 0)
				fprintf(f, " %15s%c", "-", (s->inexact >> e) & 1 ? '~' : ' ');
			else
				fprintf(f, " %15.2f%c", per(s->values[e], s->items),
					(s->inexact >> e) & 1 ? '~' : ' ');
			marked |= (s->inexact >> e) & 1;
		}
		if (ev_cycles >= 0 && ev_instructions >= 0 && s->measured == 0)
			fprintf(f, " %6s", "-");
		else if (ev_cycles >= 0 && ev_instructions >= 0)
			fprintf(f, " %6.2f", per(s->values[ev_instructions], s->values[ev_cycles]));
		fprintf(f, " | %10" PRIu64 " %10" PRIu64 " %12.1f", r->graph_calls,
			r->graph_objs, per(r->graph_cycles, r->graph_calls));
		if (r->graph_objs != 0)
			fprintf(f, " %12.2f\n", (double)r->graph_cycles * 1e9 / hz / r->graph_objs);
		else
			fprintf(f, " %12s\n", "-");
	}
	if (marked)
		fprintf(f, "%s\n", RTE_PMU_STAGE_INEXACT_NOTE);
}

void
print_rounds(FILE *f)
{
	const struct round_best *b;
	unsigned int i;

	fprintf(f, "\nper node, fewest instructions per packet over rounds 2 to %lu of %lu walks:\n",
		opt_rounds, opt_walks);
	fprintf(f, "      %-16s %10s %10s %16s\n", "Node", "Calls", "Packets",
		"instructions/pkt");
	for (i = 0; i < num_round_nodes; i++) {
		b = &round_nodes[i];
		if (!b->have)
			continue;
		fprintf(f, "round %-16s %10" PRIu64 " %10" PRIu64 " %16.4f\n", b->name,
			b->best_calls, b->best_items, per(b->best_instr, b->best_items));
	}
}

void
print_compare(FILE *f)
{
	fprintf(f, "\ndrop-in off, on, and sampled 1 in %d (a third of the run each):\n",
		COMPARE_PERIOD);
	print_compare_table(f, results);
}

void
print_json(void)
{
	unsigned int i, e;

	printf("{");
	print_events_json();
	printf(", \"ports\": [");
	for (i = 0; i < num_ports; i++)
		printf("%s{\"port\": %u, \"rx\": %" PRIu64 ", \"tx\": %" PRIu64
			", \"dropped\": %" PRIu64 "}", i != 0 ? ", " : "", i, ports[i].rx,
			ports[i].tx, ports[i].dropped);
	printf("], \"injected\": %lu, \"pkt_drop\": %" PRIu64 ", \"stages\": [",
		opt_inject * num_ports, pkt_drop_total);
	for (i = 0; i < num_rows; i++) {
		const struct node_row *r = &rows[i];

		printf("%s{\"lcore\": %u, \"name\": \"%s\", \"calls\": %" PRIu64
			", \"items\": %" PRIu64 ", \"measured\": %" PRIu64 ", \"misuse\": %"
			PRIu64 ", \"events\": {", i != 0 ? ", " : "", worker_lcore, r->name,
			r->stage.calls, r->stage.items, r->stage.measured, r->stage.misuse);
		/* null: no call measured, not known. */
		for (e = 0; e < num_events; e++) {
			printf("%s\"%s\": ", e != 0 ? ", " : "", event_names[e] != NULL ?
				event_names[e] : "");
			if (r->stage.measured != 0)
				printf("%" PRIu64, r->stage.values[e]);
			else
				printf("null");
		}
		printf("}, \"inexact\": ");
		print_event_bits_json(r->stage.inexact);
		printf(", \"graph\": {\"calls\": %" PRIu64 ", \"objs\": %" PRIu64
			", \"cycles\": %" PRIu64 "}}", r->graph_calls, r->graph_objs,
			r->graph_cycles);
	}
	printf("]");
	if (opt_compare)
		print_compare_json(results, "");
	printf("}\n");
}
