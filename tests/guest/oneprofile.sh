#!/bin/sh
# make bench, guest side of tests/bench/oneprofile.sh: each workload cold,
# at read_ahead_kb 128, under stock with no hint, under stock with each
# madvise() hint a program could give instead (MADV_RANDOM,
# MADV_SEQUENTIAL, MADV_HUGEPAGE), and under the profile best with no
# hint. One line per run:
#   @one WORKLOAD SETTING MAJOR_FAULTS SECTORS_READ
# SETTING: stock, random, sequential, hugepage (stock and the hint), best.
# A failed run prints -1 for its counts.
#   forward, reverse     a scan of a 128 MiB file either way
#   stride64             one page in 64 of 256 MiB, forward
#   rand1                1% of the pages of 128 MiB at random
#   rand5-memcg32        5% of 256 MiB at random in a 32 MiB memcg
#   scan-memcg16         a reverse scan of 128 MiB in a 16 MiB memcg
#   phase                1% random lookups, then a scan of the same
#                        256 MiB mapping (tests/guest/phaser.c; its scan)
# shellcheck source=tests/guest/lib.sh source-path=SCRIPTDIR/../..
. "$(dirname "$0")/lib.sh"

modprobe rapolicy || { echo "oneprofile: cannot load rapolicy" >&2; exit 1; }
f128=$(testfile 128M) && f256=$(testfile 256M) ||
	{ echo "oneprofile: cannot create the files" >&2; exit 1; }
RA_KB=128

# advice SETTING: rawalk's --advice for SETTING
advice() {
	case $1 in
	random) echo random ;;
	sequential) echo seq ;;
	hugepage) echo huge ;;
	*) echo normal ;;
	esac
}

# one WORKLOAD SETTING PATTERN FILE [RAWALK OPTIONS...]
one() {
	_w=$1 _s=$2 _pat=$3 _f=$4
	shift 4
	_p=stock
	[ "$_s" = best ] && _p=best
	if fresh_module && profile "$_p" &&
		walk "$(advice "$_s")" "$_pat" "$_f" "$@"; then
		echo "@one $_w $_s $walk_major $walk_sectors"
	else
		echo "@one $_w $_s -1 -1"
	fi
}

# phase SETTING: the scan of phaser 1 after its lookups
phase() {
	_p=stock _a=
	[ "$1" = best ] && _p=best
	case $1 in random | sequential | hugepage) _a=$1 ;; esac
	if fresh_module && profile "$_p" &&
		echo 128 >/sys/block/vda/queue/read_ahead_kb &&
		_out=$(phaser 1 "$f256" $_a 2>&1); then
		echo "@one phase $1 $(echo "$_out" | sed -n 's/^scan_major_faults: //p') $(echo "$_out" | sed -n 's/^scan_sectors_read: //p')"
	else
		echo "@one phase $1 -1 -1"
	fi
}

for s in stock random sequential hugepage best; do
	one forward "$s" forward "$f128"
	one reverse "$s" reverse "$f128"
	one stride64 "$s" stride:64 "$f256"
	one rand1 "$s" random:1 "$f128"
	one rand5-memcg32 "$s" random:5 "$f256" --memcg-limit=32M
	one scan-memcg16 "$s" reverse "$f128" --memcg-limit=16M
	phase "$s"
done
profile stock
