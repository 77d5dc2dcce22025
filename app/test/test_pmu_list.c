/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_list_autotest: rte_pmu_event_list() on this machine and on a fixture.
 *
 * On the real sysfs (x86 host, arm64 guest) every event the list marks as
 * opening here is added, its group opened and read on this lcore, and its
 * read path compared with the list's; one that fails is a failure. Every
 * event the list marks as not opening must be refused by
 * rte_pmu_add_event() too. The list holds no tracepoints; vendor names are
 * bounded by the library (1024).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "pmu_private.h"
#include "rte_pmu.h"
#include "test.h"
#include "test_pmu_fixture.h"

#define LIST_MAX 4096

struct list_result {
	unsigned int n;
	struct rte_pmu_event_entry e[LIST_MAX];
};

static struct list_result *result;

static int
collect(const struct rte_pmu_event_entry *e, void *arg)
{
	struct list_result *r = arg;

	if (r->n == LIST_MAX)
		return -ENOSPC;
	r->e[r->n++] = *e;
	return 0;
}

static const struct rte_pmu_event_entry *
find(const struct list_result *r, const char *name)
{
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		if (strcmp(r->e[i].name, name) == 0)
			return &r->e[i];
	}
	return NULL;
}

static int
list_setup(void)
{
	result = calloc(1, sizeof(*result));
	if (result == NULL)
		return TEST_FAILED;
	return pmu_fixture_setup();
}

static void
list_teardown(void)
{
	rte_pmu_fini();
	free(result);
	result = NULL;
	pmu_fixture_teardown();
}

/* Add @p e alone, open its group on this lcore, read it. */
static int
open_and_read(const struct rte_pmu_event_entry *e)
{
	struct rte_pmu_lcore_info info;
	unsigned int lcore = rte_lcore_id();
	int idx, st;

	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	idx = rte_pmu_add_event(e->name);
	TEST_ASSERT_EQUAL(idx, 0, "%s: listed as opening, rte_pmu_add_event: %d", e->name, idx);
	(void)rte_pmu_read(idx);
	st = rte_pmu_lcore_status(lcore);
	TEST_ASSERT_EQUAL(st, 1, "%s: listed as opening, group status %d", e->name, st);
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_info_get(lcore, &info), "%s: info", e->name);
	TEST_ASSERT_EQUAL(info.events[0].path, e->path, "%s: read path %d, listed %d",
		e->name, info.events[0].path, e->path);
	rte_pmu_fini();
	return TEST_SUCCESS;
}

static int
test_list_here(void)
{
	const struct rte_pmu_event_entry *tc;
	unsigned int i, opened = 0;
	int n, idx;

	__rte_pmu_sysfs_root_set(NULL);
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	result->n = 0;
	n = rte_pmu_event_list(collect, result);
	TEST_ASSERT(n > 0 && (unsigned int)n == result->n, "listed %d, got %u", n, result->n);
	rte_pmu_fini();

	/* Software events open wherever perf_event does. */
	tc = find(result, "task-clock");
	TEST_ASSERT(tc != NULL, "task-clock not listed");
	TEST_ASSERT_EQUAL(tc->status, 0, "task-clock: status %d", tc->status);
	TEST_ASSERT_EQUAL(tc->path, RTE_PMU_PATH_SYSCALL, "task-clock: path %d", tc->path);
	TEST_ASSERT(find(result, "L1-dcache-load-misses") != NULL, "cache events not listed");

	for (i = 0; i < result->n; i++) {
		const struct rte_pmu_event_entry *e = &result->e[i];

		if (e->status == 0) {
			if (open_and_read(e) != TEST_SUCCESS)
				return TEST_FAILED;
			opened++;
			continue;
		}
		TEST_ASSERT_EQUAL(e->path, RTE_PMU_PATH_NONE, "%s: path without open", e->name);
		/* A listed name is known: it is not countable, or not allowed. */
		TEST_ASSERT(e->status == -EOPNOTSUPP || e->status == -EACCES,
			"%s: status %d for a known name", e->name, e->status);
		TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
		idx = rte_pmu_add_event(e->name);
		TEST_ASSERT_EQUAL(idx, e->status, "%s: listed as not opening (%d), added as %d",
			e->name, e->status, idx);
		rte_pmu_fini();
	}
	printf("%u events listed, %u opened and read on lcore %u\n", result->n, opened,
		rte_lcore_id());
	return TEST_SUCCESS;
}

static int
test_list_fixture(void)
{
	static const char *const expected[] = {
		"cpu_atom/cpu-cycles/", "cpu_atom/instructions/", "cpu_core/cpu-cycles/",
		"cpu_core/instructions/", "cpu_core/slots/", "msr/tsc/", "power/energy-pkg/",
	};
	unsigned int i, pmu_form = 0;
	int n;

	TEST_ASSERT_SUCCESS(use_root("hybrid"), "root");
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	result->n = 0;
	n = rte_pmu_event_list(collect, result);
	rte_pmu_fini();
	TEST_ASSERT(n > 0, "list: %d", n);

	/* Exactly the events/ files of every PMU, in "pmu/event/" form. */
	for (i = 0; i < result->n; i++) {
		if (strchr(result->e[i].name, '/') != NULL)
			pmu_form++;
	}
	TEST_ASSERT_EQUAL(pmu_form, RTE_DIM(expected), "%u pmu/event/ entries", pmu_form);
	for (i = 0; i < RTE_DIM(expected); i++)
		TEST_ASSERT(find(result, expected[i]) != NULL, "%s not listed", expected[i]);
	TEST_ASSERT(find(result, "cpu_core/type/") == NULL, "a non-event file listed");
	TEST_ASSERT(find(result, "power/energy-pkg.scale/") == NULL, "a .scale file listed");
	TEST_ASSERT(strcmp(find(result, "cpu_core/slots/")->pmu, "cpu_core") == 0,
		"slots: pmu %s", find(result, "cpu_core/slots/")->pmu);
	return TEST_SUCCESS;
}

static int
test_list_vendor(void)
{
	unsigned int i, vendor = 0;
	const char *prefix = "skl::";
	int n;

	if (!pmu_pfm_available()) {
		printf("SKIP: built without libpfm4: no vendor names to list\n");
		return TEST_SKIPPED;
	}
	setenv("LIBPFM_FORCE_PMU", "skl", 1);
	pmu_pfm_reset();
	__rte_pmu_sysfs_root_set(NULL);
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	result->n = 0;
	n = rte_pmu_event_list(collect, result);
	rte_pmu_fini();
	unsetenv("LIBPFM_FORCE_PMU");
	pmu_pfm_reset();
	TEST_ASSERT(n > 0, "list: %d", n);

	for (i = 0; i < result->n; i++) {
		const struct rte_pmu_event_entry *e = &result->e[i];

		if (strncmp(e->name, prefix, strlen(prefix)) != 0)
			continue;
		vendor++;
		/* Each listed vendor name encodes: it opens or is not countable. */
		TEST_ASSERT(e->status == 0 || e->status == -EOPNOTSUPP || e->status == -EACCES,
			"%s: status %d", e->name, e->status);
	}
	if (vendor == 0) {
		printf("SKIP: this libpfm4 has no Skylake tables\n");
		return TEST_SKIPPED;
	}
	TEST_ASSERT(vendor <= 1024, "%u vendor names: unbounded", vendor);
	TEST_ASSERT(find(result, "skl::INST_RETIRED") != NULL, "skl::INST_RETIRED not listed");
	printf("%u vendor names listed\n", vendor);
	return TEST_SUCCESS;
}

static volatile int adder_stop;
static unsigned int adder_calls;

/* Add a bad name on another lcore, again and again, while the list runs. */
static int
add_bad_names(void *arg __rte_unused)
{
	while (!__atomic_load_n(&adder_stop, __ATOMIC_ACQUIRE)) {
		if (rte_pmu_add_event("no-such-event-from-worker") != -ENOENT)
			return -1;
		adder_calls++;
		/* Leave the library's lock free most of the time: a spinlock
		 * taken back at once starves the lister on an emulated machine
		 * that runs its CPUs in turn.
		 */
		usleep(200);
	}
	return 0;
}

static int
count_entry(const struct rte_pmu_event_entry *e __rte_unused, void *arg)
{
	(*(unsigned int *)arg)++;
	return 0;
}

/* Listing keeps its own failures out of the log, but only its own: the
 * log level stays as it was and every error another lcore meets meanwhile
 * is still logged.
 */
static int
test_list_quiet_own_thread(void)
{
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	int level = rte_log_get_level(pmu_logtype);
	unsigned int entries = 0, lines = 0;
	size_t loglen = 0;
	char *logbuf = NULL, *p;
	int n, worker_ret;
	FILE *log;

	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("needs a worker lcore (run with -l 0-1)");
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	log = open_memstream(&logbuf, &loglen);
	TEST_ASSERT_NOT_NULL(log, "open_memstream");
	rte_openlog_stream(log);
	adder_calls = 0;
	__atomic_store_n(&adder_stop, 0, __ATOMIC_RELEASE);
	rte_eal_remote_launch(add_bad_names, NULL, worker);
	n = rte_pmu_event_list(count_entry, &entries);
	__atomic_store_n(&adder_stop, 1, __ATOMIC_RELEASE);
	worker_ret = rte_eal_wait_lcore(worker);
	rte_openlog_stream(NULL);
	fclose(log);
	/* Each refused add ends with the line that names its code. */
	for (p = logbuf; p != NULL &&
			(p = strstr(p, "add event no-such-event-from-worker failed: -ENOENT")) != NULL;
			p = strchr(p, '\n'))
		lines++;
	free(logbuf);
	rte_pmu_fini();

	printf("list: %d entries while another lcore failed %u adds and logged %u lines\n",
		n, adder_calls, lines);
	TEST_ASSERT(n > 0, "list: %d", n);
	TEST_ASSERT_SUCCESS(worker_ret, "worker's add did not give -ENOENT");
	TEST_ASSERT(adder_calls > 0, "the worker never added");
	TEST_ASSERT_EQUAL(lines, adder_calls, "%u of the worker's %u errors logged", lines,
		adder_calls);
	TEST_ASSERT_EQUAL(rte_log_get_level(pmu_logtype), level, "log level changed");

	return TEST_SUCCESS;
}

static int stop_calls;

static int
stop_at_first(const struct rte_pmu_event_entry *e __rte_unused, void *arg __rte_unused)
{
	stop_calls++;
	return -1234;
}

static int
test_list_errors(void)
{
	__rte_pmu_sysfs_root_set(NULL);
	rte_pmu_fini();
	TEST_ASSERT_EQUAL(rte_pmu_event_list(collect, result), -ENODEV, "not initialised");
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	TEST_ASSERT_EQUAL(rte_pmu_event_list(NULL, NULL), -EINVAL, "NULL callback");
	stop_calls = 0;
	TEST_ASSERT_EQUAL(rte_pmu_event_list(stop_at_first, NULL), -1234, "callback stop");
	TEST_ASSERT_EQUAL(stop_calls, 1, "calls after the stop: %d", stop_calls);
	rte_pmu_fini();
	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_list_testsuite = {
	.suite_name = "pmu event list",
	.setup = list_setup,
	.teardown = list_teardown,
	.unit_test_cases = {
		TEST_CASE(test_list_errors),
		TEST_CASE(test_list_fixture),
		TEST_CASE(test_list_here),
		TEST_CASE(test_list_quiet_own_thread),
		TEST_CASE(test_list_vendor),
		TEST_CASES_END()
	}
};

static int
test_pmu_list(void)
{
	return unit_test_suite_runner(&pmu_list_testsuite);
}

REGISTER_FAST_TEST(pmu_list_autotest, true, true, test_pmu_list);
