#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: the meson suite torture-tests on the default build (the page
# read under a signal-driven writer, 1000 lifecycle rounds, thread churn,
# every lcore id open, reads racing the control path). Prints each
# torture's figures; one test per test command.
# Environment: BUILD_DIR (default build).
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
build=${BUILD_DIR:-build}

deps || { fail "torture-setup: packages"; finish; }
build_if_missing "$build" --werror || { fail "torture-build: build failed"; finish; }

echo "=== torture-tests ($build)"
verdicts="$build/torture-verdicts.txt"
meson test -C "$build" --suite torture-tests --no-rebuild >"$verdicts" 2>&1
log="$build/meson-logs/testlog.txt"
grep -E '^(page torture|lifecycle|thread churn|all lcores|read vs|release vs)|line [0-9]+ failed' \
	"$log" | sed 's/^/  /'
# One result per test command, from meson's own verdicts.
while read -r name verdict; do
	case $verdict in
	OK) ok "$name" ;;
	SKIP) skip "$name: $(grep -m1 '^skip:' "$log" || echo skipped)" ;;
	*) fail "$name: $verdict (log $log)" ;;
	esac
done < <(sed -n 's|^ *[0-9]*/[0-9]* rte_pmu:torture-tests / \([a-z_]*\) *\([A-Z]*\).*|\1 \2|p' \
	"$verdicts")
[ $((passed + failed + skipped)) -gt 0 ] || fail "torture-tests: no test ran"
finish
