/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* libFuzzer target: the events/ file parser. The input becomes the file
 * <root>/cpu/events/fz of the fixture, then the event is encoded by its
 * bare name, as "cpu/fz/" and with the terms the fixture's events leave to
 * the user.
 */

#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_file_write("cpu/events/fz", data, size);

	fuzz_encode("fz", NULL);
	fuzz_encode("cpu/fz/", NULL);
	fuzz_encode("cpu/fz,cmask=3,ldlat=0x10/", NULL);
	return 0;
}
