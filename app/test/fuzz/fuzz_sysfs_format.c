/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* libFuzzer target: format specifications ("config:0-7,32-35"). The first
 * 8 input bytes are the value, the rest the specification. It goes to
 * pmu_format_apply() directly, through the fixture file
 * <root>/cpu/format/fz (pmu_sysfs_format_apply()) and through an event
 * name that sets the term.
 */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <linux/perf_event.h>

#include "pmu_private.h"
#include "fuzz_common.h"

/* Longest format file read (PMU_SYSFS_FORMAT_MAX less the NUL). */
#define FORMAT_FILE_MAX 255

/* The field a specification names, NULL for none. */
static __u64 *
spec_field(const char *spec, struct perf_event_attr *attr)
{
	if (strncmp(spec, "config:", 7) == 0)
		return &attr->config;
	if (strncmp(spec, "config1:", 8) == 0)
		return &attr->config1;
	if (strncmp(spec, "config2:", 8) == 0)
		return &attr->config2;
	return NULL;
}

/* Apply to a copy of @p before; check what changed. Returns the result. */
static int
check_apply(const char *spec, uint64_t value, const struct perf_event_attr *before,
	struct perf_event_attr *after)
{
	struct perf_event_attr expect, twice;
	__u64 *field;
	int ret;

	*after = *before;
	ret = pmu_format_apply(spec, value, after);
	FUZZ_RET_IN("pmu_format_apply", ret, -EINVAL, -ERANGE);
	if (ret != 0) {
		FUZZ_ASSERT(memcmp(after, before, sizeof(*after)) == 0,
			"\"%s\": attr changed on error %d", spec, ret);
		return ret;
	}

	field = spec_field(spec, after);
	FUZZ_ASSERT(field != NULL, "\"%s\" accepted without a field name", spec);
	/* Only the named field changes. */
	expect = *before;
	*spec_field(spec, &expect) = *field;
	FUZZ_ASSERT(memcmp(&expect, after, sizeof(expect)) == 0,
		"\"%s\": another field changed", spec);
	/* Applying again changes nothing. */
	twice = *after;
	FUZZ_ASSERT(pmu_format_apply(spec, value, &twice) == 0 &&
		memcmp(&twice, after, sizeof(twice)) == 0, "\"%s\": not idempotent", spec);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_attr before, after, zero_after, file_after, zero;
	char spec[1024];
	char name[64];
	uint64_t value = 0;
	int ret, file_ret;

	if (size < sizeof(value))
		return -1;
	memcpy(&value, data, sizeof(value));
	data += sizeof(value);
	size -= sizeof(value);
	fuzz_string(data, size, spec, sizeof(spec));

	/* A busy attr, so that cleared or moved bits show. */
	memset(&before, 0xa5, sizeof(before));
	ret = check_apply(spec, value, &before, &after);

	/* Ranges are disjoint: placed in a cleared field, no bit is lost. */
	memset(&zero, 0, sizeof(zero));
	FUZZ_ASSERT(check_apply(spec, value, &zero, &zero_after) == ret, "\"%s\"", spec);
	if (ret == 0)
		FUZZ_ASSERT(__builtin_popcountll(*spec_field(spec, &zero_after)) ==
			__builtin_popcountll(value), "\"%s\": 0x%" PRIx64 " lost bits",
			spec, value);

	/* The same specification read from a format file. */
	fuzz_file_write("cpu/format/fz", data, size);
	file_after = before;
	file_ret = pmu_sysfs_format_apply("cpu", "fz", value, &file_after);
	/* Besides its own codes, the file errors of pmu_sysfs_read() (too long). */
	FUZZ_RET_IN("pmu_sysfs_format_apply", file_ret, -EINVAL, -ERANGE, -EOVERFLOW);
	if (size <= FORMAT_FILE_MAX && memchr(data, '\0', size) == NULL)
		FUZZ_ASSERT(file_ret == ret && memcmp(&file_after, &after, sizeof(after)) == 0,
			"\"%s\": file read gives %d, string %d", spec, file_ret, ret);

	/* And set through an event name. */
	snprintf(name, sizeof(name), "cpu/fz=0x%" PRIx64 "/", value);
	fuzz_encode(name, NULL);
	return 0;
}
