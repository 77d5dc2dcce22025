/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_FAULT_LIFECYCLE_H
#define TEST_PMU_FAULT_LIFECYCLE_H

/* The lifecycle that pmu_fault_autotest's sweep (test_pmu_fault.c) runs
 * under each fault (test_pmu_fault_lifecycle.c).
 */

#include <stdbool.h>
#include <stdint.h>

#include "test_pmu_fault.h"

#define MAX_EVENTS 3
#define LCORES 2

struct lifecycle {
	int err;
	bool persistent;
	/* Kind of the call that failed, FK_MAX while none did. */
	enum fault_kind kind;
	uint64_t last[LCORES][MAX_EVENTS];
	int status[LCORES];
	/* First failure, "" if none. */
	char why[768];
	bool cut;
};

/* The lcores (-l 0-1) and the events of the lifecycles, for the suite's
 * setup: TEST_SUCCESS, or TEST_SKIPPED with the reason printed.
 */
int lifecycle_setup(void);
/* Events of each lifecycle (the last one is left out where it cannot be
 * counted).
 */
unsigned int lifecycle_events(void);
/* A whole lifecycle under @p plan (NULL: no fault): 0, or -1 with the
 * first failure in lc->why.
 */
int lifecycle_run(struct lifecycle *lc, const struct fault_plan *plan);

#endif /* TEST_PMU_FAULT_LIFECYCLE_H */
