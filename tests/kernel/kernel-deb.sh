#!/bin/bash
# make kernel-deb: Debian packages (bindeb-pkg) of the patched kernel, for
# real machines, from the same Debian linux-source as the test kernel.
#
#   KERNEL_DEB_CONFIG=debian (default)  Debian's own distribution config,
#       from the linux-config-<series> package of the same suite and
#       version (config.amd64_none_amd64), with CONFIG_READAHEAD_POLICY=y,
#       its BTF (kconfig must keep DEBUG_INFO_BTF and DEBUG_INFO_BTF_MODULES)
#       and no Debian signing certificates (a local build cannot use
#       Debian's keys); release <version>-rapolicy-amd64
#   KERNEL_DEB_CONFIG=test  the test kernel's .config (tests/kernel/
#       build-kernel.sh), release <version>-rapolicy: built in a copy of
#       the test kernel's built tree, so this takes minutes
#   KERNEL_DEB_CONFIG=/path/to/config  any config of your own
#
# No -dbg package (the build profile pkg.linux-upstream.nokerneldbg): the
# image keeps vmlinux's BTF and the modules theirs (builddeb strips only
# their DWARF), and the headers package carries vmlinux's BTF as
# /usr/src/linux-headers-RELEASE/vmlinux, raw, the base Kbuild generates an
# external module's BTF against: a module DKMS builds has BTF too.
# The packages (linux-image-*, linux-headers-*, linux-libc-dev) are cached
# under $RAPOLICY_CACHE/kernel-deb by source version + config + series +
# this script, and copied to build/kernel-deb/. Prints their paths.
# --config-only prepares the patched, configured tree and prints its .config.
set -euo pipefail
. "$(dirname "$0")/common.sh"

config_only=0
for arg in "$@"; do
	case $arg in
	--config-only) config_only=1 ;;
	*) die "usage: $0 [--config-only]  (KERNEL_DEB_CONFIG=debian|test|FILE)" ;;
	esac
done
kind=${KERNEL_DEB_CONFIG:-debian}

need_pkgs gcc:build-essential make:build-essential flex:flex bison:bison \
	bc:bc ccache:ccache cpio:cpio xz:xz-utils perl:perl python3:python3 \
	dpkg-buildpackage:dpkg-dev dh:debhelper rsync:rsync depmod:kmod pahole:dwarves
[ -f /usr/include/libelf.h ] || need_pkgs __libelf:libelf-dev
[ -f /usr/include/elfutils/libdw.h ] || need_pkgs __libdw:libdw-dev
[ -f /usr/include/openssl/ssl.h ] || need_pkgs __libssl:libssl-dev

pristine=$(bash "$RAPOLICY_TOP/tests/kernel/fetch-source.sh")
version=${pristine##*/linux-source-}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Debian's config for this source version, from the linux-config package,
# through the private apt configuration fetch-source.sh keeps in the cache.
debian_config() {
	local apt_dir=$RAPOLICY_CACHE/apt pkg=linux-config-$KERNEL_SERIES deb list
	list=$apt_dir/sources-$KERNEL_SERIES.list
	[ -f "$list" ] || list=$apt_dir/sources.list
	[ -f "$list" ] || die "no private apt configuration in $apt_dir (fetch-source.sh makes it)"
	local apt_opts=(-o "Dir::Etc::sourcelist=$list"
		-o "Dir::Etc::sourceparts=$apt_dir/sources.list.d"
		-o "Dir::State::Lists=$apt_dir/lists"
		-o "APT::Get::List-Cleanup=0")
	deb=$(ls "$apt_dir/debs/${pkg}_${version}"_*.deb 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		log "downloading $pkg $version"
		(cd "$apt_dir/debs" && apt-get "${apt_opts[@]}" download -q "$pkg=$version" >&2) ||
			die "$pkg $version is not in $KERNEL_SUITE"
		deb=$(ls "$apt_dir/debs/${pkg}_${version}"_*.deb | head -n 1)
	fi
	dpkg-deb -x "$deb" "$work/config"
	xz -dc "$work/config/usr/src/$pkg/config.amd64_none_amd64.xz"
}

case $kind in
debian)
	debian_config >"$work/base.config"
	localversion=-rapolicy-amd64 ;;
test)
	test_tree=$(bash "$RAPOLICY_TOP/tests/kernel/build-kernel.sh")
	cp "$test_tree/.config" "$work/base.config"
	localversion=-rapolicy ;;
*)
	[ -f "$kind" ] || die "KERNEL_DEB_CONFIG must be debian, test or a config file: $kind"
	cp "$kind" "$work/base.config"
	kind=custom
	localversion=-rapolicy ;;
esac

# The same patches as the test kernel of this series (patches/6.12/ for
# 6.12, the 7.2 prerequisites first for 7.2).
mapfile -t series_files < <(kernel_series_patches)
[ ${#series_files[@]} -gt 0 ] || die "no patches for KERNEL_SERIES=$KERNEL_SERIES"

key=$( {
	echo "$version $kind $localversion"
	cat "$work/base.config" "$0" "${series_files[@]}"
} | sha256sum | cut -c1-16)
dir=$RAPOLICY_CACHE/kernel-deb/$kind-$version-$key
tree=$dir/linux-$version
out=$RAPOLICY_TOP/build/kernel-deb

mkdir -p "$RAPOLICY_CACHE/kernel-deb"
exec 9>"$dir.lock"
flock 9

# The same build identity and ccache setup as build-kernel.sh, so the test
# config's objects come from the test kernel's ccache entries.
export KBUILD_BUILD_TIMESTAMP='Mon Jan  1 00:00:00 UTC 2024'
export KBUILD_BUILD_USER=rapolicy KBUILD_BUILD_HOST=rapolicy
export CCACHE_DIR=$RAPOLICY_CACHE/ccache CCACHE_BASEDIR=$RAPOLICY_CACHE
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G} CCACHE_COMPILERCHECK=content
kmake=(make -C "$tree" -j"$(nproc)" CC="ccache gcc" HOSTCC="ccache gcc" LOCALVERSION="$localversion")

if [ ! -f "$dir/.configured" ]; then
	log "preparing the $kind-config kernel $version ($key) in $tree"
	rm -rf "$dir"
	mkdir -p "$dir"
	if [ "$kind" = test ]; then
		# The test kernel's tree, built: same source, patches and
		# config, so bindeb-pkg only links and packages. ccache alone
		# misses every file after a config change (autoconf.h).
		cp -a "$test_tree" "$tree"
		rm -f "$tree/.rapolicy-built" "$tree/.rapolicy-patched" "$tree/build.log"
	else
		cp -al "$pristine" "$tree"
		rm -f "$tree/.rapolicy-unpacked"
		for p in "${series_files[@]}"; do
			patch -d "$tree" -p1 --fuzz=0 --forward --batch --no-backup-if-mismatch -s <"$p" ||
				die "${p##*/} does not apply to linux-source $version"
		done
		! find "$tree" -name '*.rej' | grep -q . || die "the series left rejects in $tree"
	fi
	cp "$work/base.config" "$tree/.config"
	if [ "$kind" = debian ]; then
		# As the Debian kernel handbook says for a custom build of the
		# distribution config: no Debian certificates (the build makes
		# its own module signing key). Debian's BTF stays: bpftool,
		# bpftrace, libbpf-tools, sched_ext and rapolicy's BPF policies
		# need it.
		"$tree/scripts/config" --file "$tree/.config" \
			--set-str SYSTEM_TRUSTED_KEYS '' --set-str SYSTEM_REVOCATION_KEYS '' \
			--enable DEBUG_INFO_BTF --enable DEBUG_INFO_BTF_MODULES
	fi
	"$tree/scripts/config" --file "$tree/.config" --enable READAHEAD_POLICY
	"${kmake[@]}" -s olddefconfig >&2
	grep -qx CONFIG_READAHEAD_POLICY=y "$tree/.config" ||
		die "kconfig dropped CONFIG_READAHEAD_POLICY from the $kind config"
	if [ "$kind" = debian ]; then
		grep -qx CONFIG_DEBUG_INFO_BTF=y "$tree/.config" &&
			grep -qx CONFIG_DEBUG_INFO_BTF_MODULES=y "$tree/.config" ||
			die "kconfig dropped BTF from the Debian config (pahole: $(pahole --version 2>&1))"
	fi
	# The headers package gets vmlinux's BTF (raw, as /sys/kernel/btf/
	# vmlinux shows it) as the base for external modules' BTF. The tree
	# may hard-link the pristine source: replace the file, do not edit it.
	extmod=$tree/scripts/package/install-extmod-build
	{ cat "$extmod"
	  echo '# rapolicy (tests/kernel/kernel-deb.sh): the BTF base of external modules'
	  echo 'if is_enabled CONFIG_DEBUG_INFO_BTF_MODULES; then'
	  echo '	"${OBJCOPY:-objcopy}" -O binary --only-section=.BTF vmlinux "${destdir}/vmlinux"'
	  echo 'fi'
	} >"$extmod.new"
	chmod 0755 "$extmod.new"
	mv "$extmod.new" "$extmod"
	touch "$dir/.configured"
fi
if [ "$config_only" = 1 ]; then
	echo "$tree/.config"
	exit 0
fi

if [ ! -f "$dir/.built" ]; then
	log "bindeb-pkg of the $kind-config kernel (test config: minutes with ccache; Debian config: hours on 2 cores)"
	start=$(date +%s)
	rm -f "$dir"/*.deb "$dir"/*.changes "$dir"/*.buildinfo
	if ! DEB_BUILD_PROFILES=pkg.linux-upstream.nokerneldbg \
		run_logged "$dir/build.log" "${kmake[@]}" bindeb-pkg; then
		tail -n 40 "$dir/build.log" >&2
		die "bindeb-pkg failed; full log in $dir/build.log"
	fi
	log "built in $(($(date +%s) - start)) s"
	touch "$dir/.built"
fi

rm -rf "$out"
mkdir -p "$out"
cp "$dir"/*.deb "$out/"
ls "$out"/*.deb
