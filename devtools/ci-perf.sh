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
#
# Prints its duration and "RESULT passed=P failed=F skipped=S" (test
# cases); exit status 0 only when nothing failed. About 5 s after a build.
#
# Usage: devtools/ci-perf.sh [BUILD_DIR]   (default build)
set -uo pipefail

cd "$(dirname "$0")/.."
build=${1:-build}

finish() { # passed failed skipped
	echo "ci-perf: ${SECONDS}s"
	echo "RESULT passed=$1 failed=$2 skipped=$3"
	[ "$2" = 0 ]
	exit $?
}

for tool in meson ninja objdump; do
	if ! command -v "$tool" >/dev/null; then
		pkg=$tool
		[ "$tool" = objdump ] && pkg=binutils
		[ "$tool" = ninja ] && pkg=ninja-build
		if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null
		fi
	fi
done
if ! command -v meson >/dev/null || ! command -v ninja >/dev/null; then
	echo "ci-perf: SKIP: meson or ninja missing and not installable"
	finish 0 0 1
fi

if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" --werror >/dev/null || { echo "ci-perf: meson setup failed"; finish 0 1 0; }
fi
ninja -C "$build" >/dev/null || { echo "ci-perf: build failed"; finish 0 1 0; }

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
read -r p f s < <(awk '/^RESULT passed=/ {
	for (i = 2; i <= 4; i++) { split($i, kv, "="); t[i] += kv[2] }
} END { print t[2] + 0, t[3] + 0, t[4] + 0 }' "$log")
# A crash or a timeout prints no RESULT line: meson's status says it.
if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
	f=1
fi
finish "$p" "$f" "$s"
