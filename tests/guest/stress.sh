#!/bin/sh
# Stress on the debug kernel (TAP), run by tests/stress/stress.sh:
#
#   STRESS_SECONDS=N sh stress.sh
#
# For N seconds (default 60): STRESS_WALKERS (default 4) rawalk walkers
# loop over every pattern and advice on private, shared and "victim" files,
# some of them in a memcg smaller than their file, half of them in the
# cgroup that ab/cgroup names; a flipper cycles every policy file of both
# arms through all its values and flips ab/mode, ab/sample_permille,
# ab/salt and ab/cgroup, reads and resets the counters; a reloader
# unloads and reloads rapolicy.ko (sometimes with module parameters) and,
# on a kernel with BTF, loads and unloads each BPF policy in between; a
# mutator truncates, punches holes in (STRESS_PUNCH, default /add/punch),
# rewrites, unlinks and recreates the victim files while they are walked,
# and drops the page cache; khugepaged collapses the walked files every
# 100 ms, but the victims, which are never mapped with MADV_HUGEPAGE.
#
# Then, with every policy off and the module loaded, a subset of the
# neutrality walks must match stock-7.3.4.txt, kmemleak must find nothing
# and dmesg must hold no BUG, WARNING, KASAN, lockdep, RCU, hung task or
# soft lockup report. A walker's SIGBUS or vanished file is expected only
# on a victim file, and a cold start that khugepaged held up is tried once
# more; anything else a walker reports is a failure.
#
# Word lists ($PATTERNS, a policy's values, counters) split on purpose:
# shellcheck disable=SC2086,SC2046
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

DURATION=${STRESS_SECONDS:-60}
WALKERS=${STRESS_WALKERS:-4}
PUNCH=${STRESS_PUNCH:-/add/punch}
STATE=/tmp/stress
DIR=$SCRATCH/stress
CGROOT=/sys/fs/cgroup
ARM_B=$CGROOT/stress-b
KMEMLEAK=/sys/kernel/debug/kmemleak
TRACE_EV=$TRACEFS/events/readahead_policy/readahead_policy_window
PATTERNS="reverse forward stride:8 random:20 vmasplit:16 memcpy"
ADVICES="normal seq huge random"
# What a debug kernel reports when something is wrong.
SPLAT='BUG:|WARNING:|KASAN|kfence|KFENCE|lockdep|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|detected stall|kmemleak|hung task|blocked for more than|soft lockup|hard LOCKUP|Oops|general protection|Call Trace|list_add corruption|list_del corruption|refcount_t:|UBSAN|\[rapolicy'
# Boot banners of the debug options, and the command line (kmemleak=on),
# which match SPLAT but report nothing.
BANNERS='ommand line: |KernelAddressSanitizer initialized|kmemleak: Kernel memory leak detector initialized|kfence: initialized|Lock dependency validator|lockdep|ODEBUG: .*(selftest passed|Out of memory)'
# What rawalk says when the mutator took a victim file away under it.
VICTIM_GONE='cannot open|cannot stat|cannot reopen|is empty, nothing to walk|changed while rawalk was setting up|has only [0-9]+ pages'

mkdir -p "$STATE" "$DIR"

# uptime_s: whole seconds since boot, without a fork
uptime_s() {
	read -r _up _rest </proc/uptime
	echo "${_up%.*}"
}
# now_s: wall-clock seconds from the emulated RTC, which QEMU keeps on the
# host's clock. The guest's own clock is no timer for STRESS_SECONDS: under
# TCG on a loaded host it was seen running 1.7 times too fast.
now_s() {
	if [ -r /sys/class/rtc/rtc0/since_epoch ]; then
		read -r _t </sys/class/rtc/rtc0/since_epoch
		echo "$_t"
	else
		uptime_s
	fi
}
stopping() {
	[ "$(now_s)" -ge "$stop_at" ]
}
# nth N WORD...: WORD number N modulo the number of words (from 0)
nth() {
	_n=$1
	shift
	shift $((_n % $#))
	echo "$1"
}
# pick N WORD...: the same in $picked, without a fork (the flipper runs
# beside busy walkers under TCG, where every fork counts)
pick() {
	_n=$1
	shift
	shift $((_n % $#))
	picked=$1
}
# values FILE: the values a policy file offers ("off [folio] stream") in
# $vals, the first one in $first; fails for other files
values() {
	{ read -r _line <"$1"; } 2>/dev/null || return 1
	case $_line in *'['*) ;; *) return 1 ;; esac
	vals='' first=''
	for _w in $_line; do
		_w=${_w#\[}
		_w=${_w%\]}
		vals="$vals $_w"
		first=${first:-$_w}
	done
}
# splats FILE: the lines of a kernel log that report a problem
splats() {
	grep -E "$SPLAT" "$1" | grep -vE "$BANNERS"
	# lockdep's own reports, not its banner
	grep -E 'lockdep|LOCKDEP' "$1" | grep -E 'turned off|BUG|WARNING|too low|possible'
}

# walker I: rawalk runs until the end, counted in $STATE/walker-I
walker() {
	i=$1 k=0 runs=0 ok=0 sigbus=0 gone=0 bad=0 cut=0 again=0
	# odd walkers run in the cgroup that ab/cgroup names at times
	if [ $((i % 2)) = 1 ]; then
		read -r pid _rest </proc/self/stat
		echo "$pid" >"$ARM_B/cgroup.procs"
	fi
	while ! stopping; do
		pattern=$(nth $((k + i)) $PATTERNS)
		advice=$(nth $((k / 6 + i)) $ADVICES)
		victim=0 memcg=
		case $((k % 3)) in
		0) f=$DIR/private-$i cache=--cold ;;
		1) f=$DIR/shared cache=--warm ;;
		*) f=$DIR/victim-$(((k / 3 + i) % 2)) cache=--warm victim=1 ;;
		esac
		# No MADV_HUGEPAGE on a victim: khugepaged would collapse it
		# under the mutator, and stock collapse_file() keeps the folios
		# it locked while it reads a hole (page_cache_sync_readahead()
		# takes the invalidate lock), while truncation holds that lock
		# and waits on those folios: a deadlock without the module
		# (tests/stress/collapse_truncate.c, docs/TESTING.md)
		[ $victim = 1 ] && [ "$advice" = huge ] && advice=normal
		# even walkers: runs 0-4, 10-14, ... in a memcg of 8 MiB, half
		# the private files and a quarter of the shared one (5 is prime
		# to the 6 patterns, 4 advices and 3 files, so every
		# combination comes up); memcpy's buffer is charged to the
		# memcg too: never there. Four PMD-sized folios: a huge walk
		# maps one, and khugepaged's collapse of the walker's VMA
		# charges a new one to its memcg beside the pages it copies,
		# both unreclaimable meanwhile; at 4 MiB a walk was OOM-killed
		# so, without the module in the report
		if [ $((i % 2)) = 0 ] && [ $((k / 5 % 2)) = 0 ] && [ "$pattern" != memcpy ]; then
			memcg="--memcg-limit 8388608"
		fi
		# A walk in a small memcg can take a minute under KASAN/TCG:
		# stop it at the end (SIGTERM: rawalk undoes its memcg first).
		# --cold drops the file's pages first, and khugepaged, which
		# this load keeps collapsing the walked files, may still hold
		# folios of an earlier walk of the file (collapse_file()): such
		# a run is tried once more, and counted; twice is a failure
		try=0
		while :; do
			left=$((stop_at - $(now_s)))
			[ "$left" -gt 0 ] || break 2
			timeout -s TERM "$left" rawalk --pattern "$pattern" --advice "$advice" \
				$cache $memcg "$f" >"$STATE/walker-$i.out" 2>&1
			rc=$?
			[ $try = 0 ] && [ $rc = 1 ] && [ "$cache" = --cold ] && ! stopping &&
				grep -q 'still in the page cache after POSIX_FADV_DONTNEED' "$STATE/walker-$i.out" ||
				break
			try=1 again=$((again + 1))
		done
		if [ $rc = 143 ] && stopping; then
			cut=$((cut + 1))
			break
		fi
		runs=$((runs + 1))
		if [ $rc = 0 ]; then
			ok=$((ok + 1))
		elif [ $victim = 1 ] && [ $rc = 135 ]; then
			sigbus=$((sigbus + 1))	# SIGBUS: faulted past a new EOF
		elif [ $victim = 1 ] && [ $rc = 1 ] &&
			grep -qE "$VICTIM_GONE" "$STATE/walker-$i.out"; then
			gone=$((gone + 1))
		else
			bad=$((bad + 1))
			{
				echo "walker $i: rawalk --pattern $pattern --advice $advice $cache $memcg $f: exit $rc"
				sed 's/^/    /' "$STATE/walker-$i.out"
			} >>"$STATE/failures"
		fi
		k=$((k + 1))
	done
	echo "$runs $ok $sigbus $gone $bad $cut $again" >"$STATE/walker-$i"
}

# put VALUE FILE: write a module file that may be going away with the
# module; a refusal while the module stays is logged in $STATE/flipper.err
put() {
	{ echo "$1" >"$2"; } 2>/dev/null && return 0
	[ ! -d "$RAPOLICY_SYSFS" ] || echo "refused '$1' > $2" >>"$STATE/flipper.err"
	return 1
}

# flipper: every policy file of both arms through all its values, the A/B
# assignment, the stream tables' bounds, the counters; counted in
# $STATE/flipper
flipper() {
	rounds=0 flips=0 ab=0 resets=0 reads=0 refused=0
	while ! stopping; do
		for file in "$RAPOLICY_SYSFS"/* "$RAPOLICY_SYSFS"/ab/*; do
			values "$file" || continue
			# each value in turn, round by round
			pick $rounds $vals
			if put "$picked" "$file"; then
				flips=$((flips + 1))
			else
				refused=$((refused + 1))
			fi
		done
		pick $rounds 0 1 250 500 999 1000
		p=$picked
		# a memcg of a walker, which rawalk removes when the walk ends
		live=
		for d in "$CGROOT"/rawalk.*; do
			[ -d "$d" ] && live=${d#"$CGROOT"}
		done
		pick $rounds /stress-b "" "${live:-/stress-b}" / /stress-b
		cg=$picked
		for w in "sample_permille $p" "salt $((rounds * 7919))" "cgroup $cg"; do
			if put "${w#* }" "$RAPOLICY_SYSFS/ab/${w%% *}"; then
				ab=$((ab + 1))
			else
				refused=$((refused + 1))
			fi
		done
		# the stream tables' bounds, raised and lowered under the
		# walkers' faults (values in any config's range)
		pick $rounds 4096 128 1024 16384
		for f in streams_max_kb ab/streams_max_kb; do
			put "$picked" "$RAPOLICY_SYSFS/$f" || refused=$((refused + 1))
		done
		cat "$RAPOLICY_SYSFS"/stats/*/* >/dev/null 2>&1 && reads=$((reads + 1))
		# the replaced windows' trace event, on two rounds in three:
		# its static key flips under the walkers' faults
		pick $rounds 1 1 0
		echo "$picked" >"$TRACE_EV/enable" 2>/dev/null
		if [ $((rounds % 4)) = 3 ]; then
			put 1 "$RAPOLICY_SYSFS/stats/reset" && resets=$((resets + 1))
			rapolicyctl status >/dev/null 2>&1
			rapolicyctl ab status >/dev/null 2>&1
		fi
		rounds=$((rounds + 1))
	done
	echo "$rounds $flips $ab $resets $reads $refused" >"$STATE/flipper"
}

# bpf_cycle: on a kernel with BPF policies (docs/BPF.md), each program of
# $BPF_PROGS loaded and unloaded while the walkers fault and the flipper
# flips the bpf policy of both arms (scanner.bpf.o asks for a scan of the
# page cache, and the watchdog ejects it at its first decision under a
# bpf=on arm), and the sleepable bad_sleepable.bpf.o refused at load;
# counted in $bpf_loads, $bpf_failed.
# Then waits for the struct_ops maps, freed after an RCU grace period, to
# put their reference on the module, so that modprobe -r can succeed.
BPF_PROGS="descending_seq sync_mmap_order hostile scanner"
bpf_loads=0 bpf_failed=0
bpf_cycle() {
	[ -x /usr/bin/rapolicy-bpf ] && [ -d /sys/kernel/btf ] || return 0
	if rapolicy-bpf load /usr/bin/bad_sleepable.bpf.o >/dev/null 2>&1; then
		echo "bad_sleepable.bpf.o loaded" >>"$STATE/reloader.err"
		rapolicy-bpf unload >/dev/null 2>>"$STATE/reloader.err"
		bpf_failed=$((bpf_failed + 1))
	fi
	for _p in $BPF_PROGS; do
		if rapolicy-bpf load "/usr/bin/$_p.bpf.o" >/dev/null 2>>"$STATE/reloader.err" &&
			usleep 300000 && rapolicy-bpf unload >/dev/null 2>>"$STATE/reloader.err"; then
			bpf_loads=$((bpf_loads + 1))
		else
			bpf_failed=$((bpf_failed + 1))
		fi
	done
	_i=0
	while [ "$(cat /sys/module/rapolicy/refcnt)" != 0 ] && [ $_i -lt 200 ]; do
		usleep 50000
		_i=$((_i + 1))
	done
}

# reloader: modprobe -r / modprobe, every other time with policies set
# from module parameters, with the BPF programs loaded and unloaded in
# between (bpf_cycle); counted in $STATE/reloader
reloader() {
	reloads=0 failed=0
	while ! stopping; do
		sleep 4
		bpf_cycle
		# Unloaded for as long as modprobe takes: the walkers fault on
		# the stock paths meanwhile.
		if ! modprobe -r rapolicy 2>>"$STATE/reloader.err"; then
			failed=$((failed + 1))
			continue
		fi
		if [ $((reloads % 2)) = 1 ]; then
			set -- descending_thp=stream pmd_hit=on descending_seq=window \
				vma_limit=near_end sync_mmap_order=fault_around \
				descending_around=stream
		else
			set --
		fi
		if modprobe rapolicy "$@" 2>>"$STATE/reloader.err"; then
			reloads=$((reloads + 1))
		else
			failed=$((failed + 1))
		fi
	done
	echo "$reloads $failed $bpf_loads $bpf_failed" >"$STATE/reloader"
}

# mutator: the victim files shrink, grow, lose ranges, are rewritten,
# unlinked and recreated under the walkers; counted in $STATE/mutator
mutator() {
	n=0 drops=0 errors=0
	while ! stopping; do
		v=$DIR/victim-$((n % 2))
		case $((n / 2 % 6)) in
		0) truncate -s 4M "$v" ;;
		1) "$PUNCH" "$v" 1048576 2097152 ;;
		2) truncate -s 8M "$v" ;;
		3) rm -f "$v" && rawalk --create 8M --seed $n "$v" >/dev/null ;;
		4) dd if=/dev/zero of="$v" bs=4096 seek=$((n % 2000)) count=16 \
			conv=notrunc 2>/dev/null ;;
		*) truncate -s 0 "$v" && rawalk --create 8M --force --seed $n "$v" >/dev/null ;;
		esac 2>>"$STATE/mutator.err" || errors=$((errors + 1))
		if [ $((n % 4)) = 3 ]; then
			echo 1 >/proc/sys/vm/drop_caches && drops=$((drops + 1))
		fi
		n=$((n + 1))
		usleep 200000
	done
	echo "$n $drops $errors" >"$STATE/mutator"
}

# watchdog: if the load outlives its end by $GRACE s, something is
# blocked (a walker, modprobe, a BPF load or unload): print what every
# task waits on, and the kernel's blocked tasks (sysrq w, where the kernel
# has it), to the console, which the host keeps even when its own timeout
# stops the guest
GRACE=${STRESS_GRACE:-600}
watchdog() {
	while [ "$(now_s)" -lt $((stop_at + GRACE)) ]; do
		sleep 5
	done
	echo "the load still runs $GRACE s after its end" >"$STATE/watchdog"
	echo "# watchdog: the load still runs $GRACE s after its end; tasks not running:"
	for _d in /proc/[0-9]*; do
		{ read -r _stat <"$_d/stat"; } 2>/dev/null || continue
		_st=${_stat#*) }
		case ${_st%% *} in R | I) continue ;; esac
		# kernel threads (no command line) only when blocked (D)
		[ "${_st%% *}" = D ] || [ -n "$(tr -d '\0' <"$_d/cmdline" 2>/dev/null)" ] ||
			continue
		echo "# task ${_d#/proc/} $(cat "$_d/comm" 2>/dev/null) ${_st%% *}" \
			"wchan $(cat "$_d/wchan" 2>/dev/null)"
		sed 's/^/#     /' "$_d/stack" 2>/dev/null
	done
	{ echo w >/proc/sysrq-trigger; } 2>/dev/null
	dmesg | tail -n 300 | sed 's/^/# watchdog dmesg: /'
}

# Every policy file of both arms to its first value (off, none), no arm B.
all_off() {
	for file in "$RAPOLICY_SYSFS"/* "$RAPOLICY_SYSFS"/ab/*; do
		values "$file" || continue
		echo "$first" >"$file" || return 1
	done
	echo 0 >"$RAPOLICY_SYSFS/ab/sample_permille" &&
		echo >"$RAPOLICY_SYSFS/ab/cgroup" &&
		echo 1 >"$RAPOLICY_SYSFS/stats/reset"
}
# Is every policy file of both arms at its first value?
all_are_off() {
	for file in "$RAPOLICY_SYSFS"/* "$RAPOLICY_SYSFS"/ab/*; do
		[ -f "$file" ] || continue
		cur=$(cat "$file") || return 1
		case $cur in '['*) ;; *'['*) echo "# still on: $file: $cur"; return 1 ;; esac
	done
}

# --- the kernel --------------------------------------------------------
echo "# $(uname -r), up $(uptime_s) s, $(grep MemTotal /proc/meminfo)"
dmesg >"$STATE/boot.log"
case $(uname -r) in *-debug) debug=1 ;; *) debug=0 ;; esac
if [ "${STRESS_KERNEL:-debug}" = debug ]; then
	[ "$debug" = 1 ] && grep -q KernelAddressSanitizer "$STATE/boot.log" &&
		[ -e /proc/lockdep ] && [ -e "$KMEMLEAK" ]
	tap $? "debug kernel $(uname -r): KASAN, lockdep and kmemleak on"
else
	[ -e "$KMEMLEAK" ]
	tap $? "release kernel $(uname -r): kmemleak on (kmemleak=on)"
fi
splats "$STATE/boot.log" >"$STATE/boot.splats"
[ ! -s "$STATE/boot.splats" ]
tap $? "the kernel boots without reports"
sed 's/^/# boot: /' "$STATE/boot.splats"
dmesg -c >/dev/null
if [ -e "$KMEMLEAK" ]; then
	# Leak suspects from boot are not ours: forget them.
	echo scan >"$KMEMLEAK" && echo clear >"$KMEMLEAK"
fi

# --- the load ----------------------------------------------------------
modprobe rapolicy
tap $? "load rapolicy"
mount_tracefs
echo 0 >$TRACEFS/tracing_on && : >$TRACEFS/trace && echo 1 >$TRACEFS/tracing_on
tap $? "tracing on, for the readahead_policy_window event the flipper turns on and off"
echo 4096 >/sys/block/vda/queue/read_ahead_kb
mkdir -p "$ARM_B"
setup=0
i=0
while [ $i -lt "$WALKERS" ]; do
	rawalk --create 16M --seed $i "$DIR/private-$i" >/dev/null || setup=1
	i=$((i + 1))
done
rawalk --create 32M --seed 100 "$DIR/shared" >/dev/null || setup=1
for v in 0 1; do
	rawalk --create 8M --seed $((200 + v)) "$DIR/victim-$v" >/dev/null || setup=1
done
[ -x "$PUNCH" ] || { echo "# no $PUNCH"; setup=1; }
tap $setup "stress files on $SCRATCH and the punch helper"

# khugepaged, parked by the guest's init, scans every 100 ms during the
# load: its collapses (and the reads they do) race the walkers, the page
# cache drops and the hooks; the victim files it never collapses (see
# walker()).
KHUGEPAGED=/sys/kernel/mm/transparent_hugepage/khugepaged
echo 100 >"$KHUGEPAGED/scan_sleep_millisecs"
tap $? "khugepaged scans every 100 ms during the load"
collapsed0=$(cat "$KHUGEPAGED/pages_collapsed")
start=$(now_s)
echo "# setup done, up $(uptime_s) s"
stop_at=$((start + DURATION))
echo "# stressing for $DURATION s: $WALKERS walkers, flipper, reloader, mutator"
pids=
i=0
while [ $i -lt "$WALKERS" ]; do
	walker $i &
	pids="$pids $!"
	i=$((i + 1))
done
flipper &
pids="$pids $!"
reloader &
pids="$pids $!"
mutator &
pids="$pids $!"
watchdog &
dog=$!
wait $pids
took=$(($(now_s) - start))
kill $dog 2>/dev/null
wait $dog 2>/dev/null
[ ! -s "$STATE/watchdog" ]
tap $? "the load ended within $GRACE s of its end ($took s in all)"
echo 4294967295 >"$KHUGEPAGED/scan_sleep_millisecs"
echo "# khugepaged collapsed $(($(cat "$KHUGEPAGED/pages_collapsed") - collapsed0)) pages during the load, then parked again"
checks=$(now_s)

# --- what ran ----------------------------------------------------------
runs=0 ok=0 sigbus=0 gone=0 bad=0 missing=0 cut=0 again=0
i=0
while [ $i -lt "$WALKERS" ]; do
	if [ -f "$STATE/walker-$i" ]; then
		read -r r o s g b c a <"$STATE/walker-$i"
		echo "# walker $i: $r runs, $o ok, $s SIGBUS, $g victim gone, $b failed, $c stopped at the end, $a tried again (a cold drop khugepaged held up)"
		runs=$((runs + r)) ok=$((ok + o)) sigbus=$((sigbus + s))
		gone=$((gone + g)) bad=$((bad + b)) cut=$((cut + c)) again=$((again + a))
		[ "$o" -gt 0 ] || missing=$((missing + 1))
	else
		missing=$((missing + 1))
	fi
	i=$((i + 1))
done
set -- 0 0 0 0 0 0
[ -f "$STATE/flipper" ] && set -- $(cat "$STATE/flipper")
f_rounds=$1 f_flips=$2 f_ab=$3 f_resets=$4 f_reads=$5 f_refused=$6
set -- 0 -1 0 -1
[ -f "$STATE/reloader" ] && set -- $(cat "$STATE/reloader")
reloads=$1 reload_failed=$2 bpf_loads=$3 bpf_failed=$4
set -- 0 0 -1
[ -f "$STATE/mutator" ] && set -- $(cat "$STATE/mutator")
m_n=$1 m_drops=$2 m_errors=$3

echo "# summary: $took s; walkers $runs runs ($ok ok, $sigbus SIGBUS, $gone victim gone, $bad failed, $cut stopped at the end, $again tried again);" \
	"flipper $f_rounds rounds, $f_flips policy flips, $f_ab A/B writes, $f_resets stats resets," \
	"$f_reads stats reads, $f_refused writes refused (module away);" \
	"reloader $reloads reloads, $reload_failed failed; mutator $m_n mutations, $m_drops cache drops, $m_errors failed"
[ -s "$STATE/failures" ] && sed 's/^/# /' "$STATE/failures"
[ "$bad" = 0 ] && [ "$missing" = 0 ] && [ "$runs" -gt 0 ]
tap $? "walkers: $runs runs, every walker succeeded, no failure but SIGBUS or a vanished victim ($bad)"
[ -s "$STATE/flipper.err" ] && sort "$STATE/flipper.err" | uniq -c | sed 's/^/# flipper: /'
[ "$f_rounds" -ge 1 ] && [ "$f_flips" -gt 0 ]
tap $? "flipper: $f_rounds rounds, $f_flips policy flips, $f_ab A/B writes, $f_resets resets"
# events, kept or overwritten: the hooks fired it under the load
echo 0 >"$TRACE_EV/enable"
traced=$(sed -n -e 's/^entries: *//p' -e 's/^overrun: *//p' $TRACEFS/per_cpu/cpu*/stats |
	awk '{ n += $1 } END { print n + 0 }')
[ "$traced" -gt 0 ]
tap $? "readahead_policy_window: $traced events traced under the load"
[ -s "$STATE/reloader.err" ] && sed 's/^/# reloader: /' "$STATE/reloader.err"
[ "$reload_failed" = 0 ] && [ "$reloads" -ge 1 ] && [ "$bpf_failed" = 0 ]
tap $? "reloader: $reloads module reloads, $reload_failed failed; $bpf_loads BPF policy loads and unloads, $bpf_failed failed"
[ -s "$STATE/mutator.err" ] && sed 's/^/# mutator: /' "$STATE/mutator.err"
[ "$m_errors" = 0 ] && [ "$m_n" -ge 1 ]
tap $? "mutator: $m_n truncates/punches/rewrites/recreates, $m_errors failed"

# --- back to stock: neutral again? ------------------------------------
{ [ -d "$RAPOLICY_SYSFS" ] || modprobe rapolicy; } && all_off && all_are_off
tap $? "afterwards: module loaded, every policy of both arms off"
rmdir "$ARM_B" 2>/dev/null
rm -rf "$DIR"
echo 128 >/sys/block/vda/queue/read_ahead_kb
# The load leaves free memory fragmented and the page cache full: a
# VM_HUGEPAGE walk whose PMD-sized folios cannot be allocated reads in
# smaller ones and faults more, with or without the module (a cold make
# check on a loaded host saw huge forward 256M take 2 faults for stock's
# 1). Start the walks from what a fresh boot has: the page cache dropped,
# free memory compacted.
echo 3 >/proc/sys/vm/drop_caches && echo 1 >/proc/sys/vm/compact_memory
tap $? "afterwards: page cache dropped, memory compacted"
expect=$(dirname "$0")/stock-$(uname -r | sed 's/-.*//').txt
# STRESS_NEUTRAL: which of the stock table's walks (advice:pattern:size).
# Not huge:reverse:256M: on the debug kernel its count varies from boot to
# boot with no module at all (13864, 14379 and 14436 seen, stock 14436).
# seq:reverse:64M (16384 faults) takes minutes there: only from 300 s on.
neutral="seq:forward:64M huge:forward:256M normal:reverse:256M"
[ "$DURATION" -lt 300 ] || neutral="$neutral seq:reverse:64M"
for c in ${STRESS_NEUTRAL:-$neutral}; do
	advice=${c%%:*} rest=${c#*:}
	pattern=${rest%%:*} size=${rest#*:}
	file=$(testfile "$size") || { tap 1 "create $size test file"; continue; }
	walk "$advice" "$pattern" "$file"
	set -- $(grep "^$advice $pattern $size " "$expect")
	[ "$walk_major" = "$4" ] && [ "$walk_sectors" -ge "$5" ] &&
		[ "$walk_sectors" -le $(($5 + 64)) ]
	tap $? "neutral after stress: $advice $pattern $size: majflt $walk_major sectors $walk_sectors, PMD-mapped $walk_pmd_kb KiB (stock: $4 $5)"
done

# --- what the debug kernel found ---------------------------------------
echo "# neutrality walks done after $(($(now_s) - checks)) s"
if [ -e "$KMEMLEAK" ]; then
	# kmemleak reports no object younger than MSECS_MIN_AGE (5 s, in
	# guest jiffies; mm/kmemleak.c): let what the load allocated last
	# age past that first. Then scan twice: an object must stay
	# unreferenced for a whole scan.
	sleep 6
	echo scan >"$KMEMLEAK" && echo scan >"$KMEMLEAK"
	cat "$KMEMLEAK" >"$STATE/kmemleak"
	sed 's/^/# kmemleak: /' "$STATE/kmemleak"
	[ ! -s "$STATE/kmemleak" ]
	tap $? "kmemleak: no leak suspects ($(grep -c '^unreferenced object' "$STATE/kmemleak"))"
fi
dmesg >"$STATE/dmesg"
splats "$STATE/dmesg" >"$STATE/splats"
if [ -s "$STATE/splats" ]; then
	# The whole log: the lines around a report say what ran into it.
	sed 's/^/# dmesg: /' "$STATE/dmesg"
fi
[ ! -s "$STATE/splats" ]
tap $? "dmesg: no BUG, WARNING, KASAN, lockdep, RCU, kmemleak, hung task or lockup report ($(grep -c . "$STATE/splats") lines)"
echo "# checks after the load took $(($(now_s) - checks)) s (RTC); guest up $(uptime_s) s (guest clock)"
tap_end
