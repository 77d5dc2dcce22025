/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Written against upstream DPDK's rte_pmu API (25.07) only: it must build
 * and run unchanged against this library. It counts an event over a short
 * loop on the main lcore and prints the value.
 *
 *   dpdk-pmu-upstream [EAL options] -- [event]
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_pmu.h>
#include <rte_version.h>

int
main(int argc, char **argv)
{
	const char *event = "cycles";
	volatile unsigned int sink = 0;
	uint64_t before, after;
	unsigned int i;
	int a, ret, idx;

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
	if (argc - ret > 1)
		event = argv[ret + 1];

	ret = rte_pmu_init();
	if (ret < 0) {
		fprintf(stderr, "rte_pmu_init: %s\n", strerror(-ret));
		rte_eal_cleanup();
		return 1;
	}
	idx = rte_pmu_add_event(event);
	if (idx < 0) {
		fprintf(stderr, "rte_pmu_add_event(%s): %s\n", event, strerror(-idx));
		rte_pmu_fini();
		rte_eal_cleanup();
		return 1;
	}

	before = rte_pmu_read(idx);
	for (i = 0; i < 1000000; i++)
		sink += i;
	after = rte_pmu_read(idx);
	printf("%s: %" PRIu64 " over the loop (max %d events per group)\n", event,
		after - before, RTE_MAX_NUM_GROUP_EVENTS);

	rte_pmu_fini();
	rte_eal_cleanup();

	return after > before ? 0 : 1;
}
