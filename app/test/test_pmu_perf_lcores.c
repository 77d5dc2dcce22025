/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Part of pmu_perf_autotest: every lcore id in use at once (the EAL
 * lcores plus registered threads up to RTE_MAX_LCORE), each with the
 * whole event group: time to open, read and close them all, and the
 * descriptors and memory one lcore's group takes.
 */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_lcore.h>

#include <rte_pmu.h>

#include "test_pmu_perf.h"

/* The threads take turns to register and close (each takes EAL's or the
 * library's lock: in turn, the figures are the work, not spinning on a lock
 * held by a preempted thread) and read all at once. They open their groups
 * in turn too, or all at once (the library's lock is not held across an
 * open's system calls).
 */
#define LCORE_IDS 128

struct lcores_run {
	sem_t reg[RTE_MAX_LCORE + 1], open[RTE_MAX_LCORE + 1], close[RTE_MAX_LCORE + 1];
	pthread_barrier_t go_read, done_read, go_open, done_open;
	bool at_once;                   /* open all groups at once */
	unsigned int num_events;
	unsigned int failed;
};

struct lcores_thread {
	struct lcores_run *run;
	unsigned int i;
};

static unsigned int
count_fds(void)
{
	struct dirent *de;
	unsigned int n = 0;
	DIR *d;

	d = opendir("/proc/self/fd");
	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);

	return n;
}

/* A "Name: value kB" line of a /proc file, in KiB; 0 when missing. */
static uint64_t
proc_kib(const char *path, const char *key)
{
	char line[256];
	uint64_t v = 0;
	size_t len = strlen(key);
	FILE *f;

	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, key, len) == 0 && line[len] == ':') {
			v = strtoull(line + len + 1, NULL, 10);
			break;
		}
	}
	fclose(f);

	return v;
}

/* KiB of the process's perf_event mappings (the events' user pages). */
static uint64_t
perf_maps_kib(void)
{
	unsigned long lo, hi;
	char line[512];
	uint64_t kib = 0;
	FILE *f;

	f = fopen("/proc/self/maps", "r");
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strstr(line, "perf_event") != NULL &&
				sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			kib += (hi - lo) / 1024;
	}
	fclose(f);

	return kib;
}

static void *
lcore_thread(void *arg)
{
	struct lcores_thread *th = arg;
	struct lcores_run *run = th->run;
	uint64_t values[RTE_MAX_NUM_GROUP_EVENTS];
	unsigned int i, k = th->i;
	bool registered;

	sem_wait(&run->reg[k]);
	registered = rte_thread_register() == 0;
	sem_post(&run->reg[k + 1]);

	if (run->at_once)
		pthread_barrier_wait(&run->go_open);
	else
		sem_wait(&run->open[k]);
	if (registered) {
		for (i = 0; i < run->num_events; i++)
			values[i] = rte_pmu_read(i);
		if (rte_pmu_lcore_status(rte_lcore_id()) != 1)
			__atomic_fetch_add(&run->failed, 1, __ATOMIC_RELAXED);
	} else {
		__atomic_fetch_add(&run->failed, 1, __ATOMIC_RELAXED);
	}
	if (run->at_once)
		pthread_barrier_wait(&run->done_open);
	else
		sem_post(&run->open[k + 1]);

	pthread_barrier_wait(&run->go_read);
	if (registered && rte_pmu_read_group(values, run->num_events) != (int)run->num_events)
		__atomic_fetch_add(&run->failed, 1, __ATOMIC_RELAXED);
	pthread_barrier_wait(&run->done_read);

	/* Giving the lcore id back closes its group. */
	sem_wait(&run->close[k]);
	if (registered)
		rte_thread_unregister();
	sem_post(&run->close[k + 1]);

	return NULL;
}

static void
raise_fd_limit(unsigned int need)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= need)
		return;
	rl.rlim_cur = RTE_MIN((rlim_t)need, rl.rlim_max);
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		printf("cannot raise the open files limit to %u\n", need);
}

int
perf_many_lcores(unsigned int num_events, bool at_once)
{
	static struct lcores_thread th[RTE_MAX_LCORE];
	static pthread_t threads[RTE_MAX_LCORE];
	static struct lcores_run run;
	unsigned int n, i, fds0, fds1, fds2, groups;
	uint64_t rss0, rss1, vm0, vm1, slab0, slab1, t0, t1, t2, t3;
	double hz = rte_get_tsc_hz();
	char name[64];

	/* 128 lcore ids (or all there are): the EAL's and new threads'. */
	n = RTE_MIN(RTE_MAX_LCORE, LCORE_IDS) - rte_lcore_count();
	if (num_events == 0 || n == 0) {
		perf_figure_skip("128 lcore ids x events", "no event or no free lcore id");
		return -ENOSPC;
	}
	raise_fd_limit(count_fds() + n * (num_events + 1) + 64);
	memset(&run, 0, sizeof(run));
	run.num_events = num_events;
	run.at_once = at_once;
	for (i = 0; i <= n; i++) {
		sem_init(&run.reg[i], 0, 0);
		sem_init(&run.open[i], 0, 0);
		sem_init(&run.close[i], 0, 0);
	}
	pthread_barrier_init(&run.go_read, NULL, n + 1);
	pthread_barrier_init(&run.done_read, NULL, n + 1);
	pthread_barrier_init(&run.go_open, NULL, n + 1);
	pthread_barrier_init(&run.done_open, NULL, n + 1);
	for (i = 0; i < n; i++) {
		th[i].run = &run;
		th[i].i = i;
		if (pthread_create(&threads[i], NULL, lcore_thread, &th[i]) != 0) {
			/* Barriers of n + 1 cannot complete without it. */
			printf("thread %u of %u not started\n", i, n);
			abort();
		}
	}

	sem_post(&run.reg[0]);
	sem_wait(&run.reg[n]);
	fds0 = count_fds();
	rss0 = proc_kib("/proc/self/status", "VmRSS");
	vm0 = perf_maps_kib();
	slab0 = proc_kib("/proc/meminfo", "Slab");
	t0 = rte_rdtsc_precise();
	if (at_once) {
		pthread_barrier_wait(&run.go_open);
		pthread_barrier_wait(&run.done_open);
	} else {
		sem_post(&run.open[0]);
		sem_wait(&run.open[n]);
	}
	t1 = rte_rdtsc_precise();
	fds1 = count_fds();
	rss1 = proc_kib("/proc/self/status", "VmRSS");
	vm1 = perf_maps_kib();
	slab1 = proc_kib("/proc/meminfo", "Slab");
	pthread_barrier_wait(&run.go_read);
	pthread_barrier_wait(&run.done_read);
	t2 = rte_rdtsc_precise();
	sem_post(&run.close[0]);
	sem_wait(&run.close[n]);
	t3 = rte_rdtsc_precise();
	for (i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	fds2 = count_fds();
	for (i = 0; i <= n; i++) {
		sem_destroy(&run.reg[i]);
		sem_destroy(&run.open[i]);
		sem_destroy(&run.close[i]);
	}
	pthread_barrier_destroy(&run.go_read);
	pthread_barrier_destroy(&run.done_read);
	pthread_barrier_destroy(&run.go_open);
	pthread_barrier_destroy(&run.done_open);

	groups = n - run.failed;
	if (at_once) {
		snprintf(name, sizeof(name), "%u threads x %u events: open at once, ms", n,
			num_events);
		perf_figure(name, "ms", (double)(t1 - t0) * 1e3 / hz, 0, false, 0);
		perf_figure("lcores whose group failed (at once)", "lcores", run.failed, 0,
			true, 0.5);
		perf_figure("descriptors left after close (at once)", "fds",
			(double)fds2 - fds0, 0, true, 0.5);
		return 0;
	}
	printf("%u lcore ids (%u EAL + %u registered threads), %u events each: %u groups "
		"open; fds %u -> %u -> %u; RSS +%" PRIu64 " KiB; perf pages mapped +%" PRIu64
		" KiB; kernel slab +%" PRIu64 " KiB\n",
		n + rte_lcore_count(), rte_lcore_count(), n, num_events, groups, fds0, fds1, fds2,
		rss1 - rss0, vm1 - vm0, slab1 - slab0);
	snprintf(name, sizeof(name), "%u threads x %u events: open, ms", n, num_events);
	perf_figure(name, "ms", (double)(t1 - t0) * 1e3 / hz, 0, false, 0);
	snprintf(name, sizeof(name), "%u threads x %u events: read, ms", n, num_events);
	perf_figure(name, "ms", (double)(t2 - t1) * 1e3 / hz, 0, false, 0);
	snprintf(name, sizeof(name), "%u threads x %u events: close, ms", n, num_events);
	perf_figure(name, "ms", (double)(t3 - t2) * 1e3 / hz, 0, false, 0);
	perf_figure("descriptors per lcore", "fds", groups != 0 ?
		(double)(fds1 - fds0) / groups : 0, num_events + 1, true, num_events + 1);
	perf_figure("user pages mapped per lcore, KiB", "KiB", groups != 0 ?
		(double)(int64_t)(vm1 - vm0) / groups : 0, 0, false, 0);
	perf_figure("user memory resident per lcore, KiB", "KiB", groups != 0 ?
		(double)(int64_t)(rss1 - rss0) / groups : 0, 0, false, 0);
	perf_figure("kernel slab per lcore, KiB (system-wide)", "KiB", groups != 0 ?
		(double)(int64_t)(slab1 - slab0) / groups : 0, 0, false, 0);
	perf_figure("descriptors left after close", "fds", (double)fds2 - fds0, 0, true, 0.5);
	perf_figure("lcores whose group failed", "lcores", run.failed, 0, true, 0.5);

	return 0;
}
