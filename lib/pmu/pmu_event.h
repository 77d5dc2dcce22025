/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_EVENT_H
#define PMU_EVENT_H

/* Event names encoded as perf_event attributes. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include "pmu_sysfs.h"

/** An encoded event. */
struct pmu_event_desc {
	/** type, config, config1, config2, sample_period; no exclusion bits. */
	struct perf_event_attr attr;
	/** PMU folder of the event; "" for perf's generic types. */
	char pmu[PMU_NAME_MAX];
	/** config1 bits the name set explicitly (format terms, config1=). */
	uint64_t config1_user;
	/** Core PMU event or generic hardware event (gets the arch fixup). */
	bool core;
};

/**
 * Encode an event name (see rte_pmu_add_event() for the syntax). @p core_pmu
 * is the core PMU's folder name ("" when none was found: then only generic
 * names and pmu/.../ names resolve).
 * Returns 0; -ENOENT unknown event or PMU; -EINVAL malformed name;
 * -ERANGE a value does not fit its field; another negative errno when a
 * sysfs file could not be read (logged; rte_pmu_add_event() maps it).
 */
int pmu_event_encode(const char *name, const char *core_pmu, struct pmu_event_desc *desc);

#endif /* PMU_EVENT_H */
