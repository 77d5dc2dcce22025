# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# Sourced by every devtools script: messages, paths, EAL arguments, packages,
# builds, a stage's temporary folder and background processes, the counted
# checks and the RESULT line. LOG_TAG names the script (default: its name).

# shellcheck shell=bash disable=SC2034 # the variables are for the scripts

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOG_TAG=${LOG_TAG:-$(basename "$0" .sh)}

log() { echo "$LOG_TAG: [${SECONDS}s] $*"; }
die() { echo "$LOG_TAG: ERROR: $*" >&2; exit 1; }
# show FILE [N]: the last N (15) lines of FILE, indented.
show() { sed 's/^/    | /' "$1" | tail -"${2:-15}"; }
# matching ERE FILE: how many lines of FILE match ERE; 0 where FILE is not
# there yet (a program started in the background may not have opened it).
matching() { local n; n=$(grep -cE -- "$1" "$2" 2>/dev/null); echo "${n:-0}"; }

# Fail unless every named command is on PATH.
need_tools() { local t; for t in "$@"; do command -v "$t" >/dev/null || die "$t not found"; done; }

# Caches kept between runs and clones: the arm64 sysroot and kernel, and
# ccache's objects (the build folder not hashed, so that another clone
# finds them).
CACHE_DIR=${XDG_CACHE_HOME:-~/.cache}
export CCACHE_DIR=${CCACHE_DIR:-$CACHE_DIR/ccache} CCACHE_NOHASHDIR=1

ARM64_DIR=${ARM64_DIR:-$CACHE_DIR/rte_pmu/arm64}
SYSROOT=$ARM64_DIR/sysroot
ARM64_BUILD_DEFAULT=$REPO/build-arm64
CROSS_LIBC=/usr/aarch64-linux-gnu/lib
CROSS_FILE=$REPO/config/arm/arm64_armv8_linux_gcc
# "NAME SUITE SOURCE", shared with app/test/meson.build.
TEST_LIST=$REPO/app/test/tests.list
PKG_LIST=$REPO/devtools/packages.list

# EAL arguments on the host (add a --file-prefix) and in the arm64 guest.
EAL_HOST_ARGS="-l 0-1 --no-huge --no-pci --no-shconf -m 64"
EAL_GUEST_ARGS="-l 0-1 --no-huge --no-pci --no-shconf -m 128 --no-telemetry"
# Where a DPDK process keeps its runtime folder, one per --file-prefix.
if [ "$(id -u)" -eq 0 ]; then
	DPDK_RUNDIR=/var/run/dpdk
else
	DPDK_RUNDIR=${XDG_RUNTIME_DIR:-/tmp}/dpdk
fi

# Print the Debian packages of the named groups of packages.list.
pkgs_of()
{
	awk -v groups=" $* " '$1 !~ /^#/ && NF >= 2 && index(groups, " " $1 " ") {
		for (i = 2; i <= NF; i++) print $i
	}' "$PKG_LIST"
}

# Install what groups build and $@ of packages.list need.
deps() { "$REPO/devtools/install-deps.sh" "$@"; }

# Print the test commands of app/test/tests.list, all or those of suite $1.
test_names()
{
	awk -v suite="${1:-}" '$1 !~ /^#/ && NF >= 2 && (suite == "" || $2 == suite) {
		print $1
	}' "$TEST_LIST"
}

# build_if_missing DIR [MESON_SETUP_ARGS...]: configure DIR once, then build
# it ($CI_TARGETS alone when set); quiet unless it fails. RECONFIGURE=1 sets
# up a DIR configured before again with these arguments.
build_if_missing()
{
	local dir=$1 out rc=0

	shift
	out=$(mktemp)
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" "$@" >"$out" 2>&1 || rc=$?
	elif [ "${RECONFIGURE:-0}" = 1 ]; then
		meson setup --reconfigure "$dir" "$@" >"$out" 2>&1 || rc=$?
	fi
	# shellcheck disable=SC2086
	[ $rc -ne 0 ] || ninja -C "$dir" ${CI_TARGETS:-} >>"$out" 2>&1 || rc=$?
	if [ $rc -ne 0 ]; then
		tail -n 20 "$out"
		echo "$LOG_TAG: build of $dir failed"
	fi
	rm -f "$out"
	return $rc
}

# --- the stage contract: counted checks, one RESULT line -------------------
passed=0 failed=0 skipped=0
ok() { echo "  ok: $*"; passed=$((passed + 1)); }
fail() { echo "  FAIL: $*"; failed=$((failed + 1)); }
skip() { echo "  skip: $*"; skipped=$((skipped + 1)); }

# CI services set CI=true. There a guest stage (arm64, tool-guest) that
# cannot run is a failure; elsewhere a skip (SKIP_ARM64=1 leaves them out).
in_ci() { [ "${CI:-}" = true ]; }
guest_stage() { [ "$1" = arm64 ] || [ "$1" = tool-guest ]; }
guest_cannot_run()
{
	if in_ci; then
		fail "$* (CI=true: the guest checks must run)"
	else
		skip "$*"
	fi
}

# check NAME COMMAND...: one check, passed when the command succeeds (else
# the tail of its output is shown); returns the command's status.
check()
{
	local name=$1 out rc=0

	shift
	out=$(mktemp)
	"$@" >"$out" 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		ok "$name"
	else
		fail "$name (exit $rc)"
		tail -n 30 "$out" | sed 's/^/    | /'
	fi
	rm -f "$out"
	return $rc
}

result_line() { echo "RESULT passed=$passed failed=$failed skipped=$skipped"; }

# End a stage: on_finish when the stage defines it, the duration, the
# RESULT line; exit 0 only when nothing failed.
finish()
{
	! declare -F on_finish >/dev/null || on_finish
	log "took ${SECONDS} s"
	result_line
	exit $((failed > 0))
}

# stage_build [GROUPS...]: the packages of GROUPS and $build (BUILD_DIR,
# default build) built with --werror; a failure ends the stage.
build=${BUILD_DIR:-build}
# shellcheck disable=SC2120 # the groups are optional
stage_build()
{
	deps "$@" || { fail "packages"; finish; }
	build_if_missing "$build" --werror || { fail "build of $build"; finish; }
}

# stage_tmp NAME: a new folder $tmp; at exit on_cleanup runs when the stage
# defines it, the processes in pids are stopped (TERM, KILL after 10 s), and
# $tmp and the runtime folders of the DPDK file prefixes in $prefixes go.
pids=()
stage_tmp()
{
	tmp=$(mktemp -d "/tmp/$1.XXXXXX")
	trap stage_cleanup EXIT
	trap 'exit 130' INT TERM
}
stage_cleanup()
{
	local p

	! declare -F on_cleanup >/dev/null || on_cleanup
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${pids[@]}"; do
		timeout 10 tail --pid="$p" -f /dev/null 2>/dev/null || kill -9 "$p" 2>/dev/null
	done
	rm -rf "$tmp"
	for p in ${prefixes:-}; do
		rm -rf "${DPDK_RUNDIR:?}/$p"
	done
}

# run_to NAME LIMIT COMMAND...: COMMAND under timeout LIMIT, its stdout in
# $tmp/NAME.out, stderr in $tmp/NAME.err, exit status in rc.
run_to()
{
	local name=$1 limit=$2

	shift 2
	timeout "$limit" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
}

# Sum the "RESULT passed=P failed=F skipped=S" lines of a file (or stdin),
# wherever they are on the line: "P F S".
result_sum()
{
	sed -n 's/.*RESULT passed=\([0-9]*\) failed=\([0-9]*\) skipped=\([0-9]*\).*/\1 \2 \3/p' \
		"${1:--}" | awk '{p += $1; f += $2; s += $3} END {printf "%d %d %d\n", p, f, s}'
}

# Add the RESULT lines of a file to passed, failed and skipped.
tally_add()
{
	local p f s

	read -r p f s < <(result_sum "$1")
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

# tally_run LOG STATUS WHAT: tally_add LOG; a STATUS other than 0 or 77
# that LOG's RESULT lines do not account for is one failure of WHAT.
tally_run()
{
	local f0=$failed

	tally_add "$1"
	[ "$2" = 0 ] || [ "$2" = 77 ] || [ "$failed" -gt "$f0" ] || fail "$3 (exit $2)"
}

# py_check LIMIT SCRIPT OUT ARGS...: devtools/SCRIPT (python3), one "ok:"
# or "FAIL:" line a check, its output in OUT, each line tallied; no line,
# or a checker that dies or times out, is a failure.
py_check()
{
	local limit=$1 script=$2 out=$3 line n=0 rc

	shift 3
	timeout "$limit" "${python:-python3}" "$REPO/devtools/$script" "$@" >"$out" 2>&1
	rc=$?
	while IFS= read -r line; do
		n=$((n + 1))
		case $line in
		ok:*) ok "${line#ok: }" ;;
		FAIL:*) fail "${line#FAIL: }" ;;
		*) echo "  $line" ;;
		esac
	done <"$out"
	[ $n -ne 0 ] || fail "checker $script $1 printed nothing"
	[ $rc -eq 0 ] || fail "checker $script $1 exited with status $rc (124: timed out)"
}

# free_port: a free TCP port on 127.0.0.1.
free_port()
{
	/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# wait_for COMMAND SECONDS: 0 once COMMAND succeeds, 1 after SECONDS.
wait_for()
{
	local i

	for ((i = 0; i < $2 * 5; i++)); do
		eval "$1" >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	return 1
}

# prometheus_up DIR PREFIX EXPORTER_PORT PROM_PORT: usertools/dpdk-pmu-exporter
# on the DPDK process of file prefix PREFIX and a real Prometheus scraping it
# every second (files in DIR), in the background, their pids added to pids;
# 0 once both answer on 127.0.0.1 (else the logs' tails printed).
prometheus_up()
{
	local dir=$1 prefix=$2 eport=$3 pport=$4

	/usr/bin/python3 "$REPO/usertools/dpdk-pmu-exporter" -f "$prefix" -a 127.0.0.1 \
		-p "$eport" >"$dir/exporter.log" 2>&1 &
	pids+=($!)
	cat >"$dir/prometheus.yml" <<-EOF
	global:
	  scrape_interval: 1s
	  evaluation_interval: 1s
	scrape_configs:
	  - job_name: dpdk_pmu
	    scrape_interval: 1s
	    scrape_timeout: 1s
	    static_configs:
	      - targets: ['127.0.0.1:$eport']
	EOF
	timeout 120 /usr/bin/prometheus --config.file="$dir/prometheus.yml" \
		--storage.tsdb.path="$dir/tsdb" --web.listen-address="127.0.0.1:$pport" \
		--log.level=warn >"$dir/prometheus.log" 2>&1 &
	pids+=($!)
	if ! wait_for "curl -sf http://127.0.0.1:$eport/metrics" 10; then
		tail -5 "$dir/exporter.log"
		return 1
	fi
	if ! wait_for "curl -sf http://127.0.0.1:$pport/-/ready" 30; then
		tail -5 "$dir/prometheus.log"
		return 1
	fi
}
