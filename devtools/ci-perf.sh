#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: the datapath's costs on this x86_64 host: pmu_perf_autotest
# (the goals table of issue 9 printed, the read() call counts gated), and
# the static instructions of the inline rte_pmu_read() on its rdpmc path
# (test_pmu_perf_read(), entry to the first ret, from the disassembly).
# Then devtools/hw-check.sh (HW_CHECK=1: the table above is its table), which
# skips (exit 77, one skip with its reason) where no hardware event opens.
# Usage: devtools/ci-perf.sh [BUILD_DIR]
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
build=${1:-$build}
stage_build

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
awk '/^rte_pmu datapath goals/ { on = 1 }
	/^Test (OK|Failed)/ { on = 0 }
	on || /^inline read:|^plain read\(\)|^hardware events|^exactness probe|lcore ids \(/ { print }' "$log"
tally_run "$log" "$rc" "meson test --suite perf-tests"

if [ -z "${HW_CHECK:-}" ]; then
	echo "=== devtools/hw-check.sh (a machine with a hardware PMU)"
	hwlog=$(mktemp)
	HW_CHECK=1 bash devtools/hw-check.sh "$build" >"$hwlog" 2>&1
	rc=$?
	if [ $rc -eq 77 ]; then
		skip "hw-check.sh: $(sed -n 's/^hw-check: SKIP: //p' "$hwlog")"
	else
		grep -v '^RESULT' "$hwlog"
		tally_run "$hwlog" $rc "devtools/hw-check.sh"
	fi
	rm -f "$hwlog"
fi
finish
