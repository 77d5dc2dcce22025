/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The rules of the stage API, cases of pmu_stage_autotest
 * (test_pmu_stage.c): which names register and which are refused, and
 * what the log says; misuse counted, logged and never a call; calls made
 * with no event, or outside rte_pmu_init() and rte_pmu_fini().
 */

#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>
#include <rte_log.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "pmu_stage_private.h"
#include "test.h"
#include "test_pmu_stage.h"
#include "test_pmu_stage_setup.h"

/* Whether registering @p name is refused with @p err and a log line
 * holding @p want: the name whole, its faulty byte shown.
 */
static bool
refused_saying(const char *name, int err, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *saved = rte_log_get_stream(), *log = open_memstream(&buf, &len);
	bool ok;

	if (log == NULL)
		return false;
	rte_openlog_stream(log);
	ok = rte_pmu_stage_register(name) == err;
	rte_openlog_stream(saved);
	fclose(log);
	ok = ok && buf != NULL && strstr(buf, want) != NULL;
	if (!ok)
		printf("register '%s': log '%s', wanted '%s'\n", name, buf, want);
	free(buf);
	return ok;
}

/* Lines holding @p what that 3 stage calls log. */
static int
calls_logged(const char *what)
{
	char *buf = NULL;
	const char *p;
	size_t len = 0;
	FILE *saved = rte_log_get_stream(), *log = open_memstream(&buf, &len);
	int i, n = 0;

	if (log == NULL)
		return -1;
	rte_openlog_stream(log);
	for (i = 0; i < 3; i++) {
		rte_pmu_stage_begin(0);
		rte_pmu_stage_end(0, 1);
	}
	rte_openlog_stream(saved);
	fclose(log);
	for (p = buf; (p = strstr(p, what)) != NULL; p++)
		n++;
	free(buf);
	return n;
}

int
test_stage_register(void)
{
	char name[RTE_PMU_STAGE_NAME_MAX + 8];
	unsigned int period;
	int a, i, ret;

	rte_pmu_fini();
	/* Stage calls before the process's first rte_pmu_init(): said once
	 * (they were silent: an outside tester).
	 */
	if (!stage_reg.was_init) {
		a = calls_logged("stage call before rte_pmu_init(): not counted");
		TEST_ASSERT_EQUAL(a, 1, "3 stage calls before rte_pmu_init(): %d lines", a);
	}
	TEST_ASSERT_EQUAL(rte_pmu_stage_register("rx"), -ENODEV, "before init");
	TEST_ASSERT_EQUAL(rte_pmu_stage_count(), -ENODEV, "count before init");
	TEST_ASSERT_EQUAL(rte_pmu_stage_lookup("rx"), -ENODEV, "lookup before init");
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT_EQUAL(rte_pmu_stage_register(NULL), -EINVAL, "NULL");
	TEST_ASSERT_EQUAL(rte_pmu_stage_register(""), -EINVAL, "empty");
	TEST_ASSERT_EQUAL(rte_pmu_stage_register("has space"), -EINVAL, "space");
	TEST_ASSERT_EQUAL(rte_pmu_stage_register("new\nline"), -EINVAL, "newline");
	memset(name, 'x', sizeof(name));
	name[RTE_PMU_STAGE_NAME_MAX] = '\0';
	TEST_ASSERT_EQUAL(rte_pmu_stage_register(name), -EINVAL, "too long");
	/* The log names what is wrong, the name not cut where the fault is. */
	TEST_ASSERT(refused_saying("has space", -EINVAL, "'has\\x20space': 1 to 63"), "space logged");
	TEST_ASSERT(refused_saying(name, -EINVAL, "xx...': 1 to 63"), "length logged");
	name[RTE_PMU_STAGE_NAME_MAX - 1] = '\0';
	TEST_ASSERT_EQUAL(rte_pmu_stage_register(name), 0, "longest name");

	a = rte_pmu_stage_register("rx");
	TEST_ASSERT_EQUAL(a, 1, "rx: %d", a);
	TEST_ASSERT_EQUAL(rte_pmu_stage_register("rx"), a, "the same name, the same id");
	for (i = 2; i < RTE_PMU_MAX_STAGES; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		TEST_ASSERT_EQUAL(rte_pmu_stage_register(name), i, "stage %d", i);
	}
	TEST_ASSERT(refused_saying("one-more", -ENOSPC, "one-more: no room for it (1024 stages "
		"at most), not registered\n"), "past the maximum, logged");
	/* All or none, and no id written (an outside tester's find: the
	 * known one's, and 1024 for the new one).
	 */
	{
		const char *const two[] = { "rx", "one-more" };
		unsigned int ids[2] = { 7777, 7777 };

		TEST_ASSERT_EQUAL(rte_pmu_stage_register_bulk(two, 2, ids), -ENOSPC, "bulk, full");
		TEST_ASSERT(ids[0] == 7777 && ids[1] == 7777, "ids written on failure: %u %u",
			ids[0], ids[1]);
	}
	TEST_ASSERT_EQUAL(rte_pmu_stage_register("rx"), a, "found when full");
	TEST_ASSERT_EQUAL(rte_pmu_stage_count(), RTE_PMU_MAX_STAGES, "count");
	TEST_ASSERT_EQUAL(rte_pmu_stage_lookup("rx"), a, "lookup");
	TEST_ASSERT_EQUAL(rte_pmu_stage_lookup(name), RTE_PMU_MAX_STAGES - 1, "lookup of %s", name);
	TEST_ASSERT_EQUAL(rte_pmu_stage_lookup("one-more"), -ENOENT, "lookup, never registered");
	TEST_ASSERT_EQUAL(rte_pmu_stage_lookup(NULL), -EINVAL, "lookup of NULL");

	TEST_ASSERT_EQUAL(rte_pmu_stage_sampling_set(a, 0), -EINVAL, "period 0");
	TEST_ASSERT_EQUAL(rte_pmu_stage_sampling_set(a, RTE_PMU_STAGE_PERIOD_MAX + 1), -EINVAL,
		"period too long");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(a, RTE_PMU_STAGE_PERIOD_MAX), "longest");
	TEST_ASSERT_EQUAL(rte_pmu_stage_sampling_set(RTE_PMU_MAX_STAGES, 2), -EINVAL,
		"unknown id");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(a, 16), "period 16");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_info(a, name, &period), "info");
	TEST_ASSERT(strcmp(name, "rx") == 0 && period == 16, "info: %s %u", name, period);
	TEST_ASSERT_EQUAL(rte_pmu_stage_info(RTE_PMU_MAX_STAGES, name, NULL), -EINVAL,
		"info of an unknown id");

	/* fini drops every stage. */
	rte_pmu_fini();
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init again");
	TEST_ASSERT_EQUAL(rte_pmu_stage_count(), 0, "stages after fini");
	TEST_ASSERT_EQUAL(rte_pmu_stage_lookup("rx"), -ENOENT, "lookup after fini");
	ret = rte_pmu_stage_register("tx");
	TEST_ASSERT_EQUAL(ret, 0, "first id after fini: %d", ret);
	rte_pmu_fini();
	return TEST_SUCCESS;
}

/* Log lines of misuse ("not counted") in @p buf. */
static int
misuse_lines(const char *buf)
{
	const char *p;
	int lines = 0;

	for (p = buf; p != NULL && (p = strstr(p, "not counted")) != NULL; p++)
		lines++;
	return lines;
}

/* Misuse: counted on the stage it names (on the lcore for an id not
 * registered), logged once per kind, never a call. Measured calls are
 * checked in every build; in a debug build (-Dstage_debug=true) every
 * call is, so the misuse of unmeasured calls is counted there too.
 */
int
test_stage_misuse(void)
{
	/* Not a constant: the datapath's own compares must refuse it. */
	volatile unsigned int largest_id = UINT32_MAX;
	struct rte_pmu_stage_stats sa, sb, sc, sall;
	struct rte_pmu_stage_lcore_stats ls;
	char *buf = NULL;
	const char *p;
	size_t len = 0;
	FILE *saved, *log;
	int a, b, c, lines;
	unsigned int i;
	bool dumped;
	uint64_t v;

	if (test_pmu_stage_setup() != TEST_SUCCESS)
		return TEST_FAILED;
	a = rte_pmu_stage_register("a");
	b = rte_pmu_stage_register("b");
	c = rte_pmu_stage_register("c");
	/* c is not measured: its misuse is seen in debug builds only. */
	TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(c, RTE_PMU_STAGE_PERIOD_MAX), "period of c");
	log = open_memstream(&buf, &len);
	TEST_ASSERT_NOT_NULL(log, "memstream");
	saved = rte_log_get_stream();
	rte_openlog_stream(log);
	for (i = 0; i < 3; i++) {
		rte_pmu_stage_begin(RTE_PMU_MAX_STAGES + 5); /* unknown id */
		rte_pmu_stage_begin(a);
		rte_pmu_stage_begin(a);                       /* begin twice */
		rte_pmu_stage_end(b, 1);                      /* not the innermost */
		rte_pmu_stage_end(a, 1);
		rte_pmu_stage_end(largest_id, 1);             /* the largest id */
		rte_pmu_stage_end(c, 7);                      /* none begun */
	}
	/* A measured stage ending where one that may not begin there begins:
	 * the end counts, the begin is misuse.
	 */
	rte_pmu_stage_begin(a);
	rte_pmu_stage_begin(b);
	rte_pmu_stage_next(b, 1, a);                          /* a, open below */
	rte_pmu_stage_next(a, 1, RTE_PMU_MAX_STAGES + 5);     /* unknown id */
	rte_openlog_stream(saved);
	fclose(log);
	lines = misuse_lines(buf);
	free(buf);
	if (stage_get(rte_lcore_id(), a, &sa) != TEST_SUCCESS ||
			stage_get(rte_lcore_id(), b, &sb) != TEST_SUCCESS ||
			stage_get(rte_lcore_id(), c, &sc) != TEST_SUCCESS)
		return TEST_FAILED;
	printf("misuse (%s build): a %" PRIu64 ", b %" PRIu64 ", c %" PRIu64 ", lcore %" PRIu64
		", %d log lines; a: %" PRIu64 " calls, c: %" PRIu64 " calls\n",
		STAGE_DEBUG ? "debug" : "release", sa.misuse, sb.misuse, sc.misuse,
		sa.lcore_misuse, lines, sa.calls, sc.calls);
	/* Each round: a begun twice; then the begin of a that b's end would
	 * begin again.
	 */
	TEST_ASSERT_EQUAL(sa.misuse, UINT64_C(4), "misuse of a");
	/* Each round: the end of b while a is the innermost. */
	TEST_ASSERT_EQUAL(sb.misuse, UINT64_C(3), "misuse of b");
	/* Each round: the unknown begin and the largest id; then the last
	 * boundary's begin.
	 */
	TEST_ASSERT_EQUAL(sa.lcore_misuse, UINT64_C(7), "misuse of ids not registered");
	TEST_ASSERT_EQUAL(sb.lcore_misuse, sa.lcore_misuse, "the lcore's, on every stage");
	/* The sum over every lcore keeps it (only this lcore misused ids). */
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(RTE_PMU_STAGE_ALL_LCORES, a, &sall),
		"sum over every lcore");
	/* A thread that is not an lcore asking for its own: not every
	 * lcore's sum (an outside tester's find).
	 */
	TEST_ASSERT_EQUAL(rte_pmu_stage_stats_get(LCORE_ID_ANY, a, &sall), -EINVAL,
		"LCORE_ID_ANY");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(RTE_PMU_STAGE_ALL_LCORES, a, &sall),
		"sum over every lcore");
	TEST_ASSERT_EQUAL(sall.lcore_misuse, sa.lcore_misuse, "the sum's lcore misuse");
	TEST_ASSERT_EQUAL(sall.misuse, sa.misuse, "the sum's misuse of a");
	/* Each round: the proper a; then the a that the last boundary ended. */
	TEST_ASSERT_EQUAL(sa.calls, UINT64_C(4), "calls of a");
	TEST_ASSERT_EQUAL(sa.items, UINT64_C(4), "items of a");
	TEST_ASSERT_EQUAL(sb.calls, UINT64_C(1), "calls of b");
	if (STAGE_DEBUG) {
		/* Every call checked: c's ends with none begun are misuse. */
		TEST_ASSERT(sc.misuse == 3 && sc.calls == 0, "debug: c's misuse %" PRIu64
			", calls %" PRIu64, sc.misuse, sc.calls);
		TEST_ASSERT_EQUAL(lines, 4, "one log line per kind");
	} else {
		/* Release: an unmeasured end only counts its call and items. */
		TEST_ASSERT(sc.misuse == 0 && sc.calls == 3 && sc.items == 21,
			"release: c's misuse %" PRIu64 ", calls %" PRIu64, sc.misuse, sc.calls);
		TEST_ASSERT_EQUAL(lines, 3, "one log line per kind");
	}
	/* The lcore's misuse in all, in its stats and as the dump's row (the
	 * dump gave none: an outside tester).
	 */
	TEST_ASSERT_SUCCESS(rte_pmu_stage_lcore_stats_get(rte_lcore_id(), &ls), "lcore stats");
	TEST_ASSERT_EQUAL(ls.misuse, sa.misuse + sb.misuse + sc.misuse + sa.lcore_misuse,
		"the lcore's misuse: %" PRIu64, ls.misuse);
	buf = NULL;
	log = open_memstream(&buf, &len);
	TEST_ASSERT(log != NULL && rte_pmu_stage_dump(log) == 0, "dump");
	fclose(log);
	p = strstr(buf, "  (misuse) ");
	dumped = p != NULL && sscanf(p + 10, "%" SCNu64, &v) == 1 && v == ls.misuse;
	free(buf);
	TEST_ASSERT(dumped, "no dump row (misuse) %" PRIu64, ls.misuse);
	rte_pmu_fini();
	return TEST_SUCCESS;
}

static uint32_t open_step;
static int open_ids[2]; /* the stage before rte_pmu_fini(), and after the next init */

/* On a worker: a measured call of stage open_ids[0] (sampled 1 in 16: its
 * 16th) begun, ended once the main lcore made rte_pmu_fini() (open_step
 * 2: after rte_pmu_fini(), the next init and the stage registered again),
 * then 160 calls.
 */
static int
open_across_fini(void *arg __rte_unused)
{
	unsigned int i;

	/* Up to its call to measure (drawn at random: begin_try() says 0). */
	rte_pmu_stage_begin(open_ids[0]);
	rte_pmu_stage_end(open_ids[0], 1);
	for (i = 0; i < 64 && rte_pmu_stage_begin_try(open_ids[0]); i++)
		rte_pmu_stage_end(open_ids[0], 1);
	rte_pmu_stage_begin(open_ids[0]);
	__atomic_store_n(&open_step, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&open_step, __ATOMIC_ACQUIRE) != 2)
		rte_pause();
	rte_pmu_stage_end(open_ids[0], 1);
	for (i = 0; i < 160; i++) {
		rte_pmu_stage_begin(open_ids[1]);
		rte_pmu_stage_end(open_ids[1], 1);
	}
	return 0;
}

/* Defects found from outside, each a case: measured is 0 with no event;
 * calls between rte_pmu_fini() and the next rte_pmu_init() are counted
 * nowhere; an unknown stage's stats say why they fail; a measured call
 * left open across rte_pmu_fini() ends without reading its pages.
 */
int
test_stage_lifecycle(void)
{
	struct rte_pmu_stage_stats s;
	const char *ev = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *saved, *log;
	unsigned int i;
	int a, ret;

	/* No event added: calls and items, nothing measured. */
	rte_pmu_fini();
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	a = rte_pmu_stage_register("no-event");
	TEST_ASSERT(a >= 0, "register: %d", a);
	for (i = 0; i < 100; i++) {
		rte_pmu_stage_begin(a);
		rte_pmu_stage_end(a, 2);
	}
	if (stage_get(rte_lcore_id(), a, &s) != TEST_SUCCESS)
		return TEST_FAILED;
	printf("no event: %" PRIu64 " calls, %" PRIu64 " items, %" PRIu64 " measured\n",
		s.calls, s.items, s.measured);
	TEST_ASSERT(s.calls == 100 && s.items == 200, "calls and items with no event");
	TEST_ASSERT_EQUAL(s.measured, UINT64_C(0), "measured with no event");

	/* After fini: not counted, not misuse, after the next init either. */
	rte_pmu_fini();
	for (i = 0; i < 10; i++) {
		rte_pmu_stage_begin(a);
		rte_pmu_stage_end(a, 2);
		rte_pmu_stage_end(a + 1, 2);
	}
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init again");
	a = rte_pmu_stage_register("again");
	TEST_ASSERT_EQUAL(a, 0, "first id after fini: %d", a);
	if (stage_get(rte_lcore_id(), a, &s) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT(s.calls == 0 && s.misuse == 0 && s.lcore_misuse == 0, "calls outside "
		"init/fini: %" PRIu64 " calls, misuse %" PRIu64 ", lcore misuse %" PRIu64,
		s.calls, s.misuse, s.lcore_misuse);
	rte_pmu_stage_begin(a);
	rte_pmu_stage_end(a, 2);
	if (stage_get(rte_lcore_id(), a, &s) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT(s.calls == 1 && s.items == 2, "a call after init: %" PRIu64, s.calls);

	/* Stats of an unknown stage: -EINVAL, and the log says why. */
	log = open_memstream(&buf, &len);
	TEST_ASSERT_NOT_NULL(log, "memstream");
	saved = rte_log_get_stream();
	rte_openlog_stream(log);
	ret = rte_pmu_stage_stats_get(rte_lcore_id(), 5, &s);
	rte_openlog_stream(saved);
	fclose(log);
	TEST_ASSERT_EQUAL(ret, -EINVAL, "stats of an unknown stage");
	TEST_ASSERT(buf != NULL && strstr(buf, "stage 5 not registered") != NULL,
		"no reason logged: %s", buf != NULL ? buf : "");
	free(buf);
	TEST_ASSERT_EQUAL(rte_pmu_stage_count(), 1, "count");

	/* A worker's measured call left open across rte_pmu_fini() (made by
	 * the main lcore while the worker waits): its end reads no page that
	 * fini unmapped (in the guest, cached views of the old pages, tried,
	 * crashed there), and counts nothing; sampled 1 in 16, it left the
	 * worker counting down the old countdowns, which lost the worker's
	 * first 15 calls after the next init (an outside tester's find).
	 */
	if (stage_setup_one(&ev) != TEST_SUCCESS)
		return TEST_FAILED;
	open_ids[0] = rte_pmu_stage_register("open-across-fini");
	TEST_ASSERT(open_ids[0] >= 0 && rte_pmu_stage_sampling_set(open_ids[0], 16) == 0,
		"register: %d", open_ids[0]);
	i = rte_get_next_lcore(-1, 1, 0);
	if (i < RTE_MAX_LCORE) {
		open_step = 0;
		TEST_ASSERT_SUCCESS(rte_eal_remote_launch(open_across_fini, NULL, i), "launch");
		while (__atomic_load_n(&open_step, __ATOMIC_ACQUIRE) != 1)
			rte_pause();
		rte_pmu_fini();
		TEST_ASSERT_SUCCESS(rte_pmu_init(), "init after the open call");
		TEST_ASSERT_EQUAL(rte_pmu_stage_count(), 0, "stages after fini");
		TEST_ASSERT_EQUAL(rte_pmu_add_event(ev), 0, "add %s", ev);
		open_ids[1] = rte_pmu_stage_register("open-across-fini");
		TEST_ASSERT(open_ids[1] >= 0 && rte_pmu_stage_sampling_set(open_ids[1], 16) == 0,
			"register again: %d", open_ids[1]);
		__atomic_store_n(&open_step, 2, __ATOMIC_RELEASE);
		TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(i), "worker");
		if (stage_get(i, open_ids[1], &s) != TEST_SUCCESS)
			return TEST_FAILED;
		printf("lcore %u: a measured call open across rte_pmu_fini() ended; 160 calls "
			"after the next init: %" PRIu64 " counted\n", i, s.calls);
		TEST_ASSERT_EQUAL(s.calls, UINT64_C(160), "calls after the next init");
	} else {
		printf("no worker lcore: no call left open across rte_pmu_fini()\n");
	}
	rte_pmu_fini();
	return TEST_SUCCESS;
}
