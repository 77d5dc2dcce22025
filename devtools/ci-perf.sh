#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: the datapath's costs on this (x86_64) host. Runs the perf suite
# (pmu_perf_autotest: the goals table of issue 9, figures printed, the
# read() call counts gated) and counts, from the disassembly of the test
# program, the static instructions of the inline rte_pmu_read() on its
# rdpmc path (the function test_pmu_perf_read(), entry to the first ret:
# the compiler lays the hot path out as the fall-through).
# Usage: devtools/ci-perf.sh [BUILD_DIR]   (default $BUILD_DIR or build)
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
build=${1:-${BUILD_DIR:-build}}

deps || log "could not install every package"
if ! command -v meson >/dev/null || ! command -v ninja >/dev/null; then
	skip "meson or ninja missing and not installable"
	finish
fi
build_if_missing "$build" --werror || { fail "build"; finish; }

echo "=== static instructions of the inline read (x86_64 rdpmc path)"
if command -v objdump >/dev/null; then
	objdump -d --no-show-raw-insn "$build/app/test/dpdk-test" |
	awk '/<test_pmu_perf_read>:$/ { on = 1; next }
		on && /^$/ { exit }
		on && NF >= 2 {
			total++
			if (!done) hot++
			if ($2 == "rdpmc") rdpmc = 1
			if ($2 ~ /^ret/) done = 1
		}
		END {
			if (!total) { print "test_pmu_perf_read not found"; exit }
			printf "inline rte_pmu_read(), rdpmc path: %d instructions to the first ret " \
				"(%d in the whole function, slow and scaling paths included; rdpmc %s)\n",
				hot, total, rdpmc ? "present" : "MISSING"
		}'
else
	echo "objdump not available: static count skipped"
fi

echo "=== meson test --suite perf-tests"
meson test -C "$build" --suite perf-tests --no-rebuild >/dev/null
rc=$?
log="$build/meson-logs/testlog.txt"
# The dpdk-test output: the figures and the goals table.
awk '/^rte_pmu datapath goals/ { on = 1 }
	/^Test (OK|Failed)/ { on = 0 }
	on || /^inline read:|^plain read\(\)|^hardware events|^exactness probe|lcore ids \(/ { print }' "$log"
f0=$failed
tally_add "$log"
# A crash or a timeout prints no RESULT line: meson's status says it.
[ "$rc" = 0 ] || [ "$failed" -gt "$f0" ] || fail "meson test --suite perf-tests (exit $rc)"
finish
