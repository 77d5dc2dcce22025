/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_TEL_SOCKET_H
#define TEST_PMU_TEL_SOCKET_H

/* The process's own telemetry socket, as a client sees it. */

#include <stddef.h>

/* A socket to the process's telemetry, its greeting read; -ENOENT where
 * EAL runs without telemetry, another negative errno on failure.
 */
int tel_socket_open(void);

/* Send @p cmd on @p sock; the reply, NUL-terminated, in @p buf. */
int tel_socket_cmd(int sock, const char *cmd, char *buf, size_t len);

/* Run a telemetry command of librte_pmu or librte_pmu_stage in-process;
 * the reply data is dropped (see test_pmu_lsan.h). Returns its handler's
 * return, -ENOENT for no such command.
 */
int tel_call(const char *cmd, const char *params);

/* rte_pmu_init() with task-clock (index 0) and page-faults (index 1), the
 * setup of the telemetry tests; TEST_SUCCESS or TEST_FAILED.
 */
int tel_pmu_setup(void);

/* rte_pmu_fini(): their teardown. */
void tel_pmu_teardown(void);

#endif /* TEST_PMU_TEL_SOCKET_H */
