/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* dpdk-test: initialise EAL, then run the test commands named after the EAL
 * arguments (or the one named by DPDK_TEST), and end with one line
 *	RESULT passed=<n> failed=<n> skipped=<n>
 * counting test cases. Exit status: 0 when nothing failed and something
 * passed, 77 when every command skipped, 1 otherwise.
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "test.h"

#define EXIT_SKIPPED 77

TAILQ_HEAD(test_commands_list, test_command);
static struct test_commands_list commands_list =
	TAILQ_HEAD_INITIALIZER(commands_list);

/* Called from constructors, before main(): keep the list sorted by name so
 * that "list" prints the same order whatever the link order was.
 */
void
add_test_command(struct test_command *t)
{
	struct test_command *cur;
	int cmp;

	TAILQ_FOREACH(cur, &commands_list, next) {
		cmp = strcmp(t->command, cur->command);
		if (cmp == 0) {
			fprintf(stderr, "dpdk-test: test command %s registered twice\n",
				t->command);
			abort();
		}
		if (cmp < 0) {
			TAILQ_INSERT_BEFORE(cur, t, next);
			return;
		}
	}
	TAILQ_INSERT_TAIL(&commands_list, t, next);
}

static struct test_command *
find_test_command(const char *name)
{
	struct test_command *t;

	TAILQ_FOREACH(t, &commands_list, next) {
		if (strcmp(t->command, name) == 0)
			return t;
	}
	return NULL;
}

static void
list_test_commands(void)
{
	struct test_command *t;

	printf("Registered test commands:\n");
	TAILQ_FOREACH(t, &commands_list, next)
		printf("\t%s\n", t->command);
}

static bool
tally_equal(const struct test_tally *a, const struct test_tally *b)
{
	return a->passed == b->passed && a->failed == b->failed &&
		a->skipped == b->skipped;
}

/* Run one command and fold its result into the tally. A command that ran
 * unit_test_suite_runner() has already counted its cases; one that returned
 * directly counts as a single case.
 */
static int
run_test_command(const struct test_command *t)
{
	struct test_tally before = test_tally;
	int ret;

	printf("Running test command %s\n", t->command);
	fflush(stdout);

	ret = t->callback();

	if (tally_equal(&before, &test_tally)) {
		if (ret == TEST_SUCCESS)
			test_tally.passed++;
		else if (ret == TEST_SKIPPED)
			test_tally.skipped++;
		else
			test_tally.failed++;
	}

	if (ret == TEST_SUCCESS)
		printf("Test OK\n");
	else if (ret == TEST_SKIPPED)
		printf("Test Skipped\n");
	else
		printf("Test Failed\n");
	fflush(stdout);

	return ret;
}

static int
finish(int status)
{
	int ret;

	ret = rte_eal_cleanup();
	if (ret != 0)
		fprintf(stderr, "dpdk-test: rte_eal_cleanup failed: %s\n",
			rte_strerror(-ret));
	fflush(stderr);

	printf("RESULT passed=%u failed=%u skipped=%u\n",
		test_tally.passed, test_tally.failed, test_tally.skipped);
	fflush(stdout);

	return status;
}

int
main(int argc, char **argv)
{
	char *env_names[1] = { NULL };
	unsigned int n_success = 0;
	unsigned int n_skipped = 0;
	unsigned int n_failed = 0;
	char **names;
	int n_names;
	int ret;
	int i;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "dpdk-test: cannot initialise EAL: %s\n",
			rte_strerror(rte_errno));
		printf("RESULT passed=0 failed=0 skipped=0\n");
		fflush(stdout);
		return EXIT_FAILURE;
	}

	/* rte_eal_init() leaves the program name in argv[ret], followed by the
	 * arguments it did not consume: those are test command names.
	 */
	names = argv + ret + 1;
	n_names = argc - ret - 1;
	if (n_names <= 0) {
		env_names[0] = getenv("DPDK_TEST");
		if (env_names[0] != NULL && env_names[0][0] != '\0') {
			names = env_names;
			n_names = 1;
		} else {
			n_names = 0;
		}
	}

	if (n_names == 0) {
		list_test_commands();
		return finish(EXIT_SUCCESS);
	}

	/* Check every name before running anything. */
	for (i = 0; i < n_names; i++) {
		if (strcmp(names[i], "list") == 0)
			continue;
		if (find_test_command(names[i]) == NULL) {
			fprintf(stderr, "dpdk-test: unknown test command '%s' "
				"(\"list\" prints the known ones)\n", names[i]);
			return finish(EXIT_FAILURE);
		}
	}

	for (i = 0; i < n_names; i++) {
		if (strcmp(names[i], "list") == 0) {
			list_test_commands();
			n_success++;
			continue;
		}
		ret = run_test_command(find_test_command(names[i]));
		if (ret == TEST_SUCCESS)
			n_success++;
		else if (ret == TEST_SKIPPED)
			n_skipped++;
		else
			n_failed++;
	}

	if (n_failed != 0)
		return finish(EXIT_FAILURE);
	if (n_success == 0 && n_skipped != 0)
		return finish(EXIT_SKIPPED);
	return finish(EXIT_SUCCESS);
}
