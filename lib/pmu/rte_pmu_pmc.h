/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef RTE_PMU_PMC_H
#define RTE_PMU_PMC_H

/**
 * @file
 * The architecture's counter access for the user-page read. Internal to
 * rte_pmu; included by rte_pmu_page.h. Do not include directly.
 *
 * Each architecture has one header, rte_pmu_pmc_<arch>.h, and it must
 * provide:
 *  - __RTE_PMU_HAVE_USER_READ: 1 when a counter can be read from user
 *    space with an instruction, 0 when every read is a read() system call;
 *  - uint64_t __rte_pmu_pmc_read(uint32_t user_index): the raw counter for
 *    the page's 1-based index, called only inside the page's seqlock and
 *    only when the page says cap_user_rdpmc and index != 0;
 *  - uint64_t __rte_pmu_time_read(void): the clock that the page's time_*
 *    fields convert to nanoseconds (TSC on x86, the virtual counter on
 *    arm64);
 * and may provide, to load page fields in fewer instructions:
 *  - __RTE_PMU_LOAD_PAIR(pc, f1, f2, v1, v2): two adjacent fields, untorn
 *    each (default: two __RTE_PMU_LOAD()s);
 *  - __RTE_PMU_LOAD_WIDTH(pc): pmc_width as a 32-bit value;
 *  - __RTE_PMU_SCALE_INLINE: 1 (the default) to scale a multiplexed counter
 *    in rte_pmu_read() itself, 0 to leave that to the out-of-line
 *    __rte_pmu_read_fd(), where the scaling code's registers would make
 *    the common path save and restore some (x86-64).
 * Every field load must have READ_ONCE semantics (see __RTE_PMU_LOAD()).
 */

/* RTE_ARCH_*: the header may come first in a file that has no other. */
#include <rte_config.h>

#if defined(RTE_ARCH_X86_64)
#include "rte_pmu_pmc_x86_64.h"
#elif defined(RTE_ARCH_ARM64)
#include "rte_pmu_pmc_arm64.h"
#else
#include "rte_pmu_pmc_generic.h"
#endif

#if !defined(__RTE_PMU_HAVE_USER_READ)
#error "rte_pmu_pmc_<arch>.h must define __RTE_PMU_HAVE_USER_READ"
#endif

#ifndef __RTE_PMU_SCALE_INLINE
#define __RTE_PMU_SCALE_INLINE 1
#endif

#endif /* RTE_PMU_PMC_H */
