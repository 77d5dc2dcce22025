/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The control path: init, fini, add_event, an lcore's open and close, the
 * status query. It owns every counter of the state container. No system
 * call is made with the lock held: encode, probe, scan and open first,
 * then take the lock and check again; take resources out under the lock,
 * release them after it.
 */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_pause.h>
#include <rte_telemetry.h>

#include "pmu.h"
#include "pmu_callbacks.h"
#include "pmu_driver.h"
#include "pmu_event.h"
#include "pmu_fd.h"
#include "pmu_group.h"
#include "pmu_log.h"
#include "pmu_state.h"
#include "pmu_sysfs.h"
#include "rte_pmu.h"
#include "rte_pmu_trace.h"

/* Clear an lcore's status and counters (lock held; read without it by the
 * lcore's read path, so stored atomically).
 */
static void
lcore_counters_clear(struct pmu_lcore *lc)
{
	__atomic_store_n(&lc->status, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&lc->slow_reads, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&lc->read_errors, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&lc->not_run, false, __ATOMIC_RELAXED);
	lc->read_error_logged = false;
	lc->bad_index_logged = false;
	lc->open_failures = 0;
}

/* Hide @p lcore_id's group from its fast path and move what it holds to
 * @p res, to be released once the lock is dropped (lock held). Clears the
 * lcore's status and counters. Returns true when the group was open.
 */
static bool
lcore_detach(unsigned int lcore_id, struct pmu_group_res *res)
{
	struct rte_pmu_event_group *group = &rte_pmu_event_groups[lcore_id];
	struct pmu_lcore *lc = &pmu.lcores[lcore_id];
	bool was_open = lc->num_ready != 0;
	unsigned int i;

	/* Hide the pages from the fast path before they go. */
	__atomic_store_n(&lc->num_ready, 0, __ATOMIC_RELEASE);
	for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++) {
		res->pages[i] = group->mmap_pages[i] != &pmu_page_none ?
			group->mmap_pages[i] : NULL;
		group->mmap_pages[i] = &pmu_page_none;
		res->fds[i] = lc->fds[i];
		lc->fds[i] = -1;
	}
	res->group_fd = lc->group_fd;
	lc->group_fd = -1;
	__atomic_store_n(&lc->tsc_events, 0, __ATOMIC_RELAXED);
	if (was_open && pmu.num_open > 0)
		pmu.num_open--;
	lcore_counters_clear(lc);

	return was_open;
}

/* Release what lcore_detach() took out (lock not held), once no other
 * thread reads the group's reader any more.
 */
static void
lcore_release(unsigned int lcore_id, struct pmu_group_res *res, bool was_open)
{
	while (__atomic_load_n(&pmu.lcores[lcore_id].pins, __ATOMIC_ACQUIRE) != 0)
		rte_pause();
	pmu_group_release(res);
	if (was_open)
		rte_pmu_trace_group_close(lcore_id);
}

/* Uninit callback of an lcore, registered for the life of the library: a
 * registered thread that unregisters gives its lcore id back, in its own
 * context. Its fast-path pointer and its group must not outlive the id.
 */
static void
pmu_lcore_gone(unsigned int lcore_id, void *arg __rte_unused)
{
	struct pmu_group_res res;
	bool was_open = false;

	if (lcore_id >= RTE_MAX_LCORE)
		return;
	if (lcore_id == rte_lcore_id()) {
		RTE_PER_LCORE(_pmu_group) = &pmu_no_group;
		RTE_PER_LCORE(pmu_self) = &pmu_no_lcore;
	}

	pmu_group_res_init(&res);
	pmu_lock();
	if (pmu.initialized)
		was_open = lcore_detach(lcore_id, &res);
	pmu_unlock();
	lcore_release(lcore_id, &res, was_open);
}

static void *lcore_cb;

RTE_INIT(pmu_lcore_watch)
{
	lcore_cb = rte_lcore_callback_register("pmu", NULL, pmu_lcore_gone, NULL);
}

RTE_FINI(pmu_lcore_unwatch)
{
	if (lcore_cb != NULL)
		rte_lcore_callback_unregister(lcore_cb);
	lcore_cb = NULL;
}

/* 0 when the sysfs root lists a PMU; else the API's errno, logged. */
static int
sysfs_has_pmus(void)
{
	struct dirent *de;
	bool found = false;
	DIR *dir;
	int err;

	dir = opendir(pmu_sysfs_root());
	if (dir == NULL) {
		err = errno;
		if (err == ENOENT || err == ENOTDIR) {
			PMU_LOG(ERR, "no %s: kernel without perf_event?", pmu_sysfs_root());
			return -ENODEV;
		}
		PMU_LOG(ERR, "cannot open %s: %s", pmu_sysfs_root(), strerror(err));
		return pmu_errno(-err, -EIO);
	}
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] != '.') {
			found = true;
			break;
		}
	}
	closedir(dir);
	if (!found) {
		PMU_LOG(ERR, "no PMU under %s: kernel without perf_event?", pmu_sysfs_root());
		return -ENODEV;
	}

	return 0;
}

/* Find the core PMU and let the backend check the machine (no lock). */
static void
core_pmu_find(char *core)
{
	static unsigned int no_core_logged;

	core[0] = '\0';
	if (!pmu_arch_present()) {
		PMU_LOG(WARNING, "no backend for this architecture: counters are read with read()");
		return;
	}
	if (pmu_arch_core_pmu(core, PMU_NAME_MAX) != 0) {
		core[0] = '\0';
		PMU_LOG_AT(__atomic_fetch_add(&no_core_logged, 1, __ATOMIC_RELAXED) == 0 ?
			RTE_LOG_WARNING : RTE_LOG_DEBUG,
			"no core PMU under %s: hardware events unavailable, "
			"software and pmu/event/ events still work", pmu_sysfs_root());
		return;
	}
	pmu_arch_init(core);
}

int
rte_pmu_init(void)
{
	char core[PMU_NAME_MAX];
	bool initialized;
	unsigned int i;
	int ret;

	pmu_lock();
	initialized = pmu.initialized;
	pmu_unlock();
	if (initialized)
		return 0;

	/* Everything that reads the system, before the lock. */
	pmu_fd_unmap_stale();
	ret = sysfs_has_pmus();
	if (ret != 0) {
		rte_pmu_trace_init(ret);
		return ret;
	}
	core_pmu_find(core);

	pmu_lock();
	if (pmu.initialized) {
		/* Another thread initialised it meanwhile. */
		pmu_unlock();
		return 0;
	}
	strlcpy(pmu.core_pmu, core, sizeof(pmu.core_pmu));
	for (i = 0; i < RTE_MAX_LCORE; i++) {
		struct pmu_lcore *lc = &pmu.lcores[i];

		memset(lc->fds, -1, sizeof(lc->fds));
		lc->group_fd = -1;
		/* Read without the lock by each lcore's read path. */
		__atomic_store_n(&lc->num_ready, 0, __ATOMIC_RELAXED);
		lcore_counters_clear(lc);
	}
	pmu.num_events = 0;
	pmu.num_open = 0;
	pmu.num_opening = 0;
	pmu.no_event_logged = false;
	pmu.initialized = true;
	pmu_unlock();

	if (lcore_cb == NULL)
		PMU_LOG(WARNING, "cannot watch lcore release: unregister threads only after "
			"rte_pmu_fini()");

	PMU_LOG(DEBUG, "initialised, core PMU '%s', backend %s", core, pmu_arch_name());
	rte_pmu_trace_init(0);

	return 0;
}

void
rte_pmu_fini(void)
{
	/* What every lcore held, released after the lock (about 13 KiB). */
	struct pmu_group_res res[RTE_MAX_LCORE];
	bool was_open[RTE_MAX_LCORE];
	char *names[RTE_MAX_NUM_GROUP_EVENTS];
	unsigned int i, num_events;

	/* The libraries built on this one let go of their state first; not
	 * at a fini with nothing initialised (a second one).
	 */
	pmu_lock();
	if (!pmu.initialized) {
		pmu_unlock();
		return;
	}
	pmu_unlock();
	pmu_callbacks_fini();
	pmu_lock();
	if (!pmu.initialized) {
		pmu_unlock();
		return;
	}
	for (i = 0; i < RTE_MAX_LCORE; i++) {
		was_open[i] = lcore_detach(i, &res[i]);
	}
	num_events = pmu.num_events;
	for (i = 0; i < num_events; i++) {
		names[i] = pmu.events[i].name;
		pmu.events[i].name = NULL;
	}
	pmu.num_events = 0;
	pmu.num_open = 0;
	pmu.num_opening = 0;
	pmu.generation++;
	pmu.initialized = false;
	pmu_unlock();

	/* Pages kept by an earlier fini first: this one's stay for the next. */
	pmu_fd_unmap_stale();
	for (i = 0; i < RTE_MAX_LCORE; i++)
		lcore_release(i, &res[i], was_open[i]);
	for (i = 0; i < num_events; i++)
		free(names[i]);
	rte_pmu_trace_fini();
}

/* Checks of an add that hold for the state now (lock held): 0 to go on,
 * the index of @p name when it was added already, or negative errno. What
 * the log says of a refusal is recorded in @p busy (the lcores that opened
 * their group) and said by add_failed() once the lock is dropped.
 */
static int
add_check(const char *name, unsigned int *busy)
{
	unsigned int i;

	*busy = 0;
	if (!pmu.initialized)
		return -ENODEV;
	for (i = 0; i < pmu.num_events; i++)
		if (strcmp(pmu.events[i].name, name) == 0)
			return i + 1;
	if (pmu.num_open + pmu.num_opening != 0) {
		*busy = pmu.num_open + pmu.num_opening;
		return -EBUSY;
	}
	if (pmu.num_events == RTE_MAX_NUM_GROUP_EVENTS)
		return -ENOSPC;

	return 0;
}

/* Log the failure @p ret of adding @p name (lock not held), naming the
 * code; @p busy as add_check() recorded it. An unknown name close to a
 * known one gets a suggestion.
 */
static void
add_failed(const char *name, int ret, unsigned int busy, bool closed)
{
	const char *shown = pmu_name_printable(name);
	char hint[PMU_EVENT_NAME_MAX + 1];
	bool suggest;

	if (closed) {
		PMU_LOG(ERR, "add event %s: the library was closed meanwhile: %s", shown,
			pmu_strerror(ret));
		return;
	}
	switch (ret) {
	case -ENODEV:
		PMU_LOG(ERR, "add event %s: rte_pmu_init() not called: %s", shown,
			pmu_strerror(ret));
		break;
	case -EBUSY:
		PMU_LOG(ERR, "add event %s: %u lcore(s) already opened their group; add "
			"every event before any lcore opens its group: %s", shown, busy,
			pmu_strerror(ret));
		break;
	case -ENOSPC:
		PMU_LOG(ERR, "add event %s: group is full (%d events): %s", shown,
			RTE_MAX_NUM_GROUP_EVENTS, pmu_strerror(ret));
		break;
	default:
		suggest = (ret == -ENOENT || ret == -EINVAL) &&
			pmu_event_suggest(name, hint, sizeof(hint));
		PMU_LOG(ERR, "add event %s failed: %s%s%s%s", shown, pmu_strerror(ret),
			suggest ? "; did you mean '" : "", suggest ? hint : "",
			suggest ? "'?" : "");
		break;
	}
}

int
rte_pmu_add_event(const char *name)
{
	char core[PMU_NAME_MAX], thread_core[PMU_NAME_MAX];
	struct pmu_event_desc desc;
	unsigned int generation, busy;
	bool closed = false, added = false;
	char *copy;
	int ret;

	if (name == NULL) {
		PMU_LOG(ERR, "event name is NULL: %s", pmu_strerror(-EINVAL));
		return -EINVAL;
	}
	/* Telemetry's strings, and so the tools, hold no longer name: cut,
	 * two names could read as one.
	 */
	if (strnlen(name, RTE_TEL_MAX_STRING_LEN) == RTE_TEL_MAX_STRING_LEN) {
		PMU_LOG(ERR, "event name %.40s...: longer than %d characters", name,
			RTE_TEL_MAX_STRING_LEN - 1);
		return -EINVAL;
	}

	pmu_lock();
	ret = add_check(name, &busy);
	strlcpy(core, pmu.core_pmu, sizeof(core));
	generation = pmu.generation;
	pmu_unlock();
	if (ret != 0 && ret != -EBUSY && ret != -ENOSPC)
		goto out;

	/* Encoded and probed without the lock, for the core type of the
	 * calling thread's CPUs (hybrid machines), with the privilege levels
	 * of the name or of its type. A malformed name is said as such where
	 * the group is open or full too (encoded there, not probed).
	 */
	pmu_core_pmu_of_thread(core, thread_core);
	if (ret != 0) {
		if (pmu_event_encode_any(name, thread_core, &desc) == -EINVAL)
			ret = -EINVAL;
		goto out;
	}
	ret = pmu_event_prepare(name, thread_core, true, &desc);
	if (ret != 0)
		goto out;
	copy = strdup(name);
	if (copy == NULL) {
		ret = -ENOMEM;
		goto out;
	}

	/* The state may have changed meanwhile: check again. */
	pmu_lock();
	ret = add_check(name, &busy);
	if (ret == 0 && pmu.generation != generation) {
		closed = true;
		ret = -ENODEV;
	}
	if (ret == 0) {
		pmu.events[pmu.num_events].name = copy;
		pmu.events[pmu.num_events].desc = desc;
		copy = NULL;
		/* As add_check() gives an index: index + 1. */
		ret = (int)++pmu.num_events;
		added = true;
	}
	pmu_unlock();
	free(copy);
	if (added)
		PMU_LOG(DEBUG, "event %s: index %d type %u config 0x%" PRIx64
			" config1 0x%" PRIx64, pmu_name_printable(name), ret - 1, desc.attr.type,
			(uint64_t)desc.attr.config, (uint64_t)desc.attr.config1);
out:
	/* add_check() gives an index already added as index + 1. */
	if (ret > 0)
		ret--;
	else if (ret < 0)
		add_failed(name, ret, busy, closed);
	rte_pmu_trace_event_add(name, ret);
	return ret;
}

/* Start an open (lock held): 1 when the caller opens the group, else the
 * result to return. @p warn_empty is set when the caller is to say, once
 * the lock is dropped, that no event was added (said once a library init).
 */
static int
open_begin(unsigned int lcore_id, struct pmu_group_opening *op, bool *warn_empty)
{
	struct pmu_lcore *lc = &pmu.lcores[lcore_id];
	int status = __atomic_load_n(&lc->status, __ATOMIC_RELAXED);
	unsigned int i;

	if (!pmu.initialized)
		return -ENODEV;
	if (pmu.num_events == 0) {
		/* Nothing to open: say so once, the status says it after. */
		*warn_empty = !pmu.no_event_logged;
		pmu.no_event_logged = true;
		return -ENODATA;
	}
	/* Open, or failed for good: nothing to do. */
	if (status > 0)
		return 0;
	if (status < 0 && status != -EAGAIN)
		return status;

	op->lcore_id = lcore_id;
	op->num_events = pmu.num_events;
	op->generation = pmu.generation;
	/* The names stay: no event is added while a group opens. */
	for (i = 0; i < op->num_events; i++) {
		op->names[i] = pmu.events[i].name;
		op->descs[i] = pmu.events[i].desc;
	}
	pmu.num_opening++;

	return 1;
}

/* Finish an open (lock held): with @p ret 0 publish the group, else keep
 * @p ret as the lcore's status and leave op->res to be released. Returns
 * 0 or negative errno; @p closed is set when the library was closed while
 * the group opened.
 */
static int
open_end(struct pmu_group_opening *op, int ret, bool *closed)
{
	unsigned int lcore_id = op->lcore_id;
	struct rte_pmu_event_group *group = &rte_pmu_event_groups[lcore_id];
	struct pmu_lcore *lc = &pmu.lcores[lcore_id];
	unsigned int i;

	if (pmu.num_opening > 0)
		pmu.num_opening--;
	if (ret == 0 && (!pmu.initialized || pmu.generation != op->generation)) {
		/* rte_pmu_fini() ran meanwhile, against the API's contract: the
		 * caller says so after the lock.
		 */
		*closed = true;
		return -ENODEV;
	}
	if (ret != 0) {
		if (pmu.initialized && pmu.generation == op->generation)
			__atomic_store_n(&lc->status, ret, __ATOMIC_RELAXED);
		return ret;
	}

	/* The lcore takes the descriptors and pages. */
	for (i = 0; i < RTE_MAX_NUM_GROUP_EVENTS; i++) {
		lc->fds[i] = op->res.fds[i];
		group->mmap_pages[i] = op->res.pages[i] != NULL ? op->res.pages[i] :
			&pmu_page_none;
	}
	lc->group_fd = op->res.group_fd;
	memcpy(lc->tsc_base, op->tsc_base, sizeof(lc->tsc_base));
	__atomic_store_n(&lc->tsc_events, op->tsc_events, __ATOMIC_RELAXED);
	pmu_group_res_init(&op->res);
	pmu.num_open++;
	lc->open_failures = 0;
	__atomic_store_n(&lc->status, 1, __ATOMIC_RELAXED);
	/* Pages first, then the count that lets the read path use them. */
	__atomic_store_n(&lc->num_ready, op->num_events, __ATOMIC_RELEASE);

	return 0;
}

int
pmu_lcore_open(unsigned int lcore_id)
{
	struct pmu_group_opening op;
	bool warn_empty = false, closed = false;
	unsigned int failures = 0;
	int ret;

	pmu_lock();
	ret = open_begin(lcore_id, &op, &warn_empty);
	pmu_unlock();
	/* The open may come from a read or from rte_pmu_lcore_open(): the
	 * lines speak of neither.
	 */
	if (warn_empty)
		PMU_LOG(WARNING, "opening the group of lcore %u: no event was added: call "
			"rte_pmu_add_event() before an lcore opens its group", lcore_id);
	if (ret <= 0)
		return ret;

	/* The system calls, without the lock: other lcores open theirs meanwhile. */
	ret = pmu_group_open(&op);

	pmu_lock();
	ret = open_end(&op, ret, &closed);
	if (ret == -EAGAIN)
		failures = pmu.lcores[lcore_id].open_failures++;
	pmu_unlock();

	if (ret == 0) {
		PMU_LOG(DEBUG, "lcore %u: group of %u event(s) open", lcore_id, op.num_events);
		rte_pmu_trace_group_open(lcore_id, op.num_events, 0);
		return 0;
	}
	pmu_group_release(&op.res);
	if (closed)
		PMU_LOG(ERR, "opening the group of lcore %u failed: the library was closed "
			"meanwhile: %s", lcore_id, pmu_strerror(ret));
	else if (ret != -EAGAIN)
		PMU_LOG(ERR, "opening the group of lcore %u failed: %s; its counters read 0 "
			"until rte_pmu_fini()", lcore_id, pmu_strerror(ret));
	else
		PMU_LOG_AT(failures == 0 ? RTE_LOG_ERR : RTE_LOG_DEBUG,
			"opening the group of lcore %u failed: %s; its next open or read "
			"tries again", lcore_id, pmu_strerror(ret));
	rte_pmu_trace_group_open(lcore_id, op.num_events, ret);

	return ret;
}

int
rte_pmu_lcore_status(unsigned int lcore_id)
{
	int ret;

	if (lcore_id == LCORE_ID_ANY)
		return -ESRCH;
	if (lcore_id >= RTE_MAX_LCORE)
		return -EINVAL;

	pmu_lock();
	if (!pmu.initialized)
		ret = -ENODEV;
	else if (pmu.num_events == 0)
		ret = -ENODATA;
	else
		ret = __atomic_load_n(&pmu.lcores[lcore_id].status, __ATOMIC_RELAXED);
	if (ret == 1 && __atomic_load_n(&pmu.lcores[lcore_id].not_run, __ATOMIC_RELAXED))
		ret = -ENOSPC;
	pmu_unlock();

	return ret;
}

const char *
__rte_pmu_core_pmu(void)
{
	return __atomic_load_n(&pmu.initialized, __ATOMIC_ACQUIRE) ? pmu.core_pmu : "";
}
