#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

# Run the arm64 build's tests in an emulated arm64 guest (QEMU's PMUv3,
# -icount shift=0: exact counts). The initramfs holds busybox, the programs,
# their libraries and /init (arm64-guest-init.sh), which runs the command
# list and powers off; the verdict comes from the console.
# Usage: devtools/arm64-qemu-test.sh [BUILD_DIR]   (default build-arm64)
# Environment: ARM64_DIR (lib.sh), ARM64_OUT (initramfs and console log;
# default BUILD_DIR), ARM64_GUEST_CMDS (a command list), ARM64_EXTRA_BINS
# (more programs), ARM64_TIMEOUT (240 s), ARM64_CMD_TIMEOUT (120 s a
# command), ARM64_NUMA=1 (two nodes: CPU 0 on 0, CPU 1 on 1), ARM64_CPUS
# (2; QEMU's instruction count is one for all CPUs: see pmu_run.rst), QEMU.
# Command list: "NAME OK_CODES COMMAND..." lines (OK_CODES: 0 or 0,77; '#'
# comments; "EAL=..." sets $EAL); default: app/test/tests.list's tests, then
# arm64-guest.cmds. Exit 0 when the console says "=== DONE" and each command
# exited with one of its codes, 77 without QEMU. Last line, the RESULT sum:
#   arm64 guest: N passed, N failed, N skipped
set -eo pipefail

LOG_TAG=arm64-qemu-test
# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"

BUILD=$(cd "${1:-$ARM64_BUILD_DEFAULT}" 2>/dev/null && pwd) ||
	die "no build directory ${1:-$ARM64_BUILD_DEFAULT}"
OUT=${ARM64_OUT:-$BUILD}
QEMU=${QEMU:-qemu-system-aarch64}
TIMEOUT=${ARM64_TIMEOUT:-240}
CMD_TIMEOUT=${ARM64_CMD_TIMEOUT:-120}
LOG=$OUT/arm64-guest.log
INIT=$REPO/devtools/arm64-guest-init.sh

if ! command -v "$QEMU" >/dev/null; then
	echo "SKIP: $QEMU not found (devtools/install-deps.sh --arm64): arm64 guest tests not run"
	exit 77
fi
[ -f "$SYSROOT/.stamp" ] || die "no sysroot in $SYSROOT: run devtools/arm64-sysroot.sh"
KERNEL=$(readlink -f "$ARM64_DIR/vmlinuz")
[ -f "$KERNEL" ] || die "no kernel at $ARM64_DIR/vmlinuz: run devtools/arm64-sysroot.sh"
need_tools aarch64-linux-gnu-readelf aarch64-linux-gnu-strip cpio gzip timeout
busybox=$SYSROOT/bin/busybox
[ -x "$busybox" ] || die "no arm64 busybox in the sysroot"

if [ -n "${ARM64_GUEST_CMDS:-}" ]; then
	cmds=$(cat "$ARM64_GUEST_CMDS") || die "no command list $ARM64_GUEST_CMDS"
else
	cmds=$(for n in $(test_names); do echo "$n 0 dpdk-test \$EAL --file-prefix=g1 $n"; done
		cat "$REPO/devtools/arm64-guest.cmds")
fi

mkdir -p "$OUT"
ROOT=$(mktemp -d "${TMPDIR:-/tmp}/arm64-initramfs.XXXXXX")
trap 'rm -rf "$ROOT"' EXIT
t0=$SECONDS

mkdir -p "$ROOT"/{bin,sbin,lib,usr/bin,usr/sbin,proc,sys,dev,tmp,run,var,etc}
ln -s ../run "$ROOT/var/run"
cp "$busybox" "$ROOT/bin/busybox"

# Libraries from the build, then the sysroot, then the toolchain.
mapfile -t libdirs < <(find "$BUILD" -name '*.p' -prune -o -name 'librte_pmu.so*' \
	-printf '%h\n' 2>/dev/null | sort -u)
libdirs+=("$SYSROOT/usr/lib/aarch64-linux-gnu" "$SYSROOT/usr/lib" "$CROSS_LIBC")

find_lib()
{
	local d
	for d in "${libdirs[@]}"; do
		[ ! -e "$d/$1" ] || { echo "$d/$1"; return 0; }
	done
	return 1
}

declare -A copied=()
missing_libs=""
# add_elf SRC DST: copy an ELF file and, recursively, the libraries it needs.
add_elf()
{
	local src=$1 dst=$2 lib
	cp -L "$src" "$dst"
	chmod u+w "$dst"
	aarch64-linux-gnu-strip --strip-debug "$dst" 2>/dev/null || true
	for lib in $(aarch64-linux-gnu-readelf -d "$src" 2>/dev/null |
			sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		add_lib "$lib"
	done
}

# add_lib SONAME [PATH]: copy a library once (found in libdirs without PATH).
add_lib()
{
	local path=${2:-}
	[ -z "${copied[$1]}" ] || return 0
	copied[$1]=1
	if [ -n "$path" ] || path=$(find_lib "$1"); then
		add_elf "$path" "$ROOT/lib/$1"
	else
		missing_libs="$missing_libs $1"
	fi
}

copied[ld-linux-aarch64.so.1]=1
cp -L "$CROSS_LIBC/ld-linux-aarch64.so.1" "$ROOT/lib/"

bins=""
for b in app/test/dpdk-test app/test-pmu/dpdk-test-pmu examples/dpdk-pmu-pipeline \
		examples/dpdk-pmu-graph; do
	if [ -f "$BUILD/$b" ]; then
		bins="$bins $BUILD/$b"
	else
		log "warning: $BUILD/$b not built"
	fi
done
for b in $bins $ARM64_EXTRA_BINS; do
	[ -f "$b" ] || die "ARM64_EXTRA_BINS: no file $b"
	add_elf "$b" "$ROOT/usr/bin/$(basename "$b")"
done
# The examples' mbuf pool and ring ports: two drivers, "-d /lib/dpdk".
if [ -f "$BUILD/examples/dpdk-pmu-pipeline" ] || [ -f "$BUILD/examples/dpdk-pmu-graph" ]; then
	mkdir -p "$ROOT/lib/dpdk"
	for pmd in librte_mempool_ring librte_net_ring; do
		path=$(find "$SYSROOT/usr/lib/aarch64-linux-gnu/dpdk" -name "$pmd.so.*.*" | head -n1)
		if [ -n "$path" ]; then
			add_elf "$path" "$ROOT/lib/dpdk/$(basename "$path")"
		else
			missing_libs="$missing_libs $pmd"
		fi
	done
fi
# The library itself, even when nothing above links it.
while IFS= read -r f; do
	soname=$(aarch64-linux-gnu-readelf -d "$f" 2>/dev/null |
		sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
	[ -z "$soname" ] || add_lib "$soname" "$f"
done < <(find "$BUILD" -name '*.p' -prune -o -type f -name 'librte_pmu.so.*' -print 2>/dev/null)
# glibc dlopen()s libgcc_s.so.1 for pthread_cancel() (EAL's cleanup).
add_lib libgcc_s.so.1
[ -z "$missing_libs" ] || log "warning: libraries not found:$missing_libs"

# The command list: names and OK codes here, "NAME COMMAND" for /init.
names=()
declare -A okcodes=()
eal=$EAL_GUEST_ARGS
mkdir -p "$ROOT/etc/pmu-guest"
: > "$ROOT/etc/pmu-guest/cmds"
while IFS= read -r line; do
	line=${line%%#*}
	line=$(echo "$line" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
	[ -n "$line" ] || continue
	[[ $line != EAL=* ]] || { eal=${line#EAL=}; continue; }
	read -r name ok cmd <<< "$line"
	[ -n "$cmd" ] || die "command list: bad line: $line"
	[[ $name =~ ^[A-Za-z0-9_.+-]+$ ]] || die "command list: bad name '$name'"
	[[ $ok =~ ^[0-9]+(,[0-9]+)*$ ]] || die "command list: bad exit codes '$ok' for $name"
	[ -z "${okcodes[$name]:-}" ] || die "command list: duplicate name $name"
	names+=("$name")
	okcodes[$name]=$ok
	printf '%s %s\n' "$name" "$cmd" >> "$ROOT/etc/pmu-guest/cmds"
done <<< "$cmds"
[ ${#names[@]} -gt 0 ] || die "empty command list"
echo "$eal" > "$ROOT/etc/pmu-guest/eal"
echo "$CMD_TIMEOUT" > "$ROOT/etc/pmu-guest/timeout"
cp "$INIT" "$ROOT/init"
chmod 755 "$ROOT/init"

INITRD=$OUT/initramfs.cpio.gz
(cd "$ROOT" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 > "$INITRD"
t_pack=$((SECONDS - t0))
log "initramfs $INITRD ($(du -k "$INITRD" | cut -f1) KiB, $(find "$ROOT" -type f | wc -l) files) in ${t_pack}s"

log "booting $(basename "$KERNEL") (limit ${TIMEOUT}s), console in $LOG"
t1=$SECONDS
set +e
mem=(-m 1024)
if [ "${ARM64_NUMA:-0}" = 1 ]; then
	mem+=(-object memory-backend-ram,id=m0,size=512M -numa node,memdev=m0,cpus=0,nodeid=0
		-object memory-backend-ram,id=m1,size=512M -numa node,memdev=m1,cpus=1,nodeid=1)
fi
timeout --kill-after=10 "$TIMEOUT" "$QEMU" -M virt -cpu max,pauth=off -smp "${ARM64_CPUS:-2}" "${mem[@]}" \
	-nographic -no-reboot -nic none -kernel "$KERNEL" -initrd "$INITRD" \
	-append "console=ttyAMA0 rdinit=/init quiet panic=-1" -icount shift=0 \
	</dev/null 2>&1 | tee "$LOG"
qrc=${PIPESTATUS[0]}
set -e
t_boot=$((SECONDS - t1))

console=$(tr -d '\r' < "$LOG")
fail=0
bad() { log "FAIL: $*"; fail=1; }
case $qrc in
0) ;;
124|137) bad "guest did not finish within ${TIMEOUT}s" ;;
*) bad "$QEMU exited $qrc" ;;
esac
grep -qx '=== DONE' <<<"$console" || bad "no '=== DONE' on the console"
for name in "${names[@]}"; do
	rc=$(echo "$console" | awk -v n="$name" '$1 == "===" && $2 == "EXIT" && $3 == n {print $4}' |
		tail -n1)
	if [ -z "$rc" ]; then
		bad "$name: no exit status"
	elif [[ ",${okcodes[$name]}," == *",$rc,"* ]]; then
		log "ok:   $name (exit $rc)"
	else
		bad "$name (exit $rc, expected ${okcodes[$name]})"
	fi
done

read -r passed failed skipped < <(echo "$console" | result_sum)
log "timings: pack ${t_pack}s, boot to power-off ${t_boot}s"
echo "arm64 guest: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ] || fail=1
exit $fail
