/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The run's settings and the preload's standard error, on their own:
 * every file reads them, preload.c sets them, and no file calls back into
 * another through them.
 */

#include "preload_run.h"

struct preload_run preload_run;
FILE *preload_err;
