/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* What the preload prints: the stage table (rte_pmu_stage_dump()) on
 * stderr, each line prefixed, or in the -o file; the JSON file at exit;
 * the table every --interval from a control thread.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_pmu_stage.h>

#include "preload.h"
#include "preload_signals.h"

/* One report at a time; none after the final one. */
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static bool final_done;

/* The figures of a registered thread's lcore, kept as it unregisters
 * (rte_pmu forgets them then): a stage count and an array, or NULL.
 */
static struct rte_pmu_stage_stats *gone[RTE_MAX_LCORE];
static unsigned int gone_count[RTE_MAX_LCORE];

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

/* The lcores whose threads ended, on @p f: rte_pmu's table has them no
 * more. Per stage: calls, items, each event per item.
 */
static void
gone_table(FILE *f, const char *prefix)
{
	char name[RTE_PMU_STAGE_NAME_MAX];
	struct rte_pmu_stage_stats *s;
	unsigned int lcore, id, e;

	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++) {
		if (gone[lcore] == NULL)
			continue;
		fprintf(f, "%slcore %u (its thread ended before exit)\n%s  %-20s %14s %14s",
			prefix, lcore, prefix, "Name", "Calls", "Items");
		for (e = 0; e < preload_run.num_events; e++)
			fprintf(f, " %20.*s/Item", 15, preload_run.events[e]);
		fputc('\n', f);
		for (id = 0; id < gone_count[lcore]; id++) {
			s = &gone[lcore][id];
			if (s->calls == 0 || rte_pmu_stage_info(id, name, NULL) != 0)
				continue;
			fprintf(f, "%s  %-20s %14" PRIu64 " %14" PRIu64, prefix, name, s->calls,
				s->items);
			for (e = 0; e < preload_run.num_events && e < s->num_events; e++)
				fprintf(f, " %25.2f", s->items != 0 ?
					(double)s->values[e] / (double)s->items : 0.0);
			fputc('\n', f);
		}
	}
	fflush(f);
}

void
preload_report_table(FILE *f, const char *prefix)
{
	char *text = NULL, *line, *save;
	size_t size = 0;
	FILE *mem;
	int ret;

	mem = open_memstream(&text, &size);
	if (mem == NULL)
		return;
	ret = rte_pmu_stage_dump(mem);
	fclose(mem);
	if (ret != 0)
		fprintf(f, "%sno table: %s\n", prefix, strerror(-ret));
	else
		for (line = strtok_r(text, "\n", &save); line != NULL;
				line = strtok_r(NULL, "\n", &save))
			fprintf(f, "%s%s\n", prefix, line);
	fflush(f);
	free(text);
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

/* {"events": [...], "stages": [{"lcore", "name", "calls", "items",
 * "measured", "events": {name: value}}]}: every stage with calls on an
 * lcore (or kept as its thread unregistered), values as
 * rte_pmu_stage_stats::values.
 */
static int
json_write(const char *path)
{
	struct rte_pmu_stage_stats s;
	char name[RTE_PMU_STAGE_NAME_MAX];
	unsigned int lcore, id, e;
	const char *sep = "";
	int n, ret;
	FILE *f;

	f = fopen(path, "w");
	if (f == NULL)
		return -errno;
	fprintf(f, "{\"events\": [");
	for (e = 0; e < preload_run.num_events; e++) {
		fprintf(f, "%s", e != 0 ? ", " : "");
		json_string(f, preload_run.events[e]);
	}
	fprintf(f, "], \"sampling\": %u, \"stages\": [", preload_run.sampling);
	n = rte_pmu_stage_count();
	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++) {
		for (id = 0; n > 0 && id < (unsigned int)n; id++) {
			if (stats_of(lcore, id, &s) != 0 ||
					rte_pmu_stage_info(id, name, NULL) != 0)
				continue;
			fprintf(f, "%s{\"lcore\": %u, \"name\": ", sep, lcore);
			json_string(f, name);
			fprintf(f, ", \"calls\": %" PRIu64 ", \"items\": %" PRIu64
				", \"measured\": %" PRIu64 ", \"events\": {", s.calls, s.items,
				s.measured);
			for (e = 0; e < preload_run.num_events && e < s.num_events; e++) {
				fprintf(f, "%s", e != 0 ? ", " : "");
				json_string(f, preload_run.events[e]);
				fprintf(f, ": %" PRIu64, s.values[e]);
			}
			fprintf(f, "}}");
			sep = ", ";
		}
	}
	fprintf(f, "]}\n");
	ret = ferror(f) ? -EIO : 0;
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

void
preload_report_final(void)
{
	const char *prefix = PRELOAD_TAG;
	FILE *f = stderr;
	int ret;

	pthread_mutex_lock(&report_lock);
	if (final_done || !preload_run.active) {
		pthread_mutex_unlock(&report_lock);
		return;
	}
	final_done = true;
	if (preload_run.output != NULL) {
		f = fopen(preload_run.output, "w");
		if (f != NULL) {
			prefix = "";
		} else {
			PRELOAD_MSG("-o %s: %s: the table on stderr", preload_run.output,
				strerror(errno));
			f = stderr;
		}
	}
	if (!any_called()) {
		/* The program failed before it started a port or made a graph. */
		fprintf(f, "%s%s\n", prefix, PRELOAD_NOTHING);
		if (f != stderr)
			PRELOAD_MSG("%s", PRELOAD_NOTHING);
	} else {
		if (f == stderr)
			PRELOAD_MSG("stages, sampling 1 in %u:", preload_run.sampling);
		preload_report_table(f, prefix);
		gone_table(f, prefix);
	}
	if (f != stderr)
		fclose(f);
	if (preload_run.json != NULL) {
		ret = json_write(preload_run.json);
		if (ret != 0)
			PRELOAD_MSG("--json %s: %s", preload_run.json, strerror(-ret));
	}
	pthread_mutex_unlock(&report_lock);
}

/* The table every interval_ms on stderr, until the final one. */
static void *
interval_loop(void *arg __rte_unused)
{
	struct timespec ts = {
		.tv_sec = preload_run.interval_ms / 1000,
		.tv_nsec = (long)(preload_run.interval_ms % 1000) * 1000000,
	};

	preload_thread_block_signals();
	for (;;) {
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&report_lock);
		if (final_done) {
			pthread_mutex_unlock(&report_lock);
			return NULL;
		}
		preload_report_table(stderr, PRELOAD_TAG);
		pthread_mutex_unlock(&report_lock);
	}

	return NULL;
}

int
preload_report_interval_start(void)
{
	pthread_t tid;
	int ret;

	ret = rte_ctrl_thread_create(&tid, "dpdk-pmu-run", NULL, interval_loop, NULL);
	if (ret != 0)
		return ret > 0 ? -ret : ret;
	pthread_detach(tid);

	return 0;
}
