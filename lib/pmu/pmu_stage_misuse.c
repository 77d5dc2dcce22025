/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Stage calls that are misuse: counted per lcore, the first of each kind
 * logged. Used by the slow paths of begin and end (pmu_stage.c) and by the
 * end of a measured call around a function (pmu_stage_measure.c).
 */

#include <errno.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include "pmu_private.h"
#include "rte_pmu_trace.h"

static const char *const misuse_what[] = {
	[PMU_STAGE_MISUSE_UNKNOWN_ID] = "stage id not registered",
	[PMU_STAGE_MISUSE_END_WITHOUT_BEGIN] =
		"end of a stage that is not the innermost one begun",
	[PMU_STAGE_MISUSE_BEGIN_TWICE] = "begin of a stage already begun",
	[PMU_STAGE_MISUSE_TOO_DEEP] = "stages nested deeper than RTE_PMU_STAGE_DEPTH",
	[PMU_STAGE_MISUSE_NOT_LCORE] = "stage call from a thread that is not an lcore",
};

void __rte_cold
pmu_stage_misuse(struct __rte_pmu_stage_lcore *sl, enum pmu_stage_misuse kind,
	unsigned int id)
{
	unsigned int lcore_id = rte_lcore_id();
	static uint32_t not_lcore_logged;

	if (sl == NULL) {
		if (__atomic_fetch_or(&not_lcore_logged, 1, __ATOMIC_RELAXED) == 0)
			PMU_LOG(ERR, "stage %u: %s: ignored (register the thread with "
				"rte_thread_register())", id, misuse_what[kind]);
		return;
	}
	__atomic_store_n(&sl->misuse, sl->misuse + 1, __ATOMIC_RELAXED);
	rte_pmu_trace_error(lcore_id, "stage", -EINVAL);
	if ((sl->misuse_logged & (1u << kind)) != 0)
		return;
	sl->misuse_logged |= 1u << kind;
	PMU_LOG(ERR, "lcore %u, stage %u: %s: not counted (rte_pmu_stage_stats::misuse "
		"counts such calls, only the first of each kind is logged)", lcore_id, id,
		misuse_what[kind]);
}
