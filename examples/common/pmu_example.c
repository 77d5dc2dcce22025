/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* What the examples share (pmu_example.h): the events they count, number
 * options, and the --compare table and JSON.
 */

#include <rte_version.h>

#include "pmu_example.h"

const char *const mode_names[MODE_COUNT] = { "off", "on", "sampled" };

char *event_names[RTE_MAX_NUM_GROUP_EVENTS];
unsigned int num_events;
int ev_cycles = -1, ev_instructions = -1;

/* A decimal number from @p min to @p max; -EINVAL otherwise. */
bool
example_early_option(int argc, char **argv, void (*usage)(FILE *f, const char *prog))
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout, argv[0]);
			return true;
		}
		if (strcmp(argv[i], "--version") == 0) {
			printf("%s (rte_pmu) %s, %s\n", argv[0], PMU_EXAMPLE_VERSION,
				rte_version());
			return true;
		}
	}

	return false;
}

int
parse_ulong(const char *arg, unsigned long min, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;

	if (arg[0] < '0' || arg[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return -EINVAL;
	*out = v;

	return 0;
}

/* Add each event of the comma-separated @p list that can be counted here;
 * unless @p quiet, say why for the others. Returns how many were added.
 */
static unsigned int
add_list(const char *list, bool quiet)
{
	char *copy = strdup(list), *name, *next;
	size_t len;
	unsigned int added = 0;
	int ret;

	if (copy == NULL)
		return 0;
	/* A comma between a PMU's slashes is one of its terms, as perf reads -e. */
	for (name = copy; *name != '\0'; name = next) {
		len = rte_pmu_event_name_len(name);
		next = name + len + (name[len] == ',');
		name[len] = '\0';
		if (len == 0)
			continue;
		if (num_events == RTE_MAX_NUM_GROUP_EVENTS) {
			fprintf(stderr, "event %s: at most %d events\n", name,
				RTE_MAX_NUM_GROUP_EVENTS);
			continue;
		}
		ret = rte_pmu_add_event(name);
		if (ret < 0) {
			if (!quiet)
				fprintf(stderr, "event %s: not counted (%s)\n", name,
					strerror(-ret));
			continue;
		}
		free(event_names[ret]);
		event_names[ret] = strdup(name);
		if (event_names[ret] == NULL)
			break;
		if ((unsigned int)ret + 1 > num_events)
			num_events = ret + 1;
		if (strcmp(name, "cycles") == 0 || strcmp(name, "cpu-cycles") == 0 ||
				strcmp(name, "cpu_cycles") == 0)
			ev_cycles = ret;
		else if (strcmp(name, "instructions") == 0 || strcmp(name, "inst_retired") == 0)
			ev_instructions = ret;
		added++;
	}
	free(copy);

	return added;
}

unsigned int
add_events(const char *list)
{
	return add_list(list, false);
}

unsigned int
add_default_events(void)
{
	unsigned int added = add_list(DEFAULT_EVENTS, false);

	if (added != 0)
		return added;
	added = add_list(FALLBACK_TSC, true);
	if (added == 0)
		added = add_list(FALLBACK_EVENTS, false);
	if (added != 0)
		fprintf(stderr, "none of %s can be counted here: counting %s\n", DEFAULT_EVENTS,
			event_names[0] != NULL &&
			strcmp(event_names[0], FALLBACK_TSC) == 0 ? FALLBACK_TSC : FALLBACK_EVENTS);

	return added;
}

/* The --compare table of @p r: each mode's packets, rate and, with an
 * instructions event, instructions per packet, as ratios against "off".
 */
void
print_compare_table(FILE *f, const struct mode_result *r)
{
	unsigned int m;

	fprintf(f, "  %-8s %12s %14s %8s", "Mode", "Packets", "Packets/s", "Rate");
	if (ev_instructions >= 0)
		fprintf(f, " %14s %8s", "Instr/Packet", "Instr");
	fprintf(f, "\n");
	for (m = 0; m < MODE_COUNT; m++) {
		fprintf(f, "  %-8s %12" PRIu64 " %14.0f %7.3fx", mode_names[m], r[m].packets,
			mode_pps(&r[m]), ratio(mode_pps(&r[m]), mode_pps(&r[MODE_OFF])));
		if (ev_instructions >= 0)
			fprintf(f, " %14.2f %7.3fx", mode_ipp(&r[m]),
				ratio(mode_ipp(&r[m]), mode_ipp(&r[MODE_OFF])));
		fprintf(f, "\n");
	}
}

/* The JSON member "compare" of @p r, @p extra (members, each starting
 * with ", ") appended inside it.
 */
void
print_compare_json(const struct mode_result *r, const char *extra)
{
	unsigned int m;

	printf(", \"compare\": {\"period\": %d", COMPARE_PERIOD);
	for (m = 0; m < MODE_COUNT; m++) {
		printf(", \"%s\": {\"packets\": %" PRIu64 ", \"pps\": %.0f, \"rate_ratio\": %.4f",
			mode_names[m], r[m].packets, mode_pps(&r[m]),
			ratio(mode_pps(&r[m]), mode_pps(&r[MODE_OFF])));
		if (ev_instructions >= 0)
			printf(", \"instructions_per_packet\": %.4f, \"instructions_ratio\": %.4f",
				mode_ipp(&r[m]), ratio(mode_ipp(&r[m]), mode_ipp(&r[MODE_OFF])));
		printf("}");
	}
	printf("%s}", extra);
}

/* The JSON members "events" (names, by index) opening an object. */
void
print_events_json(void)
{
	unsigned int e;

	printf("\"events\": [");
	for (e = 0; e < num_events; e++)
		printf("%s\"%s\"", e != 0 ? ", " : "", event_names[e] != NULL ? event_names[e] : "");
	printf("]");
}

void
print_event_bits_json(uint32_t bits)
{
	unsigned int e;

	printf("{");
	for (e = 0; e < num_events; e++)
		printf("%s\"%s\": %s", e != 0 ? ", " : "", event_names[e] != NULL ?
			event_names[e] : "", (bits >> e) & 1 ? "true" : "false");
	printf("}");
}
