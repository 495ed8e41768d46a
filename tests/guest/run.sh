#!/bin/sh
# Every guest-side test, in one boot of the patched kernel (TAP).
here=$(dirname "$0")
. "$here/lib.sh"

check "kernel has the readahead policy hooks" grep -q readahead_policy_register /proc/kallsyms
check "scratch is ext4" grep -q " $SCRATCH ext4 " /proc/mounts
sh "$here/neutrality.sh" check "no policy registered"
