/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* dpdk-test-pmu --list: one line per event rte_pmu_event_list() finds. */

#include <errno.h>
#include <string.h>

#include <rte_pmu.h>

#include "list.h"

struct list_state {
	FILE *out;
	unsigned int open;
};

static const char *
path_name(enum rte_pmu_read_path path)
{
	switch (path) {
	case RTE_PMU_PATH_USER:
		return "user";
	case RTE_PMU_PATH_SYSCALL:
		return "read()";
	default:
		return "-";
	}
}

static int
print_entry(const struct rte_pmu_event_entry *e, void *arg)
{
	struct list_state *st = arg;

	if (e->status == 0)
		st->open++;
	fprintf(st->out, "%-44s %-18s %-8s %s\n", e->name, e->pmu[0] != '\0' ? e->pmu : "-",
		path_name(e->path),
		e->status == 0 ? "opens" : strerror(-e->status));
	return 0;
}

int
list_events(FILE *out)
{
	struct list_state st = { .out = out, .open = 0 };
	int ret;

	fprintf(out, "%-44s %-18s %-8s %s\n", "EVENT", "PMU", "PATH", "HERE");
	ret = rte_pmu_event_list(print_entry, &st);
	if (ret < 0) {
		fprintf(stderr, "rte_pmu_event_list: %s\n", strerror(-ret));
		return ret;
	}
	fprintf(out, "%d events, %u open on this thread's CPUs\n", ret, st.open);
	return 0;
}
