#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_pmu authors
#
# CI stage: the Debian packages, built with `dpkg-buildpackage -us -uc -b`
# in a fresh clone of HEAD (uncommitted files cannot hide a problem):
# lintian --pedantic clean (no error, no warning), what each package holds
# and depends on. Then, unpacked with `dpkg -x` into a private root, never
# installed: the upstream-API and stage programs built against it through
# pkg-config and run, the packaged tool, its man pages, the python scripts'
# interpreter and the HTML's links; the exporter's systemd unit verified
# (systemd-analyze) and its ExecStart run and scraped, the package's
# maintainer scripts run for the unit's instances, the rules' promtool
# tests as installed. Last, the README's recipe for a program
# against a build tree, run as written on the packages' own build tree.
# About a minute on two cores, most of it the package build.
set -uo pipefail

LOG_TAG=ci-package
# shellcheck source=devtools/lib.sh
. "$(dirname "$0")/lib.sh"

cd "$REPO" || exit 1
stage_tmp ci-package

deps package || { fail "packages (debhelper, lintian, sphinx)"; finish; }
need_tools git dpkg-buildpackage dpkg-parsechangelog lintian dpkg-deb pkg-config cc

echo "=== version"
version=$(cat VERSION)
changelog=$(dpkg-parsechangelog -l debian/changelog -SVersion)
if [ "${changelog%-*}" = "$version" ]; then
	ok "debian/changelog ($changelog) gives the version of VERSION ($version)"
else
	fail "debian/changelog says $changelog, VERSION says $version"
fi

echo "=== build the packages from a fresh clone of HEAD"
head=$(git rev-parse HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "  note: the tree has uncommitted changes: they are not in the packages"
fi
src=$tmp/src
if ! git clone -q --no-checkout "$REPO" "$src" >"$tmp/clone.log" 2>&1 ||
		! git -C "$src" checkout -q "$head" >>"$tmp/clone.log" 2>&1; then
	fail "git clone of $REPO at $head"
	show "$tmp/clone.log"
	finish
fi
t0=$SECONDS
if (cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
		dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1; then
	ok "dpkg-buildpackage -us -uc -b on a fresh clone of ${head:0:12}: $((SECONDS - t0)) s"
else
	fail "dpkg-buildpackage -us -uc -b failed after $((SECONDS - t0)) s"
	show "$tmp/build.log" 30
	finish
fi
# dpkg-gensymbols builds on where a library exports a symbol that its
# debian/*.symbols file does not list: it only warns.
if grep -q '^dpkg-gensymbols: warning' "$tmp/build.log"; then
	fail "dpkg-gensymbols warned: a debian/*.symbols file differs from its library"
	grep -A 12 '^dpkg-gensymbols: warning' "$tmp/build.log" | sed 's/^/    | /'
else
	ok "dpkg-gensymbols: no warning (each debian/*.symbols lists its library's symbols)"
fi
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
changes=$tmp/rte-pmu_${changelog}_$arch.changes
debs=""
# deb PACKAGE: its file (librte-pmu-doc is Architecture: all).
deb() { local d=("$tmp/${1}_${changelog}"_*.deb); echo "${d[0]}"; }
for p in librte-pmu0 librte-pmu-stage0 librte-pmu-graph0 librte-pmu-dev dpdk-pmu-tools librte-pmu-doc; do
	deb=$(deb $p)
	if [ -f "$deb" ]; then
		debs="$debs $deb"
	else
		fail "no package $p (${deb##*/})"
	fi
done
echo "  packages:$(for d in $debs; do printf ' %s (%s KiB)' "${d##*/}" $(($(stat -c %s "$d") / 1024)); done)"

echo "=== lintian"
lintian --allow-root --display-info --pedantic "$changes" >"$tmp/lintian.log" 2>&1
errors=$(grep -c '^E: ' "$tmp/lintian.log")
warnings=$(grep -c '^W: ' "$tmp/lintian.log")
sed 's/^/    | /' "$tmp/lintian.log"
if [ "$errors" -eq 0 ] && grep -q -v -E '^(E|W|I|P|N|X|C|O): |^N:|^$' "$tmp/lintian.log"; then
	fail "lintian printed something other than tags (see above)"
elif [ "$errors" -eq 0 ] && [ "$warnings" -eq 0 ]; then
	ok "lintian --pedantic: 0 errors, 0 warnings, $(grep -c '^I: ' "$tmp/lintian.log") infos, $(grep -c '^P: ' "$tmp/lintian.log") pedantic"
else
	fail "lintian --pedantic: $errors errors, $warnings warnings"
fi

echo "=== what the packages hold and need"
# has PACKAGE PATH...: the package holds every path (dpkg-deb -c names).
has()
{
	local p=$1 deb missing="" f

	shift
	deb=$(deb "$p")
	dpkg-deb -c "$deb" 2>/dev/null | awk '{print $6}' | sed 's#^\./#/#' >"$tmp/$p.list"
	for f in "$@"; do
		grep -qx "$f" "$tmp/$p.list" || missing="$missing $f"
	done
	if [ -z "$missing" ]; then
		ok "$p holds $*"
	else
		fail "$p lacks$missing"
	fi
}
lib=/usr/lib/$multiarch
has librte-pmu0 "$lib/librte_pmu.so.0" "$lib/librte_pmu.so.0.1"
has librte-pmu-stage0 "$lib/librte_pmu_stage.so.0" "$lib/librte_pmu_stage.so.0.1"
has librte-pmu-graph0 "$lib/librte_pmu_graph.so.0" "$lib/librte_pmu_graph.so.0.1"
inc=/usr/include/dpdk
has librte-pmu-dev $inc/rte_pmu.h $inc/rte_pmu_page.h $inc/rte_pmu_pmc.h $inc/rte_pmu_stage.h \
	$inc/rte_pmu_graph.h "$lib/librte_pmu.so" "$lib/pkgconfig/librte_pmu.pc" \
	"$lib/librte_pmu_graph.so" "$lib/pkgconfig/librte_pmu_graph.pc" \
	"$lib/librte_pmu_stage.so" "$lib/pkgconfig/librte_pmu_stage.pc"
# No static library: the .pc files cannot link one (debian/not-installed).
static=$(grep '\.a$' "$tmp/librte-pmu-dev.list" | tr '\n' ' ')
if [ -z "$static" ]; then
	ok "librte-pmu-dev holds no static library"
else
	fail "librte-pmu-dev holds static libraries that pkg-config cannot link: $static"
fi
has dpdk-pmu-tools /usr/bin/dpdk-test-pmu /usr/bin/dpdk-pmu-exporter /usr/bin/dpdk-pmu-run \
	/usr/bin/dpdk-pmu-top /usr/bin/dpdk-pmu-traffic /usr/bin/dpdk-pmu-pipeline \
	/usr/bin/dpdk-pmu-graph "$lib/dpdk-pmu/librte_pmu_preload.so" \
	/usr/share/dpdk/telemetry-endpoints/pmu.py /usr/share/dpdk-pmu/dpdk-pmu.rules.yml \
	/usr/share/dpdk-pmu/dpdk-pmu.json /usr/share/man/man1/dpdk-test-pmu.1.gz /usr/share/man/man1/dpdk-pmu-exporter.1.gz \
	/usr/share/man/man1/dpdk-pmu-run.1.gz /usr/share/man/man1/dpdk-pmu-top.1.gz
docdir=/usr/share/doc/librte-pmu-doc
has librte-pmu-doc $docdir/guides/index.html $docdir/api/html/index.html \
	/usr/share/doc-base/librte-pmu-doc.rte-pmu-guides /usr/share/doc-base/librte-pmu-doc.rte-pmu-api
# depends PACKAGE REGEX WHAT: the package's Depends match.
depends()
{
	local d

	d=$(dpkg-deb -f "$(deb "$1")" Depends 2>/dev/null)
	if echo "$d" | grep -q -E "$2"; then
		ok "$1 depends on $3"
	else
		fail "$1 does not depend on $3: Depends: $d"
	fi
}
if dpkg-deb -f "$(deb librte-pmu0)" Depends | grep -q librte-graph; then
	fail "librte-pmu0 depends on lib/graph: $(dpkg-deb -f "$(deb librte-pmu0)" Depends)"
else
	ok "librte-pmu0 does not depend on lib/graph (librte-graph23)"
fi
depends librte-pmu-graph0 'librte-graph23' "DPDK's librte-graph23 (shlibs)"
depends librte-pmu-graph0 "librte-pmu-stage0 \(>= $version\)" "librte-pmu-stage0 (shlibs)"
depends librte-pmu-stage0 "librte-pmu0 \(>= $version\)" "librte-pmu0 (shlibs)"
depends librte-pmu-dev "librte-pmu-graph0 \(= $changelog\)" "librte-pmu-graph0 of the same version"
depends dpdk-pmu-tools "librte-pmu-graph0 \(>= $version\)" "librte-pmu-graph0 (shlibs, dpdk-pmu-graph)"
depends dpdk-pmu-tools "python3(:any)?( |,|$)" "python3 (\${python3:Depends})"
depends librte-pmu-doc 'libjs-sphinxdoc' "libjs-sphinxdoc (\${sphinxdoc:Depends})"

depends librte-pmu0 'librte-eal23 \(>= 22\.11' "DPDK 22.11's librte-eal23 (shlibs)"
# librte_pmu itself calls no libnuma function: libnuma1 comes with EAL.
eal_deps=$(dpkg-query -W -f='${Depends}' librte-eal23 2>/dev/null)
if [[ "$eal_deps" == *libnuma1* ]]; then
	ok "librte-pmu0 gets libnuma1 through librte-eal23 (Depends: $eal_deps)"
else
	fail "librte-eal23 does not bring libnuma1: ${eal_deps:-librte-eal23 not known}"
fi
depends librte-pmu-dev 'libdpdk-dev \(>= 22\.11\)' "libdpdk-dev (>= 22.11)"
depends librte-pmu-dev 'libnuma-dev' "libnuma-dev"
depends librte-pmu0 'libpfm4' "libpfm4 (shlibs)"
depends librte-pmu-dev "librte-pmu0 \(= $changelog\)" "librte-pmu0 of the same version"
depends dpdk-pmu-tools "librte-pmu0 \(>= $version\)" "librte-pmu0 (shlibs)"

echo "=== programs against the unpacked packages (dpkg -x, not installed)"
root=$tmp/root
for d in $debs; do
	dpkg -x "$d" "$root" || fail "dpkg -x ${d##*/}"
done
if [ -e "$lib/librte_pmu.so.0" ] || [ -e $inc/rte_pmu.h ]; then
	echo "  note: rte_pmu is installed on this machine too; the checks below name the root's files"
fi
eal="$EAL_HOST_ARGS --file-prefix=ci-package-$$"
# The packaged librte_pmu.pc names prefix=/usr: a copy of it names the root.
# Without it nothing below may build: pkg-config would find another
# librte_pmu.pc (one installed in /usr/local, say).
mkdir "$tmp/pc"
export PKG_CONFIG_PATH=$tmp/pc LD_LIBRARY_PATH=$root$lib
programs=0
if [ ! -f "$root$lib/pkgconfig/librte_pmu.pc" ]; then
	fail "no librte_pmu.pc in the unpacked packages: no program built against them"
else
	for pc in librte_pmu librte_pmu_stage librte_pmu_graph; do
		sed "s#^prefix=.*#prefix=$root/usr#" "$root$lib/pkgconfig/$pc.pc" >"$tmp/pc/$pc.pc"
	done
	if [ "$(pkg-config --path librte_pmu 2>&1)" != "$tmp/pc/librte_pmu.pc" ]; then
		fail "pkg-config librte_pmu reads $(pkg-config --path librte_pmu 2>&1), not the packaged .pc"
	else
		if [ "$(pkg-config --modversion librte_pmu)" = "$version" ]; then
			ok "the packaged librte_pmu.pc, written by meson, gives VERSION's version ($version)"
		else
			fail "the packaged librte_pmu.pc gives version $(pkg-config --modversion librte_pmu), VERSION $version"
		fi
		if [[ " $(pkg-config --cflags librte_pmu) " == *" -I$root$inc "* ]]; then
			ok "pkg-config librte_pmu (the packaged .pc, prefix moved to the root): $(pkg-config --cflags-only-I --libs-only-L librte_pmu | tr ' ' '\n' | grep "$root" | tr '\n' ' ')"
			programs=1
		else
			fail "pkg-config librte_pmu does not give the root's $inc: $(pkg-config --cflags librte_pmu)"
		fi
	fi
fi
# Each packaged header first and alone in a file, with the include paths
# but not DPDK's "-include rte_config.h" (a build without pkg-config):
# rte_pmu_pmc.h took the generic backend, not installed, there.
if [ $programs -eq 1 ]; then
	read -ra incs < <(pkg-config --cflags-only-I librte_pmu_graph)
	bad=()
	for h in "$root$inc"/rte_pmu*.h; do
		printf '#include <%s>\n' "${h##*/}" >"$tmp/alone.c"
		cc -DALLOW_EXPERIMENTAL_API -march=native "${incs[@]}" -Wall -Werror -c \
			-o /dev/null "$tmp/alone.c" 2>>"$tmp/alone.err" || bad+=("${h##*/}")
	done
	[ ${#bad[@]} -eq 0 ] && ok "each packaged rte_pmu*.h compiles first and alone, without" \
		"-include rte_config.h" ||
		fail "packaged headers that do not compile alone: ${bad[*]} ($(grep -m 1 error "$tmp/alone.err"))"
fi

# systemd_run_unit: where systemd is PID 1 (and this is root), the root's
# unit as a runtime unit, its paths moved into the root, started for a
# packaged dpdk-test-pmu, scraped, stopped and removed.
systemd_run_unit()
{
	local name=dpdk-pmu-exporter@$instance.service port
	local run=/run/systemd/system/dpdk-pmu-exporter@.service

	if [ "$(id -u)" -ne 0 ] || [ -e $run ]; then
		skip "dpdk-pmu-exporter@.service started by systemd: not root, or $run exists"
		return
	fi
	port=$(free_port)
	echo "DPDK_PMU_EXPORTER_PORT=$port" >"$root/etc/default/dpdk-pmu-exporter-$instance"
	sed -e "s#^ExecStart=/#ExecStart=$root/#" -e "s#^EnvironmentFile=-/#EnvironmentFile=-$root/#" \
		"$root$unit" >$run
	LD_LIBRARY_PATH=$root$lib timeout 60 "$root/usr/bin/dpdk-test-pmu" -l 0-1 --no-huge \
		--no-pci -m 64 --file-prefix="$instance" -- -e task-clock --interval 200 \
		--duration 30 >"$tmp/unit-app2.log" 2>&1 &
	pids+=($!)
	systemctl daemon-reload
	if systemctl start "$name" &&
			wait_for "curl -sf http://127.0.0.1:$port/metrics | grep -q '^dpdk_pmu_up 1'" 20; then
		ok "systemctl start $name: scraped on 127.0.0.1:$port, dpdk_pmu_up 1"
	else
		fail "systemctl start $name: $(systemctl status "$name" 2>&1 | tail -5)"
	fi
	systemctl stop "$name"
	rm -f $run
	systemctl daemon-reload
	kill "${pids[-1]}" 2>/dev/null
}

# build_run NAME SOURCE MODULE ARGS...: build SOURCE with pkg-config MODULE
# (librte_pmu, librte_pmu_stage), check it loads the root's librte_pmu, run
# it with ARGS; output in $tmp/NAME.out.
build_run()
{
	local name=$1 source=$2 module=$3 so

	shift 3
	# shellcheck disable=SC2046 # pkg-config's flags are words
	if ! cc -O2 -Wall -Werror -DALLOW_EXPERIMENTAL_API $(pkg-config --cflags $module) \
			"$source" -o "$tmp/$name" $(pkg-config --libs $module) >"$tmp/$name.cc" 2>&1; then
		fail "$name: does not build against the unpacked packages"
		show "$tmp/$name.cc"
		return 1
	fi
	so=$(ldd "$tmp/$name" | awk '$1 == "librte_pmu.so.0" {print $3}')
	if [ "$so" != "$root$lib/librte_pmu.so.0" ]; then
		fail "$name: loads librte_pmu.so.0 from '${so:-nowhere}', not from the root"
		return 1
	fi
	if ! "$tmp/$name" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
		fail "$name: built, but exits non-zero"
		show "$tmp/$name.err"
		return 1
	fi
	return 0
}

# The upstream-API program (examples/pmu_upstream), task-clock so that it
# counts on any machine, and the stage-accounting one (examples/pmu_stage).
# shellcheck disable=SC2086 # the EAL arguments are words
if [ $programs -eq 0 ]; then
	echo "  (upstream-API and stage-accounting programs not built: see above)"
else
	if build_run upstream "$src/examples/pmu_upstream/main.c" librte_pmu $eal -- task-clock; then
		if grep -q -E '^task-clock: [1-9][0-9]* over the loop' "$tmp/upstream.out"; then
			ok "upstream-API program built with pkg-config against the root, ran: $(cat "$tmp/upstream.out")"
		else
			fail "upstream-API program ran but counted nothing: $(cat "$tmp/upstream.out")"
		fi
	fi
	! build_run stage "$src/examples/pmu_stage/main.c" librte_pmu_stage $eal ||
		ok "stage-accounting program built with pkg-config against the root, ran"
fi

# The packaged tool, with the packaged library.
# shellcheck disable=SC2086
if "$root/usr/bin/dpdk-test-pmu" $eal -- -e task-clock --iterations 1000 --csv >"$tmp/tool.out" 2>"$tmp/tool.err" &&
		grep -q ',task-clock,[0-9]*,ns,' "$tmp/tool.out"; then
	ok "the packaged dpdk-test-pmu runs on the packaged library (task-clock counted)"
else
	fail "the packaged dpdk-test-pmu"
	show "$tmp/tool.err"
fi
# The packaged man pages render, with their NAME line.
for m in dpdk-test-pmu dpdk-pmu-exporter dpdk-pmu-top; do
	if LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$root/usr/share/man/man1/$m.1.gz" 2>"$tmp/man.err" |
			grep -c -E "^ *$m +- " >/dev/null; then  # -c: no SIGPIPE (pipefail)
		ok "man page $m(1) in dpdk-pmu-tools renders (NAME: $m - ...)"
	else
		fail "man page $m(1) does not render"
		show "$tmp/man.err"
	fi
done
unset LD_LIBRARY_PATH PKG_CONFIG_PATH
# Debian's python3 runs the python scripts (dh_python3), never the first
# python3 on PATH.
for f in "$root"/usr/bin/*; do
	head -1 "$f" | grep -q -a python || continue
	if head -1 "$f" | grep -q -x '#! \?/usr/bin/python3'; then
		ok "${f##*/} starts with $(head -1 "$f")"
	else
		fail "${f##*/} starts with $(head -1 "$f" | cut -c -40), not #!/usr/bin/python3"
	fi
done
# Every relative href and src of the packaged HTML names a file of the
# root, or of this machine through a link into another package.
py_check 60 ci_common.py "$tmp/links.out" links "$root" "$docdir"

echo "=== the exporter's systemd unit, its defaults and the rules (unpacked)"
has dpdk-pmu-tools /lib/systemd/system/dpdk-pmu-exporter@.service /etc/default/dpdk-pmu-exporter \
	/usr/share/dpdk-pmu/telemetry-endpoints/pmu.py /usr/share/dpdk-pmu/dpdk-pmu.alerts.yml \
	/usr/share/dpdk-pmu/dpdk-pmu.alerts.test.yml /usr/share/dpdk-pmu/dpdk-pmu.rules.test.yml
suggests=$(dpkg-deb -f "$(deb dpdk-pmu-tools)" Suggests)
if [[ ", $suggests, " =~ ,\ dpdk-dev,.*\ dpdk-doc,.*\ prometheus, ]]; then
	ok "dpdk-pmu-tools suggests dpdk-dev, dpdk-doc and prometheus (Suggests: $suggests)"
else
	fail "dpdk-pmu-tools Suggests: $suggests"
fi
if [ "$(realpath -m "$root/usr/share/dpdk/telemetry-endpoints/pmu.py")" = \
		"$root/usr/share/dpdk-pmu/telemetry-endpoints/pmu.py" ]; then
	ok "DPDK's plugin folder links to the plugin in /usr/share/dpdk-pmu/telemetry-endpoints"
else
	fail "/usr/share/dpdk/telemetry-endpoints/pmu.py is not a link to the one in /usr/share/dpdk-pmu"
fi
usage=$("$root/usr/bin/dpdk-pmu-exporter" --help 2>&1)
plugin_default=${usage##*folders searched for pmu.py (default: }
plugin_default=$(echo "${plugin_default%%)*}" | tr -d ' \n')
if [[ $plugin_default == "$root/usr/share/dpdk-pmu/telemetry-endpoints"* ]]; then
	ok "the installed exporter's default plugin path: ${plugin_default//"$root"/}"
else
	fail "the installed exporter's default plugin path is ${plugin_default:-not printed}"
fi
unit=/lib/systemd/system/dpdk-pmu-exporter@.service
if ! command -v systemd-analyze >/dev/null; then
	skip "systemd-analyze verify $unit: no systemd-analyze (package systemd)"
else
	# The root has no systemd of its own: this machine's targets, for
	# the unit's dependencies, and the root's man page for Documentation=.
	cp -n /lib/systemd/system/*.target "$root/lib/systemd/system/"
	if out=$(MANPATH=$root/usr/share/man systemd-analyze verify --root="$root" "$unit" 2>&1) &&
			[ -z "$out" ]; then
		ok "systemd-analyze verify $unit (the root's exporter and man page): nothing to say"
	else
		fail "systemd-analyze verify $unit: $out"
	fi
	# The unit's sandbox as systemd rates it, from 0 (safe) to 10: above 2
	# it lost part of it (8.4 offline with NoNewPrivileges= to
	# PrivateDevices= alone).
	if out=$(systemd-analyze security --offline=true --root="$root" --threshold=20 \
			--no-pager dpdk-pmu-exporter@ci.service 2>&1); then
		ok "systemd-analyze security $unit: $(grep -o -E '[0-9]+\.[0-9]+ [A-Z]+' <<<"${out##*level}")"
	else
		fail "systemd-analyze security $unit: $(grep -o -E '[0-9]+\.[0-9]+ [A-Z]+' <<<"${out##*level}")"
		grep '^✗' <<<"$out" | sed 's/^/    | /' | head -10
	fi
fi
# The maintainer scripts of dpdk-pmu-tools, for the instances of its
# template unit (dh_installsystemd writes none for a template). Run in a
# private mount namespace: a tmpfs on /run, with /run/systemd/system where
# systemd is to seem PID 1, and on /etc/systemd/system, with two instances'
# enable links, another unit's and a drop-in; first on PATH a systemctl
# and a deb-systemd-invoke that log their arguments and fail. Each step's
# calls, exit status and what is left in /etc/systemd/system land in
# $tmp/maint/STEP.
maint=$tmp/maint
mkdir -p "$maint/bin" "$maint/ctl"
for c in systemctl deb-systemd-invoke; do
	# shellcheck disable=SC2016 # $* and $MAINT_LOG: the fake command's
	printf '#!/bin/sh\necho "%s $*" >>"$MAINT_LOG"\nexit 1\n' $c >"$maint/bin/$c"
	chmod +x "$maint/bin/$c"
done
cat >"$maint/run.sh" <<'EOF'
set -u
unset DPKG_ROOT
maint=$1 etc=/etc/systemd/system
mount -t tmpfs tmpfs /run && mount -t tmpfs tmpfs $etc || exit 1
links()
{
	mkdir -p $etc/multi-user.target.wants $etc/dpdk-pmu-exporter@a.service.d
	for u in dpdk-pmu-exporter@a dpdk-pmu-exporter@b; do
		ln -sf /lib/systemd/system/dpdk-pmu-exporter@.service \
			$etc/multi-user.target.wants/$u.service
	done
	ln -sf /lib/systemd/system/other.service $etc/multi-user.target.wants/other.service
	touch $etc/dpdk-pmu-exporter@a.service.d/override.conf
}
step()
{
	local name=$1

	shift
	export MAINT_LOG=$maint/$name
	: >"$MAINT_LOG"
	"$maint/ctl/$@" </dev/null >>"$MAINT_LOG" 2>&1
	echo "exit $?" >>"$MAINT_LOG"
	(cd $etc && find . -mindepth 2 | sort | tr '\n' ' ' && echo) >>"$MAINT_LOG"
}
links
mkdir -p /run/systemd/system
step prerm-remove prerm remove
step postrm-remove postrm remove
step postrm-purge postrm purge
step postinst-configure postinst configure 0.1.0
step prerm-upgrade prerm upgrade 0.1.1
step postinst-abort-upgrade postinst abort-upgrade 0.1.1
links
# Another root's links: its purge removes them, not this system's.
export DPKG_ROOT=$maint/other-root
mkdir -p $DPKG_ROOT/etc/systemd/system/multi-user.target.wants
ln -sf /lib/systemd/system/dpdk-pmu-exporter@.service \
	$DPKG_ROOT/etc/systemd/system/multi-user.target.wants/dpdk-pmu-exporter@c.service
[ -L $DPKG_ROOT/etc/systemd/system/multi-user.target.wants/dpdk-pmu-exporter@c.service ] ||
	exit 1
step root-prerm-remove prerm remove
step root-postrm-purge postrm purge
step root-postinst-configure postinst configure 0.1.0
ls -A $DPKG_ROOT/etc/systemd/system/multi-user.target.wants >"$maint/root-left"
unset DPKG_ROOT
rm -r /run/systemd
links
step nosd-prerm-remove prerm remove
step nosd-postrm-remove postrm remove
step nosd-postrm-purge postrm purge
step nosd-postinst-configure postinst configure 0.1.0
EOF
unshare_root=(unshare --mount)
[ "$(id -u)" -eq 0 ] || unshare_root=(unshare --map-root-user --mount)
if ! dpkg-deb -e "$(deb dpdk-pmu-tools)" "$maint/ctl" ||
		! PATH=$maint/bin:$PATH "${unshare_root[@]}" bash "$maint/run.sh" "$maint" \
		>"$maint/run.log" 2>&1; then
	fail "the maintainer scripts of dpdk-pmu-tools could not be run in a mount namespace"
	show "$maint/run.log"
else
	# maint_step STEP WHAT EXPECTED: the calls, exit status and links of STEP.
	# What /etc/systemd/system holds: all of it, or what a purge leaves.
	dropin=./dpdk-pmu-exporter@a.service.d/override.conf w=./multi-user.target.wants
	all="$dropin $w/dpdk-pmu-exporter@a.service $w/dpdk-pmu-exporter@b.service $w/other.service "
	left="$dropin $w/other.service "
	maint_step()
	{
		local got calls

		got=$(cat "$maint/$1")
		calls=$(grep -E '^(systemctl|deb-systemd-invoke) ' <<<"$got" | paste -s -d ';')
		if [ "$got" = "$3" ]; then
			ok "dpdk-pmu-tools $2: ${calls//;/; }"
		else
			fail "dpdk-pmu-tools $2"
			printf '%s\n' "$3" >"$maint/$1.expected"
			echo "    expected:" && show "$maint/$1.expected"
			echo "    got:" && show "$maint/$1"
		fi
	}
	maint_step prerm-remove "prerm remove stops every instance (the calls failing)" \
		"deb-systemd-invoke stop dpdk-pmu-exporter@*.service
exit 0
$all"
	maint_step postrm-remove "postrm remove reloads systemd, keeps the enable links" \
		"systemctl daemon-reload
exit 0
$all"
	maint_step postrm-purge "postrm purge removes the instances' enable links, reloads" \
		"systemctl daemon-reload
exit 0
$left"
	maint_step postinst-configure "postinst configure reloads, restarts running instances" \
		"systemctl daemon-reload
deb-systemd-invoke try-restart dpdk-pmu-exporter@*.service
exit 0
$left"
	maint_step prerm-upgrade "prerm upgrade leaves the instances running (postinst restarts them)" \
		"exit 0
$left"
	maint_step postinst-abort-upgrade "postinst abort-upgrade (an upgrade that failed) reloads, restarts" \
		"systemctl daemon-reload
deb-systemd-invoke try-restart dpdk-pmu-exporter@*.service
exit 0
$left"
	(cd "$maint" && cat root-prerm-remove root-postrm-purge root-postinst-configure) \
		>"$maint/root"
	got=$(cat "$maint/root")
	if [ "$got" = "exit 0
$all
exit 0
$all
exit 0
$all" ] && [ ! -s "$maint/root-left" ]; then
		ok "dpdk-pmu-tools scripts with DPKG_ROOT (another root): no call, this system's" \
			"links kept, the other root's purged"
	else
		fail "dpdk-pmu-tools scripts with DPKG_ROOT set (prerm remove, postrm purge, postinst)"
		show "$maint/root"
	fi
	(cd "$maint" && cat nosd-prerm-remove nosd-postrm-remove nosd-postrm-purge \
		nosd-postinst-configure) >"$maint/nosd"
	got=$(cat "$maint/nosd")
	if [ "$got" = "exit 0
$all
exit 0
$all
exit 0
$left
exit 0
$left" ]; then
		ok "dpdk-pmu-tools scripts without systemd: no call, purge removes the links"
	else
		fail "dpdk-pmu-tools scripts without systemd (prerm, postrm remove, purge, postinst)"
		show "$maint/nosd"
	fi
fi
# The unit's ExecStart=, the defaults file expanded as systemd does, on the
# packaged dpdk-test-pmu with telemetry; scraped, then stopped.
instance=ci-package-unit-$$
prefixes=$instance
LD_LIBRARY_PATH=$root$lib timeout 60 "$root/usr/bin/dpdk-test-pmu" -l 0-1 --no-huge --no-pci \
	-m 64 --file-prefix="$instance" -- -e task-clock --interval 200 --duration 30 \
	>"$tmp/unit-app.log" 2>&1 &
pids+=($!)
if ! python3 -c 'import prometheus_client' 2>/dev/null &&
		! /usr/bin/python3 -c 'import prometheus_client' 2>/dev/null; then
	skip "the unit's ExecStart: python3-prometheus-client is not installed"
elif wait_for "[ -S $DPDK_RUNDIR/$instance/dpdk_telemetry.v2 ]" 20; then
	py_check 60 ci_observe_check.py "$tmp/unit.out" unit-exec "$root" "$instance" "$(free_port)"
else
	fail "the unit's ExecStart: the packaged dpdk-test-pmu opened no telemetry socket"
	show "$tmp/unit-app.log"
fi
kill "${pids[-1]}" 2>/dev/null
# systemd itself runs the unit only where it is PID 1 (sd_booted()).
if [ -d /run/systemd/system ]; then
	systemd_run_unit
else
	skip "dpdk-pmu-exporter@.service started by systemd: systemd is not PID 1 here" \
		"($(ps -p 1 -o comm= 2>/dev/null || echo unknown)); ExecStart run as above instead"
fi
# The rules and their tests as installed.
if ! command -v promtool >/dev/null; then
	skip "promtool on the installed rules: no promtool (package prometheus)"
else
	for t in "check rules dpdk-pmu.rules.yml dpdk-pmu.alerts.yml" \
			"test rules dpdk-pmu.rules.test.yml dpdk-pmu.alerts.test.yml"; do
		# shellcheck disable=SC2086 # $t: the promtool command and its files
		if out=$(cd "$root/usr/share/dpdk-pmu" && promtool $t 2>&1); then
			ok "promtool $t (installed in /usr/share/dpdk-pmu): $(grep -c SUCCESS <<<"$out") SUCCESS"
		else
			fail "promtool $t (installed): $out"
		fi
	done
fi

echo "=== README: a program against a build tree, without installing"
# The README's block under "Against the build tree", run as written in a
# folder where build/ is the packages' meson build tree and examples/ and
# app/ the source tree's.
awk '/^### Against the build tree/ {f = 1} f && /^```sh$/ {b = 1; next}
	b && /^```$/ {exit} b {print}' README.md >"$tmp/recipe.sh"
objdirs=("$src"/obj-*)
objdir=${objdirs[0]}
mkdir "$tmp/readme"
if [ ! -s "$tmp/recipe.sh" ]; then
	fail "README.md has no sh block under \"### Against the build tree\""
elif [ ! -f "$objdir/meson-uninstalled/librte_pmu-uninstalled.pc" ]; then
	fail "no meson-uninstalled/librte_pmu-uninstalled.pc in the packages' build tree ${objdir:-(none)}"
else
	ln -s "$objdir" "$tmp/readme/build"
	ln -s "$src/examples" "$tmp/readme/examples"
	# The tree's app/ folder too: an output named app failed at the top
	# of the tree (an outside tester's find).
	ln -s "$src/app" "$tmp/readme/app"
	if (cd "$tmp/readme" && bash -e "$tmp/recipe.sh") >"$tmp/readme.out" 2>&1 &&
			grep -q ' over the loop' "$tmp/readme.out"; then
		ok "README's build-tree recipe compiles and runs: $(grep ' over the loop' "$tmp/readme.out")"
	else
		fail "README's build-tree recipe"
		show "$tmp/recipe.sh"
		show "$tmp/readme.out"
	fi
	# What the recipe's LD_LIBRARY_PATH is for: with it the loader takes the
	# build tree's library; without it none, or one installed on this machine.
	if [ -x "$tmp/readme/myapp" ]; then
		so=$(LD_LIBRARY_PATH=$objdir/lib ldd "$tmp/readme/myapp" | awk '$1 == "librte_pmu.so.0" {print $3}')
		noenv=$(ldd "$tmp/readme/myapp" | awk '$1 == "librte_pmu.so.0" {print $3}')
		if [ "$(realpath "$so")" != "$(realpath "$objdir/lib/librte_pmu.so.0")" ]; then
			fail "with the recipe's LD_LIBRARY_PATH the program loads '$so', not the build tree's"
		elif [ "$noenv" = "not" ]; then
			ok "the recipe's LD_LIBRARY_PATH loads the build tree's library; without it none is found"
		else
			ok "the recipe's LD_LIBRARY_PATH loads the build tree's library; without it $noenv (installed)"
		fi
	fi
fi


echo "=== the man pages' examples, run as written on the unpacked packages"
# Each command of the Examples sections of doc/guides/tools/*.rst (the man
# pages' sources), in order, with the root's programs first on PATH
# (devtools/check_doc_commands.py; ".. ci: skip" comments name the reason).
PATH=$root/usr/bin:$PATH LD_LIBRARY_PATH=$root$lib \
	RTE_PMU_RUN_PRELOAD=$root$lib/dpdk-pmu/librte_pmu_preload.so \
	py_check 500 check_doc_commands.py "$tmp/doc-commands.out" "$src"/doc/guides/tools/[a-z]*_*.rst
skipped=$((skipped + $(grep -c '^skip:' "$tmp/doc-commands.out")))
prefixes="$prefixes app"

finish
