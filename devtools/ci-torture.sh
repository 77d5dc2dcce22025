#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: meson's torture-tests (the page read under a signal-driven
# writer, 1000 lifecycles, thread churn, every lcore id, reads racing the
# control path): their figures, one check a test from meson's verdicts.
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
stage_build

echo "=== torture-tests ($build)"
verdicts="$build/torture-verdicts.txt"
meson test -C "$build" --suite torture-tests --no-rebuild >"$verdicts" 2>&1
log="$build/meson-logs/testlog.txt"
grep -E '^(page torture|lifecycle|thread churn|all lcores|read vs|release vs)|line [0-9]+ failed' \
	"$log" | sed 's/^/  /'
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
