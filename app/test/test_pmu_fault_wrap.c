/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The -Wl,--wrap side of dpdk-test-fault: each __wrap_<call> counts the
 * call when its thread is armed, fails it when the plan says so, and
 * otherwise hands it to __real_<call>. A failed call behaves as the kernel
 * would: close() still releases the descriptor, munmap() leaves the mapping.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include <linux/perf_event.h>

#include <rte_log.h>

#include "pmu_state.h"
#include "test_pmu_fault.h"

/* The real calls. The library is built with _FILE_OFFSET_BITS=64, so its
 * references are the *64 names; both spellings are wrapped.
 */
#define WRAPPED(ret, name, args) ret __real_##name args; ret __wrap_##name args
WRAPPED(long, syscall, (long number, ...));
WRAPPED(int, ioctl, (int fd, unsigned long request, ...));
WRAPPED(void *, mmap, (void *addr, size_t len, int prot, int flags, int fd, off_t off));
WRAPPED(void *, mmap64, (void *addr, size_t len, int prot, int flags, int fd, off_t off));
WRAPPED(int, munmap, (void *addr, size_t len));
WRAPPED(ssize_t, read, (int fd, void *buf, size_t n));
WRAPPED(int, close, (int fd));
WRAPPED(int, open, (const char *path, int flags, ...));
WRAPPED(int, open64, (const char *path, int flags, ...));
WRAPPED(void *, opendir, (const char *path));
WRAPPED(void *, malloc, (size_t size));
WRAPPED(void *, calloc, (size_t n, size_t size));
WRAPPED(char *, strdup, (const char *s));
WRAPPED(void *, numa_alloc_onnode, (size_t size, int node));
WRAPPED(void, free, (void *p));
WRAPPED(int, rte_log, (uint32_t level, uint32_t logtype, const char *format, ...));

static const char *const kind_names[FK_MAX] = {
	[FK_PERF_OPEN] = "perf_event_open",
	[FK_IOCTL_ENABLE] = "ioctl(ENABLE)",
	[FK_IOCTL_OTHER] = "ioctl",
	[FK_MMAP] = "mmap",
	[FK_MUNMAP] = "munmap",
	[FK_READ_PERF] = "read(perf fd)",
	[FK_CLOSE_PERF] = "close(perf fd)",
	[FK_OPEN_FILE] = "open(file)",
	[FK_READ_FILE] = "read(file)",
	[FK_CLOSE_FILE] = "close(file)",
	[FK_OPENDIR] = "opendir",
	[FK_ALLOC] = "alloc",
};

static __thread bool armed;
static struct fault_plan plan = { .index = UINT32_MAX };
static uint32_t calls;
static uint32_t fired;
static enum fault_kind fired_kind = FK_MAX;
static enum fault_kind fail_kind = FK_MAX;
static unsigned char trace[FAULT_TRACE_MAX];

/* Perf descriptors the wrapped perf_event_open handed out. */
#define FD_TRACKED 4096
static bool perf_fd[FD_TRACKED];

/* Allocations made while armed. */
#define ALLOC_TRACKED 256
static void *allocs[ALLOC_TRACKED];

const char *
fault_kind_name(enum fault_kind kind)
{
	return kind < FK_MAX ? kind_names[kind] : "?";
}

void
fault_reset(const struct fault_plan *p)
{
	__atomic_store_n(&calls, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&fired, 0, __ATOMIC_SEQ_CST);
	fired_kind = FK_MAX;
	fail_kind = FK_MAX;
	if (p != NULL)
		plan = *p;
	else
		plan = (struct fault_plan){ .index = UINT32_MAX, .count = 0 };
}

void
fault_arm(bool on)
{
	armed = on;
}

uint32_t
fault_calls(void)
{
	return __atomic_load_n(&calls, __ATOMIC_SEQ_CST);
}

enum fault_kind
fault_trace(uint32_t i)
{
	return i < FAULT_TRACE_MAX ? (enum fault_kind)trace[i] : FK_MAX;
}

void
fault_stop(void)
{
	plan.count = fired;
	plan.index = UINT32_MAX;
}

uint32_t
fault_fired(void)
{
	return __atomic_load_n(&fired, __ATOMIC_SEQ_CST);
}

enum fault_kind
fault_fired_kind(void)
{
	return fired_kind;
}

unsigned int
fault_live_allocs(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < ALLOC_TRACKED; i++)
		if (allocs[i] != NULL)
			n++;
	return n;
}

/* Every wrapped call, armed or not: the library makes no system call, file
 * access or allocation with its lock held by the calling thread.
 */
static uint32_t lock_checked;
static uint32_t lock_violations;
static enum fault_kind lock_violation_kind = FK_MAX;

static void
lock_check(enum fault_kind kind)
{
	__atomic_fetch_add(&lock_checked, 1, __ATOMIC_RELAXED);
	if (!pmu_lock_held())
		return;
	if (__atomic_fetch_add(&lock_violations, 1, __ATOMIC_RELAXED) == 0)
		lock_violation_kind = kind;
}

uint32_t
fault_lock_checked(void)
{
	return __atomic_load_n(&lock_checked, __ATOMIC_RELAXED);
}

uint32_t
fault_lock_violations(enum fault_kind *first)
{
	if (first != NULL)
		*first = lock_violation_kind;
	return __atomic_load_n(&lock_violations, __ATOMIC_RELAXED);
}

/* Every log line of the library, armed or not: none is written (fwrite,
 * fflush, syslog in DPDK's rte_vlog()) with the library's lock held.
 */
static uint32_t log_checked;
static uint32_t log_violations;
static const char *log_violation_format;

uint32_t
fault_log_checked(void)
{
	return __atomic_load_n(&log_checked, __ATOMIC_RELAXED);
}

uint32_t
fault_log_violations(const char **first)
{
	if (first != NULL)
		*first = log_violation_format;
	return __atomic_load_n(&log_violations, __ATOMIC_RELAXED);
}

int
__wrap_rte_log(uint32_t level, uint32_t logtype, const char *format, ...)
{
	va_list ap;
	int ret;

	__atomic_fetch_add(&log_checked, 1, __ATOMIC_RELAXED);
	if (pmu_lock_held() &&
			__atomic_fetch_add(&log_violations, 1, __ATOMIC_RELAXED) == 0)
		log_violation_format = format;
	va_start(ap, format);
	ret = rte_vlog(level, logtype, format, ap);
	va_end(ap);
	return ret;
}

/* Count an armed call of @p kind; true when it must fail (errno is set). */
static bool
fault_hit(enum fault_kind kind)
{
	uint32_t i;

	lock_check(kind);
	if (!armed)
		return false;
	i = __atomic_fetch_add(&calls, 1, __ATOMIC_SEQ_CST);
	if (i < FAULT_TRACE_MAX)
		trace[i] = (unsigned char)kind;

	if (i == plan.index) {
		fail_kind = kind;
		fired_kind = kind;
	} else if (fail_kind != kind) {
		return false;
	}
	if (fired >= plan.count)
		return false;
	fired++;
	errno = plan.err;
	return true;
}

static void
alloc_track(void *p)
{
	unsigned int i;

	if (p == NULL || !armed)
		return;
	for (i = 0; i < ALLOC_TRACKED; i++) {
		if (allocs[i] == NULL) {
			allocs[i] = p;
			return;
		}
	}
}

long
__wrap_syscall(long number, ...)
{
	long a[6];
	long ret;
	va_list ap;
	int i;

	va_start(ap, number);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);

	if (number != SYS_perf_event_open)
		lock_check(FK_MAX);
	else if (fault_hit(FK_PERF_OPEN))
		return -1;
	ret = __real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (number == SYS_perf_event_open && ret >= 0 && ret < FD_TRACKED)
		perf_fd[ret] = true;
	return ret;
}

int
__wrap_ioctl(int fd, unsigned long request, ...)
{
	enum fault_kind kind = FK_IOCTL_OTHER;
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);

	if (request == PERF_EVENT_IOC_ENABLE)
		kind = FK_IOCTL_ENABLE;
	if (fault_hit(kind))
		return -1;
	return __real_ioctl(fd, request, arg);
}

/* mmap and mmap64, open and open64: the same wrapper for each spelling. */
#define WRAP_MMAP(name) \
void * \
__wrap_##name(void *addr, size_t len, int prot, int flags, int fd, off_t off) \
{ \
	if (fault_hit(FK_MMAP)) \
		return (void *)-1; \
	return __real_##name(addr, len, prot, flags, fd, off); \
}
WRAP_MMAP(mmap)
WRAP_MMAP(mmap64)

int
__wrap_munmap(void *addr, size_t len)
{
	/* A failed munmap leaves the mapping in place. */
	if (fault_hit(FK_MUNMAP))
		return -1;
	return __real_munmap(addr, len);
}

ssize_t
__wrap_read(int fd, void *buf, size_t n)
{
	bool perf = fd >= 0 && fd < FD_TRACKED && perf_fd[fd];

	if (fault_hit(perf ? FK_READ_PERF : FK_READ_FILE))
		return errno == 0 ? 0 : -1;
	return __real_read(fd, buf, n);
}

int
__wrap_close(int fd)
{
	bool perf = fd >= 0 && fd < FD_TRACKED && perf_fd[fd];
	bool fail = fault_hit(perf ? FK_CLOSE_PERF : FK_CLOSE_FILE);
	int err = errno;
	int ret;

	/* Linux releases the descriptor even when close() reports an error. */
	if (perf)
		perf_fd[fd] = false;
	ret = __real_close(fd);
	if (fail) {
		errno = err;
		return -1;
	}
	return ret;
}

#define WRAP_OPEN(name) \
int \
__wrap_##name(const char *path, int flags, ...) \
{ \
	va_list ap; \
	int mode; \
\
	va_start(ap, flags); \
	mode = va_arg(ap, int); \
	va_end(ap); \
	if (fault_hit(FK_OPEN_FILE)) \
		return -1; \
	return __real_##name(path, flags, mode); \
}
WRAP_OPEN(open)
WRAP_OPEN(open64)

void *
__wrap_opendir(const char *path)
{
	if (fault_hit(FK_OPENDIR))
		return NULL;
	return __real_opendir(path);
}

void *
__wrap_malloc(size_t size)
{
	void *p;

	if (fault_hit(FK_ALLOC))
		return NULL;
	p = __real_malloc(size);
	alloc_track(p);
	return p;
}

void *
__wrap_calloc(size_t n, size_t size)
{
	void *p;

	if (fault_hit(FK_ALLOC))
		return NULL;
	p = __real_calloc(n, size);
	alloc_track(p);
	return p;
}

/* The stages' arrays, allocated again after each rte_pmu_fini(); not
 * tracked (numa_free() is not wrapped). The lcore's own stage state,
 * kept for the process, is left alone: the sweep's calls would not
 * repeat from one lifecycle to the next.
 */
void *
__wrap_numa_alloc_onnode(size_t size, int node)
{
	if (fault_hit(FK_ALLOC))
		return NULL;
	return __real_numa_alloc_onnode(size, node);
}

char *
__wrap_strdup(const char *s)
{
	char *p;

	if (fault_hit(FK_ALLOC))
		return NULL;
	p = __real_strdup(s);
	alloc_track(p);
	return p;
}

void
__wrap_free(void *p)
{
	if (p != NULL)
		lock_check(FK_ALLOC);
	unsigned int i;

	if (p != NULL) {
		for (i = 0; i < ALLOC_TRACKED; i++) {
			if (allocs[i] == p) {
				allocs[i] = NULL;
				break;
			}
		}
	}
	__real_free(p);
}
