/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_telemetry_autotest: the /pmu/... telemetry handlers' parameter
 * checks, the decoding of read() buffers, and the snapshot another thread
 * takes of an lcore's group (values live and growing, descriptors given
 * back), and the stage commands /pmu/stages and /pmu/stage,<name>. Run with
 * two lcores (-l 0-1).
 */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_telemetry.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "pmu_private.h"
#include "pmu_observe.h"
#include "pmu_stage_private.h"
#include "test.h"
#include "test_pmu_tel_socket.h"
#include "test_pmu_lsan.h"

static int
test_lcore_bad_params(void)
{
	static const char * const bad[] = {
		"", "abc", "-1", "+1", " 1", "1x", "1,2", "0x1", "128", "4294967296",
		"99999999999999999999999",
	};
	unsigned int i;

	TEST_ASSERT_EQUAL(tel_call("/pmu/lcore", NULL), -EINVAL, "no parameter");
	for (i = 0; i < RTE_DIM(bad); i++)
		TEST_ASSERT_EQUAL(tel_call("/pmu/lcore", bad[i]), -EINVAL,
			"/pmu/lcore,%s accepted", bad[i]);
	/* In range, but no lcore has that id. */
	TEST_ASSERT_EQUAL(tel_call("/pmu/lcore", "100"), -EINVAL, "unused lcore 100");

	return TEST_SUCCESS;
}

static int
test_no_param_commands(void)
{
	TEST_ASSERT_EQUAL(tel_call("/pmu/list", "1"), -EINVAL, "/pmu/list with a parameter");
	TEST_ASSERT_EQUAL(tel_call("/pmu/info", "x"), -EINVAL, "/pmu/info with a parameter");
	TEST_ASSERT_EQUAL(tel_call("/pmu/list", NULL), 0, "/pmu/list");
	TEST_ASSERT_EQUAL(tel_call("/pmu/list", ""), 0, "/pmu/list with an empty parameter");
	TEST_ASSERT_EQUAL(tel_call("/pmu/nosuch", NULL), -ENOENT, "unknown command");

	return TEST_SUCCESS;
}

static int
test_not_initialised(void)
{
	struct pmu_snapshot snap;

	TEST_ASSERT_EQUAL(tel_call("/pmu/lcore", "0"), -ENODEV, "lcore before init");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stage", "rx"), -ENODEV, "stage before init");
	TEST_ASSERT_EQUAL(tel_call("/pmu/stages", NULL), 0, "stages before init: none");
	TEST_ASSERT_EQUAL(tel_call("/pmu/list", NULL), 0, "list before init: empty list");
	TEST_ASSERT_EQUAL(pmu_lcore_snapshot(rte_lcore_id(), true, &snap), -ENODEV,
		"snapshot before init");
	TEST_ASSERT_EQUAL(pmu_lcore_snapshot(RTE_MAX_LCORE, true, &snap), -EINVAL,
		"snapshot of lcore RTE_MAX_LCORE");

	return TEST_SUCCESS;
}

static int
test_read_parse(void)
{
	const uint64_t group = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
		PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* nr, enabled, running, {value, id} x 2 */
	const uint64_t g[] = { 2, 1000, 500, 11, 101, 22, 102 };
	/* nr, {value, lost} x 2: no times, no ids */
	const uint64_t gl[] = { 2, 11, 7, 22, 8 };
	/* value, enabled, running, id */
	const uint64_t one[] = { 33, 1000, 1000, 103 };
	const uint64_t too_many[] = { RTE_MAX_NUM_GROUP_EVENTS + 1, 0, 0 };
	struct pmu_read_values rv;

	TEST_ASSERT_SUCCESS(pmu_read_parse(g, sizeof(g), group, &rv), "group read");
	TEST_ASSERT(rv.nr == 2 && rv.time_enabled == 1000 && rv.time_running == 500 &&
		rv.value[0] == 11 && rv.id[0] == 101 && rv.value[1] == 22 && rv.id[1] == 102,
		"group read decoded wrong: nr %u", rv.nr);

	TEST_ASSERT_SUCCESS(pmu_read_parse(gl, sizeof(gl), PERF_FORMAT_GROUP | PERF_FORMAT_LOST,
		&rv), "group read with lost counts");
	TEST_ASSERT(rv.nr == 2 && rv.value[0] == 11 && rv.value[1] == 22 && rv.id[1] == 0 &&
		rv.time_enabled == 0, "group read with lost counts decoded wrong");

	TEST_ASSERT_SUCCESS(pmu_read_parse(one, sizeof(one), group & ~PERF_FORMAT_GROUP, &rv),
		"single event read");
	TEST_ASSERT(rv.nr == 1 && rv.value[0] == 33 && rv.time_enabled == 1000 &&
		rv.time_running == 1000 && rv.id[0] == 103, "single event read decoded wrong");

	TEST_ASSERT_EQUAL(pmu_read_parse(g, 0, group, &rv), -ENODATA, "0 bytes (error state)");
	TEST_ASSERT_EQUAL(pmu_read_parse(g, sizeof(g) - 8, group, &rv), -EINVAL, "truncated");
	TEST_ASSERT_EQUAL(pmu_read_parse(g, 12, group, &rv), -EINVAL, "partial word");
	TEST_ASSERT_EQUAL(pmu_read_parse(too_many, sizeof(too_many), PERF_FORMAT_GROUP, &rv),
		-EINVAL, "more values than a group holds");

	return TEST_SUCCESS;
}

/* The library's one read() decoder (pmu_fd_read()) on real events, with
 * each read format: one read() of the leader with PERF_FORMAT_GROUP gives
 * both events (ids in order), one read() per event without.
 */
static int
test_snapshot_read_formats(void)
{
	static const uint64_t te_tr = PERF_FORMAT_TOTAL_TIME_ENABLED |
		PERF_FORMAT_TOTAL_TIME_RUNNING;
	static const uint64_t formats[] = {
		PERF_FORMAT_GROUP | PERF_FORMAT_ID | te_tr,
		PERF_FORMAT_GROUP | te_tr,
		PERF_FORMAT_ID | te_tr,
		te_tr,
	};
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
	};
	struct pmu_read_values rv, rv1;
	uint64_t ids[2] = { 0, 0 };
	volatile uint64_t sink = 0;
	int fds[2], ret = 0;
	unsigned int f, n;

	for (f = 0; f < RTE_DIM(formats) && ret == 0; f++) {
		attr.read_format = formats[f];
		attr.config = PERF_COUNT_SW_TASK_CLOCK;
		fds[0] = pmu_fd_open(&attr, -1);
		attr.config = PERF_COUNT_SW_PAGE_FAULTS;
		fds[1] = fds[0] >= 0 ? pmu_fd_open(&attr, fds[0]) : -1;
		ret = fds[1] >= 0 ? 0 : -ENOTSUP;
		if (ret == 0 && (formats[f] & PERF_FORMAT_ID) != 0)
			ret = ioctl(fds[0], PERF_EVENT_IOC_ID, &ids[0]) |
				ioctl(fds[1], PERF_EVENT_IOC_ID, &ids[1]);
		for (n = 0; n < 1000000; n++)
			sink = sink + n;
		memset(&rv, 0, sizeof(rv));
		if (ret == 0)
			ret = pmu_fd_read(fds[0], formats[f], &rv);
		if (ret == 0 && (formats[f] & PERF_FORMAT_GROUP) == 0)
			ret = pmu_fd_read(fds[1], formats[f], &rv1);
		else
			rv1 = rv;
		pmu_fd_close(&fds[0]);
		pmu_fd_close(&fds[1]);
		if (ret == 0 && (formats[f] & PERF_FORMAT_GROUP) != 0 && rv.nr != 2)
			ret = -ENOENT;
		if (ret == 0 && (formats[f] & PERF_FORMAT_ID) != 0 &&
				(rv.id[0] != ids[0] ||
				rv1.id[(formats[f] & PERF_FORMAT_GROUP) != 0 ? 1 : 0] != ids[1]))
			ret = -EBADMSG;
		if (ret == 0 && (rv.value[0] == 0 || rv.time_enabled == 0))
			ret = -ERANGE;
	}
	TEST_ASSERT_SUCCESS(ret, "read format 0x%" PRIx64 ": %s, task-clock %" PRIu64
		" enabled %" PRIu64, formats[f - 1], strerror(-ret), rv.value[0],
		rv.time_enabled);

	return TEST_SUCCESS;
}

static volatile int worker_stop;

/* Open the lcore's group, then spin until told to stop. */
static int
spinning_reader(void *arg __rte_unused)
{
	volatile uint64_t sink = 0;

	sink += rte_pmu_read(0);
	while (!__atomic_load_n(&worker_stop, __ATOMIC_ACQUIRE))
		sink = sink + 1;

	return rte_pmu_lcore_status(rte_lcore_id()) == 1 ? 0 : -1;
}

/* The descriptor number the next open() gets: it rises if one leaked. */
static int
lowest_free_fd(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (fd >= 0)
		close(fd);

	return fd;
}

static void
sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* Run spinning_reader() on @p worker and take two snapshots of it from
 * this thread, the second once event 0 grew (give a loaded machine up to
 * 2 s). Returns 0, a snapshot's error, or -EBADF when a descriptor leaked.
 */
static int
two_snapshots(unsigned int worker, struct pmu_snapshot *a, struct pmu_snapshot *b)
{
	int fds, fds_after, ret, i;

	__atomic_store_n(&worker_stop, 0, __ATOMIC_RELEASE);
	rte_eal_remote_launch(spinning_reader, NULL, worker);
	/* Wait for its first read, at most 5 s. */
	for (i = 0; i < 5000 && rte_pmu_lcore_status(worker) == 0; i++)
		sleep_ms(1);
	sleep_ms(20);
	fds = lowest_free_fd();
	ret = pmu_lcore_snapshot(worker, true, a);
	for (i = 0; ret == 0 && i < 100; i++) {
		sleep_ms(20);
		ret = pmu_lcore_snapshot(worker, true, b);
		if (b->raw[0] > a->raw[0])
			break;
	}
	fds_after = lowest_free_fd();
	__atomic_store_n(&worker_stop, 1, __ATOMIC_RELEASE);
	if (rte_eal_wait_lcore(worker) != 0)
		printf("lcore %u: group not open\n", worker);
	if (ret == 0 && fds_after != fds) {
		printf("the snapshots left descriptor(s) open: next free %d, was %d\n",
			fds_after, fds);
		ret = -EBADF;
	}

	return ret;
}

/* Another lcore's live values, read from this thread: present, growing,
 * unscaled when not multiplexed, and no descriptor left behind.
 */
static int
test_snapshot_other_lcore(void)
{
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	struct pmu_snapshot a, b;

	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("needs a worker lcore (-l 0-1)");
	TEST_ASSERT_SUCCESS(two_snapshots(worker, &a, &b), "snapshots of lcore %u", worker);

	TEST_ASSERT(a.status == 1 && a.have_values && a.read_error == 0,
		"status %d, values %d, error %d", a.status, a.have_values, a.read_error);
	TEST_ASSERT(a.num_events == 2 && strcmp(a.names[0], "task-clock") == 0 &&
		strcmp(a.names[1], "page-faults") == 0, "event names");
	/* Live values: CPU time grows, and never faster than wall time. */
	TEST_ASSERT(b.raw[0] > a.raw[0], "task-clock did not grow in 2 s");
	TEST_ASSERT(b.time_enabled > a.time_enabled, "time_enabled did not grow");
	TEST_ASSERT(b.raw[0] - a.raw[0] <= b.time_enabled - a.time_enabled + 1000000,
		"task-clock grew %" PRIu64 " ns in %" PRIu64 " ns", b.raw[0] - a.raw[0],
		b.time_enabled - a.time_enabled);
	TEST_ASSERT(!a.multiplexed && a.scaled[0] == a.raw[0] &&
		a.time_enabled == a.time_running, "software events scaled or multiplexed");
	TEST_ASSERT(a.path[0] == RTE_PMU_PATH_SYSCALL, "software event path %s",
		pmu_path_name(a.path[0]));
	TEST_ASSERT(a.cpu[0] != '\0', "no CPU set");
	/* State only (what /pmu/info takes): no read(), no values. */
	TEST_ASSERT_SUCCESS(pmu_lcore_snapshot(worker, false, &b), "state of lcore %u", worker);
	TEST_ASSERT(b.status == 1 && !b.have_values && b.raw[0] == 0 &&
		b.path[0] == RTE_PMU_PATH_SYSCALL, "state-only snapshot: status %d values %d",
		b.status, b.have_values);

	return TEST_SUCCESS;
}

/* An lcore that has not read yet: state without values. */
static int
test_snapshot_not_open(void)
{
	struct pmu_snapshot s;

	TEST_ASSERT_SUCCESS(pmu_lcore_snapshot(rte_lcore_id(), true, &s), "snapshot");
	TEST_ASSERT(s.status == 0 && !s.have_values && s.num_events == 2 &&
		s.path[0] == RTE_PMU_PATH_NONE, "status %d values %d", s.status, s.have_values);

	return TEST_SUCCESS;
}

/* The commands as a client sees them, through the process's own telemetry
 * socket: registered, answering JSON with the live values, and an error
 * reply for a bad parameter.
 */
static int
test_socket_commands(void)
{
	unsigned int lcore = rte_lcore_id();
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char buf[16384], cmd[64], want[96];
	int sock, ret;

	if ((size_t)snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/dpdk_telemetry.v2",
			rte_eal_get_runtime_dir()) >= sizeof(addr.sun_path) ||
			access(addr.sun_path, F_OK) != 0)
		TEST_SKIP("no telemetry socket (EAL started with --no-telemetry)");
	rte_pmu_read(0);
	sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	TEST_ASSERT(sock >= 0, "socket: %s", strerror(errno));
	ret = connect(sock, (struct sockaddr *)&addr, sizeof(addr));
	if (ret == 0 && recv(sock, buf, sizeof(buf), 0) <= 0)
		ret = -1;
	if (ret != 0) {
		close(sock);
		TEST_ASSERT(false, "connect to %s: %s", addr.sun_path, strerror(errno));
	}

	/* Every reply keys events alike: "task-clock" is the key "task_clock"
	 * (telemetry keys take no '-'), its exact name and unit inside.
	 */
	ret = tel_socket_cmd(sock, "/pmu/list", buf, sizeof(buf));
	if (ret == 0 && strcmp(buf, "{\"/pmu/list\":{\"task_clock\":{\"name\":\"task-clock\","
			"\"unit\":\"ns\",\"index\":0},\"page_faults\":{\"name\":\"page-faults\","
			"\"unit\":\"count\",\"index\":1}}}") != 0)
		ret = -EPROTO;
	/* /pmu/info: each lcore's status in a word beside its number, its one
	 * CPU a number, its read path in dpdk-test-pmu's words.
	 */
	if (ret == 0)
		ret = tel_socket_cmd(sock, "/pmu/info", buf, sizeof(buf));
	snprintf(want, sizeof(want), "\"%u\":{\"status\":\"open\",\"status_code\":1,\"cpu\":",
		lcore);
	if (ret == 0 && (strstr(buf, want) == NULL ||
			!isdigit((unsigned char)strstr(buf, want)[strlen(want)]) ||
			strstr(buf, "\"path\":\"read()\"}") == NULL ||
			strstr(buf, "{\"status\":\"not_open\",\"status_code\":0,") == NULL ||
			strstr(buf, "\"task_clock\":{\"name\":\"task-clock\",\"unit\":\"ns\","
				"\"index\":0,") == NULL))
		ret = -EPROTO;
	if (ret == 0) {
		snprintf(cmd, sizeof(cmd), "/pmu/lcore,%u", lcore);
		snprintf(want, sizeof(want), "{\"/pmu/lcore\":{\"lcore_id\":%u,\"status\":"
			"\"open\",\"status_code\":1,\"cpu\":", lcore);
		ret = tel_socket_cmd(sock, cmd, buf, sizeof(buf));
	}
	if (ret == 0 && (strncmp(buf, want, strlen(want)) != 0 ||
			!isdigit((unsigned char)buf[strlen(want)]) ||
			strstr(buf, "\"time_enabled\":") == NULL ||
			strstr(buf, "\"events\":{\"task_clock\":{\"name\":\"task-clock\","
				"\"unit\":\"ns\",\"path\":\"read()\",\"raw\":") == NULL ||
			strstr(buf, "\"page_faults\":{\"name\":\"page-faults\","
				"\"unit\":\"count\",") == NULL ||
			/* The keys of pmu_lib.rst, and no undocumented one. */
			strstr(buf, "\"values_error\":0,") == NULL ||
			strstr(buf, "\"read_errors\":0,") == NULL ||
			strstr(buf, "\"read_error\":") != NULL || strstr(buf, "[") != NULL))
		ret = -EPROTO;
	if (ret == 0) {
		ret = tel_socket_cmd(sock, "/pmu/lcore,abc", buf, sizeof(buf));
		if (ret == 0 && strcmp(buf, "{\"/pmu/lcore\":null}") != 0)
			ret = -EPROTO;
	}
	close(sock);
	TEST_ASSERT_SUCCESS(ret, "telemetry reply: %s (%s)", buf, strerror(-ret));

	return TEST_SUCCESS;
}

/* A name of 118 characters (rte_pmu_add_event() takes 127): task-clock
 * with terms of 0 repeated.
 */
#define LONG_NAME "software/config=1,config1=0,config1=0,config1=0,config1=0,config1=0," \
	"config1=0,config1=0,config1=0,config1=0,config1=0/"
/* Another, its key the same in its first RTE_PMU_EVENT_KEY_MAX characters. */
#define LONG_NAME2 "software/config=1,config1=0,config1=0,config1=0,config1=0,config1=0," \
	"config1=0,config1=0,config1=0,config1=0,config2=0/"

/* Event keys: a character telemetry takes in no key ('=', '-') is written
 * '_', the exact name stays beside the key, whole however long; a key cut
 * to RTE_PMU_EVENT_KEY_MAX that an earlier event has gets "_<index>" in
 * its last characters (it had no room for it: three keys alike).
 */
static int
test_event_keys(void)
{
	char buf[16384], key[RTE_PMU_EVENT_KEY_MAX + 160];
	unsigned int i;
	int sock, ret;

	if (rte_pmu_init() != 0 || rte_pmu_add_event("software/config=1/") != 0 ||
			rte_pmu_add_event("page-faults") != 1)
		TEST_SKIP("no software/config=1/ event here");
	TEST_ASSERT_EQUAL(rte_pmu_add_event(LONG_NAME), 2, "add a name of %zu characters",
		strlen(LONG_NAME));
	TEST_ASSERT_EQUAL(rte_pmu_add_event(LONG_NAME2), 3, "add a name of the same key");
	/* Its key: LONG_NAME's first characters, '_' for '=' and ',', "_3". */
	for (i = 0; i < RTE_PMU_EVENT_KEY_MAX - 3; i++)
		key[i + 1] = LONG_NAME[i] == '=' || LONG_NAME[i] == ',' ? '_' : LONG_NAME[i];
	key[0] = '"';
	snprintf(key + RTE_PMU_EVENT_KEY_MAX - 2, 160, "_3\":{\"name\":\"software/");
	sock = tel_socket_open();
	if (sock == -ENOENT)
		TEST_SKIP("no telemetry socket (EAL started with --no-telemetry)");
	TEST_ASSERT(sock >= 0, "connect to the telemetry socket: %s", strerror(-sock));
	ret = tel_socket_cmd(sock, "/pmu/info", buf, sizeof(buf));
	close(sock);
	TEST_ASSERT_SUCCESS(ret, "/pmu/info: %s", strerror(-ret));
	/* software/config=1/ is task-clock: in ns, as its attr says. */
	TEST_ASSERT(strstr(buf, "\"events\":{\"software/config_1/\":{\"name\":"
		"\"software/config=1/\",\"unit\":\"ns\",\"index\":0,") != NULL &&
		strstr(buf, "\"page_faults\":{\"name\":\"page-faults\",\"unit\":\"count\","
		"\"index\":1,") != NULL &&
		strstr(buf, "\"name\":\"" LONG_NAME "\"") != NULL && strstr(buf, key) != NULL,
		"/pmu/info: %s (wanted %s)", buf, key);

	return TEST_SUCCESS;
}

/* A hardware counter of another lcore, where the machine has one: the
 * group read gives it, growing.
 */
static int
test_snapshot_hardware(void)
{
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	struct pmu_snapshot a, b;
	int ret;

	if (worker >= RTE_MAX_LCORE)
		TEST_SKIP("needs a worker lcore (-l 0-1)");
	if (rte_pmu_add_event("cycles") != 0)
		TEST_SKIP("no cycles event here (no hardware PMU)");
	TEST_ASSERT_EQUAL(rte_pmu_add_event("task-clock"), 1, "add task-clock");
	ret = two_snapshots(worker, &a, &b);
	TEST_ASSERT_SUCCESS(ret, "snapshots of lcore %u", worker);
	TEST_ASSERT(a.have_values && b.raw[0] > a.raw[0] && b.raw[1] > a.raw[1],
		"cycles %" PRIu64 " -> %" PRIu64 ", task-clock %" PRIu64 " -> %" PRIu64,
		a.raw[0], b.raw[0], a.raw[1], b.raw[1]);
	TEST_ASSERT(a.path[0] != RTE_PMU_PATH_NONE, "no read path");
	printf("lcore %u cycles: %" PRIu64 " in %" PRIu64 " ns, read path %s\n", worker,
		b.raw[0] - a.raw[0], b.time_enabled - a.time_enabled, pmu_path_name(a.path[0]));

	return TEST_SUCCESS;
}

/* Initialised with no event: /pmu/info lists the lcores in use (their
 * status ENODATA), not every lcore id, and /pmu/lcore of an id no lcore
 * has gets the error reply.
 */
static int
test_no_event(void)
{
	char buf[16384], want[32];
	int sock, ret;

	TEST_ASSERT_SUCCESS(rte_pmu_init(), "init");
	sock = tel_socket_open();
	if (sock == -ENOENT)
		TEST_SKIP("no telemetry socket (EAL started with --no-telemetry)");
	TEST_ASSERT(sock >= 0, "connect to the telemetry socket: %s", strerror(-sock));
	ret = tel_socket_cmd(sock, "/pmu/info", buf, sizeof(buf));
	/* The last lcore id, which no lcore of this test has. */
	snprintf(want, sizeof(want), "\"%u\":", RTE_MAX_LCORE - 1);
	if (ret == 0 && (strstr(buf, "{\"status\":\"ENODATA\"") == NULL ||
			strstr(buf, want) != NULL || strstr(buf, "\"cpu\":\"\"") != NULL))
		ret = -EPROTO;
	if (ret == 0) {
		printf("/pmu/info with no event: %.300s\n", buf);
		snprintf(want, sizeof(want), "/pmu/lcore,%u", RTE_MAX_LCORE - 1);
		ret = tel_socket_cmd(sock, want, buf, sizeof(buf));
		if (ret == 0 && strcmp(buf, "{\"/pmu/lcore\":null}") != 0)
			ret = -EPROTO;
	}
	close(sock);
	TEST_ASSERT_SUCCESS(ret, "telemetry reply with no event: %s (%s)", buf, strerror(-ret));

	return TEST_SUCCESS;
}

static int
pmu_init_only(void)
{
	return rte_pmu_init() == 0 ? TEST_SUCCESS : TEST_FAILED;
}

static struct unit_test_suite pmu_telemetry_suite = {
	.suite_name = "pmu telemetry autotest",
	.unit_test_cases = {
		TEST_CASE(test_read_parse),
		TEST_CASE(test_not_initialised),
		TEST_CASE(test_snapshot_read_formats),
		TEST_CASE_ST(tel_pmu_setup, tel_pmu_teardown, test_lcore_bad_params),
		TEST_CASE_ST(tel_pmu_setup, tel_pmu_teardown, test_no_param_commands),
		TEST_CASE_ST(tel_pmu_setup, tel_pmu_teardown, test_snapshot_not_open),
		TEST_CASE_ST(tel_pmu_setup, tel_pmu_teardown, test_snapshot_other_lcore),
		TEST_CASE_ST(tel_pmu_setup, tel_pmu_teardown, test_socket_commands),
		TEST_CASE_ST(NULL, tel_pmu_teardown, test_event_keys),
		TEST_CASE_ST(NULL, tel_pmu_teardown, test_no_event),
		TEST_CASE_ST(pmu_init_only, tel_pmu_teardown, test_snapshot_hardware),
		TEST_CASES_END()
	}
};

static int
test_pmu_telemetry(void)
{
	return unit_test_suite_runner(&pmu_telemetry_suite);
}

REGISTER_FAST_TEST(pmu_telemetry_autotest, true, true, test_pmu_telemetry);
