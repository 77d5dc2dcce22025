/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_add_autotest: rte_pmu_add_event(). Bad names are refused with their
 * code, which the log names, with a suggestion for a name close to a known
 * one; eight events fit and a ninth does not, a name already added answers
 * with its index, and the list is closed once a group is open.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include <rte_pmu.h>

#include "pmu_private.h"
#include "test.h"
#include "test_pmu_api.h"

static int
test_bad_names(void)
{
	char name[130];

	TEST_ASSERT_EQUAL(rte_pmu_add_event(NULL), -EINVAL, "NULL name");
	TEST_ASSERT_EQUAL(rte_pmu_add_event(""), -EINVAL, "empty name");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("no-such-event"), -ENOENT, "unknown name");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("nosuchpmu/event=1/"), -ENOENT, "unknown PMU");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("../../etc/passwd"), -EINVAL, "path in a name");
	/* 127 characters at most (telemetry's strings), 128 refused. */
	memset(name, '0', sizeof(name));
	memcpy(name, "software/config=0x", strlen("software/config=0x"));
	memcpy(&name[126], "/", 2);
	TEST_ASSERT_EQUAL(rte_pmu_add_event(name), 0, "a name of 127 characters");
	memcpy(&name[126], "0/", 3);
	TEST_ASSERT_EQUAL(rte_pmu_add_event(name), -EINVAL, "a name of 128 characters");
	rte_pmu_fini();
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init again");
	/* A known name that counts nothing: not countable, as rte_pmu.h says. */
	TEST_ASSERT_EQUAL(rte_pmu_add_event("bpf-output"), -EOPNOTSUPP, "bpf-output");
	/* Nothing was added by the failures. */
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "first valid event index");

	return TEST_SUCCESS;
}

/* rte_pmu_add_event(@p name) in @p ret, its log in @p buf (freed by the caller). */
static int
add_logged(const char *name, int *ret, char **buf)
{
	size_t len = 0;
	FILE *log;

	*buf = NULL;
	log = open_memstream(buf, &len);
	TEST_ASSERT_NOT_NULL(log, "open_memstream");
	rte_openlog_stream(log);
	*ret = rte_pmu_add_event(name);
	rte_openlog_stream(NULL);
	fclose(log);
	printf("add '%s': %d, log:\n%s", name != NULL ? name : "(null)", *ret,
		*buf != NULL && (*buf)[0] != '\0' ? *buf : "(nothing)\n");
	return TEST_SUCCESS;
}

/* Every refused add logs the code it returns, by name; an unknown name
 * close to a known one gets the known one suggested.
 */
static int
test_failure_logs(void)
{
	static const char *const bad[] = {
		NULL, "", "no-such-event", "nosuchpmu/event=1/", "bpf-output",
		"msr/event=0x99999999999/", "msr/no_such_term=1/", "software/config=1,x=1/",
	};
	static const struct {
		const char *name;
		const char *known;
	} close_to[] = {
		{ "Cycles", "cycles" },
		{ "task_clock", "task-clock" },
		{ "task-clock ", "task-clock" },
		{ "Page_Faults", "page-faults" },
		{ "l1-dcache-loadz", "L1-dcache-loads" },
	};
	char want[64], hint[64];
	const char *code;
	unsigned int i;
	char *buf;
	int ret;

	for (i = 0; i < RTE_DIM(bad); i++) {
		TEST_ASSERT_SUCCESS(add_logged(bad[i], &ret, &buf), "log");
		/* "-ENAME (text)": the text of the code returned. */
		snprintf(want, sizeof(want), " (%s)", ret < 0 ? strerror(-ret) : "?");
		code = buf != NULL ? strstr(buf, want) : NULL;
		ret = ret < 0 && code != NULL && strstr(buf, ": -E") != NULL &&
			strstr(buf, ": -E") < code;
		free(buf);
		TEST_ASSERT(ret, "add '%s': refused without its code %s in the log",
			bad[i] != NULL ? bad[i] : "(null)", want);
	}
	for (i = 0; i < RTE_DIM(close_to); i++) {
		TEST_ASSERT(pmu_event_suggest(close_to[i].name, hint, sizeof(hint)) &&
			strcmp(hint, close_to[i].known) == 0, "'%s': no suggestion '%s'",
			close_to[i].name, close_to[i].known);
		TEST_ASSERT_SUCCESS(add_logged(close_to[i].name, &ret, &buf), "log");
		snprintf(want, sizeof(want), "did you mean '%s'?", close_to[i].known);
		/* libpfm4 may know a spelling: only a refusal suggests. */
		ret = ret >= 0 || (buf != NULL && strstr(buf, want) != NULL);
		free(buf);
		TEST_ASSERT(ret, "add '%s': no \"%s\" in the log", close_to[i].name, want);
	}
	/* A known name, or one far from every known name, gets none. */
	TEST_ASSERT(!pmu_event_suggest("cycles", hint, sizeof(hint)), "cycles: %s", hint);
	TEST_ASSERT(!pmu_event_suggest("frobnicate", hint, sizeof(hint)), "frobnicate: %s",
		hint);
	TEST_ASSERT(!pmu_event_suggest("cpu/cycles/", hint, sizeof(hint)), "cpu/cycles/: %s",
		hint);

	return TEST_SUCCESS;
}

static const char * const eight[RTE_MAX_NUM_GROUP_EVENTS] = {
	"task-clock", "cpu-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "software/config=1/",
};

static int
test_eight_events(void)
{
	struct rte_pmu_lcore_info info;
	volatile unsigned int bad_index;
	uint64_t before, after;
	unsigned int i;
	int idx;

	for (i = 0; i < RTE_DIM(eight); i++) {
		idx = rte_pmu_add_event(eight[i]);
		TEST_ASSERT_EQUAL(idx, (int)i, "event %s: index %d", eight[i], idx);
	}
	TEST_ASSERT_EQUAL(rte_pmu_add_event("faults"), -ENOSPC, "ninth event");
	/* A name already present still answers with its index. */
	TEST_ASSERT_EQUAL(rte_pmu_add_event("page-faults"), 2, "same name, same index");

	before = rte_pmu_read(0);
	TEST_ASSERT_EQUAL(rte_pmu_lcore_status(rte_lcore_id()), 1, "group not open");
	pmu_api_busy_ms(5);
	after = rte_pmu_read(0);
	TEST_ASSERT(after >= before + 2000000, "task-clock grew %" PRIu64 " ns in 5 ms",
		after - before);
	/* All eight are open and readable, the last one included. */
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(rte_lcore_id(), &info), "info");
	TEST_ASSERT_EQUAL(info.num_events, (unsigned int)RTE_DIM(eight), "events in info");
	for (i = 0; i < RTE_DIM(eight); i++)
		TEST_ASSERT(info.events[i].time_enabled > 0, "event %u (%s) is not open", i,
			info.events[i].name);
	TEST_ASSERT(rte_pmu_read(7) > 0, "the eighth event (task-clock) reads 0");
	TEST_ASSERT_EQUAL(pmu_state_lcore(rte_lcore_id())->num_ready,
		(uint32_t)RTE_MAX_NUM_GROUP_EVENTS, "ready events");
	/* Through a variable: a constant index past the array is a compile
	 * time warning, which is right for real code.
	 */
	bad_index = RTE_MAX_NUM_GROUP_EVENTS;
	TEST_ASSERT_EQUAL(rte_pmu_read(bad_index), UINT64_C(0), "index 8");
	bad_index = UINT32_MAX;
	TEST_ASSERT_EQUAL(rte_pmu_read(bad_index), UINT64_C(0), "index UINT32_MAX");

	return TEST_SUCCESS;
}

static int
test_add_after_open(void)
{
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "add");
	rte_pmu_read(0);
	TEST_ASSERT_EQUAL(rte_pmu_add_event("page-faults"), -EBUSY, "add after open");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 0, "existing name after open");
	/* A malformed name is one after open too (it was -EBUSY: an outside
	 * tester's find).
	 */
	TEST_ASSERT_EQUAL(rte_pmu_add_event(""), -EINVAL, "empty name after open");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock:q"), -EINVAL, "bad modifier after open");

	return TEST_SUCCESS;
}

struct unit_test_suite pmu_add_suite = {
	.suite_name = "pmu add event",
	.unit_test_cases = {
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_bad_names),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_failure_logs),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_eight_events),
		TEST_CASE_ST(pmu_api_setup, pmu_api_teardown, test_add_after_open),
		TEST_CASES_END()
	}
};

static int
test_pmu_add_suite(void)
{
	return unit_test_suite_runner(&pmu_add_suite);
}

REGISTER_FAST_TEST(pmu_add_autotest, true, true, test_pmu_add_suite);
