#!/bin/sh
# Every guest-side test, in one boot of the patched kernel (TAP). Each
# script prints its own plan; one that stops halfway fails (suite, lib.sh).
here=$(dirname "$0")
. "$here/lib.sh"

check "kernel has the readahead policy hooks" grep -q ' readahead_policy_register$' /proc/kallsyms
check "scratch is ext4" grep -q " $SCRATCH ext4 " /proc/mounts
check "khugepaged is parked (tests/vm/init), so walks do not race its collapse_file() reads" \
	grep -qx 4294967295 /sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs
suite kunit.sh
suite neutrality.sh check "no policy registered"
suite policies.sh
suite streams.sh
suite tracker.sh
suite tools.sh
suite ab.sh
suite ab_tool.sh
suite hostile.sh
suite hostile_window.sh
# Anything the kernel complained about during the tests is a failure.
! dmesg | grep -E 'BUG|Oops|WARNING|general protection|Call Trace' >&2
tap $? "no kernel warnings, BUGs or oopses"
tap_end
