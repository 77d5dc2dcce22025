/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Where each lcore's stage state is: on the NUMA node of the lcore (EAL's
 * socket of an EAL lcore, the node of its CPU for a registered thread, a
 * new state on its node where an lcore id changes node). Run by the arm64
 * guest's two-node boot (devtools/arm64-guest-numa.cmds); not in
 * tests.list, as it skips with one node. Placement alone: in that boot the
 * two CPUs share QEMU's one instruction count, so exact counts are checked
 * in the one-node boot.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "pmu_stage_private.h"
#include "test.h"
#include "test_pmu_loop.h"
#include "test_pmu_stage_setup.h"

/* Where one lcore's stage state is: the node its pages are on, the node
 * they should be on, the CPU the lcore ran on.
 */
struct numa_seen {
	unsigned int lcore;
	int cpu;
	int node;
	int want;
	int ret;
};

static int numa_stage;

/* On the calling lcore: open its group and stage state, run a stage, and
 * record where the state is (its pages placed when the lcore touched them).
 */
static void
numa_record(struct numa_seen *s, int want)
{
	struct stage_lcore *sl;

	s->lcore = rte_lcore_id();
	s->cpu = sched_getcpu();
	s->want = want;
	s->node = -1;
	s->ret = rte_pmu_lcore_open();
	if (s->ret != 0)
		return;
	rte_pmu_stage_begin(numa_stage);
	test_loop(100);
	rte_pmu_stage_end(numa_stage, 1);
	sl = stage_lcore_get(s->lcore);
	if (sl == NULL)
		s->ret = -ENOENT;
	else if (get_mempolicy(&s->node, NULL, 0, sl->words, MPOL_F_NODE | MPOL_F_ADDR) != 0)
		s->ret = -errno;
}

/* An EAL lcore: its state on EAL's socket of the lcore. */
static int
numa_eal_lcore(void *arg)
{
	numa_record(arg, (int)rte_lcore_to_socket_id(rte_lcore_id()));
	return 0;
}

/* A thread pinned to one CPU, registered with rte_thread_register(): its
 * state on libnuma's node of that CPU.
 */
static void *
numa_thread(void *arg)
{
	struct numa_seen *s = arg;

	if (rte_thread_register() != 0) {
		s->ret = -rte_errno;
		return NULL;
	}
	numa_record(s, numa_node_of_cpu(sched_getcpu()));
	rte_thread_unregister();
	return NULL;
}

/* With two NUMA nodes (the arm64 guest's NUMA boot): each lcore's stage
 * state is on its own node, for the EAL lcores (their socket) and for
 * threads registered on each CPU (the node of the CPU); both nodes seen.
 */
static int
test_stage_numa(void)
{
	struct numa_seen seen[2 * RTE_MAX_LCORE];
	unsigned int n = 0, lcore, i, cpus = (unsigned int)numa_num_configured_cpus();
	uint64_t nodes = 0;
	pthread_attr_t attr;
	pthread_t tid;
	cpu_set_t set;

	if (numa_available() < 0 || numa_max_node() < 1) {
		printf("SKIP: needs two NUMA nodes (%s); the arm64 guest's NUMA boot has them\n",
			numa_available() < 0 ? "no NUMA support" : "one node here");
		return TEST_SKIPPED;
	}
	if (stage_setup_one(NULL) != TEST_SUCCESS)
		return TEST_FAILED;
	numa_stage = rte_pmu_stage_register("numa");
	TEST_ASSERT(numa_stage >= 0, "register: %d", numa_stage);
	numa_eal_lcore(&seen[n++]);
	RTE_LCORE_FOREACH_WORKER(lcore) {
		TEST_ASSERT_SUCCESS(rte_eal_remote_launch(numa_eal_lcore, &seen[n], lcore),
			"launch on lcore %u", lcore);
		TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(lcore), "lcore %u", lcore);
		n++;
	}
	for (i = 0; i < cpus && i < CPU_SETSIZE && n < RTE_DIM(seen); i++) {
		CPU_ZERO(&set);
		CPU_SET(i, &set);
		TEST_ASSERT_SUCCESS(pthread_attr_init(&attr), "attr");
		TEST_ASSERT_SUCCESS(pthread_attr_setaffinity_np(&attr, sizeof(set), &set),
			"affinity");
		TEST_ASSERT_SUCCESS(pthread_create(&tid, &attr, numa_thread, &seen[n]),
			"thread on CPU %u", i);
		pthread_attr_destroy(&attr);
		TEST_ASSERT_SUCCESS(pthread_join(tid, NULL), "join");
		n++;
	}
	for (i = 0; i < n; i++) {
		printf("lcore %u on CPU %d: stage state on node %d (want %d)%s\n", seen[i].lcore,
			seen[i].cpu, seen[i].node, seen[i].want, seen[i].ret != 0 ?
			", failed" : "");
		TEST_ASSERT_SUCCESS(seen[i].ret, "lcore %u: %d", seen[i].lcore, seen[i].ret);
		TEST_ASSERT_EQUAL(seen[i].node, seen[i].want,
			"lcore %u on CPU %d: stage state on node %d, not %d", seen[i].lcore,
			seen[i].cpu, seen[i].node, seen[i].want);
		nodes |= UINT64_C(1) << (seen[i].node & 63);
	}
	TEST_ASSERT(__builtin_popcountll(nodes) >= 2, "only one node seen");
	rte_pmu_fini();
	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_stage_numa_suite = {
	.suite_name = "pmu stage state placement",
	.unit_test_cases = {
		TEST_CASE(test_stage_numa),
		TEST_CASES_END()
	}
};

static int
test_pmu_stage_numa(void)
{
	return unit_test_suite_runner(&pmu_stage_numa_suite);
}

REGISTER_FAST_TEST(pmu_stage_numa_autotest, true, true, test_pmu_stage_numa);
