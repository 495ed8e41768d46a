#!/bin/sh
# Every guest-side test, in one boot of the patched kernel (TAP).
here=$(dirname "$0")
. "$here/lib.sh"

check "kernel has the readahead policy hooks" grep -q ' readahead_policy_register$' /proc/kallsyms
check "scratch is ext4" grep -q " $SCRATCH ext4 " /proc/mounts
check "khugepaged is parked (tests/vm/init), so walks do not race its collapse_file() reads" \
	grep -qx 4294967295 /sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs
sh "$here/kunit.sh"
sh "$here/neutrality.sh" check "no policy registered"
[ -x "$here/policies.sh" ] && sh "$here/policies.sh"
sh "$here/streams.sh"
sh "$here/tracker.sh"
sh "$here/random.sh"
sh "$here/tools.sh"
sh "$here/ab.sh"
sh "$here/ab_tool.sh"
sh "$here/hostile.sh"
sh "$here/hostile_window.sh"
# Anything the kernel complained about during the tests is a failure.
! dmesg | grep -E 'BUG|Oops|WARNING|general protection|Call Trace' >&2
tap $? "no kernel warnings, BUGs or oopses"
