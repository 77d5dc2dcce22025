/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Stage figures against known work: flat, nested and chained stages
 * around loops of a known number of instructions, every call and sampled
 * 1 in 16. Where instructions are read from the user page (the arm64
 * guest: exact counts), each stage's self figure per call is its loop's,
 * within 1 % and 8 instructions. Everywhere, whatever the event and read
 * path (task-clock or msr/tsc/ through read() on x86), an lcore's stages
 * add up to no more than its total. The spread of sampled figures holds
 * the truth of varied work. A sampled stage called inside a measured one
 * and outside it is estimated from its own measured calls.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "test.h"
#include "test_pmu_loop.h"

#define CALLS 2000u
#define LOOP 1000u    /* iterations: 2000 instructions of work */

enum shape { FLAT, NESTED, CHAINED, SHAPES };
static const char *const shape_name[] = { "flat", "nested", "chained" };

/* One call of @p shape over stages @p s (three ids). */
static void
run_shape(enum shape shape, const int *s)
{
	switch (shape) {
	case FLAT:
		rte_pmu_stage_begin(s[0]);
		test_loop(LOOP);
		rte_pmu_stage_end(s[0], 1);
		break;
	case NESTED:
		rte_pmu_stage_begin(s[0]);
		test_loop(LOOP);
		rte_pmu_stage_begin(s[1]);
		test_loop(LOOP);
		rte_pmu_stage_begin(s[2]);
		test_loop(LOOP);
		rte_pmu_stage_end(s[2], 1);
		rte_pmu_stage_end(s[1], 1);
		rte_pmu_stage_end(s[0], 1);
		break;
	default:
		rte_pmu_stage_begin(s[0]);
		test_loop(LOOP);
		rte_pmu_stage_next(s[0], 1, s[1]);
		test_loop(LOOP);
		rte_pmu_stage_next(s[1], 1, s[2]);
		test_loop(LOOP);
		rte_pmu_stage_end(s[2], 1);
		break;
	}
}

/* Init with @p event; true where it opened and is read. */
static bool
setup(const char *event)
{
	rte_pmu_fini();
	if (rte_pmu_init() != 0 || rte_pmu_add_event(event) != 0)
		return false;
	return rte_pmu_lcore_open() == 0 && rte_pmu_lcore_status(rte_lcore_id()) == 1;
}

/* One shape at one period: the figures, checked. */
static int
check_shape(const char *event, bool exact, enum shape shape, unsigned int period)
{
	const unsigned int used = shape == FLAT ? 1 : 3;
	struct rte_pmu_stage_lcore_stats ls;
	struct rte_pmu_stage_stats st;
	uint64_t sum = 0, want = LOOP * TEST_LOOP_INSNS;
	const uint64_t tol = period == 1 ? 12 : RTE_MAX(want / 100, 8u);
	char name[32];
	unsigned int i;
	int s[3];
	double per;

	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "%s-%u", shape_name[shape], i);
		s[i] = rte_pmu_stage_register(name);
		TEST_ASSERT(s[i] >= 0, "register %s: %d", name, s[i]);
		TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(s[i], period), "period");
	}
	TEST_ASSERT_SUCCESS(rte_pmu_stage_reset(), "reset");
	for (i = 0; i < CALLS; i++)
		run_shape(shape, s);
	TEST_ASSERT_SUCCESS(rte_pmu_stage_lcore_stats_get(rte_lcore_id(), &ls), "lcore");
	for (i = 0; i < used; i++) {
		TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), s[i], &st), "stats");
		TEST_ASSERT_EQUAL(st.calls, (uint64_t)CALLS, "%s-%u: calls", shape_name[shape], i);
		TEST_ASSERT(st.measured != 0, "%s-%u: nothing measured", shape_name[shape], i);
		per = (double)st.self_values[0] / st.calls;
		sum += st.self_values[0];
		printf("%s %s 1/%u stage %u: self %.1f a call (work %" PRIu64 "), "
			"%" PRIu64 " measured\n", event, shape_name[shape], period, i, per,
			exact ? want : 0, st.measured);
		/* Every call measured: within a few instructions a call (the
		 * program's inline code and the library's differ by a few);
		 * sampled, an estimate: within 1 % too.
		 */
		if (exact)
			TEST_ASSERT(per >= want - tol && per <= want + tol,
				"%s-%u, 1 in %u: %.1f instructions a call for %" PRIu64 " of work",
				shape_name[shape], i, period, per, want);
	}
	printf("%s %s 1/%u: stages %" PRIu64 ", lcore %" PRIu64 ", outside %" PRIu64 "\n",
		event, shape_name[shape], period, sum, ls.total[0], ls.outside[0]);
	TEST_ASSERT(sum <= ls.total[0], "%s, %s, 1 in %u: stages add up to %" PRIu64
		", above the lcore's %" PRIu64, event, shape_name[shape], period, sum,
		ls.total[0]);
	TEST_ASSERT(ls.outside[0] <= ls.total[0] - sum, "outside %" PRIu64 " is more than "
		"total less the stages", ls.outside[0]);
	return TEST_SUCCESS;
}

static int
test_stage_truth(void)
{
	static const char *const events[] = { "instructions", "msr/tsc/", "task-clock" };
	static const unsigned int periods[] = { 1, 16 };
	struct rte_pmu_lcore_info info;
	unsigned int e, p, ran = 0;
	enum shape sh;
	bool exact;

	for (e = 0; e < RTE_DIM(events); e++) {
		if (!setup(events[e])) {
			printf("%s: does not open here, not tried\n", events[e]);
			continue;
		}
		TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(rte_lcore_id(), &info), "info");
		exact = e == 0 && info.events[0].path == RTE_PMU_PATH_USER &&
			TEST_LOOP_INSNS != 0;
		ran++;
		for (sh = FLAT; sh < SHAPES; sh++)
			for (p = 0; p < RTE_DIM(periods); p++)
				if (check_shape(events[e], exact, sh, periods[p]) != TEST_SUCCESS) {
					rte_pmu_fini();
					return TEST_FAILED;
				}
	}
	rte_pmu_fini();
	if (ran == 0)
		TEST_SKIP("no event opens here");
	return TEST_SUCCESS;
}

/* Init with instructions, else task-clock; @p exact says whether its
 * counts are exact (instructions from the user page). False where neither
 * opens.
 */
static bool
setup_exact(bool *exact)
{
	struct rte_pmu_lcore_info info;

	if (!setup("instructions") && !setup("task-clock"))
		return false;
	*exact = rte_pmu_lcore_info_get(rte_lcore_id(), &info) == 0 &&
		strcmp(info.events[0].name, "instructions") == 0 &&
		info.events[0].path == RTE_PMU_PATH_USER && TEST_LOOP_INSNS != 0;
	return true;
}

/* A stage measured at every call (period 1): an end with no begin is
 * misuse, not a call, and does not scale the measured values.
 */
static int
test_stage_end_no_begin(void)
{
	struct rte_pmu_stage_stats st;
	unsigned int i;
	int a;

	if (!setup("instructions") && !setup("task-clock"))
		TEST_SKIP("no event opens here");
	a = rte_pmu_stage_register("no-begin");
	TEST_ASSERT(a >= 0, "register: %d", a);
	for (i = 0; i < 100; i++) {
		rte_pmu_stage_begin(a);
		test_loop(LOOP);
		rte_pmu_stage_end(a, 2);
	}
	for (i = 0; i < 5; i++)
		rte_pmu_stage_end(a, 7);
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), a, &st), "stats");
	printf("period 1: %" PRIu64 " calls, %" PRIu64 " items, %" PRIu64 " measured, %" PRIu64
		" misuse\n", st.calls, st.items, st.measured, st.misuse);
	TEST_ASSERT(st.calls == 100 && st.items == 200 && st.measured == 100 && st.misuse == 5,
		"ends with no begin taken as calls");
	rte_pmu_fini();
	return TEST_SUCCESS;
}

/* Whether the first dump line of stage @p name in @p dump holds '~'. */
static bool
dump_marked(const char *dump, const char *name)
{
	char key[40];
	const char *line, *end;

	snprintf(key, sizeof(key), "\n  %s ", name);
	line = strstr(dump, key);
	if (line == NULL)
		return false;
	end = strchr(line + 1, '\n');
	return memchr(line, '~', end != NULL ? (size_t)(end - line) : strlen(line)) != NULL;
}

/* rte_pmu_stage_dump() after test_stage_inexact()'s calls: the stage
 * around nothing marked, the line under the tables, the work stage
 * unmarked where it is (its stats say).
 */
static int
dump_marks(void)
{
	struct rte_pmu_stage_stats st;
	char *dump = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&dump, &len);
	bool work_marked;

	TEST_ASSERT_NOT_NULL(f, "memstream");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_dump(f), "dump");
	fclose(f);
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), rte_pmu_stage_lookup("work"),
		&st), "stats");
	work_marked = dump_marked(dump, "work");
	if (!dump_marked(dump, "nothing") || !dump_marked(dump, "(outside stages)") ||
			strstr(dump, "\n~ not exact: ") == NULL ||
			work_marked != ((st.inexact & 1) != 0)) {
		printf("%s", dump);
		free(dump);
		TEST_ASSERT(false, "the dump: stage 'nothing' or the part outside the stages "
			"not marked '~', no line saying what '~' means, or 'work' marked %u while "
			"its stats say %u", work_marked, st.inexact & 1);
	}
	free(dump);
	return 0;
}

/* A stage cheaper than the reads that measure it is marked inexact; a
 * stage of 2,000 instructions counted exactly is not. Timed through
 * read() (task-clock), a preemption inside one measured call can lift the
 * stage around nothing above its reads: up to 3 rounds, from a reset.
 */
static int
test_stage_inexact(void)
{
	struct rte_pmu_stage_lcore_stats ls;
	struct rte_pmu_lcore_info info;
	struct rte_pmu_stage_stats st;
	unsigned int i, round;
	int none, work;
	bool exact;

	if (!setup_exact(&exact))
		TEST_SKIP("no event opens here");
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(rte_lcore_id(), &info), "info");
	none = rte_pmu_stage_register("nothing");
	work = rte_pmu_stage_register("work");
	TEST_ASSERT(none >= 0 && work >= 0, "register");
	for (round = 0, st.inexact = 0; round < 3 && (st.inexact & 1) == 0; round++) {
		TEST_ASSERT_SUCCESS(rte_pmu_stage_reset(), "reset");
		for (i = 0; i < 100; i++) {
			rte_pmu_stage_begin(none);
			rte_pmu_stage_end(none, 1);
			rte_pmu_stage_begin(work);
			test_loop(LOOP);
			rte_pmu_stage_end(work, 1);
		}
		TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), none, &st), "stats");
		printf("%s, round %u: a stage around nothing: self %.1f a call, a read pair %"
			PRIu64 ", inexact %u\n", info.events[0].name, round,
			(double)st.self_values[0] / st.calls, st.overhead[0], st.inexact & 1);
		TEST_ASSERT(st.overhead[0] > 0, "no read pair measured");
	}
	/* Exact counts (the guest) always mark it. Through read() a call's
	 * time has a long tail on a loaded machine (CI's ASan lane: 1,560 to
	 * 1,895 ns a call around nothing against a median read pair of 1,142
	 * in each of 3 rounds), which the mean takes in: not a failure there.
	 */
	if (!exact && (st.inexact & 1) == 0) {
		rte_pmu_fini();
		TEST_SKIP("read() path: the stage around nothing above its reads' median in "
			"3 rounds (a loaded machine); the guest checks it on exact counts");
	}
	TEST_ASSERT((st.inexact & 1) != 0,
		"a stage cheaper than its reads not marked inexact (3 rounds)");
	/* Nor is the part of the lcore outside its stages then. */
	TEST_ASSERT_SUCCESS(rte_pmu_stage_lcore_stats_get(rte_lcore_id(), &ls), "lcore stats");
	TEST_ASSERT((ls.inexact & 1) != 0, "the lcore's part outside its stages not marked "
		"inexact, while stage 'nothing' is");
	if (exact) {
		TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), work, &st), "stats");
		TEST_ASSERT((st.inexact & 1) == 0, "a stage of %u instructions marked inexact "
			"(a read pair %" PRIu64 ")", LOOP * TEST_LOOP_INSNS, st.overhead[0]);
	}
	/* The dump marks it '~', says what the mark means, and leaves the
	 * stage of exact counts unmarked.
	 */
	TEST_ASSERT_SUCCESS(dump_marks(), "the dump's marks");
	rte_pmu_fini();
	return TEST_SUCCESS;
}

/* Stage @p id's figures, its spread printed. */
static int
spread_get(int id, const char *what, struct rte_pmu_stage_stats *st)
{
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), id, st), "stats");
	printf("%s: %" PRIu64 " calls, %" PRIu64 " measured, self %.1f a call +- %.2f%%\n",
		what, st->calls, st->measured, (double)st->self_values[0] / st->calls,
		100 * st->spread[0]);
	return TEST_SUCCESS;
}

/* One round of test_stage_spread(): 400 calls of each stage, @p every
 * and @p steady of equal work, @p varied of varied work, its iterations
 * added to @p iters.
 */
static void
spread_round(int every, int steady, int varied, uint64_t *iters, uint64_t *lcg)
{
	unsigned int i, w;

	for (i = 0; i < 400; i++) {
		rte_pmu_stage_begin(every);
		test_loop(LOOP);
		rte_pmu_stage_end(every, 1);
		rte_pmu_stage_begin(steady);
		test_loop(LOOP);
		rte_pmu_stage_end(steady, 1);
		/* 200 to 1,999 iterations, from the high bits of an LCG. */
		*lcg = *lcg * 6364136223846793005ULL + 1442695040888963407ULL;
		w = 200 + (unsigned int)((*lcg >> 33) % 1800);
		*iters += w;
		rte_pmu_stage_begin(varied);
		test_loop(w);
		rte_pmu_stage_end(varied, 1);
	}
}

/* A measured stage nested in one that is not measured (chained from a
 * measured call, not its call to measure): what it gives that parent must
 * not reach the next stage begun in the parent's place, whose self figure
 * is its own loop's.
 */
static int
test_stage_unmeasured_parent(void)
{
	struct rte_pmu_stage_stats z, w;
	unsigned int i;
	double zs, ws;
	bool exact;
	int p, q, x, zi, wi;

	if (!setup_exact(&exact))
		TEST_SKIP("no event opens here");
	p = rte_pmu_stage_register("up-p");
	q = rte_pmu_stage_register("up-q");
	x = rte_pmu_stage_register("up-x");
	zi = rte_pmu_stage_register("up-z");
	wi = rte_pmu_stage_register("up-w");
	TEST_ASSERT(p >= 0 && q >= 0 && x >= 0 && zi >= 0 && wi >= 0, "register");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(q, 16), "period");
	for (i = 0; i < 160; i++) {
		rte_pmu_stage_begin(p);
		test_loop(LOOP / 4);
		rte_pmu_stage_next(p, 1, q);
		rte_pmu_stage_begin(x);
		test_loop(LOOP);
		rte_pmu_stage_end(x, 1);
		rte_pmu_stage_end(q, 1);
		rte_pmu_stage_begin(zi);
		test_loop(LOOP);
		rte_pmu_stage_begin(wi);
		test_loop(LOOP);
		rte_pmu_stage_end(wi, 1);
		rte_pmu_stage_end(zi, 1);
	}
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), zi, &z), "stats");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), wi, &w), "stats");
	TEST_ASSERT(z.calls == 160 && w.calls == 160, "calls: %" PRIu64 ", %" PRIu64,
		z.calls, w.calls);
	zs = (double)z.self_values[0] / z.calls;
	ws = (double)w.self_values[0] / w.calls;
	printf("after a measured stage in one not measured: self %.1f a call, the same "
		"loop nested in it %.1f\n", zs, ws);
	rte_pmu_fini();
	/* Each loop the same work: exactly, within 1 % and 8 instructions,
	 * where counts are exact. Elsewhere (task-clock, a read() on each side
	 * of a loop of a few ns) the figure says little: CI's asan run saw
	 * self 0.0 a call for the work of 18.4.
	 */
	if (!exact)
		TEST_SKIP("counts not exact here (task-clock, a read() around a loop of a few "
			"ns): printed, not checked; the arm64 guest checks it");
	TEST_ASSERT(fabs(zs - ws) <= 0.01 * ws + 8, "self %.1f a call for the work of %.1f",
		zs, ws);
	return TEST_SUCCESS;
}

/* A sampled stage of few calls, 125 of a loop, 1 in 64: one or a few
 * measured calls, drawn at random, and calls since the last. Its self
 * figure a call is the loop's (it read the loop's over the calls up to the
 * last measured one: about half of it over 125), where counts are
 * exact. Elsewhere (task-clock, a read() on each side of a loop of a few
 * ns) one measured call says little: printed, not checked.
 */
static int
test_stage_few_calls(void)
{
	struct rte_pmu_stage_stats st, one;
	unsigned int i;
	double per, loop;
	bool exact;
	int a, b;

	if (!setup_exact(&exact))
		TEST_SKIP("no event opens here");
	a = rte_pmu_stage_register("few");
	b = rte_pmu_stage_register("few-every");
	TEST_ASSERT(a >= 0 && b >= 0, "register");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(a, 64), "period");
	for (i = 0; i < 125; i++) {
		rte_pmu_stage_begin(a);
		test_loop(LOOP);
		rte_pmu_stage_end(a, 1);
		rte_pmu_stage_begin(b);
		test_loop(LOOP);
		rte_pmu_stage_end(b, 1);
	}
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), a, &st), "stats");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), b, &one), "stats");
	per = (double)st.self_values[0] / st.calls;
	loop = (double)one.self_values[0] / one.calls;
	printf("1 in 64, 125 calls, %" PRIu64 " measured: self %.1f a call; every call "
		"measured: %.1f\n", st.measured, per, loop);
	/* One or a few measured, as the countdowns were drawn. */
	TEST_ASSERT(st.calls == 125 && st.measured >= 1 && st.measured <= 4, "calls %" PRIu64
		", measured %" PRIu64, st.calls, st.measured);
	rte_pmu_fini();
	if (!exact)
		TEST_SKIP("counts not exact here: the figure of one measured call is printed "
			"(the arm64 guest checks it)");
	TEST_ASSERT(fabs(per - loop) <= 0.01 * loop + 8, "self %.1f a call for the work of %.1f",
		per, loop);
	return TEST_SUCCESS;
}

/* The spread of sampled figures: 0 where every call is measured, small for
 * calls of equal work, wide enough to hold the truth for calls of varied
 * work (exact counts), not told from one measured call.
 */
static int
test_stage_spread(void)
{
	struct rte_pmu_stage_stats st;
	uint64_t iters = 0, lcg = 12345;
	unsigned int i, round;
	double want, got;
	int every, steady, varied, once;
	bool exact;

	if (!setup_exact(&exact))
		TEST_SKIP("no event opens here");
	every = rte_pmu_stage_register("every");
	steady = rte_pmu_stage_register("steady");
	varied = rte_pmu_stage_register("varied");
	once = rte_pmu_stage_register("once");
	TEST_ASSERT(every >= 0 && steady >= 0 && varied >= 0 && once >= 0, "register");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(every, 1), "period");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(steady, 4), "period");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(varied, 4), "period");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(once, 8), "period");
	/* In the guest, one run in five here had one measured call of equal
	 * work count about 8,300 instructions more than the 99 others, as a
	 * round of dpdk-pmu-graph's that an interrupt hit does: such a round
	 * is run again (3 at most), as test_stage_inexact() does.
	 */
	for (round = 0; round < 3; round++) {
		if (round != 0)
			printf("round %u: 1 in 4 of equal work has a spread of %f with exact "
				"counts (one call counted more): again\n", round,
				st.spread[0]);
		TEST_ASSERT_SUCCESS(rte_pmu_stage_reset(), "reset");
		iters = 0;
		spread_round(every, steady, varied, &iters, &lcg);
		TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), steady, &st), "stats");
		if (!exact || st.spread[0] < 0.001)
			break;
	}
	TEST_ASSERT_SUCCESS(spread_get(every, "every call", &st), "stats");
	TEST_ASSERT(st.measured == st.calls && st.spread[0] == 0,
		"a stage measured at every call has a spread of %f", st.spread[0]);
	TEST_ASSERT_SUCCESS(spread_get(steady, "1 in 4, equal work", &st), "stats");
	TEST_ASSERT(st.measured >= 50 && st.measured <= 200 && !isnan(st.spread[0]) &&
		st.spread[0] >= 0,
		"1 in 4 of equal work: %" PRIu64 " measured, spread %f", st.measured,
		st.spread[0]);
	if (exact)
		TEST_ASSERT(st.spread[0] < 0.001, "equal work, exact counts: spread %f",
			st.spread[0]);
	TEST_ASSERT_SUCCESS(spread_get(varied, "1 in 4, varied work", &st), "stats");
	TEST_ASSERT(!isnan(st.spread[0]) && st.spread[0] > 0, "varied work: spread %f",
		st.spread[0]);
	if (exact) {
		want = (double)iters * TEST_LOOP_INSNS / st.calls;
		got = (double)st.self_values[0] / st.calls;
		printf("varied work: %.1f instructions a call, estimated %.1f +- %.1f\n",
			want, got, got * st.spread[0]);
		TEST_ASSERT(st.spread[0] > 0.01 && st.spread[0] < 0.2,
			"varied work (200 to 1,999 iterations): spread %f", st.spread[0]);
		TEST_ASSERT(fabs(got - want) <= 4 * got * st.spread[0] + 8,
			"varied work: %.1f a call estimated for %.1f, beyond 4 spreads (%.1f)",
			got, want, got * st.spread[0]);
	}
	/* Calls up to one measured (the countdown drawn at random: begin_try()
	 * says which), a few after it, none measured before the reset.
	 */
	rte_pmu_stage_begin(once);
	rte_pmu_stage_end(once, 1);
	TEST_ASSERT_SUCCESS(rte_pmu_stage_reset(), "reset");
	for (i = 0; i < 64 && rte_pmu_stage_begin_try(once); i++)
		rte_pmu_stage_end(once, 1);
	rte_pmu_stage_begin(once);
	rte_pmu_stage_end(once, 1);
	for (i = 0; i < 3 && rte_pmu_stage_begin_try(once); i++)
		rte_pmu_stage_end(once, 1);
	TEST_ASSERT_SUCCESS(spread_get(once, "one measured call", &st), "stats");
	TEST_ASSERT(st.measured == 1 && isnan(st.spread[0]),
		"one measured call of %" PRIu64 ": spread %f, not NAN", st.calls, st.spread[0]);
	rte_pmu_fini();
	return TEST_SUCCESS;
}

/* One shape of test_stage_nested_sampled(): a child sampled 1 in 16,
 * called once inside a parent measured at every call (work LOOP) and
 * @p outside times outside it (work @p work each); its figures checked.
 */
static int
nested_sampled(bool exact, unsigned int outside, unsigned int work)
{
	struct rte_pmu_stage_stats pst, cst;
	struct rte_pmu_stage_lcore_stats ls;
	const unsigned int calls = (1 + outside) * CALLS;
	const double want = (double)(LOOP + outside * work) * TEST_LOOP_INSNS / (1 + outside);
	unsigned int i, k;
	double per, pper;
	char name[32];
	int p, c;

	snprintf(name, sizeof(name), "ns-parent-%u", outside);
	p = rte_pmu_stage_register(name);
	snprintf(name, sizeof(name), "ns-child-%u", outside);
	c = rte_pmu_stage_register(name);
	TEST_ASSERT(p >= 0 && c >= 0, "register");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(c, 16), "period");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_reset(), "reset");
	for (i = 0; i < CALLS; i++) {
		rte_pmu_stage_begin(p);
		test_loop(LOOP);
		rte_pmu_stage_begin(c);
		test_loop(LOOP);
		rte_pmu_stage_end(c, 1);
		rte_pmu_stage_end(p, 1);
		for (k = 0; k < outside; k++) {
			rte_pmu_stage_begin(c);
			test_loop(work);
			rte_pmu_stage_end(c, 1);
		}
	}
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), p, &pst), "stats");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(rte_lcore_id(), c, &cst), "stats");
	TEST_ASSERT_SUCCESS(rte_pmu_stage_lcore_stats_get(rte_lcore_id(), &ls), "lcore");
	per = (double)cst.self_values[0] / cst.calls;
	pper = (double)pst.self_values[0] / pst.calls;
	printf("child 1 in 16, one call of %u a round in a parent measured at every call: "
		"%" PRIu64 " calls, %" PRIu64 " measured, self %.1f a call +- %.2f%% (work %.1f); "
		"parent self %.1f (work %u); stages %" PRIu64 ", lcore %" PRIu64 "\n",
		1 + outside, cst.calls, cst.measured, per, 100 * cst.spread[0], exact ? want : 0.0,
		pper, exact ? LOOP * TEST_LOOP_INSNS : 0, pst.self_values[0] + cst.self_values[0],
		ls.total[0]);
	TEST_ASSERT(cst.calls == calls && pst.calls == CALLS, "calls");
	/* One in 16 at random of all its calls (all those inside before). */
	TEST_ASSERT(cst.measured >= calls / 24 && cst.measured <= calls / 12,
		"the child's own measured calls: %" PRIu64 " for 1 in 16 of %u", cst.measured,
		calls);
	TEST_ASSERT(pst.self_values[0] + cst.self_values[0] <= ls.total[0],
		"stages above the lcore's total");
	if (exact) {
		/* An estimate from the calls drawn: within 3 spreads. */
		TEST_ASSERT(fabs(per - want) <= 3 * per * cst.spread[0] + 8,
			"child: %.1f a call for %.1f, spread %.4f", per, want, cst.spread[0]);
		/* The bookkeeping of a call measured for its parent's sake only
		 * has a calibration of its own (without it, 2012.5 for 2000;
		 * 1995.7 with it, in the guest).
		 */
		TEST_ASSERT(fabs(pper - LOOP * TEST_LOOP_INSNS) <= 8, "parent: %.1f a call",
			pper);
	}
	return TEST_SUCCESS;
}

/* A stage sampled 1 in 16 and called both inside a stage measured at
 * every call and outside it: its calls inside are measured for the
 * parent's sake, but its estimate is told from its own calls to measure,
 * drawn at random. Counted with those inside, each started its countdown
 * again, and its own never fell outside the parent: 3 calls a round read
 * the work inside alone (1,999 instructions for 3,333). With every 16th
 * call measured, 2 calls a round (one inside, one outside at 3 times the
 * work) read +50 % or -48 %, by the calls before the reset.
 */
static int
test_stage_nested_sampled(void)
{
	bool exact;

	if (!setup_exact(&exact))
		TEST_SKIP("no event opens here");
	if (nested_sampled(exact, 2, 2 * LOOP) != TEST_SUCCESS ||
			nested_sampled(exact, 1, 3 * LOOP) != TEST_SUCCESS) {
		rte_pmu_fini();
		return TEST_FAILED;
	}
	rte_pmu_fini();
	return TEST_SUCCESS;
}

static struct unit_test_suite stage_truth_suite = {
	.suite_name = "pmu stage figures against known work",
	.unit_test_cases = {
		TEST_CASE(test_stage_truth),
		TEST_CASE(test_stage_end_no_begin),
		TEST_CASE(test_stage_inexact),
		TEST_CASE(test_stage_spread),
		TEST_CASE(test_stage_unmeasured_parent),
		TEST_CASE(test_stage_nested_sampled),
		TEST_CASE(test_stage_few_calls),
		TEST_CASES_END()
	}
};

static int
test_pmu_stage_truth(void)
{
	return unit_test_suite_runner(&stage_truth_suite);
}

REGISTER_FAST_TEST(pmu_stage_truth_autotest, true, true, test_pmu_stage_truth);
