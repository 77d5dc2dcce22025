# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# Sourced by devtools/ci-sanitize.sh, ci-fuzz.sh and ci-torture.sh, after
# setting LOG_TAG: devtools/lib.sh, a per-test tally, and the closing lines
# (duration, RESULT) of the stage contract.

# shellcheck shell=bash
# shellcheck source=devtools/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO" || exit 1

ci_passed=0 ci_failed=0 ci_skipped=0
ci_t0=$SECONDS

# ci_pass NAME, ci_fail NAME [why], ci_skip NAME why
ci_pass() { echo "PASS $1"; ci_passed=$((ci_passed + 1)); }
ci_fail() { echo "FAIL $1${2:+: $2}"; ci_failed=$((ci_failed + 1)); }
ci_skip() { echo "SKIP $1: $2"; ci_skipped=$((ci_skipped + 1)); }

# Print the duration and the RESULT line; exit 0 only when nothing failed.
ci_end() {
	log "took $((SECONDS - ci_t0)) s"
	result_line "$ci_passed" "$ci_failed" "$ci_skipped"
	[ "$ci_failed" -eq 0 ]
	exit $?
}

# configure DIR MESON_ARGS...: set up the build folder once, then build it
# (or only the targets in CI_TARGETS).
ci_build() {
	local dir=$1
	shift
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" "$@" >/dev/null || return 1
	fi
	# shellcheck disable=SC2086
	ninja -C "$dir" ${CI_TARGETS:-} >/dev/null
}
