#!/bin/sh
# A folio under writeback is never an async readahead marker (TAP):
# PG_readahead is PG_reclaim, which reclaim sets on a folio it wants
# rotated when its writeback ends. wbmark (tests/selftests/wbmark.c) puts a
# readahead marker on a page, writes the page back on a throttled disk
# (tests/vm/vm-run --throttle-iops) and faults on it meanwhile.
# The same slow disk keeps reads in flight for rawalk --cold to wait for.
. "$(dirname "$0")/lib.sh"

f=$(testfile 8M) || { tap 1 "create 8M"; exit 1; }
# ra_pages 32: read-around of the first page marks page 24
echo 128 >/sys/block/vda/queue/read_ahead_kb

# wbmark_run [STATS_FILE]: sets wb (wbmark's output); fails with it
wbmark_run() {
	wb=$(wbmark "$f" "$@") || { echo "$wb" | sed 's/^/# wbmark: /'; return 1; }
	echo "$wb" | sed 's/^/# /'
}
wb() { echo "$wb" | sed -n "s/^$1 //p"; }

modprobe rapolicy || { tap 1 "load rapolicy"; exit 1; }
wbmark_run "$RAPOLICY_SYSFS/stats/async"
tap $? "rapolicy: wbmark ran"
[ "$(wb writeback_before)" = 1 ] && [ "$(wb writeback_after)" = 1 ]
tap $? "rapolicy: the marked page was under writeback across the fault"
[ -n "$(wb async_before)" ] && [ "$(wb async_after)" = "$(wb async_before)" ]
tap $? "rapolicy: the marker under writeback was not offered to the policy (stats/async $(wb async_before) -> $(wb async_after))"
[ "$(wb reclaim_after)" = 1 ]
tap $? "rapolicy: the page keeps PG_reclaim"
rmmod rapolicy

# A policy that replaces every window would clear the flag if offered.
modprobe rapolicy_hostile mode=whole_file || { tap 1 "load rapolicy_hostile"; exit 1; }
wbmark_run
tap $? "whole_file: wbmark ran"
[ "$(wb writeback_before)" = 1 ] && [ "$(wb writeback_after)" = 1 ] && [ "$(wb reclaim_after)" = 1 ]
tap $? "whole_file: under writeback across the fault, the page keeps PG_reclaim"
rmmod rapolicy_hostile

# A reader that exits with its readahead still in flight leaves folios
# that are locked and not uptodate: mincore() does not report them and
# POSIX_FADV_DONTNEED skips them, so a "cold" walk would find them cached.
# rawalk --cold waits for them (cachestat() sees them). MADV_WILLNEED of
# the whole 8M mapping at read_ahead_kb 8192 reads it in 2M chunks, several
# I/Os at 2 per second; the reader waits only for page 0 (stride:4096).
ra=$(rawalk --cold --read-ahead-kb 8192 --advice willneed --pattern stride:4096 "$f") &&
	cold=$(rawalk --cold --pattern stride:64 "$f")
rc=$?
echo "$cold" | sed 's/^/# /'
touched=$(echo "$cold" | sed -n 's/^pages_touched: //p')
major=$(echo "$cold" | sed -n 's/^major_faults: //p')
[ $rc = 0 ] && [ "$(echo "$cold" | sed -n 's/^pages_cached_before: //p')" = 0 ] &&
	[ -n "$touched" ] && [ "$major" = "$touched" ]
tap $? "rawalk --cold after a reader left reads in flight: every page of the walk read from disk ($major major faults, $touched pages; reader's $(echo "$ra" | sed -n 's/^ios_read: //p') I/Os)"
tap_end
