/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_EVENTS_H
#define TEST_PMU_EVENTS_H

/* The events dpdk-test-pmu was asked for, counted or not. */

#include <stdbool.h>

#include <rte_pmu.h>

#define TOOL_DEFAULT_EVENTS "cycles,instructions"
/* Where none of the defaults opens: msr/tsc/ first where it opens (every
 * x86 machine, VMs included, has it and reads it with rdtsc, no system
 * call), left out where it does not; then the software events.
 */
#define TOOL_FALLBACK_TSC "msr/tsc/"
#define TOOL_FALLBACK_EVENTS "task-clock,context-switches,page-faults"
/* Events that can be listed, counted or <not supported>. */
#define TOOL_MAX_EVENTS (2 * RTE_MAX_NUM_GROUP_EVENTS)
#define TOOL_REASON_LEN 256

struct tool_event {
	const char *name;               /* as given */
	bool supported;                 /* added: index is valid */
	unsigned int index;             /* from rte_pmu_add_event() */
	int error;                      /* negative errno when not supported */
	char reason[TOOL_REASON_LEN];   /* why not supported */
};

struct tool_events {
	struct tool_event ev[TOOL_MAX_EVENTS];
	unsigned int count;             /* listed */
	unsigned int counted;           /* supported among them */
	bool fell_back;                 /* the default list gave way to the fallback */
	char fallback[64];              /* the fallback's events counted, as a list */
};

/* Add the events of @p list (the default list and its fallback when NULL).
 * Every name is listed, supported or not. Returns 0 when at least one event
 * can be counted, or a negative errno (message printed to stderr).
 */
int tool_events_setup(struct tool_events *evs, const char *list);

/* The counted event whose name (without "pmu/.../") is one of @p names, or NULL. */
const struct tool_event *tool_events_find(const struct tool_events *evs,
	const char *const names[]);

/* True when @p ev is one of @p names, matched as tool_events_find() does. */
bool tool_event_is(const struct tool_event *ev, const char *const names[]);

/* The kernel's clocks, counted in ns (for tool_event_is()). */
extern const char *const tool_clock_names[];

#endif /* TEST_PMU_EVENTS_H */
