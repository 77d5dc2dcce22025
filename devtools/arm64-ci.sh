#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: real counters in an emulated arm64 guest: packages, the sysroot
# (arm64-sysroot.sh), the cross build (arm64-build.sh), the guest run
# (arm64-qemu-test.sh), its pipeline runs checked to the instruction
# (ci_pipeline_check.py guest), then a boot with two NUMA nodes
# (arm64-guest-numa.cmds). Exit status that of the guest run (77: a tool
# missing, a failure with CI=true); 1 when another step fails.
# Usage: devtools/arm64-ci.sh [BUILD_DIR]
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
	command -v "$t" >/dev/null && continue
	if in_ci; then
		echo "FAIL: $t not found and could not be installed: arm64 guest tests" \
			"not run (CI=true: they must run)"
		end 1 "arm64 guest: 0 passed, 1 failed, 0 skipped (FAIL: no $t, CI=true)"
	fi
	echo "SKIP: $t not found and could not be installed: arm64 guest tests not run"
	end 77 "arm64 guest: 0 passed, 0 failed, 0 skipped (SKIP: no $t)"
done
log "sysroot"
"$REPO/devtools/arm64-sysroot.sh" || { log "FAIL: sysroot"; end 1; }
log "cross build in $BUILD"
"$REPO/devtools/arm64-build.sh" "$BUILD" || { log "FAIL: cross build"; end 1; }
log "guest"
stage_tmp arm64-ci
touch "$tmp/stamp"
# The guest's test list runs in about 120 s of CPU; .ci/run runs this stage
# beside the sanitizer builds and others, on two cores: 240 s of wall time
# (the script's default) was once not enough (CI44: 244 s at the last test).
ARM64_TIMEOUT=${ARM64_TIMEOUT:-480} "$REPO/devtools/arm64-qemu-test.sh" "$BUILD" |
	tee "$tmp/guest.out"
rc=${PIPESTATUS[0]}
# The pipeline example's runs of this boot: one RESULT line.
console=${ARM64_OUT:-$BUILD}/arm64-guest.log
if [ "$console" -nt "$tmp/stamp" ] && grep -q '^=== RUN pipeline-' "$console"; then
	log "pipeline example: exact figures"
	py_check 120 ci_pipeline_check.py "$tmp/pipeline.out" guest "$console"
	result_line
	[ "$failed" -eq 0 ] || rc=1
fi
# The NUMA boot: test_stage_numa must run there, not skip.
log "guest with two NUMA nodes"
ARM64_NUMA=1 ARM64_GUEST_CMDS="$REPO/devtools/arm64-guest-numa.cmds" ARM64_OUT=$tmp/numa \
	"$REPO/devtools/arm64-qemu-test.sh" "$BUILD" >"$tmp/numa.out" 2>&1
nrc=$?
grep -E 'stage state on node|TestCase|^arm64 guest: ' "$tmp/numa.out" | sed 's/^/  numa | /'
# Its dpdk-test RESULT line, for the stage's count.
grep '^RESULT ' "$tmp/numa.out"
passed=0 failed=0 skipped=0
if [ "$nrc" -eq 0 ] && grep -q 'test_stage_numa succeeded' "$tmp/numa.out"; then
	ok "NUMA boot: each lcore's stage state on its own node (test_stage_numa ran)"
else
	show "$tmp/numa.out" 20
	fail "NUMA boot: exit $nrc, test_stage_numa did not succeed"
	rc=1
fi
result_line
end "$rc" "$(grep '^arm64 guest: ' "$tmp/guest.out" | tail -n1)"
