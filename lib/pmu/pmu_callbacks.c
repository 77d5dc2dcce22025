/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Libraries built on this one (lib/pmu_stage) learn here of an lcore's
 * open and of rte_pmu_fini(). The table only grows: an entry is written,
 * then published by the count (release), so callers read it without a lock.
 */

#include <errno.h>

#include <rte_common.h>

#include "pmu_callbacks.h"
#include "pmu_log.h"
#include "rte_pmu.h"

#define MAX_CALLBACKS 4

static struct rte_pmu_callbacks table[MAX_CALLBACKS];
static uint32_t count;

int
rte_pmu_callbacks_register(const struct rte_pmu_callbacks *cb)
{
	uint32_t n = __atomic_load_n(&count, __ATOMIC_ACQUIRE);

	if (cb == NULL) {
		PMU_LOG(ERR, "callbacks register: cb is NULL");
		return -EINVAL;
	}
	/* A slot is taken by a compare-and-swap of the count; written next. */
	do {
		if (n == MAX_CALLBACKS) {
			PMU_LOG(ERR, "callbacks register: %d sets at most", MAX_CALLBACKS);
			return -ENOSPC;
		}
	} while (!__atomic_compare_exchange_n(&count, &n, n + 1, false, __ATOMIC_ACQ_REL,
			__ATOMIC_ACQUIRE));
	__atomic_store_n(&table[n].arg, cb->arg, __ATOMIC_RELAXED);
	__atomic_store_n(&table[n].fini, cb->fini, __ATOMIC_RELAXED);
	__atomic_store_n(&table[n].lcore_open, cb->lcore_open, __ATOMIC_RELEASE);

	return 0;
}

int
pmu_callbacks_lcore_open(unsigned int lcore_id)
{
	uint32_t i, n = __atomic_load_n(&count, __ATOMIC_ACQUIRE);
	int (*open)(unsigned int, void *);
	int ret = 0, r;

	for (i = 0; i < n; i++) {
		open = __atomic_load_n(&table[i].lcore_open, __ATOMIC_ACQUIRE);
		if (open == NULL)
			continue;
		r = open(lcore_id, table[i].arg);
		if (ret == 0)
			ret = r;
	}
	return ret;
}

void
pmu_callbacks_fini(void)
{
	uint32_t i, n = __atomic_load_n(&count, __ATOMIC_ACQUIRE);
	void (*fini)(void *);

	for (i = 0; i < n; i++) {
		fini = __atomic_load_n(&table[i].fini, __ATOMIC_ACQUIRE);
		if (fini != NULL)
			fini(table[i].arg);
	}
}
