/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The contract the fault harness checks: which errnos each kind of call
 * can really return, and what the API gives back for each (rte_pmu.h).
 */

#include <errno.h>

#include <rte_common.h>

#include "test_pmu_fault.h"

/* Errnos each kind of call can return; 0 for read() is "0 bytes". */
static const int errs_perf_open[] = { EMFILE, ENFILE, ENOMEM, EINTR, EAGAIN, EBUSY, EACCES,
	EPERM, E2BIG, ENODEV, ENOENT, EOPNOTSUPP, EINVAL };
static const int errs_ioctl_enable[] = { EINTR, EAGAIN, EINVAL, EIO };
static const int errs_mmap[] = { EAGAIN, ENOMEM, EPERM, EINVAL, ENODEV };
static const int errs_munmap[] = { EINVAL, ENOMEM };
static const int errs_read_perf[] = { EINTR, EAGAIN, EBUSY, EIO, 0 };
static const int errs_close[] = { EINTR, EIO };
static const int errs_open_file[] = { EMFILE, ENFILE, ENOMEM, EACCES, EINTR };
static const int errs_read_file[] = { EIO, ENOMEM, EINTR, EAGAIN, EBUSY };
static const int errs_opendir[] = { EMFILE, ENFILE, ENOMEM, EACCES, ENOENT };
static const int errs_alloc[] = { ENOMEM };

#define ERRS(a) { a, RTE_DIM(a) }
static const struct fault_errs kind_errs[FK_MAX] = {
	[FK_PERF_OPEN] = ERRS(errs_perf_open),
	[FK_IOCTL_ENABLE] = ERRS(errs_ioctl_enable),
	[FK_MMAP] = ERRS(errs_mmap),
	[FK_MUNMAP] = ERRS(errs_munmap),
	[FK_READ_PERF] = ERRS(errs_read_perf),
	[FK_CLOSE_PERF] = ERRS(errs_close),
	[FK_OPEN_FILE] = ERRS(errs_open_file),
	[FK_READ_FILE] = ERRS(errs_read_file),
	[FK_CLOSE_FILE] = ERRS(errs_close),
	[FK_OPENDIR] = ERRS(errs_opendir),
	[FK_ALLOC] = ERRS(errs_alloc),
};

bool
fault_transient(enum fault_kind kind, int err)
{
	/* rte_pmu.h: EINTR, EAGAIN and EBUSY are tried again, up to 3 times. */
	switch (kind) {
	case FK_PERF_OPEN:
	case FK_MMAP:
	case FK_IOCTL_ENABLE:
	case FK_OPEN_FILE:
	case FK_READ_FILE:
	case FK_READ_PERF:
		return err == EINTR || err == EAGAIN || err == EBUSY;
	default:
		return false;
	}
}

/* The contract: what an API call that met @p err from a call of @p kind
 * returns (0: it absorbs the error). @p persistent: the call kept failing.
 */
int
fault_expected(enum fault_kind kind, int err, bool persistent)
{
	/* A failed read() is counted and logged, never returned. */
	if (kind == FK_READ_PERF)
		return 0;
	if (fault_transient(kind, err))
		return persistent ? -EAGAIN : 0;
	switch (kind) {
	case FK_ALLOC:
		return -ENOMEM;
	case FK_CLOSE_PERF:
	case FK_CLOSE_FILE:
	case FK_MUNMAP:
	case FK_READ_PERF:
		return 0;
	default:
		break;
	}
	switch (err) {
	case EMFILE:
	case ENFILE:
		return -EMFILE;
	case ENOMEM:
		return -ENOMEM;
	case EACCES:
	case EPERM:
		return -EACCES;
	case ENOENT:
		/* perf_event_open() of an encoded, so known, event: not countable. */
		if (kind == FK_PERF_OPEN)
			return -EOPNOTSUPP;
		return kind == FK_OPENDIR ? -ENODEV : -ENOENT;
	case EOPNOTSUPP:
	case ENODEV:
	case E2BIG:
		return kind == FK_PERF_OPEN ? -EOPNOTSUPP : -EIO;
	case EINVAL:
		return kind == FK_PERF_OPEN ? -EOPNOTSUPP : -EIO;
	default:
		return -EIO;
	}
}

const struct fault_errs *
fault_errnos(enum fault_kind kind)
{
	return &kind_errs[kind];
}
