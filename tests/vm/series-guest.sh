#!/bin/sh
# Guest side of tests/vm/run-series-tests.sh (TAP): the suites named in the
# arguments, on a patched kernel of any series.
#   neutrality  no module loaded: tests/guest/neutrality.sh against the
#               stock table of this kernel version
#   policies    the policy selftests (tests/guest/policies.sh)
#   streams     "best" on reverse walks (tests/guest/streams.sh)
#   reverse     each descending policy alone on the reverse walk of its
#               advice, then "best": at most 4 major faults, the file read
#               once, forward walks unchanged (the subset of streams.sh that
#               does not depend on folio sizes, which differ on 6.12)
#   vma_limit   an mprotect()-split mapping read forwards: "always" stops
#               readahead at every VMA end (a fault per VMA at least),
#               "near_end" only within ra_pages of it
. /add/guest/lib.sh
SECTOR_SLACK=64

# reverse_suite: counts relate to the file size only: 256 MiB read once is
# 524288 sectors, and a stream takes one fault to start and at most one
# more to see the direction. (With every policy off the same walks take
# what the stock table of this kernel says: tests/guest/stock-*.txt.)
reverse_suite() {
	modprobe rapolicy || { tap 1 "load rapolicy"; return; }
	f=$(testfile 256M) || { tap 1 "create 256M"; return; }
	for c in huge:descending_thp seq:descending_seq normal:descending_around; do
		advice=${c%%:*} policy=${c#*:}
		all_policies_off
		walk "$advice" forward "$f"
		fwd_major=$walk_major fwd_sectors=$walk_sectors
		set_policy "$policy" stream || tap 1 "$policy=stream"
		walk "$advice" reverse "$f"
		[ "$walk_major" -le 4 ] && [ "$walk_sectors" -ge 524288 ] &&
			[ "$walk_sectors" -le $((524288 + SECTOR_SLACK)) ]
		tap $? "$policy=stream: $advice reverse 256M: $walk_major <= 4 major faults, $walk_sectors sectors"
		walk "$advice" forward "$f"
		[ "$walk_major" = "$fwd_major" ] && [ "$walk_sectors" = "$fwd_sectors" ]
		tap $? "$policy=stream: $advice forward unchanged ($walk_major, $walk_sectors)"
	done
	all_policies_off
	set_policy descending_thp stream && set_policy descending_seq stream &&
		set_policy descending_around stream
	for advice in seq normal huge; do
		walk "$advice" reverse "$f"
		[ "$walk_major" -le 4 ]
		tap $? "best: $advice reverse 256M takes $walk_major <= 4 major faults"
	done
	all_policies_off
}

# vma_limit_suite: 256 MiB in 8 VMAs of 8192 pages, more than ra_pages
# (2048 at read_ahead_kb 8192): "always" cannot read across a VMA end, so
# every VMA starts with a fault; "near_end" bounds only reads that start
# within ra_pages of the end
vma_limit_suite() {
	modprobe rapolicy || { tap 1 "load rapolicy"; return; }
	f=$(testfile 256M) || { tap 1 "create 256M"; return; }
	all_policies_off
	walk normal vmasplit:8 "$f"
	off_major=$walk_major
	set_policy vma_limit always
	walk normal vmasplit:8 "$f"
	always_major=$walk_major
	[ "$always_major" -ge 8 ] && [ "$walk_sectors" -ge 524288 ]
	tap $? "vma_limit=always: vmasplit:8 takes $always_major >= 8 major faults (none: $off_major)"
	set_policy vma_limit near_end
	walk normal vmasplit:8 "$f"
	[ "$walk_major" -le "$always_major" ] && [ "$walk_sectors" -ge 524288 ]
	tap $? "vma_limit=near_end: vmasplit:8 takes $walk_major <= $always_major major faults"
	all_policies_off
}

check "kernel $(uname -r) has the readahead policy hooks" \
	grep -q ' readahead_policy_register$' /proc/kallsyms
echo "# scratch: $(grep " $SCRATCH " /proc/mounts)"
for suite in "$@"; do
	case $suite in
	neutrality)
		! grep -q '^rapolicy ' /proc/modules
		tap $? "no readahead policy module loaded for the neutrality walks"
		sh /add/guest/neutrality.sh check "no policy registered" ;;
	policies) sh /add/guest/policies.sh ;;
	streams) sh /add/guest/streams.sh ;;
	reverse) reverse_suite ;;
	vma_limit) vma_limit_suite ;;
	*) tap 1 "unknown suite $suite" ;;
	esac
done
! dmesg | grep -E 'BUG|Oops|WARNING|general protection|Call Trace' >&2
tap $? "no kernel warnings, BUGs or oopses"
