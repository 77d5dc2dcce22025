#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors

# Run the arm64 build's tests in an emulated arm64 guest, whose emulated PMUv3
# gives real counters with exact counts (QEMU -icount shift=0: one instruction
# = one cycle = 1 ns).
#
# An initramfs is packed with busybox, the programs, every shared library they
# need (found through DT_NEEDED) and an /init that sets up the guest, allows
# user-space counter access, runs the command list and powers off. The console
# goes to a log file and to stdout; the verdict comes from the console, since
# QEMU exits 0 whatever the guest did.
#
# Usage: devtools/arm64-qemu-test.sh [BUILD_DIR]
#   BUILD_DIR          the arm64 build (default <repo>/build-arm64)
# Environment:
#   ARM64_DIR          sysroot and kernel (default <repo>/.arm64)
#   ARM64_OUT          where the initramfs and console log go (default BUILD_DIR)
#   ARM64_GUEST_CMDS   a command list file to run instead of the default one
#   ARM64_EXTRA_BINS   more programs to put in the guest's /usr/bin (space
#                      separated paths); their libraries come along
#   ARM64_TIMEOUT      hard limit for the whole guest run, seconds (default 240)
#   ARM64_CMD_TIMEOUT  limit for each command in the guest, seconds (default 120)
#   QEMU               the emulator (default qemu-system-aarch64)
#
# Command list: one command a line, "NAME OK_CODES COMMAND...", where OK_CODES
# is a comma-separated list of exit codes that pass (e.g. 0 or 0,77). '#'
# starts a comment. COMMAND runs in the guest's busybox sh with $EAL set to the
# EAL options that work there and RTE_PMU_TEST_GUEST=1 (the guest is the
# test's own machine). A line "EAL=..." replaces those options. The default
# list is every test of app/test/tests.list ("NAME 0 dpdk-test $EAL ... NAME")
# followed by devtools/arm64-guest.cmds.
#
# The guest's /init is devtools/arm64-guest-init.sh; it reads the commands
# (names and command lines), the EAL options and the per-command limit from
# files under /etc/pmu-guest. Names and OK codes stay here: the guest only
# reports exit codes. Console protocol: "=== RUN NAME" before a command,
# "=== EXIT NAME RC" after it, "=== DONE" at the end. The script exits 0
# only when DONE was printed and every listed command exited with one of its
# OK_CODES; 1 otherwise; 77 when QEMU is missing. It ends with the sum of
# the "RESULT passed=N failed=N skipped=N" lines of dpdk-test:
#   arm64 guest: N passed, N failed, N skipped

set -e
set -o pipefail

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

# The default command list: the tests, then the other commands.
default_cmds()
{
	local name

	for name in $(test_names); do
		echo "$name 0 dpdk-test \$EAL --file-prefix=g1 $name"
	done
	cat "$REPO/devtools/arm64-guest.cmds"
}

if ! command -v "$QEMU" >/dev/null; then
	echo "SKIP: $QEMU not found (apt-get install qemu-system-arm): arm64 guest tests not run"
	exit 77
fi
[ -f "$SYSROOT/.stamp" ] || die "no sysroot in $SYSROOT: run devtools/arm64-sysroot.sh"
KERNEL=$(readlink -f "$ARM64_DIR/vmlinuz")
[ -f "$KERNEL" ] || die "no kernel at $ARM64_DIR/vmlinuz: run devtools/arm64-sysroot.sh"
need_tools aarch64-linux-gnu-readelf aarch64-linux-gnu-strip cpio gzip timeout
busybox=$SYSROOT/bin/busybox
[ -x "$busybox" ] || die "no arm64 busybox in the sysroot"

if [ -n "${ARM64_GUEST_CMDS:-}" ]; then
	[ -f "$ARM64_GUEST_CMDS" ] || die "no command list $ARM64_GUEST_CMDS"
	cmds=$(cat "$ARM64_GUEST_CMDS")
else
	cmds=$(default_cmds)
fi

mkdir -p "$OUT"
ROOT=$(mktemp -d "${TMPDIR:-/tmp}/arm64-initramfs.XXXXXX")
trap 'rm -rf "$ROOT"' EXIT
t0=$SECONDS

# --- the initramfs tree ---------------------------------------------------
mkdir -p "$ROOT"/{bin,sbin,lib,usr/bin,usr/sbin,proc,sys,dev,tmp,run,var,etc}
ln -s ../run "$ROOT/var/run"
cp "$busybox" "$ROOT/bin/busybox"

# Library search order: the build's own libraries, the sysroot, the toolchain.
libdirs=()
while IFS= read -r d; do
	libdirs+=("$d")
done < <(find "$BUILD" -name '*.p' -prune -o -name 'librte_pmu.so*' -printf '%h\n' 2>/dev/null |
	sort -u)
libdirs+=("$SYSROOT/usr/lib/aarch64-linux-gnu" "$SYSROOT/usr/lib" "$CROSS_LIBC")

find_lib()
{
	local d
	for d in "${libdirs[@]}"; do
		if [ -e "$d/$1" ]; then
			echo "$d/$1"
			return 0
		fi
	done
	return 1
}

declare -A copied=()
missing_libs=""
# Copy an ELF file and, recursively, the libraries it names.
add_elf()
{
	local src=$1 dst=$2 lib path
	cp -L "$src" "$dst"
	chmod u+w "$dst"
	aarch64-linux-gnu-strip --strip-debug "$dst" 2>/dev/null || true
	for lib in $(aarch64-linux-gnu-readelf -d "$src" 2>/dev/null |
			sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		[ -z "${copied[$lib]}" ] || continue
		copied[$lib]=1
		if path=$(find_lib "$lib"); then
			add_elf "$path" "$ROOT/lib/$lib"
		else
			missing_libs="$missing_libs $lib"
		fi
	done
}

copied[ld-linux-aarch64.so.1]=1
cp -L "$CROSS_LIBC/ld-linux-aarch64.so.1" "$ROOT/lib/"

bins=""
for b in app/test/dpdk-test app/test-pmu/dpdk-test-pmu examples/dpdk-pmu-graph; do
	if [ -f "$BUILD/$b" ]; then
		bins="$bins $BUILD/$b"
	else
		log "warning: $BUILD/$b not built"
	fi
done
for b in $ARM64_EXTRA_BINS; do
	[ -f "$b" ] || die "ARM64_EXTRA_BINS: no file $b"
	bins="$bins $b"
done
for b in $bins; do
	add_elf "$b" "$ROOT/usr/bin/$(basename "$b")"
done
# The library itself even when nothing above links it (tests may dlopen it).
while IFS= read -r f; do
	soname=$(aarch64-linux-gnu-readelf -d "$f" 2>/dev/null |
		sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
	[ -n "$soname" ] || continue
	[ -z "${copied[$soname]}" ] || continue
	copied[$soname]=1
	add_elf "$f" "$ROOT/lib/$soname"
done < <(find "$BUILD" -name '*.p' -prune -o -type f -name 'librte_pmu.so.*' -print 2>/dev/null)
# DPDK drivers that dpdk-pmu-graph loads with -d /lib/NAME (the guest has no
# plugin folder): the ring mempool and the net_ring ports.
pmds=$SYSROOT/usr/lib/aarch64-linux-gnu/dpdk/pmds-23.0
for p in librte_mempool_ring.so.23 librte_net_ring.so.23; do
	if [ -e "$pmds/$p" ]; then
		copied[$p]=1
		add_elf "$pmds/$p" "$ROOT/lib/$p"
	else
		log "warning: no $pmds/$p"
	fi
done
# glibc loads libgcc_s.so.1 with dlopen() for pthread_cancel(), which the
# EAL's cleanup calls on its threads: no DT_NEEDED names it, and without it
# a program aborts at exit ("libgcc_s.so.1 must be installed").
if [ -z "${copied[libgcc_s.so.1]}" ] && path=$(find_lib libgcc_s.so.1); then
	copied[libgcc_s.so.1]=1
	add_elf "$path" "$ROOT/lib/libgcc_s.so.1"
fi
[ -z "$missing_libs" ] || log "warning: libraries not found:$missing_libs"

# The command list: names and OK codes kept here, "NAME COMMAND" lines
# for the guest's /init.
names=()
declare -A okcodes=()
eal=$EAL_GUEST_ARGS
mkdir -p "$ROOT/etc/pmu-guest"
: > "$ROOT/etc/pmu-guest/cmds"
while IFS= read -r line; do
	line=${line%%#*}
	line=$(echo "$line" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
	[ -n "$line" ] || continue
	case "$line" in
	EAL=*)
		eal=${line#EAL=}
		continue
		;;
	esac
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

# --- pack -------------------------------------------------------------------
INITRD=$OUT/initramfs.cpio.gz
(cd "$ROOT" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 > "$INITRD"
t_pack=$((SECONDS - t0))
log "initramfs $INITRD ($(du -k "$INITRD" | cut -f1) KiB, $(find "$ROOT" -type f | wc -l) files) in ${t_pack}s"

# --- boot -------------------------------------------------------------------
log "booting $(basename "$KERNEL") (limit ${TIMEOUT}s), console in $LOG"
t1=$SECONDS
set +e
timeout --kill-after=10 "$TIMEOUT" "$QEMU" -M virt -cpu max,pauth=off -smp 2 -m 1024 \
	-nographic -no-reboot -nic none -kernel "$KERNEL" -initrd "$INITRD" \
	-append "console=ttyAMA0 rdinit=/init quiet panic=-1" -icount shift=0 \
	</dev/null 2>&1 | tee "$LOG"
qrc=${PIPESTATUS[0]}
set -e
t_boot=$((SECONDS - t1))

# --- verdict ----------------------------------------------------------------
console=$(tr -d '\r' < "$LOG")
fail=0
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	log "FAIL: guest did not finish within ${TIMEOUT}s"
	fail=1
elif [ "$qrc" != 0 ]; then
	log "FAIL: $QEMU exited $qrc"
	fail=1
fi
if ! echo "$console" | grep -qx '=== DONE'; then
	log "FAIL: no '=== DONE' on the console"
	fail=1
fi
for name in "${names[@]}"; do
	rc=$(echo "$console" | awk -v n="$name" '$1 == "===" && $2 == "EXIT" && $3 == n {print $4}' |
		tail -n1)
	if [ -z "$rc" ]; then
		log "FAIL: $name: no exit status"
		fail=1
	elif [[ ",${okcodes[$name]}," == *",$rc,"* ]]; then
		log "ok:   $name (exit $rc)"
	else
		log "FAIL: $name (exit $rc, expected ${okcodes[$name]})"
		fail=1
	fi
done

read -r passed failed skipped < <(echo "$console" | result_sum)
log "timings: pack ${t_pack}s, boot to power-off ${t_boot}s"
echo "arm64 guest: $passed passed, $failed failed, $skipped skipped"
if [ "$failed" != 0 ]; then
	fail=1
fi
exit $fail
