/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The functions the program launches on lcores: rte_eal_remote_launch()
 * and rte_eal_mp_remote_launch() are wrapped. Each run opens the lcore
 * (rte_pmu_lcore_open(): the lcore's first counts) and, as the function
 * returns, makes an empty call of stage lcore-SYMBOL (its name where the
 * program exports it, dladdr()), else lcore-main, measured every time:
 * the lcore's last counts. So an lcore that never touches a port (a
 * distributor's or packet_ordering's worker) shows, with its total
 * (rte_pmu_stage_lcore_stats_get()), and the ports' stages do not nest in
 * a stage measured every time (which would measure them every time).
 * As the function returns, the ports' stages still open on the lcore end
 * (ports.c): the time until the next launch (testpmd's stop and start)
 * is in no stage. A run is counted as it ends: one that never returns
 * (the program dies of a signal) does not show.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_per_lcore.h>

#include <rte_pmu_stage.h>

#include "preload_run.h"
#include "preload_ports.h"

/* Functions launched: their stages. */
#define LAUNCH_FUNCS 32

struct launch {
	lcore_function_t *f;
	void *arg;
	unsigned int stage;
	bool counted;           /* stage registered */
};

static struct {
	lcore_function_t *f;
	unsigned int stage;
} funcs[LAUNCH_FUNCS];
static unsigned int num_funcs;
static pthread_mutex_t funcs_lock = PTHREAD_MUTEX_INITIALIZER;

/* What each worker was given; the main lcore's (CALL_MAIN) apart. */
static struct launch launches[RTE_MAX_LCORE];
static struct launch mp_launch;
static RTE_DEFINE_PER_LCORE(bool, in_launched);

/* "lcore-SYMBOL" in @p name; a symbol too long for a stage name is cut and
 * ends in '~' and a hash of the whole symbol, so that two long symbols
 * alike in their first characters stay two stages.
 */
static void
symbol_stage_name(char *name, size_t len, const char *symbol)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	const char *p;
	int n = snprintf(name, len, "lcore-%s", symbol);

	if (n >= 0 && (size_t)n < len)
		return;
	for (p = symbol; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	snprintf(name + len - 10, 10, "~%08x", h);
}

/* The stage of function @p f, registered at its first launch; false
 * where it cannot be (said once).
 */
static bool
stage_of(lcore_function_t *f, unsigned int *stage)
{
	char name[RTE_PMU_STAGE_NAME_MAX];
	unsigned int i;
	Dl_info info;
	bool found = false;
	int ret;

	pthread_mutex_lock(&funcs_lock);
	for (i = 0; i < num_funcs; i++) {
		if (funcs[i].f == f) {
			*stage = funcs[i].stage;
			found = true;
			break;
		}
	}
	if (!found && num_funcs < LAUNCH_FUNCS) {
		if (dladdr((void *)(uintptr_t)f, &info) != 0 && info.dli_sname != NULL &&
				info.dli_saddr == (void *)(uintptr_t)f)
			symbol_stage_name(name, sizeof(name), info.dli_sname);
		else
			snprintf(name, sizeof(name), "lcore-main");
		ret = rte_pmu_stage_register(name);
		if (ret >= 0) {
			rte_pmu_stage_sampling_set((unsigned int)ret, 1);
			funcs[num_funcs].f = f;
			funcs[num_funcs++].stage = (unsigned int)ret;
			*stage = (unsigned int)ret;
			found = true;
		} else if (ret != -ENOSPC) {
			PRELOAD_MSG("stage %s: %s: launched functions not counted", name,
				strerror(-ret));
		}
	}
	pthread_mutex_unlock(&funcs_lock);

	return found;
}

/* What runs on the lcore in place of the program's function. */
static int
launched(void *arg)
{
	const struct launch *l = arg;
	lcore_function_t *f = l->f;
	void *farg = l->arg;
	unsigned int stage = l->stage;
	bool counted = l->counted && !RTE_PER_LCORE(in_launched);
	int ret;

	if (!counted)
		return f(farg);
	RTE_PER_LCORE(in_launched) = true;
	/* The lcore's total counts from its open (its first counts) to the
	 * empty stage call at the function's return (its last counts), so
	 * that an lcore with no port stage shows its total too. The run is
	 * not a stage around the function: a measured stage around it would
	 * have every stage in it measured too, whatever their sampling.
	 */
	rte_pmu_lcore_open();
	ret = f(farg);
	preload_ports_lcore_stop();
	rte_pmu_stage_begin(stage);
	rte_pmu_stage_end(stage, 0);
	RTE_PER_LCORE(in_launched) = false;

	return ret;
}

/* @p l set for function @p f(@p arg). */
static void
launch_set(struct launch *l, lcore_function_t *f, void *arg)
{
	l->f = f;
	l->arg = arg;
	l->counted = preload_run.active && stage_of(f, &l->stage);
}

int
rte_eal_remote_launch(lcore_function_t *f, void *arg, unsigned int worker_id)
{
	int (*real)(lcore_function_t *, void *, unsigned int) =
		(int (*)(lcore_function_t *, void *, unsigned int))dlsym(RTLD_NEXT,
			"rte_eal_remote_launch");
	struct launch *l;

	if (real == NULL)
		return -ENOSYS;
	/* A busy worker: the real call refuses, its launch left as it is. */
	if (worker_id >= RTE_MAX_LCORE || f == launched ||
			rte_eal_get_lcore_state(worker_id) != WAIT)
		return real(f, arg, worker_id);
	l = &launches[worker_id];
	launch_set(l, f, arg);

	return real(launched, l, worker_id);
}

int
rte_eal_mp_remote_launch(lcore_function_t *f, void *arg, enum rte_rmt_call_main_t call_main)
{
	int (*real)(lcore_function_t *, void *, enum rte_rmt_call_main_t) =
		(int (*)(lcore_function_t *, void *, enum rte_rmt_call_main_t))dlsym(RTLD_NEXT,
			"rte_eal_mp_remote_launch");

	if (real == NULL)
		return -ENOSYS;
	/* One launch for all lcores: read by each as it starts, before the
	 * next rte_eal_mp_remote_launch() (after rte_eal_mp_wait_lcore()).
	 */
	launch_set(&mp_launch, f, arg);

	return real(launched, &mp_launch, call_main);
}
