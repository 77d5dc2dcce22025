/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Vendor event names (INST_RETIRED.ANY_P, L2_RQSTS.MISS, L1D_CACHE_REFILL)
 * through libpfm4, when the library was built with it (RTE_PMU_HAS_PFM).
 * libpfm4 knows the event tables of the CPU it detects, or of the one
 * LIBPFM_FORCE_PMU names. Its own "perf" tables are left out: perf's names
 * are resolved by pmu_event_names.c, exactly and in perf's spelling.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_string_fns.h>

#include "pmu_event.h"
#include "pmu_log.h"
#include "pmu_sysfs.h"

#ifdef RTE_PMU_HAS_PFM

#include <perfmon/pfmlib_perf_event.h>

static bool pfm_ready;

bool
pmu_pfm_available(void)
{
	int ret;

	if (pfm_ready)
		return true;
	ret = pfm_initialize();
	if (ret != PFM_SUCCESS) {
		PMU_LOG(DEBUG, "libpfm4: %s: vendor event names unavailable", pfm_strerror(ret));
		return false;
	}
	pfm_ready = true;
	return true;
}

void
pmu_pfm_reset(void)
{
	if (pfm_ready)
		pfm_terminate();
	pfm_ready = false;
}

/* libpfm4's tables of perf's own names: not vendor names. */
static bool
pfm_pmu_is_perf(pfm_pmu_t id)
{
	return id == PFM_PMU_PERF_EVENT || id == PFM_PMU_PERF_EVENT_RAW;
}

int
pmu_pfm_encode(const char *name, const char *core_pmu, struct pmu_event_desc *desc)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	pfm_event_info_t einfo;
	pfm_pmu_info_t pinfo;
	uint32_t type;
	int ret;

	if (!pmu_pfm_available())
		return -ENOENT;

	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	/* A known event with a bad unit mask or attribute is malformed. */
	if (ret != PFM_SUCCESS && ret != PFM_ERR_UMASK && ret != PFM_ERR_ATTR &&
			ret != PFM_ERR_ATTR_VAL && ret != PFM_ERR_ATTR_SET &&
			ret != PFM_ERR_FEATCOMB)
		return -ENOENT;
	if (ret != PFM_SUCCESS) {
		PMU_LOG(ERR, "event %s: libpfm4: %s", pmu_name_printable(name), pfm_strerror(ret));
		return -EINVAL;
	}

	memset(&einfo, 0, sizeof(einfo));
	einfo.size = sizeof(einfo);
	memset(&pinfo, 0, sizeof(pinfo));
	pinfo.size = sizeof(pinfo);
	if (pfm_get_event_info(arg.idx, PFM_OS_NONE, &einfo) != PFM_SUCCESS ||
			pfm_get_pmu_info(einfo.pmu, &pinfo) != PFM_SUCCESS)
		return -ENOENT;
	if (pfm_pmu_is_perf(einfo.pmu))
		return -ENOENT;

	desc->attr.type = attr.type;
	desc->attr.config = attr.config;
	desc->attr.config1 = attr.config1;
	desc->attr.config2 = attr.config2;
	if (pinfo.type != PFM_PMU_TYPE_CORE)
		return 0;

	/* A core event: opened with the type of this machine's core PMU. */
	if (core_pmu[0] == '\0') {
		PMU_LOG(ERR, "event %s: a %s event of libpfm4, but no core PMU under %s",
			pmu_name_printable(name), pinfo.name, pmu_sysfs_root());
		return -EOPNOTSUPP;
	}
	ret = pmu_sysfs_type(core_pmu, &type);
	if (ret != 0) {
		PMU_LOG(ERR, "event %s: cannot read %s/%s/type: %s", pmu_name_printable(name),
			pmu_sysfs_root(), core_pmu, strerror(-ret));
		return ret;
	}
	desc->attr.type = type;
	desc->core = true;
	rte_strscpy(desc->pmu, core_pmu, sizeof(desc->pmu));
	PMU_LOG(DEBUG, "event %s: libpfm4 %s::%s", pmu_name_printable(name), pinfo.name,
		einfo.name);
	return 0;
}

/* True when libpfm4 encodes @p name alone (no unit mask left to choose). */
static bool
pfm_encodes(const char *name)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;

	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	return pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg) ==
		PFM_SUCCESS;
}

/* Report "pmu::EVENT[.UMASK]" when libpfm4 encodes it; 1 once @p max are. */
static int
pfm_report(const char *pmu_name, const char *event, const char *umask, unsigned int max,
	unsigned int *count, int (*cb)(const char *name, void *arg), void *arg)
{
	char full[PMU_EVENT_NAME_MAX + 1];
	int ret;

	if (*count == max)
		return 1;
	if (umask != NULL)
		ret = snprintf(full, sizeof(full), "%s::%s.%s", pmu_name, event, umask);
	else
		ret = snprintf(full, sizeof(full), "%s::%s", pmu_name, event);
	if (ret < 0 || (size_t)ret >= sizeof(full) || !pfm_encodes(full))
		return 0;
	ret = cb(full, arg);
	if (ret < 0)
		return ret;
	(*count)++;
	return 0;
}

/* An event and each of its unit masks. */
static int
pfm_report_event(const pfm_pmu_info_t *pinfo, int idx, unsigned int max,
	unsigned int *count, int (*cb)(const char *name, void *arg), void *arg)
{
	pfm_event_attr_info_t ainfo;
	pfm_event_info_t einfo;
	int a, ret;

	memset(&einfo, 0, sizeof(einfo));
	einfo.size = sizeof(einfo);
	if (pfm_get_event_info(idx, PFM_OS_NONE, &einfo) != PFM_SUCCESS)
		return 0;
	ret = pfm_report(pinfo->name, einfo.name, NULL, max, count, cb, arg);
	for (a = 0; ret == 0 && a < einfo.nattrs; a++) {
		memset(&ainfo, 0, sizeof(ainfo));
		ainfo.size = sizeof(ainfo);
		if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &ainfo) != PFM_SUCCESS ||
				ainfo.type != PFM_ATTR_UMASK)
			continue;
		ret = pfm_report(pinfo->name, einfo.name, ainfo.name, max, count, cb, arg);
	}
	return ret;
}

int
pmu_pfm_foreach(unsigned int max, int (*cb)(const char *name, void *arg), void *arg)
{
	pfm_pmu_info_t pinfo;
	unsigned int count = 0;
	pfm_pmu_t id;
	int idx, ret;

	if (!pmu_pfm_available())
		return 0;

	pfm_for_all_pmus(id) {
		memset(&pinfo, 0, sizeof(pinfo));
		pinfo.size = sizeof(pinfo);
		if (pfm_get_pmu_info(id, &pinfo) != PFM_SUCCESS || !pinfo.is_present ||
				pfm_pmu_is_perf(id) || pinfo.type != PFM_PMU_TYPE_CORE)
			continue;
		for (idx = pinfo.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
			ret = pfm_report_event(&pinfo, idx, max, &count, cb, arg);
			if (ret == 1)
				return (int)count;
			if (ret < 0)
				return ret;
		}
	}
	return (int)count;
}

#else /* !RTE_PMU_HAS_PFM */

bool
pmu_pfm_available(void)
{
	return false;
}

void
pmu_pfm_reset(void)
{
}

int
pmu_pfm_encode(const char *name __rte_unused, const char *core_pmu __rte_unused,
	struct pmu_event_desc *desc __rte_unused)
{
	return -ENOENT;
}

int
pmu_pfm_foreach(unsigned int max __rte_unused,
	int (*cb)(const char *name, void *arg) __rte_unused, void *arg __rte_unused)
{
	return 0;
}

#endif /* RTE_PMU_HAS_PFM */
