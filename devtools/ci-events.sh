#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

# CI stage: event names with and without libpfm4.
#
# 1. Installs libpfm4-dev when missing (Debian), builds with libpfm4 required
#    (build-events-pfm/) and runs pmu_pfm_autotest: vendor names checked
#    against the vendors' event numbers (LIBPFM_FORCE_PMU).
# 2. Builds with libpfm4 disabled (build-events-nopfm/), both with --werror,
#    and runs the event-name tests there: the library must work without it.
# Prints each test's "RESULT passed=P failed=F skipped=S" line (a build that
# fails counts as one failure) and its duration; exits 0 only when nothing
# failed.
#
# Usage: devtools/ci-events.sh      (about 1-2 minutes on 2 cores)

set -u

REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$REPO" || exit 1
START=$(date +%s)
FAILED=0

result_fail()
{
	echo "ci-events: FAIL: $*"
	echo "RESULT passed=0 failed=1 skipped=0"
	FAILED=1
}

if [ ! -e /usr/include/perfmon/pfmlib_perf_event.h ]; then
	echo "ci-events: installing libpfm4-dev"
	if ! { apt-get update -qq && apt-get install -y -qq libpfm4-dev; } >/dev/null 2>&1; then
		echo "ci-events: libpfm4-dev could not be installed"
	fi
fi

# build DIR OPTION...: configure (once) and build with --werror.
build()
{
	local dir=$1 log=$1/ci-events.log
	shift
	mkdir -p "$dir"
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" --werror "$@" >"$log" 2>&1 || { tail -20 "$log"; return 1; }
	fi
	ninja -C "$dir" >>"$log" 2>&1 || { tail -20 "$log"; return 1; }
}

# run DIR TEST: one dpdk-test command; its RESULT line goes to stdout.
run()
{
	local dir=$1 t=$2 out rc
	out=$("$dir/app/test/dpdk-test" -l 0-1 --no-huge --no-pci --no-shconf -m 64 \
		--file-prefix="ci_events_${t}_$(basename "$dir")" "$t" 2>&1)
	rc=$?
	if ! grep -q '^RESULT ' <<<"$out"; then
		echo "$out" | tail -20
		result_fail "$dir $t: no RESULT line (exit $rc)"
		return
	fi
	grep -E '^SKIP|has no .* tables|TestCase.*failed' <<<"$out"
	grep '^RESULT ' <<<"$out"
	if [ "$rc" != 0 ] && [ "$rc" != 77 ]; then
		echo "ci-events: $dir $t exited $rc"
		FAILED=1
	fi
}

if [ -e /usr/include/perfmon/pfmlib_perf_event.h ]; then
	if build build-events-pfm -Dlibpfm=enabled; then
		run build-events-pfm pmu_pfm_autotest
	else
		result_fail "build with libpfm4"
	fi
else
	echo "ci-events: SKIP: libpfm4-dev not installed, vendor names not tested"
	echo "RESULT passed=0 failed=0 skipped=1"
fi

if build build-events-nopfm -Dlibpfm=disabled; then
	for t in pmu_event_autotest pmu_names_autotest pmu_hybrid_autotest \
			pmu_hybrid_open_autotest pmu_pfm_autotest pmu_list_autotest; do
		run build-events-nopfm "$t"
	done
else
	result_fail "build without libpfm4"
fi

echo "ci-events: $(( $(date +%s) - START ))s"
exit $FAILED
