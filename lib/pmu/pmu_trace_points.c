/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#include <rte_trace_point_register.h>

#include "rte_pmu_trace.h"

RTE_TRACE_POINT_REGISTER(rte_pmu_trace_init, lib.pmu.init)
RTE_TRACE_POINT_REGISTER(rte_pmu_trace_fini, lib.pmu.fini)
RTE_TRACE_POINT_REGISTER(rte_pmu_trace_event_add, lib.pmu.event.add)
RTE_TRACE_POINT_REGISTER(rte_pmu_trace_group_open, lib.pmu.group.open)
RTE_TRACE_POINT_REGISTER(rte_pmu_trace_group_close, lib.pmu.group.close)
RTE_TRACE_POINT_REGISTER(rte_pmu_trace_error, lib.pmu.error)
RTE_TRACE_POINT_REGISTER(rte_pmu_trace_read, lib.pmu.read)
