/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PRELOAD_RUN_H
#define PRELOAD_RUN_H

/* librte_pmu_preload.so: the run's settings and the events added (run.c,
 * set by preload.c), read by every other file; the messages' form.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_pmu.h>

/* Every line the preload prints on stderr starts with it. */
#define PRELOAD_TAG "dpdk-pmu-run: "
/* The standard error the program started with (a program may close or
 * reopen its own: its file never gets the preload's lines), line buffered;
 * stderr before the preload's constructor opens it.
 */
extern FILE *preload_err;
#define PRELOAD_OUT (preload_err != NULL ? preload_err : stderr)
#define PRELOAD_MSG(fmt, ...) fprintf(PRELOAD_OUT, PRELOAD_TAG fmt "\n", ##__VA_ARGS__)

/* The report where no stage was called. */
#define PRELOAD_NOTHING "no stage was called (no burst on a port, no graph walked): " \
	"nothing measured"

/* The defaults of dpdk-test-pmu (app/test-pmu/events.h): where none of
 * them opens, msr/tsc/ alone where it opens (read with rdtsc: a software
 * event beside it would make every measured read a read()), else the
 * software events.
 */
#define PRELOAD_DEFAULT_EVENTS "cycles,instructions"
#define PRELOAD_FALLBACK_TSC "msr/tsc/"
#define PRELOAD_FALLBACK_EVENTS "task-clock,context-switches,page-faults"
#define PRELOAD_DEFAULT_SAMPLING 16
/* The largest RTE_PMU_RUN_SAMPLING and RTE_PMU_RUN_INTERVAL (ms) taken;
 * dpdk-pmu-run refuses larger ones before the program starts.
 */
#define PRELOAD_SAMPLING_MAX 32768 /* RTE_PMU_STAGE_PERIOD_MAX */
#define PRELOAD_INTERVAL_MAX 3600000
#define PRELOAD_EVENT_NAME_MAX 128

/* The run, set up after the program's rte_eal_init(). */
struct preload_run {
	bool active;            /* rte_pmu initialised: stages are counted */
	/* The ports' callbacks count (ports.c); off once the program makes
	 * a graph: its nodes are the stages then, and the ports' stages
	 * would not nest in them.
	 */
	volatile bool ports_on;
	unsigned int num_events;
	char events[RTE_MAX_NUM_GROUP_EVENTS][PRELOAD_EVENT_NAME_MAX];
	unsigned int sampling;
	unsigned int interval_ms; /* 0: no table while the program runs */
	const char *output;     /* the final table's file, NULL: stderr */
	const char *json;       /* the JSON file at exit, or NULL */
};

extern struct preload_run preload_run;

#endif /* PRELOAD_RUN_H */
