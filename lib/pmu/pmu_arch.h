/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_ARCH_H
#define PMU_ARCH_H

/* The architecture backend's hook for tests (pmu_arch.c); the backend
 * interface itself is pmu_driver.h.
 */

#include "pmu_driver.h"

/**
 * Put @p ops in place of the registered backend (NULL: none), without the
 * checks of pmu_arch_register(); returns the one it replaces. For tests
 * that run one architecture's fixture trees on another.
 */
const struct pmu_arch_ops *pmu_arch_swap(const struct pmu_arch_ops *ops);

#endif /* PMU_ARCH_H */
