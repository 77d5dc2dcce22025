/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The process's own telemetry socket, for the tests that query it. */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_telemetry.h>

#include <rte_pmu.h>

#include "pmu_observe.h"
#include "pmu_stage_private.h"
#include "test.h"
#include "test_pmu_lsan.h"

#include "test_pmu_tel_socket.h"

int
tel_socket_open(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char hello[1024];
	int sock;

	if ((size_t)snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/dpdk_telemetry.v2",
			rte_eal_get_runtime_dir()) >= sizeof(addr.sun_path) ||
			access(addr.sun_path, F_OK) != 0)
		return -ENOENT;
	sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return -errno;
	if (connect(sock, (struct sockaddr *)&addr, sizeof(addr)) != 0 ||
			recv(sock, hello, sizeof(hello), 0) <= 0) {
		close(sock);
		return -EIO;
	}

	return sock;
}

int
tel_socket_cmd(int sock, const char *cmd, char *buf, size_t len)
{
	ssize_t n;

	if (send(sock, cmd, strlen(cmd), 0) < 0)
		return -errno;
	n = recv(sock, buf, len - 1, 0);
	if (n <= 0)
		return n < 0 ? -errno : -ENODATA;
	buf[n] = '\0';

	return 0;
}

int
tel_call(const char *cmd, const char *params)
{
	struct rte_tel_data *d = rte_tel_data_alloc();
	int ret;

	if (d == NULL)
		return -ENOMEM;
	LSAN_OFF();
	ret = pmu_telemetry_call(cmd, params, d);
	if (ret == -ENOENT)
		ret = stage_telemetry_call(cmd, params, d);
	LSAN_ON();
	rte_tel_data_free(d);

	return ret;
}

int
tel_pmu_setup(void)
{
	if (rte_pmu_init() != 0 || rte_pmu_add_event("task-clock") != 0 ||
			rte_pmu_add_event("page-faults") != 1)
		return TEST_FAILED;

	return TEST_SUCCESS;
}

void
tel_pmu_teardown(void)
{
	rte_pmu_fini();
}
