/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>

#include "workload.h"

/* memory: a buffer larger than the usual L2, walked one cache line a step. */
#define MEMORY_BUF_SIZE (8u << 20)
#define MEMORY_STRIDE 64u

static int
no_prepare(void **ctx)
{
	*ctx = NULL;
	return 0;
}

static void
no_release(void *ctx __rte_unused)
{
}

/* A 64-bit linear congruential generator (Knuth's MMIX constants): every
 * step depends on the one before, so the loop is N multiply-adds in a chain.
 */
static uint64_t
loop_run(void *ctx __rte_unused, uint64_t iterations)
{
	uint64_t x = 1;
	uint64_t i;

	for (i = 0; i < iterations; i++) {
		x = x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
		/* Keep the compiler from folding or vectorising the chain. */
		__asm__ volatile("" : "+r" (x));
	}

	return x;
}

static int
memory_prepare(void **ctx)
{
	/* Left untouched: the first pass also takes the page faults. */
	*ctx = aligned_alloc(MEMORY_STRIDE, MEMORY_BUF_SIZE);
	if (*ctx == NULL)
		return -ENOMEM;
	return 0;
}

static uint64_t
memory_run(void *ctx, uint64_t iterations)
{
	volatile uint8_t *buf = ctx;
	uint64_t sum = 0;
	uint32_t off = 0;
	uint64_t i;

	/* Write first: a page only read would map the shared zero page, and a
	 * read before the write would fault twice.
	 */
	for (i = 0; i < iterations; i++) {
		buf[off] = (uint8_t)i;
		sum += buf[off];
		off = (off + MEMORY_STRIDE) & (MEMORY_BUF_SIZE - 1);
	}

	return sum;
}

static void
memory_release(void *ctx)
{
	free(ctx);
}

static uint64_t
syscall_run(void *ctx __rte_unused, uint64_t iterations)
{
	uint64_t sum = 0;
	uint64_t i;

	/* getppid() is never cached by the C library: one system call each. */
	for (i = 0; i < iterations; i++)
		sum += (uint64_t)getppid();

	return sum;
}

/* The first one is the default. */
static const struct workload workloads[] = {
	{ "loop", "chained 64-bit multiply-add (LCG), default",
		no_prepare, loop_run, no_release },
	{ "memory", "8 MiB buffer per lcore, one 64-byte line per iteration",
		memory_prepare, memory_run, memory_release },
	{ "syscall", "one getppid() system call per iteration",
		no_prepare, syscall_run, no_release },
};

const struct workload *
workload_find(const char *name)
{
	unsigned int i;

	if (name == NULL)
		return &workloads[0];
	for (i = 0; i < RTE_DIM(workloads); i++)
		if (strcmp(workloads[i].name, name) == 0)
			return &workloads[i];

	return NULL;
}

void
workload_list(FILE *f, const char *indent)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(workloads); i++)
		fprintf(f, "%s%-8s %s\n", indent, workloads[i].name, workloads[i].help);
}
