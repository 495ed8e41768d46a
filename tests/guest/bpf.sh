#!/bin/sh
# Readahead policies in BPF (TAP): struct rapolicy_ops of rapolicy.ko,
# loaded by rapolicy-bpf (docs/BPF.md). The verifier refuses a program that
# writes the fault or may sleep, and the module a sleepable one; each port
# makes the same decisions as its
# C original on the same walk, run side by side as arm A (C) and arm B
# (BPF) of the A/B machinery, so the same major faults and sectors; a
# hostile program's windows are all cut or refused by the kernel and
# counted; the watchdog ejects a program whose windows are refused again
# and again, and one that asks for a scan of the page cache; unloading
# while faults run is safe, and the module cannot go while a program uses
# it.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

AB=$RAPOLICY_SYSFS/ab
CG=/sys/fs/cgroup
PROGS=/usr/bin		# make vm-prereqs puts the programs with the tools
RA_KB=512		# 128 pages a window
FILE_SECTORS=131072	# 64 MiB
SECTOR_SLACK=64

bpf_ops() { cat "$RAPOLICY_SYSFS/bpf_ops"; }

modprobe rapolicy || { tap 1 "load rapolicy"; tap_end; }
if [ ! -d /sys/kernel/btf ] || [ ! -x "$PROGS/rapolicy-bpf" ]; then
	rmmod rapolicy
	tap_skip "BPF policies on $(uname -r)" "no BPF struct_ops and module BTF in this kernel (only tests/kernel/series-7.3.config has them)"
	tap_end
fi
all_policies_off
[ "$(bpf_ops)" = none ]
tap $? "bpf_ops: none loaded"

# bad_sleepable.bpf.o is the verifier's to pass (a sleepable struct_ops
# program may call bpf_copy_from_user()) and the module's to refuse
for bad in bad_write bad_sleep bad_sleepable; do
	rapolicy-bpf load "$PROGS/$bad.bpf.o" >/tmp/bad.out 2>&1
	rc=$?
	sed 's/^/# /' /tmp/bad.out | grep -E 'rapolicy_ops may only|might sleep|unsupported member|refused' | head -3
	[ $rc != 0 ] && [ "$(bpf_ops)" = none ]
	tap $? "$bad.bpf.o is refused at load, nothing registered"
	[ "$(bpf_ops)" = none ] || rapolicy-bpf unload >/dev/null
done

# in_arm ARM COMMAND...: run COMMAND in the cgroup of arm ARM (a or b)
in_arm() {
	_cg=$CG/arm_$1
	shift
	echo $$ >"$_cg/cgroup.procs" && "$@"
	_rc=$?
	echo $$ >"$CG/cgroup.procs"
	return $_rc
}

mkdir -p "$CG/arm_a" "$CG/arm_b"
echo /arm_b >"$AB/cgroup" && echo cgroup >"$AB/mode"
tap $? "arm B is cgroup /arm_b"
fa=$(testfile 64M) && cp "$fa" "$SCRATCH/bpf-b" && fb=$SCRATCH/bpf-b
tap $? "two 64 MiB files"

# same_walks POLICY STAT WALK...: each walk once in arm A (C policy) and
# once in arm B (BPF port): equal major faults, sectors within the slack
# of the file system's own metadata reads (an extent block, 8 sectors, is
# read by whichever walk finds it evicted; seen: 131088 against 131072),
# and the port
# replaced as many windows as the C policy's counter STAT says it did
# (some, over all the walks). The kernel cuts the port's windows where it
# cuts the C policy's (a read-around window past EOF, say): bpf_clamp is
# shown, not asserted.
same_walks() {
	_pol=$1 _stat=$2 _total=0
	shift 2
	for _w in "$@"; do
		echo 1 >"$RAPOLICY_SYSFS/stats/reset"
		in_arm a walk "${_w%%:*}" "${_w#*:}" "$fa" || return 1
		_ma=$walk_major _sa=$walk_sectors
		in_arm b walk "${_w%%:*}" "${_w#*:}" "$fb" || return 1
		_mb=$walk_major _sb=$walk_sectors
		_da=$(counter "$_stat" a) _db=$(counter bpf b)
		echo "# $_pol $_w: C $_ma majflt $_sa sectors $_da windows; BPF $_mb majflt $_sb sectors $_db windows, $(counter bpf_clamp b) cut"
		_ds=$((_sa - _sb))
		[ "$_ma" = "$_mb" ] && [ "${_ds#-}" -le "$SECTOR_SLACK" ] && [ "$_da" = "$_db" ] &&
			[ "$(counter "$_stat" b)" = 0 ] || return 1
		_total=$((_total + _da))
	done
	[ "$_total" -gt 0 ]
}

rapolicy-bpf load "$PROGS/descending_seq.bpf.o" | sed 's/^/# /'
bpf_ops | grep -q '^descending_seq [0-9][0-9]*$'
tap $? "descending_seq.bpf.o loads; bpf_ops: $(bpf_ops)"
! rapolicy-bpf load "$PROGS/sync_mmap_order.bpf.o" 2>/dev/null &&
	bpf_ops | grep -q '^descending_seq '
tap $? "a second program is refused while one is loaded"
! rmmod rapolicy 2>/dev/null && [ -d "$RAPOLICY_SYSFS" ]
tap $? "rapolicy cannot be unloaded while a BPF policy uses it"
echo window >"$RAPOLICY_SYSFS/descending_seq" && echo on >"$AB/bpf"
same_walks descending_seq descending_seq seq:reverse seq:forward seq:random:5
tap $? "descending_seq: the BPF port's faults, sectors and windows are the C policy's"
rapolicy-bpf unload | sed 's/^/# /'
[ "$(bpf_ops)" = none ]
tap $? "descending_seq unloads"
all_policies_off

rapolicy-bpf load "$PROGS/sync_mmap_order.bpf.o" | sed 's/^/# /'
bpf_ops | grep -q '^sync_mmap_order '
tap $? "sync_mmap_order.bpf.o loads"
echo fault_around >"$RAPOLICY_SYSFS/sync_mmap_order" && echo on >"$AB/bpf"
same_walks sync_mmap_order order_raise normal:forward normal:reverse normal:random:5
tap $? "sync_mmap_order: the BPF port's faults, sectors and windows are the C policy's"
rapolicy-bpf unload >/dev/null
all_policies_off
echo off >"$AB/mode"

# Every window of hostile.bpf.o is refused (past the VMA) or cut (the whole
# address space, a marker past its end, folio order 31), one and the
# other in turn, so that the watchdog leaves it be: the walks
# complete, read no page twice, and every window it returned is counted
# as cut or refused.
rapolicy-bpf load "$PROGS/hostile.bpf.o" >/dev/null && echo on >"$RAPOLICY_SYSFS/bpf"
tap $? "hostile.bpf.o loads"
for w in normal:reverse normal:forward seq:forward huge:reverse normal:random:5; do
	echo 1 >"$RAPOLICY_SYSFS/stats/reset"
	walk "${w%%:*}" "${w#*:}" "$fa" && n=$(counter bpf a) &&
		[ "$n" -gt 0 ] && [ "$(counter bpf_clamp a)" = "$n" ] &&
		[ "$walk_sectors" -le $((FILE_SECTORS + SECTOR_SLACK)) ]
	tap $? "hostile $w: completes, $walk_sectors sectors <= the file, $(counter bpf_clamp a) of $(counter bpf a) windows cut or refused"
done
# A walk that touches two pages reads at most two windows of ra_pages
# (1024 sectors; the program asks for one window, no nr), not the
# address space the program asked for, nor the 1024 pages of two PMD
# folios it was cut to before.
walk normal random:0.01 "$fa" &&
	[ "$(report pages_touched)" -le 2 ] && [ "$walk_sectors" -le $((2 * RA_KB * 2 + SECTOR_SLACK)) ]
tap $? "hostile: cut to ra_pages a fault ($walk_sectors sectors for $(report pages_touched) pages)"
# hostile_whole.bpf.o asks for the whole address space at every decision.
# Mapping only the middle half of the file, away from folio boundaries:
# nothing outside the mapping is read (the refused windows of hostile.bpf.o
# leave the default, which stock reads outside a VMA too).
rapolicy-bpf unload >/dev/null && rapolicy-bpf load "$PROGS/hostile_whole.bpf.o" >/dev/null
tap $? "hostile_whole.bpf.o replaces hostile.bpf.o"
first=$((FILE_SECTORS / 8 / 4 + 3)) end=$((3 * FILE_SECTORS / 8 / 4 - 5))
for adv in normal seq huge; do
	for dir in forward reverse; do
		o=$(partmap "$fa" $first $end $adv $dir) && [ "$o" = "outside 0" ]
		tap $? "hostile_whole: $adv $dir over pages [$first, $end) reads nothing outside ($o)"
	done
done
rapolicy-bpf unload >/dev/null

# The watchdog (module/bpf.c). refuser.bpf.o returns a window past the
# VMA at every decision: the kernel refuses the first 63, and the 64th
# (RAP_BPF_REFUSED_MAX) ejects it; from then on no fault calls it. A walk
# of 64 MiB in 128-page windows decides more than 64 times.
# eject_test PROG WINDOWS REASON: PROG ejected by a cold forward walk in
# arm A, after WINDOWS of its windows went to the kernel: bpf_eject 1, one
# kernel log line naming REASON, bpf_ops says so, a second walk calls it
# no more, another program is refused until it is unloaded
eject_check() {
	dmesg -c >/dev/null
	echo 1 >"$RAPOLICY_SYSFS/stats/reset"
	rapolicy-bpf load "$PROGS/$1.bpf.o" >/dev/null && echo on >"$RAPOLICY_SYSFS/bpf" &&
		walk normal forward "$fa" || return 1
	_log=$(dmesg | grep -c "BPF policy $1 ejected: $3")
	echo "# $1: $(counter bpf_eject a) ejected, $(counter bpf a) windows, $_log log lines; bpf_ops: $(bpf_ops)"
	[ "$(counter bpf_eject a)" = 1 ] && [ "$(counter bpf a)" = "$2" ] &&
		[ "$(counter bpf_clamp a)" = "$2" ] && [ "$_log" = 1 ] &&
		bpf_ops | grep -q "^$1 [0-9]* ejected$" || return 1
	walk normal forward "$fa" && [ "$(counter bpf a)" = "$2" ] &&
		[ "$(counter bpf_eject a)" = 1 ] || return 1
	! rapolicy-bpf load "$PROGS/descending_seq.bpf.o" 2>/dev/null
}
# eject_test ...: eject_check, then the program unloaded, failed or not
eject_test() {
	eject_check "$@"
	_rc=$?
	rapolicy-bpf unload >/dev/null && [ "$(bpf_ops)" = none ] && return $_rc
}
eject_test refuser 63 "refused windows in a row"
tap $? "refuser: ejected after 63 refused windows, bpf_eject 1, one log line, called no more"
# scanner.bpf.o asks bpf_rapolicy_cached() about its whole mapping and
# beyond, more than the 1024 pages (RAP_BPF_CACHED_PAGES) a decision may:
# the kfunc looks at nothing and the first decision ejects it, its answer
# unused
eject_test scanner 0 "bpf_rapolicy_cached() over its pages"
tap $? "scanner: a scan of the page cache is refused, the program ejected at its first decision"

# Unload and load while walkers fault: each switch returns only once no
# fault runs the old program (rap_bpf_unreg()); the walkers, each on a
# file of its own (--cold drops only what no other walker maps), must
# finish.
echo 1 >"$RAPOLICY_SYSFS/stats/reset"
i=0
while [ $i -lt 3 ]; do
	rawalk --create 16M --seed $i "$SCRATCH/bpf-w$i" >/dev/null || echo fail >/tmp/bpf.walker
	(while [ ! -e /tmp/bpf.stop ]; do
		rawalk --advice seq --pattern reverse --read-ahead-kb 512 --cold \
			"$SCRATCH/bpf-w$i" >/dev/null || { echo fail >/tmp/bpf.walker; break; }
	done) &
	i=$((i + 1))
done
ok=0
i=0
while [ $i -lt 30 ]; do
	for p in descending_seq hostile sync_mmap_order; do
		rapolicy-bpf load "$PROGS/$p.bpf.o" >/dev/null && rapolicy-bpf unload >/dev/null ||
			ok=1
	done
	i=$((i + 1))
done
touch /tmp/bpf.stop
wait
[ $ok = 0 ] && [ ! -e /tmp/bpf.walker ] && [ "$(bpf_ops)" = none ] &&
	[ "$(counter bpf a)" -gt 0 ]
tap $? "90 loads and unloads under 3 faulting walkers: every switch and walk succeeds"
rm -f /tmp/bpf.stop /tmp/bpf.walker "$fb" "$SCRATCH"/bpf-w*

# An unloaded program's struct_ops map puts its reference on the module
# when it is freed, after an RCU grace period
all_policies_off
i=0
while [ "$(cat /sys/module/rapolicy/refcnt)" != 0 ] && [ $i -lt 200 ]; do
	usleep 50000
	i=$((i + 1))
done
rmmod rapolicy
tap $? "rapolicy unloads once no BPF policy is loaded"
rmdir "$CG/arm_a" "$CG/arm_b"
tap_end
