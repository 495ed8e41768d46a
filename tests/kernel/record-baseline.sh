#!/bin/bash
# Record the stock neutrality table of a kernel series, which
# tests/guest/neutrality.sh compares the patched kernel against:
#
#   tests/kernel/record-baseline.sh [KERNEL_SERIES]   (default: $KERNEL_SERIES or 7.3)
#
# Builds (or reuses) the stock kernel of the series with the test config,
# boots it with the scratch file system the series' tests use (vm-run's
# default: ext4, xfs on 6.12) and writes tests/guest/stock-<version>.txt,
# where <version> is the kernel's own (uname -r without the local version).
# Run it once per kernel version and commit the table; make check then
# needs no stock kernel.
set -euo pipefail
[ $# -le 1 ] || { echo "usage: $0 [KERNEL_SERIES]" >&2; exit 2; }
[ $# -eq 0 ] || export KERNEL_SERIES=$1
. "$(dirname "$0")/common.sh"

# RAPOLICY_KERNEL_TREE names an already built stock tree instead.
tree=${RAPOLICY_KERNEL_TREE:-$(bash "$RAPOLICY_TOP/tests/kernel/build-kernel.sh" --stock)}
! grep -q '^CONFIG_READAHEAD_POLICY=y' "$tree/.config" || die "$tree is not a stock kernel"
release=$(cat "$tree/include/config/kernel.release")
version=${release%%-*}
fs=ext4
[ "$KERNEL_SERIES" != 6.12 ] || fs=xfs
out=$RAPOLICY_TOP/tests/guest/stock-$version.txt
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

log "recording the neutrality table of stock $release on $fs"
# Twice in one boot: the first cold walk of a new file may also read a few
# file system metadata blocks (docs/NEUTRALITY.md), so each row keeps the
# smaller sector count; major faults must agree.
RAPOLICY_KERNEL_TREE=$tree "$RAPOLICY_TOP/tests/vm/vm-run" --stock --fs "$fs" \
	--mem 2048 --add "$RAPOLICY_TOP/tests/guest" -- \
	sh -c 'sh /add/guest/neutrality.sh record && sh /add/guest/neutrality.sh record' >"$tmp"
# The guest's console shares stdout with the table (kernel messages may
# land in it): keep the table rows only. A failed walk prints -1 or a
# "not ok" line.
row='^[a-z]+ [a-z-]+ [0-9]+[KMG] [0-9]+ [0-9]+$'
if ! grep -qE "$row" "$tmp" || grep -qE -- '^not ok| -1( |$)' "$tmp"; then
	die "recording failed: $(cat "$tmp")"
fi
{
	echo "# Recorded on stock $release (Debian linux-source-$KERNEL_SERIES, the test"
	echo "# config, scratch disk $fs) by:"
	echo "#   tests/kernel/record-baseline.sh $KERNEL_SERIES"
	echo "# which boots the stock kernel, runs twice"
	echo "#   tests/vm/vm-run --stock --fs $fs --mem 2048 --add tests/guest -- sh /add/guest/neutrality.sh record"
	echo "# and keeps the smaller sector count of each row (major faults agree)."
	echo "# advice pattern size major_faults sectors_read"
	grep -E "$row" "$tmp" | awk '
		{ k = $1 " " $2 " " $3 }
		!(k in maj) { order[++n] = k; maj[k] = $4; sec[k] = $5; next }
		maj[k] != $4 { print "major faults differ for " k > "/dev/stderr"; bad = 1 }
		$5 < sec[k] { sec[k] = $5 }
		END { for (i = 1; i <= n; i++) print order[i], maj[order[i]], sec[order[i]]; exit bad }' ||
		die "two recordings disagree on major faults"
} >"$out"
log "wrote ${out#"$RAPOLICY_TOP"/}"
cat "$out"
