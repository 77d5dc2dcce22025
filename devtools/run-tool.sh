#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# Set up, build and run dpdk-test-pmu on its default events (cycles,
# instructions; software events where this machine has no hardware PMU).
# Arguments after the script name go to the tool after "--", e.g.
#   devtools/run-tool.sh --events task-clock,page-faults --workload memory
set -euo pipefail

cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
devtools/install-deps.sh
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
ninja -C "$build" >/dev/null
lcores=0
[ "$(nproc)" -gt 1 ] && lcores=0-1
exec "$build/app/test-pmu/dpdk-test-pmu" -l "$lcores" --no-huge --no-pci --no-shconf \
	-m 64 --file-prefix="test-pmu-$$" --log-level=lib.pmu:info -- "$@"
