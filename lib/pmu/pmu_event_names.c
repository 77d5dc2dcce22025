/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* perf's generic event names: hardware, software and cache events, with
 * every spelling perf accepts for them.
 *
 * A cache event is "<cache>[-<operation>][-<result>]", each part one of the
 * aliases below, in any case; the operation defaults to read, the result to
 * access. Its config is cache | operation << 8 | result << 16.
 */

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <rte_common.h>
#include <rte_string_fns.h>

#include "rte_pmu.h"

#include "pmu_event.h"
#include "pmu_log.h"

static const struct pmu_generic_event generic_events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, NULL },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, NULL },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, NULL },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, NULL },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, NULL },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, NULL },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, NULL },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, NULL },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, NULL },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, NULL },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, NULL },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_STALLED_CYCLES_BACKEND, NULL },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE,
		PERF_COUNT_HW_STALLED_CYCLES_BACKEND, NULL },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, NULL },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, NULL },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, NULL },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, NULL },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, NULL },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, NULL },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, NULL },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, NULL },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, NULL },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, NULL },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, NULL },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, NULL },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS, NULL },
	/* Opens and always reads 0: perf stat accepts it as a placeholder. */
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, NULL },
	{ "cgroup-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES, NULL },
	{ "bpf-output", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT,
		"it carries BPF program output to a ring buffer and counts nothing" },
};

const struct pmu_generic_event *
pmu_generic_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(generic_events); i++) {
		if (strcmp(generic_events[i].name, name) == 0)
			return &generic_events[i];
	}
	return NULL;
}

const struct pmu_generic_event *
pmu_generic_get(unsigned int i)
{
	return i < RTE_DIM(generic_events) ? &generic_events[i] : NULL;
}

#define CACHE_ALIASES 5

/* Indexed by PERF_COUNT_HW_CACHE_*; the first spelling is the canonical one. */
static const char *const cache_names[PERF_COUNT_HW_CACHE_MAX][CACHE_ALIASES] = {
	[PERF_COUNT_HW_CACHE_L1D] = { "L1-dcache", "l1-d", "l1d", "L1-data" },
	[PERF_COUNT_HW_CACHE_L1I] = { "L1-icache", "l1-i", "l1i", "L1-instruction" },
	[PERF_COUNT_HW_CACHE_LL] = { "LLC", "L2" },
	[PERF_COUNT_HW_CACHE_DTLB] = { "dTLB", "d-tlb", "Data-TLB" },
	[PERF_COUNT_HW_CACHE_ITLB] = { "iTLB", "i-tlb", "Instruction-TLB" },
	[PERF_COUNT_HW_CACHE_BPU] = { "branch", "branches", "bpu", "btb", "bpc" },
	[PERF_COUNT_HW_CACHE_NODE] = { "node" },
};

/* Indexed by PERF_COUNT_HW_CACHE_OP_*: singular first, plural second. */
static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][CACHE_ALIASES] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = { "load", "loads", "read" },
	[PERF_COUNT_HW_CACHE_OP_WRITE] = { "store", "stores", "write" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetch", "prefetches", "speculative-read",
		"speculative-load" },
};

/* Indexed by PERF_COUNT_HW_CACHE_RESULT_*. */
static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][CACHE_ALIASES] = {
	[PERF_COUNT_HW_CACHE_RESULT_ACCESS] = { "refs", "Reference", "ops", "access" },
	[PERF_COUNT_HW_CACHE_RESULT_MISS] = { "misses", "miss" },
};

#define OP(x) (1u << PERF_COUNT_HW_CACHE_OP_ ## x)

/* Operations each cache has, as perf allows them. */
static const unsigned int cache_ops_valid[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = OP(READ) | OP(WRITE) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_L1I] = OP(READ) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_LL] = OP(READ) | OP(WRITE) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_DTLB] = OP(READ) | OP(WRITE) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_ITLB] = OP(READ),
	[PERF_COUNT_HW_CACHE_BPU] = OP(READ),
	[PERF_COUNT_HW_CACHE_NODE] = OP(READ) | OP(WRITE) | OP(PREFETCH),
};

/*
 * Match one of @p n alias rows at @p s: the alias must be followed by '-'
 * or the end. Returns the row and sets *len to the longest match, or -1.
 */
static int
alias_match(const char *s, const char *const rows[][CACHE_ALIASES], unsigned int n,
	size_t *len)
{
	unsigned int i, j;
	size_t l, best = 0;
	int row = -1;

	for (i = 0; i < n; i++) {
		for (j = 0; j < CACHE_ALIASES && rows[i][j] != NULL; j++) {
			l = strlen(rows[i][j]);
			if (l <= best || strncasecmp(s, rows[i][j], l) != 0)
				continue;
			if (s[l] != '-' && s[l] != '\0')
				continue;
			best = l;
			row = (int)i;
		}
	}
	*len = best;
	return row;
}

int
pmu_cache_parse(const char *name, uint64_t *config)
{
	int cache, op = -1, result = -1, m;
	const char *p = name;
	size_t len;

	cache = alias_match(p, cache_names, PERF_COUNT_HW_CACHE_MAX, &len);
	if (cache < 0)
		return -ENOENT;
	p += len;

	while (*p == '-') {
		p++;
		if (op < 0) {
			m = alias_match(p, cache_ops, PERF_COUNT_HW_CACHE_OP_MAX, &len);
			if (m >= 0) {
				op = m;
				p += len;
				continue;
			}
		}
		if (result < 0) {
			m = alias_match(p, cache_results, PERF_COUNT_HW_CACHE_RESULT_MAX, &len);
			if (m >= 0) {
				result = m;
				p += len;
				continue;
			}
		}
		return -ENOENT;
	}
	if (*p != '\0')
		return -ENOENT;

	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	if ((cache_ops_valid[cache] & (1u << op)) == 0) {
		PMU_LOG(ERR, "event %s: %s has no %s operation", pmu_name_printable(name),
			cache_names[cache][0], cache_ops[op][0]);
		return -EINVAL;
	}

	*config = (uint64_t)cache | (uint64_t)op << 8 | (uint64_t)result << 16;
	return 0;
}

int
pmu_cache_get(unsigned int i, char *buf, size_t len, uint64_t *config)
{
	unsigned int cache, op, result;
	int n;

	for (cache = 0; cache < PERF_COUNT_HW_CACHE_MAX; cache++) {
		for (op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if ((cache_ops_valid[cache] & (1u << op)) == 0)
				continue;
			for (result = 0; result < PERF_COUNT_HW_CACHE_RESULT_MAX; result++) {
				if (i-- != 0)
					continue;
				if (result == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
					n = snprintf(buf, len, "%s-%s", cache_names[cache][0],
						cache_ops[op][1]);
				else
					n = snprintf(buf, len, "%s-%s-%s", cache_names[cache][0],
						cache_ops[op][0], cache_results[result][0]);
				if (n < 0 || (size_t)n >= len)
					return -ENOSPC;
				*config = cache | op << 8 | result << 16;
				return 0;
			}
		}
	}
	return -ENOENT;
}

/* Longest name a suggestion is looked for. */
#define SUGGEST_MAX 64
/* Most edits between a name and the known name it suggests. */
#define SUGGEST_DIST 2

/* @p in folded for comparison into @p out: spaces around it trimmed, in
 * lower case, '_' as '-'. Returns its length, or SIZE_MAX when too long.
 */
static size_t
suggest_fold(const char *in, char out[SUGGEST_MAX + 1])
{
	size_t n, i;

	while (*in == ' ' || *in == '\t')
		in++;
	n = strlen(in);
	while (n > 0 && (in[n - 1] == ' ' || in[n - 1] == '\t'))
		n--;
	if (n > SUGGEST_MAX)
		return SIZE_MAX;
	for (i = 0; i < n; i++)
		out[i] = in[i] == '_' ? '-' : (char)tolower((unsigned char)in[i]);
	out[n] = '\0';
	return n;
}

/* Levenshtein distance of @p a and @p b, each at most SUGGEST_MAX long. */
static unsigned int
suggest_distance(const char *a, size_t la, const char *b, size_t lb)
{
	unsigned int row[SUGGEST_MAX + 1];
	unsigned int diag, up, sub, i, j;

	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			sub = diag + (a[i - 1] != b[j - 1] ? 1u : 0u);
			row[j] = (up < row[j - 1] ? up : row[j - 1]) + 1;
			if (sub < row[j])
				row[j] = sub;
			diag = up;
		}
	}
	return row[lb];
}

bool
pmu_event_suggest(const char *name, char *buf, size_t len)
{
	char want[SUGGEST_MAX + 1], have[SUGGEST_MAX + 1], cache[SUGGEST_MAX + 1];
	unsigned int i, d, best = SUGGEST_DIST + 1;
	const char *candidate;
	size_t lw, lh;
	uint64_t config;

	if (name == NULL || len == 0 || strchr(name, '/') != NULL)
		return false;
	lw = suggest_fold(name, want);
	if (lw == SIZE_MAX || lw == 0)
		return false;
	/* The generic names first, then the canonical cache names. */
	for (i = 0; ; i++) {
		if (i < RTE_DIM(generic_events)) {
			candidate = generic_events[i].name;
		} else if (pmu_cache_get(i - (unsigned int)RTE_DIM(generic_events), cache,
				sizeof(cache), &config) == 0) {
			candidate = cache;
		} else {
			break;
		}
		lh = suggest_fold(candidate, have);
		if (lh == SIZE_MAX || strcmp(candidate, name) == 0)
			continue;
		/* The lengths bound the distance from below. */
		if ((lh > lw ? lh - lw : lw - lh) >= best)
			continue;
		d = suggest_distance(want, lw, have, lh);
		if (d < best) {
			best = d;
			strlcpy(buf, candidate, len);
		}
	}

	return best <= SUGGEST_DIST;
}

size_t
rte_pmu_event_name_len(const char *list)
{
	unsigned int slashes = 0;
	size_t i;

	if (list == NULL) {
		PMU_LOG(ERR, "event list is NULL");
		return 0;
	}
	/* Between an odd and an even slash: a PMU's terms. */
	for (i = 0; list[i] != '\0' && (list[i] != ',' || slashes % 2 != 0); i++)
		slashes += list[i] == '/';
	return i;
}
