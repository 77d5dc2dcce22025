/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* One lifecycle of pmu_fault_autotest (test_pmu_fault.c): init, add
 * events, first read on two lcores, reads, a stage, status and info, a
 * registered thread, fini; each API call armed in turn, its result checked
 * against the contract, and at the end no descriptor, mapping or
 * allocation left.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_launch.h>
#include <rte_lcore.h>

#include <rte_pmu.h>
#include <rte_pmu_stage.h>

#include "test.h"
#include "test_pmu_fault.h"
#include "test_pmu_fault_lifecycle.h"

#define READ_ROUNDS 2

/* Events of the lifecycle: generic, sysfs type, sysfs events/ + format/. */
static const char *const event_names[MAX_EVENTS] = {
	FAULT_FIRST_EVENT, "software/config=2/", "msr/tsc/",
};
static unsigned int num_events;
static unsigned int lcores[LCORES];

/* ---- one API call, armed or not, on a chosen lcore ---- */

enum op {
	OP_INIT,
	OP_OPEN,
	OP_STAGE,
	OP_ADD,
	OP_READ,
	OP_INFO,
	OP_FINI,
	OP_THREAD,
};

struct call {
	enum op op;
	bool armed;
	const char *name;
	unsigned int index;
	unsigned int lcore;
	int ret;
	uint64_t value;
	pthread_t thread;
	bool fired;
	char log[1024];
	struct rte_pmu_lcore_info info;
	struct rte_pmu_stage_stats stage;
};

/* A registered thread: first read armed, info unarmed, unregister armed
 * (the library closes the thread's group when its lcore id is released).
 */
static void *
thread_main(void *arg)
{
	struct call *c = arg;

	if (rte_thread_register() != 0) {
		c->ret = -ESRCH;
		return NULL;
	}
	c->lcore = rte_lcore_id();
	fault_arm(true);
	c->value = rte_pmu_read(0);
	fault_arm(false);
	c->ret = rte_pmu_lcore_info_get(c->lcore, &c->info);
	fault_arm(true);
	rte_thread_unregister();
	fault_arm(false);
	return NULL;
}

static int
call_run(void *arg)
{
	struct call *c = arg;
	int ret;

	fault_arm(c->armed);
	switch (c->op) {
	case OP_INIT:
		c->ret = rte_pmu_init();
		break;
	case OP_ADD:
		c->ret = rte_pmu_add_event(c->name);
		break;
	case OP_READ:
		c->value = rte_pmu_read(c->index);
		c->ret = 0;
		break;
	case OP_OPEN:
		c->ret = rte_pmu_lcore_open();
		break;
	case OP_STAGE:
		/* Stage c->index around a read; then its figures. */
		rte_pmu_stage_begin(c->index);
		c->value = rte_pmu_read(0);
		rte_pmu_stage_end(c->index, 32);
		c->ret = rte_pmu_stage_stats_get(rte_lcore_id(), c->index, &c->stage);
		break;
	case OP_INFO:
		c->ret = rte_pmu_lcore_info_get(c->lcore, &c->info);
		break;
	case OP_FINI:
		rte_pmu_fini();
		c->ret = 0;
		break;
	case OP_THREAD:
		fault_arm(false);
		/* The thread sets c->ret: only a failed create may write it here. */
		ret = pthread_create(&c->thread, NULL, thread_main, c);
		if (ret == 0)
			pthread_join(c->thread, NULL);
		else
			c->ret = ret;
		break;
	}
	fault_arm(false);
	return 0;
}

/* Run @p c on @p lcore; stop the plan once a step met it. */
static void
call_on(unsigned int lcore, struct call *c)
{
	uint32_t fired = fault_fired();
	long mark = log_mark();

	if (lcore == rte_get_main_lcore()) {
		call_run(c);
	} else {
		rte_eal_remote_launch(call_run, c, lcore);
		rte_eal_wait_lcore(lcore);
	}
	c->fired = fault_fired() != fired;
	if (c->fired)
		fault_stop();
	log_since(mark, c->log, sizeof(c->log));
}

static uint64_t
unarmed_read(unsigned int lcore, unsigned int index)
{
	struct call c = { .op = OP_READ, .index = index };

	call_on(lcore, &c);
	return c.value;
}

/* ---- one lifecycle ---- */

/* Record the first failure (a long log is cut: the return value says so). */
#define FAIL(lc, fmt, ...) do { \
	(lc)->cut = snprintf((lc)->why, sizeof((lc)->why), fmt, ##__VA_ARGS__) >= \
		(int)sizeof((lc)->why); \
	return -1; \
} while (0)

/* A step that met the fault gave @p ret: check it against the contract. */
static int
check_step(struct lifecycle *lc, const char *step, const struct call *c, int ret)
{
	int exp;

	lc->kind = fault_fired_kind();
	exp = fault_expected(lc->kind, lc->err, lc->persistent);
	/* The probe drops kernel exclusion when the PMU refuses it with EINVAL,
	 * and a software event's kernel part when it is refused (a process that
	 * paranoid 2 allows user space only), once: an error that does not last
	 * is then absorbed.
	 */
	if (ret != exp && !(ret == 0 && lc->kind == FK_PERF_OPEN && (lc->err == EINVAL ||
			((lc->err == EACCES || lc->err == EPERM) && !lc->persistent &&
			strcmp(step, "add_event") == 0))))
		FAIL(lc, "%s: returned %d (%s), contract says %d (%s); log: %s", step, ret,
			strerror(-ret), exp, strerror(-exp), c->log);
	if (ret != 0 && c->log[0] == '\0')
		FAIL(lc, "%s: error %d without a log line", step, ret);
	if ((lc->err == EACCES || lc->err == EPERM) && geteuid() == 0 &&
			strstr(c->log, "run as root") != NULL)
		FAIL(lc, "%s: advises root to run as root: %s", step, c->log);
	return 0;
}

/* A read on an open group that met the fault. */
static int
check_read(struct lifecycle *lc, const struct call *c, unsigned int lcore)
{
	struct rte_pmu_lcore_info info;

	if (check_step(lc, "read", c, 0) != 0)
		return -1;
	if (lc->kind != FK_READ_PERF || (fault_transient(lc->kind, lc->err) && !lc->persistent))
		return 0;
	if (c->value != 0 || c->log[0] == '\0')
		FAIL(lc, "failed read: value %" PRIu64 ", log '%s'", c->value, c->log);
	if (rte_pmu_lcore_info_get(lcore, &info) != 0 || info.read_errors == 0)
		FAIL(lc, "failed read not counted in read_errors");
	return 0;
}

static int
step_init_add(struct lifecycle *lc)
{
	struct call c = { .op = OP_INIT, .armed = true };
	unsigned int i;

	call_on(rte_get_main_lcore(), &c);
	if (c.fired) {
		if (check_step(lc, "init", &c, c.ret) != 0)
			return -1;
		if (c.ret != 0 && rte_pmu_init() != 0)
			FAIL(lc, "init: no recovery after a failed init");
	} else if (c.ret != 0) {
		FAIL(lc, "init failed without a fault: %d", c.ret);
	}

	for (i = 0; i < num_events; i++) {
		c = (struct call){ .op = OP_ADD, .armed = true, .name = event_names[i] };
		call_on(rte_get_main_lcore(), &c);
		if (c.fired) {
			if (check_step(lc, "add_event", &c, c.ret < 0 ? c.ret : 0) != 0)
				return -1;
			/* A failed add changes nothing: adding again works. */
			if (c.ret < 0)
				c.ret = rte_pmu_add_event(event_names[i]);
		}
		if (c.ret != (int)i)
			FAIL(lc, "add_event(%s) = %d, index %u expected", event_names[i], c.ret, i);
	}
	return 0;
}

static int
step_open(struct lifecycle *lc, unsigned int l)
{
	/* The main lcore opens on its first read, the worker before its loop. */
	struct call c = { .op = l == 0 ? OP_READ : OP_OPEN, .armed = true, .index = 0 };
	int *status = &lc->status[l];

	call_on(lcores[l], &c);
	*status = rte_pmu_lcore_status(lcores[l]);
	/* The group open, the stage state not allocated: -ENOMEM, status 1
	 * (rte_pmu_lcore_open()'s documented errors), logged.
	 */
	if (c.op == OP_OPEN && c.fired && fault_fired_kind() == FK_ALLOC && *status == 1) {
		if (c.ret != -ENOMEM || c.log[0] == '\0')
			FAIL(lc, "lcore %u: stage state not allocated: rte_pmu_lcore_open() = %d, "
				"log '%s'", lcores[l], c.ret, c.log);
		return 0;
	}
	if (c.op == OP_OPEN && c.ret != (*status == 1 ? 0 : *status))
		FAIL(lc, "lcore %u: rte_pmu_lcore_open() = %d, status %d", lcores[l], c.ret,
			*status);
	if (!c.fired) {
		if (*status != 1)
			FAIL(lc, "lcore %u: status %d without a fault", lcores[l], *status);
		return 0;
	}
	if (*status == 1)
		return check_read(lc, &c, lcores[l]);

	if (c.value != 0)
		FAIL(lc, "lcore %u: status %d but read %" PRIu64, lcores[l], *status, c.value);
	if (check_step(lc, "first read", &c, *status) != 0)
		return -1;
	/* A later read opens the group again after a transient error only. */
	unarmed_read(lcores[l], 0);
	*status = rte_pmu_lcore_status(lcores[l]);
	if (fault_transient(lc->kind, lc->err) ? *status != 1 : *status == 1)
		FAIL(lc, "lcore %u: status %d after a later read", lcores[l], *status);
	return 0;
}

/* A stage registered and run on each lcore, armed: one call and its
 * items whatever failed, values only where the group is open.
 */
static int
step_stage(struct lifecycle *lc)
{
	struct call c;
	unsigned int l;
	int id;

	id = rte_pmu_stage_register("fault");
	if (id < 0)
		FAIL(lc, "stage register: %d", id);
	for (l = 0; l < LCORES; l++) {
		c = (struct call){ .op = OP_STAGE, .armed = true, .index = id };
		call_on(lcores[l], &c);
		/* No memory for the lcore's stage arrays at the begin: that is
		 * logged, and the begin not counted; the end, which finds the
		 * memory, counts the call as an end not measured does (at most
		 * the one call).
		 */
		if (c.fired && fault_fired_kind() == FK_ALLOC) {
			if (c.ret != 0 || c.stage.calls > 1 || c.log[0] == '\0')
				FAIL(lc, "lcore %u: stage state not allocated: stats %d, %" PRIu64
					" calls, log '%s'", lcores[l], c.ret, c.stage.calls, c.log);
			continue;
		}
		if (c.ret != 0 || c.stage.calls != 1 || c.stage.items != 32 ||
				c.stage.misuse != 0)
			FAIL(lc, "lcore %u: stage stats %d: %" PRIu64 " calls, %" PRIu64
				" items, %" PRIu64 " misuse", lcores[l], c.ret, c.stage.calls,
				c.stage.items, c.stage.misuse);
		if (lc->status[l] == 1 && c.stage.num_events != num_events)
			FAIL(lc, "lcore %u: the stage counts %u events, not %u", lcores[l],
				c.stage.num_events, num_events);
	}
	return 0;
}

static int
step_reads(struct lifecycle *lc)
{
	unsigned int i, l, r;
	struct call c;

	for (r = 0; r < READ_ROUNDS; r++) {
		for (l = 0; l < LCORES; l++) {
			for (i = 0; i < num_events; i++) {
				c = (struct call){ .op = OP_READ, .armed = true, .index = i };
				call_on(lcores[l], &c);
				if (lc->status[l] != 1) {
					if (c.value != 0)
						FAIL(lc, "lcore %u failed but reads %" PRIu64,
							lcores[l], c.value);
					continue;
				}
				if (c.fired) {
					if (check_read(lc, &c, lcores[l]) != 0)
						return -1;
					if (c.value == 0)
						continue;
				}
				if (c.value < lc->last[l][i])
					FAIL(lc, "lcore %u event %u went back: %" PRIu64 " < %"
						PRIu64, lcores[l], i, c.value, lc->last[l][i]);
				lc->last[l][i] = c.value;
			}
		}
	}
	return 0;
}

static int
step_info(struct lifecycle *lc)
{
	unsigned int l;
	struct call c;
	uint64_t v;

	for (l = 0; l < LCORES; l++) {
		c = (struct call){ .op = OP_INFO, .armed = true, .lcore = lcores[l] };
		call_on(rte_get_main_lcore(), &c);
		if (c.ret != 0)
			FAIL(lc, "info_get(%u) = %d", lcores[l], c.ret);
		if (c.info.status != lc->status[l])
			FAIL(lc, "info_get(%u).status %d, status %d", lcores[l], c.info.status,
				lc->status[l]);
		if (c.fired) {
			if (check_step(lc, "info_get", &c, 0) != 0)
				return -1;
			if (c.log[0] == '\0' &&
					!(fault_transient(lc->kind, lc->err) && !lc->persistent))
				FAIL(lc, "info_get: failed %s not logged", fault_kind_name(lc->kind));
		}
	}

	/* The lcores the fault did not reach still count. */
	for (l = 0; l < LCORES; l++) {
		if (lc->status[l] != 1)
			continue;
		v = unarmed_read(lcores[l], 0);
		if (v == 0 || v < lc->last[l][0])
			FAIL(lc, "lcore %u: cpu-clock %" PRIu64 " after %" PRIu64, lcores[l], v,
				lc->last[l][0]);
	}
	return 0;
}

/* A registered thread reads and gives its lcore id back. */
static int
step_thread(struct lifecycle *lc)
{
	struct call c = { .op = OP_THREAD };
	int status;

	call_on(rte_get_main_lcore(), &c);
	if (c.ret != 0)
		FAIL(lc, "registered thread: %d", c.ret);
	status = c.info.status;
	if (!c.fired) {
		if (status != 1)
			FAIL(lc, "registered thread: status %d without a fault", status);
		return 0;
	}
	if (status == 1) {
		if (check_step(lc, "thread", &c, 0) != 0)
			return -1;
		if (lc->kind == FK_READ_PERF && !(fault_transient(lc->kind, lc->err) && !lc->persistent) &&
				(c.value != 0 || c.info.read_errors == 0 || c.log[0] == '\0'))
			FAIL(lc, "thread: failed read gave %" PRIu64 ", %" PRIu64 " read errors",
				c.value, c.info.read_errors);
		if (lc->kind == FK_MUNMAP && c.log[0] == '\0')
			FAIL(lc, "thread release: failed munmap not logged");
		return 0;
	}
	if (c.value != 0)
		FAIL(lc, "registered thread: status %d but read %" PRIu64, status, c.value);
	return check_step(lc, "thread first read", &c, status);
}

static int
step_fini(struct lifecycle *lc, const struct snapshot *before)
{
	struct call c = { .op = OP_FINI, .armed = true };
	struct snapshot after;

	call_on(rte_get_main_lcore(), &c);
	if (c.fired) {
		if (check_step(lc, "fini", &c, 0) != 0)
			return -1;
		if (lc->kind == FK_MUNMAP) {
			snapshot_take(&after);
			if (c.log[0] == '\0')
				FAIL(lc, "fini: failed munmap not logged");
			if (after.perf_maps == before->perf_maps)
				FAIL(lc, "fini: munmap failed but the page is gone");
			/* The library keeps the page and unmaps it at the next fini. */
			rte_pmu_init();
			rte_pmu_fini();
		}
	}
	snapshot_take(&after);
	if (after.fds != before->fds || after.perf_fds != before->perf_fds)
		FAIL(lc, "descriptors: %u before, %u after (%u perf)", before->fds, after.fds,
			after.perf_fds);
	if (after.perf_maps != before->perf_maps)
		FAIL(lc, "perf mappings: %u before, %u after", before->perf_maps,
			after.perf_maps);
	if (after.allocs != before->allocs)
		FAIL(lc, "allocations: %u live before, %u after", before->allocs, after.allocs);
	return 0;
}

/* A whole lifecycle under @p plan (NULL: no fault). */
int
lifecycle_run(struct lifecycle *lc, const struct fault_plan *plan)
{
	struct snapshot before;
	unsigned int l;
	int ret;

	memset(lc->last, 0, sizeof(lc->last));
	lc->kind = FK_MAX;
	lc->why[0] = '\0';
	lc->err = plan != NULL ? plan->err : 0;
	lc->persistent = plan != NULL && plan->count > 1;
	snapshot_take(&before);
	fault_reset(plan);

	ret = step_init_add(lc);
	for (l = 0; ret == 0 && l < LCORES; l++)
		ret = step_open(lc, l);
	if (ret == 0)
		ret = step_reads(lc);
	if (ret == 0)
		ret = step_stage(lc);
	if (ret == 0)
		ret = step_info(lc);
	if (ret == 0)
		ret = step_thread(lc);
	if (ret != 0) {
		/* Leave a clean library for the next case. */
		fault_reset(NULL);
		rte_pmu_fini();
		return ret;
	}
	ret = step_fini(lc, &before);
	if (ret == 0 && plan != NULL && fault_fired() == 0)
		FAIL(lc, "the planned call was never made");
	return ret;
}

/* The lcores and the events of the lifecycles, or why they cannot run. */
int
lifecycle_setup(void)
{
	unsigned int l;
	int ret;

	if (rte_lcore_count() < LCORES)
		TEST_SKIP("needs 2 lcores (-l 0-1)");
	lcores[0] = rte_get_main_lcore();
	l = rte_get_next_lcore(-1, 1, 0);
	lcores[1] = l;

	/* msr/tsc/ (sysfs events/ and format/ files) where this machine has it. */
	num_events = MAX_EVENTS;
	ret = rte_pmu_init();
	if (ret != 0)
		TEST_SKIP("rte_pmu_init: %s", strerror(-ret));
	ret = rte_pmu_add_event(event_names[0]);
	if (ret < 0) {
		rte_pmu_fini();
		TEST_SKIP("no software events here (add cpu-clock: %s)", strerror(-ret));
	}
	if (rte_pmu_add_event(event_names[MAX_EVENTS - 1]) < 0) {
		printf("note: %s not countable here: events/ and format/ reads not covered\n",
			event_names[MAX_EVENTS - 1]);
		num_events = MAX_EVENTS - 1;
	}
	rte_pmu_fini();
	return TEST_SUCCESS;
}

unsigned int
lifecycle_events(void)
{
	return num_events;
}
