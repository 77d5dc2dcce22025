/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The preload out of LD_PRELOAD: as it loads in a program that links
 * librte_eal, else at the program's rte_eal_init() (preload.c).
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <link.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_string_fns.h>

#include "preload_env.h"

/* The preload's file name, as dpdk-pmu-run puts it in LD_PRELOAD. */
#define PRELOAD_FILE "librte_pmu_preload.so"

/* Drop this library from LD_PRELOAD, so that the program's children run
 * as they would without dpdk-pmu-run: as it loads where the program links
 * librte_eal itself (preload_env_early()), else at its rte_eal_init(). A
 * process before the DPDK program (sh -c, taskset, nice, env, stdbuf)
 * passes it on to the program it starts, as it got it.
 */
void
preload_env(void)
{
	const char *env = getenv("LD_PRELOAD");
	char *copy, *out, *tok, *save;
	const char *base;
	size_t len;

	if (env == NULL || strstr(env, PRELOAD_FILE) == NULL)
		return;
	len = strlen(env) + 1;
	copy = strdup(env);
	out = calloc(1, len);
	if (copy == NULL || out == NULL) {
		free(copy);
		free(out);
		return;
	}
	for (tok = strtok_r(copy, ": ", &save); tok != NULL; tok = strtok_r(NULL, ": ", &save)) {
		base = strrchr(tok, '/');
		base = base != NULL ? base + 1 : tok;
		if (strcmp(base, PRELOAD_FILE) == 0)
			continue;
		if (out[0] != '\0')
			strlcat(out, ":", len);
		strlcat(out, tok, len);
	}
	if (out[0] == '\0')
		unsetenv("LD_PRELOAD");
	else
		setenv("LD_PRELOAD", out, 1);
	free(copy);
	free(out);
}

/* dl_iterate_phdr() callback: whether an object of the program (not of
 * DPDK, this library's own) needs librte_eal (a DT_NEEDED entry), in
 * *@p arg: the program's executable, or a library of its own.
 */
static int
needs_eal(struct dl_phdr_info *info, size_t size __rte_unused, void *arg)
{
	const char *base = strrchr(info->dlpi_name, '/');
	const ElfW(Dyn) *dyn = NULL, *d;
	const char *strtab = NULL;
	int i;

	base = base != NULL ? base + 1 : info->dlpi_name;
	if (strncmp(base, "librte_", 7) == 0)
		return 0;

	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	/* The loader relocated the address, or not (glibc's choice). */
	for (d = dyn; d != NULL && d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_STRTAB)
			strtab = (const char *)(d->d_un.d_ptr < info->dlpi_addr ?
				info->dlpi_addr + d->d_un.d_ptr : d->d_un.d_ptr);
	for (d = dyn; strtab != NULL && d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_NEEDED &&
				strncmp(strtab + d->d_un.d_val, "librte_eal.so", 13) == 0)
			*(bool *)arg = true;
	return *(bool *)arg;
}

/* A DPDK program leaves LD_PRELOAD to its children as it loads, before
 * any of them starts (some start before their rte_eal_init()).
 */
RTE_INIT(preload_env_early)
{
	bool eal = false;

	dl_iterate_phdr(needs_eal, &eal);
	if (eal)
		preload_env();
}
