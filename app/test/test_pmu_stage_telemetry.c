/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The stage library's telemetry: /pmu/stages, /pmu/stage,<name> and
 * /pmu/stage_lcores, in-process and over the socket, against the figures
 * of rte_pmu_stage_stats_get().
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_telemetry.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "pmu_stage_private.h"
#include "test.h"
#include "test_pmu_lsan.h"
#include "test_pmu_tel_socket.h"

#define STAGE_MAIN_CALLS 10
#define STAGE_MAIN_ITEMS 4
#define STAGE_WORKER_CALLS 7
#define STAGE_WORKER_ITEMS 3

/* Run stage @p arg (an id) STAGE_WORKER_CALLS times, in the last call
 * misusing idle_stage once (its end inside another stage).
 */
static int idle_stage;

static int
stage_worker(void *arg)
{
	unsigned int id = (unsigned int)(uintptr_t)arg, i;
	volatile uint64_t sink = 0;
	uint64_t n;

	if (rte_pmu_lcore_open() != 0)
		return -1;
	for (i = 0; i < STAGE_WORKER_CALLS; i++) {
		rte_pmu_stage_begin(id);
		for (n = 0; n < 100000; n++)
			sink = sink + n;
		/* Misuse in its last (measured) call: the end of another stage. */
		if (i == STAGE_WORKER_CALLS - 1)
			rte_pmu_stage_end(idle_stage, 1);
		rte_pmu_stage_end(id, STAGE_WORKER_ITEMS);
	}

	return 0;
}

/* What the endpoint must give for @p s under @p key, up to its end. */
static void
stage_expect(char *buf, size_t len, const char *key, const struct rte_pmu_stage_stats *s)
{
	static const char * const keys[] = { "task_clock", "page_faults" };
	unsigned int i;
	size_t o;

	o = snprintf(buf, len, "\"%s\":{\"calls\":%" PRIu64 ",\"items\":%" PRIu64
		",\"measured\":%" PRIu64 ",\"misuse\":%" PRIu64 ",\"lcore_misuse\":%" PRIu64
		",\"events\":{", key, s->calls, s->items, s->measured, s->misuse,
		s->lcore_misuse);
	for (i = 0; i < s->num_events && i < RTE_DIM(keys) && o < len; i++) {
		o += snprintf(buf + o, len - o, "%s\"%s\":{\"value\":%" PRIu64
			",\"self_value\":%" PRIu64 ",\"measured_value\":%" PRIu64
			",\"measured_children\":%" PRIu64 ",\"overhead\":%" PRIu64
			",\"inexact\":%u", i == 0 ? "" : ",", keys[i], s->values[i],
			s->self_values[i], s->measured_values[i], s->measured_children[i],
			s->overhead[i], (s->inexact >> i) & 1);
		/* Every call measured here: a spread of 0, not an estimate. */
		if (o < len)
			o += snprintf(buf + o, len - o, ",\"spread_ppm\":%.0f}",
				s->spread[i] * 1e6);
	}
	if (o < len)
		snprintf(buf + o, len - o, "}}");
}

/* /pmu/stage,tel_rx,<RTE_MAX_LCORE>: an error reply and a log line that
 * names the lcore id, not a stage 'tel_rx,<n>' unknown. The log line into
 * @p want.
 */
static int
lcore_past_last(int sock, char *buf, size_t len, char *want, size_t want_len)
{
	FILE *saved = rte_log_get_stream(), *log;
	char cmd[64], *logged = NULL;
	size_t logged_len = 0;
	int ret;

	log = open_memstream(&logged, &logged_len);
	if (log == NULL)
		return -ENOMEM;
	snprintf(cmd, sizeof(cmd), "/pmu/stage,tel_rx,%d", RTE_MAX_LCORE);
	rte_openlog_stream(log);
	ret = tel_socket_cmd(sock, cmd, buf, len);
	rte_openlog_stream(saved);
	fclose(log);
	snprintf(want, want_len, "'tel_rx,%d': lcore id out of range (0 to %d)",
		RTE_MAX_LCORE, RTE_MAX_LCORE - 1);
	if (ret == 0 && (strcmp(buf, "{\"/pmu/stage\":null}") != 0 || logged == NULL ||
			strstr(logged, want) == NULL)) {
		printf("logged: %s", logged != NULL ? logged : "(nothing)\n");
		ret = -EPROTO;
	}
	free(logged);
	return ret;
}

/* /pmu/stages and /pmu/stage,<name> through the telemetry socket: stages
 * run on the main lcore and a worker; each lcore's figures are those of
 * rte_pmu_stage_stats_get(), the total is their sum, the worker's misuse is
 * counted (also under a stage it never ran), and bad names answer an error.
 */
static int
test_stage_commands(void)
{
	unsigned int main_lcore = rte_lcore_id(), worker = rte_get_next_lcore(-1, 1, 0), i;
	struct rte_pmu_stage_stats sm, sw, total;
	char buf[16384], want[1024], cmd[64];
	volatile uint64_t sink = 0;
	int sock, id, idle, ret;
	uint64_t n;

	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("needs a worker lcore (-l 0-1)");
	sock = tel_socket_open();
	if (sock == -ENOENT)
		TEST_SKIP("no telemetry socket (EAL started with --no-telemetry)");
	TEST_ASSERT(sock >= 0, "connect to the telemetry socket: %s", strerror(-sock));

	/* Before any stage: an empty list. */
	ret = tel_socket_cmd(sock, "/pmu/stages", buf, sizeof(buf));
	if (ret == 0 && strcmp(buf, "{\"/pmu/stages\":{\"names\":[],\"num_stages\":0,"
			"\"first\":0}}") != 0)
		ret = -EPROTO;
	if (ret != 0)
		goto out;

	id = rte_pmu_stage_register("tel_rx");
	idle = rte_pmu_stage_register("tel_idle");
	TEST_ASSERT(id >= 0 && idle >= 0, "register: %d %d", id, idle);
	TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(idle, 16), "sampling of tel_idle");
	idle_stage = idle;
	TEST_ASSERT_SUCCESS(rte_pmu_lcore_open(), "open the main lcore");
	rte_eal_remote_launch(stage_worker, (void *)(uintptr_t)id, worker);
	for (i = 0; i < STAGE_MAIN_CALLS; i++) {
		rte_pmu_stage_begin(id);
		for (n = 0; n < 100000; n++)
			sink = sink + n;
		rte_pmu_stage_end(id, STAGE_MAIN_ITEMS);
	}
	TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "worker lcore %u", worker);
	TEST_ASSERT(rte_pmu_stage_stats_get(main_lcore, id, &sm) == 0 &&
		rte_pmu_stage_stats_get(worker, id, &sw) == 0, "stats");
	TEST_ASSERT(sm.calls == STAGE_MAIN_CALLS && sw.calls == STAGE_WORKER_CALLS &&
		sm.misuse == 0 && sw.misuse == 0 && sm.num_events == 2 && sw.num_events == 2,
		"stats: calls %" PRIu64 " %" PRIu64 ", misuse %" PRIu64 " %" PRIu64,
		sm.calls, sw.calls, sm.misuse, sw.misuse);

	ret = tel_socket_cmd(sock, "/pmu/stages", buf, sizeof(buf));
	if (ret == 0 && strcmp(buf, "{\"/pmu/stages\":{\"names\":[\"tel_rx\",\"tel_idle\"],"
			"\"num_stages\":2,\"first\":0}}") != 0)
		ret = -EPROTO;
	if (ret != 0)
		goto out;

	ret = tel_socket_cmd(sock, "/pmu/stage,tel_rx", buf, sizeof(buf));
	snprintf(want, sizeof(want), "{\"/pmu/stage\":{\"stage\":\"tel_rx\",\"id\":0,"
		"\"sampling_period\":1,\"events\":{\"task_clock\":{\"name\":\"task-clock\","
		"\"unit\":\"ns\"},\"page_faults\":{\"name\":\"page-faults\",\"unit\":\"count\"}},"
		"\"total\":{\"calls\":%u,",
		STAGE_MAIN_CALLS + STAGE_WORKER_CALLS);
	if (ret == 0 && strncmp(buf, want, strlen(want)) != 0)
		ret = -EPROTO;
	total = sm;
	total.calls += sw.calls;
	total.items += sw.items;
	total.measured += sw.measured;
	total.misuse += sw.misuse;
	for (i = 0; i < 2; i++) {
		total.values[i] += sw.values[i];
		total.self_values[i] += sw.self_values[i];
		total.measured_values[i] += sw.measured_values[i];
		total.measured_children[i] += sw.measured_children[i];
		total.overhead[i] = RTE_MAX(sm.overhead[i], sw.overhead[i]);
	}
	snprintf(cmd, sizeof(cmd), "%u", main_lcore);
	stage_expect(want, sizeof(want), cmd, &sm);
	if (ret == 0 && strstr(buf, want) == NULL)
		ret = -EPROTO;
	snprintf(cmd, sizeof(cmd), "%u", worker);
	stage_expect(want, sizeof(want), cmd, &sw);
	if (ret == 0 && strstr(buf, want) == NULL)
		ret = -EPROTO;
	stage_expect(want, sizeof(want), "total", &total);
	if (ret == 0 && (strstr(buf, want) == NULL || total.calls != 17 || total.items != 61 ||
			strstr(buf, "_milli") != NULL || strstr(buf, "ipc") != NULL))
		ret = -EPROTO;
	if (ret != 0)
		goto out;
	/* From the worker's lcore id on: its figures, not the main lcore's,
	 * and the same total.
	 */
	snprintf(cmd, sizeof(cmd), "/pmu/stage,tel_rx,%u", worker);
	ret = tel_socket_cmd(sock, cmd, buf, sizeof(buf));
	snprintf(cmd, sizeof(cmd), "\"%u\":{\"calls\"", main_lcore);
	if (ret == 0 && (strstr(buf, want) == NULL || strstr(buf, cmd) != NULL ||
			strstr(buf, "next_lcore") != NULL))
		ret = -EPROTO;
	snprintf(cmd, sizeof(cmd), "%u", worker);
	stage_expect(want, sizeof(want), cmd, &sw);
	if (ret == 0 && strstr(buf, want) == NULL)
		ret = -EPROTO;
	if (ret != 0)
		goto out;

	/* A stage no lcore ran: only the lcore that misused it, no call. */
	ret = tel_socket_cmd(sock, "/pmu/stage,tel_idle", buf, sizeof(buf));
	snprintf(want, sizeof(want), "}}},\"lcores\":{\"%u\":{\"calls\":0,"
		"\"items\":0,\"measured\":0,\"misuse\":1,\"lcore_misuse\":0,", worker);
	if (ret == 0 && (strstr(buf, "\"sampling_period\":16,") == NULL ||
			strstr(buf, want) == NULL ||
			strstr(buf, "\"total\":{\"calls\":0,\"items\":0,\"measured\":0,"
			"\"misuse\":1,\"lcore_misuse\":0,\"events\":{\"task_clock\":{"
			"\"value\":0,") == NULL))
		ret = -EPROTO;
	/* /pmu/stage_lcores: each lcore's events keyed alike, name and unit. */
	if (ret == 0)
		ret = tel_socket_cmd(sock, "/pmu/stage_lcores", buf, sizeof(buf));
	snprintf(want, sizeof(want), "\"%u\":{\"measured\":", worker);
	if (ret == 0 && (strstr(buf, want) == NULL ||
			strstr(buf, "\"task_clock\":{\"name\":\"task-clock\",\"unit\":\"ns\","
				"\"total\":") == NULL ||
			strstr(buf, "\"page_faults\":{\"name\":\"page-faults\","
				"\"unit\":\"count\",\"total\":") == NULL ||
			strstr(buf, ",\"outside_inexact\":") == NULL))
		ret = -EPROTO;
	/* Bad names: an error reply (null). */
	for (i = 0; ret == 0 && i < 4; i++) {
		static const char *const bad[] = { "/pmu/stage", "/pmu/stage,",
			"/pmu/stage,nosuch", "/pmu/stage,tel_rx_and_more" };

		ret = tel_socket_cmd(sock, bad[i], buf, sizeof(buf));
		if (ret == 0 && strcmp(buf, "{\"/pmu/stage\":null}") != 0)
			ret = -EPROTO;
	}
	if (ret == 0) {
		ret = tel_socket_cmd(sock, "/pmu/stages,x", buf, sizeof(buf));
		if (ret == 0 && strcmp(buf, "{\"/pmu/stages\":null}") != 0)
			ret = -EPROTO;
	}
	/* A stage's name with an lcore id past the last: said so, not taken
	 * for a name.
	 */
	if (ret == 0)
		ret = lcore_past_last(sock, buf, sizeof(buf), want, sizeof(want));
out:
	close(sock);
	TEST_ASSERT_SUCCESS(ret, "telemetry reply: %s (%s)%s%s", buf, strerror(-ret),
		ret == -EPROTO ? ", wanted " : "", ret == -EPROTO ? want : "");

	return TEST_SUCCESS;
}

/* /pmu/stages with RTE_PMU_MAX_STAGES stages: a valid reply that lists
 * the first RTE_TEL_MAX_ARRAY_ENTRIES names and counts them all; then
 * every name, in replies from the first id not yet listed (63-character
 * names: several replies, each within DPDK's 16 KiB).
 */
static int
test_stages_many(void)
{
	char buf[16384], name[16], want[32], tail[48];
	const char *end;
	unsigned int i;
	int sock, ret;

	for (i = 0; i < RTE_PMU_MAX_STAGES; i++) {
		snprintf(name, sizeof(name), "s%04u", i);
		TEST_ASSERT_EQUAL(rte_pmu_stage_register(name), (int)i, "register %s", name);
	}
	sock = tel_socket_open();
	if (sock == -ENOENT)
		TEST_SKIP("no telemetry socket (EAL started with --no-telemetry)");
	TEST_ASSERT(sock >= 0, "connect to the telemetry socket: %s", strerror(-sock));
	ret = tel_socket_cmd(sock, "/pmu/stages", buf, sizeof(buf));
	close(sock);
	TEST_ASSERT_SUCCESS(ret, "/pmu/stages: %s", strerror(-ret));
	snprintf(want, sizeof(want), "\"s%04u\"],", RTE_TEL_MAX_ARRAY_ENTRIES - 1);
	snprintf(tail, sizeof(tail), "\"num_stages\":%d,\"first\":0}}", RTE_PMU_MAX_STAGES);
	end = strstr(buf, want);
	TEST_ASSERT(strncmp(buf, "{\"/pmu/stages\":{\"names\":[\"s0000\",\"s0001\",", 36) == 0 &&
		end != NULL && strcmp(end + strlen(want), tail) == 0,
		"/pmu/stages: %.200s ... %s", buf, end != NULL ? end : "(no s0511)");

	return TEST_SUCCESS;
}

/* /pmu/stages with RTE_PMU_MAX_STAGES stages of 63-character names, reply
 * after reply from the first id not yet listed: every name once, in order,
 * each reply whole (DPDK 22.11 left the list out of a reply past 16 KiB:
 * the first reply listed 247 of 1,024 names, and nothing said how to get
 * the others).
 */
static int
test_stages_pages(void)
{
	char buf[16384], name[RTE_PMU_STAGE_NAME_MAX], cmd[64];
	unsigned int i, first = 0, pages = 0, n;
	const char *p;
	int sock, ret = 0;

	for (i = 0; i < RTE_PMU_MAX_STAGES; i++) {
		memset(name, 'x', sizeof(name) - 1);
		name[sizeof(name) - 1] = '\0';
		memcpy(name, cmd, snprintf(cmd, sizeof(cmd), "p%04u-", i));
		TEST_ASSERT_EQUAL(rte_pmu_stage_register(name), (int)i, "register %s", name);
	}
	sock = tel_socket_open();
	if (sock == -ENOENT)
		TEST_SKIP("no telemetry socket (EAL started with --no-telemetry)");
	TEST_ASSERT(sock >= 0, "connect to the telemetry socket: %s", strerror(-sock));
	while (ret == 0 && first < RTE_PMU_MAX_STAGES && pages++ < RTE_PMU_MAX_STAGES) {
		snprintf(cmd, sizeof(cmd), "/pmu/stages,%u", first);
		ret = tel_socket_cmd(sock, cmd, buf, sizeof(buf));
		/* Its names: p<first>-, p<first + 1>-, ... */
		for (n = 0, p = buf; ret == 0 && (p = strstr(p, "\"p")) != NULL; n++, p += 2) {
			snprintf(cmd, sizeof(cmd), "\"p%04u-", first + n);
			if (strncmp(p, cmd, strlen(cmd)) != 0)
				ret = -EPROTO;
		}
		snprintf(cmd, sizeof(cmd), "\"num_stages\":%d,\"first\":%u}}", RTE_PMU_MAX_STAGES,
			first);
		if (ret == 0 && (n == 0 || strstr(buf, cmd) == NULL))
			ret = -EPROTO;
		first += n;
	}
	close(sock);
	printf("/pmu/stages: %u names of 63 characters in %u replies\n", first, pages);
	TEST_ASSERT(ret == 0 && first == RTE_PMU_MAX_STAGES && pages > 1,
		"/pmu/stages,%u: %s (%.300s)", first, strerror(-ret), buf);

	return TEST_SUCCESS;
}

/* With stages "x" and "x,1": /pmu/stage,x,1 is x from lcore 1 (it was
 * stage x,1, so that x's lcores from 1 could not be read), and x,1 is
 * asked for with its first lcore: /pmu/stage,x,1,0.
 */
static int
test_stage_comma_names(void)
{
	static const char *const asked[][2] = {
		{ "/pmu/stage,x", "{\"/pmu/stage\":{\"stage\":\"x\"," },
		{ "/pmu/stage,x,1", "{\"/pmu/stage\":{\"stage\":\"x\"," },
		{ "/pmu/stage,x,1,0", "{\"/pmu/stage\":{\"stage\":\"x,1\"," },
	};
	char buf[16384];
	unsigned int i;
	int sock, ret;

	TEST_ASSERT(rte_pmu_stage_register("x") >= 0 && rte_pmu_stage_register("x,1") >= 0,
		"register x and x,1");
	sock = tel_socket_open();
	if (sock == -ENOENT)
		TEST_SKIP("no telemetry socket (EAL started with --no-telemetry)");
	TEST_ASSERT(sock >= 0, "connect to the telemetry socket: %s", strerror(-sock));
	for (i = 0; i < RTE_DIM(asked); i++) {
		ret = tel_socket_cmd(sock, asked[i][0], buf, sizeof(buf));
		if (ret != 0 || strncmp(buf, asked[i][1], strlen(asked[i][1])) != 0)
			break;
	}
	close(sock);
	TEST_ASSERT(i == RTE_DIM(asked), "%s: %s, not %s...", asked[i][0],
		ret != 0 ? strerror(-ret) : buf, asked[i][1]);

	return TEST_SUCCESS;
}

/* The stage commands' errors, in-process. */
static int
test_stage_bad_params(void)
{
	TEST_ASSERT_EQUAL(tel_call("/pmu/stage", NULL), -EINVAL, "no name");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stage", ""), -EINVAL, "empty name");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stage", "nosuch"), -EINVAL, "unknown name");
	TEST_ASSERT(rte_pmu_stage_register("known") >= 0, "register");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stage", "know"), -EINVAL, "a prefix of a name");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stage", "known"), 0, "a registered name");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stages", "x"), -EINVAL, "/pmu/stages,x");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stages", "1x"), -EINVAL, "/pmu/stages,1x");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stages", "1"), 0, "/pmu/stages,1");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stages", NULL), 0, "/pmu/stages");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stage_lcores", "-1"), -EINVAL, "/pmu/stage_lcores,-1");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stage_lcores", "1"), 0, "/pmu/stage_lcores,1");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stage_lcores", RTE_STR(RTE_MAX_LCORE)), -EINVAL,
		"/pmu/stage_lcores,RTE_MAX_LCORE");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stage", "known," RTE_STR(RTE_MAX_LCORE)), -EINVAL,
		"a name, then lcore id RTE_MAX_LCORE");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stage", "known,x"), -EINVAL, "a name, then no lcore id");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stage", "known,3"), 0, "a name, then lcore id 3");

	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_stage_telemetry_suite = {
	.suite_name = "pmu stage telemetry autotest",
	.unit_test_cases = {
		TEST_CASE_ST(tel_pmu_setup, tel_pmu_teardown, test_stage_bad_params),
		TEST_CASE_ST(tel_pmu_setup, tel_pmu_teardown, test_stage_commands),
		TEST_CASE_ST(tel_pmu_setup, tel_pmu_teardown, test_stages_many),
		TEST_CASE_ST(tel_pmu_setup, tel_pmu_teardown, test_stages_pages),
		TEST_CASE_ST(tel_pmu_setup, tel_pmu_teardown, test_stage_comma_names),
		TEST_CASES_END()
	}
};

static int
test_pmu_stage_telemetry(void)
{
	return unit_test_suite_runner(&pmu_stage_telemetry_suite);
}

REGISTER_FAST_TEST(pmu_stage_telemetry_autotest, true, true, test_pmu_stage_telemetry);
