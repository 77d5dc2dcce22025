/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_stage_race_autotest: a worker lcore runs stages (begin, next, end;
 * sampled and not, nested and chained) for a bounded time while the main
 * lcore reads them every way a control thread can: rte_pmu_stage_stats_get()
 * of each stage on each lcore, rte_pmu_stage_reset(), rte_pmu_stage_dump(),
 * rte_pmu_stage_sampling_set() and the /pmu/stages and /pmu/stage,<name>
 * telemetry commands through the process's own socket (answered on DPDK's
 * telemetry thread). Every snapshot is consistent (calls * ITEMS == items,
 * measured <= calls, calls never fall between two reads without a reset,
 * nor do the sums over the measured calls, which consumers take
 * differences of, though the estimates scaled from them may: counted).
 * Under ThreadSanitizer (devtools/ci-sanitize.sh) any report of a data race
 * fails it. Run with two lcores (-l 0-1).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "test.h"
#include "test_pmu_tel_socket.h"

#define ITEMS 8u
#define READ_MS 200u    /* how long the main lcore reads, at least */
#define MIN_ROUNDS 32u  /* and how many rounds, at least: two resets (10 s at most) */
#define WORKER_MAX_S 30u /* the worker stops by itself after that */

/* The stages and their first sampling periods. */
enum { BURST, RX, FWD, TX, NUM_STAGES };
static const char *const stage_names[NUM_STAGES] = {
	"race_burst", "race_rx", "race_fwd", "race_tx",
};
static const unsigned int stage_periods[NUM_STAGES] = { 4, 1, 4, 4 };
static unsigned int ids[NUM_STAGES];

static unsigned int stop;       /* main -> worker: release/acquire */
static uint64_t worker_rounds;  /* worker -> main, read after the wait */
static int worker_ret;

/* Each round: burst (sampled) around rx chained into fwd, then tx alone,
 * every call with ITEMS items.
 */
static int
race_worker(void *arg __rte_unused)
{
	uint64_t deadline = rte_get_timer_cycles() + WORKER_MAX_S * rte_get_timer_hz();
	volatile uint64_t sink = 0;
	uint64_t rounds = 0;
	unsigned int i;

	worker_ret = rte_pmu_lcore_open();
	if (worker_ret != 0)
		return -1;
	while (__atomic_load_n(&stop, __ATOMIC_ACQUIRE) == 0 &&
			((rounds & 1023) != 0 || rte_get_timer_cycles() < deadline)) {
		rte_pmu_stage_begin(ids[BURST]);
		rte_pmu_stage_begin(ids[RX]);
		for (i = 0; i < 16; i++)
			sink = sink + i;
		rte_pmu_stage_next(ids[RX], ITEMS, ids[FWD]);
		for (i = 0; i < 16; i++)
			sink = sink + i;
		rte_pmu_stage_end(ids[FWD], ITEMS);
		rte_pmu_stage_end(ids[BURST], ITEMS);
		rte_pmu_stage_begin(ids[TX]);
		sink = sink + 1;
		rte_pmu_stage_end(ids[TX], ITEMS);
		rounds++;
	}
	worker_rounds = rounds;
	return 0;
}

/* /pmu/stages, then /pmu/stage,<name> of stage @p s: event @p ev under
 * its key with its name and unit, and its total consistent too.
 */
static int
telemetry_check(int sock, unsigned int s, const char *ev)
{
	char buf[16384], cmd[96], want[160];
	uint64_t calls, items;
	const char *total;
	int ret;

	ret = tel_socket_cmd(sock, "/pmu/stages", buf, sizeof(buf));
	TEST_ASSERT_SUCCESS(ret, "/pmu/stages: %s", strerror(-ret));
	TEST_ASSERT(strncmp(buf, "{\"/pmu/stages\":{\"names\":[", 25) == 0 &&
		strstr(buf, stage_names[s]) != NULL, "/pmu/stages: %s", buf);

	snprintf(cmd, sizeof(cmd), "/pmu/stage,%s", stage_names[s]);
	ret = tel_socket_cmd(sock, cmd, buf, sizeof(buf));
	TEST_ASSERT_SUCCESS(ret, "%s: %s", cmd, strerror(-ret));
	/* "task-clock" keyed "task_clock", in ns; "instructions" a count. */
	snprintf(want, sizeof(want), "\"events\":{\"%s\":{\"name\":\"%s\",\"unit\":\"%s\"}},",
		strcmp(ev, "task-clock") == 0 ? "task_clock" : ev, ev,
		strcmp(ev, "task-clock") == 0 ? "ns" : "count");
	TEST_ASSERT(strstr(buf, want) != NULL, "%s: %s, wanted %s", cmd, buf, want);
	total = strstr(buf, "\"total\":{");
	TEST_ASSERT(total != NULL && sscanf(total, "\"total\":{\"calls\":%" SCNu64
		",\"items\":%" SCNu64 ",", &calls, &items) == 2, "%s: %s", cmd, buf);
	TEST_ASSERT(items == calls * ITEMS, "%s: %" PRIu64 " calls, %" PRIu64 " items",
		cmd, calls, items);

	return TEST_SUCCESS;
}

static int
dump_check(unsigned int *named)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	f = open_memstream(&text, &len);
	TEST_ASSERT_NOT_NULL(f, "open_memstream: %s", strerror(errno));
	ret = rte_pmu_stage_dump(f);
	fclose(f);
	if (ret == 0 && strstr(text, stage_names[RX]) != NULL)
		(*named)++;
	free(text);
	TEST_ASSERT_SUCCESS(ret, "dump: %d", ret);

	return TEST_SUCCESS;
}

/* The sums over the measured calls of @p st (lcore @p lcore, stage @p s),
 * inclusive and its children's, never below those of the last read,
 * @p last; @p last then holds these and the self estimate, whose falls
 * are counted in @p down.
 */
static int
sums_check(unsigned int lcore, unsigned int s, const struct rte_pmu_stage_stats *st,
	uint64_t *last, uint64_t *down)
{
	int ret = TEST_SUCCESS;

	if (st->measured_values[0] < last[0] || st->measured_children[0] < last[1]) {
		printf("lcore %u %s: measured calls' sums %" PRIu64 " (children %" PRIu64
			"), before %" PRIu64 " (children %" PRIu64 ")\n", lcore, stage_names[s],
			st->measured_values[0], st->measured_children[0], last[0], last[1]);
		ret = TEST_FAILED;
	}
	*down += st->self_values[0] < last[2];
	last[0] = st->measured_values[0];
	last[1] = st->measured_children[0];
	last[2] = st->self_values[0];
	return ret;
}

static int
test_stage_race(void)
{
	static uint64_t last[RTE_MAX_LCORE][NUM_STAGES];
	/* The sums over the measured calls, and the self estimate, last read. */
	static uint64_t last_sums[RTE_MAX_LCORE][NUM_STAGES][3];
	uint64_t estimate_down = 0;
	unsigned int worker = rte_get_next_lcore(-1, 1, 0), lcore, s, named = 0;
	uint64_t reads = 0, resets = 0, dumps = 0, periods = 0, tel = 0, round;
	struct rte_pmu_stage_stats st;
	uint64_t hz = rte_get_timer_hz(), start, end;
	const char *ev = "instructions";
	int sock, ret = TEST_SUCCESS;

	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("needs a worker lcore (-l 0-1)");
	rte_pmu_fini();
	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	if (rte_pmu_add_event(ev) != 0) {
		ev = "task-clock";
		if (rte_pmu_add_event(ev) != 0)
			TEST_SKIP("neither instructions nor task-clock opens here");
	}
	for (s = 0; s < NUM_STAGES; s++) {
		ret = rte_pmu_stage_register(stage_names[s]);
		TEST_ASSERT(ret >= 0, "register %s: %d", stage_names[s], ret);
		ids[s] = (unsigned int)ret;
		TEST_ASSERT_SUCCESS(rte_pmu_stage_sampling_set(ids[s], stage_periods[s]),
			"period of %s", stage_names[s]);
	}
	sock = tel_socket_open();
	if (sock < 0)
		printf("no telemetry socket (%s): telemetry not driven\n", strerror(-sock));
	memset(last, 0, sizeof(last));
	memset(last_sums, 0, sizeof(last_sums));

	stop = 0;
	worker_rounds = 0;
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(race_worker, NULL, worker), "launch");
	/* The reads begin once the worker's first calls are seen (10 s at most). */
	start = rte_get_timer_cycles();
	do {
		ret = rte_pmu_stage_stats_get(worker, ids[TX], &st);
	} while (ret == 0 && st.calls == 0 && rte_get_timer_cycles() < start + 10 * hz);

	start = rte_get_timer_cycles();
	end = start + READ_MS * hz / 1000;
	for (round = 0; ret == TEST_SUCCESS; round++) {
		uint64_t now = rte_get_timer_cycles();

		if (now >= start + 10 * hz || (now >= end && round >= MIN_ROUNDS))
			break;
		RTE_LCORE_FOREACH(lcore) {
			for (s = 0; s < NUM_STAGES && ret == TEST_SUCCESS; s++) {
				ret = rte_pmu_stage_stats_get(lcore, ids[s], &st);
				reads++;
				if (ret != 0)
					break;
				if (st.items != st.calls * ITEMS || st.measured > st.calls ||
						st.calls < last[lcore][s]) {
					printf("lcore %u %s: calls %" PRIu64 " items %" PRIu64
						" measured %" PRIu64 " (before: %" PRIu64
						" calls)\n", lcore, stage_names[s], st.calls,
						st.items, st.measured, last[lcore][s]);
					ret = TEST_FAILED;
				}
				ret |= sums_check(lcore, s, &st, last_sums[lcore][s],
					&estimate_down);
				last[lcore][s] = st.calls;
			}
		}
		if (ret == TEST_SUCCESS && round % 16 == 15) {
			ret = rte_pmu_stage_reset();
			resets++;
			memset(last, 0, sizeof(last));
			memset(last_sums, 0, sizeof(last_sums));
		}
		if (ret == TEST_SUCCESS && round % 16 == 5) {
			ret = dump_check(&named);
			dumps++;
		}
		if (ret == TEST_SUCCESS && round % 8 == 3) {
			/* tx: 4, 1, 4, ...; burst: 4, 2, 4, ... */
			ret = rte_pmu_stage_sampling_set(ids[TX], periods % 2 == 0 ? 1 : 4);
			if (ret == 0)
				ret = rte_pmu_stage_sampling_set(ids[BURST],
					periods % 2 == 0 ? 2 : 4);
			periods++;
		}
		if (ret == TEST_SUCCESS && sock >= 0 && round % 4 == 1) {
			ret = telemetry_check(sock, (unsigned int)(tel % NUM_STAGES), ev);
			tel++;
		}
	}
	/* Before the stop: calls of each stage since the last reset (10 s at most). */
	for (s = 0, end = rte_get_timer_cycles() + 10 * hz; ret == TEST_SUCCESS &&
			s < NUM_STAGES && rte_get_timer_cycles() < end; ) {
		ret = rte_pmu_stage_stats_get(worker, ids[s], &st);
		if (ret == 0 && st.calls > 0)
			s++;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "worker: lcore open %d", worker_ret);
	if (sock >= 0)
		close(sock);
	printf("%s: %" PRIu64 " worker rounds; %" PRIu64 " main rounds in %.0f ms: %" PRIu64
		" stats reads, %" PRIu64 " resets, %" PRIu64 " dumps (%u naming %s), %" PRIu64
		" period changes, %" PRIu64 " telemetry checks\n", ev, worker_rounds, round,
		(double)(rte_get_timer_cycles() - start) * 1000 / hz, reads, resets, dumps,
		named, stage_names[RX], periods, tel);
	printf("%s: the self estimate of a stage went down between two reads %" PRIu64
		" times, its sum over the measured calls never\n", ev, estimate_down);
	TEST_ASSERT_SUCCESS(ret, "a read failed or was inconsistent (see above)");

	/* The worker ran, and its figures since the last reset add up. */
	TEST_ASSERT(worker_rounds > 0, "the worker ran no round");
	TEST_ASSERT(resets > 0 && dumps > 0 && periods > 0, "the main lcore did not loop");
	TEST_ASSERT(named > 0, "no dump named %s", stage_names[RX]);
	for (s = 0; s < NUM_STAGES; s++) {
		TEST_ASSERT_SUCCESS(rte_pmu_stage_stats_get(worker, ids[s], &st), "stats");
		TEST_ASSERT(st.calls > 0 && st.calls <= worker_rounds &&
			st.items == st.calls * ITEMS && st.measured <= st.calls,
			"%s after the run: calls %" PRIu64 " items %" PRIu64 " measured %" PRIu64
			" in %" PRIu64 " rounds", stage_names[s], st.calls, st.items, st.measured,
			worker_rounds);
	}
	rte_pmu_fini();

	return TEST_SUCCESS;
}

static struct unit_test_suite pmu_stage_race_suite = {
	.suite_name = "pmu stage race autotest",
	.unit_test_cases = {
		TEST_CASE(test_stage_race),
		TEST_CASES_END()
	}
};

static int
test_pmu_stage_race(void)
{
	return unit_test_suite_runner(&pmu_stage_race_suite);
}

REGISTER_FAST_TEST(pmu_stage_race_autotest, true, true, test_pmu_stage_race);
