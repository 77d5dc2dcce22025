#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# The one place that installs packages (as root, Debian 12): those of
# group build and of the named groups of devtools/packages.list.
# Usage: devtools/install-deps.sh [--arm64] [GROUP...]   (--arm64: group arm64)
# Exits non-zero when some package is missing and cannot be installed.
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"

missing=""
for p in $(pkgs_of build "${@/#--arm64/arm64}"); do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -n "$missing" ] || exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	die "missing packages:$missing (run as root to install them)"
fi
log "installing$missing"
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1 ||
	{ apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null; } ||
	die "could not install:$missing"
