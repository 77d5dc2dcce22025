#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: event names with libpfm4 (build-events-pfm: the vendors' names
# against their event numbers) and without it (build-events-nopfm, also with
# -Dstage_debug=true: the event-name and stage tests), all with --werror.
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1

deps || log "could not install every package"

# run DIR TEST: one dpdk-test command, its RESULT line tallied.
run()
{
	local dir=$1 t=$2 out rc

	# shellcheck disable=SC2086
	out=$("$dir/app/test/dpdk-test" $EAL_HOST_ARGS \
		--file-prefix="ci_events_${t}_$(basename "$dir")" "$t" 2>&1)
	rc=$?
	if ! grep -q '^RESULT ' <<<"$out"; then
		echo "$out" | tail -20
		fail "$dir $t: no RESULT line (exit $rc)"
		return
	fi
	grep -E '^SKIP|has no .* tables|TestCase.*failed' <<<"$out"
	echo "  $t in $dir: $(sed -n 's/^RESULT //p' <<<"$out")"
	tally_run <(echo "$out") "$rc" "$dir $t"
}

if [ ! -e /usr/include/perfmon/pfmlib_perf_event.h ]; then
	skip "libpfm4-dev not installed, vendor names not tested"
elif build_if_missing build-events-pfm --werror -Dlibpfm=enabled; then
	run build-events-pfm pmu_pfm_autotest
else
	fail "build with libpfm4"
fi

if build_if_missing build-events-nopfm --werror -Dlibpfm=disabled -Dstage_debug=true; then
	for t in pmu_event_autotest pmu_names_autotest pmu_hybrid_autotest \
			pmu_hybrid_open_autotest pmu_pfm_autotest pmu_list_autotest \
			pmu_stage_autotest pmu_stage_lcores_autotest pmu_stage_scale_autotest \
			pmu_graph_autotest pmu_graph_size_autotest \
			pmu_telemetry_autotest; do
		run build-events-nopfm "$t"
	done
else
	fail "build without libpfm4"
fi
finish
