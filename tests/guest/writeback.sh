#!/bin/sh
# A folio under writeback is never an async readahead marker (TAP):
# PG_readahead is PG_reclaim, which reclaim sets on a folio it wants
# rotated when its writeback ends. wbmark (tests/selftests/wbmark.c) puts a
# readahead marker on a page, writes the page back on a throttled disk
# (tests/vm/vm-run --throttle-iops) and faults on it meanwhile.
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
tap_end
