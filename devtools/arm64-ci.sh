#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: real hardware counters, checked in an emulated arm64 guest:
# packages (install-deps.sh --arm64), arm64-sysroot.sh (once), the cross
# build (arm64-build.sh), the guest run (arm64-qemu-test.sh), then the
# pipeline example's guest runs checked from the console (exact figures:
# ci_pipeline_check.py guest), then a second boot with two NUMA nodes
# (arm64-guest-numa.cmds: the stage tests, each lcore's stage state on its
# own node). Exit status that of the guest run (77: a tool
# missing and not installable, 1 for that with CI=true); 1 when a step
# before it or the pipeline check fails. Last line: "arm64 guest: N passed, N failed, N skipped".
# Usage: devtools/arm64-ci.sh [BUILD_DIR]   (environment: see those scripts)
set -o pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"

BUILD=${1:-$ARM64_BUILD_DEFAULT}

# end RC [SUMMARY]: the guest's summary line, or one saying it did not run.
end()
{
	log "exit $1"
	echo "${2:-arm64 guest: 0 passed, 0 failed, 0 skipped (not run)}"
	exit "$1"
}

deps arm64 || log "could not install every package"
for t in qemu-system-aarch64 aarch64-linux-gnu-gcc aarch64-linux-gnu-readelf cpio gzip meson \
		ninja pkg-config; do
	if ! command -v "$t" >/dev/null; then
		if in_ci; then
			echo "FAIL: $t not found and could not be installed: arm64 guest tests" \
				"not run (CI=true: they must run)"
			end 1 "arm64 guest: 0 passed, 1 failed, 0 skipped (FAIL: no $t, CI=true)"
		fi
		echo "SKIP: $t not found and could not be installed: arm64 guest tests not run"
		end 77 "arm64 guest: 0 passed, 0 failed, 0 skipped (SKIP: no $t)"
	fi
done
log "sysroot"
"$REPO/devtools/arm64-sysroot.sh" || { log "FAIL: sysroot"; end 1; }
log "cross build in $BUILD"
"$REPO/devtools/arm64-build.sh" "$BUILD" || { log "FAIL: cross build"; end 1; }
log "guest"
out=$(mktemp)
stamp=$(mktemp)
numa_out=$(mktemp -d)
trap 'rm -rf "$out" "$out.pipeline" "$out.numa" "$stamp" "$numa_out"' EXIT
"$REPO/devtools/arm64-qemu-test.sh" "$BUILD" | tee "$out"
rc=${PIPESTATUS[0]}
# The pipeline example's runs of this boot (devtools/arm64-guest.cmds): each
# stage's instructions per packet the same in two runs; one RESULT line.
console=${ARM64_OUT:-$BUILD}/arm64-guest.log
if [ "$console" -nt "$stamp" ] && grep -q '^=== RUN pipeline-' "$console"; then
	log "pipeline example: exact figures"
	python3 "$REPO/devtools/ci_pipeline_check.py" guest "$console" >"$out.pipeline" 2>&1
	sed 's/^/  /' "$out.pipeline"
	read -r passed failed < <(awk '/^ok:/ {p++} /^FAIL:/ {f++} END {print p + 0, f + 0}' \
		"$out.pipeline")
	[ "$passed" -gt 0 ] || failed=$((failed + 1))
	result_line
	[ "$failed" -eq 0 ] || rc=1
fi
# The NUMA boot: test_stage_numa must run there, not skip.
log "guest with two NUMA nodes"
ARM64_NUMA=1 ARM64_GUEST_CMDS="$REPO/devtools/arm64-guest-numa.cmds" ARM64_OUT=$numa_out \
	"$REPO/devtools/arm64-qemu-test.sh" "$BUILD" >"$out.numa" 2>&1
nrc=$?
grep -E 'stage state on node|TestCase|^arm64 guest: ' "$out.numa" | sed 's/^/  numa | /'
# Its dpdk-test RESULT line, for the stage's count.
grep '^RESULT ' "$out.numa"
passed=0 failed=0 skipped=0
if [ "$nrc" -eq 0 ] && grep -q 'test_stage_numa succeeded' "$out.numa"; then
	ok "NUMA boot: each lcore's stage state on its own node (test_stage_numa ran)"
else
	tail -20 "$out.numa"
	fail "NUMA boot: exit $nrc, test_stage_numa did not succeed"
	rc=1
fi
result_line
end "$rc" "$(grep '^arm64 guest: ' "$out" | tail -n1)"
