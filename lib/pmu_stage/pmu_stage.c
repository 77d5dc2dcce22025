/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Stages: the registry (names, periods), each lcore's state and its sync
 * with the registry, the reset, and what librte_pmu tells this library
 * (an lcore's open, rte_pmu_fini()). The registry's lock is taken by the
 * control path only; no lcore ever takes it.
 */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_string_fns.h>

#include "pmu_stage_private.h"
#include "pmu_stage_trace.h"

RTE_LOG_REGISTER_DEFAULT(pmu_stage_logtype, INFO);

struct stage_registry stage_reg = { .default_period = 1 };

/* Where a thread's stage calls go before its first one: no stage known,
 * so every call goes out of line, which gives the thread its own state.
 */
static struct stage_lcore stage_none = { .lcore_id = RTE_MAX_LCORE };

RTE_DEFINE_PER_LCORE(struct __rte_pmu_stage_lcore *, _pmu_stage) = &stage_none.pub;

/* A stage name: printable, no space, not too long. */
static int
name_check(const char *name)
{
	size_t len, i;

	if (name == NULL) {
		STAGE_LOG(ERR, "stage name is NULL");
		return -EINVAL;
	}
	len = strnlen(name, RTE_PMU_STAGE_NAME_MAX);
	for (i = 0; i < len && isgraph((unsigned char)name[i]); i++)
		;
	if (len == 0 || len == RTE_PMU_STAGE_NAME_MAX || i < len) {
		STAGE_LOG(ERR, "stage name '%.*s': 1 to %d printable characters, no space",
			(int)i, name, RTE_PMU_STAGE_NAME_MAX - 1);
		return -EINVAL;
	}
	return 0;
}

/* Whether rte_pmu_init() was called: librte_pmu says -ENODEV otherwise. */
static bool
pmu_ready(void)
{
	return rte_pmu_lcore_status(0) != -ENODEV;
}

int
rte_pmu_stage_register_bulk(const char *const *names, unsigned int n, unsigned int *ids)
{
	unsigned int i, j, count, failed = 0;
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
		for (i = 0; i < n && ret == 0; i++) {
			for (j = 0; j < count && strcmp(stage_reg.names[j], names[i]) != 0; j++)
				;
			ids[i] = j;
			if (j < count)
				continue;
			if (count == RTE_PMU_MAX_STAGES) {
				failed = i;
				ret = -ENOSPC;
				break;
			}
			strlcpy(stage_reg.names[count], names[i], RTE_PMU_STAGE_NAME_MAX);
			__atomic_store_n(&stage_reg.period_m1[count], stage_reg.default_period - 1,
				__ATOMIC_RELAXED);
			count++;
		}
		if (ret == 0)
			__atomic_store_n(&stage_reg.count, count, __ATOMIC_RELEASE);
		rte_spinlock_unlock(&stage_reg.lock);
	}
	if (ret == -ENODEV)
		STAGE_LOG(ERR, "stage %s: rte_pmu_init() not called", n > 0 ? names[0] : "");
	else if (ret == -ENOSPC)
		STAGE_LOG(ERR, "stage %s: no room for it (%d stages at most), none of the %u "
			"registered", names[failed], RTE_PMU_MAX_STAGES, n);
	for (i = 0; i < n; i++)
		rte_pmu_trace_stage_register(names[i] != NULL ? names[i] : "",
			ret == 0 ? (int)ids[i] : ret);
	return ret;
}

int
rte_pmu_stage_register(const char *name)
{
	unsigned int id;
	int ret;

	ret = rte_pmu_stage_register_bulk(&name, 1, &id);
	return ret == 0 ? (int)id : ret;
}

int
rte_pmu_stage_sampling_set(unsigned int id, unsigned int period)
{
	unsigned int i, count;
	int ret = 0;

	if (period == 0 || period > 65536) {
		STAGE_LOG(ERR, "stage %u: sampling period %u out of range (1 to 65536)", id,
			period);
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
	rte_spinlock_unlock(&stage_reg.lock);
	if (ret != 0)
		STAGE_LOG(ERR, "stage %u: not registered (%u stages)", id, count);
	return ret;
}

int
rte_pmu_stage_info(unsigned int id, char *name, unsigned int *period)
{
	int ret = 0;

	if (name == NULL) {
		STAGE_LOG(ERR, "stage info: name is NULL");
		return -EINVAL;
	}
	if (!pmu_ready())
		return -ENODEV;
	rte_spinlock_lock(&stage_reg.lock);
	if (id < stage_reg.count) {
		strlcpy(name, stage_reg.names[id], RTE_PMU_STAGE_NAME_MAX);
		if (period != NULL)
			*period = stage_reg.period_m1[id] + 1;
	} else {
		ret = -EINVAL;
	}
	rte_spinlock_unlock(&stage_reg.lock);
	return ret;
}

int
rte_pmu_stage_count(void)
{
	return pmu_ready() ? (int)stage_count() : -ENODEV;
}

struct stage_lcore *
stage_lcore_get(unsigned int lcore_id)
{
	struct stage_lcore *sl = __atomic_load_n(&stage_reg.lcores[lcore_id], __ATOMIC_ACQUIRE);

	if (sl == NULL || sl->epoch != __atomic_load_n(&stage_reg.epoch, __ATOMIC_ACQUIRE))
		return NULL;
	return sl;
}

/* The state of the calling lcore @p lcore_id, allocated at its first call
 * (by the lcore: its pages are placed on its node as it touches them).
 */
static struct stage_lcore *
lcore_alloc(unsigned int lcore_id)
{
	struct stage_lcore *sl = __atomic_load_n(&stage_reg.lcores[lcore_id], __ATOMIC_ACQUIRE);
	size_t size = sizeof(*sl) + sizeof(uint64_t) * STAGE_IDS +
		sizeof(struct stage_sums) * (STAGE_IDS + RTE_PMU_MAX_STAGES);

	if (sl != NULL)
		return sl;
	sl = aligned_alloc(RTE_CACHE_LINE_SIZE, RTE_ALIGN_CEIL(size, RTE_CACHE_LINE_SIZE));
	if (sl == NULL) {
		STAGE_LOG(ERR, "lcore %u: no memory for its stage state (%zu bytes): its stage "
			"calls are not counted", lcore_id, size);
		return NULL;
	}
	memset(sl, 0, size);
	sl->lcore_id = lcore_id;
	sl->epoch = UINT32_MAX;
	sl->figs = (struct stage_sums *)(sl + 1);
	sl->base = sl->figs + STAGE_IDS;
	sl->pub.pending = (uint64_t *)(sl->base + RTE_PMU_MAX_STAGES);
	sl->pub.period_m1 = stage_reg.period_m1;
	rte_seqcount_init(&sl->seq);
	rte_seqlock_init(&sl->base_lock);
	__atomic_store_n(&stage_reg.lcores[lcore_id], sl, __ATOMIC_RELEASE);
	return sl;
}

/* Start @p sl again for this epoch: nothing counted, its events, its
 * calibration.
 */
static void
lcore_restart(struct stage_lcore *sl, uint32_t epoch)
{
	uint64_t v[RTE_MAX_NUM_GROUP_EVENTS] = { 0 };

	/* Opens the group where it is not: then its events are known. */
	rte_pmu_read_group(v, RTE_MAX_NUM_GROUP_EVENTS);
	__atomic_store_n(&sl->pub.limit, 0, __ATOMIC_RELAXED);
	rte_seqcount_write_begin(&sl->seq);
	memset(sl->figs, 0, sizeof(*sl->figs) * STAGE_IDS);
	memset(sl->pub.pending, 0, sizeof(uint64_t) * STAGE_IDS);
	sl->lcore_misuse = 0;
	sl->num_events = rte_pmu_lcore_num_events();
	sl->pages = RTE_PER_LCORE(_pmu_group)->mmap_pages;
	rte_seqcount_write_end(&sl->seq);
	rte_seqlock_write_lock(&sl->base_lock);
	memset(sl->base, 0, sizeof(*sl->base) * RTE_PMU_MAX_STAGES);
	memset(sl->base_total, 0, sizeof(sl->base_total));
	sl->base_lcore_misuse = 0;
	rte_seqlock_write_unlock(&sl->base_lock);
	sl->depth = 0;
	memset(sl->open, 0, sizeof(sl->open));
	memset(sl->frames, 0, sizeof(sl->frames));
	sl->misuse_logged = 0;
	sl->epoch = epoch;
	stage_calibrate(sl);
	/* The lcore's whole counts from here. */
	rte_pmu_read_group(v, sl->num_events);
	rte_seqcount_write_begin(&sl->seq);
	memcpy(sl->first, v, sizeof(v));
	memcpy(sl->last, v, sizeof(v));
	rte_seqcount_write_end(&sl->seq);
}

struct stage_lcore *
stage_lcore_sync(struct stage_lcore *sl)
{
	static uint32_t not_lcore_logged;
	unsigned int lcore_id = rte_lcore_id();
	uint32_t epoch = __atomic_load_n(&stage_reg.epoch, __ATOMIC_ACQUIRE);

	if (lcore_id >= RTE_MAX_LCORE) {
		if (__atomic_fetch_or(&not_lcore_logged, 1, __ATOMIC_RELAXED) == 0)
			STAGE_LOG(ERR, "stage call from a thread that is not an lcore: not counted "
				"(register the thread with rte_thread_register())");
		return NULL;
	}
	/* Counted from rte_pmu_init() on (a new stage needs no check). */
	if ((sl == &stage_none || sl->epoch != epoch) && !pmu_ready())
		return NULL;
	if (sl == &stage_none) {
		sl = lcore_alloc(lcore_id);
		if (sl == NULL)
			return NULL;
		RTE_PER_LCORE(_pmu_stage) = &sl->pub;
	}
	if (sl->epoch != epoch)
		lcore_restart(sl, epoch);
	__atomic_store_n(&sl->known, stage_count(), __ATOMIC_RELAXED);
	if (sl->depth == 0)
		__atomic_store_n(&sl->pub.limit, stage_limit(sl), __ATOMIC_RELAXED);
	return sl;
}

/* rte_pmu_lcore_open() on @p lcore_id: its state, synced and calibrated. */
static int
on_lcore_open(unsigned int lcore_id __rte_unused, void *arg __rte_unused)
{
	struct stage_lcore *sl = stage_lcore_of(RTE_PER_LCORE(_pmu_stage));

	if (sl != &stage_none && sl->epoch == __atomic_load_n(&stage_reg.epoch,
			__ATOMIC_ACQUIRE))
		sl->epoch = UINT32_MAX;   /* its events may be new: again */
	return stage_lcore_sync(sl) != NULL ? 0 : -ENOMEM;
}

/* rte_pmu_fini(): every stage goes; lcores start again at their next call. */
static void
on_fini(void *arg __rte_unused)
{
	unsigned int i;

	rte_spinlock_lock(&stage_reg.lock);
	for (i = 0; i < RTE_MAX_LCORE; i++)
		if (stage_reg.lcores[i] != NULL) {
			__atomic_store_n(&stage_reg.lcores[i]->pub.limit, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&stage_reg.lcores[i]->known, 0, __ATOMIC_RELAXED);
		}
	__atomic_store_n(&stage_reg.count, 0, __ATOMIC_RELEASE);
	for (i = 0; i < RTE_PMU_MAX_STAGES; i++)
		__atomic_store_n(&stage_reg.period_m1[i], 0, __ATOMIC_RELAXED);
	stage_reg.default_period = 1;
	__atomic_fetch_add(&stage_reg.epoch, 1, __ATOMIC_RELEASE);
	rte_spinlock_unlock(&stage_reg.lock);
}

/* A registered thread gives its lcore id back: the id's next thread
 * starts again.
 */
static void
on_lcore_gone(unsigned int lcore_id, void *arg __rte_unused)
{
	struct stage_lcore *sl;

	if (lcore_id >= RTE_MAX_LCORE)
		return;
	if (lcore_id == rte_lcore_id())
		RTE_PER_LCORE(_pmu_stage) = &stage_none.pub;
	sl = __atomic_load_n(&stage_reg.lcores[lcore_id], __ATOMIC_ACQUIRE);
	if (sl != NULL) {
		__atomic_store_n(&sl->pub.limit, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sl->known, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sl->epoch, UINT32_MAX, __ATOMIC_RELEASE);
	}
}

RTE_INIT(pmu_stage_init)
{
	const struct rte_pmu_callbacks cb = { .lcore_open = on_lcore_open, .fini = on_fini };

	if (rte_pmu_callbacks_register(&cb) != 0)
		STAGE_LOG(ERR, "cannot follow rte_pmu_fini(): stages outlive it");
	rte_lcore_callback_register("pmu_stage", NULL, on_lcore_gone, NULL);
}

int
rte_pmu_stage_reset(void)
{
	uint64_t total[RTE_MAX_NUM_GROUP_EVENTS], misuse;
	struct stage_lcore *sl;
	struct stage_sums now;
	unsigned int lcore_id, id, n;
	uint32_t sn;

	if (!pmu_ready()) {
		STAGE_LOG(ERR, "stage reset: rte_pmu_init() not called");
		return -ENODEV;
	}
	for (lcore_id = 0; lcore_id < RTE_MAX_LCORE; lcore_id++) {
		sl = stage_lcore_get(lcore_id);
		if (sl == NULL)
			continue;
		/* Each copied without a lock, then set under the baselines' lock. */
		n = stage_count();
		for (id = 0; id < n; id++) {
			stage_sums_read(sl, id, &now);
			rte_seqlock_write_lock(&sl->base_lock);
			sl->base[id] = now;
			rte_seqlock_write_unlock(&sl->base_lock);
		}
		do {
			sn = rte_seqcount_read_begin(&sl->seq);
			misuse = __atomic_load_n(&sl->lcore_misuse, __ATOMIC_RELAXED);
			for (id = 0; id < RTE_MAX_NUM_GROUP_EVENTS; id++)
				total[id] = __atomic_load_n(&sl->last[id], __ATOMIC_RELAXED) -
					sl->first[id];
		} while (rte_seqcount_read_retry(&sl->seq, sn));
		rte_seqlock_write_lock(&sl->base_lock);
		memcpy(sl->base_total, total, sizeof(total));
		sl->base_lcore_misuse = misuse;
		rte_seqlock_write_unlock(&sl->base_lock);
	}
	return 0;
}
