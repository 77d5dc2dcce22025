/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* libFuzzer target: event names (pmu_event_encode) over the fixture's x86
 * sysfs tree, core PMU "cpu". The input is the name.
 */

#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char name[512];

	fuzz_encode(fuzz_string(data, size, name, sizeof(name)), NULL);
	return 0;
}
