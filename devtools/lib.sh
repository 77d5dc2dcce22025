# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# Sourced by every devtools script: messages, paths, EAL arguments, the
# package list, build-if-missing, the counted checks and the RESULT line.
# LOG_TAG names the script in messages (default: its file name).

# shellcheck shell=bash

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOG_TAG=${LOG_TAG:-$(basename "$0" .sh)}

log() { echo "$LOG_TAG: [${SECONDS}s] $*"; }
die() { echo "$LOG_TAG: ERROR: $*" >&2; exit 1; }

# Fail unless every named command is on PATH.
need_tools() { local t; for t in "$@"; do command -v "$t" >/dev/null || die "$t not found"; done; }

# Caches kept between runs and clones on this machine: the arm64 sysroot
# and kernel (arm64-sysroot.sh, stamped with what made them), and ccache's
# objects (meson compiles through ccache where it is installed). The build
# folder is not hashed, so that a fresh clone elsewhere finds the objects of
# the last one (its debug info then names that clone's folder).
CACHE_DIR=${XDG_CACHE_HOME:-~/.cache}
export CCACHE_DIR=${CCACHE_DIR:-$CACHE_DIR/ccache} CCACHE_NOHASHDIR=1

# The arm64 sysroot and kernel, the default cross build, the cross
# toolchain's C runtime and the cross file.
ARM64_DIR=${ARM64_DIR:-$CACHE_DIR/rte_pmu/arm64}
SYSROOT=$ARM64_DIR/sysroot
ARM64_BUILD_DEFAULT=$REPO/build-arm64
CROSS_LIBC=/usr/aarch64-linux-gnu/lib
CROSS_FILE=$REPO/config/arm/arm64_armv8_linux_gcc
# "NAME SUITE SOURCE", shared with app/test/meson.build.
TEST_LIST=$REPO/app/test/tests.list

# EAL arguments on the x86_64 host (add a --file-prefix) and in the arm64
# guest (1 GiB: --no-huge needs -m; no telemetry socket folder there).
EAL_HOST_ARGS="-l 0-1 --no-huge --no-pci --no-shconf -m 64"
EAL_GUEST_ARGS="-l 0-1 --no-huge --no-pci --no-shconf -m 128 --no-telemetry"

PKG_LIST=$REPO/devtools/packages.list

# Print the Debian packages of the named groups of packages.list.
pkgs_of()
{
	awk -v groups=" $* " '$1 !~ /^#/ && NF >= 2 && index(groups, " " $1 " ") {
		for (i = 2; i <= NF; i++) print $i
	}' "$PKG_LIST"
}

# Install what groups build and $@ of packages.list need (install-deps.sh).
deps() { "$REPO/devtools/install-deps.sh" "$@"; }

# Print the test commands of app/test/tests.list, all or those of suite $1.
test_names()
{
	awk -v suite="${1:-}" '$1 !~ /^#/ && NF >= 2 && (suite == "" || $2 == suite) {
		print $1
	}' "$TEST_LIST"
}

# build_if_missing DIR [MESON_SETUP_ARGS...]: configure DIR once, then
# build it (only $CI_TARGETS when set); quiet unless it fails. With
# RECONFIGURE=1, a DIR configured before (by run-tool.sh, say, without
# --werror, or before sphinx was installed) is set up again with these
# arguments (meson setup --reconfigure): it then has them, and what meson
# finds now.
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
# cannot run (no QEMU, no sysroot, no cross build) is a failure, not a
# skip: real counters must be tested. Elsewhere it is a skip, and
# SKIP_ARM64=1 leaves the guest stages out.
in_ci() { [ "${CI:-}" = true ]; }
guest_stage() { [ "$1" = arm64 ] || [ "$1" = tool-guest ]; }
# guest_cannot_run MSG: a guest check that cannot run: a skip, in CI a failure.
guest_cannot_run()
{
	if in_ci; then
		fail "$* (CI=true: the guest checks must run)"
	else
		skip "$*"
	fi
}

# check NAME COMMAND...: one check, passed when the command succeeds; else
# the tail of its output is shown. Returns the command's success.
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

# Sum the "RESULT passed=P failed=F skipped=S" lines of a file (or stdin),
# wherever they are on the line (a console adds prefixes): "P F S".
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

# py_check LIMIT SCRIPT OUT ARGS...: run devtools/SCRIPT (python3), which
# prints one "ok: ..." or "FAIL: ..." line per check, its output in OUT, and
# tally those lines; no line, or a checker that dies or times out, is a
# failure. The one reader of the stages' python checkers.
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
# on the DPDK process of file prefix PREFIX and a real Prometheus scraping
# it every second (data and logs in DIR), in the background, their pids
# added to the caller's array pids; 0 once both answer on 127.0.0.1 (the
# logs' tails printed otherwise).
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
	return 0
}
