/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* A long-running program to look at from outside: every worker lcore counts
 * the events while it spins for the duration, and records its counters in
 * the EAL trace with rte_pmu_read_trace() once per interval. Its loop runs as
 * three stages: "loop" (one pass, one item) holds "spin" (10000 additions,
 * an item each) and, once per interval, "sample" (the traced reads, an item
 * each). Watch it with dpdk-telemetry.py (/pmu/list, /pmu/info,
 * /pmu/lcore,<id>, /pmu/stages, /pmu/stage,<name>), the Prometheus exporter,
 * or --trace='lib.pmu.*' (lib.pmu.stage.register records the stages). At
 * the end it prints each worker's status and the stages per lcore and in
 * total (rte_pmu_stage_dump()).
 *
 *   dpdk-pmu-observe [EAL options] -- [-e EVENTS] [--interval MS] [--duration SEC]
 */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "pmu_example.h"

static const char *opt_events = "task-clock,context-switches,page-faults";
static unsigned long opt_interval_ms = 100;
static unsigned long opt_duration_s = 5;

#define SPIN_ITEMS 10000

/* Stage ids, in registration order. */
enum { STAGE_LOOP, STAGE_SPIN, STAGE_SAMPLE, NUM_STAGES };
static const char *const stage_names[NUM_STAGES] = { "loop", "spin", "sample" };
static int stage_ids[NUM_STAGES];

static int
parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "events", required_argument, NULL, 'e' },
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "e:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			opt_events = optarg;
			break;
		case 'i':
			if (parse_ulong(optarg, 1, 60000, &opt_interval_ms) != 0)
				return -1;
			break;
		case 'd':
			if (parse_ulong(optarg, 1, 86400, &opt_duration_s) != 0)
				return -1;
			break;
		default:
			return -1;
		}
	}

	return optind == argc ? 0 : -1;
}

static int
register_stages(void)
{
	int i;

	for (i = 0; i < NUM_STAGES; i++) {
		stage_ids[i] = rte_pmu_stage_register(stage_names[i]);
		if (stage_ids[i] < 0) {
			fprintf(stderr, "stage %s: %s\n", stage_names[i], strerror(-stage_ids[i]));
			return stage_ids[i];
		}
	}

	return 0;
}

static int
worker(void *arg __rte_unused)
{
	unsigned int lcore_id = rte_lcore_id(), loop = stage_ids[STAGE_LOOP];
	unsigned int spin = stage_ids[STAGE_SPIN], sample = stage_ids[STAGE_SAMPLE];
	uint64_t hz = rte_get_timer_hz();
	uint64_t end = rte_get_timer_cycles() + opt_duration_s * hz;
	uint64_t next = 0, now;
	volatile uint64_t sink = 0;
	unsigned int i;
	int ret;

	/* The group and the stage state, before the loop. */
	ret = rte_pmu_lcore_open();
	if (ret != 0)
		printf("lcore %u: rte_pmu_lcore_open: %s\n", lcore_id, strerror(-ret));
	while ((now = rte_get_timer_cycles()) < end) {
		rte_pmu_stage_begin(loop);
		if (now >= next) {
			rte_pmu_stage_begin(sample);
			for (i = 0; i < num_events; i++)
				sink += rte_pmu_read_trace(i);
			rte_pmu_stage_end(sample, num_events);
			next = now + opt_interval_ms * hz / 1000;
		}
		rte_pmu_stage_begin(spin);
		for (i = 0; i < SPIN_ITEMS; i++)
			sink = sink + i;
		rte_pmu_stage_end(spin, SPIN_ITEMS);
		rte_pmu_stage_end(loop, 1);
	}
	printf("lcore %u: status %d\n", lcore_id, rte_pmu_lcore_status(lcore_id));

	return 0;
}

static void
usage(FILE *f, const char *prog)
{
	fprintf(f, "usage: %s [EAL options] -- [-e EVENTS] [--interval MS] [--duration SEC]\n",
		prog);
}

int
main(int argc, char **argv)
{
	int ret;

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
	ret = rte_pmu_init();
	/* Those of the list that can be counted here (the others are said). */
	if (ret == 0 && add_events(opt_events) == 0)
		ret = -EINVAL;
	if (ret == 0)
		ret = register_stages();
	if (ret != 0) {
		rte_pmu_fini();
		rte_eal_cleanup();
		return 1;
	}
	printf("counting %s on %u worker lcore(s) for %lu s\n", opt_events,
		rte_lcore_count() - 1, opt_duration_s);
	fflush(stdout);

	rte_eal_mp_remote_launch(worker, NULL, SKIP_MAIN);
	rte_eal_mp_wait_lcore();
	/* Every stage per lcore and in total, as the library prints them. */
	rte_pmu_stage_dump(stdout);

	rte_pmu_fini();
	rte_eal_cleanup();

	return 0;
}
