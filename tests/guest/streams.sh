#!/bin/sh
# Descending streams (TAP): a file read backwards costs no more than one
# read forwards. 512 MiB, read_ahead_kb 8192, cold cache, under MADV_HUGEPAGE,
# MADV_SEQUENTIAL and no hint, with every stream policy on ("best").
. "$(dirname "$0")/lib.sh"

# pmd_hit is not needed: a stream takes too few misses to reach
# MMAP_LOTSAMISS, and it keeps readahead on for random readers in a small
# memcg, which then read more (see docs/BENCHMARKS.md).
best() {
	all_policies_off && set_policy descending_thp stream &&
		set_policy descending_seq stream &&
		set_policy descending_around stream
}
SECTOR_SLACK=64

modprobe rapolicy || { tap 1 "load rapolicy"; exit 1; }
f=$(testfile 512M) || { tap 1 "create 512M"; exit 1; }
for advice in huge seq normal; do
	all_policies_off
	walk "$advice" forward "$f"
	fwd_major=$walk_major fwd_sectors=$walk_sectors fwd_ms=$(report wall_ms)
	fwd_pmd=$walk_pmd_kb
	best
	walk "$advice" reverse "$f"
	ms=$(report wall_ms)
	echo "# $advice: reverse $walk_major majflt ${ms} ms, forward $fwd_major majflt ${fwd_ms} ms"
	[ "$walk_major" -le 4 ]
	tap $? "stream: $advice reverse 512M takes <= 4 major faults ($walk_major)"
	[ "$walk_sectors" -ge 1048576 ] && [ "$walk_sectors" -le $((1048576 + SECTOR_SLACK)) ]
	tap $? "stream: $advice reverse reads 512 MiB once ($walk_sectors sectors)"
	# the windows ramp to PMD-sized folios as forward readahead's do
	[ "$walk_pmd_kb" -ge $((fwd_pmd * 9 / 10)) ]
	tap $? "stream: $advice reverse maps ${walk_pmd_kb} KiB with PMDs (forward ${fwd_pmd})"
	walk "$advice" forward "$f"
	[ "$walk_major" = "$fwd_major" ] && [ "$walk_sectors" = "$fwd_sectors" ]
	tap $? "stream: $advice forward unchanged ($walk_major majflt, stock $fwd_major)"
done

# memcpy() out of a mapping into a buffer above it copies backwards (seed
# 000's loader); copying into a buffer below it copies forwards. Backwards
# with best, the copy takes at most 2 major faults more than forwards: the
# head load of page 0 that glibc's backward path starts with, and the
# first fault at the top, before any stream can be seen.
for advice in huge normal; do
	all_policies_off
	walk "$advice" memcpy-forward "$f"
	fwd_major=$walk_major fwd_ms=$(report wall_ms)
	best
	walk "$advice" memcpy "$f"
	echo "# $advice: memcpy $walk_major majflt $(report wall_ms) ms, memcpy-forward $fwd_major majflt $fwd_ms ms"
	[ "$walk_major" -le $((fwd_major + 2)) ] &&
		[ "$walk_sectors" -le $((1048576 + SECTOR_SLACK)) ]
	tap $? "stream: $advice memcpy 512M within 2 faults of memcpy-forward ($walk_major, $fwd_major), read once"
done

# No regression where descending detection must not fire: the seed's
# other access patterns. Faults may only drop (at most +1% or +3), MiB
# within 1%. In a memcg, reclaim makes stock's own counts vary from run to
# run (2% seen): there stock walks before and after best, and best must
# stay within 1% of the range the two stock walks span.
g=$(testfile 256M)
for c in normal:random:1 huge:random:1 normal:stride:64 huge:random:5:memcg; do
	advice=${c%%:*} rest=${c#*:}
	case $rest in
	*:memcg) pattern=${rest%:memcg} opt="--memcg-limit 134217728" ;;
	*) pattern=$rest opt= ;;
	esac
	all_policies_off
	walk "$advice" "$pattern" "$g" $opt
	m0=$walk_major s0=$walk_sectors m1=$walk_major s1=$walk_sectors
	best
	walk "$advice" "$pattern" "$g" $opt
	mb=$walk_major sb=$walk_sectors
	if [ -n "$opt" ]; then
		all_policies_off
		walk "$advice" "$pattern" "$g" $opt
		m1=$walk_major s1=$walk_sectors
	fi
	[ "$m1" -gt "$m0" ] && m0=$m1
	[ "$s1" -lt "$s0" ] && { t=$s0 s0=$s1 s1=$t; }
	echo "# $advice $pattern $opt: off $m0 majflt $s0..$s1 sectors; best $mb, $sb"
	[ "$mb" -le $((m0 + m0 / 100 + 3)) ] &&
		[ "$sb" -ge $((s0 - s0 / 100 - SECTOR_SLACK)) ] &&
		[ "$sb" -le $((s1 + s1 / 100 + SECTOR_SLACK)) ]
	tap $? "stream: no regression for $advice $pattern${opt:+ in a 128 MiB memcg}"
done
all_policies_off
