/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The stage library's trace point, registered (a file of its own: with
 * rte_trace_point_register.h included, a trace point only registers).
 */

#include <rte_trace_point_register.h>

#include "pmu_stage_trace.h"

RTE_TRACE_POINT_REGISTER(rte_pmu_trace_stage_register, lib.pmu.stage.register)
