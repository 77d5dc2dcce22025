/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PRELOAD_ENV_H
#define PRELOAD_ENV_H

/* Drop this library from LD_PRELOAD (env.c): the program's children run
 * as they would without dpdk-pmu-run. Done as the library loads where
 * the program links librte_eal itself, else at its rte_eal_init().
 */
void preload_env(void);

#endif /* PRELOAD_ENV_H */
