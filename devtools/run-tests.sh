#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# Run every test stage (devtools/ci-NAME.sh, or a function below), two at a
# time where the checks allow, and sum their RESULT lines. A stage that exits
# non-zero without a failure counted is one failure; one that exits 77 is one
# skip (with CI=true, a guest stage that exits 77 is a failure). Ends with the
# stage times and "N passed, N failed, N skipped"; exit 0 when none failed.
# Environment: SKIP_ARM64=1 (leave out the guest stages: one skip, one
# failure with CI=true), CI=true, STAGES="a b" (only these), BUILD_DIR.
set -uo pipefail

LOG_TAG=run-tests
# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
times=""

# cpu_ms VAR: CPU time of this shell's finished children in ms, into VAR
# (through a file: a command substitution's times are its own).
cpu_ms()
{
	local f=$work/times.$BASHPID t

	times >"$f"
	t=$(tail -n 1 "$f")
	printf -v "$1" '%d' "$(awk -v t="$t" 'BEGIN { split(t, a, /[ ms]+/)
		print int((a[1] * 60 + a[2] + a[3] * 60 + a[4]) * 1000) }')"
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

selected() { [ -z "${STAGES:-}" ] || [[ " $STAGES " == *" $1 "* ]]; }

# stage_cmd NAME: run stage NAME, in a subshell (its own counters).
stage_cmd()
{
	case $1 in
	build | fast | install | arm64) ("$1_stage") ;;
	tool) TOOL_PART=host bash devtools/ci-tool.sh ;;
	tool-guest) TOOL_PART=guest bash devtools/ci-tool.sh ;;
	fuzz-build) FUZZ_PART=build bash devtools/ci-fuzz.sh ;;
	fuzz) FUZZ_PART=$([ -f "$work/fuzz-build.done" ] && echo run) bash devtools/ci-fuzz.sh ;;
	*) bash "devtools/ci-$1.sh" ;;
	esac
}

# run_one NAME [tee]: run stage NAME, its output in $work/NAME.out (and on
# stdout with tee), "STATUS WALL_S CPU_MS START_S" in $work/NAME.done.
run_one()
{
	local t0=$SECONDS c0 c1 rc

	cpu_ms c0
	if [ "${2:-}" = tee ]; then
		stage_cmd "$1" 2>&1 | tee "$work/$1.out"
		rc=${PIPESTATUS[0]}
	else
		stage_cmd "$1" >"$work/$1.out" 2>&1
		rc=$?
	fi
	cpu_ms c1
	echo "$rc $((SECONDS - t0)) $((c1 - c0)) $t0" >"$work/$1.done"
}

# tally NAME [NOTE]: add a finished stage's RESULT lines and exit status
# (see the header); its line of the table.
tally()
{
	local rc wall cpu t0 p0=$passed f0=$failed s0=$skipped

	read -r rc wall cpu t0 <"$work/$1.done"
	tally_add "$work/$1.out"
	if [ "$rc" -eq 77 ] && in_ci && guest_stage "$1"; then
		echo "!!! stage $1 FAILED: it could not run (exit 77), and with CI=true the" \
			"guest stages must run"
		failed=$((failed + 1))
	elif [ "$rc" -eq 77 ] && [ $((passed + failed + skipped)) -eq $((p0 + f0 + s0)) ]; then
		echo "!!! stage $1 SKIPPED (see its output above for why)"
		skipped=$((skipped + 1))
	elif [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && [ "$failed" -eq "$f0" ]; then
		echo "!!! stage $1 FAILED with exit status $rc"
		failed=$((failed + 1))
	fi
	times+="$(printf '  %-12s %5ds  cpu %5ds  exit %-3d %4d/%d/%d%s' "$1" "$wall" \
		$(((cpu + 500) / 1000)) "$rc" $((passed - p0)) $((failed - f0)) \
		$((skipped - s0)) "${2:+  ($2 from ${t0}s)}")"$'\n'
}

# stage NAME: run a stage in the foreground (in a subshell, as lanes are: a
# lane that ends meanwhile adds its CPU time to this shell's).
stage() { ! selected "$1" || { echo "=== stage $1"; (run_one "$1" tee); tally "$1"; }; }

# lane ID [--cpu0] NAME...: these stages one after the other in the
# background (--cpu0: at nice 19 on CPU 0, where the foreground stages keep
# their mostly idle main lcore); lane_join ID shows and tallies them.
lane()
{
	local id=$1 s list="" cpu0=""

	shift
	[ "$1" != --cpu0 ] || { cpu0=1; shift; }
	for s in "$@"; do ! selected "$s" || list+=" $s"; done
	declare -g "lane_$id=$list"
	[ -n "$list" ] || return 0
	echo "=== in the background${cpu0:+ at nice 19 on CPU 0} (output when each ends):$list"
	(
		trap - EXIT
		if [ -n "$cpu0" ]; then
			renice -n 19 -p "$BASHPID" >/dev/null
			taskset -cp 0 "$BASHPID" >/dev/null
		fi
		for s in $list; do run_one "$s"; done
	) &
	declare -g "lane_pid_$id=$!"
}

lane_join()
{
	local s pid=lane_pid_$1 list=lane_$1

	[ -n "${!list}" ] || return 0
	wait "${!pid}"
	for s in ${!list}; do
		# A lane killed before a stage ended: that stage fails, seen.
		if [ ! -f "$work/$s.done" ]; then
			echo "!!! stage $s FAILED: its lane ended before it did"
			failed=$((failed + 1))
			continue
		fi
		echo "=== stage $s (ran in the background)"
		cat "$work/$s.out"
		tally "$s" background
	done
}

build_stage()
{
	local arm64=""

	[ "${SKIP_ARM64:-0}" = 1 ] || arm64=arm64
	# Every stage's packages in one apt-get (two at once would fail); a
	# build/ of run-tool.sh is set up again with --werror and what meson
	# finds now (sphinx for the man pages).
	deps $arm64 doc package sanitize fuzz observe tool &&
		RECONFIGURE=1 build_if_missing "$build" --werror
}

fast_stage()
{
	local rc

	meson test -C "$build" --suite fast-tests --print-errorlogs --no-rebuild >/dev/null
	rc=$?
	grep -E '^(RESULT|skip:|exact counts)' "$build/meson-logs/testlog.txt" | sed 's/^/  x86_64: /'
	python3 devtools/check-structure.py "$build" || rc=1
	python3 devtools/check-symbols.py "$build" || rc=1
	return $rc
}

install_stage()
{
	passed=0 failed=0 skipped=0	# a subshell: its own counters
	check "install check" devtools/check-install.sh
	result_line
}

arm64_stage()
{
	local rc

	devtools/arm64-ci.sh
	rc=$?
	if [ "$rc" -eq 77 ]; then
		echo "!!! SKIPPED: the arm64 guest stage could not run (see above): user-space"
		echo "!!! counter reads were NOT tested on real counters in this run"
	fi
	return $rc
}

stage build
if [ "$failed" -ne 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
	exit 1
fi
stage fast
# Two at a time (two CPUs): the guest, faults, tortures and graph in the
# background while the foreground builds and checks; then, each alone, the
# stages that time things or pin workers to CPU 1, and reinstall (into
# /usr/local), beside the time-bounded fuzzers on CPU 0 at nice 19.
guest="arm64 tool-guest"
if [ "${SKIP_ARM64:-0}" = 1 ] && in_ci; then
	echo "!!! arm64 guest stages FAILED: SKIP_ARM64=1 with CI=true (in CI they must run)"
	failed=$((failed + 1))
	guest=""
elif [ "${SKIP_ARM64:-0}" = 1 ]; then
	echo "=== arm64 guest stages skipped (SKIP_ARM64=1)"
	skipped=$((skipped + 1))
	guest=""
fi
# shellcheck disable=SC2086 # $guest: none, one or two stages
lane guest $guest faults torture graph
for s in install events doc package sanitize observe fuzz-build; do
	stage "$s"
done
FUZZ_JOBS=${FUZZ_JOBS:-1} lane fuzz --cpu0 fuzz
lane_join guest
for s in tool pipeline run reinstall perf; do
	stage "$s"
done
lane_join fuzz

echo "=== stage times, checks passed/failed/skipped"
printf '%s' "$times"
echo "  total        ${SECONDS}s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
