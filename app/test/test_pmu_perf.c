/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* pmu_perf_autotest: what a read costs, printed, never asserted. Each
 * figure is set against baselines measured in the same run: an empty
 * loop, rte_rdtsc(), and a plain read() of a perf_event fd. Where the
 * machine counts instructions, the instructions per rte_pmu_read() are
 * printed as well (exact in the arm64 guest under QEMU -icount).
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include <rte_pmu.h>

#include "pmu_private.h"
#include "test.h"

#define PERF_READS 200000u

static unsigned int idx_instr = UINT32_MAX;
static unsigned int idx_cycles = UINT32_MAX;
static unsigned int idx_sw = UINT32_MAX;

struct cost {
	double ns;
	double instr; /* < 0: not measured */
};

/* Run @fn @n times; ns and (if counted) instructions per call. */
#define MEASURE(result, n, body) do { \
	uint64_t _i0 = 0, _i1 = 0, _t0, _t1; \
	if (idx_instr != UINT32_MAX) \
		_i0 = rte_pmu_read(idx_instr); \
	_t0 = rte_rdtsc_precise(); \
	for (unsigned int _k = 0; _k < (n); _k++) { \
		body; \
		rte_compiler_barrier(); \
	} \
	_t1 = rte_rdtsc_precise(); \
	if (idx_instr != UINT32_MAX) \
		_i1 = rte_pmu_read(idx_instr); \
	(result).ns = (double)(_t1 - _t0) * 1e9 / rte_get_tsc_hz() / (n); \
	(result).instr = idx_instr != UINT32_MAX ? (double)(_i1 - _i0) / (n) : -1.0; \
} while (0)

static void
print_cost(const char *what, const struct cost *c, const struct cost *base,
	const struct cost *ref, const char *ref_name)
{
	printf("  %-34s %9.1f ns", what, c->ns - base->ns);
	if (c->instr >= 0)
		printf("  %7.1f instr", c->instr - base->instr);
	if (ref != NULL && ref->ns - base->ns > 0)
		printf("  (%.3fx %s)", (c->ns - base->ns) / (ref->ns - base->ns), ref_name);
	printf("\n");
}

static struct perf_event_mmap_page fake_page;

static uint64_t
fake_pmc(uint32_t user_index)
{
	return user_index;
}

static uint64_t
fake_time(void)
{
	return 0;
}

static int
test_pmu_perf(void)
{
	struct perf_event_attr attr;
	struct cost base, tsc, sys, fast_algo, hw = { 0, -1 }, sw;
	volatile uint64_t sink = 0;
	uint64_t buf[8];
	int fd, ret;

	if (rte_pmu_init() != 0)
		TEST_SKIP("rte_pmu_init failed");

	ret = rte_pmu_add_event("instructions");
	if (ret >= 0)
		idx_instr = ret;
	ret = rte_pmu_add_event("cycles");
	if (ret >= 0)
		idx_cycles = ret;
	ret = rte_pmu_add_event("task-clock");
	if (ret < 0) {
		rte_pmu_fini();
		TEST_SKIP("task-clock unavailable: %s", strerror(-ret));
	}
	idx_sw = ret;
	/* Open the group outside the measurements. */
	sink += rte_pmu_read(idx_sw);

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	fd = pmu_fd_open(&attr, -1);
	if (fd < 0) {
		rte_pmu_fini();
		TEST_SKIP("perf_event_open(task-clock): %s", strerror(-fd));
	}

	/* A constructed page: the algorithm alone, no counter instruction. */
	fake_page.index = 1;
	fake_page.cap_user_rdpmc = 1;
	fake_page.pmc_width = 48;

	/* The baseline consumes a value as every measured body does. */
	MEASURE(base, PERF_READS, sink += _k);
	MEASURE(tsc, PERF_READS, sink += rte_rdtsc());
	MEASURE(sys, PERF_READS / 10, sink += read(fd, buf, sizeof(buf)));
	MEASURE(fast_algo, PERF_READS, {
		uint64_t v = 0;
		__rte_pmu_page_read_with(&fake_page, false, fake_pmc, fake_time, &v);
		sink += v;
	});
	if (idx_cycles != UINT32_MAX)
		MEASURE(hw, PERF_READS, sink += rte_pmu_read(idx_cycles));
	else if (idx_instr != UINT32_MAX)
		MEASURE(hw, PERF_READS, sink += rte_pmu_read(idx_instr));
	MEASURE(sw, PERF_READS / 10, sink += rte_pmu_read(idx_sw));
	close(fd);

	printf("cost per call, loop subtracted (%u calls; %.1f ns, %.1f instr/loop):\n",
		PERF_READS, base.ns, base.instr);
	print_cost("rte_rdtsc()", &tsc, &base, NULL, NULL);
	print_cost("read() of a perf fd (syscall)", &sys, &base, NULL, NULL);
	print_cost("page algorithm, fake counter", &fast_algo, &base, &tsc, "rdtsc");
	if (idx_cycles != UINT32_MAX || idx_instr != UINT32_MAX) {
		print_cost("rte_pmu_read() hardware, user page", &hw, &base, &sys, "read()");
		print_cost("  same, against rdtsc", &hw, &base, &tsc, "rdtsc");
	} else {
		printf("  %-34s skipped: no hardware counter here\n", "rte_pmu_read() hardware");
	}
	print_cost("rte_pmu_read() software, read() path", &sw, &base, &sys, "read()");
	if (idx_instr == UINT32_MAX)
		printf("instructions per read: not measured (no instructions event here)\n");

	rte_pmu_fini();
	idx_instr = idx_cycles = idx_sw = UINT32_MAX;

	return sink != 0 ? TEST_SUCCESS : TEST_FAILED;
}

REGISTER_PERF_TEST(pmu_perf_autotest, test_pmu_perf);
