# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# Sourced by the devtools/ci-<topic>.sh stage scripts: packages, a tally of
# test results, the closing RESULT line and the stage's duration.

ci_passed=0 ci_failed=0 ci_skipped=0
ci_t0=$(date +%s)

# Install the Debian packages named when one is missing (needs root then).
ci_need() {
	dpkg -s "$@" >/dev/null 2>&1 && return 0
	echo "installing $*"
	[ "$(id -u)" -eq 0 ] || { echo "not root: cannot install $*" >&2; return 1; }
	DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"$@" >/dev/null
}

# ci_pass NAME, ci_fail NAME [why], ci_skip NAME why
ci_pass() { echo "PASS $1"; ci_passed=$((ci_passed + 1)); }
ci_fail() { echo "FAIL $1${2:+: $2}"; ci_failed=$((ci_failed + 1)); }
ci_skip() { echo "SKIP $1: $2"; ci_skipped=$((ci_skipped + 1)); }

# Print the duration and the RESULT line; exit 0 only when nothing failed.
ci_end() {
	echo "$1 took $(($(date +%s) - ci_t0)) s"
	echo "RESULT passed=$ci_passed failed=$ci_failed skipped=$ci_skipped"
	[ "$ci_failed" -eq 0 ]
	exit $?
}
