/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* harness_autotest: the harness checks itself. Nested suites with known
 * outcomes run through unit_test_suite_runner() from inside test cases; the
 * cases assert the returned verdict, the suite counters, which callbacks ran
 * and how the process tally moved, then put the tally back so the deliberate
 * failures of the nested suites do not count in the RESULT line.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "test.h"

/* How many times each nested callback ran. */
static unsigned int suite_setup_calls;
static unsigned int suite_teardown_calls;
static unsigned int case_teardown_calls;
static unsigned int must_not_run_calls;

static const uint32_t nested_magic = 0x706d7521;

static void
reset_calls(void)
{
	suite_setup_calls = 0;
	suite_teardown_calls = 0;
	case_teardown_calls = 0;
	must_not_run_calls = 0;
}

/* Nested callbacks, with fixed outcomes. */

static int
nested_suite_setup(void)
{
	suite_setup_calls++;
	return TEST_SUCCESS;
}

static int
nested_suite_setup_skip(void)
{
	suite_setup_calls++;
	return TEST_SKIPPED;
}

static int
nested_suite_setup_fail(void)
{
	suite_setup_calls++;
	return TEST_FAILED;
}

static void
nested_suite_teardown(void)
{
	suite_teardown_calls++;
}

static int
nested_case_setup_skip(void)
{
	return TEST_SKIPPED;
}

static void
nested_case_teardown(void)
{
	case_teardown_calls++;
}

static int
nested_pass(void)
{
	return TEST_SUCCESS;
}

static int
nested_skip(void)
{
	TEST_SKIP("nested case skips on purpose");
}

static int
nested_fail(void)
{
	TEST_ASSERT(0, "nested case fails on purpose");
	return TEST_SUCCESS;
}

static int
nested_unsupported(void)
{
	return -ENOTSUP;
}

static int
nested_must_not_run(void)
{
	must_not_run_calls++;
	return TEST_FAILED;
}

static int
nested_with_data(const void *data)
{
	TEST_ASSERT(data == &nested_magic, "case data not passed through");
	return TEST_SUCCESS;
}

/* Nested suites. */

static struct unit_test_suite nested_mixed_suite = {
	.suite_name = "harness nested: mixed outcomes",
	.setup = nested_suite_setup,
	.teardown = nested_suite_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(NULL, nested_case_teardown, nested_pass),
		TEST_CASE(nested_skip),
		TEST_CASE(nested_fail),
		TEST_CASE_ST(nested_case_setup_skip, nested_case_teardown,
			nested_must_not_run),
		TEST_CASE_WITH_DATA(NULL, NULL, nested_with_data, &nested_magic),
		TEST_CASE_DISABLED(nested_must_not_run),
		TEST_CASE(nested_unsupported),
		TEST_CASES_END()
	}
};

static struct unit_test_suite nested_setup_skip_suite = {
	.suite_name = "harness nested: suite setup skips",
	.setup = nested_suite_setup_skip,
	.teardown = nested_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(nested_must_not_run),
		TEST_CASE_ST(NULL, nested_case_teardown, nested_must_not_run),
		TEST_CASES_END()
	}
};

static struct unit_test_suite nested_setup_fail_suite = {
	.suite_name = "harness nested: suite setup fails",
	.setup = nested_suite_setup_fail,
	.teardown = nested_suite_teardown,
	.unit_test_cases = {
		TEST_CASE_ST(NULL, nested_case_teardown, nested_must_not_run),
		TEST_CASE_DISABLED(nested_must_not_run),
		TEST_CASES_END()
	}
};

static struct unit_test_suite nested_setup_fail_empty_suite = {
	.suite_name = "harness nested: suite setup fails, no cases",
	.setup = nested_suite_setup_fail,
	.teardown = nested_suite_teardown,
	.unit_test_cases = {
		TEST_CASES_END()
	}
};

static struct unit_test_suite nested_all_skip_suite = {
	.suite_name = "harness nested: every case skips",
	.unit_test_cases = {
		TEST_CASE(nested_skip),
		TEST_CASE(nested_unsupported),
		TEST_CASE_DISABLED(nested_pass),
		TEST_CASES_END()
	}
};

static struct unit_test_suite nested_pass_skip_suite = {
	.suite_name = "harness nested: pass and skip",
	.unit_test_cases = {
		TEST_CASE(nested_pass),
		TEST_CASE(nested_skip),
		TEST_CASES_END()
	}
};

/* Run @suite with the process tally saved; report how the tally moved in
 * @delta and put it back.
 */
static int
run_nested(struct unit_test_suite *suite, struct test_tally *delta)
{
	struct test_tally saved = test_tally;
	int ret;

	printf("harness: nested suite \"%s\" follows; its failures are deliberate\n",
		suite->suite_name);
	reset_calls();
	ret = unit_test_suite_runner(suite);

	delta->passed = test_tally.passed - saved.passed;
	delta->failed = test_tally.failed - saved.failed;
	delta->skipped = test_tally.skipped - saved.skipped;
	test_tally = saved;
	printf("harness: end of nested suite \"%s\" (returned %d)\n",
		suite->suite_name, ret);
	return ret;
}

#define CHECK_COUNTERS(s, tot, exe, pass, skip, fail, unsup) do { \
	TEST_ASSERT_EQUAL((s)->total, (unsigned int)(tot), "%s: total %u", \
		(s)->suite_name, (s)->total); \
	TEST_ASSERT_EQUAL((s)->executed, (unsigned int)(exe), "%s: executed %u", \
		(s)->suite_name, (s)->executed); \
	TEST_ASSERT_EQUAL((s)->succeeded, (unsigned int)(pass), "%s: succeeded %u", \
		(s)->suite_name, (s)->succeeded); \
	TEST_ASSERT_EQUAL((s)->skipped, (unsigned int)(skip), "%s: skipped %u", \
		(s)->suite_name, (s)->skipped); \
	TEST_ASSERT_EQUAL((s)->failed, (unsigned int)(fail), "%s: failed %u", \
		(s)->suite_name, (s)->failed); \
	TEST_ASSERT_EQUAL((s)->unsupported, (unsigned int)(unsup), \
		"%s: unsupported %u", (s)->suite_name, (s)->unsupported); \
} while (0)

#define CHECK_DELTA(d, pass, fail, skip) do { \
	TEST_ASSERT_EQUAL((d).passed, (unsigned int)(pass), \
		"tally passed moved by %u", (d).passed); \
	TEST_ASSERT_EQUAL((d).failed, (unsigned int)(fail), \
		"tally failed moved by %u", (d).failed); \
	TEST_ASSERT_EQUAL((d).skipped, (unsigned int)(skip), \
		"tally skipped moved by %u", (d).skipped); \
} while (0)

/* Outer cases. */

static int
test_mixed_suite(void)
{
	struct test_tally before = test_tally;
	struct test_tally delta;
	int ret;

	ret = run_nested(&nested_mixed_suite, &delta);

	TEST_ASSERT_EQUAL(ret, TEST_FAILED, "mixed suite returned %d", ret);
	CHECK_COUNTERS(&nested_mixed_suite, 7, 4, 2, 3, 1, 1);
	CHECK_DELTA(delta, 2, 1, 4);
	TEST_ASSERT_EQUAL(suite_setup_calls, 1U, "suite setup ran %u times",
		suite_setup_calls);
	TEST_ASSERT_EQUAL(suite_teardown_calls, 1U, "suite teardown ran %u times",
		suite_teardown_calls);
	/* Case teardown runs after a pass and after a skipping case setup. */
	TEST_ASSERT_EQUAL(case_teardown_calls, 2U, "case teardown ran %u times",
		case_teardown_calls);
	TEST_ASSERT_EQUAL(must_not_run_calls, 0U,
		"skipped or disabled case ran %u times", must_not_run_calls);
	TEST_ASSERT(before.passed == test_tally.passed &&
		before.failed == test_tally.failed &&
		before.skipped == test_tally.skipped, "tally not restored");
	return TEST_SUCCESS;
}

static int
test_rerun_resets_counters(void)
{
	struct test_tally delta;
	int ret;

	ret = run_nested(&nested_mixed_suite, &delta);
	TEST_ASSERT_EQUAL(ret, TEST_FAILED, "first run returned %d", ret);
	ret = run_nested(&nested_mixed_suite, &delta);
	TEST_ASSERT_EQUAL(ret, TEST_FAILED, "second run returned %d", ret);
	CHECK_COUNTERS(&nested_mixed_suite, 7, 4, 2, 3, 1, 1);
	CHECK_DELTA(delta, 2, 1, 4);
	return TEST_SUCCESS;
}

static int
test_suite_setup_skip(void)
{
	struct test_tally delta;
	int ret;

	ret = run_nested(&nested_setup_skip_suite, &delta);

	TEST_ASSERT_EQUAL(ret, TEST_SKIPPED, "returned %d", ret);
	CHECK_COUNTERS(&nested_setup_skip_suite, 2, 0, 0, 2, 0, 0);
	CHECK_DELTA(delta, 0, 0, 2);
	TEST_ASSERT_EQUAL(must_not_run_calls, 0U, "case ran %u times",
		must_not_run_calls);
	TEST_ASSERT_EQUAL(case_teardown_calls, 0U, "case teardown ran %u times",
		case_teardown_calls);
	TEST_ASSERT_EQUAL(suite_teardown_calls, 0U, "suite teardown ran %u times",
		suite_teardown_calls);
	return TEST_SUCCESS;
}

static int
test_suite_setup_fail(void)
{
	struct test_tally delta;
	int ret;

	ret = run_nested(&nested_setup_fail_suite, &delta);

	TEST_ASSERT_EQUAL(ret, TEST_FAILED, "returned %d", ret);
	/* The enabled case fails, the disabled one stays skipped. */
	CHECK_COUNTERS(&nested_setup_fail_suite, 2, 1, 0, 1, 1, 0);
	CHECK_DELTA(delta, 0, 1, 1);
	TEST_ASSERT_EQUAL(must_not_run_calls, 0U, "case ran %u times",
		must_not_run_calls);
	TEST_ASSERT_EQUAL(suite_teardown_calls, 0U, "suite teardown ran %u times",
		suite_teardown_calls);

	ret = run_nested(&nested_setup_fail_empty_suite, &delta);
	TEST_ASSERT_EQUAL(ret, TEST_FAILED, "empty suite returned %d", ret);
	CHECK_COUNTERS(&nested_setup_fail_empty_suite, 0, 0, 0, 0, 0, 0);
	CHECK_DELTA(delta, 0, 0, 0);
	return TEST_SUCCESS;
}

static int
test_verdicts(void)
{
	struct test_tally delta;
	int ret;

	ret = run_nested(&nested_all_skip_suite, &delta);
	TEST_ASSERT_EQUAL(ret, TEST_SKIPPED, "all-skip suite returned %d", ret);
	CHECK_COUNTERS(&nested_all_skip_suite, 3, 1, 0, 2, 0, 1);
	CHECK_DELTA(delta, 0, 0, 3);

	ret = run_nested(&nested_pass_skip_suite, &delta);
	TEST_ASSERT_EQUAL(ret, TEST_SUCCESS, "pass-and-skip suite returned %d", ret);
	CHECK_COUNTERS(&nested_pass_skip_suite, 2, 1, 1, 1, 0, 0);
	CHECK_DELTA(delta, 1, 0, 1);
	return TEST_SUCCESS;
}

/* Each helper returns through one assertion macro. */

static int
assert_equal_mismatch(void)
{
	TEST_ASSERT_EQUAL(1, 2, "deliberate mismatch");
	return TEST_SUCCESS;
}

static int
assert_equal_match(void)
{
	TEST_ASSERT_EQUAL(3, 3, "values differ");
	TEST_ASSERT_NOT_EQUAL(3, 4, "values equal");
	return TEST_SUCCESS;
}

static int
assert_success_on_error(void)
{
	TEST_ASSERT_SUCCESS(-EINVAL, "deliberate error code");
	return TEST_SUCCESS;
}

static int
assert_fail_on_error(void)
{
	TEST_ASSERT_FAIL(-EINVAL, "error code not seen");
	TEST_ASSERT_SUCCESS(0, "zero not seen as success");
	return TEST_SUCCESS;
}

static int
assert_null_on_pointer(void)
{
	TEST_ASSERT_NULL(&nested_magic, "deliberate non-NULL pointer");
	return TEST_SUCCESS;
}

static int
assert_not_null_on_null(void)
{
	const void *p = NULL;

	TEST_ASSERT_NOT_NULL(p, "deliberate NULL pointer");
	return TEST_SUCCESS;
}

static int
skip_macro(void)
{
	TEST_SKIP("deliberate skip");
}

static int
test_assert_macros(void)
{
	printf("harness: deliberate assertion failures follow\n");
	TEST_ASSERT_EQUAL(assert_equal_mismatch(), TEST_FAILED, "EQUAL mismatch");
	TEST_ASSERT_EQUAL(assert_equal_match(), TEST_SUCCESS, "EQUAL match");
	TEST_ASSERT_EQUAL(assert_success_on_error(), TEST_FAILED, "SUCCESS on error");
	TEST_ASSERT_EQUAL(assert_fail_on_error(), TEST_SUCCESS, "FAIL on error");
	TEST_ASSERT_EQUAL(assert_null_on_pointer(), TEST_FAILED, "NULL on pointer");
	TEST_ASSERT_EQUAL(assert_not_null_on_null(), TEST_FAILED, "NOT_NULL on NULL");
	TEST_ASSERT_EQUAL(skip_macro(), TEST_SKIPPED, "TEST_SKIP");
	printf("harness: end of deliberate assertion failures\n");
	return TEST_SUCCESS;
}

static struct unit_test_suite harness_suite = {
	.suite_name = "harness self-test",
	.unit_test_cases = {
		TEST_CASE(test_mixed_suite),
		TEST_CASE(test_rerun_resets_counters),
		TEST_CASE(test_suite_setup_skip),
		TEST_CASE(test_suite_setup_fail),
		TEST_CASE(test_verdicts),
		TEST_CASE(test_assert_macros),
		TEST_CASES_END()
	}
};

static int
test_harness(void)
{
	return unit_test_suite_runner(&harness_suite);
}

REGISTER_FAST_TEST(harness_autotest, true, true, test_harness);
