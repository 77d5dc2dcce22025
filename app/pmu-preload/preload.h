/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_PRELOAD_H
#define PMU_PRELOAD_H

/* librte_pmu_preload.so, what its files share: the run's settings and the
 * events added, the ports' callbacks, the reports.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_pmu.h>

/* Every line the preload prints on stderr starts with it. */
#define PRELOAD_TAG "dpdk-pmu-run: "
#define PRELOAD_MSG(fmt, ...) fprintf(stderr, PRELOAD_TAG fmt "\n", ##__VA_ARGS__)

/* The report where no stage was called. */
#define PRELOAD_NOTHING "no stage was called (no port started, no graph made): nothing measured"

/* The defaults of dpdk-test-pmu (app/test-pmu/events.h). */
#define PRELOAD_DEFAULT_EVENTS "cycles,instructions"
#define PRELOAD_FALLBACK_EVENTS "task-clock,context-switches,page-faults"
#define PRELOAD_FALLBACK_TSC "msr/tsc/"
#define PRELOAD_DEFAULT_SAMPLING 16
#define PRELOAD_EVENT_NAME_MAX 128

/* The run, set up after the program's rte_eal_init(). */
struct preload_run {
	bool active;            /* rte_pmu initialised: stages are counted */
	/* The ports' callbacks count (ports.c); off once the program makes
	 * a graph: its nodes are the stages then, and the ports' stages
	 * would not nest in them.
	 */
	volatile bool ports_on;
	unsigned int num_events;
	char events[RTE_MAX_NUM_GROUP_EVENTS][PRELOAD_EVENT_NAME_MAX];
	unsigned int sampling;
	unsigned int interval_ms; /* 0: no table while the program runs */
	const char *output;     /* the final table's file, NULL: stderr */
	const char *json;       /* the JSON file at exit, or NULL */
};

extern struct preload_run preload_run;

/* Rx and tx callbacks on every queue of @p port_id, started just now. */
void preload_port_started(uint16_t port_id);

/* The ports' stages still open on the calling lcore end: its launched
 * function returns.
 */
void preload_ports_lcore_stop(void);

/* The table (to stderr, each line prefixed, or to the -o file), the JSON
 * file where asked for. Once; later calls do nothing.
 */
void preload_report_final(void);

/* Start the thread printing the table every interval_ms; 0 or -errno. */
int preload_report_interval_start(void);

/* Keep the figures of @p lcore, whose thread unregisters now. */
void preload_lcore_leaving(unsigned int lcore);

/* The table of now on @p f, each line prefixed with @p prefix. */
void preload_report_table(FILE *f, const char *prefix);

#endif /* PMU_PRELOAD_H */
