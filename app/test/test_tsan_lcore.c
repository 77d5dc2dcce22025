/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Built into dpdk-test only under ThreadSanitizer (-Db_sanitize=thread).
 *
 * DPDK's EAL is not instrumented, so TSan does not see that
 * rte_eal_remote_launch() happens before the function runs on the worker,
 * nor that the function's end happens before rte_eal_wait_lcore() returns.
 * Without that every test that touches memory on both sides of a launch
 * reports false races. These definitions take the place of the EAL's
 * (symbol interposition; the EAL's own rte_eal_mp_* calls reach them too),
 * call the EAL's through dlsym(RTLD_NEXT), and add the two orderings as
 * release/acquire atomics that TSan understands.
 *
 * Likewise the EAL hands lcore ids to registered threads under its own lock
 * (rte_thread_register() / rte_thread_unregister(), whose release callbacks
 * close the library's group of the id): a mutex around both makes that
 * ordering visible. Nothing else changes.
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_launch.h>
#include <rte_lcore.h>

/* One launch in flight per lcore. */
struct tsan_launch {
	lcore_function_t *f;
	void *arg;
	unsigned int started; /* launch -> worker: release/acquire */
	unsigned int ended;   /* worker -> wait: release/acquire */
};

static struct tsan_launch launches[RTE_MAX_LCORE];

typedef int (*remote_launch_t)(lcore_function_t *f, void *arg, unsigned int worker_id);
typedef int (*wait_lcore_t)(unsigned int worker_id);
typedef int (*thread_register_t)(void);
typedef void (*thread_unregister_t)(void);

/* The EAL's functions, found before main() (before any thread exists). */
static remote_launch_t eal_launch;
static wait_lcore_t eal_wait;
static thread_register_t eal_register;
static thread_unregister_t eal_unregister;

static void *
eal_symbol(const char *name)
{
	void *sym = dlsym(RTLD_NEXT, name);

	if (sym == NULL) {
		fprintf(stderr, "tsan shim: no %s in the EAL: %s\n", name, dlerror());
		abort();
	}
	return sym;
}

RTE_INIT(tsan_shim_init)
{
	eal_launch = (remote_launch_t)eal_symbol("rte_eal_remote_launch");
	eal_wait = (wait_lcore_t)eal_symbol("rte_eal_wait_lcore");
	eal_register = (thread_register_t)eal_symbol("rte_thread_register");
	eal_unregister = (thread_unregister_t)eal_symbol("rte_thread_unregister");
}

static int
tsan_trampoline(void *arg)
{
	struct tsan_launch *l = arg;
	int ret;

	(void)__atomic_load_n(&l->started, __ATOMIC_ACQUIRE);
	ret = l->f(l->arg);
	__atomic_fetch_add(&l->ended, 1, __ATOMIC_RELEASE);
	return ret;
}

int
rte_eal_remote_launch(lcore_function_t *f, void *arg, unsigned int worker_id)
{
	struct tsan_launch *l;

	if (worker_id >= RTE_MAX_LCORE)
		return eal_launch(f, arg, worker_id);

	/* The EAL refuses a busy lcore before touching it: keep its slot. */
	if (rte_eal_get_lcore_state(worker_id) != WAIT)
		return eal_launch(f, arg, worker_id);

	l = &launches[worker_id];
	l->f = f;
	l->arg = arg;
	__atomic_fetch_add(&l->started, 1, __ATOMIC_RELEASE);
	return eal_launch(tsan_trampoline, l, worker_id);
}

int
rte_eal_wait_lcore(unsigned int worker_id)
{
	int ret;

	ret = eal_wait(worker_id);
	if (worker_id < RTE_MAX_LCORE)
		(void)__atomic_load_n(&launches[worker_id].ended, __ATOMIC_ACQUIRE);
	return ret;
}

/* Stands for the EAL's lcore lock, which TSan cannot see. */
static pthread_mutex_t lcore_ids = PTHREAD_MUTEX_INITIALIZER;

int
rte_thread_register(void)
{
	int ret;

	pthread_mutex_lock(&lcore_ids);
	ret = eal_register();
	pthread_mutex_unlock(&lcore_ids);
	return ret;
}

void
rte_thread_unregister(void)
{
	pthread_mutex_lock(&lcore_ids);
	eal_unregister();
	pthread_mutex_unlock(&lcore_ids);
}
