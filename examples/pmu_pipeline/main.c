/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* A small IPv4 forwarder measured stage by stage: each worker lcore polls
 * its ports, and each burst goes through three stages, counted with the
 * rte_pmu stage calls on the events given:
 *
 *   rx       rte_eth_rx_burst() on the port
 *   process  IPv4 parse, rte_lpm lookup of the destination, MAC rewrite
 *   tx       rte_eth_tx_burst() on the peer port
 *
 * Ports are whatever the EAL gives (net_pcap, net_ring, net_null, net_tap,
 * a NIC), paired 0<->1, 2<->3, ... (a last odd port forwards to itself);
 * pairs are shared out over the worker lcores, one queue per port. Packets
 * to 10.0.0.0/8 are forwarded (10.1.0.0/16 and 10.2.0.0/16 to their own
 * next hops); anything else, and anything not IPv4, is dropped and counted.
 * Every packet received is sent or counted as dropped.
 *
 *   dpdk-pmu-pipeline [EAL options] -- [--duration SEC] [--events LIST]
 *       [--sampling N] [--burst N] [--packets N] [--inject N] [--compare]
 *       [--json]
 *
 * At the end it prints the ports and the library's stage table,
 * rte_pmu_stage_dump(), per lcore and in total (shaped like VPP's perfmon:
 * Calls, Items, Items/Call, each event per item and per call, IPC; items
 * are packets), and with --json also one JSON object. --compare runs the loop with stages off, on
 * and sampled 1 in 16 in turn, three rounds, a ninth of the duration (or
 * --packets) each,
 * and prints the packet rate and, when "instructions" is counted, the
 * instructions per packet of each, as ratios against "off".
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_lpm.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_pause.h>
#include <rte_pmu.h>
#include <rte_pmu_stage.h>
#include <rte_udp.h>

#include "pmu_example.h"
#include "pipeline.h"

#define MAX_BURST 256
#define RX_DESC 1024
#define TX_DESC 1024
#define NUM_HOPS 3
/* Rounds of the three modes of --compare. */
#define COMPARE_ROUNDS 3

/* Options (those the report reads are in pipeline.h). */
static unsigned long opt_duration_s = 5;
static const char *opt_events;
unsigned long opt_sampling = 1;
unsigned long opt_burst = 32;
static unsigned long opt_packets;
static unsigned long opt_inject;
bool opt_compare;
bool opt_json;
unsigned long opt_rounds = 1;

int stage_rx, stage_process, stage_tx;
static struct rte_lpm *lpm;
static struct rte_ether_addr port_mac[MAX_PORTS];
/* Next hops of the routes: the neighbour's MAC the packet is sent to. */
static struct rte_ether_addr hop_mac[NUM_HOPS];
uint16_t num_ports;
static volatile bool force_quit;

struct port_stats port_stats[MAX_PORTS];
struct worker workers[RTE_MAX_LCORE];
unsigned int num_workers;
/* Workers with ports, and how many reached the barrier so far. */
static unsigned int num_busy_workers;
static unsigned int barrier_count;
static unsigned int workers_done;

static void
signal_handler(int sig __rte_unused)
{
	force_quit = true;
}

static void
usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [EAL options] -- [options]\n"
		"  --duration SEC   stop after SEC seconds (default 5)\n"
		"  --events LIST    events to count (default " DEFAULT_EVENTS ";\n"
		"                   where none can be counted: " FALLBACK_TSC " where it\n"
		"                   opens, else " FALLBACK_EVENTS ")\n"
		"  --sampling N     measure 1 stage call in N (default 1: every call)\n"
		"  --burst N        packets per rx burst, 1 to %d (default 32)\n"
		"  --rounds N       split the run into N rounds (at most %d) and print\n"
		"                   also the median round's events per packet\n"
		"  --packets N      each worker stops after receiving N packets\n"
		"                   (per round, or per run of --compare; the duration\n"
		"                   still bounds it)\n"
		"  --inject N       send N generated packets out of each port first\n"
		"                   (traffic for net_ring ports, which loop back)\n"
		"  --compare        run with stages off, on and sampled 1 in %d, in turn\n"
		"                   (%d rounds), and print the per-packet cost of each\n"
		"                   as ratios against off\n"
		"  --json           print one JSON object on stdout\n",
		prog, MAX_BURST, MAX_ROUNDS, COMPARE_PERIOD, COMPARE_ROUNDS);
}

static int
parse_args(int argc, char **argv)
{
	enum { OPT_DURATION = 256, OPT_EVENTS, OPT_SAMPLING, OPT_BURST, OPT_PACKETS,
		OPT_INJECT, OPT_COMPARE, OPT_JSON, OPT_ROUNDS };
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "events", required_argument, NULL, OPT_EVENTS },
		{ "sampling", required_argument, NULL, OPT_SAMPLING },
		{ "burst", required_argument, NULL, OPT_BURST },
		{ "packets", required_argument, NULL, OPT_PACKETS },
		{ "inject", required_argument, NULL, OPT_INJECT },
		{ "compare", no_argument, NULL, OPT_COMPARE },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "rounds", required_argument, NULL, OPT_ROUNDS },
		{ NULL, 0, NULL, 0 },
	};
	int opt, ret = 0;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_DURATION:
			ret = parse_ulong(optarg, 1, 86400, &opt_duration_s);
			break;
		case OPT_EVENTS:
			opt_events = optarg;
			break;
		case OPT_SAMPLING:
			ret = parse_ulong(optarg, 1, RTE_PMU_STAGE_PERIOD_MAX, &opt_sampling);
			break;
		case OPT_BURST:
			ret = parse_ulong(optarg, 1, MAX_BURST, &opt_burst);
			break;
		case OPT_PACKETS:
			ret = parse_ulong(optarg, 1, ULONG_MAX, &opt_packets);
			break;
		case OPT_INJECT:
			ret = parse_ulong(optarg, 1, 4096, &opt_inject);
			break;
		case OPT_COMPARE:
			opt_compare = true;
			break;
		case OPT_JSON:
			opt_json = true;
			break;
		case OPT_ROUNDS:
			ret = parse_ulong(optarg, 1, MAX_ROUNDS, &opt_rounds);
			break;
		default:
			return -EINVAL;
		}
		if (ret != 0) {
			fprintf(stderr, "bad value for --%s: %s\n",
				longopts[opt - OPT_DURATION].name, optarg);
			return ret;
		}
	}

	return optind == argc ? 0 : -EINVAL;
}

/* Routes that fit the traffic this program expects: 10.0.0.0/8 to next
 * hop 0, 10.1.0.0/16 to next hop 1, 10.2.0.0/16 to next hop 2.
 */
static int
setup_routes(void)
{
	static const struct {
		uint32_t prefix;
		uint8_t depth;
		uint32_t hop;
	} routes[] = {
		{ RTE_IPV4(10, 0, 0, 0), 8, 0 },
		{ RTE_IPV4(10, 1, 0, 0), 16, 1 },
		{ RTE_IPV4(10, 2, 0, 0), 16, 2 },
	};
	struct rte_lpm_config config = {
		.max_rules = 64,
		.number_tbl8s = 16,
	};
	unsigned int i;
	int ret;

	lpm = rte_lpm_create("pmu_pipeline", (int)rte_socket_id(), &config);
	if (lpm == NULL) {
		fprintf(stderr, "cannot create the LPM table: %s\n", rte_strerror(rte_errno));
		return -rte_errno;
	}
	for (i = 0; i < RTE_DIM(routes); i++) {
		ret = rte_lpm_add(lpm, routes[i].prefix, routes[i].depth, routes[i].hop);
		if (ret != 0) {
			fprintf(stderr, "cannot add route %u: %s\n", i, strerror(-ret));
			return ret;
		}
	}
	for (i = 0; i < NUM_HOPS; i++) {
		memset(&hop_mac[i], 0, sizeof(hop_mac[i]));
		hop_mac[i].addr_bytes[0] = 0x02;
		hop_mac[i].addr_bytes[4] = 0xee;
		hop_mac[i].addr_bytes[5] = (uint8_t)i;
	}

	return 0;
}

static int
setup_port(uint16_t port, struct rte_mempool *pool)
{
	struct rte_eth_conf conf;
	uint16_t rxd = RX_DESC, txd = TX_DESC;
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_dev_adjust_nb_rx_tx_desc(port, &rxd, &txd);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, rxd, rte_eth_dev_socket_id(port), NULL,
			pool);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, txd, rte_eth_dev_socket_id(port), NULL);
	if (ret == 0)
		ret = rte_eth_macaddr_get(port, &port_mac[port]);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	if (ret == 0)
		ret = rte_eth_promiscuous_enable(port);
	/* Not every PMD has a promiscuous mode (net_ring, net_null). */
	if (ret == -ENOTSUP)
		ret = 0;
	if (ret != 0)
		fprintf(stderr, "port %u: cannot set up: %s\n", port, strerror(-ret));

	return ret;
}

/* Fill @p m with an Ethernet/IPv4/UDP frame of 64 bytes to @p dst. */
static void
build_packet(struct rte_mbuf *m, uint16_t port, uint32_t dst)
{
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	const uint16_t len = 60;

	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m, len);
	memset(eth, 0, len);
	rte_ether_addr_copy(&port_mac[port], &eth->dst_addr);
	eth->src_addr.addr_bytes[0] = 0x02;
	eth->src_addr.addr_bytes[5] = 0x01;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(len - sizeof(*eth));
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(RTE_IPV4(192, 0, 2, 1));
	ip->dst_addr = rte_cpu_to_be_32(dst);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp = (struct rte_udp_hdr *)(ip + 1);
	udp->src_port = rte_cpu_to_be_16(1024);
	udp->dst_port = rte_cpu_to_be_16(9);
	udp->dgram_len = rte_cpu_to_be_16(len - sizeof(*eth) - sizeof(*ip));
}

/* --inject: send generated packets out of each port (a net_ring port gives
 * them back on its rx, so that they go round for the whole run).
 */
static int
inject(struct rte_mempool *pool)
{
	struct rte_mbuf *pkts[MAX_BURST];
	unsigned long left;
	uint16_t port, n, sent, i;
	uint32_t k = 0;

	for (port = 0; port < num_ports; port++) {
		for (left = opt_inject; left > 0; left -= n) {
			n = (uint16_t)RTE_MIN(left, (unsigned long)MAX_BURST);
			if (rte_pktmbuf_alloc_bulk(pool, pkts, n) != 0) {
				fprintf(stderr, "--inject: out of mbufs\n");
				return -ENOMEM;
			}
			for (i = 0; i < n; i++, k++)
				build_packet(pkts[i], port,
					RTE_IPV4(10, k % 3, (k >> 8) & 0xff, k & 0xff));
			sent = rte_eth_tx_burst(port, 0, pkts, n);
			if (sent < n) {
				rte_pktmbuf_free_bulk(pkts + sent, n - sent);
				fprintf(stderr, "--inject: port %u took %u of %u packets\n",
					port, sent, n);
				return -ENOSPC;
			}
		}
	}

	return 0;
}

/* The process stage: keep the packets of @p pkts to forward out of
 * @p out_port, rewritten, at the front; free the others. Returns how
 * many are kept.
 */
static inline uint16_t
process_burst(struct rte_mbuf **pkts, uint16_t n, uint16_t out_port)
{
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	uint32_t hop;
	uint16_t i, kept = 0;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];

		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
		if (rte_pktmbuf_data_len(m) < sizeof(*eth) + sizeof(*ip) ||
				eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4))
			goto drop;
		ip = (struct rte_ipv4_hdr *)(eth + 1);
		if ((ip->version_ihl >> 4) != 4 ||
				(ip->version_ihl & RTE_IPV4_HDR_IHL_MASK) < 5)
			goto drop;
		if (rte_lpm_lookup(lpm, rte_be_to_cpu_32(ip->dst_addr), &hop) != 0 ||
				hop >= NUM_HOPS)
			goto drop;
		rte_ether_addr_copy(&hop_mac[hop], &eth->dst_addr);
		rte_ether_addr_copy(&port_mac[out_port], &eth->src_addr);
		pkts[kept++] = m;
		continue;
drop:
		rte_pktmbuf_free(m);
	}

	return kept;
}

/* One burst from @p in to @p out; @p staged: with the stage calls. Four
 * counter reads per measured burst: begin rx, rx -> process, process -> tx,
 * end tx.
 */
static __rte_always_inline uint16_t
forward_burst(uint16_t in, uint16_t out, bool staged)
{
	struct rte_mbuf *pkts[MAX_BURST];
	uint16_t nb_rx, nb_fwd, nb_tx;

	if (staged)
		rte_pmu_stage_begin(stage_rx);
	nb_rx = rte_eth_rx_burst(in, 0, pkts, (uint16_t)opt_burst);
	if (nb_rx == 0) {
		/* An empty poll is an rx call with no packet. */
		if (staged)
			rte_pmu_stage_end(stage_rx, 0);
		return 0;
	}
	if (staged)
		rte_pmu_stage_next(stage_rx, nb_rx, stage_process);
	nb_fwd = process_burst(pkts, nb_rx, out);
	if (staged)
		rte_pmu_stage_next(stage_process, nb_rx, stage_tx);
	nb_tx = rte_eth_tx_burst(out, 0, pkts, nb_fwd);
	if (nb_tx < nb_fwd)
		rte_pktmbuf_free_bulk(pkts + nb_tx, nb_fwd - nb_tx);
	if (staged)
		rte_pmu_stage_end(stage_tx, nb_fwd);

	/* Only this worker polls port in and sends on port out. */
	port_stats[in].rx += nb_rx;
	port_stats[in].dropped += nb_rx - nb_tx;
	port_stats[out].tx += nb_tx;

	return nb_rx;
}

/* One copy of the burst with the stage calls, one without: each stage call
 * inlines its counter reads, so the loop calls them rather than inlining
 * them again at every call site.
 */
static __rte_noinline uint16_t
forward_staged(uint16_t in, uint16_t out)
{
	return forward_burst(in, out, true);
}

static __rte_noinline uint16_t
forward_plain(uint16_t in, uint16_t out)
{
	return forward_burst(in, out, false);
}

/* Run the loop over the worker's ports until the time or packet budget
 * runs out, or the program is stopped.
 */
static void
run_loop(struct worker *w, struct mode_result *res, uint64_t tsc_budget, bool staged)
{
	uint16_t (*forward)(uint16_t in, uint16_t out) = staged ? forward_staged : forward_plain;
	uint64_t start = rte_get_timer_cycles(), deadline = start + tsc_budget;
	uint64_t packets = 0, instr = 0;
	unsigned int p;

	if (ev_instructions >= 0)
		instr = rte_pmu_read(ev_instructions);
	while (!force_quit) {
		for (p = 0; p < w->num_pairs; p++) {
			packets += forward(w->pairs[p][0], w->pairs[p][1]);
			if (w->pairs[p][0] != w->pairs[p][1])
				packets += forward(w->pairs[p][1], w->pairs[p][0]);
		}
		if (opt_packets != 0 && packets >= opt_packets)
			break;
		if (rte_get_timer_cycles() >= deadline)
			break;
	}
	if (ev_instructions >= 0)
		res->instructions += rte_pmu_read(ev_instructions) - instr;
	res->tsc += rte_get_timer_cycles() - start;
	res->packets += packets;
	res->ran = true;
}

static void
set_sampling(unsigned int period)
{
	rte_pmu_stage_sampling_set(stage_rx, period);
	rte_pmu_stage_sampling_set(stage_process, period);
	rte_pmu_stage_sampling_set(stage_tx, period);
}

/* The run in opt_rounds rounds of equal time (or packets), each stage's
 * events per item of each round kept: their median leaves out the rounds
 * that an interrupt or a first call (lazy binding) made longer.
 */
static void
run_rounds(struct worker *w, uint64_t tsc_budget)
{
	const int ids[NUM_STAGES] = { stage_rx, stage_process, stage_tx };
	struct rte_pmu_stage_stats prev[NUM_STAGES], now;
	unsigned int r, i, e;

	memset(prev, 0, sizeof(prev));
	for (r = 0; r < opt_rounds && !force_quit; r++) {
		run_loop(w, &w->results[MODE_ON], tsc_budget / opt_rounds, true);
		for (i = 0; i < NUM_STAGES; i++) {
			if (rte_pmu_stage_stats_get(w->lcore_id, ids[i], &now) != 0)
				memset(&now, 0, sizeof(now));
			/* The round's measured calls (sums that never go
			 * down) scaled to its calls, per item.
			 */
			for (e = 0; e < num_events; e++)
				w->round_per_item[r][i][e] = now.items != prev[i].items &&
					now.measured != prev[i].measured ?
					(double)(now.measured_values[e] - prev[i].measured_values[e]) *
					(now.calls - prev[i].calls) / (now.measured - prev[i].measured) /
					(now.items - prev[i].items) : 0.0;
			prev[i] = now;
		}
		w->rounds_done = r + 1;
	}
}

/* Wait for every worker with ports to reach its @p round th barrier. */
static void
barrier_wait(unsigned int round)
{
	__atomic_add_fetch(&barrier_count, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&barrier_count, __ATOMIC_ACQUIRE) < round * num_busy_workers)
		rte_pause();
}

static void
worker_run(struct worker *w)
{
	uint64_t hz = rte_get_timer_hz(), budget;
	unsigned int m, r, round = 0;

	/* The group is opened here, not in the first burst. */
	w->open_status = rte_pmu_lcore_open();
	if (w->open_status != 0)
		fprintf(stderr, "lcore %u: rte_pmu_lcore_open: %s\n", w->lcore_id,
			strerror(-w->open_status));
	if (w->num_pairs == 0)
		return;
	if (!opt_compare) {
		run_rounds(w, opt_duration_s * hz);
		return;
	}
	/* --compare: the three modes in turn, COMPARE_ROUNDS times, so that
	 * what else runs on the machine weighs on each alike. The sampling
	 * period holds for every lcore: it changes while all workers wait
	 * between two barriers.
	 */
	budget = opt_duration_s * hz / (MODE_COUNT * COMPARE_ROUNDS);
	for (r = 0; r < COMPARE_ROUNDS; r++) {
		for (m = 0; m < MODE_COUNT; m++) {
			run_loop(w, &w->results[m], budget, m != MODE_OFF);
			barrier_wait(++round);
			if (w == &workers[0] && m != MODE_SAMPLED)
				set_sampling(m == MODE_OFF ? 1 : COMPARE_PERIOD);
			barrier_wait(++round);
		}
	}
}

static int
worker_main(void *arg)
{
	struct worker *w = arg;
	struct rte_pmu_lcore_info info;

	worker_run(w);
	if (rte_pmu_lcore_info_get(w->lcore_id, &info) == 0) {
		w->slow_reads = info.slow_reads;
		w->read_errors = info.read_errors;
	}
	__atomic_add_fetch(&workers_done, 1, __ATOMIC_RELEASE);

	return 0;
}

/* Share the port pairs out over the worker lcores (the main lcore works
 * alone when it is the only one).
 */
static void
setup_workers(void)
{
	unsigned int lcore_id, i;
	uint16_t p;

	RTE_LCORE_FOREACH_WORKER(lcore_id)
		workers[num_workers++].lcore_id = lcore_id;
	if (num_workers == 0)
		workers[num_workers++].lcore_id = rte_get_main_lcore();
	for (p = 0, i = 0; p < num_ports; p += 2, i++) {
		struct worker *w = &workers[i % num_workers];

		w->pairs[w->num_pairs][0] = p;
		w->pairs[w->num_pairs][1] = p + 1 < num_ports ? p + 1 : p;
		w->num_pairs++;
	}
	for (i = 0; i < num_workers; i++)
		if (workers[i].num_pairs != 0)
			num_busy_workers++;
}

int
main(int argc, char **argv)
{
	struct rte_mempool *pool = NULL;
	unsigned int nb_mbufs, i, added;
	uint16_t port;
	int ret, status = 1;

	if (example_early_option(argc, argv, usage))
		return 0;
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "cannot initialise EAL\n");
		return 1;
	}
	argv[ret] = argv[0];
	if (parse_args(argc - ret, argv + ret) != 0) {
		usage(stderr, argv[0]);
		rte_eal_cleanup();
		return 2;
	}
	signal(SIGINT, signal_handler);
	signal(SIGTERM, signal_handler);

	num_ports = rte_eth_dev_count_avail();
	if (num_ports == 0 || num_ports > MAX_PORTS) {
		fprintf(stderr, "need 1 to %d ports, have %u (give some with --vdev, e.g. "
			"net_pcap0,rx_pcap=IN,tx_pcap=OUT)\n", MAX_PORTS, num_ports);
		goto out_eal;
	}

	ret = rte_pmu_init();
	if (ret != 0) {
		fprintf(stderr, "rte_pmu_init: %s\n", strerror(-ret));
		goto out_eal;
	}
	added = opt_events != NULL ? add_events(opt_events) : add_default_events();
	if (added == 0) {
		fprintf(stderr, "no event can be counted\n");
		goto out_pmu;
	}
	stage_rx = rte_pmu_stage_register("rx");
	stage_process = rte_pmu_stage_register("process");
	stage_tx = rte_pmu_stage_register("tx");
	if (stage_rx < 0 || stage_process < 0 || stage_tx < 0) {
		fprintf(stderr, "cannot register the stages\n");
		goto out_pmu;
	}
	if (!opt_compare && opt_sampling != 1 &&
			(rte_pmu_stage_sampling_set(stage_rx, opt_sampling) != 0 ||
			rte_pmu_stage_sampling_set(stage_process, opt_sampling) != 0 ||
			rte_pmu_stage_sampling_set(stage_tx, opt_sampling) != 0)) {
		fprintf(stderr, "cannot set the sampling period\n");
		goto out_pmu;
	}

	if (setup_routes() != 0)
		goto out_pmu;
	nb_mbufs = num_ports * (RX_DESC + TX_DESC + MAX_BURST + opt_inject) +
		rte_lcore_count() * 256;
	pool = rte_pktmbuf_pool_create("pmu_pipeline", nb_mbufs, 256, 0,
		RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (pool == NULL) {
		fprintf(stderr, "cannot create the mbuf pool: %s\n", rte_strerror(rte_errno));
		goto out_lpm;
	}
	for (port = 0; port < num_ports; port++)
		if (setup_port(port, pool) != 0)
			goto out_ports;
	if (opt_inject != 0 && inject(pool) != 0)
		goto out_ports;

	setup_workers();
	if (!opt_json) {
		printf("forwarding on %u port(s) with %u worker(s), burst %lu, ", num_ports,
			num_workers, opt_burst);
		if (opt_compare)
			printf("stages off, on, sampled 1 in %d", COMPARE_PERIOD);
		else
			printf("stages sampled 1 in %lu", opt_sampling);
		printf(", for %lu s", opt_duration_s);
		if (opt_packets != 0)
			printf(" or %lu packets per worker%s", opt_packets,
				opt_compare ? " and mode" : "");
		printf("; events:");
		for (i = 0; i < num_events; i++)
			printf(" %s", event_names[i]);
		printf("\n");
		fflush(stdout);
	}
	if (rte_lcore_count() == 1) {
		worker_main(&workers[0]);
	} else {
		for (i = 0; i < num_workers; i++)
			rte_eal_remote_launch(worker_main, &workers[i], workers[i].lcore_id);
		/* The main lcore sleeps meanwhile (it may share a CPU). */
		while (__atomic_load_n(&workers_done, __ATOMIC_ACQUIRE) < num_workers)
			usleep(10000);
		rte_eal_mp_wait_lcore();
	}
	print_report();
	status = 0;

out_ports:
	/* Closing a net_pcap port completes its tx pcap. */
	for (port = 0; port < num_ports; port++) {
		rte_eth_dev_stop(port);
		rte_eth_dev_close(port);
	}
	rte_mempool_free(pool);
out_lpm:
	rte_lpm_free(lpm);
out_pmu:
	rte_pmu_fini();
	for (i = 0; i < num_events; i++)
		free(event_names[i]);
out_eal:
	rte_eal_cleanup();

	return status;
}
