/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_LSAN_H
#define TEST_PMU_LSAN_H

/* A telemetry handler called in process (pmu_telemetry_call()) fills its
 * reply with containers that the telemetry library frees only when it
 * writes the reply to a socket; rte_tel_data_free() frees the outer reply
 * alone, and the public API cannot reach the rest. Tests that call the
 * handlers directly wrap the calls in LSAN_OFF()/LSAN_ON(), so that
 * LeakSanitizer does not report those containers; the socket path, which
 * frees them, is tested with a real client (ci-observe).
 */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define LSAN_OFF() __lsan_disable()
#define LSAN_ON() __lsan_enable()
#else
#define LSAN_OFF() do { } while (0)
#define LSAN_ON() do { } while (0)
#endif

#endif /* TEST_PMU_LSAN_H */
