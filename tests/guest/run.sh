#!/bin/sh
# Every guest-side test, in one boot of the patched kernel (TAP), on 7.3
# (tests/vm/run-guest-tests.sh), 7.2 and 6.12 (tests/vm/series-guest.sh
# guest). Each script prints its own plan; one that stops halfway fails
# (suite, lib.sh).
here=$(dirname "$0")
. "$here/lib.sh"

check "kernel has the readahead policy hooks" grep -q ' readahead_policy_register$' /proc/kallsyms
# large folios: ext4 on 7.x, XFS on 6.12 (tests/vm/vm-run picks it)
fs=ext4
case $(uname -r) in 6.12.*) fs=xfs ;; esac
check "scratch is $fs" grep -q " $SCRATCH $fs " /proc/mounts
check "khugepaged is parked (tests/vm/init), so walks do not race its collapse_file() reads" \
	grep -qx 4294967295 /sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs
# The same scripts on every kernel of make check (7.3 here, 7.2 and 6.12
# through tests/vm/series-guest.sh); what one of them cannot run on a
# kernel is a counted skip with its reason.
case $(uname -r) in
7.2.*)
	# 7.2 takes 7.3's series (patches/ after patches/7.2/prerequisites)
	# and the same module: what these test is the module and the tools,
	# not the kernel, and 7.3's run covers them; they would add about ten
	# minutes of TCG to make check's 90
	why="the module and rapolicyctl are 7.3's, tested on 7.3; the kernel's part is neutrality, the selftests, streams, tracker and KUnit here"
	skip_patterns=$why skip_random=$why skip_memcg=$why skip_tools=$why skip_ab=$why
	skip_ab_tool=$why skip_hostile_window=$why skip_ledger=$why
	;;
6.12.*)
	skip_policies="the selftests assert 7.3's seed problems (6.12's MADV_HUGEPAGE reverse walk has no MMAP_LOTSAMISS regression to fix); series-guest.sh's reverse suite checks each policy there"
	skip_streams="its memcg no-regression window (1% around two stock walks) is narrower than 6.12's own spread between stock walks; series-guest.sh's reverse and memcg suites check best there"
	skip_ab="its arm A expects 7.x's stock count for a MADV_HUGEPAGE reverse walk past MMAP_LOTSAMISS, which 6.12 does not have"
	skip_tools="it expects every value of the table honoured; series-guest.sh's unavailable suite checks what 6.12 cannot honour"
	skip_random="its bounds take order-0 reads; 6.12's page_cache_ra_order() reads order-2 folios for them, 4 pages a random touch"
	skip_memcg="random_miss's order-0 reads are order-2 on 6.12 (as for random.sh); its memcg walks are not measured there"
	;;
esac
for s in kunit neutrality policies streams tracker patterns random memcg ledger tools ab ab_tool hostile hostile_window trace hooks bpf; do
	eval "why=\${skip_$s:-}"
	if [ -n "$why" ]; then
		tap_skip "$s.sh on $(uname -r)" "$why"
	elif [ $s = neutrality ]; then
		suite neutrality.sh check "no policy registered"
	else
		suite $s.sh
	fi
done
# Anything the kernel complained about during the tests is a failure,
# and so is any kernel message that names a function of our modules
# ("func [rapolicy]": a stack trace, a deprecated interface they use).
! dmesg | grep -E 'BUG|Oops|WARNING|general protection|Call Trace' >&2
tap $? "no kernel warnings, BUGs or oopses"
! dmesg | grep -F '[rapolicy' >&2
tap $? "no kernel message names a function of the rapolicy modules"
tap_end
