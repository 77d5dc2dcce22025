/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_STAGE_VIEW_H
#define PMU_STAGE_VIEW_H

/* The view through which measured stage calls read the counters raw: its
 * build from the pages, the raw reads checked against it, and its drop
 * when a page changed. Internal; included by pmu_stage_measure.c and, with a
 * counter reader of its own, by the unit test of constructed pages
 * (app/test/test_pmu_stage_view.c).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>

#include "rte_pmu_stage.h"

#ifndef PMU_STAGE_VIEW_PMC_READ
/** Raw counter of a 1-based user index: the architecture's reader. */
#define PMU_STAGE_VIEW_PMC_READ(index) __rte_pmu_pmc_read(index)
#endif
#ifndef PMU_STAGE_VIEW_USER_READ
/** Counters can be read from user space here. */
#define PMU_STAGE_VIEW_USER_READ __RTE_PMU_HAVE_USER_READ
#endif

/*
 * Measured calls read the counters raw, through the lcore's view (struct
 * __rte_pmu_stage_view): the registers its pages named when it was built.
 * The pages' locks are summed after the registers are read; while the sum
 * is the view's, no page has changed since the build (a lock only grows),
 * so the raw counters go with the view's offsets and a call's count is
 * the difference of its raw counters masked to their width. When a page
 * changes (the kernel moved or reprogrammed a counter), the open frames
 * holding raw counters are turned into counter values with the view they
 * were read with, and the call reads the counters again through a new
 * view (or, where none can be built, as rte_pmu_read() reads them). A
 * false match needs the locks to grow by a multiple of 2^32 between two
 * measured calls: over 2^31 page updates.
 */

/* The view's layouts (struct __rte_pmu_stage_view::layout). */
#define VIEW_INDEXED 0
#define VIEW_CYCLES_0 1
#define VIEW_CYCLES_1 2
#define VIEW_EVENTS 3

/* Whether @p n counters of user indices @p index hold the cycle counter at
 * position @p at (none where at >= n) and event counters 0, 1, ... at the
 * others. Event counter k has user index k + 1; the cycle counter 32.
 */
static inline bool
view_layout_is(const uint32_t *index, unsigned int n, unsigned int at)
{
	unsigned int i, k = 1;

	for (i = 0; i < n; i++)
		if (index[i] != (i == at ? 32 : k++))
			return false;
	return true;
}

/* The layout of @p n counters of user indices @p index: registers known
 * at build time for up to __RTE_PMU_PMC_DIRECT_MAX counters, or each read
 * by its index.
 */
static inline uint32_t
view_layout(const uint32_t *index, unsigned int n)
{
#ifdef __RTE_PMU_HAVE_PMC_DIRECT
	if (n > __RTE_PMU_PMC_DIRECT_MAX)
		return VIEW_INDEXED;
	if (view_layout_is(index, n, 0))
		return VIEW_CYCLES_0;
	if (n > 1 && view_layout_is(index, n, 1))
		return VIEW_CYCLES_1;
	if (view_layout_is(index, n, n))
		return VIEW_EVENTS;
#else
	RTE_SET_USED(index);
	RTE_SET_USED(n);
#endif
	return VIEW_INDEXED;
}

/* Register @p raw of event @p i, read through the view, as the counter
 * value rte_pmu_read() gives: the page's offset plus the register
 * sign-extended from its width.
 */
static __rte_always_inline uint64_t
view_value(const struct __rte_pmu_stage_view *v, unsigned int i, uint64_t raw)
{
	return v->offset[i] + (uint64_t)__rte_pmu_sign_extend(raw, v->width[i]);
}

/* What event @p i counted from register @p start to register @p now, both
 * read through the view: their difference masked to the counter's width
 * (the register may have wrapped between them).
 */
static __rte_always_inline uint64_t
view_delta(const struct __rte_pmu_stage_view *v, unsigned int i, uint64_t now,
	uint64_t start)
{
	return (now - start) & v->mask[i];
}

/* Turn the open frames' raw counters into counter values (offset plus
 * the sign-extended register, as the page read computes), and drop the
 * view: no frame depends on it afterwards.
 */
static __rte_noinline void
view_drop(struct __rte_pmu_stage_lcore *sl)
{
	struct __rte_pmu_stage_view *v = &sl->view;
	struct __rte_pmu_stage_frame *f;
	unsigned int i;

	for (f = &sl->frames[1]; f < sl->sp; f++) {
		/* Unmeasured frames hold no counters. */
		if ((f->tag & (__RTE_PMU_STAGE_MEASURED | __RTE_PMU_STAGE_VALUES)) !=
				__RTE_PMU_STAGE_MEASURED)
			continue;
		for (i = 0; i < sl->num_events; i++)
			f->start[i] = view_value(v, i, f->start[i]);
		f->tag |= __RTE_PMU_STAGE_VALUES;
	}
	v->valid = 0;
	v->drops++;
}

/* Build the view from one consistent pass over each page; 0, or -1 when
 * a counter cannot be read raw here (not on the hardware, no user access:
 * those calls read counter values). A multiplexed group is read raw too:
 * a stage's count is what the counter counted during it, never scaled.
 */
static int
view_build(struct __rte_pmu_stage_lcore *sl)
{
	struct __rte_pmu_stage_view *v = &sl->view;
	struct perf_event_mmap_page *pc;
	uint32_t seq, sum = 0, width;
	uint64_t caps;
	unsigned int i;

	v->valid = 0;
	if (!PMU_STAGE_VIEW_USER_READ)
		return -1;
	for (i = 0; i < sl->num_events; i++) {
		pc = sl->pages[i];
		v->page[i] = pc;
		do {
			seq = __RTE_PMU_LOAD(pc->lock);
			rte_compiler_barrier();
			v->index[i] = __RTE_PMU_LOAD(pc->index);
			v->offset[i] = (uint64_t)__RTE_PMU_LOAD(pc->offset);
			width = __RTE_PMU_LOAD(pc->pmc_width);
			caps = __RTE_PMU_LOAD(pc->capabilities);
			rte_compiler_barrier();
		} while ((seq & 1) != 0 || __RTE_PMU_LOAD(pc->lock) != seq);
		if (v->index[i] == 0 || (caps & __RTE_PMU_CAP_USER_RDPMC) == 0 ||
				width == 0 || width > 64)
			return -1;
		v->width[i] = width;
		v->mask[i] = width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
		sum += seq;
	}
	v->lock_sum = sum;
	v->layout = view_layout(v->index, sl->num_events);
	v->valid = 1;

	return 0;
}

/* The lcore's @p n counters, raw, through the view, which must be valid,
 * each register read as @p layout says: true when no page changed since
 * the view was built (then they go with it).
 */
static __rte_always_inline bool
snap_raw_valid(const struct __rte_pmu_stage_lcore *sl, uint64_t *raw, unsigned int n,
	uint32_t layout)
{
	const struct __rte_pmu_stage_view *v = &sl->view;
	uint32_t sum = 0;
	unsigned int i;

	if (layout == VIEW_INDEXED) {
#pragma GCC unroll 8
		for (i = 0; i < n; i++)
			raw[i] = PMU_STAGE_VIEW_PMC_READ(v->index[i]);
	} else {
#ifdef __RTE_PMU_HAVE_PMC_DIRECT
		__rte_pmu_pmc_read_direct(raw, n,
			layout == VIEW_EVENTS ? __RTE_PMU_NO_CYCLES : layout - VIEW_CYCLES_0);
#endif
	}
	rte_compiler_barrier();
#pragma GCC unroll 8
	for (i = 0; i < n; i++)
		sum += __RTE_PMU_LOAD(v->page[i]->lock);

	return sum == v->lock_sum;
}

#endif /* PMU_STAGE_VIEW_H */
