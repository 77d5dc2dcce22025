/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* read() system calls counted by the kernel (see test_pmu_syscount.h). */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_pmu_syscount.h"

int
syscount_open(struct syscount *sc)
{
	sc->own = 0;
	sc->fd = open("/proc/thread-self/io", O_RDONLY | O_CLOEXEC);
	if (sc->fd < 0)
		return -errno;
	if (syscount_reads(sc) == UINT64_MAX) {
		syscount_close(sc);
		return -ENOTSUP;
	}

	return 0;
}

uint64_t
syscount_reads(struct syscount *sc)
{
	char buf[512];
	const char *p;
	uint64_t count;
	ssize_t n;

	/* The kernel counts a read when it ends, so the count seen leaves
	 * this one out but has each earlier count's read: take those off.
	 */
	n = pread(sc->fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return UINT64_MAX;
	buf[n] = '\0';
	p = strstr(buf, "syscr: ");
	if (p == NULL || sscanf(p + 7, "%" SCNu64, &count) != 1 || count < sc->own)
		return UINT64_MAX;

	return count - sc->own++;
}

void
syscount_close(struct syscount *sc)
{
	if (sc->fd >= 0)
		close(sc->fd);
	sc->fd = -1;
}
