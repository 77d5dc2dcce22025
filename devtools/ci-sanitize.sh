#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: the tests under sanitizers, each build in its own folder.
#  - ASan + UBSan (build-asan): fast-tests and torture-tests, leaks on;
#  - TSan (build-tsan): the same suites, with -DRTE_FORCE_INTRINSICS so that
#    DPDK's rte_spinlock is made of __atomic builtins TSan sees (x86's
#    rte_spinlock.h is inline asm otherwise), and app/test/test_tsan_lcore.c
#    ordering DPDK's launch/wait and thread (un)registration for TSan;
#  - valgrind memcheck (default build): the library's unit tests, no error
#    and no definite leak.
# One test = one test command in one build: it fails on a non-zero exit
# (77 is a skip) or any sanitizer report in its output; the reports'
# summaries are printed. No suppression file is needed: none is used.
#
# Environment: BUILD_DIR (default build), SANITIZE_ONLY (asan, tsan or
# valgrind: that part alone).
set -uo pipefail
cd "$(dirname "$0")/.."
. devtools/ci-common.sh

only=${SANITIZE_ONLY:-}
build=${BUILD_DIR:-build}
suites="fast-tests torture-tests"
valgrind_tests="pmu_autotest pmu_event_autotest pmu_sysfs_autotest pmu_format_autotest"
reports='ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|WARNING: ThreadSanitizer'
eal="-l 0-1 --no-huge --no-pci --no-shconf -m 64"

export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:exitcode=23
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export TSAN_OPTIONS=halt_on_error=0:exitcode=66:second_deadlock_stack=1

ci_need build-essential meson ninja-build pkg-config libdpdk-dev libnuma-dev valgrind ||
	{ ci_fail sanitize-setup packages; ci_end sanitize; }

# setup DIR MESON_ARGS...: configure once, build.
setup() {
	local dir=$1
	shift
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" --werror "$@" >/dev/null || return 1
	fi
	ninja -C "$dir" >/dev/null
}

# judge NAME LOG RC: pass, skip or fail one test from its output.
judge() {
	local name=$1 log=$2 rc=$3
	if grep -qE "$reports" "$log"; then
		grep -E "^SUMMARY: |$reports" "$log" | sort | uniq -c | sed 's/^/    /'
		# Each TSan race: both accesses with their first two frames.
		awk '/^  [A-Z].* of size [0-9]+ at .* by / { n = 3 }
			n > 0 { sub(/ \(.*\+0x[0-9a-f]+\)$/, ""); print "      " $0; n-- }' \
			"$log" | head -n 60
		ci_fail "$name" "sanitizer report (log $log)"
	elif [ "$rc" -eq 77 ]; then
		ci_skip "$name" "$(grep -m1 '^skip:' "$log" || echo 'skipped')"
	elif [ "$rc" -ne 0 ]; then
		grep -E 'failed|^RESULT' "$log" | head -n 5 | sed 's/^/    /'
		ci_fail "$name" "exit $rc (log $log)"
	else
		ci_pass "$name"
	fi
}

# sanitized DIR LABEL: every test of $suites, one at a time.
sanitized() {
	local dir=$1 label=$2 s t log rc t0
	for s in $suites; do
		for t in $(meson test -C "$dir" --list --suite "$s" 2>/dev/null |
				sed -n 's|^[^ ]*:[^ ]* / ||p'); do
			log="$dir/sanitize-$t.log"
			t0=$(date +%s)
			DPDK_TEST=$t timeout 900 "$dir/app/test/dpdk-test" $eal \
				--file-prefix="pmu_san_${label}_$t" >"$log" 2>&1
			rc=$?
			echo "  $label $t: exit $rc, $(($(date +%s) - t0)) s"
			judge "$label:$t" "$log" "$rc"
		done
	done
}

if [ -z "$only" ] || [ "$only" = asan ]; then
	echo "=== ASan + UBSan (build-asan)"
	if setup build-asan -Db_sanitize=address,undefined -Db_lundef=false; then
		sanitized build-asan asan
	else
		ci_fail asan-build "build failed"
	fi
fi

if [ -z "$only" ] || [ "$only" = tsan ]; then
	echo "=== TSan, rte_spinlock as __atomic builtins (build-tsan)"
	if setup build-tsan -Db_sanitize=thread -Db_lundef=false \
			-Dc_args=-DRTE_FORCE_INTRINSICS; then
		sanitized build-tsan tsan
	else
		ci_fail tsan-build "build failed"
	fi
fi

if [ -z "$only" ] || [ "$only" = valgrind ]; then
	echo "=== valgrind memcheck ($build)"
	if setup "$build"; then
		for t in $valgrind_tests; do
			log="$build/valgrind-$t.log"
			DPDK_TEST=$t timeout 600 valgrind --error-exitcode=99 --leak-check=full \
				--errors-for-leak-kinds=definite --show-leak-kinds=definite \
				"$build/app/test/dpdk-test" $eal --file-prefix="pmu_vg_$t" >"$log" 2>&1
			rc=$?
			echo "  valgrind $t: exit $rc, $(grep -E 'ERROR SUMMARY|definitely lost:' \
				"$log" | sed 's/^==[0-9]*== *//' | tr '\n' ' ')"
			judge "valgrind:$t" "$log" "$rc"
		done
	else
		ci_fail valgrind-build "build failed"
	fi
fi
ci_end sanitize
