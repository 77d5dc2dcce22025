/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Names given by the user and return codes, made printable for the log. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_per_lcore.h>

#include "pmu_log.h"

/* Buffers of pmu_name_printable(), per thread: up to 4 bytes each byte,
 * "..." and the NUL.
 */
#define NAME_LOG_SLOTS 8
#define NAME_LOG_LEN (PMU_NAME_LOG_MAX * 4 + 4)
static RTE_DEFINE_PER_LCORE(char, name_log[NAME_LOG_SLOTS][NAME_LOG_LEN]);
static RTE_DEFINE_PER_LCORE(unsigned int, name_log_next);

const char *
pmu_name_printable(const char *name)
{
	static const char hex[] = "0123456789abcdef";
	unsigned int slot = RTE_PER_LCORE(name_log_next)++ % NAME_LOG_SLOTS;
	char *out = RTE_PER_LCORE(name_log)[slot];
	size_t i, o = 0;

	if (name == NULL)
		return "(null)";
	for (i = 0; name[i] != '\0' && i < PMU_NAME_LOG_MAX; i++) {
		unsigned char c = (unsigned char)name[i];
		char esc = c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' :
			c == '\\' ? '\\' : '\0';

		if (esc != '\0') {
			out[o++] = '\\';
			out[o++] = esc;
		} else if (c < 0x20 || c >= 0x7f) {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 0xf];
		} else {
			out[o++] = (char)c;
		}
	}
	if (name[i] != '\0') {
		memcpy(&out[o], "...", 3);
		o += 3;
	}
	out[o] = '\0';

	return out;
}


#define CODE_LOG_SLOTS 4
#define CODE_LOG_LEN 96
static RTE_DEFINE_PER_LCORE(char, code_log[CODE_LOG_SLOTS][CODE_LOG_LEN]);
static RTE_DEFINE_PER_LCORE(unsigned int, code_log_next);

const char *
pmu_strerror(int ret)
{
	unsigned int slot = RTE_PER_LCORE(code_log_next)++ % CODE_LOG_SLOTS;
	char *out = RTE_PER_LCORE(code_log)[slot];
	int err = abs(ret);
	const char *name = strerrorname_np(err);

	if (name != NULL)
		snprintf(out, CODE_LOG_LEN, "%s%s (%s)", ret < 0 ? "-" : "", name,
			strerror(err));
	else
		snprintf(out, CODE_LOG_LEN, "%d (%s)", ret, strerror(err));

	return out;
}
