#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# The one place that runs apt-get (as root, Debian 12): the packages of
# group build and of the named groups of packages.list. Group sysroot sets
# up the arm64 package lists arm64-sysroot.sh downloads from.
# Usage: devtools/install-deps.sh [--update] [--arm64] [GROUP...]
set -uo pipefail

# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"

update=0
[ "${1:-}" != --update ] || { update=1; shift; }
groups=" build ${*/#--arm64/arm64} "
root() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || die "$* (run as root)"; }
export DEBIAN_FRONTEND=noninteractive

if [[ $groups == *" sysroot "* ]]; then
	groups=${groups/ sysroot / }
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		root "no arm64 architecture"
		log "dpkg --add-architecture arm64"
		dpkg --add-architecture arm64 || die "dpkg --add-architecture arm64 failed"
		update=1
	fi
	apt-cache show libdpdk-dev:arm64 >/dev/null 2>&1 || update=1
fi
if [ $update = 1 ]; then
	root "package lists missing or stale"
	log "apt-get update"
	apt-get update -qq || die "apt-get update failed"
fi

missing=""
# shellcheck disable=SC2086
for p in $(pkgs_of $groups); do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -n "$missing" ] || exit 0
root "missing packages:$missing"
log "installing$missing"
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1 ||
	{ apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null; } ||
	die "could not install:$missing"
