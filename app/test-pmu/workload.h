/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_WORKLOAD_H
#define TEST_PMU_WORKLOAD_H

/* The workloads dpdk-test-pmu counts events around. */

#include <stdint.h>
#include <stdio.h>

struct workload {
	const char *name;
	const char *help;
	/* Set up per-lcore state in *ctx (may stay NULL): 0 or negative errno. */
	int (*prepare)(void **ctx);
	/* Run @p iterations steps; the result must be consumed by the caller. */
	uint64_t (*run)(void *ctx, uint64_t iterations);
	/* Free what prepare() set up. */
	void (*release)(void *ctx);
};

/* Workload named @p name, the default one for NULL, or NULL if unknown. */
const struct workload *workload_find(const char *name);

/* Print "name  help" for each workload, one a line, after @p indent. */
void workload_list(FILE *f, const char *indent);

#endif /* TEST_PMU_WORKLOAD_H */
