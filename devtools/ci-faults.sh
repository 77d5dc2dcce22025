#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: fault injection: dpdk-test-fault (the library's libc calls
# wrapped with -Wl,--wrap) fails every call of a full lifecycle in turn.
# Then, unless --no-mutations, each error-handling fix is undone in turn in
# a copy of the tree, and the harness must fail.
# Usage: devtools/ci-faults.sh [--no-mutations]   (BUILD_DIR: build-faults)
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1
build=${BUILD_DIR:-build-faults}
mutations=1
[ "${1:-}" != "--no-mutations" ] || mutations=0
export CI_TARGETS=app/test/dpdk-test-fault

deps || { fail "packages"; finish; }

# Build @1 (a source tree) into @2; run the harness; its output in @3.
harness() {
	build_if_missing "$2" "$1" --werror || return 2
	# shellcheck disable=SC2086
	"$2/app/test/dpdk-test-fault" $EAL_HOST_ARGS --file-prefix="pmu_ci_faults_$$" \
		pmu_fault_autotest >"$3" 2>&1
}

stage_tmp ci-faults
out=$tmp/harness.out
harness "$REPO" "$REPO/$build" "$out"
rc=$?
grep -E '^(FAIL|fault cases|lock-free I/O|lock-free log|lifecycle|  [a-z(]+.* [0-9]+ cases|skip:|note:| \+ TestCase)' "$out"
[ $rc -ne 2 ] || { fail "build"; finish; }
if ! grep -q '^RESULT' "$out"; then
	tail -20 "$out"
	fail "dpdk-test-fault died (status $rc)"
	finish
fi
tally_add "$out"

if [ $mutations -eq 1 ] && [ "$failed" -eq 0 ]; then
	echo "=== mutations: each undoes one fix; the harness must fail"
	tree=$tmp/tree
	mkdir "$tree"
	git ls-files -z | tar -c --null -T - | tar -x -C "$tree"
	# name@file@text of the fix@text that undoes it (\n, \t escaped)
	while IFS='@' read -r name file old new; do
		[ -z "$name" ] && continue
		cp "$tree/$file" "$tree/$file.orig"
		if ! python3 - "$tree/$file" "$old" "$new" <<'EOF'
import sys
path, old, new = sys.argv[1:4]
old = old.replace('\\n', '\n').replace('\\t', '\t')
new = new.replace('\\n', '\n').replace('\\t', '\t')
text = open(path).read()
if old not in text:
    sys.exit(1)
open(path, 'w').write(text.replace(old, new, 1))
EOF
		then
			fail "$name: source line not found (the fix moved)"
			continue
		fi
		harness "$tree" "$tree/build" "$out"
		# Restored with a new time stamp, so that ninja rebuilds it.
		mv "$tree/$file.orig" "$tree/$file"
		touch "$tree/$file"
		line=$(grep '^fault cases' "$out")
		read -r _ mut_failed _ < <(result_sum "$out")
		if [ "$mut_failed" -gt 0 ]; then
			ok "$name: harness fails ($line) as it must"
		else
			fail "$name: harness still passes"
		fi
	done <<'EOF'
no transient retry in a call@lib/pmu/pmu_retry.h@#define PMU_RETRIES 3@#define PMU_RETRIES 0
read() of a first read retries EINTR only@lib/pmu/pmu_fd.c@\twhile (n < 0 && pmu_retry(&retries))@\twhile (n < 0 && errno == EINTR && retries++ < 3)
sysfs read retries EINTR only@lib/pmu/pmu_sysfs.c@\t\t\tif (pmu_retry(&retries))@\t\t\tif (errno == EINTR)
no retry at a later read@lib/pmu/pmu.c@\tif (status < 0 && status != -EAGAIN)\n\t\treturn status;@\tif (status < 0)\n\t\treturn status;
failed munmap drops the page@lib/pmu/pmu_fd.c@\tfor (i = 0; i < STALE_PAGES; i++) {\n\t\tnone = NULL;@\treturn false;\n\tfor (i = 0; i < STALE_PAGES; i++) {\n\t\tnone = NULL;
failed read() not counted@lib/pmu/pmu_read.c@\t__atomic_fetch_add(&lc->read_errors, 1, __ATOMIC_RELAXED);\n\trte_pmu_trace_error(lcore_id, "read", err);@\trte_pmu_trace_error(lcore_id, "read", err);
root told to run as root@lib/pmu/pmu_fd.c@\tif (geteuid() == 0)\n\t\treturn true;@\tif (geteuid() == 0)\n\t\treturn false;
sysfs errors read as -EINVAL@lib/pmu/pmu_event_terms.c@\t\treturn ret;\n\t}\n\n\treturn ret;\n}@\t\treturn -EINVAL;\n\t}\n\n\treturn ret;\n}
failed opendir read as -ENODEV@lib/pmu/pmu.c@\t\treturn pmu_errno(-err, -EIO);@\t\treturn -ENODEV;
kernel EBUSY returned as -EBUSY@lib/pmu/pmu_state.c@\tcase -EAGAIN:\n\tcase -EBUSY:\n\t\treturn -EAGAIN;@\tcase -EAGAIN:\n\t\treturn -EAGAIN;
ENFILE not mapped@lib/pmu/pmu_state.c@\tcase -EMFILE:\n\tcase -ENFILE:\n\t\treturn -EMFILE;@\tcase -EMFILE:\n\t\treturn -EMFILE;
too-wide value not -EINVAL@lib/pmu/pmu_event_terms.c@\t\t\tctx->pmu_name);\n\t\treturn -EINVAL;\n\tcase -EINVAL:@\t\t\tctx->pmu_name);\n\t\treturn -ERANGE;\n\tcase -EINVAL:
strdup failure not logged@lib/pmu/pmu.c@\tswitch (ret) {\n\tcase -ENODEV:@\tif (ret == -ENOMEM)\n\t\treturn;\n\tswitch (ret) {\n\tcase -ENODEV:
log line under the lock@lib/pmu/pmu.c@\t*busy = 0;\n\tif (!pmu.initialized)\n\t\treturn -ENODEV;@\t*busy = 0;\n\tif (!pmu.initialized) {\n\t\tPMU_LOG(ERR, "add event: rte_pmu_init() not called");\n\t\treturn -ENODEV;\n\t}
read error logged every time@lib/pmu/pmu_read.c@\tif (lc->read_error_logged)\n\t\treturn 0;@
sysfs scanned under the lock@lib/pmu/pmu.c@\tcore_pmu_find(core);\n\n\tpmu_lock();\n\tif (pmu.initialized) {@\tpmu_lock();\n\tcore_pmu_find(core);\n\tif (pmu.initialized) {
group read under the lock@lib/pmu/pmu_state.c@\tif (pin && c->status > 0 && lc->group_fd >= 0) {@\tif (pin && c->status > 0 && lc->group_fd >= 0) {\n\t\tuint64_t v_;\n\t\tif (read(lc->group_fd, &v_, sizeof(v_)) < 0)\n\t\t\tv_ = 0;
EOF
fi

finish
