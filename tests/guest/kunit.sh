#!/bin/sh
# The KUnit suite of the policy decisions (rapolicy_test.ko), run in the
# kernel; its KTAP results become TAP lines, one per case.
. "$(dirname "$0")/lib.sh"

results=/sys/kernel/debug/kunit/rapolicy_policy/results
if ! modprobe rapolicy_test; then
	tap 1 "load rapolicy_test.ko (KUnit suite)"
	exit 1
fi
if [ ! -r "$results" ]; then
	tap 1 "KUnit results in $results"
	exit 1
fi
kunit_import "$results"
grep -q "^ok 1 rapolicy_policy" "$results"
tap $? "KUnit suite rapolicy_policy passed"
rmmod rapolicy_test
tap_end
