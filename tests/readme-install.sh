#!/bin/bash
# The README's "Installing" section, run as written (TAP). Every ```sh block
# between <!-- install-test: WHERE --> and <!-- install-test: end --> runs,
# in order, with `sh -e`, in a copy of this checkout:
#   host         on this machine, as root
#   booted       in the machine after the reboot the README asks for: a
#                QEMU guest booting the kernel the host installed
#                (/boot/vmlinuz-RELEASE of the linux-image package), with
#                the rapolicy modules DKMS installed under
#                /lib/modules/RELEASE and the installed tools (those linked
#                dynamically replaced by their static build: the guest has
#                no libc); the block runs in a directory holding the
#                checkout's rapolicy.ko
#   booted-host  on this machine as if it ran that kernel: `uname -r`
#                answers RELEASE
# The only differences from a user's run: KERNEL_DEB_CONFIG=test (the
# Debian config takes hours), apt-get answers yes by itself, and the
# reboot is a QEMU boot. Whatever happens, the packages the section
# installs are purged at the end (trap).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/kernel/common.sh"
. "$top/tests/tap.sh"

[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP installs packages system-wide: run as root"; exit 0; }

work=$(mktemp -d)
copy=$work/rapolicy
release=

ours() {
	dpkg-query -W -f '${Package} ${Status}\n' 'rapolicy-*' 'linux-image-*-rapolicy*' \
		'linux-headers-*-rapolicy*' 2>/dev/null | awk '$NF != "not-installed" { print $1 }'
}
cleanup() {
	local pkgs
	pkgs=$(ours)
	if [ -n "$pkgs" ]; then
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -q -o DPkg::Lock::Timeout=300 $pkgs \
			>/dev/null 2>&1 || dpkg --purge --force-all $pkgs >/dev/null 2>&1
	fi
	rm -rf /var/lib/dkms/rapolicy /usr/src/rapolicy-*
	[ -z "$release" ] || rm -rf "/lib/modules/$release"
	rm -rf "$work"
	[ "$had_moddir" = 1 ] || rmdir /lib/modules 2>/dev/null
}
if [ -n "$(ours)" ]; then
	echo "1..0 # SKIP rapolicy or rapolicy kernel packages are installed here already: $(ours | tr '\n' ' ')"
	exit 0
fi
had_moddir=0
[ ! -d /lib/modules ] || had_moddir=1
trap cleanup EXIT

# --- the blocks -------------------------------------------------------------------
mkdir -p "$work/blocks"
awk -v dir="$work/blocks" '
	/^<!-- install-test: [a-z-]+ -->$/ {
		where = $3; if (where == "end") where = ""; next }
	where != "" && /^```sh$/ { n++; f = sprintf("%s/%02d-%s.sh", dir, n, where); inblock = 1; next }
	inblock && /^```$/ { inblock = 0; close(f); next }
	inblock { print > f }
' "$top/README.md"
blocks=$(ls "$work/blocks")
echo "$blocks" | comment
echo "$blocks" | head -n 1 | grep -q -- '-host\.sh$' && echo "$blocks" | grep -q -- '-booted\.sh$' &&
	grep -qx 'make kernel-deb' "$work/blocks"/*-host.sh && grep -qx 'make deb' "$work/blocks"/*-host.sh
tap $? "README's Installing section: install-test blocks, the package route (make kernel-deb, make deb) first"

# --- the environment --------------------------------------------------------------
mkdir -p "$copy"
tar -C "$top" --exclude=./build --exclude=./.git --exclude='*.o' --exclude='*.ko' \
	--exclude='.*.cmd' --exclude='*.mod' --exclude='*.mod.c' --exclude=Module.symvers \
	--exclude=modules.order -cf - . | tar -C "$copy" -xf -
printf '%s\n' 'APT::Get::Assume-Yes "true";' 'DPkg::Lock::Timeout "300";' >"$work/apt.conf"
export APT_CONFIG=$work/apt.conf DEBIAN_FRONTEND=noninteractive KERNEL_DEB_CONFIG=test
mkdir -p "$work/shim"
cat >"$work/shim/uname" <<EOF
#!/bin/sh
[ "\$*" = -r ] && [ -n "\$(cat "$work/release" 2>/dev/null)" ] && exec cat "$work/release"
exec /bin/uname "\$@"
EOF
chmod +x "$work/shim/uname"

# The booted machine: the installed kernel, its DKMS modules, the tools.
boot() {
	local block=$1 tree=$work/boot-tree guest=$work/guest
	rm -rf "$tree" "$guest"
	mkdir -p "$tree/arch/x86/boot" "$tree/include/config" "$guest/mods" "$guest/bin" "$guest/cwd"
	cp "/boot/vmlinuz-$release" "$tree/arch/x86/boot/bzImage" || return 1
	echo "$release" >"$tree/include/config/kernel.release"
	: >"$tree/.config"
	find "/lib/modules/$release" -path "/lib/modules/$release/build" -prune -o \
		-name 'rapolicy*.ko*' -print | while read -r m; do cp "$m" "$guest/mods/"; done
	# The guest has no libc: a dynamically linked tool of the package is
	# stood in for by the checkout's static build of it (vm-run's build/bin).
	for b in /usr/sbin/rapolicyctl /usr/bin/rawalk; do
		[ -f "$b" ] || continue
		readelf -l "$b" 2>/dev/null | grep -q 'program interpreter' || cp "$b" "$guest/bin/"
	done
	[ ! -f "$copy/rapolicy.ko" ] || cp "$copy/rapolicy.ko" "$guest/cwd/"
	cp "$block" "$guest/block.sh"
	ls "$guest/mods" "$guest/bin" "$guest/cwd" | tr '\n' ' ' | comment
	echo
	# shellcheck disable=SC2016
	RAPOLICY_KERNEL_TREE=$tree "$copy/tests/vm/vm-run" --timeout 300 --add "$guest" -- sh -c '
		d=/lib/modules/$(uname -r)/updates/dkms
		mkdir -p $d && cp /add/guest/mods/* $d/ 2>/dev/null; depmod
		cp /add/guest/bin/* /usr/bin/ 2>/dev/null
		cd /add/guest/cwd && sh -e /add/guest/block.sh && test -d /sys/kernel/mm/rapolicy &&
			echo README-BLOCK-OK'
}

# --- run them ----------------------------------------------------------------------
for b in "$work/blocks"/*.sh; do
	name=${b##*/}
	where=${name#*-}
	where=${where%.sh}
	first=$(head -n 1 "$b")
	start=$(date +%s)
	case $where in
	host)
		out=$(cd "$copy" && sh -e "$b" 2>&1)
		rc=$? ;;
	booted-host)
		out=$(cd "$copy" && PATH=$work/shim:$PATH sh -e "$b" 2>&1)
		rc=$? ;;
	booted)
		if [ -z "$release" ]; then
			out="no rapolicy kernel installed by an earlier block"
			rc=1
		else
			out=$(boot "$b" 2>&1)
			rc=$?
			[ "$rc" = 0 ] && echo "$out" | grep -qx README-BLOCK-OK || rc=1
		fi ;;
	*)
		out="unknown install-test place: $where"
		rc=1 ;;
	esac
	echo "$out" | grep -v '^README-BLOCK-OK$' | tail -n 12 | comment
	tap "$rc" "README block ${name%%-*} ($where, $(($(date +%s) - start)) s): $first"
	if [ -z "$release" ]; then
		release=$(dpkg-query -W -f '${Package} ${Status}\n' 'linux-image-*-rapolicy*' 2>/dev/null |
			awk '$NF == "installed" { sub(/^linux-image-/, "", $1); print $1; exit }')
		[ -z "$release" ] || echo "$release" >"$work/release"
	fi
	[ "$rc" = 0 ] || break
done

# After the section's purge: no trace of rapolicy's packages.
left=$( {
	ours | grep '^rapolicy-'
	ls -d /usr/src/rapolicy-* /var/lib/dkms/rapolicy /etc/rapolicy.conf \
		/usr/sbin/rapolicyctl /usr/bin/rawalk /usr/libexec/rapolicy /usr/share/rapolicy 2>/dev/null
	find /lib/modules /usr/lib/modules -path '*/build' -prune -o -name 'rapolicy*.ko*' -print 2>/dev/null
	find /lib/systemd /usr/lib/systemd /etc/systemd /var/lib/systemd -name '*rapolicy*' 2>/dev/null
} | sort -u)
echo "$left" | grep . | comment
[ -z "$left" ]
tap $? "after the README's purge nothing of rapolicy is left"

echo "1..$n"
[ "$fails" = 0 ]
