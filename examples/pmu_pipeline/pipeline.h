/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PIPELINE_H
#define PIPELINE_H

/* What the forwarder (main.c) and its report (report.c) of
 * dpdk-pmu-pipeline share: the ports' and the workers' figures.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_lcore.h>
#include <rte_pmu.h>

#include "pmu_example.h"

#define MAX_PORTS 16
/* Most rounds of --rounds. */
#define MAX_ROUNDS 32
#define NUM_STAGES 3

/* Per port: packets received on it, sent out of it, and received on it
 * and dropped (rx == what it forwarded + dropped; over a pair, the rx of
 * both == the tx of both + the dropped of both).
 */
struct port_stats {
	uint64_t rx;
	uint64_t tx;
	uint64_t dropped;
};

struct worker {
	unsigned int lcore_id;
	unsigned int num_pairs;
	uint16_t pairs[MAX_PORTS][2];
	int open_status;
	struct mode_result results[MODE_COUNT];
	/* Counter reads that left the user page (read() fallbacks), and
	 * those that failed, over the whole run.
	 */
	uint64_t slow_reads;
	uint64_t read_errors;
	/* --rounds: each round's events per item, per stage (rx, process, tx). */
	unsigned int rounds_done;
	double round_per_item[MAX_ROUNDS][NUM_STAGES][RTE_MAX_NUM_GROUP_EVENTS];
};

/* Options the report reads. */
extern unsigned long opt_sampling;
extern unsigned long opt_burst;
extern bool opt_compare;
extern bool opt_json;
extern unsigned long opt_rounds;

extern int stage_rx, stage_process, stage_tx;
extern uint16_t num_ports;
extern struct port_stats port_stats[MAX_PORTS];
extern struct worker workers[RTE_MAX_LCORE];
extern unsigned int num_workers;

/* The ports, the stages (rte_pmu_stage_dump()), each worker's read()
 * fallbacks and median rounds, --compare's table, and with --json the JSON
 * object on stdout (the tables then on stderr).
 */
void print_report(void);

#endif /* PIPELINE_H */
