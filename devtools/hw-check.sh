#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# One command for a machine with a hardware PMU: build, then the
# real-counter tests (pmu_real_autotest, pmu_user_access_autotest), the
# datapath table of devtools/ci-perf.sh (pmu_perf_autotest, with cycles and
# instructions), and `perf stat -e cycles,instructions` around
# `dpdk-test-pmu -e cycles,instructions` on the same workload: each count
# of the tool within a factor of 2 of perf's (perf also counts EAL's start,
# the tool only its loop). Ends with one summary line and the RESULT line.
# Where no hardware event opens (perf stat says cycles is not supported, or
# the tool cannot open cycles), it says why and exits 77. devtools/ci-perf.sh
# runs it with HW_CHECK=1 (the table is its own then).
# Usage: devtools/hw-check.sh [BUILD_DIR]   (as root, or with
# kernel.perf_event_paranoid low enough to count the kernel's share too)
set -uo pipefail

LOG_TAG=hw-check
# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
build=${1:-$build}
events=cycles,instructions
prefix=hw_check_$$
prefixes=$prefix
# Loop iterations of the side-by-side run: about a second of the tool's
# workload, against which EAL's start is small.
iterations=${HW_CHECK_ITERATIONS:-500000000}
stage_tmp hw-check

# no_hardware REASON: the skip, with its reason, exit 77.
no_hardware()
{
	echo "$LOG_TAG: SKIP: no hardware event opens here: $*"
	exit 77
}

echo "=== hw-check: a hardware event?"
if command -v perf >/dev/null; then
	perf stat -x, -e cycles true >/dev/null 2>"$tmp/probe.csv"
	probe=$(grep -m 1 ',cycles' "$tmp/probe.csv")
	case $probe in
	'<not supported>'* | '<not counted>'* | '')
		no_hardware "perf stat -e cycles true: ${probe:-$(tail -n 1 "$tmp/probe.csv")}" ;;
	esac
	echo "  perf stat -e cycles true: $probe"
fi

echo "=== hw-check: build $build"
build_if_missing "$build" --werror || { fail "build of $build"; finish; }
tool=$build/app/test-pmu/dpdk-test-pmu
runner=$build/app/test/dpdk-test
# shellcheck disable=SC2206 # the EAL arguments are words
eal=($EAL_HOST_ARGS --file-prefix="$prefix" --log-level=lib.eal:error)
if [ ! -x "$tool" ] || [ ! -x "$runner" ]; then
	fail "$tool or $runner not built (meson options enable_apps, tests)"
	finish
fi
if ! "$tool" "${eal[@]}" -- -e cycles --iterations 1000 >"$tmp/probe.out" 2>&1; then
	no_hardware "dpdk-test-pmu -e cycles: $(grep -m 1 'cycles:' "$tmp/probe.out" |
		sed 's/^ *//')"
fi

echo "=== hw-check: real-counter tests"
for t in pmu_real_autotest pmu_user_access_autotest; do
	DPDK_TEST=$t timeout 300 "$runner" "${eal[@]}" >"$tmp/$t.log" 2>&1
	rc=$?
	grep -E '^(RESULT|skip:|exact counts)' "$tmp/$t.log" | sed "s/^/  $t: /"
	tally_run "$tmp/$t.log" $rc "$t"
done

# From ci-perf.sh (HW_CHECK=1), the table is already printed and counted.
if [ -z "${HW_CHECK:-}" ]; then
	echo "=== hw-check: the datapath table (devtools/ci-perf.sh)"
	HW_CHECK=1 bash devtools/ci-perf.sh "$build" >"$tmp/perf.log" 2>&1
	rc=$?
	grep -v '^RESULT' "$tmp/perf.log"
	tally_run "$tmp/perf.log" $rc "devtools/ci-perf.sh"
fi

echo "=== hw-check: perf stat -e $events around dpdk-test-pmu -e $events"
# One lcore: the workload runs on the main lcore, and no other lcore waits
# for it, spinning, inside perf's count.
one=("${eal[@]}")
one[1]=0	# EAL_HOST_ARGS starts with "-l 0-1"
perf stat -x, -e "$events" -o "$tmp/perf.csv" -- "$tool" "${one[@]}" -- -e "$events" --raw \
	--iterations "$iterations" >"$tmp/tool.out" 2>"$tmp/tool.err"
rc=$?
sed 's/^/    | /' "$tmp/tool.out" | grep -E 'cycles|instructions|elapsed'
summary=""
if [ $rc -ne 0 ]; then
	fail "perf stat -- dpdk-test-pmu -e $events: exit $rc"
	show "$tmp/tool.err"
else
	for e in ${events//,/ }; do
		# perf: VALUE,UNIT,EVENT,...; the tool's table: COUNT EVENT # ...
		theirs=$(awk -F, -v e="$e" '$3 == e || $3 ~ "^" e ":" { print $1 }' "$tmp/perf.csv")
		ours=$(awk -v e="$e" '$2 == e && $1 ~ /^[0-9,]+$/ { gsub(",", "", $1); print $1; exit }
			END { print 0 }' "$tmp/tool.out" | head -n 1)
		if [[ ! $theirs =~ ^[0-9]+$ ]] || [ "$ours" -eq 0 ]; then
			fail "$e: perf stat ${theirs:-printed nothing}, dpdk-test-pmu $ours"
			continue
		fi
		ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.3f", a / b }')
		what="$e: dpdk-test-pmu $ours, perf stat $theirs (whole process), ratio $ratio"
		if awk -v r="$ratio" 'BEGIN { exit !(r >= 0.5 && r <= 2) }'; then
			ok "$what, within a factor of 2"
		else
			fail "$what, not within a factor of 2"
		fi
		summary="$summary, $e ratio $ratio"
	done
fi

echo "hw-check: $passed passed, $failed failed, $skipped skipped$summary"
finish
