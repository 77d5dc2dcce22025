/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The stage library's state container and log type, which every other file
 * of the library uses (pmu_stage_private.h says who writes what).
 */

#include <rte_log.h>

#include "pmu_stage_private.h"

RTE_LOG_REGISTER_DEFAULT(pmu_stage_logtype, INFO);

struct stage_registry stage_reg = { .default_period = 1 };

uint64_t stage_zeros[STAGE_IDS];
