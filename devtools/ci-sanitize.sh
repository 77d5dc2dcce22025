#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: the tests under sanitizers, each build in its own folder:
# ASan + UBSan (build-asan) and TSan (build-tsan, clang, rte_spinlock as
# __atomic builtins TSan sees) on fast-tests and torture-tests; valgrind
# memcheck on the unit tests ($build). A test fails unless meson says OK or
# SKIP, or on any sanitizer report (no suppressions). Sanitizer builds go
# without --werror (GCC's flow warnings on instrumented code) and examples;
# test_pmu_guide_options (78 s under TSan) runs in the fast stage.
# Environment: BUILD_DIR, SANITIZE_ONLY (asan, tsan or valgrind).
set -uo pipefail
# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1

only=${SANITIZE_ONLY:-}
suites="fast-tests torture-tests"
unsanitized=test_pmu_guide_options
valgrind_tests="pmu_autotest pmu_event_autotest pmu_sysfs_autotest pmu_format_autotest"
reports='ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|WARNING: ThreadSanitizer'
eal=$EAL_HOST_ARGS

export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:exitcode=23
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# atexit_sleep_ms=0: dpdk-test has stopped its lcores before it exits.
export TSAN_OPTIONS=halt_on_error=0:exitcode=66:second_deadlock_stack=1:atexit_sleep_ms=0

deps sanitize || { fail "sanitize-setup: packages"; finish; }

# judge NAME LOG VERDICT: one test from its output and meson's verdict.
judge()
{
	local name=$1 log=$2 verdict=$3
	if grep -qE "$reports" "$log"; then
		grep -E "^SUMMARY: |$reports" "$log" | sort | uniq -c | sed 's/^/    /'
		# Each TSan race: both accesses with their first two frames.
		awk '/^  [A-Z].* of size [0-9]+ at .* by / { n = 3 }
			n > 0 { sub(/ \(.*\+0x[0-9a-f]+\)$/, ""); print "      " $0; n-- }' \
			"$log" | head -n 60
		fail "$name: sanitizer report (log $log)"
	elif [ "$verdict" = SKIP ]; then
		skip "$name: $(grep -m1 '^skip:' "$log" || echo 'skipped')"
	elif [ "$verdict" != OK ]; then
		grep -E 'failed|^RESULT' "$log" | head -n 5 | sed 's/^/    /'
		fail "$name: $verdict (log $log)"
	else
		ok "$name"
	fi
}

# no_plugins COMMAND...: COMMAND with DPDK's plugin folder (128 drivers,
# a second of each TSan start) hidden by an empty mount, where allowed.
no_plugins()
{
	local d
	d=$(compgen -G "$(pkg-config --variable=libdir libdpdk)/dpdk/pmds-*" | head -n 1)
	if [ -n "$d" ] && unshare --mount true 2>/dev/null; then
		# shellcheck disable=SC2016 # expanded by that sh
		unshare --mount sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh \
			"$tmp_empty" "$d" "$@"
	else
		"$@"
	fi
}
tmp_empty=$(mktemp -d)
trap 'rmdir "$tmp_empty"' EXIT

# sanitized DIR LABEL: the tests of $suites in one meson run, one at a
# time; each one's output from meson's JSON log into DIR/sanitize-NAME.log.
sanitized()
{
	local dir=$1 label=$2 tests t verdict
	tests=$(for s in $suites; do meson test -C "$dir" --list --suite "$s" 2>/dev/null; done |
		sed -n 's|^[^ ]*:[^ ]* / ||p' | grep -vx "$unsanitized")
	rm -f "$dir"/sanitize-*.log "$dir/meson-logs/testlog.json"
	# shellcheck disable=SC2086
	no_plugins meson test -C "$dir" --no-rebuild --num-processes 1 --timeout-multiplier 4 \
		$tests >"$dir/sanitize-meson.log" 2>&1
	python3 - "$dir" >"$dir/sanitize-verdicts" 2>&1 <<-'EOF'
	import json, sys
	for line in open(sys.argv[1] + '/meson-logs/testlog.json'):
	    r = json.loads(line)
	    t = r['name'].split(' / ')[-1]
	    with open('%s/sanitize-%s.log' % (sys.argv[1], t), 'w') as f:
	        f.write((r.get('stdout') or '') + (r.get('stderr') or ''))
	    print('%s %s %.2fs' % (t, r['result'], r['duration']))
	EOF
	for t in $tests; do
		verdict=$(sed -n "s/^$t //p" "$dir/sanitize-verdicts")
		[ -f "$dir/sanitize-$t.log" ] || tail -n 20 "$dir/sanitize-meson.log" >"$dir/sanitize-$t.log"
		echo "  $label $t: ${verdict:-no verdict: not in the meson log}"
		judge "$label:$t" "$dir/sanitize-$t.log" "${verdict%% *}"
	done
}

if [ -z "$only" ] || [ "$only" = asan ]; then
	echo "=== ASan + UBSan (build-asan)"
	if build_if_missing build-asan -Db_sanitize=address,undefined -Db_lundef=false \
			-Dexamples=; then
		sanitized build-asan asan
	else
		fail "asan-build: build failed"
	fi
fi

if [ -z "$only" ] || [ "$only" = tsan ]; then
	echo "=== TSan, clang, rte_spinlock as __atomic builtins (build-tsan)"
	# A build-tsan of another compiler is set up anew.
	if [ -f build-tsan/build.ninja ] && ! grep -q '^C compiler for the host machine: clang' \
			build-tsan/meson-logs/meson-log.txt 2>/dev/null; then
		rm -rf build-tsan
	fi
	if CC=clang build_if_missing build-tsan -Db_sanitize=thread -Db_lundef=false \
			-Dc_args=-DRTE_FORCE_INTRINSICS -Dexamples=; then
		sanitized build-tsan tsan
	else
		fail "tsan-build: build failed"
	fi
fi

if [ -z "$only" ] || [ "$only" = valgrind ]; then
	echo "=== valgrind memcheck ($build)"
	if build_if_missing "$build" --werror; then
		for t in $valgrind_tests; do
			log="$build/valgrind-$t.log"
			# shellcheck disable=SC2086
			DPDK_TEST=$t no_plugins timeout 600 valgrind --error-exitcode=99 \
				--leak-check=full --errors-for-leak-kinds=definite \
				--show-leak-kinds=definite \
				"$build/app/test/dpdk-test" $eal --file-prefix="pmu_vg_$t" >"$log" 2>&1
			rc=$?
			echo "  valgrind $t: exit $rc, $(grep -E 'ERROR SUMMARY|definitely lost:' \
				"$log" | sed 's/^==[0-9]*== *//' | tr '\n' ' ')"
			verdict=OK
			[ "$rc" -eq 0 ] || verdict="exit $rc"
			judge "valgrind:$t" "$log" "$verdict"
		done
	else
		fail "valgrind-build: build failed"
	fi
fi
finish
