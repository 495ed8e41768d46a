#!/bin/bash
# The Debian packages (TAP): `make deb` builds rapolicy-dkms, rapolicy-tools
# and rapolicy-monitoring, lintian-clean; the dkms package holds exactly the
# module's build inputs, the tools package what `make -C userspace install`
# installs and the monitoring one what `make -C monitoring install` does. Then, system-wide (root): `apt-get install` of both succeeds on
# this host, whose kernel lacks CONFIG_READAHEAD_POLICY; DKMS refuses a
# kernel without the option with the BUILD_EXCLUSIVE message and
# `dkms autoinstall` for such a kernel still succeeds (it runs when any
# kernel's headers are installed); `dkms build` against the patched test
# kernel builds rapolicy.ko, the guest boots and loads that file; purge
# leaves nothing behind. Whatever happens, the packages are purged and what
# the test created is removed (trap). Then `make kernel-deb` for 6.12 and 7.3 with the test
# config (the image package must carry CONFIG_READAHEAD_POLICY=y), the
# Debian config as far as kconfig; rapolicy-dkms installed before the 7.3
# test-config kernel's packages, whose DKMS hook must build and install the
# module for that kernel; and tests/readme-install.sh (the README's
# Installing section, run as written).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/kernel/common.sh"
. "$top/tests/tap.sh"

[ "$(id -u)" = 0 ] || { echo "ok 1 - deb suite # SKIP installs packages system-wide: run as root"; exit 0; }
need_pkgs dpkg-buildpackage:dpkg-dev dh:debhelper dh_dkms:dh-dkms lintian:lintian dkms:dkms \
	modinfo:kmod

version=$(cat "$top/VERSION")
debdir=$top/build/deb
work=$(mktemp -d)
apt_opts=(-y -q --no-install-recommends -o DPkg::Lock::Timeout=300)
release=
made_moddir=
kernel_pkgs=

cleanup() {
	local p
	for p in rapolicy-monitoring rapolicy-tools rapolicy-dkms $kernel_pkgs; do
		if dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -qv not-installed; then
			DEBIAN_FRONTEND=noninteractive apt-get purge "${apt_opts[@]}" "$p" >/dev/null 2>&1 ||
				dpkg --purge --force-all "$p" >/dev/null 2>&1
		fi
	done
	rm -rf "/var/lib/dkms/rapolicy" "/usr/src/rapolicy-$version"
	[ -z "$made_moddir" ] || rm -rf "/lib/modules/$made_moddir"
	rm -rf "$work"
	[ "$had_moddir" = 1 ] || rmdir /lib/modules 2>/dev/null
}
had_moddir=0
[ ! -d /lib/modules ] || had_moddir=1
trap cleanup EXIT
# Never touch an installation that was there before (a killed run of this
# test leaves one too: the message says how to remove it).
present=$( {
	dpkg-query -W -f '${Package} ${Status}\n' 'rapolicy-*' 2>/dev/null |
		awk '$NF != "not-installed" { print $1 }'
	ls -d /usr/src/rapolicy-* /var/lib/dkms/rapolicy 2>/dev/null
} | tr '\n' ' ')
if [ -n "$present" ]; then
	trap - EXIT
	rm -rf "$work"
	echo "ok 1 - deb suite # SKIP rapolicy is installed here already ($present): apt-get purge rapolicy-dkms rapolicy-tools; dkms remove rapolicy --all"
	exit 0
fi

# --- the build --------------------------------------------------------------
out=$(make -s -C "$top" deb 2>&1)
rc=$?
echo "$out" | grep -v 'running with root privileges' | tail -n 5 | comment
tap $rc "make deb builds the packages"
dkms_deb=$(ls "$debdir"/rapolicy-dkms_"$version"_all.deb 2>/dev/null)
tools_deb=$(ls "$debdir"/rapolicy-tools_"$version"_*.deb 2>/dev/null)
mon_deb=$(ls "$debdir"/rapolicy-monitoring_"$version"_all.deb 2>/dev/null)
bpf_deb=$(ls "$debdir"/rapolicy-bpf_"$version"_*.deb 2>/dev/null)
[ -f "$dkms_deb" ] && [ -f "$tools_deb" ] && [ -f "$mon_deb" ] && [ -f "$bpf_deb" ]
tap $? "build/deb has rapolicy-dkms, rapolicy-tools, rapolicy-monitoring and rapolicy-bpf $version"

errors=$(grep -c '^E: ' "$debdir/lintian.txt" 2>/dev/null)
warnings=$(grep -c '^W: ' "$debdir/lintian.txt" 2>/dev/null)
grep -E '^[EW]: ' "$debdir/lintian.txt" 2>/dev/null | comment
[ -f "$debdir/lintian.txt" ] && [ "$errors" = 0 ] && [ "$warnings" = 0 ]
tap $? "lintian: no errors, no warnings (overrides have reasons in debian/*.lintian-overrides)"

changelog=$(cd "$top" && dpkg-parsechangelog -S Version)
[ "$changelog" = "$version" ]
tap $? "debian/changelog's version ($changelog) is VERSION ($version)"

# The DKMS source: Kbuild, VERSION, dkms.conf and the sources in module/,
# nothing else (no objects of a by-hand build, no tests, no .git).
(cd "$top" && { printf '%s\n' Kbuild VERSION dkms.conf
	find module -type f \( -name '*.c' -o -name '*.h' \) ! -name '*.mod.c'; } |
	sed "s|^|./usr/src/rapolicy-$version/|" | sort) >"$work/want-dkms"
dpkg-deb -c "$dkms_deb" 2>/dev/null | awk '$1 !~ /^d/ { print $6 }' |
	grep "^./usr/src/" | sort >"$work/got-dkms"
diff "$work/want-dkms" "$work/got-dkms" | comment
cmp -s "$work/want-dkms" "$work/got-dkms"
tap $? "rapolicy-dkms: /usr/src/rapolicy-$version holds exactly Kbuild, VERSION, dkms.conf, module/*.[ch]"
dpkg-deb -c "$dkms_deb" 2>/dev/null | awk '$1 !~ /^d/ { print $6 }' |
	grep -v -e "^./usr/src/rapolicy-$version/" -e '^./usr/share/doc/rapolicy-dkms/' | comment
! dpkg-deb -c "$dkms_deb" 2>/dev/null | awk '$1 !~ /^d/ { print $6 }' |
	grep -qv -e "^./usr/src/rapolicy-$version/" -e '^./usr/share/doc/rapolicy-dkms/'
tap $? "rapolicy-dkms ships nothing else but its doc directory"

# The tools: whatever the userspace install installs, with PREFIX=/usr.
mkdir -p "$work/inst"
make -s -C "$top/userspace" install BUILD="$work/ubuild" DESTDIR="$work/inst" PREFIX=/usr \
	>/dev/null 2>&1
(cd "$work/inst" && find . ! -type d | sed 's/\.gz$//' | sort) >"$work/want-tools"
# (Debian 12's debhelper needs units in /lib/systemd/system: debian/rules
# moves them there from /usr/lib, the same directory on a merged /usr.)
dpkg-deb -c "$tools_deb" | awk '$1 !~ /^d/ { print $6 }' | sed -e 's/\.gz$//' -e 's|^\./lib/systemd/|./usr/lib/systemd/|' |
	grep -v -e '^./usr/share/doc/rapolicy-tools/' -e '^./usr/share/lintian/overrides/' |
	sort >"$work/got-tools"
diff "$work/want-tools" "$work/got-tools" | comment
[ -s "$work/want-tools" ] && cmp -s "$work/want-tools" "$work/got-tools"
tap $? "rapolicy-tools ships what make -C userspace install installs ($(wc -l <"$work/want-tools") files)"

# The monitoring: whatever the monitoring install installs, with PREFIX=/usr
make -s -C "$top/monitoring" install DESTDIR="$work/mon" PREFIX=/usr >/dev/null 2>&1
(cd "$work/mon" && find . ! -type d | sort) >"$work/want-mon"
dpkg-deb -c "$mon_deb" | awk '$1 !~ /^d/ { print $6 }' | sed -e 's|^\./lib/systemd/|./usr/lib/systemd/|' |
	grep -v '^./usr/share/doc/rapolicy-monitoring/' | sort >"$work/got-mon"
diff "$work/want-mon" "$work/got-mon" | comment
[ -s "$work/want-mon" ] && cmp -s "$work/want-mon" "$work/got-mon" &&
	grep -qx './usr/share/rapolicy/grafana/rapolicy.dashboard.json' "$work/got-mon" &&
	grep -qx './usr/share/rapolicy/prometheus/rapolicy.rules.yml' "$work/got-mon"
tap $? "rapolicy-monitoring ships the collector, its timer, the rules and the dashboard ($(wc -l <"$work/want-mon") files)"

# rapolicy-bpf: the loader, its man page and the two example policies,
# BPF objects with their struct_ops map
dpkg-deb -c "$bpf_deb" | awk '$1 !~ /^d/ { print $6 }' | grep -v '^./usr/share/doc/rapolicy-bpf/' |
	sed 's/\.gz$//' | sort >"$work/got-bpf"
printf '%s\n' ./usr/lib/rapolicy/bpf/descending_seq.bpf.o ./usr/lib/rapolicy/bpf/sync_mmap_order.bpf.o \
	./usr/sbin/rapolicy-bpf ./usr/share/lintian/overrides/rapolicy-bpf ./usr/share/man/man8/rapolicy-bpf.8 |
	sort >"$work/want-bpf"
diff "$work/want-bpf" "$work/got-bpf" | comment
rm -rf "$work/bpf"
dpkg-deb -x "$bpf_deb" "$work/bpf" 2>/dev/null
# (rapolicy-bpf without arguments prints its usage and exits 1)
usage=$("$work/bpf/usr/sbin/rapolicy-bpf" 2>&1)
cmp -s "$work/want-bpf" "$work/got-bpf" &&
	readelf -h "$work/bpf/usr/lib/rapolicy/bpf/descending_seq.bpf.o" 2>/dev/null | grep -q 'Linux BPF' &&
	readelf -SW "$work/bpf/usr/lib/rapolicy/bpf/descending_seq.bpf.o" 2>/dev/null | grep -q ' \.struct_ops ' &&
	echo "$usage" | grep -q '^usage: rapolicy-bpf'
tap $? "rapolicy-bpf ships the loader (it runs), its man page and the two example BPF policies"

# --- on this host -------------------------------------------------------------
out=$(DEBIAN_FRONTEND=noninteractive apt-get install "${apt_opts[@]}" "$dkms_deb" "$tools_deb" "$mon_deb" 2>&1)
rc=$?
echo "$out" | grep -iE 'dkms|error|warn|rapolicy' | tail -n 8 | comment
[ "$rc" = 0 ] && dpkg-query -W -f '${Status}\n' rapolicy-dkms rapolicy-tools rapolicy-monitoring |
	grep -c 'install ok installed' | grep -qx 3
tap $? "apt-get install ./rapolicy-{dkms,tools,monitoring}_*.deb on $(uname -r) (no CONFIG_READAHEAD_POLICY)"

dkms status rapolicy 2>/dev/null | comment
[ -f "/usr/src/rapolicy-$version/dkms.conf" ] && dkms status rapolicy 2>/dev/null | grep -q "rapolicy/$version"
tap $? "dkms knows rapolicy/$version"

out=$(/usr/sbin/rapolicyctl --version 2>&1)
echo "$out" | comment
echo "$out" | grep -qF "$version"
tap $? "/usr/sbin/rapolicyctl runs and reports $version"

tree=$(bash "$top/tests/kernel/build-kernel.sh")
release=$(cat "$tree/include/config/kernel.release" 2>/dev/null)

# A configured tree without the option shows the refusal: the stock test
# kernel if it is built, else one made from the patched tree's config.
stock=$(bash "$top/tests/kernel/build-kernel.sh" --print-dir --stock)
if [ -f "$stock/.rapolicy-built" ]; then
	srelease=$(cat "$stock/include/config/kernel.release")
else
	stock=$work/unpatched
	mkdir -p "$stock"
	sed '/CONFIG_READAHEAD_POLICY/d' "$tree/.config" >"$stock/.config"
	cp "$tree/Makefile" "$stock/"
	srelease=0.0.0-unpatched
fi
out=$(dkms build -m rapolicy -v "$version" -k "$srelease" --kernelsourcedir "$stock" 2>&1)
rc=$?
echo "$out" | tail -n 3 | comment
[ "$rc" != 0 ] && echo "$out" | grep -q 'BUILD_EXCLUSIVE directive which does not match'
tap $? "dkms build refuses a kernel without CONFIG_READAHEAD_POLICY ($srelease), with the BUILD_EXCLUSIVE message"

# What a new kernel's headers package runs (/etc/kernel/header_postinst.d/dkms).
out=$(dkms autoinstall -k "$srelease" --kernelsourcedir "$stock" 2>&1)
rc=$?
echo "$out" | tail -n 3 | comment
[ "$rc" = 0 ]
tap $? "dkms autoinstall for that kernel succeeds (installing its headers would fail otherwise)"

# --- against the patched test kernel ---------------------------------------------
ko=
if [ -n "$release" ]; then
	out=$(dkms build -m rapolicy -v "$version" -k "$release" --kernelsourcedir "$tree" 2>&1)
	rc=$?
	echo "$out" | tail -n 3 | comment
	ko=$(find "/var/lib/dkms/rapolicy/$version/$release" -name 'rapolicy.ko*' 2>/dev/null | head -n 1)
	[ "$rc" = 0 ] && [ -n "$ko" ]
	tap $? "dkms build -m rapolicy -v $version -k $release --kernelsourcedir <patched tree> builds rapolicy.ko"
else
	tap 1 "the patched test kernel tree (tests/kernel/build-kernel.sh) is built"
fi

if [ -n "$ko" ]; then
	# DKMS installs only for a kernel whose module directory exists, as
	# the linux-image package makes it; the cleanup removes it again.
	if [ ! -d "/lib/modules/$release" ]; then
		made_moddir=$release
		mkdir -p "/lib/modules/$release"
	fi
	out=$(dkms install -m rapolicy -v "$version" -k "$release" --kernelsourcedir "$tree" 2>&1)
	rc=$?
	echo "$out" | tail -n 2 | comment
	[ "$rc" = 0 ] && find "/lib/modules/$release" -name 'rapolicy.ko*' | grep -q .
	tap $? "dkms install puts it under /lib/modules/$release"

	cp "$ko" "$work/"
	ko=$work/${ko##*/}
	case $ko in *.xz) xz -d "$ko" ;; *.zst) zstd -q -d --rm "$ko" ;; esac
	ko=$work/rapolicy.ko
	out=$("$top/tests/vm/vm-run" --timeout 300 --add "$ko" -- sh -c \
		'grep -q "^rapolicy " /proc/modules && echo preloaded
		 insmod /add/rapolicy.ko && test -d /sys/kernel/mm/rapolicy &&
		 cat /sys/kernel/mm/rapolicy/descending_thp && echo dkms-module-loaded' 2>&1)
	rc=$?
	echo "$out" | tail -n 3 | comment
	[ "$rc" = 0 ] && echo "$out" | grep -qx dkms-module-loaded && ! echo "$out" | grep -qx preloaded
	tap $? "the guest ($release) loads the DKMS-built rapolicy.ko: /sys/kernel/mm/rapolicy exists"
fi

# --- removal ----------------------------------------------------------------------
out=$(DEBIAN_FRONTEND=noninteractive apt-get purge "${apt_opts[@]}" rapolicy-dkms rapolicy-tools rapolicy-monitoring 2>&1)
rc=$?
echo "$out" | grep -iE 'dkms|error|warn' | tail -n 4 | comment
[ "$rc" = 0 ] && ! dpkg-query -W -f '${Status}\n' rapolicy-dkms rapolicy-tools rapolicy-monitoring 2>/dev/null |
	grep -q installed
tap $? "apt-get purge rapolicy-dkms rapolicy-tools rapolicy-monitoring"

left=$( {
	ls -d /usr/src/rapolicy-* /var/lib/dkms/rapolicy /etc/rapolicy.conf \
		/usr/sbin/rapolicyctl /usr/bin/rawalk /usr/libexec/rapolicy /usr/share/rapolicy 2>/dev/null
	find /lib/modules /usr/lib/modules -name 'rapolicy*.ko*' 2>/dev/null
	find /lib/systemd /usr/lib/systemd /etc/systemd /var/lib/systemd \
		-name '*rapolicy*' 2>/dev/null
} | sort -u)
echo "$left" | grep . | comment
[ -z "$left" ]
tap $? "nothing left behind: no /usr/src/rapolicy-*, DKMS tree, module file, tool, unit or unit state"

# --- make kernel-deb ------------------------------------------------------------------
# The test config only (the Debian one takes hours): with ccache warm from
# the test kernel, about a minute. Then the Debian config as far as kconfig.
# 6.12 first (its own series, patches/6.12/, and trixie's linux-config-6.12),
# so build/kernel-deb/ holds the 7.3 packages that readme-install.sh installs.
kernel_deb() {
	local series=$1 linux=$1. start rc out image headers config
	start=$(date +%s)
	out=$(env KERNEL_SERIES="$series" KERNEL_DEB_CONFIG=test make -C "$top" --no-print-directory kernel-deb 2>&1)
	rc=$?
	echo "$out" | grep -v '^\[rapolicy\] \.\.\.' | tail -n 4 | comment
	tap $rc "KERNEL_SERIES=$series make kernel-deb KERNEL_DEB_CONFIG=test ($(($(date +%s) - start)) s)"
	image=
	for f in "$top"/build/kernel-deb/linux-image-"$linux"*.deb; do
		case $f in *-dbg_*) ;; *) [ ! -f "$f" ] || image=$f ;; esac
	done
	headers=$(ls "$top"/build/kernel-deb/linux-headers-"$linux"*.deb 2>/dev/null | head -n 1)
	rm -rf "$work/image"
	mkdir -p "$work/image"
	[ -n "$image" ] && dpkg-deb -x "$image" "$work/image" 2>/dev/null
	grep -H READAHEAD_POLICY "$work"/image/boot/config-* 2>/dev/null | comment
	[ -n "$image" ] && [ -n "$headers" ] && grep -qx CONFIG_READAHEAD_POLICY=y "$work"/image/boot/config-* &&
		[ -f "$(ls "$work"/image/boot/vmlinuz-* 2>/dev/null | head -n 1)" ]
	tap $? "linux-image-$linux* (vmlinuz, /boot/config with CONFIG_READAHEAD_POLICY=y) and linux-headers packages"
	# BTF kept, without the debug-symbol package: the image's config has
	# it, and the headers carry vmlinux's BTF for the modules DKMS builds.
	# Only where the series' test config asks for BTF: 6.12's has no BPF
	# policies (module/bpf.c does not build against 6.12's struct_ops), so
	# no BTF; Debian's own 6.12 config keeps it (the check below).
	if ! grep -qx CONFIG_DEBUG_INFO_BTF=y "$top/tests/kernel/series-$series.config" 2>/dev/null; then
		n=$((n + 1))
		echo "ok $n - BTF without a -dbg package # SKIP $series's test config has no BTF"
	else
		rm -rf "$work/headers"
		mkdir -p "$work/headers"
		[ -n "$headers" ] && dpkg-deb -x "$headers" "$work/headers" 2>/dev/null
		btf=$(ls "$work"/headers/usr/src/linux-headers-*/vmlinux 2>/dev/null | head -n 1)
		ls "$top"/build/kernel-deb/ | comment
		grep -qx CONFIG_DEBUG_INFO_BTF=y "$work"/image/boot/config-* &&
			grep -qx CONFIG_DEBUG_INFO_BTF_MODULES=y "$work"/image/boot/config-* &&
			! ls "$top"/build/kernel-deb/linux-image-"$linux"*-dbg_*.deb >/dev/null 2>&1 &&
			[ -s "$btf" ] && [ "$(od -An -tx1 -N2 "$btf" | tr -d ' ')" = 9feb ]
		tap $? "BTF without a -dbg package: DEBUG_INFO_BTF(_MODULES) in the image, vmlinux's raw BTF in the headers ($(stat -c %s "$btf" 2>/dev/null) bytes)"
	fi

	out=$(KERNEL_SERIES=$series KERNEL_DEB_CONFIG=debian bash "$top/tests/kernel/kernel-deb.sh" --config-only 2>&1)
	rc=$?
	config=$(echo "$out" | tail -n 1)
	echo "$out" | grep -v '^Get:\|^Fetched\|^W: Download' | tail -n 2 | comment
	[ "$rc" = 0 ] && grep -qx CONFIG_READAHEAD_POLICY=y "$config" && grep -qx CONFIG_DEBUG_INFO_BTF=y "$config" &&
		grep -qx CONFIG_DEBUG_INFO_BTF_MODULES=y "$config" &&
		grep -q "^# Linux/x86 $linux" "$config" && [ "$(grep -c '=m$' "$config")" -gt 1000 ]
	tap $? "Debian's distribution config (linux-config-$series) with the $series series keeps CONFIG_READAHEAD_POLICY=y and BTF"
}
kernel_deb 6.12
kernel_deb 7.3

# --- DKMS follows a new kernel ---------------------------------------------------------
# rapolicy-dkms first, then a patched kernel's packages (the 7.3 test-config
# ones just built), as an upgrade brings them: the image's postinst runs
# /etc/kernel/postinst.d/dkms, whose dkms autoinstall must build and install
# the module for the new kernel. Then all of it purged.
image=$(ls "$top"/build/kernel-deb/linux-image-7.3*.deb 2>/dev/null | grep -v -- -dbg_ | head -n 1)
headers=$(ls "$top"/build/kernel-deb/linux-headers-7.3*.deb 2>/dev/null | head -n 1)
krel=$(dpkg-deb -f "$image" Package 2>/dev/null | sed 's/^linux-image-//')
if [ -z "$krel" ] || [ -z "$headers" ]; then
	tap 1 "the 7.3 test-config kernel packages are in build/kernel-deb"
elif dpkg-query -W -f '${Status}' "linux-image-$krel" 2>/dev/null | grep -q ' installed'; then
	n=$((n + 1)); echo "ok $n - DKMS follows a new kernel # SKIP linux-image-$krel is installed here already"
else
	kernel_pkgs="linux-image-$krel linux-headers-$krel"
	out=$(DEBIAN_FRONTEND=noninteractive apt-get install "${apt_opts[@]}" "$dkms_deb" 2>&1)
	tap $? "apt-get install ./rapolicy-dkms_*.deb before the patched kernel"
	out=$(DEBIAN_FRONTEND=noninteractive apt-get install "${apt_opts[@]}" "$image" "$headers" 2>&1)
	rc=$?
	echo "$out" | grep -iE 'dkms|rapolicy|error' | tail -n 6 | comment
	ko=$(find "/lib/modules/$krel" -name 'rapolicy.ko*' 2>/dev/null | head -n 1)
	dkms status rapolicy 2>/dev/null | comment
	[ "$rc" = 0 ] && [ -n "$ko" ] && dkms status rapolicy -k "$krel" 2>/dev/null | grep -q ': installed'
	tap $? "installing linux-image-$krel and its headers builds and installs rapolicy.ko for it (${ko:-none})"
	[ -n "$ko" ] && [ "$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)" = "$krel" ]
	tap $? "that rapolicy.ko is built for $krel (vermagic)"
	cp "$ko" "$work/dkms-ko"
	case $ko in *.xz) mv "$work/dkms-ko" "$work/dkms-ko.xz" && xz -d "$work/dkms-ko.xz" ;;
	*.zst) zstd -q -d -f "$work/dkms-ko" -o "$work/dkms-ko.d" && mv "$work/dkms-ko.d" "$work/dkms-ko" ;; esac
	readelf -S "$work/dkms-ko" 2>/dev/null | grep -q ' \.BTF '
	tap $? "it has BTF (struct rapolicy_ops for BPF policies), generated against the headers' vmlinux BTF"
	# shellcheck disable=SC2086
	out=$(DEBIAN_FRONTEND=noninteractive apt-get purge "${apt_opts[@]}" rapolicy-dkms $kernel_pkgs 2>&1)
	rc=$?
	echo "$out" | grep -iE 'error' | tail -n 4 | comment
	[ "$rc" = 0 ] && [ -z "$(find "/lib/modules/$krel" -name 'rapolicy.ko*' 2>/dev/null)" ] &&
		[ ! -d /var/lib/dkms/rapolicy ]
	tap $? "purging them leaves no rapolicy module and no DKMS tree"
	rm -rf "/lib/modules/$krel"
	kernel_pkgs=
fi

# --- the README's Installing section, as written --------------------------------------------
while IFS= read -r line; do
	case $line in
	'ok '*) tap 0 "readme-install: ${line#ok * - }" ;;
	'not ok '*) tap 1 "readme-install: ${line#not ok * - }" ;;
	'1..0 # SKIP'*) n=$((n + 1)); echo "ok $n - README's Installing section # SKIP ${line#1..0 # SKIP }" ;;
	'1..'*) ;;
	*) echo "$line" ;;
	esac
done < <(bash "$top/tests/readme-install.sh" 2>&1)

echo "1..$n"
[ "$fails" = 0 ]
