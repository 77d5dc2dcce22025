#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

# CI stage: real hardware counters, checked in an emulated arm64 guest.
#   1. host packages (cross compiler, QEMU, ...), installed when missing
#   2. devtools/arm64-sysroot.sh   private arm64 sysroot + kernel (once)
#   3. devtools/arm64-build.sh     cross build in build-arm64
#   4. devtools/arm64-qemu-test.sh boot the guest, run the command list
# Exit status: that of the guest run (0 pass, 1 fail, 77 skipped because a
# tool is missing and cannot be installed); 1 when a step before it fails.
# The last line is the guest's summary:
#   arm64 guest: N passed, N failed, N skipped
#
# Usage: devtools/arm64-ci.sh [BUILD_DIR]   (environment: see the scripts above)

set -o pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$REPO/build-arm64}
PKGS="qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross cpio gzip meson ninja-build pkgconf"
TOOLS="qemu-system-aarch64 aarch64-linux-gnu-gcc aarch64-linux-gnu-readelf cpio gzip meson ninja pkg-config"

log()
{
	echo "arm64-ci: [${SECONDS}s] $*"
}

finish()
{
	local rc=$1 summary=$2
	log "exit $rc"
	echo "${summary:-arm64 guest: 0 passed, 0 failed, 0 skipped (not run)}"
	exit "$rc"
}

# 1. Host packages.
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		log "installing$missing"
		export DEBIAN_FRONTEND=noninteractive
		{ apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing; } ||
			log "apt-get install failed"
	else
		log "missing packages:$missing (not root: not installing)"
	fi
fi
for t in $TOOLS; do
	if ! command -v "$t" >/dev/null; then
		echo "SKIP: $t not found and could not be installed: arm64 guest tests not run"
		finish 77 "arm64 guest: 0 passed, 0 failed, 0 skipped (SKIP: no $t)"
	fi
done

# 2. Sysroot.
log "sysroot"
"$REPO/devtools/arm64-sysroot.sh" || { log "FAIL: sysroot"; finish 1; }

# 3. Cross build.
log "cross build in $BUILD"
"$REPO/devtools/arm64-build.sh" "$BUILD" || { log "FAIL: cross build"; finish 1; }

# 4. Guest.
log "guest"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$REPO/devtools/arm64-qemu-test.sh" "$BUILD" | tee "$out"
rc=${PIPESTATUS[0]}
finish "$rc" "$(grep '^arm64 guest: ' "$out" | tail -n1)"
