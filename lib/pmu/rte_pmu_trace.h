/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef RTE_PMU_TRACE_H
#define RTE_PMU_TRACE_H

/**
 * @file
 * Trace points of librte_pmu, registered as lib.pmu.* (enable them with the
 * EAL option --trace='lib.pmu.*'). All are regular trace points, so they
 * record on a DPDK built without RTE_ENABLE_TRACE_FP; the datapath records
 * only through rte_pmu_read_trace(). Internal: not installed.
 */

#include <rte_trace_point.h>

#ifdef __cplusplus
extern "C" {
#endif

/* rte_pmu_init() returned ret. */
RTE_TRACE_POINT(
	rte_pmu_trace_init,
	RTE_TRACE_POINT_ARGS(int ret),
	rte_trace_point_emit_int(ret);
)

/* rte_pmu_fini() closed every group. */
RTE_TRACE_POINT(
	rte_pmu_trace_fini,
	RTE_TRACE_POINT_ARGS(void),
)

/* rte_pmu_add_event(name) returned ret (index, or negative errno). Strings
 * in EAL trace records keep their first 31 characters.
 */
RTE_TRACE_POINT(
	rte_pmu_trace_event_add,
	RTE_TRACE_POINT_ARGS(const char *name, int ret),
	rte_trace_point_emit_string(name);
	rte_trace_point_emit_int(ret);
)

/* An lcore opened its group of num_events events: ret 0 or negative errno. */
RTE_TRACE_POINT(
	rte_pmu_trace_group_open,
	RTE_TRACE_POINT_ARGS(uint32_t lcore_id, uint32_t num_events, int ret),
	rte_trace_point_emit_u32(lcore_id);
	rte_trace_point_emit_u32(num_events);
	rte_trace_point_emit_int(ret);
)

/* An lcore's group was closed (fini, or the thread gave its lcore id back). */
RTE_TRACE_POINT(
	rte_pmu_trace_group_close,
	RTE_TRACE_POINT_ARGS(uint32_t lcore_id),
	rte_trace_point_emit_u32(lcore_id);
)

/* A step failed on an lcore: op names it, err is the negative errno. */
RTE_TRACE_POINT(
	rte_pmu_trace_error,
	RTE_TRACE_POINT_ARGS(uint32_t lcore_id, const char *op, int err),
	rte_trace_point_emit_u32(lcore_id);
	rte_trace_point_emit_string(op);
	rte_trace_point_emit_int(err);
)

/* rte_pmu_read_trace(): the lcore read value from event index. */
RTE_TRACE_POINT(
	rte_pmu_trace_read,
	RTE_TRACE_POINT_ARGS(uint32_t lcore_id, uint32_t index, uint64_t value),
	rte_trace_point_emit_u32(lcore_id);
	rte_trace_point_emit_u32(index);
	rte_trace_point_emit_u64(value);
)

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMU_TRACE_H */
