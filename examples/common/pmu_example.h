/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_EXAMPLE_H
#define PMU_EXAMPLE_H

/* What the examples share: their number options and, for the forwarding
 * ones (dpdk-pmu-pipeline, dpdk-pmu-graph), the events they count and
 * --compare, the same traffic with the stage calls off, on and sampled, as
 * a table and as JSON (pmu_example.c, linked into each of them).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_pmu.h>

/* The events counted without --events. Where none of them opens, msr/tsc/
 * alone where it opens (read with rdtsc, no system call: a software event
 * beside it would make every measured read a read()), else software
 * events; see add_default_events().
 */
#define DEFAULT_EVENTS "cycles,instructions"
#define FALLBACK_TSC "msr/tsc/"
#define FALLBACK_EVENTS "task-clock,page-faults"

/* Sampling period of the "sampled" run of --compare. */
#define COMPARE_PERIOD 16

enum run_mode {
	MODE_OFF,      /* no stage calls at all */
	MODE_ON,       /* stages, every call measured */
	MODE_SAMPLED,  /* stages, 1 call in COMPARE_PERIOD measured */
	MODE_COUNT,
};

extern const char *const mode_names[MODE_COUNT];

/* One mode's run: what it received, how long it took, what it executed. */
struct mode_result {
	bool ran;
	uint64_t packets;      /* received */
	uint64_t tsc;          /* timer cycles (rte_get_timer_cycles()) */
	uint64_t instructions; /* counted around the run; 0: not counted */
};

/* The events added, by rte_pmu index, and where cycles and instructions are
 * (-1: not counted).
 */
extern char *event_names[RTE_MAX_NUM_GROUP_EVENTS];
extern unsigned int num_events;
extern int ev_cycles, ev_instructions;

/* --help (-h) or --version anywhere in argv, before or after "--" (EAL
 * would refuse or answer them alone): @p usage to stdout, or the version.
 * Called before rte_eal_init(). Returns true when it printed one: exit 0.
 */
bool example_early_option(int argc, char **argv, void (*usage)(FILE *f, const char *prog));

/* A decimal number from @p min to @p max; -EINVAL otherwise. */
int parse_ulong(const char *arg, unsigned long min, unsigned long max, unsigned long *out);

/* Add each event of the comma-separated @p list that can be counted here;
 * say why for the others. Returns how many were added.
 */
unsigned int add_events(const char *list);

/* Add DEFAULT_EVENTS; where none of them can be counted, FALLBACK_TSC
 * where it opens (nothing said where it does not), else FALLBACK_EVENTS,
 * and say on stderr what is counted instead. Returns how many were added.
 */
unsigned int add_default_events(void);

static inline double
mode_pps(const struct mode_result *r)
{
	return r->tsc != 0 ? (double)r->packets * rte_get_timer_hz() / r->tsc : 0.0;
}

static inline double
mode_ipp(const struct mode_result *r)
{
	return r->packets != 0 ? (double)r->instructions / r->packets : 0.0;
}

/* @p a over @p b, 0 where @p b is. */
static inline double
ratio(double a, double b)
{
	return b != 0 ? a / b : 0.0;
}

/* The --compare table of @p r: each mode's packets, rate and, with an
 * instructions event, instructions per packet, as ratios against "off".
 */
void print_compare_table(FILE *f, const struct mode_result *r);

/* The JSON member "compare" of @p r, @p extra (members, each starting
 * with ", ") appended inside it.
 */
void print_compare_json(const struct mode_result *r, const char *extra);

/* The JSON members "events" (names, by index) opening an object. */
void print_events_json(void);

/* {"event": true or false, ...}: bit e of @p bits for each event (as
 * rte_pmu_stage_stats::inexact).
 */
void print_event_bits_json(uint32_t bits);

#endif /* PMU_EXAMPLE_H */
