/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Stages: the registry (names, periods), the reset, and what librte_pmu
 * tells this library (an lcore's open, rte_pmu_fini()). The registry's lock is taken by the
 * control path only; no lcore ever takes it.
 */

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_string_fns.h>

#include "pmu_stage_private.h"
#include "pmu_stage_trace.h"


/* A stage name: printable, no space, not too long. */
static int
name_check(const char *name)
{
	char shown[4 * RTE_PMU_STAGE_NAME_MAX + 1] = "";
	size_t len, i, o = 0;

	if (name == NULL) {
		STAGE_LOG(ERR, "stage name is NULL");
		return -EINVAL;
	}
	len = strnlen(name, RTE_PMU_STAGE_NAME_MAX);
	for (i = 0; i < len && isgraph((unsigned char)name[i]); i++)
		;
	if (len != 0 && len < RTE_PMU_STAGE_NAME_MAX && i == len)
		return 0;
	/* The name whole in the log, a byte not printable as \xNN. */
	for (i = 0; i < len; i++)
		o += snprintf(shown + o, sizeof(shown) - o, isgraph((unsigned char)name[i]) ?
			"%c" : "\\x%02x", (unsigned char)name[i]);
	STAGE_LOG(ERR, "stage name '%s%s': 1 to %d printable characters, no space", shown,
		len == RTE_PMU_STAGE_NAME_MAX ? "..." : "", RTE_PMU_STAGE_NAME_MAX - 1);
	return -EINVAL;
}

int
rte_pmu_stage_register_bulk(const char *const *names, unsigned int n, unsigned int *ids)
{
	unsigned int i, j, count;
	int ret = 0;

	if (names == NULL || ids == NULL) {
		STAGE_LOG(ERR, "stage register: %s is NULL", names == NULL ? "names" : "ids");
		return -EINVAL;
	}
	for (i = 0; i < n && ret == 0; i++)
		ret = name_check(names[i]);
	if (ret == 0 && !pmu_ready())
		ret = -ENODEV;
	if (ret == 0) {
		rte_spinlock_lock(&stage_reg.lock);
		count = stage_reg.count;
		/* The new names past the count, published once all fit; @p ids
		 * written then only.
		 */
		for (i = 0; i < n; i++) {
			for (j = 0; j < count && strcmp(stage_reg.names[j], names[i]) != 0; j++)
				;
			if (j < count)
				continue;
			if (count == RTE_PMU_MAX_STAGES)
				break; /* names[i] the first without room */
			strlcpy(stage_reg.names[count], names[i], RTE_PMU_STAGE_NAME_MAX);
			__atomic_store_n(&stage_reg.period_m1[count], stage_reg.default_period - 1,
				__ATOMIC_RELAXED);
			count++;
		}
		ret = i < n ? -ENOSPC : 0;
		for (j = 0; j < n && ret == 0; j++)
			for (ids[j] = 0; strcmp(stage_reg.names[ids[j]], names[j]) != 0; ids[j]++)
				;
		if (ret == 0)
			__atomic_store_n(&stage_reg.count, count, __ATOMIC_RELEASE);
		rte_spinlock_unlock(&stage_reg.lock);
	}
	if (ret == -ENODEV)
		STAGE_LOG(ERR, "stage %s: rte_pmu_init() not called", n > 0 ? names[0] : "register");
	else if (ret == -ENOSPC) /* "not registered", or "none of the <n> registered" */
		STAGE_LOG(ERR, "stage %s: no room for it (%d stages at most), %s%.0u registered",
			names[i], RTE_PMU_MAX_STAGES, n == 1 ? "not" : "none of the ", n > 1 ? n : 0);
	for (i = 0; i < n; i++)
		rte_pmu_trace_stage_register(names[i] != NULL ? names[i] : "",
			ret == 0 ? (int)ids[i] : ret);
	return ret;
}

int
rte_pmu_stage_register(const char *name)
{
	unsigned int id;
	int ret = rte_pmu_stage_register_bulk(&name, 1, &id);

	return ret == 0 ? (int)id : ret;
}

int
rte_pmu_stage_sampling_set(unsigned int id, unsigned int period)
{
	unsigned int i, count;
	int ret = 0;

	if (period == 0 || period > RTE_PMU_STAGE_PERIOD_MAX) {
		STAGE_LOG(ERR, "stage %u: sampling period %u out of range (1 to %d)", id,
			period, RTE_PMU_STAGE_PERIOD_MAX);
		return -EINVAL;
	}
	if (!pmu_ready()) {
		STAGE_LOG(ERR, "stage sampling: rte_pmu_init() not called");
		return -ENODEV;
	}
	rte_spinlock_lock(&stage_reg.lock);
	count = stage_reg.count;
	if (id == RTE_PMU_STAGE_ALL)
		stage_reg.default_period = period;
	else if (id >= count)
		ret = -EINVAL;
	for (i = 0; i < count && ret == 0; i++)
		if (id == RTE_PMU_STAGE_ALL || id == i)
			__atomic_store_n(&stage_reg.period_m1[i], period - 1, __ATOMIC_RELAXED);
	if (ret == 0)
		stage_periods_changed();
	rte_spinlock_unlock(&stage_reg.lock);
	if (ret != 0)
		STAGE_LOG(ERR, "stage %u: not registered (%u stages)", id, count);
	return ret;
}

int
rte_pmu_stage_info(unsigned int id, char *name, unsigned int *period)
{
	int ret;

	if (name == NULL) {
		STAGE_LOG(ERR, "stage info: name is NULL");
		return -EINVAL;
	}
	if (!pmu_ready()) {
		STAGE_LOG(ERR, "stage info: rte_pmu_init() not called");
		return -ENODEV;
	}
	rte_spinlock_lock(&stage_reg.lock);
	ret = id < stage_reg.count ? 0 : -EINVAL;
	if (ret == 0)
		strlcpy(name, stage_reg.names[id], RTE_PMU_STAGE_NAME_MAX);
	if (ret == 0 && period != NULL)
		*period = stage_reg.period_m1[id] + 1;
	rte_spinlock_unlock(&stage_reg.lock);
	if (ret != 0)
		STAGE_LOG(ERR, "stage info: stage %u not registered (%u stages)", id,
			stage_count());
	return ret;
}

int
rte_pmu_stage_count(void)
{
	return pmu_ready() ? (int)stage_count() : -ENODEV;
}

int
rte_pmu_stage_lookup(const char *name)
{
	unsigned int id, n;

	if (name == NULL) {
		STAGE_LOG(ERR, "stage lookup: name is NULL");
		return -EINVAL;
	}
	if (!pmu_ready())
		return -ENODEV;
	n = stage_count();
	for (id = 0; id < n && strncmp(stage_reg.names[id], name, RTE_PMU_STAGE_NAME_MAX) != 0;
			id++)
		;
	return id < n ? (int)id : -ENOENT;
}

/* rte_pmu_fini(): every stage goes; lcores start again at their next call. */
static void
on_fini(void *arg __rte_unused)
{
	unsigned int i;

	rte_spinlock_lock(&stage_reg.lock);
	if (pmu_ready())
		__atomic_store_n(&stage_reg.was_init, true, __ATOMIC_RELAXED);
	/* Each lcore's calls out of line, where its next one starts it again. */
	for (i = 0; i < RTE_MAX_LCORE; i++)
		stage_on_lcore_gone(i, NULL);
	__atomic_store_n(&stage_reg.count, 0, __ATOMIC_RELEASE);
	for (i = 0; i < RTE_PMU_MAX_STAGES; i++)
		__atomic_store_n(&stage_reg.period_m1[i], 0, __ATOMIC_RELAXED);
	stage_reg.default_period = 1;
	__atomic_fetch_add(&stage_reg.epoch, 1, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&stage_reg.lock);
}

RTE_INIT(pmu_stage_init)
{
	const struct rte_pmu_callbacks cb = { .lcore_open = stage_on_lcore_open, .fini = on_fini };

	if (rte_pmu_callbacks_register(&cb) != 0)
		STAGE_LOG(ERR, "cannot follow rte_pmu_fini(): stages outlive it");
	rte_lcore_callback_register("pmu_stage", NULL, stage_on_lcore_gone, NULL);
}

int
rte_pmu_stage_reset(void)
{
	uint64_t total[RTE_MAX_NUM_GROUP_EVENTS], misuse;
	struct stage_lcore *sl;
	struct stage_sums now;
	unsigned int lcore_id, id, n;
	uint32_t restarts;

	if (!pmu_ready()) {
		STAGE_LOG(ERR, "stage reset: rte_pmu_init() not called");
		return -ENODEV;
	}
	for (lcore_id = 0; lcore_id < RTE_MAX_LCORE; lcore_id++) {
		sl = stage_lcore_get(lcore_id);
		if (sl == NULL)
			continue;
		/* Each copied without a lock, then set under the baselines' lock,
		 * but not where the state restarted meanwhile (its baselines are
		 * zero again, the copy of before).
		 */
		restarts = __atomic_load_n(&sl->restarts, __ATOMIC_ACQUIRE);
		/* Readers wait for the pass (the ordering: rte_seqcount's). */
		__atomic_fetch_add(&sl->resetting, 1, __ATOMIC_RELAXED);
		rte_atomic_thread_fence(__ATOMIC_RELEASE);
		/* The total's baseline before the stages': what the lcore ends
		 * meanwhile stays in its total (in a stage's figures too, were
		 * it the other way round, with the total after: stages above it).
		 */
		stage_total_read(sl, total, &misuse);
		rte_seqlock_write_lock(&sl->base_lock);
		if (__atomic_load_n(&sl->restarts, __ATOMIC_RELAXED) == restarts) {
			words_copy(sl->base_total, total, sizeof(total));
			__atomic_store_n(&sl->base_lcore_misuse, misuse, __ATOMIC_RELAXED);
		}
		rte_seqlock_write_unlock(&sl->base_lock);
		n = stage_count();
		for (id = 0; id < n; id++) {
			stage_sums_read(sl, id, &now);
			rte_seqlock_write_lock(&sl->base_lock);
			if (__atomic_load_n(&sl->restarts, __ATOMIC_RELAXED) == restarts)
				words_copy(&sl->base[id], &now, sizeof(now));
			rte_seqlock_write_unlock(&sl->base_lock);
		}
		__atomic_fetch_add(&sl->resets, 1, __ATOMIC_RELEASE);
		__atomic_fetch_sub(&sl->resetting, 1, __ATOMIC_RELEASE);
	}
	return 0;
}
