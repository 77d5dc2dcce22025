/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef RTE_PMU_PMC_GENERIC_H
#define RTE_PMU_PMC_GENERIC_H

/**
 * @file
 * Readers for architectures without a user-space counter instruction
 * here. The read path never calls them: without cap_user_rdpmc the page
 * read reports that read() on the event's fd is needed.
 */

#include <stdint.h>

#include <rte_common.h>

/** No user-space counter read on this architecture. */
#define __RTE_PMU_HAVE_USER_READ 0

static __rte_always_inline uint64_t
__rte_pmu_pmc_read(uint32_t user_index __rte_unused)
{
	return 0;
}

static __rte_always_inline uint64_t
__rte_pmu_time_read(void)
{
	return 0;
}

#endif /* RTE_PMU_PMC_GENERIC_H */
