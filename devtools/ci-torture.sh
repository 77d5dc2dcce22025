#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: the meson suite torture-tests on the default build (the page
# read under a signal-driven writer, 1000 lifecycle rounds, thread churn,
# every lcore id open, reads racing the control path). Prints each
# torture's figures; one test per test command.
#
# Environment: BUILD_DIR (default build).
set -uo pipefail
LOG_TAG=ci-torture
# shellcheck source=devtools/ci-common.sh
. "$(dirname "$0")/ci-common.sh"

build=${BUILD_DIR:-build}

pkgs_install build || { ci_fail torture-setup packages; ci_end; }
ci_build "$build" --werror || { ci_fail torture-build "build failed"; ci_end; }

echo "=== torture-tests ($build)"
verdicts="$build/torture-verdicts.txt"
meson test -C "$build" --suite torture-tests --no-rebuild >"$verdicts" 2>&1
log="$build/meson-logs/testlog.txt"
grep -E '^(page torture|lifecycle|thread churn|all lcores|read vs|release vs)|line [0-9]+ failed' \
	"$log" | sed 's/^/  /'
# One result per test command, from meson's own verdicts.
while read -r name verdict; do
	case $verdict in
	OK) ci_pass "$name" ;;
	SKIP) ci_skip "$name" "$(grep -m1 '^skip:' "$log" || echo skipped)" ;;
	*) ci_fail "$name" "$verdict (log $log)" ;;
	esac
done < <(sed -n 's|^ *[0-9]*/[0-9]* rte_pmu:torture-tests / \([a-z_]*\) *\([A-Z]*\).*|\1 \2|p' \
	"$verdicts")
[ $((ci_passed + ci_failed + ci_skipped)) -gt 0 ] || ci_fail torture-tests "no test ran"
ci_end
