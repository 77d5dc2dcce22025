# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# Sourced by the devtools scripts: messages, the tree's paths, the EAL
# arguments, the package list and the RESULT tally, written once.
#
#   . "$(dirname "$0")/lib.sh"
#
# Set LOG_TAG before sourcing to name the script in its messages (default:
# the script's file name without .sh).

# shellcheck shell=bash

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOG_TAG=${LOG_TAG:-$(basename "$0" .sh)}

# --- messages --------------------------------------------------------------

log()
{
	echo "$LOG_TAG: [${SECONDS}s] $*"
}

die()
{
	echo "$LOG_TAG: ERROR: $*" >&2
	exit 1
}

# Fail unless every named command is on PATH.
need_tools()
{
	local t

	for t in "$@"; do
		command -v "$t" >/dev/null || die "$t not found"
	done
}

# --- paths -----------------------------------------------------------------

# The arm64 sysroot and kernel (devtools/arm64-sysroot.sh), the default
# cross build folder, the cross toolchain's C runtime and the cross file.
ARM64_DIR=${ARM64_DIR:-$REPO/.arm64}
SYSROOT=$ARM64_DIR/sysroot
ARM64_BUILD_DEFAULT=$REPO/build-arm64
CROSS_LIBC=/usr/aarch64-linux-gnu/lib
CROSS_FILE=$REPO/config/arm/arm64_armv8_linux_gcc

# The test list shared with app/test/meson.build: "NAME SUITE SOURCE".
TEST_LIST=$REPO/app/test/tests.list

# --- EAL arguments ---------------------------------------------------------

# On the x86_64 host (add a unique --file-prefix) and in the arm64 guest
# (-smp 2, 1 GiB: --no-huge needs -m, there is no telemetry socket folder).
EAL_HOST_ARGS="-l 0-1 --no-huge --no-pci --no-shconf -m 64"
EAL_GUEST_ARGS="-l 0-1 --no-huge --no-pci --no-shconf -m 128 --no-telemetry"

# --- packages --------------------------------------------------------------

PKG_LIST=$REPO/devtools/packages.list

# Print the Debian packages of the named groups of devtools/packages.list.
pkgs_of()
{
	awk -v groups=" $* " '$1 !~ /^#/ && NF >= 2 && index(groups, " " $1 " ") {
		for (i = 2; i <= NF; i++) print $i
	}' "$PKG_LIST"
}

# Print the packages of the named groups that are not installed.
pkgs_missing()
{
	local p

	for p in $(pkgs_of "$@"); do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			echo "$p"
	done
}

# Install the missing packages of the named groups. Returns non-zero when
# some are missing and cannot be installed (not root, apt-get failed).
pkgs_install()
{
	local missing

	missing=$(pkgs_missing "$@" | tr '\n' ' ')
	[ -n "$missing" ] || return 0
	if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
		log "missing packages: $missing(run as root to install them)"
		return 1
	fi
	log "installing $missing"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			$missing >/dev/null
}

# --- tests -----------------------------------------------------------------

# Print the test commands of app/test/tests.list, all or those of @1 suite.
test_names()
{
	awk -v suite="${1:-}" '$1 !~ /^#/ && NF >= 2 && (suite == "" || $2 == suite) {
		print $1
	}' "$TEST_LIST"
}

# --- RESULT tally ----------------------------------------------------------

# Sum the "RESULT passed=P failed=F skipped=S" lines of a file (or of
# stdin), wherever they are on the line (a console adds prefixes); print
# "P F S".
result_sum()
{
	sed -n 's/.*RESULT passed=\([0-9]*\) failed=\([0-9]*\) skipped=\([0-9]*\).*/\1 \2 \3/p' \
		"${1:--}" | awk '{p += $1; f += $2; s += $3} END {printf "%d %d %d\n", p, f, s}'
}

# Add the RESULT lines of a file to the caller's passed, failed and
# skipped counters.
tally_add()
{
	local p f s

	read -r p f s < <(result_sum "$1")
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

# The stage contract's line, from the counters.
result_line()
{
	echo "RESULT passed=$1 failed=$2 skipped=$3"
}
