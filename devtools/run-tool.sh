#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# Set up, build and run dpdk-test-pmu on its default events (cycles,
# instructions; software events where this machine has no hardware PMU).
# Arguments after the script name go to the tool after "--", e.g.
#   devtools/run-tool.sh --events task-clock,page-faults --workload memory
set -euo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO"
build=${BUILD_DIR:-build}
deps
build_if_missing "$build"
lcores=0
[ "$(nproc)" -gt 1 ] && lcores=0-1
exec "$build/app/test-pmu/dpdk-test-pmu" -l "$lcores" --no-huge --no-pci --no-shconf \
	-m 64 --file-prefix="test-pmu-$$" --log-level=lib.pmu:info -- "$@"
