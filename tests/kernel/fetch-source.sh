#!/bin/bash
# Fetch Debian's linux-source-7.3 and unpack it once into the cache.
# Prints the path of the pristine tree (with its version in the name).
#
# The suite is reached through a private apt configuration in the cache,
# reusing the URI of the machine's own Debian source, so the system's
# sources never change and no mirror host is written into the repo.
set -euo pipefail
. "$(dirname "$0")/common.sh"

need_pkgs apt-get:apt dpkg-deb:dpkg xz:xz-utils

debian_uri() {
	local f uri
	# deb822 sources first, then one-line sources.
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		uri=$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i ~ /\/debian\/?$/) { print $i; exit } }' "$f")
		[ -n "$uri" ] && { echo "${uri%/}"; return; }
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		uri=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\/.*\/debian\/?$/) { print $i; exit } }' "$f")
		[ -n "$uri" ] && { echo "${uri%/}"; return; }
	done
	die "no Debian archive URI found in /etc/apt/sources.list*"
}

apt_dir=$RAPOLICY_CACHE/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/sources.list.d" "$apt_dir/debs"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(debian_uri) $KERNEL_SUITE main" \
	>"$apt_dir/sources.list"
apt_opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list"
	-o "Dir::Etc::sourceparts=$apt_dir/sources.list.d"
	-o "Dir::State::Lists=$apt_dir/lists"
	-o "APT::Get::List-Cleanup=0")

pkg=linux-source-$KERNEL_SERIES
# Refresh the index at most once a day; offline re-runs use what is cached.
if [ -z "$(find "$apt_dir/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null)" ]; then
	log "updating the $KERNEL_SUITE index"
	apt-get "${apt_opts[@]}" update -q >&2 || log "index update failed; using the cached index"
fi
version=$(apt-cache "${apt_opts[@]}" show "$pkg" 2>/dev/null |
	awk '/^Version:/ { print $2 }' | sort -V | tail -n 1)
[ -n "$version" ] || die "$pkg not found in $KERNEL_SUITE"

src=$RAPOLICY_CACHE/src/linux-source-$version
if [ ! -f "$src/.rapolicy-unpacked" ]; then
	deb=$(ls "$apt_dir/debs/${pkg}_${version}"_*.deb 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		log "downloading $pkg $version"
		(cd "$apt_dir/debs" && apt-get "${apt_opts[@]}" download -q "$pkg=$version" >&2)
		deb=$(ls "$apt_dir/debs/${pkg}_"*.deb | head -n 1)
	fi
	log "unpacking $pkg $version"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp/deb"
	dpkg-deb -x "$deb" "$src.tmp/deb"
	tarball=$(ls "$src.tmp/deb/usr/src/$pkg".tar.* | head -n 1)
	tar -C "$src.tmp" -xf "$tarball"
	mv "$src.tmp/$pkg" "$src"
	rm -rf "$src.tmp"
	touch "$src/.rapolicy-unpacked"
fi
echo "$src"
