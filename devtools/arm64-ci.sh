#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

# CI stage: real hardware counters, checked in an emulated arm64 guest.
#   1. host packages (devtools/packages.list, groups build and arm64),
#      installed when missing
#   2. devtools/arm64-sysroot.sh   private arm64 sysroot + kernel (once)
#   3. devtools/arm64-build.sh     cross build in build-arm64
#   4. devtools/arm64-qemu-test.sh boot the guest, run the command list
#   5. devtools/ci_pipeline_check.py guest: the pipeline example's runs
# Exit status: that of the guest run (0 pass, 1 fail, 77 skipped because a
# tool is missing and cannot be installed); 1 when a step before it fails.
# The last line is the guest's summary:
#   arm64 guest: N passed, N failed, N skipped
#
# Usage: devtools/arm64-ci.sh [BUILD_DIR]   (environment: see the scripts above)

set -o pipefail

LOG_TAG=arm64-ci
# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"

BUILD=${1:-$ARM64_BUILD_DEFAULT}
TOOLS="qemu-system-aarch64 aarch64-linux-gnu-gcc aarch64-linux-gnu-readelf cpio gzip meson ninja
	pkg-config"

finish()
{
	local rc=$1 summary=$2

	log "exit $rc"
	echo "${summary:-arm64 guest: 0 passed, 0 failed, 0 skipped (not run)}"
	exit "$rc"
}

# 1. Host packages.
pkgs_install build arm64 || log "could not install every package"
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
stamp=$(mktemp)
trap 'rm -f "$out" "$out.pipeline" "$stamp"' EXIT
"$REPO/devtools/arm64-qemu-test.sh" "$BUILD" | tee "$out"
rc=${PIPESTATUS[0]}

# 5. The pipeline example's guest runs (devtools/arm64-guest.cmds), checked
# from the console: exact instructions per packet per stage.
console=${ARM64_OUT:-$BUILD}/arm64-guest.log
if [ "$console" -nt "$stamp" ] && grep -q '^=== RUN pipeline-' "$console"; then
	log "pipeline example: exact figures"
	python3 "$REPO/devtools/ci_pipeline_check.py" guest "$console" > "$out.pipeline" 2>&1
	sed 's/^/  /' "$out.pipeline"
	read -r p f < <(awk '/^ok:/ {p++} /^FAIL:/ {f++} END {print p + 0, f + 0}' \
		"$out.pipeline")
	[ "$p" -gt 0 ] || f=$((f + 1))
	result_line "$p" "$f" 0
	[ "$f" -eq 0 ] || rc=1
fi
finish "$rc" "$(grep '^arm64 guest: ' "$out" | tail -n1)"
