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
#   unavailable 6.12 cannot honour sync_mmap_order 0 and 1 (its
#               page_cache_ra_order() reads order-2 folios for them): the
#               module does not list them, refuses them (EOPNOTSUPP, as a
#               module parameter too) and rapolicyctl says so
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

# unavailable_suite: what the kernel cannot honour is not offered
unavailable_suite() {
	modprobe rapolicy || { tap 1 "load rapolicy"; return; }
	all_policies_off
	for d in "" ab/; do
		f=$RAPOLICY_SYSFS/${d}sync_mmap_order
		orders=$(tr ' ' '\n' <"$f" | tr -d '[]' | grep -x '[0-9]*' | tr '\n' ' ')
		case " $orders" in *" 0 "* | *" 1 "*) false ;; " 2 "*) true ;; *) false ;; esac
		tap $? "${d}sync_mmap_order lists no order 0 or 1: $(cat "$f")"
		before=$(cat "$f")
		(echo 0 >"$f") 2>/tmp/err
		r=$?
		[ $r != 0 ] && grep -qi "not supported" /tmp/err && [ "$(cat "$f")" = "$before" ]
		tap $? "writing 0 to ${d}sync_mmap_order fails with EOPNOTSUPP, changes nothing ($(cat /tmp/err))"
	done
	(echo bogus >"$RAPOLICY_SYSFS/sync_mmap_order") 2>/tmp/err
	[ $? != 0 ] && grep -qi "invalid" /tmp/err
	tap $? "a value of no policy is still EINVAL ($(cat /tmp/err))"
	echo 2 >"$RAPOLICY_SYSFS/sync_mmap_order" && grep -q "\[2\]" "$RAPOLICY_SYSFS/sync_mmap_order"
	tap $? "sync_mmap_order takes order 2"
	all_policies_off
	rapolicyctl status >/tmp/status.out 2>&1 &&
		grep -qx "unavailable: sync_mmap_order=0 sync_mmap_order=1" /tmp/status.out
	tap $? "rapolicyctl status shows sync_mmap_order 0 and 1 unavailable ($(grep unavailable /tmp/status.out))"
	rapolicyctl status --json | tr -d ' \n' |
		grep -q '"unavailable":\["sync_mmap_order=0","sync_mmap_order=1"\]'
	tap $? "and status --json"
	before=$(cat "$RAPOLICY_SYSFS/sync_mmap_order" "$RAPOLICY_SYSFS/pmd_hit")
	rapolicyctl set pmd_hit=on sync_mmap_order=1 2>/tmp/err
	r=$?
	[ $r = 1 ] && [ "$(cat "$RAPOLICY_SYSFS/sync_mmap_order" "$RAPOLICY_SYSFS/pmd_hit")" = "$before" ] &&
		grep -qx "rapolicyctl: sync_mmap_order: value '1' is not available on this kernel" /tmp/err
	tap $? "rapolicyctl set sync_mmap_order=1: exit 1 ($r), nothing written ($(cat /tmp/err))"
	modprobe -r rapolicy
	! modprobe rapolicy sync_mmap_order=1 2>/dev/null && ! grep -q '^rapolicy ' /proc/modules
	tap $? "the module parameter sync_mmap_order=1 is refused"
	modprobe rapolicy sync_mmap_order=3 && grep -q "\[3\]" "$RAPOLICY_SYSFS/sync_mmap_order"
	tap $? "the module parameter sync_mmap_order=3 is taken"
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
	unavailable) unavailable_suite ;;
	*) tap 1 "unknown suite $suite" ;;
	esac
done
! dmesg | grep -E 'BUG|Oops|WARNING|general protection|Call Trace' >&2
tap $? "no kernel warnings, BUGs or oopses"
