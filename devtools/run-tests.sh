#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# Set up and run every test stage: the x86 (host) build and its meson
# fast-tests, the install checks, the arm64 guest (real counters in an
# emulated arm64 machine), then the stage scripts devtools/ci-*.sh listed
# below. Each stage prints "RESULT passed=P failed=F skipped=S" lines that
# are summed; a stage that exits non-zero without reporting a failure counts
# as one failure, one that exits 77 as one skip. Ends with one line
# "N passed, N failed, N skipped" (test cases) after a table of stage times.
# Exit status 0 only when nothing failed.
#
# Environment:
#   SKIP_ARM64=1   leave out the arm64 guest stage (counted as one skip)
#   STAGES="a b"   run only these stages (names as printed in the table)
#   BUILD_DIR      x86 build folder (default build)
set -uo pipefail

LOG_TAG=run-tests
# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO"
build=${BUILD_DIR:-build}
passed=0 failed=0 skipped=0
times=""

# Stage scripts run after the guest, in this order (devtools/ci-NAME.sh).
CI_STAGES="reinstall faults events observe graph tool doc package perf torture sanitize fuzz"

# stage NAME COMMAND...: run one stage, tally its RESULT lines, time it.
stage()
{
	local name=$1 out rc t0 before_f before_all
	shift

	if [ -n "${STAGES:-}" ] && ! [[ " $STAGES " == *" $name "* ]]; then
		return 0
	fi
	echo "=== stage $name: $*"
	out=$(mktemp)
	t0=$SECONDS
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
		# Died before it could report the failure.
		echo "!!! stage $name FAILED with exit status $rc"
		failed=$((failed + 1))
	fi
	times="$times$(printf '  %-12s %5ds  exit %d' "$name" $((SECONDS - t0)) "$rc")"$'\n'
}

build_stage()
{
	local arm64=""

	[ "${SKIP_ARM64:-0}" = 1 ] || arm64="--arm64"
	devtools/install-deps.sh $arm64 || return 1
	if [ ! -f "$build/build.ninja" ]; then
		meson setup "$build" --werror >/dev/null || { echo "meson setup failed"; return 1; }
	fi
	ninja -C "$build" || { echo "build failed"; return 1; }
}

fast_stage()
{
	local rc log="$build/meson-logs/testlog.txt"

	meson test -C "$build" --suite fast-tests --print-errorlogs --no-rebuild >/dev/null
	rc=$?
	grep -E '^(RESULT|skip:|exact counts)' "$log" | sed 's/^/  x86_64: /'
	return $rc
}

install_stage()
{
	if devtools/check-install.sh; then
		result_line 1 0 0
	else
		echo "install check: FAILED"
		result_line 0 1 0
	fi
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
