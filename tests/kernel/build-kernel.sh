#!/bin/bash
# Build the test kernel of $KERNEL_SERIES (7.3 by default, 7.2 or 6.12; see
# common.sh): tinyconfig + tests/kernel/rapolicy.config (+ the series'
# tests/kernel/series-$KERNEL_SERIES.config if there is one) with the hook
# series for that kernel applied (common.sh: kernel_series_patches), or
# without it with --stock, or the debug kernel with --debug (the series,
# the fragments and tests/kernel/debug.config: KASAN, lockdep, kmemleak,
# ...), and cache it outside the checkout keyed by series + source version +
# flavour + patches + config fragments + this script.
#
# Prints the kernel tree (bzImage in arch/x86/boot/, usable as KDIR).
# --print-dir prints the tree a build would use without building.
set -euo pipefail
. "$(dirname "$0")/common.sh"

flavour=rapolicy
print_only=0
for arg in "$@"; do
	case $arg in
	--stock) flavour=stock ;;
	--debug) flavour=debug ;;
	--print-dir) print_only=1 ;;
	*) die "usage: $0 [--stock|--debug] [--print-dir]" ;;
	esac
done

need_pkgs gcc:build-essential make:build-essential flex:flex bison:bison \
	bc:bc ccache:ccache cpio:cpio xz:xz-utils perl:perl
[ -f /usr/include/libelf.h ] || need_pkgs __libelf:libelf-dev
[ -f /usr/include/openssl/ssl.h ] || need_pkgs __libssl:libssl-dev

pristine=$(bash "$RAPOLICY_TOP/tests/kernel/fetch-source.sh")
version=${pristine##*/linux-source-}

fragments=("$RAPOLICY_TOP/tests/kernel/rapolicy.config")
series_config=$RAPOLICY_TOP/tests/kernel/series-$KERNEL_SERIES.config
[ ! -f "$series_config" ] || fragments+=("$series_config")
[ "$flavour" != debug ] || fragments+=("$RAPOLICY_TOP/tests/kernel/debug.config")
localversion=-$flavour
[ "$flavour" != debug ] || localversion=-rapolicy-debug

series_files=()
if [ "$flavour" != stock ]; then
	mapfile -t series_files < <(kernel_series_patches)
	[ ${#series_files[@]} -gt 0 ] || die "no patches for $KERNEL_SERIES"
fi

key=$( {
	echo "$KERNEL_SERIES $version $flavour"
	cat "${fragments[@]}" "$0"
	[ ${#series_files[@]} -eq 0 ] || cat "${series_files[@]}"
} | sha256sum | cut -c1-16)
tree=$RAPOLICY_CACHE/kernel/$flavour-$version-$key
if [ "$print_only" = 1 ]; then
	echo "$tree"
	exit 0
fi

mkdir -p "$RAPOLICY_CACHE/kernel"
# One lock per tree: a long debug build must not hold up the other flavours.
exec 9>"$tree.lock"
flock 9

if [ -f "$tree/.rapolicy-built" ]; then
	log "cached $flavour kernel $version ($key)"
	echo "$tree"
	exit 0
fi

log "preparing $flavour kernel $version ($key) in $tree"
rm -rf "$tree"
# Hard links are safe: patch(1) and the build replace files, never edit them in place.
cp -al "$pristine" "$tree"
rm -f "$tree/.rapolicy-unpacked"
for p in "${series_files[@]}"; do
	log "applying ${p##*/}"
	patch -d "$tree" -p1 --forward --batch --no-backup-if-mismatch -s <"$p" ||
		die "${p##*/} does not apply to linux-source $version"
	if find "$tree" -name '*.rej' | grep -q .; then
		die "${p##*/} left rejects in $tree"
	fi
done

# Reproducible build identity, so ccache hits across trees and rebuilds.
export KBUILD_BUILD_TIMESTAMP='Mon Jan  1 00:00:00 UTC 2024'
export KBUILD_BUILD_USER=rapolicy KBUILD_BUILD_HOST=rapolicy KBUILD_BUILD_VERSION=1
export CCACHE_DIR=$RAPOLICY_CACHE/ccache CCACHE_BASEDIR=$RAPOLICY_CACHE/kernel
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G} CCACHE_COMPILERCHECK=content
kmake=(make -C "$tree" -j"$(nproc)" CC="ccache gcc" HOSTCC="ccache gcc" LOCALVERSION="$localversion")

"${kmake[@]}" -s tinyconfig >&2
"$tree/scripts/kconfig/merge_config.sh" -m -O "$tree" "$tree/.config" \
	"${fragments[@]}" >/dev/null
"${kmake[@]}" -s olddefconfig >&2

# Fail when a fragment asked for something kconfig dropped (as tinyconfig
# does to ADVISE_SYSCALLS when it is not spelled out), or kept something a
# fragment turns off ("# CONFIG_X is not set").
# A later fragment overrides an earlier one: check each option's last line.
missing=$(cat "${fragments[@]}" |
	grep -E '^CONFIG_[A-Z0-9_]+=|^# CONFIG_[A-Z0-9_]+ is not set$' |
	awk '{ o = $1 == "#" ? $2 : $0; sub(/=.*/, "", o); last[o] = $0; if (!(o in seen)) { seen[o] = 1; order[++n] = o } }
	     END { for (i = 1; i <= n; i++) print last[order[i]] }' |
	while read -r line; do
		if [ "$flavour" = stock ] && [ "$line" = CONFIG_READAHEAD_POLICY=y ]; then
			continue
		fi
		case $line in
		'# '*)
			opt=${line#\# }
			opt=${opt%% *}
			! grep -q "^$opt=" "$tree/.config" || echo "$line" ;;
		*) grep -qx "$line" "$tree/.config" || echo "$line" ;;
		esac
	done)
[ -z "$missing" ] || die "kconfig dropped: $(echo "$missing" | tr '\n' ' ')"

log "building bzImage and modules (about 11 minutes cold, seconds with ccache)"
start=$(date +%s)
if ! run_logged "$tree/build.log" "${kmake[@]}" bzImage modules; then
	tail -n 40 "$tree/build.log" >&2
	die "kernel build failed; full log in $tree/build.log"
fi
log "built in $(($(date +%s) - start)) s: $("${kmake[@]}" -s kernelrelease)"
touch "$tree/.rapolicy-built"
echo "$tree"
