/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Event names to perf_event_attr encodings, as perf spells them.
 *
 * A name is "pmu/terms/[modifiers]" or "name[:modifiers]", where name is
 * tried as, in order:
 *  1. one of perf's generic hardware or software names;
 *  2. one of perf's cache events (L1-dcache-load-misses, LLC-loads, ...);
 *  3. a raw event of the core PMU: 'r' and hexadecimal digits (r003c);
 *  4. an event of the core PMU (<root>/<core>/events/<name>);
 *  5. a vendor name known to libpfm4 (INST_RETIRED.ANY_P), when built with it.
 * Modifiers choose the privilege levels counted: u (user), k (kernel),
 * h (hypervisor), any combination. Without them hardware and PMU events
 * count user space only and software events count kernel context too.
 *
 * On a machine with several core PMUs (hybrid x86, big.LITTLE arm64), the
 * generic hardware and cache events of a core PMU carry its type in the
 * upper half of config (the kernel's extended type).
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_string_fns.h>

#include "pmu_event.h"
#include "pmu_log.h"
#include "pmu_sysfs.h"

/* Privilege levels a name asked for (modifier letters). */
#define MOD_USER 0x1u
#define MOD_KERNEL 0x2u
#define MOD_HV 0x4u

/* Every modifier letter perf knows: a suffix made of them is modifiers. */
#define PERF_MODIFIERS "ukhIGHpPSDWeb"

/* A name split into its parts (buffers point into one copy of the name). */
struct name_parts {
	char buf[PMU_EVENT_NAME_MAX + 1];
	char *pmu;       /**< "pmu/terms/" form: the PMU, else NULL */
	char *base;      /**< the terms, or the event name */
	const char *mods; /**< modifier letters, "" when none */
};

static bool
all_in(const char *s, const char *set)
{
	for (; *s != '\0'; s++) {
		if (strchr(set, *s) == NULL)
			return false;
	}
	return true;
}

/* "r" then a hexadecimal number of at most 64 bits. */
static bool
raw_parse(const char *s, uint64_t *config)
{
	const char *p = s + 1;
	uint64_t v;

	if (s[0] != 'r' || pmu_parse_u64(&p, 16, UINT64_MAX, &v) != 0 || *p != '\0')
		return false;
	*config = v;
	return true;
}

/* A name perf itself resolves without a PMU folder. */
static bool
perf_name_known(const char *s)
{
	uint64_t config;

	if (pmu_generic_find(s) != NULL || raw_parse(s, &config))
		return true;
	/* Quiet look-up: an invalid operation is still a cache name. */
	return pmu_cache_parse(s, &config) != -ENOENT;
}

static int
split_name(const char *name, struct name_parts *np)
{
	char *slash, *colon;

	rte_strscpy(np->buf, name, sizeof(np->buf));
	np->mods = "";
	np->pmu = NULL;
	np->base = np->buf;

	slash = strchr(np->buf, '/');
	if (slash != NULL) {
		*slash = '\0';
		np->pmu = np->buf;
		np->base = slash + 1;
		slash = strchr(np->base, '/');
		if (slash != NULL) {
			*slash = '\0';
			np->mods = slash + 1;
			if (np->mods[0] == ':')
				np->mods++;
		}
		if (!pmu_sysfs_name_valid(np->pmu, strlen(np->pmu), PMU_NAME_PMU)) {
			PMU_LOG(ERR, "event %s: bad PMU name", pmu_name_printable(name));
			return -EINVAL;
		}
		if (np->base[0] == '\0') {
			PMU_LOG(ERR, "event %s: expected %s/term[=value],.../",
				pmu_name_printable(name), pmu_name_printable(np->pmu));
			return -EINVAL;
		}
		return 0;
	}

	colon = strrchr(np->buf, ':');
	if (colon == NULL)
		return 0;
	if (colon[1] == '\0' || colon == np->buf) {
		PMU_LOG(ERR, "event %s: empty modifier or event", pmu_name_printable(name));
		return -EINVAL;
	}
	/* "cycles:u" has modifiers, "INST_RETIRED:ANY_P" is a vendor name. */
	*colon = '\0';
	if (all_in(colon + 1, PERF_MODIFIERS) || perf_name_known(np->buf)) {
		np->mods = colon + 1;
		return 0;
	}
	*colon = ':';
	return 0;
}

/* Modifier letters to MOD_* bits. */
static int
parse_mods(const char *name, const char *mods, unsigned int *bits)
{
	unsigned int bit;
	const char *p;

	*bits = 0;
	for (p = mods; *p != '\0'; p++) {
		switch (*p) {
		case 'u':
			bit = MOD_USER;
			break;
		case 'k':
			bit = MOD_KERNEL;
			break;
		case 'h':
			bit = MOD_HV;
			break;
		default:
			PMU_LOG(ERR, "event %s: modifier '%s' not supported (u, k and h are)",
				pmu_name_printable(name),
				pmu_name_printable((const char [2]){ *p, '\0' }));
			return -EINVAL;
		}
		if ((*bits & bit) != 0) {
			PMU_LOG(ERR, "event %s: modifier '%c' given twice",
				pmu_name_printable(name), *p);
			return -EINVAL;
		}
		*bits |= bit;
	}
	return 0;
}

/* Index of @p core_pmu among the @p n core PMUs in @p names, or -1. */
static int
core_index(char names[][PMU_NAME_MAX], unsigned int n, const char *core_pmu)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (strcmp(names[i], core_pmu) == 0)
			return (int)i;
	}
	return -1;
}

/* A core PMU among several: the extended type of generic events. */
static int
extended_type(const char *name, const char *core_pmu, uint64_t *ext)
{
	char names[PMU_CORE_MAX][PMU_NAME_MAX];
	unsigned int n;
	uint32_t type;
	int ret;

	*ext = 0;
	n = pmu_core_pmus(names);
	if (n < 2 || core_index(names, n, core_pmu) < 0)
		return 0;

	ret = pmu_sysfs_type(core_pmu, &type);
	if (ret != 0) {
		PMU_LOG(ERR, "event %s: cannot read %s/%s/type: %s", pmu_name_printable(name),
			pmu_sysfs_root(), core_pmu, strerror(-ret));
		return ret;
	}
	*ext = (uint64_t)type << PERF_PMU_TYPE_SHIFT;
	return 0;
}

/* A hardware event of the core PMU: generic, cache or raw. */
static int
encode_hw(const char *name, const char *what, const char *core_pmu, uint32_t type,
	uint64_t config, struct pmu_event_desc *desc)
{
	uint32_t raw_type;
	uint64_t ext;
	int ret;

	if (core_pmu[0] == '\0') {
		PMU_LOG(ERR, "event %s: a %s event, but this machine has no core PMU under %s "
			"(a virtual machine without a PMU?)", pmu_name_printable(name), what,
			pmu_sysfs_root());
		return -EOPNOTSUPP;
	}
	if (!pmu_sysfs_name_valid(core_pmu, strlen(core_pmu), PMU_NAME_PMU)) {
		PMU_LOG(ERR, "event %s: bad core PMU name %s", pmu_name_printable(name), core_pmu);
		return -EINVAL;
	}

	desc->core = true;
	if (type == PERF_TYPE_RAW) {
		ret = pmu_sysfs_type(core_pmu, &raw_type);
		if (ret != 0) {
			PMU_LOG(ERR, "event %s: cannot read %s/%s/type: %s",
				pmu_name_printable(name), pmu_sysfs_root(), core_pmu,
				strerror(-ret));
			return ret;
		}
		desc->attr.type = raw_type;
		desc->attr.config = config;
		rte_strscpy(desc->pmu, core_pmu, sizeof(desc->pmu));
		return 0;
	}

	ret = extended_type(name, core_pmu, &ext);
	if (ret != 0)
		return ret;
	desc->attr.type = type;
	desc->attr.config = config | ext;
	return 0;
}

/* An event of the core PMU's events/ folder, or of another core type. */
static int
encode_core_event(const char *name, const char *core_pmu, struct pmu_event_desc *desc)
{
	char names[PMU_CORE_MAX][PMU_NAME_MAX];
	unsigned int i, n;
	int ret;

	if (!pmu_sysfs_name_valid(core_pmu, strlen(core_pmu), PMU_NAME_PMU)) {
		PMU_LOG(ERR, "event %s: bad core PMU name %s", pmu_name_printable(name), core_pmu);
		return -EINVAL;
	}
	ret = pmu_sysfs_event_encode(name, core_pmu, desc);
	if (ret == 0)
		desc->core = true;
	if (ret != -ENOENT)
		return ret;

	/* Known on another core type: not countable on this one. */
	n = pmu_core_pmus(names);
	if (core_index(names, n, core_pmu) < 0)
		return -ENOENT;
	for (i = 0; i < n; i++) {
		if (strcmp(names[i], core_pmu) == 0)
			continue;
		ret = pmu_sysfs_event_encode(name, names[i], desc);
		memset(desc, 0, sizeof(*desc));
		desc->attr.size = sizeof(desc->attr);
		if (ret == 0) {
			PMU_LOG(ERR, "event %s exists on core PMU %s only, not on %s",
				pmu_name_printable(name), names[i], core_pmu);
			return -EOPNOTSUPP;
		}
	}
	return -ENOENT;
}

static int
encode_name(const char *name, const char *base, const char *core_pmu,
	struct pmu_event_desc *desc)
{
	const struct pmu_generic_event *g;
	uint64_t config;
	int ret;

	g = pmu_generic_find(base);
	if (g != NULL) {
		if (g->not_countable != NULL) {
			PMU_LOG(ERR, "event %s cannot be counted: %s", pmu_name_printable(name),
				g->not_countable);
			return -EOPNOTSUPP;
		}
		if (g->type == PERF_TYPE_HARDWARE)
			return encode_hw(name, "hardware", core_pmu, g->type, g->config, desc);
		desc->attr.type = g->type;
		desc->attr.config = g->config;
		return 0;
	}

	ret = pmu_cache_parse(base, &config);
	if (ret == 0)
		return encode_hw(name, "cache", core_pmu, PERF_TYPE_HW_CACHE, config, desc);
	if (ret != -ENOENT)
		return ret;

	if (raw_parse(base, &config))
		return encode_hw(name, "raw", core_pmu, PERF_TYPE_RAW, config, desc);

	if (!pmu_sysfs_name_valid(base, strlen(base), PMU_NAME_COMPONENT)) {
		PMU_LOG(ERR, "event %s: bad event name", pmu_name_printable(name));
		return -EINVAL;
	}

	if (core_pmu[0] != '\0') {
		ret = encode_core_event(base, core_pmu, desc);
		if (ret != -ENOENT)
			return ret;
	}

	ret = pmu_pfm_encode(base, core_pmu, desc);
	if (ret != -ENOENT)
		return ret;

	if (core_pmu[0] == '\0')
		PMU_LOG(ERR, "unknown event %s: not a perf event name, no core PMU%s",
			pmu_name_printable(name),
			pmu_pfm_available() ? ", unknown to libpfm4" : "");
	else
		PMU_LOG(ERR, "unknown event %s: not a perf event name nor in %s/%s/events/%s",
			pmu_name_printable(name), pmu_sysfs_root(), core_pmu,
			pmu_pfm_available() ? ", unknown to libpfm4" : "");
	return -ENOENT;
}

/* Privilege levels: the modifiers, or the default of the event's type. */
static int
apply_mods(const char *name, unsigned int mods, struct perf_event_attr *attr)
{
	bool software = attr->type == PERF_TYPE_SOFTWARE;

	if (mods == 0) {
		attr->exclude_kernel = !software;
		attr->exclude_hv = !software;
		return 0;
	}
	if (software && mods == MOD_HV) {
		PMU_LOG(ERR, "event %s: modifier h alone counts nothing for a software event",
			pmu_name_printable(name));
		return -EINVAL;
	}
	attr->exclude_user = (mods & MOD_USER) == 0;
	attr->exclude_kernel = (mods & MOD_KERNEL) == 0;
	attr->exclude_hv = (mods & MOD_HV) == 0;
	return 0;
}

static int
encode(const char *name, const char *core_pmu, struct pmu_event_desc *desc)
{
	struct name_parts np;
	unsigned int mods;
	int ret;

	if (name == NULL || name[0] == '\0') {
		PMU_LOG(ERR, "empty event name");
		return -EINVAL;
	}
	if (strnlen(name, PMU_EVENT_NAME_MAX + 1) > PMU_EVENT_NAME_MAX) {
		PMU_LOG(ERR, "event name longer than %d characters", PMU_EVENT_NAME_MAX);
		return -EINVAL;
	}

	ret = split_name(name, &np);
	if (ret != 0)
		return ret;
	ret = parse_mods(name, np.mods, &mods);
	if (ret != 0)
		return ret;

	if (np.pmu != NULL) {
		ret = pmu_terms_encode(name, np.pmu, np.base, desc);
		if (ret == 0)
			desc->core = strcmp(np.pmu, core_pmu) == 0;
	} else {
		ret = encode_name(name, np.base, core_pmu, desc);
	}
	if (ret != 0)
		return ret;

	if (desc->core)
		rte_strscpy(desc->core_pmu, core_pmu, sizeof(desc->core_pmu));
	desc->levels_given = mods != 0;
	return apply_mods(name, mods, &desc->attr);
}

int
pmu_event_encode(const char *name, const char *core_pmu, struct pmu_event_desc *desc)
{
	int ret;

	if (desc == NULL)
		return -EINVAL;
	if (core_pmu == NULL)
		core_pmu = "";

	memset(desc, 0, sizeof(*desc));
	desc->attr.size = sizeof(struct perf_event_attr);

	ret = encode(name, core_pmu, desc);
	if (ret != 0) {
		/* Leave no half-encoded event behind. */
		memset(desc, 0, sizeof(*desc));
		desc->attr.size = sizeof(struct perf_event_attr);
	}
	return ret;
}

int
pmu_event_encode_any(const char *name, const char *core_pmu, struct pmu_event_desc *desc)
{
	char names[PMU_CORE_MAX][PMU_NAME_MAX];
	unsigned int i, n;
	int ret;

	ret = pmu_event_encode(name, core_pmu, desc);
	if (ret != -EOPNOTSUPP || core_pmu == NULL || core_pmu[0] == '\0')
		return ret;

	n = pmu_core_pmus(names);
	for (i = 0; i < n; i++) {
		if (strcmp(names[i], core_pmu) == 0)
			continue;
		RTE_PER_LCORE(pmu_log_quiet)++;
		ret = pmu_event_encode(name, names[i], desc);
		RTE_PER_LCORE(pmu_log_quiet)--;
		if (ret == 0) {
			PMU_LOG(INFO, "event %s: counted on lcores of core PMU %s only",
				pmu_name_printable(name), names[i]);
			return 0;
		}
	}
	return -EOPNOTSUPP;
}
