/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The report of dpdk-pmu-pipeline: the ports, the stages per worker lcore
 * and summed (rte_pmu_stage_dump()), each worker's read() fallbacks and
 * median rounds, --compare's modes, and the JSON.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "pipeline.h"

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y ? 1 : 0;
}

/* Median over the rounds of a worker's events per item of one stage. */
static double
round_median(const struct worker *w, unsigned int stage, unsigned int e)
{
	double v[MAX_ROUNDS];
	unsigned int r, n = w->rounds_done;

	if (n == 0)
		return 0.0;
	for (r = 0; r < n; r++)
		v[r] = w->round_per_item[r][stage][e];
	qsort(v, n, sizeof(v[0]), cmp_double);

	return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* What the stage dump leaves out: each worker's reads through read(),
 * and with --rounds the median round's events per packet of each stage.
 */
static void
print_worker_extras(const struct worker *w, FILE *f)
{
	static const char *const names[] = { "rx", "process", "tx" };
	char head[64];
	unsigned int i, e;

	fprintf(f, "lcore %u: %" PRIu64 " reads through read(), %" PRIu64 " failed\n",
		w->lcore_id, w->slow_reads, w->read_errors);
	if (opt_rounds < 2 || opt_compare || w->rounds_done == 0)
		return;
	fprintf(f, "lcore %u: median of %u rounds, per packet:\n", w->lcore_id, w->rounds_done);
	fprintf(f, "  %-8s", "Stage");
	for (e = 0; e < num_events; e++) {
		snprintf(head, sizeof(head), "%s/Packet", event_names[e]);
		fprintf(f, " %*s", (int)RTE_MAX(strlen(head), (size_t)14), head);
	}
	fprintf(f, "\n");
	for (i = 0; i < RTE_DIM(names); i++) {
		fprintf(f, "  %-8s", names[i]);
		for (e = 0; e < num_events; e++) {
			snprintf(head, sizeof(head), "%s/Packet", event_names[e]);
			fprintf(f, " %*.2f", (int)RTE_MAX(strlen(head), (size_t)14),
				round_median(w, i, e));
		}
		fprintf(f, "\n");
	}
}

/* Figures of one mode summed over the workers. */
static void
mode_sum(enum run_mode m, struct mode_result *sum)
{
	unsigned int i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < num_workers; i++) {
		if (!workers[i].results[m].ran)
			continue;
		sum->ran = true;
		sum->packets += workers[i].results[m].packets;
		sum->instructions += workers[i].results[m].instructions;
		/* Workers run side by side: the longest one's time. */
		sum->tsc = RTE_MAX(sum->tsc, workers[i].results[m].tsc);
	}
}

static void
print_compare(FILE *f)
{
	struct mode_result r[MODE_COUNT];
	unsigned int m;

	for (m = 0; m < MODE_COUNT; m++)
		mode_sum(m, &r[m]);
	fprintf(f, "Cost per packet, stages off / on (every call) / sampled 1 in %d, burst %lu:\n",
		COMPARE_PERIOD, opt_burst);
	print_compare_table(f, r);
	fprintf(f, "  goals for sampled 1 in %d: at least 0.85x the packet rate of \"off\" "
		"(read() path), at most 1.046x its instructions per packet (user page)\n",
		COMPARE_PERIOD);
}

static void
print_json(void)
{
	static const char *const names[] = { "rx", "process", "tx" };
	const int ids[] = { stage_rx, stage_process, stage_tx };
	struct rte_pmu_stage_stats s;
	struct mode_result r[MODE_COUNT];
	unsigned int i, j, e, m;
	const char *sep = "";

	printf("{\"burst\": %lu, \"sampling\": %lu, \"workers\": %u, ", opt_burst,
		opt_sampling, num_workers);
	print_events_json();
	printf(", \"ports\": [");
	for (i = 0; i < num_ports; i++)
		printf("%s{\"port\": %u, \"rx\": %" PRIu64 ", \"tx\": %" PRIu64
			", \"dropped\": %" PRIu64 "}", i != 0 ? ", " : "", i,
			port_stats[i].rx, port_stats[i].tx, port_stats[i].dropped);
	printf("], \"lcores\": [");
	for (i = 0; i < num_workers; i++)
		printf("%s{\"lcore\": %u, \"open_status\": %d, \"slow_reads\": %" PRIu64
			", \"read_errors\": %" PRIu64 "}", i != 0 ? ", " : "", workers[i].lcore_id,
			workers[i].open_status, workers[i].slow_reads, workers[i].read_errors);
	printf("], \"stages\": [");
	for (i = 0; i < num_workers; i++) {
		for (j = 0; j < RTE_DIM(ids); j++) {
			if (rte_pmu_stage_stats_get(workers[i].lcore_id, ids[j], &s) != 0)
				memset(&s, 0, sizeof(s));
			printf("%s{\"lcore\": %u, \"name\": \"%s\", \"calls\": %" PRIu64
				", \"items\": %" PRIu64 ", \"measured\": %" PRIu64
				", \"misuse\": %" PRIu64 ", \"events\": {", sep,
				workers[i].lcore_id, names[j], s.calls, s.items, s.measured,
				s.misuse);
			for (e = 0; e < num_events; e++)
				printf("%s\"%s\": %" PRIu64, e != 0 ? ", " : "", event_names[e],
					s.values[e]);
			/* As the dump's '~': not exact (rte_pmu_stage_stats::inexact). */
			printf("}, \"inexact\": ");
			print_event_bits_json(s.inexact);
			if (workers[i].rounds_done > 1) {
				printf(", \"rounds\": %u, \"median_per_item\": {",
					workers[i].rounds_done);
				for (e = 0; e < num_events; e++)
					printf("%s\"%s\": %.4f", e != 0 ? ", " : "",
						event_names[e], round_median(&workers[i], j, e));
				printf("}");
			}
			printf("}");
			sep = ", ";
		}
	}
	printf("]");
	if (opt_compare) {
		for (m = 0; m < MODE_COUNT; m++)
			mode_sum(m, &r[m]);
		print_compare_json(r, ", \"goal_rate_ratio_sampled\": 0.85, "
			"\"goal_instructions_ratio_sampled\": 1.046");
	}
	printf("}\n");
}

void
print_report(void)
{
	FILE *f = opt_json ? stderr : stdout;
	uint64_t rx = 0, tx = 0, dropped = 0;
	unsigned int i;

	fprintf(f, "Ports:\n  %-5s %14s %14s %14s\n", "Port", "Rx", "Tx", "Dropped");
	for (i = 0; i < num_ports; i++) {
		fprintf(f, "  %-5u %14" PRIu64 " %14" PRIu64 " %14" PRIu64 "\n", i,
			port_stats[i].rx, port_stats[i].tx, port_stats[i].dropped);
		rx += port_stats[i].rx;
		tx += port_stats[i].tx;
		dropped += port_stats[i].dropped;
	}
	fprintf(f, "  %-5s %14" PRIu64 " %14" PRIu64 " %14" PRIu64 "%s\n", "all", rx, tx,
		dropped, rx == tx + dropped ? "" : "  (rx != tx + dropped!)");
	/* The stages per lcore and in total, as the library lays them out. */
	fprintf(f, "Stages (items are packets):\n");
	if (rte_pmu_stage_dump(f) != 0)
		fprintf(f, "  (rte_pmu_stage_dump failed)\n");
	for (i = 0; i < num_workers; i++)
		print_worker_extras(&workers[i], f);
	if (opt_compare)
		print_compare(f);
	if (opt_json)
		print_json();
}
