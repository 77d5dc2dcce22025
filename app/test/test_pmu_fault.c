/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_fault_autotest (dpdk-test-fault): every libc call the library makes
 * in a full lifecycle (init, add events, first read on two lcores, reads,
 * status and info, fini) is failed in turn with each errno that call can
 * really return. For each case: the API returns the error its contract
 * gives for it (or absorbs it where the contract says so) and logs a line;
 * the other lcore keeps counting; transient errors are recovered; and at
 * the end no descriptor, mapping or allocation is left. Run with -l 0-1.
 * The lifecycle and its checks: test_pmu_fault_lifecycle.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include <rte_pmu.h>

#include "test.h"
#include "test_pmu_fault.h"
#include "test_pmu_fault_lifecycle.h"
#include "test_pmu_fixture.h"

/* Calls of one kind failed in a row by a "persistent" case: more than any
 * bounded retry inside one API call.
 */
#define PERSISTENT 64

static FILE *saved_log;

/* ---- the sweep ---- */

static unsigned int cases_run;
static unsigned int cases_failed;
static unsigned int kind_cases[FK_MAX];

static void
case_run(uint32_t index, enum fault_kind kind, int err, uint32_t count)
{
	struct fault_plan plan = { .index = index, .count = count, .err = err };
	struct lifecycle lc;

	cases_run++;
	kind_cases[kind]++;
	if (lifecycle_run(&lc, &plan) == 0)
		return;
	if (cases_failed++ < 40)
		printf("FAIL call %u %s errno %s%s: %s\n", index, fault_kind_name(kind),
			err != 0 ? strerror(err) : "(0 bytes)", count > 1 ? " (persistent)" : "",
			lc.why);
}

static int
test_fault_sweep(void)
{
	enum fault_kind trace[FAULT_TRACE_MAX];
	struct lifecycle lc;
	uint32_t n, i, e;
	uint64_t start;
	double secs;
	int ret;

	/* The dry run: no fault, and the calls every case will meet. */
	ret = lifecycle_run(&lc, NULL);
	TEST_ASSERT(ret == 0, "lifecycle without a fault: %s", lc.why);
	n = fault_calls();
	TEST_ASSERT(n > 0 && n <= FAULT_TRACE_MAX, "%u armed calls", n);
	for (i = 0; i < n; i++)
		trace[i] = fault_trace(i);

	start = rte_get_timer_cycles();
	for (i = 0; i < n; i++) {
		const struct fault_errs *es = fault_errnos(trace[i]);

		for (e = 0; e < es->n; e++) {
			case_run(i, trace[i], es->v[e], 1);
			if (fault_transient(trace[i], es->v[e]))
				case_run(i, trace[i], es->v[e], PERSISTENT);
		}
	}
	secs = (double)(rte_get_timer_cycles() - start) / rte_get_timer_hz();

	printf("lifecycle: %u events, %u lcores, %u library calls\n", lifecycle_events(),
		LCORES, n);
	for (i = 0; i < FK_MAX; i++)
		if (kind_cases[i] != 0)
			printf("  %-16s %u cases\n", fault_kind_name(i), kind_cases[i]);
	printf("fault cases: %u run, %u failed (%.1f s)\n", cases_run, cases_failed, secs);
	TEST_ASSERT(cases_failed == 0, "%u fault cases failed", cases_failed);
	/* No dead kind: each kind with a contract was failed by some case,
	 * and the library made no call of a kind without one.
	 */
	for (i = 0; i < n; i++)
		TEST_ASSERT(fault_errnos(trace[i])->n > 0,
			"library call %u is of kind %s, which has no contract", i,
			fault_kind_name(trace[i]));
	for (i = 0; i < FK_MAX; i++)
		TEST_ASSERT(fault_errnos(i)->n == 0 || kind_cases[i] > 0,
			"dead fault kind %s: the library never made such a call",
			fault_kind_name(i));
	return TEST_SUCCESS;
}

/* Errors that need no fault: the encoder's ERANGE is the API's -EINVAL. */
static int
test_value_too_wide(void)
{
	char log[512];
	long mark;
	int ret;

	TEST_ASSERT_SUCCESS(pmu_fixture_setup(), "fixture");
	use_root("x86");
	ret = rte_pmu_init();
	if (ret == 0) {
		mark = log_mark();
		/* format/event of the fixture's cpu PMU is config:0-7. */
		ret = rte_pmu_add_event("cpu/event=0x100/");
		log_since(mark, log, sizeof(log));
		rte_pmu_fini();
	}
	pmu_fixture_teardown();
	TEST_ASSERT_EQUAL(ret, -EINVAL, "9-bit value in an 8-bit field: %d", ret);
	TEST_ASSERT(log[0] != '\0', "no log line for a value too wide");
	return TEST_SUCCESS;
}

/* A read() that keeps failing: every read gives 0 and is counted, the
 * status stays 1, one line is logged; reads work again once read() does.
 */
static int
test_read_errors_counted(void)
{
	struct fault_plan plan = { .index = 0, .count = 1000, .err = EIO };
	struct rte_pmu_lcore_info info;
	unsigned int lcore = rte_lcore_id();
	uint64_t v[3], after;
	char log[1024];
	unsigned int i, lines = 0;
	long mark;
	char *p;

	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT(rte_pmu_add_event("cpu-clock") == 0, "add cpu-clock");
	/* Open the group without a fault (software events read with read()). */
	rte_pmu_read(0);
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(lcore), 1, "group open");

	mark = log_mark();
	fault_reset(&plan);
	fault_arm(true);
	for (i = 0; i < RTE_DIM(v); i++)
		v[i] = rte_pmu_read(0);
	fault_arm(false);
	fault_reset(NULL);
	log_since(mark, log, sizeof(log));
	for (p = log; (p = strchr(p, '\n')) != NULL; p++)
		lines++;
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(lcore, &info), "info");
	after = rte_pmu_read(0);
	rte_pmu_fini();

	for (i = 0; i < RTE_DIM(v); i++)
		TEST_ASSERT_EQUAL(v[i], 0, "read %u gave %" PRIu64 " with read() failing", i, v[i]);
	TEST_ASSERT_EQUAL(info.status, 1, "status %d", info.status);
	TEST_ASSERT_EQUAL(info.read_errors, RTE_DIM(v), "%" PRIu64 " read errors",
		info.read_errors);
	TEST_ASSERT_EQUAL(lines, 1, "%u log lines: %s", lines, log);
	TEST_ASSERT(after != 0, "no value once read() works again");
	return TEST_SUCCESS;
}

static int
fault_setup(void)
{
	int ret = lifecycle_setup();

	if (ret != TEST_SUCCESS)
		return ret;
	log_f = tmpfile();
	if (log_f == NULL)
		return TEST_FAILED;
	saved_log = rte_log_get_stream();
	rte_openlog_stream(log_f);
	return TEST_SUCCESS;
}

static void
fault_teardown(void)
{
	rte_openlog_stream(saved_log);
	if (log_f != NULL)
		fclose(log_f);
	log_f = NULL;
}

static struct unit_test_suite pmu_fault_suite = {
	.suite_name = "pmu fault injection",
	.setup = fault_setup,
	.teardown = fault_teardown,
	.unit_test_cases = {
		TEST_CASE(test_fault_sweep),
		TEST_CASE(test_value_too_wide),
		TEST_CASE(test_read_errors_counted),
		TEST_CASE(test_retry_read_at_open),
		TEST_CASE(test_retry_sysfs_read),
		TEST_CASE(test_stage_dump_no_alloc),
		TEST_CASE(test_lock_free_log),
		TEST_CASE(test_lock_free_io),
		TEST_CASES_END()
	}
};

static int
test_pmu_fault(void)
{
	return unit_test_suite_runner(&pmu_fault_suite);
}

REGISTER_FAST_TEST(pmu_fault_autotest, true, true, test_pmu_fault);
