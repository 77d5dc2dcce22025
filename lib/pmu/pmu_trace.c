/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The datapath's recording read: a regular trace point after the read, so
 * that it records on a DPDK whose fast-path trace points are compiled out.
 */

#include <rte_lcore.h>

#include "rte_pmu.h"
#include "rte_pmu_trace.h"

uint64_t
rte_pmu_read_trace(unsigned int index)
{
	uint64_t value = rte_pmu_read(index);

	rte_pmu_trace_read(rte_lcore_id(), index, value);

	return value;
}
