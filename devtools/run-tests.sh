#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# Run every test stage: the x86_64 build and its meson fast-tests, the
# install check, the arm64 guest, then devtools/ci-NAME.sh for each NAME
# of CI_STAGES. The stages' "RESULT passed=P failed=F skipped=S" lines are
# summed; a stage that exits non-zero without reporting a failure counts as
# one failure, one that exits 77 as one skip. Ends with a table of stage
# times and "N passed, N failed, N skipped"; exit 0 only when nothing failed.
# Environment:
#   SKIP_ARM64=1   leave out the arm64 guest stage (counted as one skip)
#   STAGES="a b"   run only these stages (names as printed in the table)
#   BUILD_DIR      x86 build folder (default build)
set -uo pipefail

LOG_TAG=run-tests
# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
build=${BUILD_DIR:-build}
times=""

CI_STAGES="reinstall faults events observe tool pipeline graph doc package perf torture sanitize fuzz"

# cpu_ms VAR: CPU time of this shell's finished children, user and
# system, in ms, into VAR (not in a subshell, whose times are its own).
cpu_ms()
{
	local t

	times >"$cpu_file"
	t=$(tail -n 1 "$cpu_file")
	printf -v "$1" '%d' "$(awk -v t="$t" 'BEGIN { split(t, a, /[ ms]+/)
		print int((a[1] * 60 + a[2] + a[3] * 60 + a[4]) * 1000) }')"
}
cpu_file=$(mktemp)
trap 'rm -f "$cpu_file"' EXIT

# stage NAME COMMAND...: run one stage, tally its RESULT lines, time it.
stage()
{
	local name=$1 out rc t0 c0 c1 before_f before_all
	shift

	if [ -n "${STAGES:-}" ] && ! [[ " $STAGES " == *" $name "* ]]; then
		return 0
	fi
	echo "=== stage $name: $*"
	out=$(mktemp)
	t0=$SECONDS
	cpu_ms c0
	"$@" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	before_f=$failed
	before_all=$((passed + failed + skipped))
	tally_add "$out"
	rm -f "$out"
	if [ "$rc" -eq 77 ] && [ $((passed + failed + skipped)) -eq "$before_all" ]; then
		echo "!!! stage $name SKIPPED (see its output above for why)"
		skipped=$((skipped + 1))
	elif [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && [ "$failed" -eq "$before_f" ]; then
		echo "!!! stage $name FAILED with exit status $rc"
		failed=$((failed + 1))
	fi
	cpu_ms c1
	times="$times$(printf '  %-12s %5ds  cpu %5ds  exit %d' "$name" $((SECONDS - t0)) \
		$(((c1 - c0 + 500) / 1000)) "$rc")"$'\n'
}

build_stage()
{
	local arm64=""

	[ "${SKIP_ARM64:-0}" = 1 ] || arm64=arm64
	deps $arm64 && build_if_missing "$build" --werror
}

fast_stage()
{
	local rc

	meson test -C "$build" --suite fast-tests --print-errorlogs --no-rebuild >/dev/null
	rc=$?
	grep -E '^(RESULT|skip:|exact counts)' "$build/meson-logs/testlog.txt" | sed 's/^/  x86_64: /'
	# lib/pmu's structure: no circle of files, the lock in two files,
	# perf descriptors in one (from the object files' symbols).
	python3 devtools/check-structure.py "$build" || rc=1
	return $rc
}

# Runs in a subshell (the pipe in stage): its own counters.
install_stage()
{
	passed=0 failed=0 skipped=0
	check "install check" devtools/check-install.sh
	result_line
}

arm64_stage()
{
	local rc

	devtools/arm64-ci.sh
	rc=$?
	if [ "$rc" -eq 77 ]; then
		echo "!!! SKIPPED: the arm64 guest stage could not run (see above): user-space"
		echo "!!! counter reads were NOT tested on real counters in this run"
	fi
	return $rc
}

stage build build_stage
if [ "$failed" -ne 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
	exit 1
fi
stage fast fast_stage
stage install install_stage
if [ "${SKIP_ARM64:-0}" = 1 ]; then
	echo "=== arm64 guest stage skipped (SKIP_ARM64=1)"
	skipped=$((skipped + 1))
else
	stage arm64 arm64_stage
fi
for s in $CI_STAGES; do
	stage "$s" bash "devtools/ci-$s.sh"
done

echo "=== stage times"
printf '%s' "$times"
echo "  total        ${SECONDS}s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
