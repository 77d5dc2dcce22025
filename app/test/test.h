/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_H
#define TEST_H

/* The dpdk-test harness, in the shape of DPDK's app/test/test.h (which
 * Debian's libdpdk-dev does not ship): suites of cases with setup and
 * teardown, TEST_SKIPPED (77) for a case that cannot run here, and test
 * commands registered from constructors and run by name.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_common.h>

#define TEST_SUCCESS 0
#define TEST_FAILED (-1)
#define TEST_SKIPPED 77

/* Log a reason and skip the current case. */
#define TEST_SKIP(fmt, ...) do { \
	printf("skip: " fmt "\n", ##__VA_ARGS__); \
	return TEST_SKIPPED; \
} while (0)

#define TEST_ASSERT(cond, fmt, ...) do { \
	if (!(cond)) { \
		printf("TestCase %s() line %d failed: " fmt "\n", \
			__func__, __LINE__, ##__VA_ARGS__); \
		return TEST_FAILED; \
	} \
} while (0)

#define TEST_ASSERT_EQUAL(a, b, fmt, ...) \
	TEST_ASSERT((a) == (b), fmt " (%s != %s)", ##__VA_ARGS__, #a, #b)

#define TEST_ASSERT_NOT_EQUAL(a, b, fmt, ...) \
	TEST_ASSERT((a) != (b), fmt " (%s == %s)", ##__VA_ARGS__, #a, #b)

#define TEST_ASSERT_SUCCESS(val, fmt, ...) do { \
	int64_t _v = (int64_t)(val); \
	TEST_ASSERT(_v == 0, fmt " (%s = %" PRId64 ")", ##__VA_ARGS__, #val, _v); \
} while (0)

#define TEST_ASSERT_FAIL(val, fmt, ...) \
	TEST_ASSERT((val) != 0, fmt " (%s succeeded)", ##__VA_ARGS__, #val)

#define TEST_ASSERT_NULL(val, fmt, ...) \
	TEST_ASSERT((val) == NULL, fmt " (%s not NULL)", ##__VA_ARGS__, #val)

#define TEST_ASSERT_NOT_NULL(val, fmt, ...) \
	TEST_ASSERT((val) != NULL, fmt " (%s is NULL)", ##__VA_ARGS__, #val)

struct unit_test_case {
	int (*setup)(void);
	void (*teardown)(void);
	int (*testcase)(void);
	int (*testcase_with_data)(const void *data);
	const char *name;
	unsigned int enabled;
	const void *data;
};

#define TEST_CASE(fn) { NULL, NULL, fn, NULL, #fn, 1, NULL }
#define TEST_CASE_ST(setup, teardown, fn) { setup, teardown, fn, NULL, #fn, 1, NULL }
#define TEST_CASE_NAMED_ST(name, setup, teardown, fn) \
	{ setup, teardown, fn, NULL, name, 1, NULL }
#define TEST_CASE_WITH_DATA(setup, teardown, fn, data) \
	{ setup, teardown, NULL, fn, #fn, 1, data }
#define TEST_CASE_DISABLED(fn) { NULL, NULL, fn, NULL, #fn, 0, NULL }
#define TEST_CASES_END() { NULL, NULL, NULL, NULL, NULL, 0, NULL }

struct unit_test_suite {
	const char *suite_name;
	int (*setup)(void);
	void (*teardown)(void);
	unsigned int total;
	unsigned int executed;
	unsigned int succeeded;
	unsigned int skipped;
	unsigned int failed;
	unsigned int unsupported;
	struct unit_test_case unit_test_cases[];
};

/*
 * Run every enabled case of @suite, printing one line per case and a
 * summary. Returns TEST_SUCCESS, TEST_SKIPPED (every case skipped) or
 * TEST_FAILED.
 */
int unit_test_suite_runner(struct unit_test_suite *suite);

/* Tallies of every case run in this process, for the closing RESULT line. */
struct test_tally {
	unsigned int passed;
	unsigned int failed;
	unsigned int skipped;
};
extern struct test_tally test_tally;

typedef int (test_callback)(void);

struct test_command {
	TAILQ_ENTRY(test_command) next;
	const char *command;
	test_callback *callback;
};

void add_test_command(struct test_command *t);

/* Register a test command run as "dpdk-test NAME" or DPDK_TEST=NAME. */
#define REGISTER_TEST_COMMAND(cmd, func) \
	static struct test_command test_struct_##cmd = { \
		.command = RTE_STR(cmd), \
		.callback = func, \
	}; \
	RTE_INIT(test_register_##cmd) \
	{ \
		add_test_command(&test_struct_##cmd); \
	}

/* A fast test (meson suite fast-tests); flags kept for DPDK source
 * compatibility (no_huge, ASan), all our tests run without hugepages.
 */
#define REGISTER_FAST_TEST(cmd, no_huge, ASan, func) REGISTER_TEST_COMMAND(cmd, func)
/* A benchmark (meson suite perf-tests). */
#define REGISTER_PERF_TEST(cmd, func) REGISTER_TEST_COMMAND(cmd, func)

#endif /* TEST_H */
