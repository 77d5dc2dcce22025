/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* dpdk-test-pmu: count events around a workload on every worker lcore and
 * report them like perf stat: per lcore and in total, with ratios, once or
 * at every interval, as a table, perf stat's CSV (-x) or JSON (-j), or the
 * tool's own CSV (--csv) or JSON (--json).
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_cycles.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "events.h"
#include "list.h"
#include "measure.h"
#include "options.h"
#include "output.h"
#include "repeat.h"
#include "report.h"

/* How often the main lcore looks for the workers' first snapshots. */
#define WAIT_POLL_US 100

static const char *prgname = "dpdk-test-pmu";
static struct tool_options opts;
static struct tool_events evs;
static struct tool_report report;
static struct tool_snap prev[RTE_MAX_LCORE];
static struct rte_pmu_stage_stats stage_prev[RTE_MAX_LCORE][TOOL_STAGES];
static volatile sig_atomic_t signalled;
/* Where the report goes, for messages: "stdout" or "-o FILE". */
static char output_where[PATH_MAX + 4] = "stdout";
/* The errno of the first write of the report that failed; 0: none failed. */
static int output_errno;

/* The first SIGINT or SIGTERM ends the rounds after the one running (a
 * report follows); a second one ends the process at once, as a round may
 * last long (--iterations).
 */
static void
on_signal(int sig __rte_unused)
{
	signalled = 1;
	tool_measure_stop();
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* Sleep until @p t (CLOCK_MONOTONIC ns). Returns false when a signal came. */
static bool
sleep_until(uint64_t t)
{
	struct timespec ts = {
		.tv_sec = t / 1000000000,
		.tv_nsec = t % 1000000000,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		if (signalled)
			return false;

	return signalled == 0;
}

/* Flush stdout; false when a write to it failed (now or since the last
 * call), said once on stderr. Callers clear errno before they write: a
 * line-buffered stdout drops what it failed to write, and the failed
 * write's errno is then the only trace of the cause.
 */
static bool
output_ok(void)
{
	int err = errno;

	if (output_errno != 0)
		return false;
	if (fflush(stdout) != 0)
		err = errno;
	else if (!ferror(stdout))
		return true;
	output_errno = err != 0 ? err : EIO;
	fprintf(stderr, "%s: %s: %s\n", prgname, output_where, strerror(output_errno));

	return false;
}

/* Report every counting lcore from prev[] to its latest snapshot, which
 * becomes prev[] (with --repeat, only after the last run: the mean of
 * every run's; with --repeat and --interval, each run's intervals as they
 * come, as perf stat -r -I). Returns the number of lcores that failed,
 * one more when the report could not be written (which stops the rounds).
 */
static unsigned int
report_all(const struct tool_output *out, unsigned int interval, double time_s)
{
	static unsigned int runs;
	unsigned int lcore_id, failed = 0;
	struct tool_lcore *l;
	struct tool_snap snap;

	tool_report_init(&report, &opts, &evs, interval, time_s);
	for (lcore_id = 0; lcore_id < RTE_MAX_LCORE; lcore_id++) {
		l = tool_measure_state(lcore_id);
		if (!l->ran)
			continue;
		if (l->work_ret != 0 || !tool_measure_snapshot(l, &snap)) {
			tool_report_add(&report, lcore_id, l, &prev[lcore_id], NULL);
		} else {
			tool_report_add(&report, lcore_id, l, &prev[lcore_id], &snap);
			prev[lcore_id] = snap;
			tool_report_add_stages(&report, lcore_id, stage_prev[lcore_id]);
		}
		if (report.rec[report.count - 1].status != 1)
			failed++;
	}
	tool_report_finish(&report);
	if (opts.repeat > 1 && interval == 0) {
		tool_repeat_add(&report);
		if (++runs < opts.repeat)
			return failed;
		tool_repeat_finish(&report);
	}
	errno = 0;
	out->report(&report);
	if (!output_ok()) {
		tool_measure_stop();
		failed++;
	}

	return failed;
}

/* Wait until every worker published a snapshot; take it as prev[]. The
 * wait sleeps rather than spins, as the main lcore does for the rest of the
 * run: the workers calibrate their read overhead meanwhile, under the same
 * conditions as their rounds. (On the CI VM this alone did not stop the
 * calibration overestimating; measure.c says what did.)
 */
static void
wait_first(void)
{
	unsigned int lcore_id;
	struct tool_lcore *l;

	RTE_LCORE_FOREACH_WORKER(lcore_id) {
		l = tool_measure_state(lcore_id);
		while (!tool_measure_snapshot(l, &prev[lcore_id]) ||
				__atomic_load_n(&l->stage_ready, __ATOMIC_ACQUIRE) == 0)
			rte_delay_us_sleep(WAIT_POLL_US);
		memcpy(stage_prev[lcore_id], l->stage_base, sizeof(l->stage_base));
	}
}

/* Rounds on and on; a report per interval, or one at the end. A signal
 * ends the rounds early: with -I, the interval it cut short is reported
 * as far as it went, as perf stat -I does.
 */
static unsigned int
run_continuous(const struct tool_output *out)
{
	uint64_t start, target, interval_ns, duration_ns, k;
	unsigned int failed = 0;
	bool cut = false;

	interval_ns = opts.interval_ms * 1000000;
	duration_ns = tool_options_end_ns(&opts);
	wait_first();
	start = now_ns();
	for (k = 1; ; k++) {
		target = interval_ns != 0 ? k * interval_ns : duration_ns;
		if (duration_ns != 0 && target > duration_ns)
			target = duration_ns;
		if (!sleep_until(start + target)) {
			cut = true;
			break;
		}
		if (interval_ns != 0)
			failed = RTE_MAX(failed, report_all(out, k,
				(double)(now_ns() - start) / 1e9));
		if (output_errno != 0)
			break;
		if (duration_ns != 0 && target == duration_ns)
			break;
	}
	tool_measure_stop();
	rte_eal_mp_wait_lcore();
	/* The workers' last snapshots are those of their last rounds. */
	if (interval_ns == 0 && output_errno == 0)
		failed = report_all(out, 0, (double)(now_ns() - start) / 1e9);
	else if (cut && output_errno == 0)
		failed = RTE_MAX(failed, report_all(out, k, (double)(now_ns() - start) / 1e9));

	return failed;
}

static int
launch(void)
{
	unsigned int lcore_id;
	int ret;

	RTE_LCORE_FOREACH_WORKER(lcore_id) {
		ret = rte_eal_remote_launch(tool_measure_lcore, NULL, lcore_id);
		if (ret != 0) {
			fprintf(stderr, "%s: cannot launch lcore %u: %s\n", prgname, lcore_id,
				strerror(-ret));
			tool_measure_stop();
			rte_eal_mp_wait_lcore();
			return ret;
		}
	}

	return 0;
}

/* One run: the rounds, then their report (with --repeat, the last run's
 * report gives the mean of all of them).
 */
static int
run_once(const struct tool_output *out, unsigned int workers)
{
	unsigned int lcore_id;
	uint64_t start;

	start = now_ns();
	if (workers == 0) {
		tool_measure_lcore(NULL);
		prev[rte_lcore_id()] = tool_measure_state(rte_lcore_id())->base;
		memcpy(stage_prev[rte_lcore_id()], tool_measure_state(rte_lcore_id())->stage_base,
			sizeof(stage_prev[0]));
	} else if (launch() != 0) {
		return -1;
	}
	if (tool_options_continuous(&opts))
		return run_continuous(out) != 0 ? -1 : 0;

	rte_eal_mp_wait_lcore();
	RTE_LCORE_FOREACH_WORKER(lcore_id) {
		prev[lcore_id] = tool_measure_state(lcore_id)->base;
		memcpy(stage_prev[lcore_id], tool_measure_state(lcore_id)->stage_base,
			sizeof(stage_prev[0]));
	}
	return report_all(out, 0, (double)(now_ns() - start) / 1e9) != 0 ? -1 : 0;
}

static int
run(void)
{
	unsigned int workers = rte_lcore_count() - 1;
	const struct tool_output *out = tool_output_get(&opts);
	unsigned int k;
	int ret = 0;

	if (tool_options_continuous(&opts) && workers == 0) {
		fprintf(stderr, "%s: --interval, --duration and --timeout need a worker lcore "
			"(EAL option -l with two lcores or more)\n", prgname);
		return -EINVAL;
	}
	tool_measure_init(&opts, &evs);
	if (tool_options_continuous(&opts)) {
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
	}
	errno = 0;
	out->begin(&opts, &evs, workers != 0 ? workers : 1);
	if (!output_ok())
		return -EIO;
	for (k = 0; k < opts.repeat && !signalled && output_errno == 0; k++) {
		if (k != 0)
			tool_measure_rearm();
		if (run_once(out, workers) != 0)
			ret = -1;
	}

	return ret;
}

/* --help (-h) or --version among the EAL options (before "--"). --help:
 * the tool's usage, then EAL's, which rte_eal_init() prints before it exits
 * with status 0. Returns true when the program is done (close_output()
 * then says whether stdout took the text).
 */
static bool
early_option(int argc, char **argv)
{
	char *eal_help[] = { argv[0], (char *)(uintptr_t)"--help", NULL };
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--version") == 0) {
			tool_options_version(basename(argv[0]));
			return true;
		}
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			tool_options_usage(stdout, basename(argv[0]));
			printf("\nEAL options, before \"--\" (DPDK's EAL --help):\n");
			/* EAL prints its part and exits: ours is checked first. */
			if (output_ok())
				rte_eal_init(2, eal_help);
			return true;
		}
	}

	return false;
}

/* The end of the output: flush and close stdout (a file's last write may
 * fail only there). Returns false, said on stderr, when a write failed.
 * As for output_ok(), errno is cleared before the last writes.
 */
static bool
close_output(void)
{
	if (!output_ok())
		return false;
	errno = 0;
	if (fclose(stdout) != 0) {
		fprintf(stderr, "%s: %s: %s\n", prgname, output_where,
			strerror(errno != 0 ? errno : EIO));
		return false;
	}

	return true;
}

/* Standard input, output and error that the tool was started without:
 * /dev/null read-only in their place (writes fail, EBADF, as on a closed
 * one), so that no file EAL opens takes them: its shared config would get
 * the report (a closed stdout hung the tool in EAL's lock).
 */
static void
std_fds_hold(void)
{
	int fd;

	for (fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDONLY) != fd)
			break;
}

int
main(int argc, char **argv)
{
	int ret, status = EXIT_FAILURE;

	std_fds_hold();
	/* A closed pipe is a write error, said as any other (SIGPIPE ended
	 * the tool with no word: status 141).
	 */
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	errno = 0;
	if (early_option(argc, argv))
		return close_output() ? EXIT_SUCCESS : EXIT_FAILURE;
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "%s: rte_eal_init failed: %s\n", prgname, strerror(rte_errno));
		return EXIT_FAILURE;
	}
	argc -= ret;
	argv += ret;
	prgname = basename(argv[0]);
	argv[0] = (char *)(uintptr_t)prgname;

	errno = 0;
	ret = tool_options_parse(argc, argv, &opts);
	if (ret != 0) {
		/* ret > 0: --help or --version, the text on stdout. */
		status = ret > 0 && close_output() ? EXIT_SUCCESS : EXIT_FAILURE;
		tool_options_free(&opts);
		rte_eal_cleanup();
		return status;
	}
	if (opts.output != NULL) {
		if (freopen(opts.output, "w", stdout) == NULL) {
			fprintf(stderr, "%s: -o %s: %s\n", prgname, opts.output,
				strerror(errno));
			tool_options_free(&opts);
			rte_eal_cleanup();
			return EXIT_FAILURE;
		}
		snprintf(output_where, sizeof(output_where), "-o %s", opts.output);
	}

	ret = rte_pmu_init();
	if (ret != 0) {
		fprintf(stderr, "%s: rte_pmu_init failed: %s\n", prgname, strerror(-ret));
		tool_options_free(&opts);
		rte_eal_cleanup();
		return EXIT_FAILURE;
	}
	errno = 0;
	if (opts.list)
		status = list_events(stdout) == 0 && output_ok() ? EXIT_SUCCESS :
			EXIT_FAILURE;
	else if (tool_events_setup(&evs, opts.events_given ? opts.events : NULL) == 0 &&
			run() == 0)
		status = EXIT_SUCCESS;

	rte_pmu_fini();
	rte_eal_cleanup();
	tool_options_free(&opts);
	if (!close_output())
		status = EXIT_FAILURE;

	return status;
}
