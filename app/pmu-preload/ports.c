/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The ports' stages, from ethdev rx and tx callbacks. On each lcore:
 *  - a poll of rx queue Q of port P that returns packets begins stage
 *    rx-P-Q, one that returns none rx-P-Q-idle; each ends at the lcore's
 *    next poll (any queue), so that the figures of a burst are what the
 *    lcore spent on it until it polls again (its processing and its tx),
 *    as testpmd's core cycles count a packet's cost, and idle polling
 *    stays out of the per-packet figures;
 *  - a tx burst on port P begins stage tx-P in its tx callback, nested
 *    in the rx stage open, and ends as the driver's tx returns: the
 *    driver's tx function in rte_eth_fp_ops is wrapped (tx_driver()) as
 *    the port starts. Its items are the packets the driver took.
 * The stages open when a launched function returns end then (lcores.c):
 * a pause between two runs (testpmd's stop and start) is in no stage.
 * An rx stage open when the program ends is not counted: where the lcore
 * polled in a function not launched (the main lcore's), nothing ends it.
 */

#include <stdlib.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_per_lcore.h>

#include <rte_pmu_stage.h>

#include "preload_run.h"
#include "preload_ports.h"

/* The stages of one rx queue. */
struct preload_rxq {
	unsigned int busy;      /* rx-P-Q */
	unsigned int idle;      /* rx-P-Q-idle */
};

/* What a port has: its tx stage, its queues' stages, callbacks added. */
struct preload_port {
	unsigned int tx;        /* tx-P */
	uint16_t nb_rxq;        /* rx queues with callbacks */
	uint16_t nb_txq;        /* tx queues with callbacks */
	struct preload_rxq *rxq;
};

/* What the calling lcore has open, and the port and queue of its last tx
 * callback (the driver's tx, wrapped, follows it at once).
 */
struct preload_lcore {
	bool rx_open;
	bool tx_open;
	uint16_t tx_port;
	uint16_t tx_queue;
	unsigned int rx_stage;
	unsigned int rx_items;
	unsigned int tx_stage;
	unsigned int tx_items;
};

static struct preload_port ports[RTE_MAX_ETHPORTS];
/* Each port's driver tx, called by tx_driver() (NULL: not wrapped). */
static eth_tx_burst_t driver_tx[RTE_MAX_ETHPORTS];
static RTE_DEFINE_PER_LCORE(struct preload_lcore, preload_lcore);

/* The lcore's open tx stage ends, with @p items. */
static __rte_always_inline void
tx_close(struct preload_lcore *pl, unsigned int items)
{
	if (pl->tx_open) {
		rte_pmu_stage_end(pl->tx_stage, items);
		pl->tx_open = false;
	}
}

static uint16_t
rx_callback(uint16_t port_id __rte_unused, uint16_t queue __rte_unused,
	struct rte_mbuf *pkts[] __rte_unused, uint16_t nb_pkts, uint16_t max_pkts __rte_unused,
	void *arg)
{
	const struct preload_rxq *q = arg;
	struct preload_lcore *pl = &RTE_PER_LCORE(preload_lcore);
	unsigned int next = nb_pkts != 0 ? q->busy : q->idle;

	if (unlikely(!preload_run.ports_on))
		return nb_pkts;
	tx_close(pl, pl->tx_items);
	if (pl->rx_open)
		rte_pmu_stage_next(pl->rx_stage, pl->rx_items, next);
	else
		rte_pmu_stage_begin(next);
	pl->rx_open = true;
	pl->rx_stage = next;
	pl->rx_items = nb_pkts;

	return nb_pkts;
}

static uint16_t
tx_callback(uint16_t port_id, uint16_t queue,
	struct rte_mbuf *pkts[] __rte_unused, uint16_t nb_pkts, void *arg)
{
	const struct preload_port *p = arg;
	struct preload_lcore *pl = &RTE_PER_LCORE(preload_lcore);

	pl->tx_port = port_id;
	pl->tx_queue = queue;
	if (unlikely(!preload_run.ports_on))
		return nb_pkts;
	if (pl->tx_open)
		rte_pmu_stage_next(pl->tx_stage, pl->tx_items, p->tx);
	else
		rte_pmu_stage_begin(p->tx);
	pl->tx_open = true;
	pl->tx_stage = p->tx;
	pl->tx_items = nb_pkts;

	return nb_pkts;
}

/* The port whose tx queue is @p txq, RTE_MAX_ETHPORTS where none is:
 * where a tx burst came without the callback before it.
 */
static uint16_t
port_of_txq(void *txq)
{
	uint16_t port, q;

	for (port = 0; port < RTE_MAX_ETHPORTS; port++)
		for (q = 0; driver_tx[port] != NULL && q < ports[port].nb_txq; q++)
			if (rte_eth_fp_ops[port].txq.data[q] == txq)
				return port;

	return RTE_MAX_ETHPORTS;
}

/* In rte_eth_fp_ops in place of each port's driver tx: the tx stage the
 * callback began ends as the driver returns, its items the packets the
 * driver took. So the stage holds the driver's tx and nothing after it,
 * and the last burst of an lcore that only transmits is counted.
 */
static uint16_t
tx_driver(void *txq, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct preload_lcore *pl = &RTE_PER_LCORE(preload_lcore);
	uint16_t port = pl->tx_port;
	uint16_t sent;

	if (unlikely(port >= RTE_MAX_ETHPORTS || driver_tx[port] == NULL ||
			rte_eth_fp_ops[port].txq.data[pl->tx_queue] != txq)) {
		port = port_of_txq(txq);
		if (port == RTE_MAX_ETHPORTS)
			return 0; /* no queue of a started port: never here */
	}
	sent = driver_tx[port](txq, pkts, nb_pkts);
	tx_close(pl, sent);

	return sent;
}

/* The driver's tx of @p port_id wrapped: ethdev set rte_eth_fp_ops anew
 * as the port started.
 */
static void
tx_wrap(uint16_t port_id)
{
	struct rte_eth_fp_ops *fp = &rte_eth_fp_ops[port_id];
	eth_tx_burst_t cur = fp->tx_pkt_burst;

	if (cur == NULL || cur == tx_driver)
		return;
	__atomic_store_n(&driver_tx[port_id], cur, __ATOMIC_RELEASE);
	__atomic_store_n(&fp->tx_pkt_burst, tx_driver, __ATOMIC_RELEASE);
}

void
preload_ports_lcore_stop(void)
{
	struct preload_lcore *pl = &RTE_PER_LCORE(preload_lcore);

	tx_close(pl, pl->tx_items);
	if (pl->rx_open) {
		rte_pmu_stage_end(pl->rx_stage, pl->rx_items);
		pl->rx_open = false;
	}
}

/* Register stage @p name, its id in @p id; false (said) on failure. */
static bool
stage_add(unsigned int *id, const char *name)
{
	int ret;

	ret = rte_pmu_stage_register(name);
	if (ret < 0) {
		PRELOAD_MSG("stage %s: %s: not counted", name, rte_strerror(-ret));
		return false;
	}
	*id = (unsigned int)ret;

	return true;
}

void
preload_port_started(uint16_t port_id)
{
	struct preload_port *p = &ports[port_id];
	char name[RTE_PMU_STAGE_NAME_MAX], idle[RTE_PMU_STAGE_NAME_MAX];
	struct rte_eth_dev_info info;
	struct preload_rxq *rxq;
	uint16_t q;
	int ret;

	ret = rte_eth_dev_info_get(port_id, &info);
	if (ret != 0) {
		PRELOAD_MSG("port %u: %s: not counted", port_id, rte_strerror(-ret));
		return;
	}
	/* Started again: callbacks stay; only queues added since get theirs.
	 * Never freed: a callback may run until the process ends.
	 */
	if (p->rxq == NULL) {
		p->rxq = calloc(RTE_MAX_QUEUES_PER_PORT, sizeof(*p->rxq));
		if (p->rxq == NULL) {
			PRELOAD_MSG("port %u: no memory: not counted", port_id);
			return;
		}
	}
	snprintf(name, sizeof(name), "tx-%u", port_id);
	if (p->nb_txq == 0 && info.nb_tx_queues > 0 && !stage_add(&p->tx, name))
		return;
	for (q = p->nb_rxq; q < info.nb_rx_queues; q++) {
		rxq = &p->rxq[q];
		snprintf(name, sizeof(name), "rx-%u-%u", port_id, q);
		snprintf(idle, sizeof(idle), "rx-%u-%u-idle", port_id, q);
		if (!stage_add(&rxq->busy, name) || !stage_add(&rxq->idle, idle))
			break;
		if (rte_eth_add_rx_callback(port_id, q, rx_callback, rxq) == NULL) {
			PRELOAD_MSG("port %u rx queue %u: no callback (%s): not counted",
				port_id, q, rte_strerror(rte_errno));
			break;
		}
		p->nb_rxq = q + 1;
	}
	for (q = p->nb_txq; q < info.nb_tx_queues; q++) {
		if (rte_eth_add_tx_callback(port_id, q, tx_callback, p) == NULL) {
			PRELOAD_MSG("port %u tx queue %u: no callback (%s): not counted",
				port_id, q, rte_strerror(rte_errno));
			break;
		}
		p->nb_txq = q + 1;
	}
	if (p->nb_txq > 0)
		tx_wrap(port_id);
}
