#!/bin/bash
# Build matrix (TAP): the objects the hook series touches (mm/filemap.o,
# mm/readahead.o, mm/readahead_policy.o) and the module, compiled with W=1
# under each configuration below, patched and unpatched; a configuration
# passes when the patched objects build and show no warning that the same
# objects of the unpatched source do not (compared without line numbers),
# and the module builds without warnings. Objects only, no link: minutes.
#
# Only the patched tree is configured and prepared: the unpatched objects
# are compiled from the unpatched source with the command lines kbuild used
# for the patched ones (same flags, same generated headers; the unpatched
# source reads none of CONFIG_READAHEAD_POLICY), which halves the work.
#
#   test        tinyconfig + tests/kernel/rapolicy.config (the test kernel)
#   ra_off      the test config, CONFIG_READAHEAD_POLICY=n
#   no_thp      the test config, CONFIG_TRANSPARENT_HUGEPAGE=n
#   no_memcg    the test config, CONFIG_MEMCG=n
#   blk_cgroup  the test config (which has no BLK_CGROUP) + CONFIG_BLK_CGROUP=y
#   debian      Debian's own amd64 config of the same kernel (its
#               linux-config-$KERNEL_SERIES package) + CONFIG_READAHEAD_POLICY=y,
#               with its BTF (DEBUG_INFO_BTF, DEBUG_INFO_BTF_MODULES), as
#               make kernel-deb builds it
#   arm64_64k   arm64 tinyconfig + the test config with 64KiB pages
#               (CONFIG_ARM64_64K_PAGES), cross-compiled: the page size
#               where the largest folio is 128MB and a PMD maps 512MB
#               (the module is not built there: objects only)
#
# KERNEL_SERIES picks the kernel (default 7.3). Output trees are kept in
# $RAPOLICY_CACHE/matrix and objects are rebuilt through ccache on every
# run, so a warm run replays the warnings in seconds.
# MATRIX_CONFIGS="test debian" runs a subset.
set -uo pipefail
. "$(dirname "$0")/common.sh"

n=0
tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

configs=${MATRIX_CONFIGS:-test ra_off no_thp no_memcg blk_cgroup debian arm64_64k}
need_pkgs gcc:build-essential make:build-essential flex:flex bison:bison \
	bc:bc ccache:ccache xz:xz-utils perl:perl rsync:rsync
case " $configs " in
*" arm64_64k "*) need_pkgs aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu ;;
esac
[ -f /usr/include/libelf.h ] || need_pkgs __libelf:libelf-dev
[ -f /usr/include/openssl/ssl.h ] || need_pkgs __libssl:libssl-dev
case " $configs " in
*" debian "*) need_pkgs pahole:dwarves ;;
esac

start=$(date +%s)
pristine=$(bash "$RAPOLICY_TOP/tests/kernel/fetch-source.sh") || {
	tap 1 "linux-source-$KERNEL_SERIES"; exit 1; }
debian_config=$(bash "$RAPOLICY_TOP/tests/kernel/fetch-source.sh" --debian-config) || {
	tap 1 "linux-config-$KERNEL_SERIES"; exit 1; }
version=${pristine##*/linux-source-}
mapfile -t patches < <(kernel_series_patches)
[ ${#patches[@]} -gt 0 ] || { tap 1 "patches for $KERNEL_SERIES"; exit 1; }
fragments=("$RAPOLICY_TOP/tests/kernel/rapolicy.config")
series_config=$RAPOLICY_TOP/tests/kernel/series-$KERNEL_SERIES.config
[ ! -f "$series_config" ] || fragments+=("$series_config")

key=$(cat "${patches[@]}" | sha256sum | cut -c1-16)
base=$RAPOLICY_CACHE/matrix/$KERNEL_SERIES-$version
mkdir -p "$base"
exec 9>"$base.lock"
flock 9

# One source tree per variant (hard links to the pristine tree; patch(1)
# replaces the files it changes), every configuration built out of tree.
prepare_src() {
	local variant=$1 dir=$base/src-$1 p
	[ "$variant" = stock ] || dir=$base/src-patched-$key
	if [ ! -f "$dir/.rapolicy-ready" ]; then
		rm -rf "$dir" "$base"/src-patched-*
		cp -al "$pristine" "$dir"
		rm -f "$dir/.rapolicy-unpacked"
		if [ "$variant" = patched ]; then
			for p in "${patches[@]}"; do
				patch -d "$dir" -p1 --fuzz=0 --forward --batch --no-backup-if-mismatch -s <"$p" ||
					return 1
			done
		fi
		touch "$dir/.rapolicy-ready"
	fi
	echo "$dir"
}
stock_src=$(prepare_src stock) || { tap 1 "unpatched source tree"; exit 1; }
find "$base" -maxdepth 1 -name 'out-stock-*' -exec rm -rf {} + 2>/dev/null
patched_src=$(prepare_src patched) || { tap 1 "the series applies to $version"; exit 1; }
find "$base" -maxdepth 1 -name 'out-patched-*' ! -name "out-patched-$key-*" -exec rm -rf {} + 2>/dev/null

export KBUILD_BUILD_TIMESTAMP='Mon Jan  1 00:00:00 UTC 2024'
export KBUILD_BUILD_USER=rapolicy KBUILD_BUILD_HOST=rapolicy KBUILD_BUILD_VERSION=1
export CCACHE_DIR=$RAPOLICY_CACHE/ccache CCACHE_BASEDIR=$RAPOLICY_CACHE
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G} CCACHE_COMPILERCHECK=content

# config_extra NAME: the lines a configuration adds to its base
config_extra() {
	case $1 in
	test) ;;
	debian) printf '%s\n' CONFIG_DEBUG_INFO_BTF=y CONFIG_DEBUG_INFO_BTF_MODULES=y \
		CONFIG_READAHEAD_POLICY=y ;;
	ra_off) echo '# CONFIG_READAHEAD_POLICY is not set' ;;
	no_thp) echo '# CONFIG_TRANSPARENT_HUGEPAGE is not set' ;;
	no_memcg) echo '# CONFIG_MEMCG is not set' ;;
	blk_cgroup) echo 'CONFIG_BLK_CGROUP=y' ;;
	arm64_64k) printf '%s\n' CONFIG_ARM64_64K_PAGES=y CONFIG_TRANSPARENT_HUGEPAGE=y \
		CONFIG_READAHEAD_POLICY=y ;;
	*) return 1 ;;
	esac
}

# configure NAME SRC OUT: write OUT/.config; fails if kconfig dropped a
# line the configuration asks for
configure() {
	local name=$1 src=$2 out=$3 extra line opt stamp
	local kmake=(make -s -C "$src" O="$out" HOSTCC="ccache gcc")
	if [ "$name" = arm64_64k ]; then
		kmake+=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CC="ccache aarch64-linux-gnu-gcc")
	else
		kmake+=(CC="ccache gcc")
	fi
	mkdir -p "$out"
	extra=$(config_extra "$name") || return 1
	# Unchanged inputs: keep the configuration, so a warm run does not
	# regenerate headers and rebuild what depends on them.
	stamp=$( { echo "$name $extra"; cat "${fragments[@]}"
		[ "$name" != debian ] || cat "$debian_config"; } | sha256sum)
	if [ -f "$out/.config" ] && [ "$(cat "$out/.config-stamp" 2>/dev/null)" = "$stamp" ]; then
		return 0
	fi
	rm -f "$out/.config-stamp"
	if [ "$name" = debian ]; then
		cp "$debian_config" "$out/.config"
		# Signing keys are for linking, which the matrix never does;
		# BTF stays (pahole decides whether kconfig keeps it), so the
		# objects are compiled with the debug info kernel-deb's are.
		printf '%s\n' 'CONFIG_SYSTEM_TRUSTED_KEYS=""' 'CONFIG_SYSTEM_REVOCATION_KEYS=""' \
			'CONFIG_MODULE_SIG_KEY=""' "$extra" >>"$out/.config"
		"${kmake[@]}" olddefconfig >/dev/null 2>&1 || return 1
	else
		"${kmake[@]}" tinyconfig >/dev/null || return 1
		printf '%s\n' "$extra" >"$out/extra.config"
		"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" \
			"${fragments[@]}" "$out/extra.config" >/dev/null || return 1
		"${kmake[@]}" olddefconfig >/dev/null || return 1
	fi
	while read -r line; do
		[ -n "$line" ] || continue
		case $line in
		'# '*) opt=${line#\# }; opt=${opt%% *}
			! grep -q "^$opt=" "$out/.config" || { echo "# kconfig kept $opt" >&2; return 1; } ;;
		*) [ "$src" = "$stock_src" ] && [ "$line" = CONFIG_READAHEAD_POLICY=y ] && continue
			grep -qx "$line" "$out/.config" || { echo "# kconfig dropped $line" >&2; return 1; } ;;
		esac
	done <<<"$extra"
	echo "$stamp" >"$out/.config-stamp"
}

# build NAME SRC OUT LOG: the objects, W=1, recompiled (ccache replays
# warnings)
build() {
	local name=$1 src=$2 out=$3 logf=$4 objs=(mm/filemap.o mm/readahead.o)
	local cc=(CC="ccache gcc")
	[ "$name" != arm64_64k ] ||
		cc=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CC="ccache aarch64-linux-gnu-gcc")
	grep -q '^CONFIG_READAHEAD_POLICY=y' "$out/.config" && objs+=(mm/readahead_policy.o)
	(cd "$out" && rm -f "${objs[@]}")
	make -C "$src" O="$out" -j"$(nproc)" "${cc[@]}" HOSTCC="ccache gcc" \
		W=1 "${objs[@]}" >"$logf" 2>&1
}

# build_stock OUT LOG: the unpatched filemap.o and readahead.o, compiled by
# the patched objects' kbuild command lines with the source paths swapped
build_stock() {
	local out=$1 logf=$2 obj cmd rc=0
	: >"$logf"
	for obj in mm/filemap.o mm/readahead.o; do
		cmd=$(sed -n "s|^savedcmd_$obj := ||p" "$out/${obj%/*}/.${obj##*/}.cmd")
		[ -n "$cmd" ] || { echo "no kbuild command for $obj" >>"$logf"; return 1; }
		cmd=${cmd//"$patched_src"/"$stock_src"}
		cmd=${cmd//" -o $obj "/" -o $out/stock-${obj##*/} "}
		cmd=${cmd//"-Wp,-MMD,${obj%/*}/.${obj##*/}.d"/"-Wp,-MMD,$out/stock-${obj##*/}.d"}
		(cd "$out" && eval "$cmd") >>"$logf" 2>&1 || rc=1
	done
	return "$rc"
}

# build_module OUT LOG: rapolicy.ko's objects against OUT, W=1, in a copy
# of the module sources (the checkout's own objects belong to the test kernel)
build_module() {
	local out=$1 logf=$2 mod=$1/rapolicy-module
	rm -rf "$mod"
	mkdir -p "$mod"
	rsync -a --exclude '*.o' --exclude '.*.cmd' "$RAPOLICY_TOP/Kbuild" \
		"$RAPOLICY_TOP/VERSION" "$RAPOLICY_TOP/module" "$mod/" &&
		make -C "$out" -s modules_prepare >"$logf" 2>&1 &&
		make -C "$out" M="$mod" -j"$(nproc)" W=1 CC="ccache gcc" \
			KBUILD_MODPOST_WARN=1 modules >>"$logf" 2>&1
}

# warnings LOG: the compiler's warnings, without line and column numbers
# and source tree
warnings() {
	grep -E ': (warning|error): ' "$1" |
		sed -E 's/^([^:]*):[0-9]+:[0-9]+:/\1:/; s/^.*(rapolicy-module\/)/\1/;
			s#^[^:]*/src-(stock|patched-[0-9a-f]+)/##; s#^\.\./##' | sort -u
}

for name in $configs; do
	t0=$(date +%s)
	pout=$base/out-patched-$key-$name
	if ! configure "$name" "$patched_src" "$pout"; then
		tap 1 "$name: configuration"
		continue
	fi
	if ! build "$name" "$patched_src" "$pout" "$pout/matrix.log"; then
		grep -E 'error|warning' "$pout/matrix.log" | head -n 20 | sed 's/^/# /'
		tap 1 "$name: patched objects build"
		continue
	fi
	if ! build_stock "$pout" "$pout/stock.log"; then
		grep -E 'error|no kbuild' "$pout/stock.log" | head -n 20 | sed 's/^/# /'
		tap 1 "$name: unpatched objects build"
		continue
	fi
	if [ "$name" = ra_off ]; then
		# the hooks configured out leave nothing of them, not even the
		# trace event (its tracepoint would be defined and unused)
		syms=$(nm "$pout/mm/filemap.o" | grep -c readahead_policy)
		[ "$syms" = 0 ]
		tap $? "ra_off: mm/filemap.o defines nothing of the hooks ($syms readahead_policy symbols)"
	fi
	new=$(comm -13 <(warnings "$pout/stock.log") <(warnings "$pout/matrix.log"))
	[ -z "$new" ] || echo "$new" | sed 's/^/# new: /'
	detail="W=1, $(warnings "$pout/stock.log" | grep -c .) warnings unpatched"
	if [ "$name" = arm64_64k ]; then
		grep -q '^CONFIG_ARM64_64K_PAGES=y' "$pout/.config" && detail+=", 64KiB pages" ||
			new+="not a 64KiB-page configuration"
	fi
	[ "$name" != debian ] || detail+=", BTF"
	if [ "$name" = arm64_64k ]; then
		:
	elif grep -q '^CONFIG_READAHEAD_POLICY=y' "$pout/.config" &&
	   grep -q '^CONFIG_MODULES=y' "$pout/.config"; then
		if build_module "$pout" "$pout/module.log"; then
			mw=$(warnings "$pout/module.log")
			[ -z "$mw" ] || echo "$mw" | sed 's/^/# module: /'
			new+=$mw
			detail+=", module built"
		else
			grep -E 'error|warning' "$pout/module.log" | head -n 20 | sed 's/^/# /'
			new+="module build failed"
		fi
	fi
	[ -z "$new" ]
	tap $? "$name: patched objects have no new warnings ($detail, $(($(date +%s) - t0)) s)"
done
echo "# build matrix for $KERNEL_SERIES ($version): $(($(date +%s) - start)) s"
echo "1..$n"
