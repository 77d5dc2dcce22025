/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The sysfs side of event names: the terms of "pmu/terms/" and of a PMU's
 * events/ files, placed by its format/ files. A bare word is an event of
 * the PMU (expanded to the terms of its events/ file) or else a format term
 * set to 1; "term=value" sets a format term, or the whole of config,
 * config1, config2, or the sample period. Values are decimal or 0x
 * hexadecimal. An events/ file may leave a term to the user ("cmask=?"):
 * the "pmu/terms/" form must then give it.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_string_fns.h>

#include "pmu_event.h"
#include "pmu_log.h"
#include "pmu_sysfs.h"

/** Longest events/ file read. */
#define PMU_EVENT_FILE_MAX 1024
/** Longest term name left to the user by an events/ file. */
#define PMU_TERM_NAME_MAX 64
/** Terms an events/ file may leave to the user. */
#define PMU_PENDING_MAX 8

/* State of one encoding. */
struct term_ctx {
	const char *pmu_name;   /* PMU folder the terms belong to */
	const char *event;      /* name being encoded, for logs */
	struct pmu_event_desc *desc;
	unsigned int nr_pending;
	/* Terms an events/ file left to the user ("cmask=?"). */
	char pending[PMU_PENDING_MAX][PMU_TERM_NAME_MAX];
};

static int apply_terms(struct term_ctx *ctx, char *terms, bool user);

/* A decimal or 0x hexadecimal value, nothing else. */
static int
parse_value(const char *s, uint64_t *value)
{
	unsigned int base = 10;
	uint64_t v;
	int ret;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	ret = pmu_parse_u64(&s, base, UINT64_MAX, &v);
	if (ret == 0 && *s != '\0')
		ret = -EINVAL;
	if (ret == 0)
		*value = v;

	return ret;
}

/* config, config1, config2 and period set a whole attr field. */
static __u64 *
special_field(struct perf_event_attr *attr, const char *key)
{
	if (strcmp(key, "config") == 0)
		return &attr->config;
	if (strcmp(key, "config1") == 0)
		return &attr->config1;
	if (strcmp(key, "config2") == 0)
		return &attr->config2;
	if (strcmp(key, "period") == 0)
		return &attr->sample_period;
	return NULL;
}

/*
 * Read <pmu>/<dir>/<name> of the context's PMU. Returns its length, -ENOENT
 * without a log when it does not exist, the read's own negative errno
 * (logged) otherwise: running out of descriptors or memory is not a
 * malformed name.
 */
static int
ctx_read(struct term_ctx *ctx, const char *dir, const char *name, char *buf, size_t len)
{
	char rel[PMU_EVENT_NAME_MAX + 16];
	int ret;

	ret = snprintf(rel, sizeof(rel), "%s/%s", dir, name);
	if (ret < 0 || (size_t)ret >= sizeof(rel)) {
		PMU_LOG(ERR, "event %s: name \"%s\" too long for %s/",
			pmu_name_printable(ctx->event), pmu_name_printable(name), dir);
		return -EINVAL;
	}

	ret = pmu_sysfs_read(ctx->pmu_name, rel, buf, len);
	if (ret == -ENOENT)
		return -ENOENT;
	if (ret < 0) {
		PMU_LOG(ERR, "event %s: cannot read %s/%s/%s: %s", pmu_name_printable(ctx->event),
			pmu_sysfs_root(), ctx->pmu_name, pmu_name_printable(rel), strerror(-ret));
		return ret;
	}

	return ret;
}

/*
 * Set format term @p key to @p value. Returns -ENOENT, without a log, when
 * the PMU has no such term. A term the user wrote records its config1 bits.
 */
static int
apply_format(struct term_ctx *ctx, const char *key, uint64_t value, bool user)
{
	uint64_t bits;
	int ret;

	ret = pmu_sysfs_format_apply(ctx->pmu_name, key, value, &ctx->desc->attr);
	switch (ret) {
	case 0:
		break;
	case -ENOENT:
		return -ENOENT;
	case -ERANGE:
		PMU_LOG(ERR, "event %s: value 0x%" PRIx64 " does not fit term %s of %s",
			pmu_name_printable(ctx->event), value, pmu_name_printable(key),
			ctx->pmu_name);
		return -EINVAL;
	case -EINVAL:
		PMU_LOG(ERR, "event %s: malformed format file %s/%s/format/%s",
			pmu_name_printable(ctx->event), pmu_sysfs_root(), ctx->pmu_name,
			pmu_name_printable(key));
		return -EINVAL;
	default:
		PMU_LOG(ERR, "event %s: cannot read %s/%s/format/%s: %s",
			pmu_name_printable(ctx->event), pmu_sysfs_root(), ctx->pmu_name,
			pmu_name_printable(key), strerror(-ret));
		return ret;
	}

	if (user && pmu_sysfs_format_config1(ctx->pmu_name, key, &bits) == 0)
		ctx->desc->config1_user |= bits;
	return 0;
}

/* Remember a term an events/ file left to the user. */
static int
pending_add(struct term_ctx *ctx, const char *key)
{
	unsigned int i;

	for (i = 0; i < ctx->nr_pending; i++) {
		if (strcmp(ctx->pending[i], key) == 0)
			return 0;
	}
	if (ctx->nr_pending == PMU_PENDING_MAX || strlen(key) >= PMU_TERM_NAME_MAX) {
		PMU_LOG(ERR, "event %s: too many parameters in an event of %s",
			pmu_name_printable(ctx->event), ctx->pmu_name);
		return -EINVAL;
	}
	rte_strscpy(ctx->pending[ctx->nr_pending++], key, PMU_TERM_NAME_MAX);
	return 0;
}

/* True if the user's terms (comma separated, up to '/' or the end) set @p key. */
static bool
user_sets(const char *terms, const char *key)
{
	size_t klen = strlen(key);
	const char *p = terms;

	while (*p != '\0' && *p != '/') {
		if (strncmp(p, key, klen) == 0 &&
				(p[klen] == '=' || p[klen] == ',' ||
				 p[klen] == '/' || p[klen] == '\0'))
			return true;
		p += strcspn(p, ",/");
		if (*p == ',')
			p++;
	}
	return false;
}

/* Every term an events/ file left open must be among the user's terms. */
static int
pending_check(const struct term_ctx *ctx, const char *user_terms)
{
	unsigned int i;

	for (i = 0; i < ctx->nr_pending; i++) {
		if (user_sets(user_terms, ctx->pending[i]))
			continue;
		PMU_LOG(ERR, "event %s needs a parameter: give %s/<event>,%s=<value>/",
			pmu_name_printable(ctx->event), ctx->pmu_name,
			pmu_name_printable(ctx->pending[i]));
		return -EINVAL;
	}
	return 0;
}

/*
 * Expand event @p event_name of the context's PMU: apply the terms of its
 * events/ file. Returns -ENOENT, without a log, when there is no such file.
 */
static int
expand_event(struct term_ctx *ctx, const char *event_name)
{
	char buf[PMU_EVENT_FILE_MAX];
	int ret;

	ret = ctx_read(ctx, "events", event_name, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	if (ret == 0) {
		PMU_LOG(ERR, "event %s: %s/%s/events/%s is empty", pmu_name_printable(ctx->event),
			pmu_sysfs_root(), ctx->pmu_name, pmu_name_printable(event_name));
		return -EINVAL;
	}

	return apply_terms(ctx, buf, false);
}

/*
 * Apply one term, "key=value" or "key". @p user: written in the event name
 * (a bare word may then be an event), else read from an events/ file.
 */
static int
apply_term(struct term_ctx *ctx, char *term, bool user)
{
	const char *from = user ? "" : " in an events file";
	const char *val = NULL;
	uint64_t value = 1;
	__u64 *field;
	char *eq;
	int ret;

	eq = strchr(term, '=');
	if (eq != NULL) {
		*eq = '\0';
		val = eq + 1;
	}
	if (!pmu_sysfs_name_valid(term, strlen(term), PMU_NAME_WORD)) {
		PMU_LOG(ERR, "event %s: malformed term \"%s\"%s", pmu_name_printable(ctx->event),
			pmu_name_printable(term), from);
		return -EINVAL;
	}

	if (val != NULL && strcmp(val, "?") == 0) {
		if (user) {
			PMU_LOG(ERR, "event %s: term %s needs a value",
				pmu_name_printable(ctx->event), pmu_name_printable(term));
			return -EINVAL;
		}
		return pending_add(ctx, term);
	}
	if (val != NULL) {
		ret = parse_value(val, &value);
		if (ret != 0) {
			PMU_LOG(ERR, "event %s: bad value \"%s\" for term %s%s%s",
				pmu_name_printable(ctx->event), pmu_name_printable(val),
				pmu_name_printable(term), from,
				ret == -ERANGE ? " (more than 64 bits)" : "");
			return -EINVAL;
		}
	}

	field = special_field(&ctx->desc->attr, term);
	if (field != NULL) {
		if (val == NULL) {
			PMU_LOG(ERR, "event %s: term %s needs a value%s",
				pmu_name_printable(ctx->event), pmu_name_printable(term), from);
			return -EINVAL;
		}
		*field = value;
		if (user && field == &ctx->desc->attr.config1)
			ctx->desc->config1_user = UINT64_MAX;
		return 0;
	}

	if (val == NULL && user) {
		ret = expand_event(ctx, term);
		if (ret != -ENOENT)
			return ret;
	}

	ret = apply_format(ctx, term, value, user);
	if (ret == -ENOENT) {
		if (user) {
			PMU_LOG(ERR, "event %s: PMU %s has no %s %s (see %s/%s/format/)",
				pmu_name_printable(ctx->event), ctx->pmu_name,
				val == NULL ? "event or term" : "term",
				pmu_name_printable(term), pmu_sysfs_root(), ctx->pmu_name);
			/* A bare word may name an event; term=value names a term. */
			return val == NULL ? -ENOENT : -EINVAL;
		}
		PMU_LOG(ERR, "event %s: term %s in an events file of %s is not a format term",
			pmu_name_printable(ctx->event), pmu_name_printable(term), ctx->pmu_name);
		return -EINVAL;
	}
	return ret;
}

/* Apply comma-separated @p terms, in order (changes the string). */
static int
apply_terms(struct term_ctx *ctx, char *terms, bool user)
{
	char *term = terms;
	char *comma;
	int ret;

	for (;;) {
		comma = strchr(term, ',');
		if (comma != NULL)
			*comma = '\0';
		if (term[0] == '\0') {
			PMU_LOG(ERR, "event %s: empty term%s", pmu_name_printable(ctx->event),
				user ? "" : " in an events file");
			return -EINVAL;
		}
		ret = apply_term(ctx, term, user);
		if (ret != 0)
			return ret;
		if (comma == NULL)
			return 0;
		term = comma + 1;
	}
}

static int
pmu_type_get(const struct term_ctx *ctx, uint32_t *type)
{
	int ret;

	ret = pmu_sysfs_type(ctx->pmu_name, type);
	if (ret != 0)
		PMU_LOG(ERR, "event %s: cannot read %s/%s/type: %s", pmu_name_printable(ctx->event),
			pmu_sysfs_root(), ctx->pmu_name, strerror(-ret));
	return ret;
}


int
pmu_terms_encode(const char *event, const char *pmu_name, char *terms,
	struct pmu_event_desc *desc)
{
	char user_terms[PMU_EVENT_NAME_MAX + 1];
	struct term_ctx ctx;
	uint32_t type;
	int ret;

	if (!pmu_sysfs_pmu_exists(pmu_name)) {
		PMU_LOG(ERR, "event %s: no PMU %s in %s", pmu_name_printable(event),
			pmu_name_printable(pmu_name), pmu_sysfs_root());
		return -ENOENT;
	}

	memset(&ctx, 0, sizeof(ctx));
	ctx.pmu_name = pmu_name;
	ctx.event = event;
	ctx.desc = desc;

	ret = pmu_type_get(&ctx, &type);
	if (ret != 0)
		return ret;

	rte_strscpy(user_terms, terms, sizeof(user_terms));
	ret = apply_terms(&ctx, terms, true);
	if (ret != 0)
		return ret;
	ret = pending_check(&ctx, user_terms);
	if (ret != 0)
		return ret;

	desc->attr.type = type;
	rte_strscpy(desc->pmu, pmu_name, sizeof(desc->pmu));
	return 0;
}

int
pmu_sysfs_event_encode(const char *name, const char *pmu_name, struct pmu_event_desc *desc)
{
	struct term_ctx ctx;
	uint32_t type;
	int ret;

	memset(&ctx, 0, sizeof(ctx));
	ctx.pmu_name = pmu_name;
	ctx.event = name;
	ctx.desc = desc;

	ret = expand_event(&ctx, name);
	if (ret != 0)
		return ret;
	ret = pending_check(&ctx, "");
	if (ret != 0)
		return ret;
	ret = pmu_type_get(&ctx, &type);
	if (ret != 0)
		return ret;

	desc->attr.type = type;
	rte_strscpy(desc->pmu, pmu_name, sizeof(desc->pmu));
	return 0;
}
