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

#endif /* TEST_PMU_TEL_SOCKET_H */
