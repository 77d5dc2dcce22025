/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_STAGE_TRACE_H
#define PMU_STAGE_TRACE_H

/* The stage library's trace point. Not installed. */

#include <rte_trace_point.h>

/* rte_pmu_stage_register(name) returned ret (stage id, or negative errno). */
RTE_TRACE_POINT(
	rte_pmu_trace_stage_register,
	RTE_TRACE_POINT_ARGS(const char *name, int ret),
	rte_trace_point_emit_string(name);
	rte_trace_point_emit_int(ret);
)

#endif /* PMU_STAGE_TRACE_H */
