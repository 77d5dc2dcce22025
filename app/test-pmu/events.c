/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_log.h>

#include "events.h"

/* Add one event, catching what the library logs about it in @p hint (one
 * line, "" when nothing). On success the caught text goes to the log as
 * usual, so that --log-level=lib.pmu:debug loses nothing.
 */
static int
add_event(const char *name, char *hint, size_t len)
{
	char *text = NULL, *line, *save;
	size_t size = 0, n;
	FILE *mem;
	int ret;

	hint[0] = '\0';
	mem = open_memstream(&text, &size);
	if (mem == NULL)
		return rte_pmu_add_event(name);

	rte_openlog_stream(mem);
	ret = rte_pmu_add_event(name);
	/* This program never sets a log stream of its own: back to EAL's. */
	rte_openlog_stream(NULL);
	fclose(mem);
	if (text == NULL)
		return ret;

	if (ret >= 0) {
		fputs(text, rte_log_get_stream());
		fflush(rte_log_get_stream());
	} else {
		/* One line: lines joined with "; ", the library's "PMU: " dropped. */
		for (line = strtok_r(text, "\n", &save); line != NULL;
				line = strtok_r(NULL, "\n", &save)) {
			if (strncmp(line, "PMU: ", 5) == 0)
				line += 5;
			n = strlen(hint);
			snprintf(hint + n, len - n, "%s%s", n != 0 ? "; " : "", line);
		}
	}
	free(text);

	return ret;
}

/* @p text without a leading "event NAME: ", which a row already shows. */
static const char *
drop_name(const char *text, const char *name)
{
	size_t len = strlen(name);

	if (strncmp(text, "event ", 6) == 0 && strncmp(text + 6, name, len) == 0 &&
			strncmp(text + 6 + len, ": ", 2) == 0)
		return text + 6 + len + 2;

	return text;
}

/* Add every name of @p list (modified: names point into it). */
static int
add_list(struct tool_events *evs, char *list)
{
	struct tool_event *ev;
	char *name, *next;
	char hint[TOOL_REASON_LEN];
	unsigned int i;
	size_t n;
	int ret;

	for (name = list; *name != '\0'; name = next) {
		n = rte_pmu_event_name_len(name);
		next = name + n + (name[n] == ',');
		name[n] = '\0';
		if (n == 0)
			continue;
		for (i = 0; i < evs->count; i++)
			if (strcmp(evs->ev[i].name, name) == 0)
				break;
		if (i < evs->count)
			continue;       /* given twice: listed once */
		if (evs->count == TOOL_MAX_EVENTS) {
			fprintf(stderr, "dpdk-test-pmu: too many events (at most %d listed, "
				"%d counted)\n", TOOL_MAX_EVENTS, RTE_MAX_NUM_GROUP_EVENTS);
			return -E2BIG;
		}
		ev = &evs->ev[evs->count++];
		memset(ev, 0, sizeof(*ev));
		ev->name = name;
		ret = add_event(name, hint, sizeof(hint));
		if (ret < 0) {
			ev->error = ret;
			/* The library's words when it logged any: they name the cause. */
			snprintf(ev->reason, sizeof(ev->reason), "%s",
				hint[0] != '\0' ? drop_name(hint, name) : strerror(-ret));
			continue;
		}
		ev->supported = true;
		ev->index = ret;
		evs->counted++;
	}

	return 0;
}

int
tool_events_setup(struct tool_events *evs, const char *list)
{
	static char fallback[] = TOOL_FALLBACK_EVENTS;
	static char tsc[] = TOOL_FALLBACK_TSC;
	unsigned int i;
	char *copy;
	int ret;

	memset(evs, 0, sizeof(*evs));
	/* Names point into the copy: it lives until exit. */
	copy = strdup(list != NULL ? list : TOOL_DEFAULT_EVENTS);
	if (copy == NULL)
		return -ENOMEM;
	ret = add_list(evs, copy);
	if (ret != 0)
		return ret;
	if (evs->counted == 0 && list == NULL) {
		/* The unsupported defaults stay listed, as <not supported>. */
		evs->fell_back = true;
		/* msr/tsc/ first (index 0, the first column) where it opens:
		 * read with rdtsc, no system call. Elsewhere not even a row.
		 */
		i = evs->count;
		ret = add_list(evs, tsc);
		if (ret != 0)
			return ret;
		if (evs->count > i && !evs->ev[i].supported)
			evs->count = i;
		snprintf(evs->fallback, sizeof(evs->fallback), "%s%s",
			evs->counted != 0 ? TOOL_FALLBACK_TSC "," : "", TOOL_FALLBACK_EVENTS);
		ret = add_list(evs, fallback);
		if (ret != 0)
			return ret;
	}
	if (evs->counted == 0) {
		fprintf(stderr, "dpdk-test-pmu: none of the events can be counted here:\n");
		for (i = 0; i < evs->count; i++)
			fprintf(stderr, "  %s: %s\n", evs->ev[i].name, evs->ev[i].reason);
		return -ENOENT;
	}

	return 0;
}

bool
tool_event_is(const struct tool_event *ev, const char *const names[])
{
	const char *name = ev->name;
	const char *slash = strchr(name, '/'), *last = strrchr(name, '/');
	size_t len = strcspn(name, ":");
	unsigned int j;

	/* "pmu/event/" compares as "event"; a modifier is left out, as perf
	 * does ("task-clock:u" is a clock, "cpu/cycles/u" cycles).
	 */
	if (slash != last) {
		name = slash + 1;
		len = (size_t)(last - name);
	}
	for (j = 0; names[j] != NULL; j++)
		if (strlen(names[j]) == len && strncmp(name, names[j], len) == 0)
			return true;

	return false;
}

const struct tool_event *
tool_events_find(const struct tool_events *evs, const char *const names[])
{
	unsigned int i;

	for (i = 0; i < evs->count; i++)
		if (evs->ev[i].supported && tool_event_is(&evs->ev[i], names))
			return &evs->ev[i];

	return NULL;
}
