/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* A DPDK program for devtools/ci-run-nothing.sh: it polls port 0 100
 * times, then calls rte_pmu_init(), adds task-clock and calls
 * rte_pmu_fini() itself, as the README's snippet does, after its port
 * started. Prints the packets it received.
 */

#include <inttypes.h>
#include <stdio.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <rte_pmu.h>

int
main(int argc, char **argv)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_mbuf *pkts[32];
	struct rte_mempool *mp;
	uint64_t got = 0;
	int i, n;

	if (rte_eal_init(argc, argv) < 0)
		return 1;
	mp = rte_pktmbuf_pool_create("late", 1024, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (mp == NULL || rte_eth_dev_configure(0, 1, 1, &conf) != 0 ||
			rte_eth_rx_queue_setup(0, 0, 64, 0, NULL, mp) != 0 ||
			rte_eth_tx_queue_setup(0, 0, 64, 0, NULL) != 0 || rte_eth_dev_start(0) != 0)
		return 2;
	for (i = 0; i < 100; i++) {
		n = rte_eth_rx_burst(0, 0, pkts, RTE_DIM(pkts));
		got += n;
		rte_pktmbuf_free_bulk(pkts, n);
	}
	if (rte_pmu_init() == 0) {
		rte_pmu_add_event("task-clock");
		rte_pmu_fini();
	}
	printf("received %" PRIu64 "\n", got);
	rte_eth_dev_stop(0);
	rte_eal_cleanup();
	return 0;
}
