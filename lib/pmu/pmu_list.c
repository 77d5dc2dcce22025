/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* rte_pmu_event_list(): every event a name can refer to here, and whether
 * it opens on the calling thread.
 *
 * The names are perf's generic and cache events, the events/ files of every
 * PMU under the sysfs root (as "pmu/event/"), and the core-PMU events of
 * libpfm4 when the library was built with it (at most PMU_LIST_PFM_MAX).
 * Each one is encoded as rte_pmu_add_event() would, then opened on the
 * calling thread with its user page mapped, which tells its read path.
 */

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_string_fns.h>

#include "pmu_driver.h"
#include "pmu_event.h"
#include "pmu_fd.h"
#include "pmu_group.h"
#include "pmu_log.h"
#include "pmu_state.h"
#include "pmu_sysfs.h"
#include "rte_pmu.h"

/** Vendor names listed at most (libpfm4 knows thousands per CPU). */
#define PMU_LIST_PFM_MAX 1024

struct list_ctx {
	rte_pmu_event_list_cb_t cb;
	void *arg;
	char core_pmu[PMU_NAME_MAX];
	int count;
};

/* Report one name: encoded, probed, handed to the callback. */
static int
list_one(struct list_ctx *ctx, const char *name)
{
	struct rte_pmu_event_entry e;
	struct pmu_event_desc desc;
	int ret;

	memset(&e, 0, sizeof(e));
	if (rte_strscpy(e.name, name, sizeof(e.name)) < 0)
		return 0;

	/* Encoding failures are the entry's status, not log lines. */
	RTE_PER_LCORE(pmu_log_quiet)++;
	memset(&desc, 0, sizeof(desc));
	ret = pmu_event_prepare(name, ctx->core_pmu, false, &desc);
	rte_strscpy(e.pmu, desc.pmu, sizeof(e.pmu));
	if (ret == 0)
		ret = pmu_fd_read_path(&desc, &e.path);
	/* Read with rte_rdtsc() once an lcore opens it, as pmu_read_tsc() does. */
	if (ret == 0 && pmu_arch_counts_tsc(&desc) == 1)
		e.path = RTE_PMU_PATH_USER;
	RTE_PER_LCORE(pmu_log_quiet)--;
	e.status = ret;
	if (ret != 0)
		e.path = RTE_PMU_PATH_NONE;
	/* Generic events that open: their PMU is the core one or "software". */
	if (e.pmu[0] == '\0' && e.status == 0)
		rte_strscpy(e.pmu, desc.attr.type == PERF_TYPE_SOFTWARE ? "software" :
			ctx->core_pmu, sizeof(e.pmu));

	ret = ctx->cb(&e, ctx->arg);
	if (ret < 0)
		return ret;
	ctx->count++;
	return 0;
}

static int
list_pfm_one(const char *name, void *arg)
{
	return list_one(arg, name);
}

/* Files of events/ that describe another event, not events themselves. */
static bool
event_file(const char *name)
{
	static const char *const suffixes[] = { ".scale", ".unit", ".per-pkg", ".snapshot" };
	size_t len = strlen(name), slen;
	unsigned int i;

	if (name[0] == '.')
		return false;
	for (i = 0; i < RTE_DIM(suffixes); i++) {
		slen = strlen(suffixes[i]);
		if (len > slen && strcmp(name + len - slen, suffixes[i]) == 0)
			return false;
	}
	return true;
}

/* "pmu/event/" for every events/ file of @p pmu_name. */
static int
list_pmu(struct list_ctx *ctx, const char *pmu_name)
{
	char path[PMU_EVENT_NAME_MAX + 1];
	struct dirent **list;
	int i, n, ret = 0;

	if (snprintf(path, sizeof(path), "%s/%s/events", pmu_sysfs_root(), pmu_name) >=
			(int)sizeof(path))
		return 0;
	n = scandir(path, &list, NULL, alphasort);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (ret == 0 && event_file(list[i]->d_name) &&
				snprintf(path, sizeof(path), "%s/%s/", pmu_name,
					list[i]->d_name) < (int)sizeof(path))
			ret = list_one(ctx, path);
		free(list[i]);
	}
	free(list);
	return ret;
}

static int
list_sysfs(struct list_ctx *ctx)
{
	struct dirent **list;
	int i, n, ret = 0;

	n = scandir(pmu_sysfs_root(), &list, NULL, alphasort);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (ret == 0 && list[i]->d_name[0] != '.' &&
				pmu_sysfs_pmu_exists(list[i]->d_name))
			ret = list_pmu(ctx, list[i]->d_name);
		free(list[i]);
	}
	free(list);
	return ret;
}

static int
list_generic(struct list_ctx *ctx)
{
	const struct pmu_generic_event *g;
	char name[64];
	uint64_t config;
	unsigned int i;
	int ret;

	for (i = 0; (g = pmu_generic_get(i)) != NULL; i++) {
		ret = list_one(ctx, g->name);
		if (ret != 0)
			return ret;
	}
	for (i = 0; pmu_cache_get(i, name, sizeof(name), &config) == 0; i++) {
		ret = list_one(ctx, name);
		if (ret != 0)
			return ret;
	}
	return 0;
}

int
rte_pmu_event_list(rte_pmu_event_list_cb_t cb, void *arg)
{
	struct pmu_events_copy state;
	struct list_ctx ctx;
	int ret;

	if (cb == NULL) {
		PMU_LOG(ERR, "event list: NULL callback");
		return -EINVAL;
	}

	memset(&ctx, 0, sizeof(ctx));
	ctx.cb = cb;
	ctx.arg = arg;
	if (pmu_state_events(&state) != 0) {
		PMU_LOG(ERR, "event list: rte_pmu_init() not called");
		return -ENODEV;
	}

	/* The core PMU of the CPUs this thread may run on (hybrid machines). */
	if (state.core_pmu[0] != '\0')
		pmu_core_pmu_of_thread(state.core_pmu, ctx.core_pmu);

	ret = list_generic(&ctx);
	if (ret == 0)
		ret = list_sysfs(&ctx);
	if (ret == 0) {
		ret = pmu_pfm_foreach(PMU_LIST_PFM_MAX, list_pfm_one, &ctx);
		if (ret > 0)
			ret = 0;
	}
	return ret < 0 ? ret : ctx.count;
}
