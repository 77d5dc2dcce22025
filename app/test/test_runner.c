/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The suite runner. For each suite:
 *  - suite setup; TEST_SKIPPED skips every case, any other non-zero fails
 *    every enabled case; in both cases no case and no suite teardown runs;
 *  - per enabled case: case setup (TEST_SKIPPED skips, -ENOTSUP makes the
 *    case unsupported, anything else non-zero fails it), the case itself if
 *    setup succeeded, then the case teardown, always;
 *  - disabled cases count as skipped;
 *  - suite teardown, then a summary.
 * Counters: total = skipped + executed, executed = succeeded + failed +
 * unsupported. Unsupported cases count as skipped in test_tally.
 */

#include <errno.h>
#include <stdio.h>

#include "test.h"

struct test_tally test_tally;

static const char *const line =
	" + ------------------------------------------------------- +\n";

enum case_result {
	CASE_SUCCEEDED,
	CASE_SKIPPED,
	CASE_UNSUPPORTED,
	CASE_FAILED,
};

static const char *const case_result_names[] = {
	[CASE_SUCCEEDED] = "succeeded",
	[CASE_SKIPPED] = "skipped",
	[CASE_UNSUPPORTED] = "unsupported",
	[CASE_FAILED] = "failed",
};

static enum case_result
case_result_of(int ret)
{
	if (ret == TEST_SUCCESS)
		return CASE_SUCCEEDED;
	if (ret == TEST_SKIPPED)
		return CASE_SKIPPED;
	if (ret == -ENOTSUP)
		return CASE_UNSUPPORTED;
	return CASE_FAILED;
}

static void
record_case(struct unit_test_suite *suite, unsigned int idx, const char *name,
	enum case_result result, const char *note)
{
	suite->total++;
	switch (result) {
	case CASE_SUCCEEDED:
		suite->executed++;
		suite->succeeded++;
		test_tally.passed++;
		break;
	case CASE_SKIPPED:
		suite->skipped++;
		test_tally.skipped++;
		break;
	case CASE_UNSUPPORTED:
		suite->executed++;
		suite->unsupported++;
		test_tally.skipped++;
		break;
	case CASE_FAILED:
		suite->executed++;
		suite->failed++;
		test_tally.failed++;
		break;
	}

	printf(" + TestCase [%2u] : %s %s%s\n", idx, name != NULL ? name : "(unnamed)",
		case_result_names[result], note);
	fflush(stdout);
}

/* Only called for a case with a test function (see the loop below). */
static enum case_result
run_case(const struct unit_test_case *tc)
{
	int ret = TEST_SUCCESS;

	if (tc->setup != NULL) {
		ret = tc->setup();
		if (ret != TEST_SUCCESS && ret != TEST_SKIPPED && ret != -ENOTSUP)
			printf("Test case %s setup failed (%d)\n",
				tc->name != NULL ? tc->name : "(unnamed)", ret);
	}

	if (ret == TEST_SUCCESS) {
		if (tc->testcase != NULL)
			ret = tc->testcase();
		else
			ret = tc->testcase_with_data(tc->data);
	}

	if (tc->teardown != NULL)
		tc->teardown();

	return case_result_of(ret);
}

static const char *
suite_name(const struct unit_test_suite *suite)
{
	return suite->suite_name != NULL ? suite->suite_name : "(unnamed)";
}

static void
print_summary(const struct unit_test_suite *suite)
{
	printf("%s", line);
	printf(" + Test Suite Summary : %s\n", suite_name(suite));
	printf("%s", line);
	printf(" + Tests Total :       %2u\n", suite->total);
	printf(" + Tests Skipped :     %2u\n", suite->skipped);
	printf(" + Tests Executed :    %2u\n", suite->executed);
	printf(" + Tests Unsupported:  %2u\n", suite->unsupported);
	printf(" + Tests Passed :      %2u\n", suite->succeeded);
	printf(" + Tests Failed :      %2u\n", suite->failed);
	printf("%s", line);
	fflush(stdout);
}

int
unit_test_suite_runner(struct unit_test_suite *suite)
{
	const struct unit_test_case *tc;
	enum case_result setup_result = CASE_SUCCEEDED;
	const char *note;
	unsigned int idx;
	int ret;

	suite->total = 0;
	suite->executed = 0;
	suite->succeeded = 0;
	suite->skipped = 0;
	suite->failed = 0;
	suite->unsupported = 0;

	printf("%s", line);
	printf(" + Test Suite : %s\n", suite_name(suite));
	printf("%s", line);
	fflush(stdout);

	if (suite->setup != NULL) {
		ret = suite->setup();
		if (ret != TEST_SUCCESS) {
			/* -ENOTSUP from a suite setup means "not here": skip. */
			setup_result = case_result_of(ret);
			if (setup_result == CASE_UNSUPPORTED)
				setup_result = CASE_SKIPPED;
			printf(" + Test Suite setup %s (%d)\n",
				setup_result == CASE_SKIPPED ? "skipped" : "failed", ret);
			fflush(stdout);
		}
	}

	for (idx = 0, tc = suite->unit_test_cases;
			tc->testcase != NULL || tc->testcase_with_data != NULL;
			idx++, tc++) {
		if (tc->enabled == 0)
			record_case(suite, idx, tc->name, CASE_SKIPPED, " (disabled)");
		else if (setup_result != CASE_SUCCEEDED) {
			note = setup_result == CASE_SKIPPED ?
				" (suite setup skipped)" : " (suite setup failed)";
			record_case(suite, idx, tc->name, setup_result, note);
		} else
			record_case(suite, idx, tc->name, run_case(tc), "");
	}

	if (setup_result == CASE_SUCCEEDED && suite->teardown != NULL)
		suite->teardown();

	print_summary(suite);

	if (suite->failed != 0)
		return TEST_FAILED;
	/* A suite that cannot be set up fails even with no cases to fail. */
	if (setup_result == CASE_FAILED)
		return TEST_FAILED;
	if (suite->succeeded == 0)
		return TEST_SKIPPED;
	return TEST_SUCCESS;
}
