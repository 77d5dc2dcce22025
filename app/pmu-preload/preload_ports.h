/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

#ifndef PRELOAD_PORTS_H
#define PRELOAD_PORTS_H

/* The ports' stages (ports.c). */

#include <stdint.h>

/* Rx and tx callbacks on every queue of @p port_id, started just now. */
void preload_port_started(uint16_t port_id);

/* The ports' stages still open on the calling lcore end: its launched
 * function returns.
 */
void preload_ports_lcore_stop(void);

#endif /* PRELOAD_PORTS_H */
