/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* librte_pmu_preload.so: per-stage counters of a DPDK program nobody
 * changed, loaded with LD_PRELOAD (usertools/dpdk-pmu-run). It defines
 * the DPDK calls it wraps; each calls the real one (dlsym(RTLD_NEXT))
 * and adds its part after it:
 *  - rte_eal_init(): rte_pmu_init(), the events, the sampling period;
 *  - rte_eth_dev_start(): the port's rx and tx callbacks (ports.c);
 *  - rte_graph_create(): rte_pmu_graph_enable() (librte_pmu_graph, opened
 *    then: a program without lib/graph never calls it);
 *  - rte_pmu_init(): a program that uses rte_pmu itself keeps it, the
 *    preload steps aside where nothing was measured yet;
 *  - rte_thread_unregister(): the lcore's figures kept for the report
 *    (OVS-DPDK's PMD threads unregister before the program exits);
 *  - rte_eal_cleanup(), and an atexit handler: the report (report.c);
 *  - sigaction(), signal(): the report at SIGINT, SIGTERM, SIGHUP first,
 *    then the program's handler or its death by the signal (signals.c).
 * Where nothing is measured, the line saying why goes to the -o file too,
 * and a JSON object with no stage to the --json file (report.c).
 * Settings from the environment: RTE_PMU_RUN_EVENTS, RTE_PMU_RUN_SAMPLING,
 * RTE_PMU_RUN_INTERVAL, RTE_PMU_RUN_OUTPUT, RTE_PMU_RUN_JSON. Nothing is
 * written to stdout, and the exit status is the program's.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_graph.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "preload_env.h"
#include "preload_mark.h"
#include "preload_nothing.h"
#include "preload_run.h"
#include "preload_ports.h"
#include "preload_report.h"
#include "preload_signals.h"

/* librte_pmu_graph, opened at the program's first graph. */
#define PRELOAD_GRAPH_LIB "librte_pmu_graph.so.0"

static bool eal_called;         /* the program called rte_eal_init() */
static bool stepped_aside;      /* the program uses rte_pmu itself */
static bool pmu_own_call;       /* rte_pmu_init() called by the preload */
static bool measured;           /* a port or a graph got stages */
static bool eal_failed;         /* its rte_eal_init() failed (and none succeeded) */
static bool eal_in_init;        /* in its rte_eal_init(), which has not returned */
/* What rte_pmu logged at the preload's first rte_pmu_init() (its warnings
 * are logged once a process): given back to a program that calls
 * rte_pmu_init() itself, as it would have seen it without the preload.
 */
static char *init_log;
/* Standard error as the program started: where the last line goes when
 * the program closed stderr at exit (coreutils' close_stdout() does).
 */
static int err_fd = -1;
/* RTE_PMU_RUN_PID: the process dpdk-pmu-run started (0: not said). */
static pid_t run_pid;

/* The real @p name, or NULL (said once per name by the caller). */
static void *
real_of(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

/* An unsigned setting from the environment, @p def where unset; false
 * (said where @p say) where it is not a number from @p min to @p max.
 */
static bool
env_uint(const char *name, unsigned int def, unsigned int min, unsigned int max,
	bool say, unsigned int *v)
{
	const char *s = getenv(name);
	unsigned long n;
	char *end;

	*v = def;
	if (s == NULL || s[0] == '\0')
		return true;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || n < min || n > max) {
		if (say)
			PRELOAD_MSG("%s=%s: not a number from %u to %u", name, s, min, max);
		return false;
	}
	*v = (unsigned int)n;

	return true;
}

/* The files and the sampling period from the environment, in preload_run,
 * before anything is reported: every report writes them, the one of a
 * run that measured nothing too.
 */
static void
settings_read(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	preload_run.output = getenv("RTE_PMU_RUN_OUTPUT");
	preload_run.json = getenv("RTE_PMU_RUN_JSON");
	if (preload_run.output != NULL && preload_run.output[0] == '\0')
		preload_run.output = NULL;
	if (preload_run.json != NULL && preload_run.json[0] == '\0')
		preload_run.json = NULL;
	env_uint("RTE_PMU_RUN_SAMPLING", PRELOAD_DEFAULT_SAMPLING, 1, PRELOAD_SAMPLING_MAX,
		false, &preload_run.sampling);
}

/* Nothing measured, for @p why (printf-like): the line on standard error,
 * in the -o file, and an empty --json file (preload_report_nothing()).
 * @p fd: the standard error to say it on, or -1: none.
 */
static void __rte_format_printf(2, 3)
nothing_measured(int fd, const char *why, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, why);
	vsnprintf(line, sizeof(line), why, ap);
	va_end(ap);
	if (fd >= 0)
		dprintf(fd, PRELOAD_TAG "%s\n", line);
	settings_read();
	/* A process that never reached DPDK (a shell, a command beside the
	 * program) says so only into an empty file.
	 */
	preload_report_nothing(line, fd, !eal_called && !eal_failed);
}

/* The log of librte_pmu while @p fn(@p arg) runs: kept from the program's
 * log; on failure (negative return) its first line, without "PMU: ", in
 * @p why (else strerror()).
 */
static int
pmu_init_own(const char *arg __rte_unused)
{
	int ret;

	pmu_own_call = true;
	ret = rte_pmu_init();
	pmu_own_call = false;

	return ret;
}

static int
log_caught(int (*fn)(const char *), const char *arg, char *why, size_t len)
{
	FILE *saved = rte_log_get_stream();
	char *text = NULL, *nl;
	size_t size = 0;
	FILE *mem;
	int ret;

	why[0] = '\0';
	mem = open_memstream(&text, &size);
	if (mem == NULL)
		return fn(arg);
	rte_openlog_stream(mem);
	ret = fn(arg);
	rte_openlog_stream(saved);
	fclose(mem);
	if (fn == pmu_init_own && init_log == NULL && text != NULL && text[0] != '\0')
		init_log = strdup(text);
	if (ret < 0 && text != NULL && text[0] != '\0') {
		nl = strchr(text, '\n');
		if (nl != NULL)
			*nl = '\0';
		snprintf(why, len, "%s", strncmp(text, "PMU: ", 5) == 0 ? text + 5 : text);
	} else if (ret < 0) {
		snprintf(why, len, "%s", strerror(-ret));
	}
	free(text);

	return ret;
}


/* The next name of a comma-separated event list at *@p s (a comma between
 * a PMU's slashes is one of its terms', as perf reads -e), cut in place
 * and *@p s moved past it; NULL at the end.
 */
static char *
event_next(char **s)
{
	char *name;
	size_t n;

	while (**s == ',')
		(*s)++;
	if (**s == '\0')
		return NULL;
	name = *s;
	n = rte_pmu_event_name_len(name);
	*s = name + n + (name[n] == ',');
	name[n] = '\0';
	return name;
}

/* Add the events of the comma-separated @p list; @p quiet: the failures
 * not said.
 */
static void
events_add(const char *list, bool quiet)
{
	char why[256], *copy, *name, *save;
	int ret;

	copy = strdup(list);
	if (copy == NULL)
		return;
	for (save = copy; (name = event_next(&save)) != NULL;) {
		if (preload_run.num_events == RTE_MAX_NUM_GROUP_EVENTS) {
			PRELOAD_MSG("event %s: more than %d events: not counted", name,
				RTE_MAX_NUM_GROUP_EVENTS);
			continue;
		}
		ret = log_caught(rte_pmu_add_event, name, why, sizeof(why));
		if (ret < 0) {
			if (!quiet)
				PRELOAD_MSG("event %s: not counted: %s", name, why);
			continue;
		}
		/* Indexes are given in order, from 0. */
		snprintf(preload_run.events[preload_run.num_events++], PRELOAD_EVENT_NAME_MAX,
			"%s", name);
	}
	free(copy);
}

/* Before the program's main(): each event of RTE_PMU_RUN_EVENTS opens
 * here, else the run ends with perf's kind of message and status 2, the
 * program not started; RTE_PMU_RUN_EVENTS_OPTIONAL=1 (--events-optional)
 * leaves the events that do not open out instead, as at rte_eal_init().
 */
RTE_INIT(preload_events_check)
{
	const char *events = getenv("RTE_PMU_RUN_EVENTS");
	const char *optional = getenv("RTE_PMU_RUN_EVENTS_OPTIONAL");
	char why[256], *copy, *name, *save;
	bool refused = false;
	int ret;

	if (events == NULL || events[0] == '\0' || getenv("RTE_PMU_RUN_SAMPLING") == NULL ||
			(optional != NULL && strcmp(optional, "1") == 0))
		return;
	ret = log_caught(pmu_init_own, NULL, why, sizeof(why));
	if (ret != 0) {
		PRELOAD_MSG("rte_pmu_init: %s: no event can be counted "
			"(--events-optional runs the program all the same)", why);
		fflush(PRELOAD_OUT);
		settings_read();
		preload_report_nothing("the program was not started: nothing measured",
			STDERR_FILENO, false);
		_exit(2);
	}
	copy = strdup(events);
	save = copy;
	for (name = copy != NULL ? event_next(&save) : NULL; name != NULL;
			name = event_next(&save)) {
		ret = log_caught(rte_pmu_add_event, name, why, sizeof(why));
		if (ret >= 0)
			continue;
		refused = true;
		if (ret == -ENOENT || ret == -EINVAL)
			PRELOAD_MSG("event syntax error: '%s': %s", name, why);
		else
			PRELOAD_MSG("event '%s' cannot be counted here: %s", name, why);
	}
	free(copy);
	rte_pmu_fini();
	if (refused) {
		PRELOAD_MSG("the program was not started (--events-optional runs it, "
			"counting the events that open)");
		fflush(PRELOAD_OUT);
		settings_read();
		preload_report_nothing("the program was not started: nothing measured",
			STDERR_FILENO, false);
		_exit(2);
	}
}

static void
preload_at_exit(void)
{
	preload_report_final();
}

/* The events counted instead of the defaults, as added (one refused, as
 * context-switches at perf_event_paranoid 2, is not named).
 */
static void
fallback_say(void)
{
	char names[RTE_MAX_NUM_GROUP_EVENTS * PRELOAD_EVENT_NAME_MAX] = "";
	unsigned int e;

	for (e = 0; e < preload_run.num_events; e++) {
		if (e != 0)
			strlcat(names, ",", sizeof(names));
		strlcat(names, preload_run.events[e], sizeof(names));
	}
	PRELOAD_MSG("%s not counted here: counting %s instead (-e names others)",
		PRELOAD_DEFAULT_EVENTS, names);
}

/* After the program's rte_eal_init(): the run set up from the environment. */
static void
preload_start(void)
{
	const char *events = getenv("RTE_PMU_RUN_EVENTS");
	unsigned int sampling, interval;
	char why[256];
	int ret;

	settings_read();
	if (!env_uint("RTE_PMU_RUN_SAMPLING", PRELOAD_DEFAULT_SAMPLING, 1, PRELOAD_SAMPLING_MAX,
			true, &sampling) ||
			!env_uint("RTE_PMU_RUN_INTERVAL", 0, 0, PRELOAD_INTERVAL_MAX, true,
			&interval)) {
		const char *sv = getenv("RTE_PMU_RUN_SAMPLING"), *iv = getenv("RTE_PMU_RUN_INTERVAL");

		nothing_measured(err_fd, "RTE_PMU_RUN_SAMPLING '%s' or RTE_PMU_RUN_INTERVAL "
			"'%s' not a number in range: nothing measured", sv != NULL ? sv : "",
			iv != NULL ? iv : "");
		return;
	}
	preload_run.sampling = sampling;
	preload_run.interval_ms = interval;
	/* Its ports' callbacks are the process's own: a secondary's bursts on
	 * ports the primary started are not seen, here nor there.
	 */
	if (rte_eal_process_type() == RTE_PROC_SECONDARY)
		PRELOAD_MSG("a secondary process: the ports the primary started are "
			"not measured here (only the functions it launches on lcores)");

	ret = log_caught(pmu_init_own, NULL, why, sizeof(why));
	if (ret != 0) {
		nothing_measured(err_fd, "rte_pmu_init: %s: nothing measured", why);
		return;
	}
	if (events != NULL && events[0] != '\0') {
		events_add(events, false);
	} else {
		/* As dpdk-test-pmu: its defaults, else the TSC alone (read in
		 * user space, so that a measured call costs tens of ns, not a
		 * read()), else the software events.
		 */
		events_add(PRELOAD_DEFAULT_EVENTS, true);
		if (preload_run.num_events == 0) {
			events_add(PRELOAD_FALLBACK_TSC, true);
			if (preload_run.num_events == 0)
				events_add(PRELOAD_FALLBACK_EVENTS, false);
			if (preload_run.num_events != 0)
				fallback_say();
		}
	}
	if (preload_run.num_events == 0)
		PRELOAD_MSG("no event can be counted: calls and packets only");
	ret = rte_pmu_stage_sampling_set(RTE_PMU_STAGE_ALL, sampling);
	if (ret != 0)
		PRELOAD_MSG("sampling 1 in %u: %s", sampling, strerror(-ret));
	preload_run.active = true;
	preload_run.ports_on = true;
	atexit(preload_at_exit);
	ret = preload_signals_report(preload_report_final);
	if (ret != 0)
		PRELOAD_MSG("no reporter thread (%s): no table where a signal ends the program",
			strerror(-ret));
	if (interval != 0) {
		ret = preload_report_interval_start();
		if (ret != 0)
			PRELOAD_MSG("--interval: no thread (%s): the table at exit only",
				strerror(-ret));
	}
}

/* A watched signal kills the program in its rte_eal_init(), or after it
 * failed (rte_panic(): abort(), no exit handler), where the program set
 * no handler for it: said before it dies, from the handler.
 */
static void
eal_init_killed(int sig)
{
	if (eal_in_init || eal_failed)
		preload_nothing_dying(sig, err_fd, eal_failed);
}

int
rte_eal_init(int argc, char **argv)
{
	int (*real)(int, char **) = real_of("rte_eal_init");
	int ret;

	preload_env();
	if (real == NULL) {
		PRELOAD_MSG("rte_eal_init not found after the preload");
		rte_errno = ENOSYS;
		return -1;
	}
	preload_mark_set();
	eal_in_init = true;
	preload_signals_early(eal_init_killed);
	ret = real(argc, argv);
	eal_in_init = false;
	if (ret < 0 && !eal_called)
		eal_failed = true;
	preload_signals_early(eal_failed ? eal_init_killed : NULL);
	if (ret < 0 || eal_called)
		return ret;
	eal_failed = false;
	eal_called = true;
	preload_start();

	return ret;
}

int
rte_eal_cleanup(void)
{
	int (*real)(void) = real_of("rte_eal_cleanup");

	/* The figures while EAL and the ports still stand. */
	preload_report_final();
	if (real == NULL)
		return -ENOSYS;

	return real();
}

int
rte_eth_dev_start(uint16_t port_id)
{
	int (*real)(uint16_t) = real_of("rte_eth_dev_start");
	int ret;

	if (real == NULL)
		return -ENOSYS;
	ret = real(port_id);
	if (ret == 0 && preload_run.active) {
		measured = true;
		preload_port_started(port_id);
	}

	return ret;
}

void
rte_thread_unregister(void)
{
	void (*real)(void) = real_of("rte_thread_unregister");
	unsigned int lcore = rte_lcore_id();

	if (preload_run.active && lcore != LCORE_ID_ANY)
		preload_lcore_leaving(lcore);
	if (real != NULL)
		real();
}

/* Every node of graph @p name a stage, through librte_pmu_graph. */
static void
graph_enable(const char *name)
{
	static int (*enable)(const char *);
	static bool opened;
	void *lib;
	int ret;

	if (!opened) {
		opened = true;
		lib = dlopen(PRELOAD_GRAPH_LIB, RTLD_NOW);
		if (lib != NULL)
			enable = (int (*)(const char *))dlsym(lib, "rte_pmu_graph_enable_by_name");
		if (enable == NULL)
			PRELOAD_MSG("graphs not counted: %s", dlerror());
	}
	if (enable == NULL)
		return;
	ret = enable(name);
	if (ret != 0)
		PRELOAD_MSG("graph %s: not counted: %s", name, strerror(-ret));
}

rte_graph_t
rte_graph_create(const char *name, struct rte_graph_param *prm)
{
	rte_graph_t (*real)(const char *, struct rte_graph_param *) =
		real_of("rte_graph_create");
	rte_graph_t id;

	if (real == NULL) {
		rte_errno = ENOSYS;
		return RTE_GRAPH_ID_INVALID;
	}
	id = real(name, prm);
	if (id != RTE_GRAPH_ID_INVALID && preload_run.active) {
		/* The nodes are the stages: the ports' would not nest in them. */
		preload_run.ports_on = false;
		measured = true;
		graph_enable(name);
	}

	return id;
}

int
rte_pmu_init(void)
{
	int (*real)(void) = real_of("rte_pmu_init");

	if (real == NULL)
		return -ENOSYS;
	if (pmu_own_call || !preload_run.active)
		return real();
	/* The program's own rte_pmu: it keeps it. */
	if (!measured) {
		preload_run.active = false;
		preload_run.ports_on = false;
		stepped_aside = true;
		/* The files say so: the program's own figures are its to
		 * report, none is dpdk-pmu-run's. First: no report (an
		 * interval's) reads the stages after it, while they go.
		 */
		nothing_measured(err_fd, "the program uses rte_pmu itself: dpdk-pmu-run "
			"steps aside: nothing measured");
		rte_pmu_fini();
		/* Its warnings, which the preload's call took. */
		if (init_log != NULL)
			fputs(init_log, rte_log_get_stream());
	} else {
		PRELOAD_MSG("the program uses rte_pmu itself, after its ports started: "
			"its events are added to dpdk-pmu-run's");
	}

	return real();
}

/* The program's rte_pmu_fini(), where it called rte_pmu_init() after its
 * ports started: the report first, while the stages stand.
 */
void
rte_pmu_fini(void)
{
	void (*real)(void) = real_of("rte_pmu_fini");

	if (preload_run.active && measured && !stepped_aside)
		preload_report_final();
	if (real != NULL)
		real();
}

static ssize_t
discard(void *cookie __rte_unused, const char *buf __rte_unused, size_t size)
{
	return size;
}

/* Standard error kept for the last line (closed with FD_CLOEXEC), else
 * none (not whatever file takes fd 2: EAL's shared config), and the files
 * read from the environment as the program starts: it may change its
 * environment before it exits.
 */
RTE_INIT(preload_err_fd)
{
	err_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	preload_err = err_fd >= 0 ? fdopen(fcntl(err_fd, F_DUPFD_CLOEXEC, 3), "w") :
		fopencookie(NULL, "w", (cookie_io_functions_t){ .write = discard });
	if (preload_err != NULL)
		setvbuf(preload_err, NULL, _IOLBF, 0);
	if (getenv("RTE_PMU_RUN_PID") != NULL)
		run_pid = (pid_t)atol(getenv("RTE_PMU_RUN_PID"));
	preload_mark_init(run_pid);
	settings_read();
}

/* Where the program never reached its part: said at exit, once, on the
 * program's first stderr (it may have closed stderr by now), and in the
 * -o and --json files.
 */
RTE_FINI(preload_fini)
{
	/* No stderr where the program started without one (fd 2 may be a
	 * file of its own now).
	 */
	int fd = err_fd;

	if (eal_in_init && !eal_called)
		nothing_measured(fd, "the program ended in its rte_eal_init(): nothing measured");
	else if (eal_failed)
		nothing_measured(fd, "the program's rte_eal_init() failed: nothing measured");
	else if (!eal_called && !stepped_aside && !preload_mark_seen())
		/* Said by the process dpdk-pmu-run started only: not by the
		 * commands of its script, nor its forks, around the program;
		 * nor by it where a process of the run reached rte_eal_init()
		 * (its report, or its line, is the run's).
		 */
		nothing_measured(run_pid == 0 || run_pid == getpid() ? fd : -1,
			"%s did not call rte_eal_init() of DPDK's shared libraries (not a DPDK "
			"program, or DPDK linked statically): nothing measured",
			program_invocation_short_name);
}
