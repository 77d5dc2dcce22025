/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef TEST_PMU_FAULT_H
#define TEST_PMU_FAULT_H

/* Fault injection for dpdk-test-fault: the library's static archive is
 * linked with -Wl,--wrap for every libc call it makes (see meson.build), and
 * the wrappers in test_pmu_fault_wrap.c fail a chosen one. Only calls made
 * while the calling thread is armed count: the test arms a thread around
 * each API call, so the harness's own calls (and DPDK's shared libraries,
 * which --wrap does not reach) are never counted nor failed.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The step of the library a libc call belongs to. */
enum fault_kind {
	FK_PERF_OPEN,     /* syscall(perf_event_open) */
	FK_IOCTL_ENABLE,  /* ioctl(PERF_EVENT_IOC_ENABLE) */
	FK_IOCTL_OTHER,   /* any other ioctl: no contract, the library must make none */
	FK_MMAP,          /* mmap of a user page */
	FK_MUNMAP,        /* munmap */
	FK_READ_PERF,     /* read() of a perf event fd */
	FK_CLOSE_PERF,    /* close() of a perf event fd */
	FK_OPEN_FILE,     /* open() of a sysfs or procfs file */
	FK_READ_FILE,     /* read() of such a file */
	FK_CLOSE_FILE,    /* close() of such a file */
	FK_OPENDIR,       /* opendir() */
	FK_ALLOC,         /* malloc, calloc, strdup, numa_alloc_onnode */
	FK_MAX,
};

/* What the next armed calls do. */
struct fault_plan {
	/* Armed call (counted from fault_reset(), all kinds) that fails;
	 * UINT32_MAX for none.
	 */
	uint32_t index;
	/* How many calls of that call's kind fail from there on (>= 1). */
	uint32_t count;
	/* errno set; 0 for read() means "0 bytes" (a group in error state). */
	int err;
};

/* Name of a kind, for messages. */
const char *fault_kind_name(enum fault_kind kind);

/* Forget counts and trace; install @p plan (NULL: fail nothing). */
void fault_reset(const struct fault_plan *plan);

/* Arm or disarm the calling thread. */
void fault_arm(bool on);

/* Armed calls seen since fault_reset(). */
uint32_t fault_calls(void);

/* Kind of armed call @p i (recorded up to FAULT_TRACE_MAX calls). */
#define FAULT_TRACE_MAX 4096
enum fault_kind fault_trace(uint32_t i);

/* Fail no more calls (the step that failed one is over). */
void fault_stop(void);

/* Calls failed since fault_reset(), and the kind of the first. */
uint32_t fault_fired(void);
enum fault_kind fault_fired_kind(void);

/* Allocations made while armed and not yet freed. */
unsigned int fault_live_allocs(void);

/* Wrapped calls seen (all threads, armed or not), and those made while the
 * calling thread held the library's lock: the number, and the first one's
 * kind in @p first (FK_MAX for a system call other than perf_event_open).
 */
uint32_t fault_lock_checked(void);
uint32_t fault_lock_violations(enum fault_kind *first);

/* The library's log lines seen (rte_log() is wrapped too), and those
 * written while the calling thread held the library's lock: the number, and
 * the first one's format in @p first.
 */
uint32_t fault_log_checked(void);
uint32_t fault_log_violations(const char **first);

/* The first event of the harness's lifecycles (its setup skips without it). */
#define FAULT_FIRST_EVENT "cpu-clock"

/* The lock rule over the sweep and the observers (test_pmu_fault_lock.c). */
int test_lock_free_io(void);
/* No log line under the lock, on the paths that refuse an add or an open. */
int test_lock_free_log(void);

/* Up to 3 transient failures in a row retried, the 4th returned
 * (test_pmu_fault_retry.c): the read() of an lcore's first read, and a
 * sysfs read of an add.
 */
int test_retry_read_at_open(void);
int test_retry_sysfs_read(void);

/* test_pmu_fault_dump.c */
int test_stage_dump_no_alloc(void);

/* ---- what the harness watches (test_pmu_fault_watch.c) ---- */

struct snapshot {
	unsigned int fds;       /* entries of /proc/self/fd */
	unsigned int perf_fds;  /* of which perf_event descriptors */
	unsigned int perf_maps; /* perf_event lines of /proc/self/maps */
	unsigned int allocs;    /* fault_live_allocs() */
};
void snapshot_take(struct snapshot *s);

/* The captured log (rte_openlog_stream), a temporary file. */
extern FILE *log_f;
/* Where the log ends now. */
long log_mark(void);
/* Text logged since @p mark, in @p buf; its length. */
size_t log_since(long mark, char *buf, size_t len);

/* ---- the contract (test_pmu_fault_contract.c) ---- */

/* Errnos a call of one kind can return; 0 for read() is "0 bytes". */
struct fault_errs {
	const int *v;
	unsigned int n;
};
const struct fault_errs *fault_errnos(enum fault_kind kind);

/* An errno the library retries for a call of @p kind. */
bool fault_transient(enum fault_kind kind, int err);

/* What an API call that met @p err from a call of @p kind returns (0: it
 * absorbs the error); @p persistent: the call kept failing.
 */
int fault_expected(enum fault_kind kind, int err, bool persistent);

#endif /* TEST_PMU_FAULT_H */
