#!/bin/bash
# Fetch Debian's linux-source-$KERNEL_SERIES (7.3 by default; see common.sh)
# and unpack it once into the cache. Prints the path of the pristine tree
# (with its version in the name).
#
# The suites are reached through a private apt configuration in the cache,
# reusing the URIs of the machine's own Debian sources (the archive, and the
# security archive for trixie-security), so the system's sources never
# change and no mirror host is written into the repo.
#
# --debian-config prints instead the path of Debian's own amd64 kernel
# configuration for the series (from its linux-config-$KERNEL_SERIES
# package, same suites), for the build matrix.
set -euo pipefail
. "$(dirname "$0")/common.sh"

want=source
case ${1:-} in
'') ;;
--debian-config) want=config ;;
*) die "usage: $0 [--debian-config]" ;;
esac

need_pkgs apt-get:apt dpkg-deb:dpkg xz:xz-utils

apt_dir=$RAPOLICY_CACHE/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/sources.list.d" "$apt_dir/debs"
# One sources file per series (so runs for different series do not rewrite
# each other's), one lists directory, one apt run at a time.
exec 9>"$apt_dir/lock"
flock 9
sources=$apt_dir/sources-$KERNEL_SERIES.list
for suite in $KERNEL_SUITES; do
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(suite_uri "$suite") $suite main"
done >"$sources"
apt_opts=(-o "Dir::Etc::sourcelist=$sources"
	-o "Dir::Etc::sourceparts=$apt_dir/sources.list.d"
	-o "Dir::State::Lists=$apt_dir/lists"
	-o "APT::Get::List-Cleanup=0")

pkg=linux-source-$KERNEL_SERIES
[ "$want" = source ] || pkg=linux-config-$KERNEL_SERIES
# Refresh each suite's index at most once a day; offline re-runs use what
# is cached.
stale=0
for suite in $KERNEL_SUITES; do
	[ -n "$(find "$apt_dir/lists" -maxdepth 1 -name "*_dists_${suite}_main_*Packages*" \
		-mtime -1 2>/dev/null)" ] || stale=1
done
if [ "$stale" = 1 ]; then
	log "updating the index of $KERNEL_SUITES"
	apt-get "${apt_opts[@]}" update -q >&2 || log "index update failed; using the cached index"
fi
version=$(apt-cache "${apt_opts[@]}" show "$pkg" 2>/dev/null |
	awk '/^Version:/ { print $2 }' | sort -V | tail -n 1)
[ -n "$version" ] || die "$pkg not found in $KERNEL_SUITES"

# download_deb: the package's .deb in the cache, downloaded once
download_deb() {
	local deb
	deb=$(ls "$apt_dir/debs/${pkg}_${version}"_*.deb 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		log "downloading $pkg $version"
		(cd "$apt_dir/debs" && apt-get "${apt_opts[@]}" download -q "$pkg=$version" >&2)
		deb=$(ls "$apt_dir/debs/${pkg}_${version}"_*.deb | head -n 1)
	fi
	echo "$deb"
}

if [ "$want" = config ]; then
	config=$RAPOLICY_CACHE/src/debian-config-$version.amd64
	if [ ! -f "$config" ]; then
		deb=$(download_deb)
		rm -rf "$config.tmp"
		mkdir -p "$config.tmp"
		dpkg-deb -x "$deb" "$config.tmp"
		found=$(find "$config.tmp" -name 'config.amd64_none_amd64*' | head -n 1)
		[ -n "$found" ] || die "$pkg $version has no config.amd64_none_amd64"
		case $found in
		*.xz) xz -dc "$found" >"$config.new" ;;
		*) cp "$found" "$config.new" ;;
		esac
		mv "$config.new" "$config"
		rm -rf "$config.tmp"
	fi
	echo "$config"
	exit 0
fi

src=$RAPOLICY_CACHE/src/linux-source-$version
if [ ! -f "$src/.rapolicy-unpacked" ]; then
	deb=$(download_deb)
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
