#!/bin/bash
# make demo's install step is complete (TAP): in a minimal Debian 12 root
# (debootstrap --variant=minbase from the machine's own Debian archive,
# cached once in $RAPOLICY_CACHE/chroot), install tests/deps/demo.list as
# make demo does (tests/deps.sh demo), then build everything the demo
# builds except the kernel: rapolicyctl and rawalk, strider, the real
# clients with Debian's sqlite3 and mdb_stat staged for the guest. Every
# command and header the demo's scripts probe with need_pkgs must be
# there too, so that none of them installs anything behind the list.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/kernel/common.sh"
. "$top/tests/tap.sh"

[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP a chroot needs root"; exit 0; }
command -v debootstrap >/dev/null || bash "$top/tests/deps.sh" check >/dev/null

base=$RAPOLICY_CACHE/chroot/bookworm-minbase
mkdir -p "${base%/*}"
exec 9>"$base.lock"
flock 9
if [ ! -f "$base/.rapolicy-done" ]; then
	rm -rf "$base"
	log "debootstrap --variant=minbase bookworm (once, cached in $base)"
	debootstrap --variant=minbase bookworm "$base" "$(debian_uri debian)" >"$base.log" 2>&1 ||
		{ tail -n 20 "$base.log" | comment; tap 1 "debootstrap a minimal bookworm"; echo "1..$n"; exit 1; }
	touch "$base/.rapolicy-done"
fi
root=$(mktemp -d "${TMPDIR:-/var/tmp}/rapolicy-fresh.XXXXXX")
cleanup() {
	umount "$root/proc" 2>/dev/null
	rm -rf "$root"
}
trap cleanup EXIT
cp -a "$base/." "$root/"
grep -q . "$root/etc/apt/sources.list" 2>/dev/null
tap $? "a minimal Debian 12 root ($(du -sm "$root" | cut -f1) MiB, $(chroot "$root" dpkg-query -W | wc -l) packages)"
# the checkout as it is (tracked and new files), no build products
mkdir -p "$root/src"
(cd "$top" && git ls-files -co --exclude-standard -z | cpio -0 -pdm --quiet "$root/src")
mount -t proc proc "$root/proc"
cp /etc/resolv.conf "$root/etc/" 2>/dev/null

in_root() {
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		DEBIAN_FRONTEND=noninteractive bash -c "cd /src && $1"
}
start=$(date +%s)
in_root 'bash tests/deps.sh demo' >"$root/deps.log" 2>&1
rc=$?
[ $rc = 0 ] || tail -n 20 "$root/deps.log" | comment
tap $rc "tests/deps.sh demo installs make demo's packages ($(($(date +%s) - start)) s)"

# what the demo's scripts probe for: "command:package" pairs and the
# headers before "|| need_pkgs"
probes=$(grep -h 'need_pkgs' "$top/tests/demo.sh" "$top/tests/kernel/build-kernel.sh" \
	"$top/tests/kernel/fetch-source.sh" "$top/tests/vm/vm-run" "$top/tests/clients/run.sh" |
	grep -v '^need_pkgs()')
cmds=$(grep -o '[a-z0-9_.+-]*:[a-z0-9.+-]*' <<<"$probes" | cut -d: -f1 | grep -v '^__' | sort -u)
headers=$(grep -o '/usr/include/[^ ]*\.h' <<<"$probes" | sort -u)
missing=$(for c in $cmds; do in_root "command -v $c" >/dev/null || echo "$c"; done
	for h in $headers; do [ -f "$root$h" ] || echo "$h"; done)
[ -n "$cmds" ] && [ -z "$missing" ]
tap $? "every command and header the demo's scripts check for is there ($(echo $cmds $headers | wc -w) checked${missing:+; missing: $(echo $missing)})"

in_root 'make -s userspace BUILD=/src/build' >"$root/build.log" 2>&1
rc=$?
[ $rc = 0 ] || tail -n 20 "$root/build.log" | comment
tap $rc "rapolicyctl and rawalk build there"
in_root 'make -s guest-tools BUILD=/src/build' 2>&1 | comment
tap "${PIPESTATUS[0]}" "the guest's walkers (strider, patwalk, phaser) build there, static"
in_root 'make -s -C tests/clients BUILD=/src/build' >"$root/clients.log" 2>&1
rc=$?
[ $rc = 0 ] || tail -n 20 "$root/clients.log" | comment
tap $rc "the real clients build there, with sqlite3 and mdb_stat staged"
echo "1..$n"
