#!/bin/sh
# The module costs only the hooks its policies use (TAP). Each hook of the
# series has its own static key and the module turns on only those that
# its settings need: with every policy off a fault served from the page
# cache, or a miss, is offered to no policy (stats/mmap_hit and the
# per-point counters stay at zero; sync_miss and pages_read, the misses
# and what they read, still count). A policy that decides hits (pmd_hit)
# turns the hit hook on, and faults on shmem (tmpfs, memfd, shared
# anonymous memory), which take no readahead decision, still never enter
# the module.
. "$(dirname "$0")/lib.sh"

RA_KB=512
SIZE=16M
f=$(testfile $SIZE) || { tap 1 "create $SIZE"; tap_end; }
TMPFS=/tmp/hooks-tmpfs.$$
mkdir -p $TMPFS && mount -t tmpfs -o size=64m none $TMPFS ||
	measure_failed "mount tmpfs on $TMPFS"
rawalk --create $SIZE $TMPFS/data >/dev/null || measure_failed "create $SIZE on tmpfs"

# warm_walk FILE: a walk of FILE from the page cache: minor faults only,
# each mapping fault_around_bytes of cached pages
warm_walk() {
	rawalk --advice normal --pattern forward --warm "$1" >/dev/null ||
		measure_failed "rawalk --warm $1"
}

# sum COUNTERS...: the sum of these counters of stats/
sum() {
	_s=0
	for _c in "$@"; do
		_s=$((_s + $(counter "$_c")))
	done
	echo "$_s"
}
POINTS="sync_thp sync_seq sync_exec sync_around async"

# Every policy off: misses count, nothing is offered
fresh_module && all_policies_off && walk normal forward "$f" && warm_walk "$f"
miss=$(counter sync_miss) read=$(counter pages_read)
offered=$(sum $POINTS) hits=$(counter mmap_hit)
[ "$miss" -gt 0 ] && [ "$read" -gt 0 ] && [ "$offered" = 0 ] && [ "$hits" = 0 ]
tap $? "every policy off: $miss misses and $read pages read counted, $offered windows and $hits hits offered"

# pmd_hit on turns on the hit hook alone: hits are offered, windows not
fresh_module && all_policies_off && set_policy pmd_hit on &&
	walk normal forward "$f" && warm_walk "$f"
offered=$(sum $POINTS) hits=$(counter mmap_hit)
[ "$hits" -gt 0 ] && [ "$offered" = 0 ]
tap $? "pmd_hit on: $hits hits offered on ext4, $offered windows"

# ... but not those of tmpfs
before=$(counter mmap_hit)
warm_walk $TMPFS/data && warm_walk $TMPFS/data
after=$(counter mmap_hit)
[ "$after" = "$before" ]
tap $? "pmd_hit on: no tmpfs fault enters the module (mmap_hit $before, then $after)"

# A window policy turns the window points on
fresh_module && all_policies_off && set_policy descending_around window &&
	walk normal forward "$f"
offered=$(sum $POINTS)
[ "$offered" -gt 0 ] && [ "$(counter mmap_hit)" = 0 ]
tap $? "descending_around on: $offered windows offered, no hit"

# Back to every policy off: the keys follow the settings at once
all_policies_off && before=$(sum $POINTS) && walk normal forward "$f"
[ "$(sum $POINTS)" = "$before" ]
tap $? "every policy off again: no window offered ($before before, $(sum $POINTS) after)"

modprobe -r rapolicy
umount $TMPFS && rmdir $TMPFS
tap_end
