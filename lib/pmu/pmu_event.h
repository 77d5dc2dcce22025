/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PMU_EVENT_H
#define PMU_EVENT_H

/* Event names encoded as perf_event attributes: the entry point, perf's
 * name tables, the sysfs term encoder, the core PMU of a CPU set, libpfm4.
 */

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include <rte_os.h>

#include "pmu_sysfs.h"

/** An encoded event. */
struct pmu_event_desc {
	/**
	 * type, config, config1, config2, sample_period, and the privilege
	 * levels (exclude_user/kernel/hv): the name's modifiers, else the
	 * default of its type.
	 */
	struct perf_event_attr attr;
	/** PMU folder of the event; "" for perf's generic types. */
	char pmu[PMU_NAME_MAX];
	/** Core PMU the encoding is for, when core is set (hybrid machines). */
	char core_pmu[PMU_NAME_MAX];
	/** config1 bits the name set explicitly (format terms, config1=). */
	uint64_t config1_user;
	/** Core PMU event or generic hardware event (gets the arch fixup). */
	bool core;
	/** The name gave privilege-level modifiers (":u", "/k"). */
	bool levels_given;
};

/**
 * Encode an event name (see rte_pmu_add_event() for the syntax) for core
 * PMU @p core_pmu ("" when none was found: then only software and
 * pmu/.../ names resolve). On a machine with several core PMUs, generic
 * hardware and cache events get @p core_pmu's extended type.
 * Returns 0; -ENOENT unknown event or PMU; -EINVAL malformed name, unknown
 * modifier, a term the PMU lacks, a value wider than its field;
 * -EOPNOTSUPP a known event that cannot be counted with @p core_pmu;
 * another negative errno when a sysfs file could not be read
 * (rte_pmu_add_event() maps it). Each failure is logged.
 */
int pmu_event_encode(const char *name, const char *core_pmu, struct pmu_event_desc *desc);

/** Longest event name accepted. */
#define PMU_EVENT_NAME_MAX 255


/**
 * pmu_event_encode() for @p core_pmu, or, when the event exists only on
 * another core type (hybrid machines), for the first core PMU that has it
 * (desc->core_pmu says which). Returns as pmu_event_encode().
 */
int pmu_event_encode_any(const char *name, const char *core_pmu,
	struct pmu_event_desc *desc);

/* ---- perf's generic names (pmu_event_names.c) ---- */

/** A generic hardware or software event. */
struct pmu_generic_event {
	const char *name;
	uint32_t type;     /**< PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
	uint64_t config;
	/** Known to perf but it counts nothing here (log says why), or NULL. */
	const char *not_countable;
};

/** perf's generic event called @p name (exact match), or NULL. */
const struct pmu_generic_event *pmu_generic_find(const char *name);

/** The @p i-th generic event (aliases included), NULL past the end. */
const struct pmu_generic_event *pmu_generic_get(unsigned int i);

/**
 * Parse one of perf's cache event names ("L1-dcache-load-misses",
 * "LLC-loads", "dTLB-load-misses", any of perf's spellings, in any case)
 * into a PERF_TYPE_HW_CACHE config.
 * Returns 0; -ENOENT not a cache event name; -EINVAL a cache name whose
 * operation the cache has not (e.g. "L1-icache-stores"), logged.
 */
int pmu_cache_parse(const char *name, uint64_t *config);

/**
 * Canonical name of the @p i-th valid cache event ("L1-dcache-loads", ...)
 * written in @p buf; its config in @p config. Returns 0, -ENOENT past the end.
 */
int pmu_cache_get(unsigned int i, char *buf, size_t len, uint64_t *config);

/**
 * The known name (generic, software or canonical cache event) closest to
 * @p name, for a log line: at most 2 edits away once both are folded
 * (spaces around trimmed, any case, '_' as '-'), written in @p buf.
 * Returns true when there is one; a name with '/' gets none.
 */
bool pmu_event_suggest(const char *name, char *buf, size_t len);

/* ---- sysfs terms (pmu_event_terms.c) ---- */

/**
 * Encode the terms of "pmu/terms/" (@p terms is changed) for PMU folder
 * @p pmu_name; @p event names the whole name in logs.
 * Returns 0; -ENOENT no such PMU, event or term; -EINVAL malformed.
 */
int pmu_terms_encode(const char *event, const char *pmu_name, char *terms,
	struct pmu_event_desc *desc);

/**
 * Encode event @p name of PMU folder @p pmu_name (its events/ file).
 * Returns 0; -ENOENT no such event (not logged); -EINVAL malformed file.
 */
int pmu_sysfs_event_encode(const char *name, const char *pmu_name,
	struct pmu_event_desc *desc);


/* ---- core PMUs (pmu_core.c) ---- */

/** Most core PMUs kept (one per core type). */
#define PMU_CORE_MAX 8

/**
 * Core PMUs under the sysfs root, sorted by name: "cpu" (x86),
 * "cpu_core"/"cpu_atom" (hybrid x86), "armv8_*"/"armv9_*" (arm64, one per
 * cluster). Fills @p names (PMU_CORE_MAX entries). Returns their number.
 */
unsigned int pmu_core_pmus(char names[][PMU_NAME_MAX]);

#ifdef RTE_HAS_CPUSET /* cpu_set_t: _GNU_SOURCE */
/**
 * The core PMU whose CPUs (its "cpus" or "cpumask" file; none: every CPU)
 * hold the CPUs of @p set. Fills @p name (PMU_NAME_MAX).
 * Returns 0; -ENODEV no core PMU, or none covers @p set; -EXDEV @p set spans
 * the CPUs of two core PMUs (logged); -EINVAL NULL argument or empty set.
 */
int pmu_core_pmu_for_cpuset(const rte_cpuset_t *set, char *name);

/**
 * The core PMU of the CPUs the calling thread may run on, in @p name
 * (PMU_NAME_MAX): @p fallback on a machine with one core PMU, or when the
 * thread may run on CPUs of several (then logged at debug level only).
 */
void pmu_core_pmu_of_thread(const char *fallback, char *name);

/**
 * Parse a CPU list ("0-3,8,10-11") into @p set.
 * Returns 0, -EINVAL malformed or beyond CPU_SETSIZE.
 */
int pmu_cpulist_parse(const char *list, rte_cpuset_t *set);
#endif

/* ---- vendor names through libpfm4 (pmu_pfm.c) ---- */

/** True when the library was built with libpfm4 and it initialised. */
bool pmu_pfm_available(void);

/** Forget libpfm4's state: the next use initialises it again (tests). */
void pmu_pfm_reset(void);

/**
 * Encode a vendor event name (e.g. "INST_RETIRED.ANY_P", "L1D_CACHE_REFILL")
 * through libpfm4 for core PMU @p core_pmu: the PMU type comes from sysfs
 * when libpfm4 names a PMU present there, else from libpfm4.
 * Returns 0; -ENOENT unknown to libpfm4 or built without it (not logged);
 * -EINVAL an event libpfm4 rejects as malformed (logged).
 */
int pmu_pfm_encode(const char *name, const char *core_pmu, struct pmu_event_desc *desc);

/**
 * Call @p cb for every event name libpfm4 knows for the PMUs it detected
 * (or LIBPFM_FORCE_PMU), at most @p max names. Returns the number of calls,
 * a negative value returned by @p cb, or 0 without libpfm4.
 */
int pmu_pfm_foreach(unsigned int max, int (*cb)(const char *name, void *arg), void *arg);

#endif /* PMU_EVENT_H */
