/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_PRIVATE_H
#define PMU_PRIVATE_H

/* For tests only (app/test, linked statically): every internal header of
 * librte_pmu in one include. No file of lib/pmu includes it; each includes
 * the headers of what it uses, each header named for the file that defines
 * what it declares (devtools/check-structure.py checks both). Nothing here
 * is installed; drivers use pmu_driver.h.
 *
 * Layers, bottom to top, each calling and including only down:
 *   pmu_log.c           the log type and its macros (pmu_log.h)
 *   pmu_sysfs.c         the PMU folders in sysfs (pmu_sysfs.h)
 *   pmu_event_names.c, pmu_event_terms.c, pmu_pfm.c
 *                       perf's names, sysfs terms, vendor names (pmu_event.h)
 *   pmu_callbacks.c     what libraries built on this one are told (pmu_callbacks.h)
 *   pmu_arch.c          the architecture backend (pmu_driver.h, pmu_arch.h;
 *                       drivers/pmu/<arch>)
 *   pmu_core.c          the core PMU of a CPU set (pmu_event.h)
 *   pmu_event.c         event names -> attributes (pmu_event.h)
 *   pmu_state.c         the state container and its lock (pmu_state.h)
 *   pmu_fd.c            perf_event file descriptors (pmu_fd.h)
 *   pmu_group.c         preparing events, opening a group, no lock (pmu_group.h)
 *   pmu.c               the control path: init, fini, add, an lcore's open
 *                       and close; owns every counter of the state (pmu.h)
 *   pmu_read.c          the read path outside the inline fast path (pmu_read.h)
 *   pmu_snapshot.c      snapshots of a group (pmu_snapshot.h)
 *   pmu_list.c, pmu_observe.c, pmu_telemetry.c, pmu_trace*.c
 *                       observers (pmu_observe.h)
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_compat.h>
#include <rte_cycles.h>
#include <rte_lcore.h>

#include "rte_pmu.h"
#include "pmu.h"
#include "pmu_arch.h"
#include "pmu_callbacks.h"
#include "pmu_driver.h"
#include "pmu_event.h"
#include "pmu_fd.h"
#include "pmu_group.h"
#include "pmu_log.h"
#include "pmu_read.h"
#include "pmu_snapshot.h"
#include "pmu_state.h"
#include "pmu_sysfs.h"

#endif /* PMU_PRIVATE_H */
