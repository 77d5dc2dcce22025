/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* What the preload prints: the stage table (table.c) on stderr, each
 * line prefixed, or in the -o file; the JSON file at exit; every
 * --interval, the figures of that interval, each line led by the seconds
 * since the start as perf stat -I does, from a control thread, and at
 * exit the interval the end cut short; where nothing was measured, the
 * line saying why in the -o file and an empty JSON file.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_pmu_stage.h>

#include "preload_nothing.h"
#include "preload_run.h"
#include "preload_report.h"
#include "preload_signals.h"
#include "preload_table.h"

/* One report at a time; none after the final one. */
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static bool final_done;
/* The reports' tables on stderr, in order: taken under report_lock, and
 * held while they are written, report_lock given back: a stderr nobody
 * reads (a stalled pipe) holds up the thread writing there, not the files
 * of the final report.
 */
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
/* The calling thread is in the final report (or about to take
 * report_lock for it): a signal handler of the program that ends the
 * program from there (rte_exit(), whose rte_eal_cleanup() is wrapped, at
 * a second SIGINT; exit() from a handler) finds the report begun and
 * returns, where taking the lock again would hang the thread for ever.
 */
static RTE_DEFINE_PER_LCORE(volatile bool, in_final);

/* The --interval tables (under report_lock): whether they are printed,
 * the time their seconds count from, and the figures of the last one
 * ([RTE_MAX_LCORE * last_stages], NULL before the first), from which
 * the next is taken.
 */
static bool interval_on;
static struct timespec interval_start;
static struct preload_fig *last_figs;
static struct preload_lcore_totals *last_totals;
static unsigned int last_stages;

/* The figures of a registered thread's lcore, kept as it unregisters
 * (rte_pmu forgets them then): a stage count and an array, or NULL.
 */
static struct rte_pmu_stage_stats *gone[RTE_MAX_LCORE];
static unsigned int gone_count[RTE_MAX_LCORE];
static bool gone_any[RTE_MAX_LCORE]; /* gone[lcore] != NULL */

void
preload_lcore_leaving(unsigned int lcore)
{
	struct rte_pmu_stage_stats *keep;
	unsigned int id;
	int n = rte_pmu_stage_count();

	if (lcore >= RTE_MAX_LCORE || n <= 0)
		return;
	keep = calloc(n, sizeof(*keep));
	if (keep == NULL)
		return;
	for (id = 0; id < (unsigned int)n; id++)
		if (rte_pmu_stage_stats_get(lcore, id, &keep[id]) != 0)
			keep[id].calls = 0;
	pthread_mutex_lock(&report_lock);
	free(gone[lcore]); /* an earlier thread of the id: its figures go */
	gone[lcore] = keep;
	gone_count[lcore] = n;
	gone_any[lcore] = true;
	pthread_mutex_unlock(&report_lock);
}

/* The figures of stage @p id on @p lcore: live, else kept; 0 or -ENOENT. */
static int
stats_of(unsigned int lcore, unsigned int id, struct rte_pmu_stage_stats *s)
{
	if (rte_pmu_stage_stats_get(lcore, id, s) == 0 && s->calls != 0)
		return 0;
	if (gone[lcore] == NULL || id >= gone_count[lcore] || gone[lcore][id].calls == 0)
		return -ENOENT;
	*s = gone[lcore][id];

	return 0;
}

/* Every stage's figures on every lcore now, in @p t (names and events
 * too); 0 or -errno. Freed with snapshot_free().
 */
static int
snapshot(struct preload_table *t)
{
	char (*names)[RTE_PMU_STAGE_NAME_MAX];
	struct preload_lcore_totals *totals;
	struct rte_pmu_stage_stats s;
	struct preload_fig *figs, *g;
	unsigned int lcore, id, e, n;
	bool any;
	int count = rte_pmu_stage_count();

	memset(t, 0, sizeof(*t));
	if (count < 0)
		return count;
	n = (unsigned int)count;
	names = calloc(n + 1, sizeof(*names));
	figs = calloc((size_t)RTE_MAX_LCORE * n + 1, sizeof(*figs));
	totals = calloc(RTE_MAX_LCORE, sizeof(*totals));
	if (names == NULL || figs == NULL || totals == NULL) {
		free(names);
		free(figs);
		free(totals);
		return -ENOMEM;
	}
	for (id = 0; id < n; id++)
		if (rte_pmu_stage_info(id, names[id], NULL) != 0)
			names[id][0] = '\0';
	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++) {
		any = false;
		for (id = 0; id < n; id++) {
			if (names[id][0] == '\0' || stats_of(lcore, id, &s) != 0)
				continue;
			any = true;
			g = &figs[lcore * n + id];
			g->calls = s.calls;
			g->items = s.items;
			g->measured = s.measured;
			g->inexact = s.inexact;
			for (e = 0; e < s.num_events && e < RTE_MAX_NUM_GROUP_EVENTS; e++) {
				g->values[e] = s.values[e];
				g->self[e] = s.self_values[e];
				g->measured_values[e] = s.measured_values[e];
				g->measured_children[e] = s.measured_children[e];
				g->spread[e] = s.spread[e];
			}
		}
		/* Right after its stages, as the library reads them. */
		if (any)
			preload_lcore_totals(lcore, &totals[lcore]);
	}
	t->num_stages = n;
	t->names = (const char (*)[RTE_PMU_STAGE_NAME_MAX])names;
	t->num_events = preload_run.num_events;
	t->events = (const char (*)[PRELOAD_EVENT_NAME_MAX])preload_run.events;
	t->figs = figs;
	t->gone = gone_any;
	t->totals = totals;

	return 0;
}

static void
snapshot_free(struct preload_table *t)
{
	free((void *)(uintptr_t)t->names);
	free((void *)(uintptr_t)t->figs);
	free((void *)(uintptr_t)t->totals);
	memset(t, 0, sizeof(*t));
}


/* @p s as a JSON string on @p f (names are printable: quote and
 * backslash escaped).
 */
static void
json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The events' figures as {name: value} on @p f: @p v (each null where
 * @p bits is not 0: not known), or where it is NULL the spreads @p d, as
 * fractions, null where not known (JSON has no NaN), or where both are
 * NULL the bits of @p bits, as booleans.
 */
static void
json_events(FILE *f, const uint64_t *v, const double *d, uint32_t bits, unsigned int n)
{
	unsigned int e;

	fputc('{', f);
	for (e = 0; e < n; e++) {
		fprintf(f, "%s", e != 0 ? ", " : "");
		json_string(f, preload_run.events[e]);
		if (v != NULL && bits != 0)
			fprintf(f, ": null");
		else if (v != NULL)
			fprintf(f, ": %" PRIu64, v[e]);
		else if (d == NULL)
			fprintf(f, ": %s", (bits >> e) & 1 ? "true" : "false");
		else if (isnan(d[e]))
			fprintf(f, ": null");
		else
			fprintf(f, ": %.6g", d[e]);
	}
	fputc('}', f);
}

/* {"events": [...], "sampling": N, "stages": [{"lcore", "name", "calls",
 * "items", "measured", "events": {name: value}, "self": {name: value},
 * "spread": {name: fraction}, "inexact": {name: bool}}],
 * "lcores": [{"lcore", "events": {name: total}, "outside": {name: value},
 * "outside_inexact": {name: bool}}]}:
 * every stage with calls on an lcore (or kept as its thread unregistered),
 * "events" inclusive and "self" exclusive, scaled to every call (null with
 * no measured call, the table's '-', or on an lcore whose counters the
 * kernel never ran), "spread"
 * the self figure's (rte_pmu_stage_stats::spread: 0 exact, null not
 * known), "inexact" where the figures are not exact (the table's '~',
 * rte_pmu_stage_stats::inexact); an lcore's "outside_inexact" where its
 * part outside the stages is not (rte_pmu_stage_lcore_stats::inexact); its
 * "events" and "outside" empty where the library does not give them.
 */
static int
json_write(const char *path, const struct preload_table *t, int err)
{
	const struct preload_lcore_totals *tot;
	const struct preload_fig *g;
	unsigned int lcore, id, e, n;
	const char *sep = "";
	bool any, unknown;
	int ret;
	FILE *f;

	if (err != 0)
		return err;
	f = preload_fopen_w(path);
	if (f == NULL)
		return -errno;
	errno = 0;
	n = preload_run.num_events;
	fprintf(f, "{\"events\": [");
	for (e = 0; e < n; e++) {
		fprintf(f, "%s", e != 0 ? ", " : "");
		json_string(f, preload_run.events[e]);
	}
	fprintf(f, "], \"sampling\": %u, \"stages\": [", preload_run.sampling);
	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++) {
		for (id = 0; id < t->num_stages; id++) {
			g = &t->figs[lcore * t->num_stages + id];
			if (g->calls == 0)
				continue;
			fprintf(f, "%s{\"lcore\": %u, \"name\": ", sep, lcore);
			json_string(f, t->names[id]);
			fprintf(f, ", \"calls\": %" PRIu64 ", \"items\": %" PRIu64
				", \"measured\": %" PRIu64 ", \"events\": ", g->calls, g->items,
				g->measured);
			/* Not known: no call measured, or counters never run. */
			unknown = g->measured == 0 || rte_pmu_lcore_status(lcore) == -ENOSPC;
			json_events(f, g->values, NULL, unknown, n);
			fprintf(f, ", \"self\": ");
			json_events(f, g->self, NULL, unknown, n);
			fprintf(f, ", \"spread\": ");
			json_events(f, NULL, g->spread, 0, n);
			fprintf(f, ", \"inexact\": ");
			json_events(f, NULL, NULL, g->inexact, n);
			fputc('}', f);
			sep = ", ";
		}
	}
	fprintf(f, "], \"lcores\": [");
	sep = "";
	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++) {
		any = false;
		for (id = 0; id < t->num_stages && !any; id++)
			any = t->figs[lcore * t->num_stages + id].calls != 0;
		if (!any)
			continue;
		/* Read with its stages: the same figures as the table's. */
		tot = &t->totals[lcore];
		e = tot->num_events != 0 ? n : 0;
		fprintf(f, "%s{\"lcore\": %u, \"events\": ", sep, lcore);
		json_events(f, tot->total, NULL, 0, e);
		fprintf(f, ", \"outside\": ");
		json_events(f, tot->outside, NULL, 0, e);
		fprintf(f, ", \"outside_inexact\": ");
		json_events(f, NULL, NULL, tot->inexact, e);
		fputc('}', f);
		sep = ", ";
	}
	fprintf(f, "]}\n");
	ret = fflush(f) != 0 || ferror(f) ? -(errno != 0 ? errno : EIO) : 0;
	if (fclose(f) != 0 && ret == 0)
		ret = -errno;

	return ret;
}

/* Whether a stage was called on an lcore (or on one whose thread ended). */
static bool
any_called(void)
{
	struct rte_pmu_stage_stats st;
	unsigned int lcore, id;
	int n = rte_pmu_stage_count();

	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++)
		for (id = 0; n > 0 && id < (unsigned int)n; id++)
			if (stats_of(lcore, id, &st) == 0)
				return true;

	return false;
}

/* The final report on @p f, each line led by @p prefix (stderr: the
 * preload's tag).
 */
static void
report_write(FILE *f, const char *prefix, bool called, const struct preload_table *t, int err)
{
	if (!called) {
		/* The program failed before it started a port or made a graph. */
		fprintf(f, "%s%s\n", prefix, PRELOAD_NOTHING);
	} else {
		/* The figures are estimates from the calls measured: said
		 * first, in the -o file too.
		 */
		fprintf(f, "%sstages, sampling 1 in %u:\n", prefix, preload_run.sampling);
		if (err != 0)
			fprintf(f, "%sno table: %s\n", prefix, strerror(-err));
		else
			preload_table_write(f, prefix, t);
	}
}

/* The interval since the last --interval table, from @p t (every stage's
 * figures read at @p when, as snapshot() gives them), on stderr, each line
 * led by the seconds since interval_start, as perf stat -I prints them:
 * each stage's from its measured calls in the interval
 * (preload_fig_interval()), each lcore's total then less the last, and its
 * stages fitted to it, the part outside them what they leave of it
 * (preload_lcore_fit()). @p t's figures are kept for the next interval.
 * On @p out; under report_lock.
 */
static void
interval_write(const struct preload_table *t, const struct timespec *when, FILE *out)
{
	size_t i, num_figs = (size_t)RTE_MAX_LCORE * t->num_stages;
	unsigned int n = t->num_stages;
	struct preload_lcore_totals *totals;
	struct preload_table part = *t;
	struct preload_fig *figs;
	char lead[64];

	figs = malloc(sizeof(*figs) * (num_figs + 1));
	totals = malloc(sizeof(*totals) * RTE_MAX_LCORE);
	if (figs == NULL || totals == NULL) {
		free(figs);
		free(totals);
		return;
	}
	memcpy(figs, t->figs, sizeof(*figs) * num_figs);
	memcpy(totals, t->totals, sizeof(*totals) * RTE_MAX_LCORE);
	/* From the last, stage by stage (ids only grow: a stage new since
	 * is all new), and each lcore's total; then each lcore's stages
	 * fitted to its total, and its part outside them.
	 */
	for (i = 0; last_figs != NULL && i < num_figs; i++)
		if (i % n < last_stages)
			preload_fig_interval(&figs[i], &last_figs[(i / n) * last_stages + i % n]);
	for (i = 0; last_totals != NULL && i < RTE_MAX_LCORE; i++)
		if (last_totals[i].num_events != 0)
			preload_lcore_totals_sub(&totals[i], &last_totals[i]);
	for (i = 0; i < RTE_MAX_LCORE; i++)
		preload_lcore_fit(&figs[i * n], n, &totals[i]);
	snprintf(lead, sizeof(lead), "%s%14.6f ", PRELOAD_TAG,
		(double)(when->tv_sec - interval_start.tv_sec) +
		(double)(when->tv_nsec - interval_start.tv_nsec) / 1e9);
	part.figs = figs;
	part.totals = totals;
	part.interval = true;
	preload_table_write(out, lead, &part);
	/* The figures at the end of this interval, for the next. */
	memcpy(figs, t->figs, sizeof(*figs) * num_figs);
	memcpy(totals, t->totals, sizeof(*totals) * RTE_MAX_LCORE);
	free(last_figs);
	free(last_totals);
	last_figs = figs;
	last_totals = totals;
	last_stages = n;
}

/* The process the run is: a forked child (its exit(), its own
 * rte_eal_cleanup()) reports nothing, as children are not measured.
 */
static pid_t run_pid;

RTE_INIT(report_pid)
{
	run_pid = getpid();
}

/* The report's writes never kill the program: SIGPIPE (stderr a pipe
 * whose reader is gone) blocked while it is written, and one it raised
 * taken off; the watched signals blocked too, so that one coming now goes
 * to another thread, which waits for this report instead of holding the
 * lock it needs.
 */
static void
report_signals_block(sigset_t *old, bool *pipe_pending)
{
	sigset_t set, pending;

	preload_thread_block_signals(old);
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	sigpending(&pending);
	*pipe_pending = sigismember(&pending, SIGPIPE) == 1;
}

static void
report_signals_restore(const sigset_t *old, bool pipe_pending)
{
	const struct timespec zero = { 0, 0 };
	sigset_t set;

	if (!pipe_pending) {
		sigemptyset(&set);
		sigaddset(&set, SIGPIPE);
		while (sigtimedwait(&set, NULL, &zero) == SIGPIPE)
			;
	}
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void report_final(void);

void
preload_report_final(void)
{
	bool pipe_pending;
	sigset_t old;

	if (getpid() != run_pid)
		return;
	report_signals_block(&old, &pipe_pending);
	report_final();
	report_signals_restore(&old, pipe_pending);
}

static void
report_final(void)
{
	struct preload_table t;
	struct timespec now;
	bool called, keep_o, keep_json;
	int err, json_ret, o_ret;
	FILE *f;

	if (RTE_PER_LCORE(in_final))
		return;
	RTE_PER_LCORE(in_final) = true;
	pthread_mutex_lock(&report_lock);
	if (final_done || !preload_run.active) {
		pthread_mutex_unlock(&report_lock);
		RTE_PER_LCORE(in_final) = false;
		return;
	}
	final_done = true;
	called = any_called();
	/* One read of the figures for the table, -o and --json alike, and
	 * for the last --interval table: the interval since the one before,
	 * cut short by the end, as perf stat -I prints it. So the intervals
	 * add up to the final table.
	 */
	clock_gettime(CLOCK_MONOTONIC, &now);
	err = snapshot(&t);
	/* No stage called here: not over another process's report of stages. */
	keep_o = !called && preload_run.output != NULL &&
		!preload_nothing_may_write(preload_run.output, false, false);
	keep_json = !called && preload_run.json != NULL &&
		!preload_nothing_may_write(preload_run.json, true, false);
	/* The files before anything on stderr: a stderr nobody reads (a
	 * stalled pipe) holds up its own lines, not the files, which a
	 * signal that kills the program then (the handler's wait for the
	 * report ends) would lose.
	 */
	json_ret = preload_run.json != NULL && !keep_json ?
		json_write(preload_run.json, &t, err) : 0;
	o_ret = 0;
	if (preload_run.output != NULL && !keep_o) {
		f = preload_fopen_w(preload_run.output);
		if (f == NULL) {
			o_ret = errno;
		} else {
			errno = 0;
			report_write(f, "", called, &t, err);
			/* A write that failed (ENOSPC at the last flush, or
			 * before it): said as --json's, and the table on
			 * stderr, not lost.
			 */
			o_ret = fflush(f) != 0 || ferror(f) ? (errno != 0 ? errno : EIO) : 0;
			if (fclose(f) != 0 && o_ret == 0)
				o_ret = errno;
		}
	}
	pthread_mutex_lock(&out_lock);
	if (interval_on && err == 0)
		interval_write(&t, &now, PRELOAD_OUT);
	free(last_figs);
	free(last_totals);
	last_figs = NULL;
	last_totals = NULL;
	if (keep_o || (preload_run.output != NULL && o_ret == 0 && !called)) {
		/* Said on stderr too. */
		PRELOAD_MSG("%s", PRELOAD_NOTHING);
	} else if (preload_run.output == NULL || o_ret != 0) {
		if (preload_run.output != NULL)
			PRELOAD_MSG("-o %s: %s: the table on stderr", preload_run.output,
				strerror(o_ret));
		report_write(PRELOAD_OUT, PRELOAD_TAG, called, &t, err);
	}
	if (json_ret != 0)
		PRELOAD_MSG("--json %s: %s", preload_run.json, strerror(-json_ret));
	pthread_mutex_unlock(&out_lock);
	snapshot_free(&t);
	pthread_mutex_unlock(&report_lock);
	RTE_PER_LCORE(in_final) = false;
}

void
preload_report_nothing(const char *why, int fd, bool weak)
{
	int ret;

	if (RTE_PER_LCORE(in_final))
		return;
	RTE_PER_LCORE(in_final) = true;
	pthread_mutex_lock(&report_lock);
	if (final_done) {
		pthread_mutex_unlock(&report_lock);
		RTE_PER_LCORE(in_final) = false;
		return;
	}
	final_done = true;
	if (preload_run.output != NULL && preload_nothing_may_write(preload_run.output, false, weak)) {
		ret = preload_nothing_write(preload_run.output, why, false);
		if (ret != 0)
			dprintf(fd, PRELOAD_TAG "-o %s: %s\n", preload_run.output, strerror(ret));
	}
	if (preload_run.json != NULL && preload_nothing_may_write(preload_run.json, true, weak)) {
		ret = preload_nothing_write(preload_run.json, why, true);
		if (ret != 0)
			dprintf(fd, PRELOAD_TAG "--json %s: %s\n", preload_run.json, strerror(ret));
	}
	pthread_mutex_unlock(&report_lock);
	RTE_PER_LCORE(in_final) = false;
}

/* @p text on @p f a line at a time: a line buffered stream writes each
 * whole, not cut where its buffer fills.
 */
static void
lines_write(const char *text, FILE *f)
{
	const char *end;

	for (; *text != '\0'; text = end) {
		end = strchr(text, '\n');
		end = end != NULL ? end + 1 : text + strlen(text);
		fwrite(text, 1, end - text, f);
	}
}

/* Every interval_ms, until the final report: the figures of the interval
 * on stderr (interval_write()).
 */
static void *
interval_loop(void *arg __rte_unused)
{
	const uint64_t period = (uint64_t)preload_run.interval_ms * 1000000;
	uint64_t next = (uint64_t)interval_start.tv_sec * 1000000000 + interval_start.tv_nsec, at;
	struct timespec now, deadline;
	struct preload_table t;
	char *text;
	size_t size;
	FILE *mem;

	preload_thread_block_signals(NULL);
	for (;;) {
		/* To a deadline: a signal that wakes the thread (net_tap's rx
		 * signal) does not cut an interval short.
		 */
		next += period;
		deadline.tv_sec = (time_t)(next / 1000000000);
		deadline.tv_nsec = (long)(next % 1000000000);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR)
			;
		pthread_mutex_lock(&report_lock);
		if (final_done) {
			pthread_mutex_unlock(&report_lock);
			return NULL;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		/* Woken late (the program stopped, the machine busy): the
		 * deadlines start again from now, so that this interval is the
		 * longer one, not the first of a burst of near-empty ones.
		 */
		at = (uint64_t)now.tv_sec * 1000000000 + now.tv_nsec;
		if (at > next + period / 2)
			next = at;
		/* Made in memory, written on stderr outside report_lock. */
		text = NULL;
		mem = open_memstream(&text, &size);
		if (snapshot(&t) == 0) {
			interval_write(&t, &now, mem != NULL ? mem : PRELOAD_OUT);
			snapshot_free(&t);
		}
		if (mem != NULL)
			fclose(mem);
		pthread_mutex_lock(&out_lock);
		pthread_mutex_unlock(&report_lock);
		if (text != NULL)
			lines_write(text, PRELOAD_OUT);
		pthread_mutex_unlock(&out_lock);
		free(text);
	}

	return NULL;
}

int
preload_report_interval_start(void)
{
	pthread_t tid;
	int ret;

	/* The seconds of the tables count from here; the last table is
	 * printed at the final report where the thread runs.
	 */
	clock_gettime(CLOCK_MONOTONIC, &interval_start);
	pthread_mutex_lock(&report_lock);
	interval_on = true;
	pthread_mutex_unlock(&report_lock);
	ret = rte_ctrl_thread_create(&tid, "dpdk-pmu-run", NULL, interval_loop, NULL);
	if (ret != 0) {
		pthread_mutex_lock(&report_lock);
		interval_on = false;
		pthread_mutex_unlock(&report_lock);
		return ret > 0 ? -ret : ret;
	}
	pthread_detach(tid);

	return 0;
}
