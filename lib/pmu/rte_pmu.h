/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef RTE_PMU_H
#define RTE_PMU_H

/**
 * @file
 * RTE PMU: hardware performance counters read from an lcore's fast path.
 *
 * The API is upstream DPDK's rte_pmu (25.07), so code written for it builds
 * unchanged; the additions (status and info queries) are marked below.
 *
 * Call order:
 *  1. rte_pmu_init() once, from any thread (a second call is harmless);
 *  2. rte_pmu_add_event() for each event (at most RTE_MAX_NUM_GROUP_EVENTS),
 *     before any lcore reads: once an lcore has opened its group the event
 *     list is frozen and rte_pmu_add_event() fails with -EBUSY;
 *  3. rte_pmu_read() on any lcore: the first read on an lcore opens that
 *     lcore's event group (the thread's own counters; hardware events count
 *     user space only, software events count kernel context too, but in
 *     user space in an unprivileged process at perf_event_paranoid 2) and maps
 *     each event's user page; later reads cost a few
 *     instructions and no system call when the counter can be read from user
 *     space, and a read() of the event otherwise; rte_pmu_read_group()
 *     reads every event of the lcore at once (one read() in all for the
 *     events the user page cannot give);
 *  4. rte_pmu_fini() once every lcore has stopped reading; rte_pmu_init() may
 *     then be called again.
 *
 * Thread safety: rte_pmu_init(), rte_pmu_add_event(), rte_pmu_fini(),
 * rte_pmu_lcore_status() and rte_pmu_lcore_info_get() take the library's
 * lock and may be called from any thread, but rte_pmu_fini() must not race
 * with rte_pmu_read(). rte_pmu_read() takes no lock once the lcore's group
 * is open: each lcore reads only its own group. The first read on an lcore
 * opens the group (a few system calls per event), taking the library's lock
 * only briefly before and after them. An lcore is an EAL thread or a thread
 * registered with
 * rte_thread_register(); an unregistered thread reads 0 and its status is
 * -ESRCH.
 *
 * Requirements: perf_event_paranoid <= 2 for an unprivileged process (or
 * CAP_PERFMON); on arm64 /proc/sys/kernel/perf_user_access = 1 for
 * user-space reads (otherwise every read is a read() system call).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_compat.h>
#include <rte_debug.h>
#include <rte_lcore.h>
#include <rte_per_lcore.h>

#include "rte_pmu_page.h"

/* As upstream's: where counters are read from user space (rdpmc, mrs).
 * Elsewhere the library still counts, through read().
 */
#if defined(RTE_ARCH_X86_64) || defined(RTE_ARCH_ARM64)
#define RTE_PMU_SUPPORTED
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Maximum number of events in a group (all of them usable). */
#define RTE_MAX_NUM_GROUP_EVENTS 8

/**
 * Per-lcore view read by rte_pmu_read(): what the inline read needs and
 * nothing else. Internal: written only by the library.
 */
struct rte_pmu_event_group {
	/** User page of each event, in rte_pmu_add_event() index order; where
	 *  no event is ready, a page that gives no value (never NULL).
	 */
	struct perf_event_mmap_page *mmap_pages[RTE_MAX_NUM_GROUP_EVENTS];
} __rte_aligned(64);

/**
 * The calling thread's group, set by its first read
 * and reset when it gives its lcore id back; until then a group with no
 * events, never NULL. Internal: it saves the fast path the lcore id lookup
 * and its range check. Initial-exec: the library's own code (built as
 * position-independent code) reaches it with two loads, not a call through
 * a TLS descriptor.
 */
RTE_DECLARE_PER_LCORE(struct rte_pmu_event_group *, _pmu_group)
	__attribute__((tls_model("initial-exec")));

/**
 * Read path taken by everything but the common case: lazy group open,
 * multiplexed counters (scaling), counters not on the hardware now (read()),
 * unknown index, library not initialised. Internal: use rte_pmu_read().
 *
 * @param index
 *   Event index returned by rte_pmu_add_event().
 * @return
 *   Counter value, or 0 when it cannot be read (see rte_pmu_lcore_status()).
 */
__rte_experimental
uint64_t
__rte_pmu_read_slow(unsigned int index);

/**
 * Read path of an open event that its page cannot give (software event,
 * counter not on the hardware now, user access off): one read() of the
 * event's own value. Internal: use rte_pmu_read().
 *
 * @param group
 *   The calling thread's open group.
 * @param index
 *   Event index, below RTE_MAX_NUM_GROUP_EVENTS; one with no event ready
 *   takes __rte_pmu_read_slow().
 * @return
 *   Counter value (scaled), or 0 when read() fails (counted in
 *   rte_pmu_lcore_info::read_errors).
 */
__rte_experimental
uint64_t
__rte_pmu_read_fd(struct rte_pmu_event_group *group, unsigned int index);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Initialise the library: find the core PMU, check user-space access.
 * Calling it again while initialised does nothing.
 *
 * Thread-safe; control path.
 *
 * Every failure is logged with its cause and changes nothing: the call
 * may be made again.
 *
 * @return
 *   0 on success;
 *   -ENODEV /sys/bus/event_source/devices is missing or lists no PMU
 *   (a kernel without perf_event);
 *   -EACCES that folder cannot be read;
 *   -EMFILE the process or the system is out of file descriptors;
 *   -ENOMEM out of memory;
 *   -EIO any other failure to read that folder (the log names it).
 */
__rte_experimental
int
rte_pmu_init(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Close every lcore's group, unmap its pages and forget all events.
 * rte_pmu_init() may be called afterwards. Reads after this return 0.
 * A user page whose munmap() fails is logged and kept; the next
 * rte_pmu_init() or rte_pmu_fini() tries again (nothing is lost).
 *
 * Thread-safe, but no lcore may be inside rte_pmu_read() meanwhile.
 */
__rte_experimental
void
rte_pmu_fini(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Add an event to the group every lcore will open.
 *
 * Names accepted, as perf spells them:
 *  - perf's generic hardware names: cycles, cpu-cycles, instructions,
 *    cache-references, cache-misses, branches, branch-instructions,
 *    branch-misses, bus-cycles, ref-cycles, stalled-cycles-frontend,
 *    stalled-cycles-backend (and their idle-cycles-* aliases);
 *  - perf's software names: cpu-clock, task-clock, page-faults (faults),
 *    context-switches (cs), cpu-migrations (migrations), minor-faults,
 *    major-faults, alignment-faults, emulation-faults, cgroup-switches and
 *    dummy (always 0); bpf-output counts nothing: -EOPNOTSUPP;
 *  - perf's cache events "<cache>[-<op>][-<result>]": cache L1-dcache,
 *    L1-icache, LLC, dTLB, iTLB, branch, node; op load, store, prefetch;
 *    result refs or misses; every spelling perf accepts, in any case
 *    (e.g. L1-dcache-load-misses, LLC-loads, dTLB-load-misses);
 *  - raw events of the core PMU: 'r' and up to 16 hex digits (r003c);
 *  - events of the core PMU listed in sysfs (e.g. mem-loads on x86,
 *    cpu_cycles or inst_retired on arm64);
 *  - perf-style PMU events: "pmu/event/" (e.g. msr/tsc/) or
 *    "pmu/term=value,.../" with the terms of the PMU's format/ folder
 *    plus config, config1, config2 and period;
 *  - vendor names (INST_RETIRED.ANY_P, L1D_CACHE_REFILL, ...) when the
 *    library was built with libpfm4 and no name above matches.
 * A modifier suffix chooses what is counted: ":u" user space, ":k" kernel,
 * ":h" hypervisor, or a combination (":uk"); after the PMU form it follows
 * the last '/' ("msr/tsc/u"). Any other perf modifier is refused. Without
 * one, hardware and PMU events count user space only and software events
 * count kernel context too; in an unprivileged process at
 * kernel.perf_event_paranoid 2, which allows user space only, software
 * events count user space (a warning says so), but for context and cgroup
 * switches and migrations, which happen in the kernel's context and are
 * refused. Where the event cannot count what is asked, it counts user and
 * kernel space alike, with a warning for a modifier given: a PMU that
 * cannot leave a level out (msr, msr/tsc/u), and the clock events
 * (task-clock, cpu-clock), which the kernel counts whole whatever their
 * modifier.
 *
 * On x86, msr/tsc/ is read with rdtsc, without a system call, although its
 * user page gives no counter: the kernel counts it only while the thread
 * is scheduled in, rdtsc counts on while it is not, so its value is the
 * kernel's plus the time the thread spent descheduled since its group
 * opened (the two differ by that time between two reads).
 *
 * On a machine with several core types (hybrid x86, big.LITTLE arm64) each
 * lcore opens the events with the core PMU of the CPUs it may run on;
 * an lcore allowed on CPUs of two core types fails its group open
 * (rte_pmu_lcore_status() gives -EXDEV), and an event of one core type only
 * fails on lcores of the other (-EOPNOTSUPP).
 *
 * Adding a name already added returns its index again. A failure is
 * logged with its cause and changes nothing: the call may be made again.
 * The errors of the kernel and of sysfs are mapped to the codes below.
 *
 * Thread-safe; control path.
 *
 * @param name
 *   Event name.
 * @return
 *   Event index (>= 0) to pass to rte_pmu_read(), or
 *   -EINVAL NULL or malformed name, a name longer than 127 characters
 *   (telemetry's strings hold no more), unknown modifier, a term the PMU
 *   lacks, a value wider than its field (the log names the bad part);
 *   -ENODEV library not initialised;
 *   -EACCES not permitted: the kernel refused (EACCES, EPERM; the log says
 *   which setting or privilege would change it) or a sysfs file is not
 *   readable;
 *   -EOPNOTSUPP a known event this machine cannot count: cycles without a
 *   hardware PMU, or the kernel refused its configuration (EOPNOTSUPP,
 *   EINVAL, ENOENT, ENODEV, E2BIG, ENOSPC...);
 *   -ENOENT no such event or PMU;
 *   -ENOSPC RTE_MAX_NUM_GROUP_EVENTS events already added;
 *   -EBUSY an lcore has already opened its group (only this);
 *   -EAGAIN the kernel stayed busy or interrupted (EINTR, EAGAIN, EBUSY)
 *   after a few tries: try again later;
 *   -EMFILE the process or the system is out of file descriptors;
 *   -ENOMEM out of memory;
 *   -EIO a sysfs file could not be read or is too long (the log names it).
 */
__rte_experimental
int
rte_pmu_add_event(const char *name);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * The length of the first event name of a comma-separated list, as
 * perf stat -e reads one: up to the first comma outside a PMU's slashes,
 * so that "cpu/event=0x3c,umask=0x0/,instructions" begins with one name of
 * 25 characters. For programs that take an event list from their users;
 * the name may then be given to rte_pmu_add_event(). Needs no
 * rte_pmu_init(); thread-safe.
 *
 * @param list
 *   A comma-separated list of event names.
 * @return
 *   The number of characters of its first name (0 where it begins with a
 *   comma or is empty, and for NULL, logged).
 */
__rte_experimental
size_t
rte_pmu_event_name_len(const char *list);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Read an event's counter on the calling lcore.
 *
 * The first call on an lcore opens its group (the library's lock is taken
 * briefly around the system calls, not across them);
 * later calls take no lock and make no system call when the counter can be
 * read from user space. Reads 0 when the value cannot be read;
 * rte_pmu_lcore_status() says why.
 *
 * Failures: each system call of the group open that fails with EINTR,
 * EAGAIN or EBUSY is made again, up to 3 times; if it still fails the
 * lcore's status is -EAGAIN and its next read opens the group again (the
 * first failure is logged). Any other failure of the open is final until
 * rte_pmu_fini(). On an open group, a read() fallback that fails (retried
 * as above) returns 0: the lcore's status stays 1, the first such
 * read is logged and rte_pmu_lcore_info_get() counts them in read_errors.
 *
 * @param index
 *   Event index returned by rte_pmu_add_event().
 * Multiplexed (the kernel shared the counters between more events than
 * they hold): the value is an estimate, the count scaled by the time the
 * event was enabled over the time it ran, which can go back from one read
 * to the next; rte_pmu_lcore_info_get() says whether an event was.
 *
 * @return
 *   Counter value (scaled when the event was multiplexed), or 0.
 */
__rte_experimental
static __rte_always_inline uint64_t
rte_pmu_read(unsigned int index)
{
	/* Without ALLOW_EXPERIMENTAL_API, as upstream's: the include alone
	 * warns of nothing; a call warns (experimental) and must not run.
	 */
#ifdef ALLOW_EXPERIMENTAL_API
	struct rte_pmu_event_group *group = RTE_PER_LCORE(_pmu_group);
	uint64_t value;

	/* A constant bound: a slot with no event ready holds a page that
	 * sends the read to __rte_pmu_read_fd(), which checks num_ready.
	 */
	if (unlikely(index >= RTE_MAX_NUM_GROUP_EVENTS))
		return __rte_pmu_read_slow(index);

	if (unlikely(__rte_pmu_page_read(group->mmap_pages[index], false, &value) != 0))
		return __rte_pmu_read_fd(group, index);

	return value;
#else
	RTE_SET_USED(index);
	RTE_VERIFY(false);
	return 0;
#endif
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Open the calling lcore's (or registered thread's) event group now, so
 * that its first rte_pmu_read() makes no system call, then run the
 * lcore_open callbacks (rte_pmu_callbacks_register()) on it: a library
 * built on this one (lib/pmu_stage) prepares its own per-lcore state there.
 * Idempotent: the group opens once; the callbacks run at each call, and
 * make theirs idempotent too. Not in upstream DPDK.
 *
 * Thread-safe; control path, from the lcore itself.
 *
 * @return
 *   0, or a negative errno:
 *   -ESRCH not an lcore; -ENODEV library not initialised;
 *   -ENODATA no event added (the callbacks still ran);
 *   the failed open's errno, as rte_pmu_lcore_status() gives it;
 *   the first negative errno a callback returned (the group is open).
 */
__rte_experimental
int
rte_pmu_lcore_open(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Why an lcore's reads return 0, if they do. Not in upstream DPDK.
 *
 * Thread-safe; control path.
 *
 * @param lcore_id
 *   An lcore id; rte_lcore_id() of the calling thread is fine, including
 *   LCORE_ID_ANY for an unregistered thread.
 * @return
 *   1 the lcore's group is open and reads give counter values;
 *   0 the group is not open yet (it opens on the lcore's first read);
 *   -ENODATA no event was added: reads return 0 until rte_pmu_add_event()
 *   (the first such read logs a warning);
 *   -ESRCH @p lcore_id is LCORE_ID_ANY: register the thread with
 *   rte_thread_register();
 *   -EINVAL @p lcore_id is out of range;
 *   -ENODEV the library is not initialised;
 *   -EAGAIN opening the group failed with a transient error after a few
 *   tries: the lcore's next read tries again;
 *   -EACCES, -ENOENT, -EOPNOTSUPP, -EMFILE, -ENOMEM (as for
 *   rte_pmu_add_event()) or -EIO (an ioctl or mmap of the group failed):
 *   opening the group failed with it, the reason was logged; it is not
 *   tried again until rte_pmu_fini();
 *   -ENOSPC the group is open, but a read() of it found that the kernel had
 *   not run it since it opened (until a read of the whole group finds it
 *   run): more events than the PMU has
 *   counters, or pinned events of others hold them. Its reads give 0 (and
 *   count in read_errors) until the kernel runs it; add fewer events.
 */
__rte_experimental
int
rte_pmu_lcore_status(unsigned int lcore_id);

/** How an event is read on an lcore. */
enum rte_pmu_read_path {
	RTE_PMU_PATH_NONE = 0, /**< not readable (group not open or failed) */
	/** user space: user page and counter instruction, or rdtsc for x86's
	 *  msr/tsc/ (see rte_pmu_add_event())
	 */
	RTE_PMU_PATH_USER,
	RTE_PMU_PATH_SYSCALL,  /**< read() of the event's file descriptor */
};

/** Size of rte_pmu_event_info::key, terminating NUL included. */
#define RTE_PMU_EVENT_KEY_MAX 72

/** Size of rte_pmu_event_info::name, terminating NUL included: the
 *  longest name rte_pmu_add_event() takes, whole.
 */
#define RTE_PMU_EVENT_NAME_MAX 256

/** State of one event on one lcore, for diagnostics. */
struct rte_pmu_event_info {
	char name[RTE_PMU_EVENT_NAME_MAX]; /**< name given to rte_pmu_add_event() */
	/** The event's key in telemetry replies (/pmu/...): its name with any
	 *  character but a letter, a digit, '_' or '/' written '_', and
	 *  "_<index>" where an earlier event of the group has that key.
	 */
	char key[RTE_PMU_EVENT_KEY_MAX];
	/** "ns" for the kernel's clocks (task-clock, cpu-clock), else "count". */
	const char *unit;
	enum rte_pmu_read_path path; /**< path the next read would take */
	uint32_t user_index;        /**< page index (0: not on the hardware) */
	uint16_t pmc_width;         /**< counter width in bits */
	bool cap_user_rdpmc;        /**< page allows user-space reads */
	bool multiplexed;           /**< time_running != time_enabled */
	uint64_t time_enabled;      /**< ns enabled (from read()) */
	uint64_t time_running;      /**< ns on the hardware (from read()) */
	uint64_t value;             /**< raw value from read() */
};

/** State of an lcore's group, for diagnostics. */
struct rte_pmu_lcore_info {
	int status;                 /**< as rte_pmu_lcore_status() */
	unsigned int num_events;    /**< events added */
	/** Reads that left the inline path for a cost: read() fallbacks, and
	 *  on x86-64 the scaling of a multiplexed counter (done out of line
	 *  there); not the rdtsc reads of msr/tsc/.
	 */
	uint64_t slow_reads;
	/** Reads that returned 0 on an open group: read() failed, or the
	 *  index was never added (the first of each is logged).
	 */
	uint64_t read_errors;
	/** One entry per event, in index order. */
	struct rte_pmu_event_info events[RTE_MAX_NUM_GROUP_EVENTS];
	/** Index of the event that counts CPU cycles (perf's and arm64's
	 *  names), and of the one that counts instructions, for an IPC; -1
	 *  where there is none.
	 */
	int cycles, instructions;
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Describe an lcore's group: status, and per event the read path, user
 * index, width and the kernel's own count (read() of the event). Not in
 * upstream DPDK.
 *
 * Thread-safe; control path (it makes one system call per event). When
 * that read() fails, the event's value and times are left 0 and a
 * warning is logged; the call still succeeds.
 *
 * @param lcore_id
 *   An lcore id.
 * @param info
 *   Filled on success.
 * @return
 *   0 on success; -EINVAL NULL @p info or @p lcore_id out of range;
 *   -ESRCH LCORE_ID_ANY; -ENODEV the library is not initialised.
 */
__rte_experimental
int
rte_pmu_lcore_info_get(unsigned int lcore_id, struct rte_pmu_lcore_info *info);

/** One event rte_pmu_event_list() found. */
struct rte_pmu_event_entry {
	char name[128];              /**< name to give rte_pmu_add_event() */
	char pmu[64];                /**< PMU folder, "software", the core PMU,
	                              *   or "" when the event does not open */
	int status;                  /**< 0: opens here; else the negative errno
	                              *   rte_pmu_add_event() would give */
	enum rte_pmu_read_path path; /**< read path when it opens, else NONE */
};

/** Callback of rte_pmu_event_list(): a negative return stops the listing. */
typedef int (*rte_pmu_event_list_cb_t)(const struct rte_pmu_event_entry *entry, void *arg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * List the events names can refer to here: perf's generic and cache
 * events, each PMU's sysfs events (as "pmu/event/"), and the core PMU's
 * vendor names when the library was built with libpfm4 (at most 1024).
 * Each is encoded and opened once on the calling thread (then closed) to
 * say whether it opens and which read path it gets. Not in upstream DPDK.
 *
 * Thread-safe; control path (a few system calls per event); no log line
 * for events that do not open. Call it after rte_pmu_init().
 *
 * @param cb
 *   Called once per event, in order; a negative return stops the listing.
 * @param arg
 *   Passed to @p cb.
 * @return
 *   Number of events listed (>= 0), or
 *   -EINVAL NULL @p cb;
 *   -ENODEV the library is not initialised;
 *   the negative value @p cb returned.
 */
__rte_experimental
int
rte_pmu_event_list(rte_pmu_event_list_cb_t cb, void *arg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Read an event's counter on the calling lcore, as rte_pmu_read() does, and
 * record the value in the EAL trace as the event lib.pmu.read with fields
 * lcore_id, index and value. Not in upstream DPDK.
 *
 * This is the datapath's way to record counter values: the trace point is a
 * regular one, so it records on a DPDK built without RTE_ENABLE_TRACE_FP
 * (Debian's, for one), where fast-path trace points compile to nothing.
 * Enable it with the EAL option --trace='lib.pmu.read' (or 'lib.pmu.*');
 * while disabled it costs rte_pmu_read() plus a function call and one test
 * of the trace point's flag. Event names are in lib.pmu.event.add records
 * (fields name, ret = index). Same thread safety as rte_pmu_read().
 *
 * @param index
 *   Event index returned by rte_pmu_add_event().
 * @return
 *   Counter value as rte_pmu_read() returns it (0 when it cannot be read).
 */
__rte_experimental
uint64_t
rte_pmu_read_trace(unsigned int index);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Read every event of the calling lcore's group in one call, for the
 * "measure this block" pattern: @p values[i] is what rte_pmu_read(i) would
 * return. Each event readable from user space is read in one seqlock pass
 * of its page (no system call); all the others together cost one read()
 * system call of the whole group. The events are read one after the
 * other, not at one instant. Like rte_pmu_read(), the first call on an
 * lcore opens its group. Not in upstream DPDK.
 *
 * Lock-free once the group is open; datapath. Call it from the lcore whose
 * events are read, like rte_pmu_read().
 *
 * @param values
 *   Array of at least @p n values, filled in event index order.
 * @param n
 *   Room in @p values; events beyond it are not read.
 * @return
 *   Number of values filled (the smaller of @p n and the number of
 *   events), or a negative errno:
 *   -EINVAL NULL @p values or @p n is 0;
 *   -ESRCH the thread is not an lcore (see rte_thread_register());
 *   -ENODEV the library is not initialised;
 *   -ENODATA no event was added;
 *   another negative errno: the group failed to open (as
 *   rte_pmu_lcore_status()) or its read() failed; -ENODATA where the
 *   kernel has not run the group since it opened (the lcore's status is
 *   then -ENOSPC), or could not schedule a pinned one.
 */
__rte_experimental
int
rte_pmu_read_group(uint64_t *values, unsigned int n);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Events counted since a snapshot: reads the group as
 * rte_pmu_read_group() does and stores the difference from @p start.
 * Usage:
 *   uint64_t start[N], delta[N];
 *   rte_pmu_read_group(start, N);
 *   ... the block measured ...
 *   rte_pmu_read_group_delta(start, delta, N);
 * Not in upstream DPDK.
 *
 * Lock-free once the group is open; datapath.
 *
 * @param start
 *   Values from an earlier rte_pmu_read_group() on the same lcore.
 * @param delta
 *   Array of at least @p n values: the counts since @p start; 0 for a
 *   multiplexed event whose estimate went back below its start.
 * @param n
 *   Room in @p start and @p delta.
 * @return
 *   As rte_pmu_read_group(); -EINVAL also for a NULL @p start.
 */
__rte_experimental
int
rte_pmu_read_group_delta(const uint64_t *start, uint64_t *delta, unsigned int n);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Number of events in the calling lcore's group: what rte_pmu_read_group()
 * fills, whether or not a read succeeds. Not in upstream DPDK.
 *
 * Lock-free; no system call; from the lcore itself.
 *
 * @return
 *   The events of its open group; 0 where it has none open (not opened
 *   yet, failed, no event added, not an lcore).
 */
__rte_experimental
unsigned int
rte_pmu_lcore_num_events(void);

/** What rte_pmu_callbacks_register() takes; a NULL member is not called. */
struct rte_pmu_callbacks {
	/** From rte_pmu_lcore_open(), on that lcore, after its group opened
	 *  (or failed to), without the library's lock: 0 or a negative errno,
	 *  which rte_pmu_lcore_open() returns.
	 */
	int (*lcore_open)(unsigned int lcore_id, void *arg);
	/** From rte_pmu_fini(), before the events and groups go, without the
	 *  library's lock; not from one while the library is not initialised.
	 */
	void (*fini)(void *arg);
	void *arg;  /**< passed to both */
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice
 *
 * Be told of each lcore's rte_pmu_lcore_open() and of rte_pmu_fini(), as a
 * library that keeps per-lcore state on top of this one needs (the
 * callbacks are kept for the life of the process). Not in upstream DPDK.
 *
 * Thread-safe; control path; usually from a constructor (RTE_INIT).
 *
 * @param cb
 *   The callbacks; copied.
 * @return
 *   0; -EINVAL NULL @p cb; -ENOSPC four sets registered already.
 */
__rte_experimental
int
rte_pmu_callbacks_register(const struct rte_pmu_callbacks *cb);

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMU_H */
