/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* dpdk-pmu-graph: an IPv4 forwarder built from DPDK's own graph nodes
 * (librte_node: ethdev_rx, pkt_cls, ip4_lookup, ip4_rewrite, ethdev_tx,
 * pkt_drop) over the ports the EAL gives it, every node made a stage by
 * librte_pmu_graph. It prints, per node, a table shaped like VPP's perfmon
 * (Calls, Packets, Packets/Call, each event per packet, IPC) and, beside
 * it, lib/graph's own cycles of the same nodes in the same run.
 *
 *   dpdk-pmu-graph [EAL options] -- [--duration SEC] [--events LIST]
 *       [--sampling N] [--compare] [--json] [--walks N] [--inject N]
 *
 * Traffic: IPv4 packets to 10.P.0.0/16 leave through port P (rewritten
 * with source MAC of port P, destination 02:00:00:00:00:P); anything else
 * goes to pkt_drop. One worker lcore walks one graph; every port has one
 * rx and one tx queue. --inject sends packets of that shape into each port
 * before the walk (port P's to 10.(P+1).0.0/16): over net_ring, whose tx
 * comes back as its rx, they circulate for the whole run, a traffic source
 * with no file (the arm64 guest's). With --walks the run stops after that
 * many walks: in a machine that counts exactly, two runs give the same
 * per-node figures.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_graph.h>
#include <rte_graph_worker.h>
#include <rte_ip.h>
#include <rte_udp.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_node_eth_api.h>
#include <rte_node_ip4_api.h>

#include <rte_pmu.h>
#include <rte_pmu_graph.h>
#include <rte_pmu_stage.h>

#include "pmu_example.h"
#include "graph_report.h"

#define RX_DESC 1024
#define TX_DESC 1024
#define NUM_MBUFS 8191
#define GRAPH_NAME "pmu_graph_worker"

/* Options (those the report reads are in graph_report.h). */
static unsigned long opt_duration_s = 5;
static const char *opt_events;
static unsigned long opt_sampling = 1;
bool opt_compare;
bool opt_json;
unsigned long opt_walks;
unsigned long opt_inject;
unsigned long opt_rounds = 1;

struct round_best round_nodes[MAX_NODES];
unsigned int num_round_nodes;

uint16_t num_ports;
unsigned int worker_lcore;
struct rte_graph *graph;
static rte_graph_t graph_id = RTE_GRAPH_ID_INVALID;
static volatile bool force_quit;

struct mode_result results[MODE_COUNT];
static uint64_t run_deadline;

static void
signal_handler(int sig)
{
	RTE_SET_USED(sig);
	force_quit = true;
}

static void
usage(FILE *f, const char *prog)
{
	fprintf(f, "usage: %s [EAL options] -- [options]\n"
		"  --duration SEC   stop after SEC seconds (default 5)\n"
		"  --events LIST    events to count (default " DEFAULT_EVENTS ";\n"
		"                   where none can be counted: " FALLBACK_TSC " where it\n"
		"                   opens, else " FALLBACK_EVENTS ")\n"
		"  --sampling N     measure 1 node call in N (default 1)\n"
		"  --compare        run three times, a third of the duration each: drop-in\n"
		"                   off, on, and sampled 1 in %d; print their costs\n"
		"  --json           print one JSON object on stdout\n"
		"  --walks N        stop each run after N walks of the graph (or at the\n"
		"                   end of the duration)\n"
		"  --inject N       send N packets into each port before walking (net_ring\n"
		"                   loops them back: a traffic source without a pcap)\n"
		"  --rounds R       with --walks and an instructions event: R rounds of the\n"
		"                   walks; print each node's fewest instructions per packet\n"
		"                   over rounds 2..R (a round an interrupt hit is left out)\n"
		"Traffic: IPv4 to 10.P.0.0/16 leaves through port P; anything else is dropped.\n",
		prog, COMPARE_PERIOD);
}

static int
parse_args(int argc, char **argv)
{
	enum { OPT_DURATION = 256, OPT_EVENTS, OPT_SAMPLING, OPT_COMPARE, OPT_JSON, OPT_WALKS,
		OPT_INJECT, OPT_ROUNDS };
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "events", required_argument, NULL, OPT_EVENTS },
		{ "sampling", required_argument, NULL, OPT_SAMPLING },
		{ "compare", no_argument, NULL, OPT_COMPARE },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "walks", required_argument, NULL, OPT_WALKS },
		{ "inject", required_argument, NULL, OPT_INJECT },
		{ "rounds", required_argument, NULL, OPT_ROUNDS },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_DURATION:
			if (parse_ulong(optarg, 1, 86400, &opt_duration_s) != 0) {
				fprintf(stderr, "--duration: 1 to 86400 seconds\n");
				return -EINVAL;
			}
			break;
		case OPT_EVENTS:
			opt_events = optarg;
			break;
		case OPT_SAMPLING:
			if (parse_ulong(optarg, 1, RTE_PMU_STAGE_PERIOD_MAX, &opt_sampling) != 0) {
				fprintf(stderr, "--sampling: 1 to %d\n", RTE_PMU_STAGE_PERIOD_MAX);
				return -EINVAL;
			}
			break;
		case OPT_COMPARE:
			opt_compare = true;
			break;
		case OPT_JSON:
			opt_json = true;
			break;
		case OPT_WALKS:
			if (parse_ulong(optarg, 1, ULONG_MAX, &opt_walks) != 0) {
				fprintf(stderr, "--walks: at least 1\n");
				return -EINVAL;
			}
			break;
		case OPT_ROUNDS:
			if (parse_ulong(optarg, 2, 1000, &opt_rounds) != 0) {
				fprintf(stderr, "--rounds: 2 to 1000\n");
				return -EINVAL;
			}
			break;
		case OPT_INJECT:
			if (parse_ulong(optarg, 1, 4096, &opt_inject) != 0) {
				fprintf(stderr, "--inject: 1 to 4096 packets\n");
				return -EINVAL;
			}
			break;
		default:
			return -EINVAL;
		}
	}
	if (opt_rounds > 1 && (opt_walks == 0 || opt_compare)) {
		fprintf(stderr, "--rounds needs --walks, without --compare\n");
		return -EINVAL;
	}
	if (optind != argc) {
		fprintf(stderr, "unexpected argument %s\n", argv[optind]);
		return -EINVAL;
	}
	return 0;
}

static int
port_setup(uint16_t port, struct rte_mempool *mp)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	uint16_t nb_rxd = RX_DESC, nb_txd = TX_DESC;
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_info_get(port, &info);
	if (ret != 0)
		return ret;
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret != 0)
		return ret;
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nb_rxd, &nb_txd);
	if (ret != 0)
		return ret;
	ret = rte_eth_rx_queue_setup(port, 0, nb_rxd, rte_eth_dev_socket_id(port), NULL, mp);
	if (ret != 0)
		return ret;
	return rte_eth_tx_queue_setup(port, 0, nb_txd, rte_eth_dev_socket_id(port), NULL);
}

/* The graph of the worker: its ports' rx nodes and the IPv4 nodes. */
static int
graph_setup(void)
{
	const char *patterns[MAX_PORTS + 4];
	char rx_names[MAX_PORTS][RTE_NODE_NAMESIZE];
	struct rte_graph_param prm;
	uint16_t p, n = 0;

	for (p = 0; p < num_ports; p++) {
		snprintf(rx_names[p], sizeof(rx_names[p]), "ethdev_rx-%u-0", p);
		patterns[n++] = rx_names[p];
	}
	patterns[n++] = "pkt_cls";
	patterns[n++] = "ip4*";
	patterns[n++] = "ethdev_tx-*";
	patterns[n++] = "pkt_drop";
	memset(&prm, 0, sizeof(prm));
	prm.socket_id = rte_lcore_to_socket_id(worker_lcore);
	prm.nb_node_patterns = n;
	prm.node_patterns = patterns;
	graph_id = rte_graph_create(GRAPH_NAME, &prm);
	if (graph_id == RTE_GRAPH_ID_INVALID) {
		fprintf(stderr, "rte_graph_create: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	graph = rte_graph_lookup(GRAPH_NAME);
	return graph != NULL ? 0 : -1;
}

/* Routes: 10.P.0.0/16 to next hop P, rewritten for port P. */
static int
routes_setup(void)
{
	uint8_t rewrite[2 * RTE_ETHER_ADDR_LEN + 2];
	struct rte_ether_addr mac;
	uint16_t p;
	int ret;

	for (p = 0; p < num_ports; p++) {
		ret = rte_node_ip4_route_add(RTE_IPV4(10, p, 0, 0), 16, p,
			RTE_NODE_IP4_LOOKUP_NEXT_REWRITE);
		if (ret < 0) {
			fprintf(stderr, "route 10.%u.0.0/16: %s\n", p, strerror(-ret));
			return ret;
		}
		/* Destination 02:00:00:00:00:P, source the port's, type IPv4. */
		memset(rewrite, 0, sizeof(rewrite));
		rewrite[0] = 0x02;
		rewrite[5] = (uint8_t)p;
		ret = rte_eth_macaddr_get(p, &mac);
		if (ret != 0)
			return ret;
		memcpy(&rewrite[RTE_ETHER_ADDR_LEN], &mac, RTE_ETHER_ADDR_LEN);
		rewrite[2 * RTE_ETHER_ADDR_LEN] = RTE_ETHER_TYPE_IPV4 >> 8;
		rewrite[2 * RTE_ETHER_ADDR_LEN + 1] = RTE_ETHER_TYPE_IPV4 & 0xff;
		ret = rte_node_ip4_rewrite_add(p, rewrite, sizeof(rewrite), p);
		if (ret < 0) {
			fprintf(stderr, "rewrite of next hop %u: %s\n", p, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static uint64_t
ports_rx(void)
{
	struct rte_eth_stats st;
	uint64_t sum = 0;
	uint16_t p;

	for (p = 0; p < num_ports; p++)
		if (rte_eth_stats_get(p, &st) == 0)
			sum += st.ipackets;
	return sum;
}

/* End of a round: each node's figures since the previous round's end. */
static void
round_end(unsigned int round)
{
	struct rte_pmu_stage_stats st;
	struct round_best *b;
	uint64_t dc, di, dm, dv;
	unsigned int i;

	for (i = 0; i < num_round_nodes; i++) {
		b = &round_nodes[i];
		if (rte_pmu_stage_stats_get(rte_lcore_id(), b->id, &st) != 0)
			continue;
		/* The round's measured calls (sums that never go down) scaled
		 * to its calls: sums where each call was measured.
		 */
		dc = st.calls - b->calls;
		di = st.items - b->items;
		dm = st.measured - b->measured;
		dv = st.measured_values[ev_instructions] - b->instructions;
		if (dm != dc)
			dv = dm != 0 ? (uint64_t)((double)dv * dc / dm + 0.5) : 0;
		b->calls = st.calls;
		b->items = st.items;
		b->measured = st.measured;
		b->instructions = st.measured_values[ev_instructions];
		/* The first round warms up; a node that handled nothing is left out. */
		if (round == 0 || di == 0)
			continue;
		if (!b->have || dv * b->best_items < b->best_instr * di) {
			b->best_calls = dc;
			b->best_items = di;
			b->best_instr = dv;
			b->have = true;
		}
	}
}

/* The worker: walk its graph until the deadline or a signal. */
static int
worker_main(void *arg)
{
	struct mode_result *r = arg;
	uint64_t i0 = 0, i1 = 0, t0, t1;
	unsigned long walks = 0;
	int ret;

	ret = rte_pmu_lcore_open();
	if (ret != 0)
		fprintf(stderr, "lcore %u: rte_pmu_lcore_open: %s\n", rte_lcore_id(),
			strerror(-ret));
	if (ev_instructions >= 0)
		i0 = rte_pmu_read(ev_instructions);
	t0 = rte_get_timer_cycles();
	t1 = t0;
	if (opt_rounds > 1) {
		unsigned long round;

		for (round = 0; round < opt_rounds && !force_quit; round++) {
			for (walks = 0; walks < opt_walks; walks++)
				rte_graph_walk(graph);
			round_end(round);
		}
		t1 = rte_get_timer_cycles();
	}
	while (opt_rounds == 1 && !force_quit && t1 < run_deadline) {
		rte_graph_walk(graph);
		t1 = rte_get_timer_cycles();
		if (opt_walks != 0 && ++walks == opt_walks)
			break;
	}
	if (ev_instructions >= 0)
		i1 = rte_pmu_read(ev_instructions);
	r->tsc += t1 - t0;
	r->instructions += i1 - i0;
	return 0;
}

/* A UDP packet from 192.0.2.1 to 10.@p dst_port.x.y, or to 192.168.0.1 (no
 * route) for one in 8.
 */
static struct rte_mbuf *
packet_make(struct rte_mempool *mp, uint16_t src_port, uint16_t dst_port, unsigned int i)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	const uint16_t payload = 18;
	char *p;

	if (m == NULL)
		return NULL;
	p = rte_pktmbuf_append(m, sizeof(*eth) + sizeof(*ip) + sizeof(*udp) + payload);
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memset(p, 0, rte_pktmbuf_data_len(m));
	eth = (struct rte_ether_hdr *)p;
	eth->dst_addr.addr_bytes[0] = 0x02;
	eth->dst_addr.addr_bytes[5] = (uint8_t)src_port;
	eth->src_addr.addr_bytes[0] = 0x02;
	eth->src_addr.addr_bytes[5] = 0x99;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(sizeof(*ip) + sizeof(*udp) + payload);
	ip->packet_id = rte_cpu_to_be_16((uint16_t)i);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(RTE_IPV4(192, 0, 2, 1));
	if (i % 8 == 7)
		ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(192, 168, 0, 1));
	else
		ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(10, dst_port, (i >> 8) & 0xff,
			i & 0xff));
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp = (struct rte_udp_hdr *)(ip + 1);
	udp->src_port = rte_cpu_to_be_16(1024 + i);
	udp->dst_port = rte_cpu_to_be_16(9);
	udp->dgram_len = rte_cpu_to_be_16(sizeof(*udp) + payload);
	return m;
}

/* --inject: @p n packets into each port's tx queue. */
static int
inject(struct rte_mempool *mp, unsigned int n)
{
	struct rte_mbuf *m;
	unsigned int i;
	uint16_t p, sent;

	for (p = 0; p < num_ports; p++) {
		for (i = 0; i < n; i++) {
			m = packet_make(mp, p, (p + 1) % num_ports, i);
			if (m == NULL) {
				fprintf(stderr, "inject: no mbuf\n");
				return -ENOMEM;
			}
			sent = rte_eth_tx_burst(p, 0, &m, 1);
			if (sent != 1) {
				rte_pktmbuf_free(m);
				fprintf(stderr, "inject: port %u took %u of %u packets\n", p, i, n);
				return -ENOSPC;
			}
		}
	}
	return 0;
}

/* Run the worker for @p tsc cycles in mode @p m. */
static int
run(enum run_mode m, uint64_t tsc)
{
	struct mode_result *r = &results[m];
	uint64_t rx0 = ports_rx();
	int ret;

	if (m != MODE_OFF) {
		ret = rte_pmu_graph_enable(graph);
		if (ret != 0) {
			fprintf(stderr, "rte_pmu_graph_enable: %s\n", strerror(-ret));
			return ret;
		}
	}
	if (opt_rounds > 1 && ev_instructions >= 0 && num_round_nodes == 0) {
		struct rte_node *node;
		rte_graph_off_t off;
		rte_node_t count;

		rte_graph_foreach_node(count, off, graph, node) {
			if (num_round_nodes == MAX_NODES)
				break;
			snprintf(round_nodes[num_round_nodes].name, RTE_NODE_NAMESIZE, "%s",
				node->name);
			round_nodes[num_round_nodes++].id = rte_pmu_stage_register(node->name);
		}
	}
	run_deadline = rte_get_timer_cycles() + tsc;
	ret = rte_eal_remote_launch(worker_main, r, worker_lcore);
	if (ret != 0)
		return ret;
	rte_eal_wait_lcore(worker_lcore);
	/* Between walks: the worker has returned. */
	if (m != MODE_OFF)
		rte_pmu_graph_disable(graph);
	r->packets += ports_rx() - rx0;
	return 0;
}

static int
set_sampling(unsigned long period)
{
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;
	int id, ret;

	rte_graph_foreach_node(count, off, graph, node) {
		id = rte_pmu_stage_register(node->name);
		if (id < 0)
			return id;
		ret = rte_pmu_stage_sampling_set(id, period);
		if (ret != 0)
			return ret;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct rte_node_ethdev_config eth_conf[MAX_PORTS];
	struct rte_graph_cluster_stats_param csp;
	struct rte_graph_cluster_stats *cs = NULL;
	const char *graph_patterns[] = { GRAPH_NAME };
	struct rte_mempool *mp;
	FILE *out;
	uint64_t hz, total;
	unsigned int added;
	uint16_t p;
	int ret, rc = 1;

	if (example_early_option(argc, argv, usage))
		return 0;
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "rte_eal_init failed\n");
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (parse_args(argc, argv) != 0) {
		usage(stderr, argv[0]);
		rte_eal_cleanup();
		return 2;
	}
	signal(SIGINT, signal_handler);
	signal(SIGTERM, signal_handler);
	out = opt_json ? stderr : stdout;

	num_ports = rte_eth_dev_count_avail();
	if (num_ports == 0 || num_ports > MAX_PORTS) {
		fprintf(stderr, "need 1 to %d ports, have %u (give some with --vdev, e.g. "
			"net_pcap0,rx_pcap=IN,tx_pcap=OUT)\n", MAX_PORTS, num_ports);
		goto out_eal;
	}
	worker_lcore = rte_get_next_lcore(-1, 1, 0);
	if (worker_lcore >= RTE_MAX_LCORE) {
		fprintf(stderr, "need a worker lcore (-l 0-1)\n");
		goto out_eal;
	}

	ret = rte_pmu_init();
	if (ret != 0) {
		fprintf(stderr, "rte_pmu_init: %s\n", strerror(-ret));
		goto out_eal;
	}
	added = opt_events != NULL ? add_events(opt_events) : add_default_events();
	if (added == 0) {
		fprintf(stderr, "no event could be added\n");
		goto out_pmu;
	}
	if (opt_rounds > 1 && ev_instructions < 0) {
		fprintf(stderr, "--rounds needs an instructions event, and none was added\n");
		ret = -EINVAL;
		goto out_pmu;
	}

	mp = rte_pktmbuf_pool_create("pmu_graph_mbufs", NUM_MBUFS, 256,
		RTE_CACHE_LINE_SIZE /* librte_node's per-mbuf data */,
		RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	if (mp == NULL) {
		fprintf(stderr, "mbuf pool: %s\n", rte_strerror(rte_errno));
		goto out_pmu;
	}
	for (p = 0; p < num_ports; p++) {
		ret = port_setup(p, mp);
		if (ret != 0) {
			fprintf(stderr, "port %u: %s\n", p, strerror(-ret));
			goto out_pmu;
		}
		eth_conf[p].port_id = p;
		eth_conf[p].num_rx_queues = 1;
		eth_conf[p].num_tx_queues = 1;
		eth_conf[p].mp = &mp;
		eth_conf[p].mp_count = 1;
	}
	ret = rte_node_eth_config(eth_conf, num_ports, 1);
	if (ret != 0) {
		fprintf(stderr, "rte_node_eth_config: %s\n", strerror(-ret));
		goto out_pmu;
	}
	for (p = 0; p < num_ports; p++) {
		ret = rte_eth_dev_start(p);
		if (ret != 0) {
			fprintf(stderr, "port %u start: %s\n", p, strerror(-ret));
			goto out_ports;
		}
		rte_eth_promiscuous_enable(p);
	}
	if (graph_setup() != 0 || routes_setup() != 0)
		goto out_ports;
	if (opt_inject != 0 && inject(mp, opt_inject) != 0)
		goto out_stats;

	memset(&csp, 0, sizeof(csp));
	csp.socket_id = SOCKET_ID_ANY;
	csp.fn = graph_stats_cb;
	csp.nb_graph_patterns = 1;
	csp.graph_patterns = graph_patterns;
	cs = rte_graph_cluster_stats_create(&csp);
	if (cs == NULL)
		fprintf(stderr, "rte_graph_cluster_stats_create failed: lib/graph's figures "
			"left out\n");

	if (!opt_json) {
		printf("dpdk-pmu-graph: %u port(s), worker lcore %u, %u graph nodes, %lu s%s; "
			"events:", num_ports, worker_lcore, graph->nb_nodes, opt_duration_s,
			opt_compare ? " (off, on, sampled)" : "");
		for (p = 0; p < num_events; p++)
			printf(" %s", event_names[p] != NULL ? event_names[p] : "?");
		printf("\n");
	}

	hz = rte_get_timer_hz();
	total = opt_duration_s * hz;
	if (opt_sampling > 1 && set_sampling(opt_sampling) != 0)
		goto out_stats;
	if (!opt_compare) {
		if (run(MODE_ON, total) != 0)
			goto out_stats;
		stats_collect(cs);
	} else {
		/* On first, its figures are the table's; then off, then sampled. */
		if (run(MODE_ON, total / 3) != 0)
			goto out_stats;
		stats_collect(cs);
		if (run(MODE_OFF, total / 3) != 0)
			goto out_stats;
		if (set_sampling(COMPARE_PERIOD) != 0 || run(MODE_SAMPLED, total / 3) != 0)
			goto out_stats;
		/* pkt_drop of the whole run, for the totals. */
		if (cs != NULL)
			rte_graph_cluster_stats_get(cs, false);
	}
	ports_collect();
	for (p = 0; p < num_ports; p++)
		if (!opt_json)
			printf("port %u: rx %" PRIu64 " tx %" PRIu64 " dropped %" PRIu64 "\n", p,
				ports[p].rx, ports[p].tx, ports[p].dropped);
	if (!opt_json) {
		struct rte_pmu_lcore_info *info = calloc(1, sizeof(*info));

		printf("pkt_drop (lib/graph's count): %" PRIu64 "\n", pkt_drop_total);
		/* Counter reads that needed the kernel: they add the read() path's
		 * instructions to the stage they fall in.
		 */
		if (info != NULL && rte_pmu_lcore_info_get(worker_lcore, info) == 0)
			printf("worker lcore %u: %" PRIu64 " counter reads through read()\n",
				worker_lcore, info->slow_reads);
		free(info);
	}
	print_table(out);
	if (num_round_nodes != 0)
		print_rounds(out);
	if (opt_compare)
		print_compare(out);
	if (opt_json)
		print_json();
	rc = 0;

out_stats:
	if (cs != NULL)
		rte_graph_cluster_stats_destroy(cs);
	/* Drop-in off before rte_pmu_fini(), as its guide asks. */
	rte_pmu_graph_disable_all();
	if (graph_id != RTE_GRAPH_ID_INVALID)
		rte_graph_destroy(graph_id);
out_ports:
	for (p = 0; p < num_ports; p++) {
		rte_eth_dev_stop(p);
		rte_eth_dev_close(p);
	}
out_pmu:
	rte_pmu_fini();
	for (p = 0; p < RTE_MAX_NUM_GROUP_EVENTS; p++)
		free(event_names[p]);
out_eal:
	rte_eal_cleanup();
	return rc;
}
