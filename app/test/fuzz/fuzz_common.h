/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

/* Shared by the libFuzzer targets: the fixture sysfs tree of the unit tests
 * (made once, x86 root), the library's log lines counted instead of printed,
 * and checks that abort, so that libFuzzer records the input as a crash.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Abort with a message when @p cond is false. */
#define FUZZ_ASSERT(cond, fmt, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "FUZZ CHECK FAILED %s:%d: %s: " fmt "\n", \
			__FILE__, __LINE__, #cond, ##__VA_ARGS__); \
		abort(); \
	} \
} while (0)

/* Abort unless @p ret is 0 or one of the negative errnos in @p allowed. */
#define FUZZ_RET_IN(what, ret, ...) do { \
	static const int _allowed[] = { __VA_ARGS__ }; \
	fuzz_ret_check(what, ret, _allowed, sizeof(_allowed) / sizeof(_allowed[0])); \
} while (0)

void fuzz_ret_check(const char *what, int ret, const int *allowed, size_t n);

/* Copy @p size bytes of input into @p buf as a string (cut at @p len - 1). */
char *fuzz_string(const uint8_t *data, size_t size, char *buf, size_t len);

/* Replace the fixture file @p rel (under the x86 root) with the input. */
void fuzz_file_write(const char *rel, const uint8_t *data, size_t size);

/* Library log lines written so far. */
unsigned long fuzz_log_lines(void);

/*
 * pmu_event_encode(@p name) with the fixture's core PMU "cpu", checked:
 * a documented return code; on error a log line and a cleared description;
 * on success a PMU type of the fixture (or @p fz_type, the type of PMU "fz"
 * when not NULL) and a PMU name inside the root; the same result twice.
 * Returns what pmu_event_encode() returned.
 */
int fuzz_encode(const char *name, const uint32_t *fz_type);

#endif /* FUZZ_COMMON_H */
