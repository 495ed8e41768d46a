#!/bin/sh
# A fault served from the page cache enters the module only while a policy
# that decides hits is on (TAP). Each hook of the series has its own static
# key; the module keeps the window points, the miss and the report of what
# was read on (faults that read), and turns the hit hook on only for
# pmd_hit or random_miss, so with them off stats/mmap_hit stays at zero
# however many minor faults map cached pages. Faults on shmem (tmpfs,
# memfd, shared anonymous memory), which take no readahead decision, never
# enter it, whatever the settings.
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

# Every policy off: misses and reads count, no hit is offered
fresh_module && all_policies_off && walk normal forward "$f" && warm_walk "$f"
miss=$(counter sync_miss) read=$(counter pages_read) hits=$(counter mmap_hit)
[ "$miss" -gt 0 ] && [ "$read" -gt 0 ] && [ "$hits" = 0 ]
tap $? "every policy off: $miss misses and $read pages read counted, $hits hits offered"

# pmd_hit on turns the hit hook on: hits on ext4 are offered
set_policy pmd_hit on && warm_walk "$f"
hits=$(counter mmap_hit)
[ "$hits" -gt 0 ]
tap $? "pmd_hit on: $hits hits offered on ext4"

# ... but none of tmpfs
before=$(counter mmap_hit)
warm_walk $TMPFS/data && warm_walk $TMPFS/data
after=$(counter mmap_hit)
[ "$after" = "$before" ]
tap $? "pmd_hit on: no tmpfs fault enters the module (mmap_hit $before, then $after)"

# pmd_hit off again: the key follows the setting at once
set_policy pmd_hit off && warm_walk "$f"
[ "$(counter mmap_hit)" = "$after" ]
tap $? "pmd_hit off again: no hit offered (mmap_hit $after, then $(counter mmap_hit))"

modprobe -r rapolicy
umount $TMPFS && rmdir $TMPFS
tap_end
