/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The state container, its lock, the log type, and the copy-out accessors
 * through which everything outside the control path sees the state.
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_string_fns.h>

#include "pmu_log.h"
#include "pmu_state.h"
#include "rte_pmu.h"

RTE_LOG_REGISTER_DEFAULT(pmu_logtype, INFO);

RTE_DEFINE_PER_LCORE(unsigned int, pmu_log_quiet);

/* Every slot of a group starts on the page that gives no value. */
#define PAGES_NONE { [0 ... RTE_MAX_NUM_GROUP_EVENTS - 1] = &pmu_page_none }

struct perf_event_mmap_page pmu_page_none;

struct rte_pmu_event_group rte_pmu_event_groups[RTE_MAX_LCORE] = {
	[0 ... RTE_MAX_LCORE - 1] = { .mmap_pages = PAGES_NONE },
};

struct rte_pmu_event_group pmu_no_group = { .mmap_pages = PAGES_NONE };

struct pmu_lcore pmu_no_lcore = {
	.fds = { [0 ... RTE_MAX_NUM_GROUP_EVENTS - 1] = -1 },
	.group_fd = -1,
};

RTE_DEFINE_PER_LCORE(struct rte_pmu_event_group *, _pmu_group) = &pmu_no_group;
RTE_DEFINE_PER_LCORE(struct pmu_lcore *, pmu_self) = &pmu_no_lcore;

struct pmu_state pmu = {
	.lock = RTE_SPINLOCK_INITIALIZER,
};

/* Whether this thread holds pmu.lock (for the lock-free I/O assertion). */
static RTE_DEFINE_PER_LCORE(bool, lock_held);

void
pmu_lock(void)
{
	rte_spinlock_lock(&pmu.lock);
	RTE_PER_LCORE(lock_held) = true;
}

void
pmu_unlock(void)
{
	RTE_PER_LCORE(lock_held) = false;
	rte_spinlock_unlock(&pmu.lock);
}

bool
pmu_lock_held(void)
{
	return RTE_PER_LCORE(lock_held);
}

int
pmu_errno(int err, int other)
{
	switch (err) {
	case -EMFILE:
	case -ENFILE:
		return -EMFILE;
	case -ENOMEM:
		return -ENOMEM;
	case -EACCES:
	case -EPERM:
		return -EACCES;
	case -EINTR:
	case -EAGAIN:
	case -EBUSY:
		return -EAGAIN;
	default:
		return other;
	}
}

int
pmu_state_events(struct pmu_events_copy *c)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	pmu_lock();
	c->initialized = pmu.initialized;
	if (pmu.initialized) {
		rte_strscpy(c->core_pmu, pmu.core_pmu, sizeof(c->core_pmu));
		c->num_events = pmu.num_events;
		for (i = 0; i < pmu.num_events; i++) {
			/* Names longer than the copy are cut, as documented. */
			strlcpy(c->names[i], pmu.events[i].name, sizeof(c->names[i]));
			c->descs[i] = pmu.events[i].desc;
		}
	}
	pmu_unlock();

	return c->initialized ? 0 : -ENODEV;
}

/* The modifiers of event name @p name ("u" of cycles:u or cpu/cycles/u). */
static const char *
name_mods(const char *name)
{
	const char *colon = strchr(name, ':'), *slash = strrchr(name, '/');

	return colon != NULL ? colon + 1 : slash != NULL && slash != strchr(name, '/') ?
		slash + 1 : "";
}

/* The index of the first event of @p c named in @p names, a modifier left
 * out ("cycles:u" is cycles), with modifiers @p mods where not NULL, or -1.
 */
static int
events_find(const struct pmu_events_copy *c, const char *const *names, const char *mods)
{
	unsigned int i, j;
	size_t len;

	for (i = 0; i < c->num_events; i++) {
		len = strcspn(c->names[i], ":");
		for (j = 0; names[j] != NULL; j++)
			if (strlen(names[j]) == len && strncmp(c->names[i], names[j], len) == 0 &&
					(mods == NULL || strcmp(name_mods(c->names[i]), mods) == 0))
				return (int)i;
	}
	return -1;
}

void
pmu_events_ipc(const struct pmu_events_copy *c, int *cycles, int *instructions)
{
	static const char *const cycles_names[] = { "cycles", "cpu-cycles", "cpu_cycles", NULL };
	static const char *const instr_names[] = { "instructions", "inst_retired", NULL };

	/* A pair of the same modifiers, as perf pairs them (not user
	 * instructions over kernel cycles).
	 */
	*cycles = events_find(c, cycles_names, NULL);
	*instructions = *cycles < 0 ? -1 :
		events_find(c, instr_names, name_mods(c->names[*cycles]));
}

/* Path of the lcore's next read, from its page (no counter value is taken
 * from it). Lock held: the page cannot be unmapped meanwhile.
 */
static void
page_peek(const struct perf_event_mmap_page *pc, struct pmu_lcore_copy *c, unsigned int i)
{
	if (pc == &pmu_page_none) {
		c->path[i] = RTE_PMU_PATH_SYSCALL;
		return;
	}
	c->user_index[i] = __RTE_PMU_LOAD(pc->index);
	c->pmc_width[i] = __RTE_PMU_LOAD(pc->pmc_width);
	c->cap_user_rdpmc[i] =
		(__RTE_PMU_LOAD(pc->capabilities) & __RTE_PMU_CAP_USER_RDPMC) != 0;
	c->path[i] = __RTE_PMU_HAVE_USER_READ && c->user_index[i] != 0 &&
		c->cap_user_rdpmc[i] ? RTE_PMU_PATH_USER : RTE_PMU_PATH_SYSCALL;
}

int
pmu_state_lcore_copy(unsigned int lcore_id, bool pin, struct pmu_lcore_copy *c)
{
	struct pmu_lcore *lc;
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->group_fd = -1;
	if (lcore_id >= RTE_MAX_LCORE)
		return -EINVAL;

	pmu_lock();
	if (!pmu.initialized) {
		pmu_unlock();
		return -ENODEV;
	}
	lc = &pmu.lcores[lcore_id];
	c->num_events = pmu.num_events;
	c->status = pmu.num_events == 0 ? -ENODATA : __atomic_load_n(&lc->status,
		__ATOMIC_RELAXED);
	c->slow_reads = __atomic_load_n(&lc->slow_reads, __ATOMIC_RELAXED);
	c->read_errors = __atomic_load_n(&lc->read_errors, __ATOMIC_RELAXED);
	c->not_run = __atomic_load_n(&lc->not_run, __ATOMIC_RELAXED);
	/* Every name whole, as rte_pmu_add_event() takes it. */
	RTE_BUILD_BUG_ON(sizeof(c->names[0]) != PMU_EVENT_NAME_MAX + 1);
	for (i = 0; i < pmu.num_events; i++) {
		strlcpy(c->names[i], pmu.events[i].name, sizeof(c->names[i]));
		c->path[i] = RTE_PMU_PATH_NONE;
		if (c->status > 0)
			page_peek(rte_pmu_event_groups[lcore_id].mmap_pages[i], c, i);
		/* Read with rte_rdtsc(): in user space, though the page has no index. */
		if (c->status > 0 && (__atomic_load_n(&lc->tsc_events, __ATOMIC_RELAXED) &
				(UINT32_C(1) << i)) != 0)
			c->path[i] = RTE_PMU_PATH_USER;
	}
	if (pin && c->status > 0 && lc->group_fd >= 0) {
		c->group_fd = lc->group_fd;
		__atomic_fetch_add(&lc->pins, 1, __ATOMIC_ACQUIRE);
	}
	pmu_unlock();

	return 0;
}

void
pmu_state_lcore_unpin(unsigned int lcore_id, struct pmu_lcore_copy *c)
{
	if (c->group_fd < 0 || lcore_id >= RTE_MAX_LCORE)
		return;
	c->group_fd = -1;
	__atomic_fetch_sub(&pmu.lcores[lcore_id].pins, 1, __ATOMIC_RELEASE);
}

