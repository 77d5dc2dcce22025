#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: libFuzzer (clang, coverage, ASan, UBSan) on the event-name and
# sysfs parsers (app/test/fuzz/): each target FUZZ_TIME (30) seconds from its
# corpus, FUZZ_JOBS (2) at a time; a crash, a sanitizer report or an
# undocumented return code fails it (its input kept). FUZZ_MERGE=1 merges
# what adds coverage into the corpus. Environment: FUZZ_BUILD_DIR
# (build-fuzz), FUZZ_TARGETS, FUZZ_PART (build or run: that part alone).
set -uo pipefail
# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1

build=${FUZZ_BUILD_DIR:-build-fuzz}
fuzz_time=${FUZZ_TIME:-30}
jobs=${FUZZ_JOBS:-2}
targets=${FUZZ_TARGETS:-"event_name sysfs_type sysfs_events sysfs_format"}

deps fuzz || { fail "fuzz-setup: packages"; finish; }

# FUZZ_PART=build builds the targets alone; FUZZ_PART=run runs those built.
if [ "${FUZZ_PART:-}" != run ]; then
	echo "=== fuzz: library with clang, coverage, ASan, UBSan ($build)"
	# Meson puts ccache before the compiler it finds, not before CC's.
	cc=clang
	! command -v ccache >/dev/null || cc="ccache clang"
	CC=$cc CI_TARGETS=lib/librte_pmu.a build_if_missing "$build" -Db_sanitize=address,undefined \
		-Db_lundef=false -Dc_args="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all" ||
		{ fail "fuzz-build: library"; finish; }

	mkdir -p "$build/fuzz"
	# The library's own link dependencies (libpfm when found), from its .pc file.
	private_libs=$(sed -n 's/^Libs.private: //p' "$build/meson-private/librte_pmu.pc")
	cflags="-g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined
		-fno-sanitize-recover=all -DALLOW_EXPERIMENTAL_API -DALLOW_INTERNAL_API
		-Ilib/pmu -Iapp/test -Iapp/test/fuzz $(pkg-config --cflags libdpdk)"
	for t in $targets; do
		# shellcheck disable=SC2086,SC2046
		clang $cflags -o "$build/fuzz/fuzz_$t" app/test/fuzz/fuzz_$t.c \
			app/test/fuzz/fuzz_common.c app/test/test_pmu_fixture.c \
			-Wl,--whole-archive "$build/lib/librte_pmu.a" -Wl,--no-whole-archive \
			$private_libs $(pkg-config --libs libdpdk) -lnuma -lpthread ||
			{ fail "fuzz_$t: build"; finish; }
	done
fi
[ "${FUZZ_PART:-}" != build ] || finish

# Run one target; its log in $build/fuzz/<target>.log.
fuzz_one() {
	local t=$1 dir="$build/fuzz"
	rm -rf "$dir/corpus_$t" "$dir/$t-"*
	mkdir -p "$dir/corpus_$t"
	"$dir/fuzz_$t" -max_total_time="$fuzz_time" -print_final_stats=1 \
		-dict="app/test/fuzz/$t.dict" -artifact_prefix="$dir/$t-" \
		-max_len=1024 "$dir/corpus_$t" "app/test/fuzz/corpus/$t" >"$dir/$t.log" 2>&1
}

echo "=== fuzz: $targets, ${fuzz_time} s each, $jobs at a time"
for t in $targets; do
	fuzz_one "$t" &
	[ "$(jobs -rp | wc -l)" -lt "$jobs" ] || wait -n
done
wait

for t in $targets; do
	log="$build/fuzz/$t.log"
	# The final stats and the last status line's cov, ft and corp.
	awk -v t="$t" '/^stat::number_of_executed_units:/ { x = $2 }
		/^stat::average_exec_per_sec:/ { r = $2 }
		/^#[0-9]+/ { for (i = 1; i < NF; i++) v[$i] = $(i + 1) }
		END { printf "fuzz_%s: execs=%s (%s/s) cov=%s ft=%s corpus=%s\n", t, x ? x : "?",
			r ? r : "?", v["cov:"] ? v["cov:"] : "?", v["ft:"] ? v["ft:"] : "?",
			v["corp:"] ? v["corp:"] : "?" }' "$log"
	crash=$(compgen -G "$build/fuzz/$t-*" | head -n 1)
	if [ -n "$crash" ] || ! grep -q '^stat::number_of_executed_units' "$log" ||
			grep -qE 'ERROR: (AddressSanitizer|libFuzzer)|runtime error:|FUZZ CHECK FAILED' "$log"; then
		grep -E 'FUZZ CHECK FAILED|ERROR:|runtime error:|SUMMARY|^    #[0-9] ' "$log" | head -n 30
		if [ -n "$crash" ]; then
			# The library's own log lines for that input (the targets
			# print them only with FUZZ_LOG=1).
			echo "library log for $crash:"
			FUZZ_LOG=1 timeout 60 "$build/fuzz/fuzz_$t" "$crash" 2>&1 |
				grep '^PMU: ' | tail -n 20
		fi
		fail "fuzz_$t: input kept in ${crash:-$log}"
	else
		ok "fuzz_$t"
	fi
	if [ "${FUZZ_MERGE:-0}" = 1 ]; then
		"$build/fuzz/fuzz_$t" -merge=1 "app/test/fuzz/corpus/$t" \
			"$build/fuzz/corpus_$t" >"$build/fuzz/$t-merge.log" 2>&1 &&
			log "$t: $(grep -m1 'MERGE-OUTER: .* new files' "$build/fuzz/$t-merge.log")"
	fi
done
finish
