/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_DRIVER_H
#define PMU_DRIVER_H

/* The driver-facing header: all a backend (drivers/pmu/<arch>) may use of
 * the library, and the only library header it includes.
 *
 * The control-path backend of an architecture: which
 * PMU folder is the core PMU, what to check at init, and how to adjust an
 * event so that its counter can be read from user space.
 *
 * A backend fills a struct pmu_arch_ops and registers it with
 * RTE_PMU_REGISTER_ARCH(); the library checks the mandatory hooks at
 * registration and calls the optional ones only through the pmu_arch_*()
 * wrappers below, which do nothing (or fail cleanly) when a hook, or the
 * whole backend, is missing.
 */

#include <stdbool.h>
#include <stddef.h>

#include <rte_common.h>

#include "pmu_event.h"  /* struct pmu_event_desc, pmu_sysfs_event_encode() */
#include "pmu_log.h"    /* PMU_LOG() */
#include "pmu_sysfs.h"  /* pmu_sysfs_read(), the format/ helpers */

struct pmu_arch_ops {
	/** Backend name, for logs. Mandatory. */
	const char *name;
	/**
	 * Mandatory. Find the core PMU folder under the sysfs root; fill
	 * @p name (PMU_NAME_MAX). Returns 0 or -ENODEV.
	 */
	int (*core_pmu)(char *name, size_t len);
	/**
	 * Mandatory. True when the PMU folder @p name under the sysfs root is
	 * one of this architecture's CPU PMUs (one per core type on hybrid
	 * and big.LITTLE machines). The library's only source of core-PMU
	 * names.
	 */
	bool (*is_core_pmu)(const char *name);
	/**
	 * Optional. Called at rte_pmu_init() with the core PMU: check and log
	 * whether counters can be read from user space (never changes the
	 * system).
	 */
	void (*init)(const char *core_pmu);
	/**
	 * Optional. Adjust an encoded core-PMU or generic hardware event so
	 * that it can be read from user space (arm64: the config1 user-access
	 * and 64-bit bits). Bits in desc->config1_user were set by the user:
	 * never override them.
	 */
	void (*attr_fixup)(const char *core_pmu, struct pmu_event_desc *desc);
	/**
	 * Optional. perf_event_open() of a core event failed with @p err
	 * (negative errno): change @p desc for another try and return true,
	 * or return false.
	 */
	bool (*attr_retry)(const char *core_pmu, struct pmu_event_desc *desc, int err);
	/**
	 * Optional. Whether the encoded event @p desc counts what rte_rdtsc()
	 * reads, one count per tick (x86: msr/tsc/, known by the type and the
	 * events/tsc file of the msr PMU in sysfs). The lcore's reads of such
	 * an event then take rte_rdtsc() less a base set when the group opens,
	 * instead of a read() system call. Control path; may read sysfs.
	 * Returns 1 yes, 0 no, or the negative errno of a sysfs file that
	 * could not be read (as pmu_sysfs_read(); a missing one means no).
	 */
	int (*counts_tsc)(const struct pmu_event_desc *desc);
};

/**
 * Register @p ops as this architecture's backend. Returns 0, or -EINVAL
 * (logged) when a mandatory hook is missing; -EEXIST when a backend is
 * already registered. Use RTE_PMU_REGISTER_ARCH().
 */
int pmu_arch_register(const struct pmu_arch_ops *ops);

/** Register a backend from a constructor, as drivers/power's do. */
#define RTE_PMU_REGISTER_ARCH(nm, ops) \
	RTE_INIT(pmu_arch_register_ ## nm) \
	{ \
		pmu_arch_register(&(ops)); \
	}

/** Name of the registered backend, "none" without one. */
const char *pmu_arch_name(void);

/** True when a backend is registered. */
bool pmu_arch_present(void);

/** The backend's core PMU folder in @p name; -ENODEV without backend or PMU. */
int pmu_arch_core_pmu(char *name, size_t len);

/** The backend's is_core_pmu hook; false without a backend. */
bool pmu_arch_is_core_pmu(const char *name);

/** The backend's init hook, when there is one. */
void pmu_arch_init(const char *core_pmu);

/** The backend's attr_fixup hook, when there is one. */
void pmu_arch_attr_fixup(const char *core_pmu, struct pmu_event_desc *desc);

/** The backend's attr_retry hook; false when there is none. */
bool pmu_arch_attr_retry(const char *core_pmu, struct pmu_event_desc *desc, int err);

/** The backend's counts_tsc hook; 0 when there is none. */
int pmu_arch_counts_tsc(const struct pmu_event_desc *desc);

#endif /* PMU_DRIVER_H */
