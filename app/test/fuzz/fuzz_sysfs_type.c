/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* libFuzzer target: a PMU's type file. The input becomes <root>/fz/type of
 * the fixture; pmu_sysfs_type() must agree with a plain reading of the
 * bytes (decimal digits, trailing newlines, at most 31 bytes, up to
 * UINT32_MAX), and an event of that PMU must encode or fail as documented.
 */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pmu_private.h"
#include "fuzz_common.h"

/* Longest type file pmu_sysfs_type() reads (its buffer less the NUL). */
#define TYPE_FILE_MAX 31

/* The type the bytes spell, or false when they do not spell one. */
static bool
type_expected(const uint8_t *data, size_t size, uint32_t *type, bool *too_big)
{
	uint64_t v = 0;
	size_t len = strnlen((const char *)data, size);
	size_t i;

	*too_big = false;
	while (len > 0 && data[len - 1] == '\n')
		len--;
	if (len == 0)
		return false;
	for (i = 0; i < len; i++) {
		if (data[i] < '0' || data[i] > '9') {
			/* Digits before the junk may already be out of range. */
			*too_big = v > UINT32_MAX;
			return false;
		}
		if (v <= UINT32_MAX)
			v = v * 10 + (uint64_t)(data[i] - '0');
	}
	if (v > UINT32_MAX) {
		*too_big = true;
		return false;
	}
	*type = (uint32_t)v;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t type = 0xdeadbeef;
	uint32_t want = 0;
	bool ok, too_big;
	int ret;

	fuzz_file_write("fz/type", data, size);

	ret = pmu_sysfs_type("fz", &type);
	FUZZ_RET_IN("pmu_sysfs_type", ret, -EINVAL, -ERANGE, -EOVERFLOW);
	if (size > TYPE_FILE_MAX) {
		FUZZ_ASSERT(ret == -EOVERFLOW, "%zu bytes read as %d", size, ret);
	} else {
		ok = type_expected(data, size, &want, &too_big);
		if (ok)
			FUZZ_ASSERT(ret == 0 && type == want, "ret %d type %u, want %u",
				ret, type, want);
		else
			FUZZ_ASSERT(ret == -EINVAL || (too_big && ret == -ERANGE),
				"ret %d for a file that is not a type", ret);
	}
	if (ret != 0)
		FUZZ_ASSERT(type == 0xdeadbeef, "type written on error %d", ret);

	/* The same file behind an event name. */
	fuzz_encode("fz/config=1/", ret == 0 ? &type : NULL);
	return 0;
}
