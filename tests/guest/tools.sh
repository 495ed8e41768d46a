#!/bin/sh
# rapolicyctl against the real module, and rawalk's counts against the
# kernel's own /proc/vmstat (TAP).
. "$(dirname "$0")/lib.sh"

vmstat() { sed -n "s/^$1 //p" /proc/vmstat; }

modprobe rapolicy || { tap 1 "load rapolicy"; exit 1; }
all_policies_off
rapolicyctl status >/tmp/status.out
tap $? "rapolicyctl status with the module loaded"
grep -q "descending_thp" /tmp/status.out
tap $? "status lists the policies"

rapolicyctl set descending_thp=folio pmd_hit=on >/dev/null &&
	grep -q "\[folio\]" "$RAPOLICY_SYSFS/descending_thp" &&
	grep -q "\[on\]" "$RAPOLICY_SYSFS/pmd_hit"
tap $? "rapolicyctl set writes the module's files"
[ "$(rapolicyctl get descending_thp pmd_hit | tr '\n' ' ')" = "descending_thp=folio pmd_hit=on " ]
tap $? "rapolicyctl get reads them back"

rapolicyctl set vma_limit=always descending_seq=bogus 2>/tmp/err
rc=$?
[ $rc = 2 ] && grep -q "^\[none\]" "$RAPOLICY_SYSFS/vma_limit" &&
	grep -q "^\[off\]" "$RAPOLICY_SYSFS/descending_seq"
tap $? "a bad pair: exit 2 ($rc), nothing written"
grep -q "window" /tmp/err
tap $? "the error names the allowed values ($(head -n 1 /tmp/err))"
rapolicyctl set sync_mmap_order=99 2>/dev/null
[ $? = 2 ] && grep -q "^\[off\]" "$RAPOLICY_SYSFS/sync_mmap_order"
tap $? "an out-of-range order is refused"

rapolicyctl profile stock >/dev/null &&
	[ "$(rapolicyctl get | grep -vc '=off$\|=none$')" = 0 ]
tap $? "profile stock turns every policy off"
rapolicyctl stats --prometheus | grep -q '^rapolicy_sync_miss [0-9]'
tap $? "stats --prometheus has the counters"

# rawalk's counts against the kernel's own: the guest runs nothing else.
f=$(testfile 64M)
maj0=$(vmstat pgmajfault) in0=$(vmstat pgpgin)
walk seq reverse "$f"
maj1=$(vmstat pgmajfault) in1=$(vmstat pgpgin)
echo "# rawalk: $walk_major majflt, $walk_sectors sectors; vmstat: $((maj1 - maj0)) pgmajfault, $((in1 - in0)) KiB pgpgin"
d=$((maj1 - maj0 - walk_major))
[ $d -ge 0 ] && [ $d -le 4 ]
tap $? "rawalk major_faults match /proc/vmstat pgmajfault (+$d for rawalk itself)"
d=$((in1 - in0 - walk_sectors / 2))
[ $d -ge 0 ] && [ $d -le 64 ]
tap $? "rawalk sectors_read match /proc/vmstat pgpgin (+$d KiB)"
