/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_stage_scale_autotest: stages at the sizes of real graph
 * applications, written from the public headers alone (no internals):
 * RTE_PMU_MAX_STAGES stages with 63-character names, all sampled with one
 * call, run on two lcores with exact calls and items, reset while the
 * lcores run, and dumped.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "test.h"

/* What the stage header installs stays small: the state is the library's
 * (a stats structure holds six values per event).
 */
_Static_assert(sizeof(struct __rte_pmu_stage_lcore) <= 256 &&
	sizeof(struct rte_pmu_stage_stats) <= 448, "a stage structure of the header too big");

#define ROUNDS 40u      /* calls of each stage on each lcore */
#define ITEMS 3u

static unsigned int ids[RTE_PMU_MAX_STAGES];
static volatile int go;
static volatile int stop;

/* The 63-character name of stage @p i. */
static void
stage_name(char *name, unsigned int i)
{
	memset(name, 'n', RTE_PMU_STAGE_NAME_MAX - 1);
	name[RTE_PMU_STAGE_NAME_MAX - 1] = '\0';
	snprintf(name, 12, "stage-%05u", i);
	name[11] = '-';
}

/* Every stage ROUNDS times, each call with ITEMS + its lcore's number. */
static int
scale_worker(void *arg)
{
	unsigned int extra = (unsigned int)(uintptr_t)arg, r, i;

	if (rte_pmu_lcore_open() < 0 && rte_pmu_lcore_status(rte_lcore_id()) < 0)
		return -1;
	for (r = 0; r < ROUNDS; r++)
		for (i = 0; i < RTE_PMU_MAX_STAGES; i++) {
			rte_pmu_stage_begin(ids[i]);
			rte_pmu_stage_end(ids[i], ITEMS + extra);
		}
	return 0;
}

/* Stage 0 until told to stop, after go (for the reset while it runs). */
static int
busy_worker(void *arg __rte_unused)
{
	if (rte_pmu_lcore_open() < 0 && rte_pmu_lcore_status(rte_lcore_id()) < 0)
		return -1;
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		rte_pmu_stage_begin(ids[0]);
		rte_pmu_stage_end(ids[0], ITEMS);
	}
	return 0;
}

static int
test_stage_scale(void)
{
	static const char *names_p[RTE_PMU_MAX_STAGES];
	static char names[RTE_PMU_MAX_STAGES][RTE_PMU_STAGE_NAME_MAX];
	struct rte_pmu_stage_stats s, before;
	uint64_t t_read, t_dump;
	unsigned int worker, lcores[2], i, k, period, bad = 0;
	char *dump = NULL, info[RTE_PMU_STAGE_NAME_MAX];
	size_t len = 0;
	bool marked;
	FILE *f;
	int ret;

	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("needs two lcores (-l 0-1)");
	rte_pmu_fini();
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	/* Any event this machine has; none is fine (calls and items). */
	if (rte_pmu_add_event("instructions") < 0)
		rte_pmu_add_event("task-clock");
	for (i = 0; i < RTE_PMU_MAX_STAGES; i++) {
		stage_name(names[i], i);
		names_p[i] = names[i];
	}
	/* One call samples them all, and those registered later. */
	TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(RTE_PMU_STAGE_ALL, 16), "sample all");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_register_bulk(names_p, RTE_PMU_MAX_STAGES, ids),
		"register %u stages", RTE_PMU_MAX_STAGES);
	TEST_ASSERT_EQUAL(rte_pmu_stage_count(), (int)RTE_PMU_MAX_STAGES, "count");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_info(ids[RTE_PMU_MAX_STAGES - 1], info, &period),
		"info");
	TEST_ASSERT(strcmp(info, names[RTE_PMU_MAX_STAGES - 1]) == 0 && period == 16,
		"last stage: %s, period %u", info, period);

	/* Both lcores, at once: exact calls and items on each. */
	lcores[0] = rte_lcore_id();
	lcores[1] = worker;
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(scale_worker, (void *)(uintptr_t)1, worker),
		"launch");
	ret = scale_worker((void *)(uintptr_t)0);
	TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "worker");
	TEST_ASSERT_SUCCESS(ret, "main lcore");
	t_read = rte_get_timer_cycles();
	for (k = 0; k < 2; k++)
		for (i = 0; i < RTE_PMU_MAX_STAGES; i++) {
			TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(lcores[k], ids[i], &s),
				"stats");
			if (s.calls != ROUNDS || s.items != ROUNDS * (ITEMS + k) ||
					s.measured > ROUNDS / 4 || s.misuse != 0)
				bad++;
		}
	t_read = rte_get_timer_cycles() - t_read;
	rte_pmu_stage_stats_get(worker, ids[7], &s);
	printf("%u stages of %zu-character names on 2 lcores: stage 7 on lcore %u: %" PRIu64
		" calls, %" PRIu64 " items, %" PRIu64 " measured; %u wrong\n",
		RTE_PMU_MAX_STAGES, strlen(names[0]), worker, s.calls, s.items, s.measured, bad);
	TEST_ASSERT_EQUAL(bad, 0u, "stages with wrong figures");

	/* The dump: a line per stage per lcore, and the totals. */
	f = open_memstream(&dump, &len);
	TEST_ASSERT_NOT_NULL(f, "memstream");
	t_dump = rte_get_timer_cycles();
	ret = rte_pmu_stage_dump(f);
	t_dump = rte_get_timer_cycles() - t_dump;
	fclose(f);
	TEST_ASSERT_SUCCESS(ret, "dump");
	TEST_ASSERT(strstr(dump, "Items/Call") != NULL && strstr(dump, names[1023]) != NULL &&
		strstr(dump, "total\n") != NULL, "dump:\n%.600s", dump);
	for (i = 0, k = 0; dump[i] != '\0'; i++)
		k += dump[i] == '\n';
	marked = strchr(dump, '~') != NULL;
	printf("dump: %u lines, %zu bytes; its first lines:\n%.400s\n", k, len, dump);
	/* Each figure the dump prints is one a stats call gives, and it prints
	 * every stage of each lcore and their sum: it reads each lcore's total
	 * once, not once a stage (which costs the stats calls, read stage by
	 * stage, n * n reads of stage figures). Times, so gated wide.
	 */
	printf("the dump took %.1f ms, a stats call for each stage on each lcore %.1f ms: "
		"ratio %.3f (at most 0.5)\n", t_dump * 1e3 / rte_get_timer_hz(),
		t_read * 1e3 / rte_get_timer_hz(), (double)t_dump / t_read);
	TEST_ASSERT(t_dump < t_read / 2, "the dump read each lcore's total once a stage");
	TEST_ASSERT(marked == (strstr(dump, "\n~ not exact: ") != NULL), "a figure marked '~' "
		"and no line saying what it means, or that line and no mark");
	TEST_ASSERT(strstr(dump, " \n") == NULL, "a dump line ends with a blank:\n%.400s",
		strstr(dump, " \n") - RTE_MIN(strstr(dump, " \n") - dump, 300));
	free(dump);
	/* Two lcore headers and the total's, with theirs; each stage 3 times;
	 * where events are counted, each lcore's total and outside lines and
	 * the total block's; the line under the tables where a figure is
	 * marked not exact.
	 */
	TEST_ASSERT_EQUAL(k, 3 * 2 + 3 * RTE_PMU_MAX_STAGES + (rte_pmu_lcore_status(0) == 1 ?
		3 * 2 : 0) + (unsigned int)marked, "dump lines");

	/* Reset while an lcore runs: every figure from then on. */
	TEST_ASSERT_SUCCESS(rte_pmu_stage_reset(), "reset");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(worker, ids[5], &s), "stats");
	TEST_ASSERT(s.calls == 0 && s.items == 0 && s.measured == 0, "after reset: %" PRIu64
		" calls", s.calls);
	go = 0;
	stop = 0;
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(busy_worker, NULL, worker), "launch");
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		rte_pause();
	memset(&before, 0, sizeof(before));
	for (i = 0; i < 2000; i++) {
		if (i % 100 == 50) {
			TEST_ASSERT_SUCCESS(rte_pmu_stage_reset(), "reset while running");
			memset(&before, 0, sizeof(before));
		}
		TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(worker, ids[0], &s), "stats");
		/* Never a mix of before and after a reset: items follow calls. */
		if (s.items != s.calls * ITEMS || s.calls < before.calls)
			break;
		before = s;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "worker");
	printf("reset 20 times while lcore %u ran: %u snapshots consistent, last %" PRIu64
		" calls\n", worker, i, before.calls);
	TEST_ASSERT_EQUAL(i, 2000u, "a snapshot mixed before and after a reset: calls %"
		PRIu64 ", items %" PRIu64 " (before: %" PRIu64 ")", s.calls, s.items, before.calls);
	rte_pmu_fini();
	return TEST_SUCCESS;
}

REGISTER_FAST_TEST(pmu_stage_scale_autotest, true, true, test_stage_scale);
