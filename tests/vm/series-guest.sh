#!/bin/sh
# Guest side of tests/vm/run-series-tests.sh (TAP): the suites named in the
# arguments, on a patched kernel of any series.
#   neutrality  no module loaded: tests/guest/neutrality.sh against the
#               stock table of this kernel version
#   policies    the policy selftests (tests/guest/policies.sh)
#   streams     "best" on reverse walks (tests/guest/streams.sh)
. /add/guest/lib.sh

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
	*) tap 1 "unknown suite $suite" ;;
	esac
done
! dmesg | grep -E 'BUG|Oops|WARNING|general protection|Call Trace' >&2
tap $? "no kernel warnings, BUGs or oopses"
