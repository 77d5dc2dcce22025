/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Written from rte_pmu_stage.h and the programmer's guide only: two stages,
 * "work" with "inner" nested in it, run on every lcore of the EAL (a fixed
 * number of calls each, and a few misused calls); then the main lcore
 * prints every stage's figures with rte_pmu_stage_dump(), reads each
 * lcore's figures back and checks that calls and items are exact and that
 * each misuse was counted where the header says, and nothing else. Exits 0
 * when every figure is as expected.
 *
 *   dpdk-pmu-stage [EAL options] -- [event]   (default: cycles, else task-clock)
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pmu.h>
#include <rte_pmu_stage.h>
#include <rte_version.h>

#define CALLS 10000u
#define ITEMS 32u

static int work_id, inner_id;

static int
lcore_main(void *arg)
{
	volatile unsigned int sink = 0;
	unsigned int i, j;

	(void)arg;
	if (rte_pmu_lcore_open() != 0)
		return -1;
	for (i = 0; i < CALLS; i++) {
		rte_pmu_stage_begin(work_id);
		for (j = 0; j < 100; j++)
			sink = sink + j;
		rte_pmu_stage_begin(inner_id);
		for (j = 0; j < 50; j++)
			sink = sink + j;
		rte_pmu_stage_end(inner_id, 1);
		rte_pmu_stage_end(work_id, ITEMS);
	}
	/* Misuse, inside a measured call (every call is, at period 1) so
	 * that every build detects it: "work" begun twice (work's misuse),
	 * an end of "inner", not the innermost stage (inner's misuse), then
	 * the call ends as usual (one call of 0 items); and an id never
	 * registered (the lcore's misuse). None is a call.
	 */
	rte_pmu_stage_begin(work_id);
	rte_pmu_stage_begin(work_id);
	rte_pmu_stage_end(inner_id, 1000);
	rte_pmu_stage_end(work_id, 0);
	rte_pmu_stage_begin(RTE_PMU_MAX_STAGES - 1);
	return 0;
}

static int
check_lcore(unsigned int lcore, const char *event)
{
	struct rte_pmu_stage_stats w, in;

	if (rte_pmu_stage_stats_get(lcore, work_id, &w) != 0 ||
			rte_pmu_stage_stats_get(lcore, inner_id, &in) != 0) {
		printf("lcore %u: no stage figures\n", lcore);
		return -1;
	}
	if (w.calls != CALLS + 1 || w.items != (uint64_t)CALLS * ITEMS ||
			in.calls != CALLS || in.items != CALLS || w.misuse != 1 ||
			in.misuse != 1 || w.lcore_misuse != 1 || w.values[0] < in.values[0] ||
			w.self_values[0] + in.values[0] != w.values[0]) {
		printf("lcore %u: figures not as expected: work %" PRIu64 " calls (want %u), %"
			PRIu64 " items (want %" PRIu64 "), misuse %" PRIu64 " (want 1), %s %"
			PRIu64 " (self %" PRIu64 "); inner %" PRIu64 " calls, %" PRIu64
			" items (want %u each), misuse %" PRIu64 " (want 1), %s %" PRIu64
			"; lcore misuse %" PRIu64 " (want 1)\n", lcore, w.calls, CALLS + 1,
			w.items, (uint64_t)CALLS * ITEMS, w.misuse, event, w.values[0],
			w.self_values[0], in.calls, in.items, CALLS, in.misuse, event,
			in.values[0], w.lcore_misuse);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	const char *event = "cycles";
	bool given = false;
	unsigned int lcore;
	int a, ret, idx, bad = 0;

	/* Before EAL, which refuses --version and answers --help alone. */
	for (a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--version") == 0) {
			printf("%s, %s\n", argv[0], rte_version());
			return 0;
		}
		if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
			printf("usage: %s [EAL options] -- [event]\n", argv[0]);
			return 0;
		}
	}
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "cannot initialise EAL\n");
		return 1;
	}
	if (argc - ret > 1) {
		event = argv[ret + 1];
		given = true;
	}
	ret = rte_pmu_init();
	if (ret < 0) {
		fprintf(stderr, "rte_pmu_init: %s\n", strerror(-ret));
		return 1;
	}
	idx = rte_pmu_add_event(event);
	if (idx < 0 && !given) {
		printf("%s: %s; counting task-clock\n", event, strerror(-idx));
		event = "task-clock";
		idx = rte_pmu_add_event(event);
	}
	work_id = rte_pmu_stage_register("work");
	inner_id = rte_pmu_stage_register("inner");
	if (idx < 0 || work_id < 0 || inner_id < 0) {
		fprintf(stderr, "add %s: %d, stages: %d %d\n", event, idx, work_id, inner_id);
		return 1;
	}

	rte_eal_mp_remote_launch(lcore_main, NULL, CALL_MAIN);
	RTE_LCORE_FOREACH(lcore)
		if (rte_eal_wait_lcore(lcore) < 0)
			bad++;
	if (rte_pmu_stage_dump(stdout) != 0)
		bad++;
	RTE_LCORE_FOREACH(lcore)
		if (check_lcore(lcore, event) != 0)
			bad++;

	rte_pmu_fini();
	rte_eal_cleanup();
	printf("%s\n", bad == 0 ? "stage figures exact on every lcore" : "FAILED");
	return bad == 0 ? 0 : 1;
}
