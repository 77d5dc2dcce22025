/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* What the tests of the API against the real kernel share (test_pmu_api.h). */

#include <dirent.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_lcore.h>

#include <rte_pmu.h>

#include "test.h"
#include "test_pmu_api.h"

static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

uint64_t
pmu_api_busy_ms(unsigned int ms)
{
	uint64_t end = thread_cpu_ns() + ms * UINT64_C(1000000);
	uint64_t deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	volatile uint64_t sink = 0;

	while (thread_cpu_ns() < end && rte_get_timer_cycles() < deadline)
		for (int i = 0; i < 1000; i++)
			sink = sink + i;

	return sink;
}

int
pmu_api_setup(void)
{
	return rte_pmu_init() == 0 ? TEST_SUCCESS : TEST_FAILED;
}

void
pmu_api_teardown(void)
{
	rte_pmu_fini();
}

unsigned int
pmu_api_first_worker(void)
{
	return rte_get_next_lcore(-1, 1, 0);
}

int
pmu_api_count_fds(void)
{
	struct dirent *de;
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	if (dir == NULL)
		return -1;
	while ((de = readdir(dir)) != NULL)
		n += de->d_name[0] != '.';
	closedir(dir);

	return n;
}

unsigned int
pmu_api_count_in(const char *text, const char *what)
{
	unsigned int n = 0;

	for (; text != NULL && (text = strstr(text, what)) != NULL; text++)
		n++;

	return n;
}
