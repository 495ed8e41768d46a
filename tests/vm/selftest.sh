#!/bin/bash
# shellcheck disable=SC2016  # guest scripts are single-quoted on purpose
# Self-test of tests/vm/vm-run: statuses, quoting, no stdin, the guest's
# mounts and scratch disk, panic and timeout handling, large folios.
# Usage: tests/vm/selftest.sh [--stock]   (other args go to every vm-run)
# Ends with "N passed, N failed"; exits 1 if anything failed.
set -euo pipefail

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VM_RUN=$VM_DIR/vm-run
passed=0 failed=0
work=$(mktemp -d "${TMPDIR:-/tmp}/vm-selftest.XXXXXX")
trap 'rm -rf "$work"' EXIT

# check NAME WANT_STATUS GREP_REGEX [VM-RUN ARGS...]: run vm-run with stdin
# closed and match its status and its stdout+stderr.
check() {
	local name=$1 want=$2 regex=$3 rc=0
	shift 3
	"$VM_RUN" "$@" >"$work/out" 2>&1 <&- || rc=$?
	if [ "$rc" = "$want" ] && grep -Eq -- "$regex" "$work/out"; then
		echo "PASS $name"
		passed=$((passed + 1))
	else
		echo "FAIL $name: status $rc (want $want), output:"
		sed 's/^/    /' "$work/out"
		failed=$((failed + 1))
	fi
}

gcc -static -O2 -o "$work/pmdcheck" "$VM_DIR/pmdcheck.c"
printf 'hello\n' >"$work/hello.txt"

check "uname -r" 0 '^7\.[0-9]+\.[0-9]+' "$@" -- uname -r
check "exit status" 3 '' "$@" -- sh -c 'exit 3'
check "quoting" 0 "^a 'b' \\\$c d  e\$" "$@" -- printf '%s\n' "a 'b' \$c d  e"
check "mounts and scratch ext4 >= 2 GiB" 0 '^ok$' "$@" -- sh -c '
	set -e
	for m in /proc /sys /dev /sys/kernel/debug /sys/fs/cgroup /tmp; do
		grep -q " $m " /proc/mounts
	done
	grep -q " /sys/fs/cgroup cgroup2 " /proc/mounts
	grep -q "^/dev/vda /mnt/scratch ext4 " /proc/mounts
	[ "$(df -k /mnt/scratch | awk "NR==2 {print \$2}")" -ge 2097152 ]
	[ "$RAPOLICY_SCRATCH" = /mnt/scratch ] && [ "$(pwd)" = / ]
	echo ok'
check "--add and stdin" 0 '^hello$' "$@" --add "$work/hello.txt" -- sh -c 'read x || true; cat /add/hello.txt'
check "large folios on scratch" 0 'pmdcheck: PASS' "$@" --add "$work/pmdcheck" -- /add/pmdcheck
check "throttled disk" 0 'ok' "$@" --throttle-iops 2000 --throttle-bps 50000000 -- \
	sh -c 'dd if=/dev/zero of=/mnt/scratch/f bs=1M count=8 conv=fsync 2>/dev/null && echo ok'
# No sysrq in the test config: a panic the command can cause is panic_on_oom.
# -icount shift=0: one nanosecond per instruction, a 1 GHz TSC in the guest
check "--icount: the guest's TSC counts instructions (1 GHz)" 0 'tsc: Detected (99[5-9]|100[0-4])\.' \
	"$@" --icount -- sh -c 'dmesg | grep "tsc: Detected"'
check "panic" 125 'vm-run: guest panicked' "$@" --mem 256 -- sh -c '
	echo 1 > /proc/sys/vm/panic_on_oom
	mount -o remount,size=100% /tmp
	cat /dev/zero > /tmp/fill'
check "timeout" 124 'vm-run: timed out after 30 s' "$@" --timeout 30 -- sleep 1000

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
