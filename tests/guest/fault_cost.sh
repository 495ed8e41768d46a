#!/bin/sh
# What the module costs a fault, for make bench: one "fround" line per
# round, setting and kind of fault, then TAP for the sanity of the numbers;
# tests/bench/fcost.awk turns the lines into the doc's table and plot.
#
# Kinds: a minor fault served by fault-around from the page cache of an
# ext4 file and of a tmpfs file (rawalk --warm, a forward walk; the median
# CPU time of WALKS walks per round). ext4's cache, filled by read(2), is
# in large folios, and fault-around maps a whole folio a fault; "ext4-4k"
# is a file whose cache a MADV_RANDOM walk filled with single pages, so
# that a fault maps fault_around_bytes, the most faults a walk can take
# and the most a hook entered once a fault can cost. tmpfs: small folios;
# and a major fault of a cold random reader (64 MiB, random:20,
# read_ahead_kb 128, as tests/guest/tracker_cost.sh), its CPU time per
# major fault (getrusage(): the fault path without the wait for the disk),
# the median of 3 walks per round.
# Settings: the module unloaded (no hook), loaded with every policy off,
# the profile best, pmd_hit=on alone (the hit hook on, a policy that only
# looks at the fault: what entering the module costs a cached fault),
# random_miss=fault alone, a BPF policy
# (descending_seq.bpf.o, bpf=on) where the kernel has BPF struct_ops, and
# the module unloaded again: the A/A pair that shows the noise.
# REPS rounds of every setting in turn, each round starting one setting
# later, so drift and order spread over all of them.
#
# SETTINGS and KINDS (ext4 ext4-4k tmpfs major) narrow the run to some of
# them; with TARGET, the profile best's median ratio to the module
# unloaded, over the rounds, must be at most TARGET on each minor kind
# (make check: 1.02 under -icount, where the guest's clock counts its
# instructions).
#
#   fround ROUND SETTING KIND FAULTS CPU_NS WALL_NS ENTRIES
# FAULTS: the faults of one walk (exact); CPU_NS and WALL_NS: per fault;
# ENTRIES: the module's hooks entered in one walk (stats/mmap_hit for a
# minor walk, stats/sync_miss plus stats/async for the major walk), "-"
# with the module unloaded.
. "$(dirname "$0")/lib.sh"

REPS=${REPS:-7}
WALKS=${WALKS:-9}
KINDS=${KINDS:-ext4 ext4-4k tmpfs major}
# has KIND: whether this run measures KIND
has() {
	case " $KINDS " in *" $1 "*) return 0 ;; esac
	return 1
}
RA_KB=128
PROGS=/usr/bin
OUT=/tmp/fcost
rm -rf $OUT && mkdir -p $OUT
if has ext4; then
	f=$(testfile 256M) || { tap 1 "create 256M on $SCRATCH"; tap_end; }
fi
if has major; then
	c=$(testfile 64M) || { tap 1 "create 64M on $SCRATCH"; tap_end; }
fi
if has ext4-4k; then
	small=$(testfile 128M) || { tap 1 "create 128M on $SCRATCH"; tap_end; }
	# its cache in single pages: MADV_RANDOM faults read only the faulting page
	rawalk --advice random --pattern forward --cold --folio-orders "$small" >$OUT/small 2>&1 &&
		grep -q '^folio_orders: 0:32768$' $OUT/small ||
		{ tap 1 "128M cached in single pages: $(grep -E '^(folio_orders|major_faults)' $OUT/small)"; tap_end; }
fi
TMPFS=/tmp/fcost-tmpfs
if has tmpfs; then
	mkdir -p $TMPFS && mount -t tmpfs -o size=300m none $TMPFS &&
		rawalk --create 256M $TMPFS/data >/dev/null ||
		{ tap 1 "a 256 MiB tmpfs file"; tap_end; }
fi
modprobe rapolicy || { tap 1 "load rapolicy"; tap_end; }

settings=${SETTINGS:-}
if [ -z "$settings" ]; then
	settings="unloaded off best pmd random"
	if [ -d /sys/kernel/btf ] && [ -x "$PROGS/rapolicy-bpf" ]; then
		settings="$settings bpf"
	else
		echo "# no BPF struct_ops in $(uname -r): no bpf row"
	fi
	settings="$settings unloaded2"
fi
nset=$(echo $settings | wc -w)
nkind=$(echo $KINDS | wc -w)

# unload: modprobe -r, once an unloaded BPF policy's struct_ops map has
# put its reference on the module (it does when it is freed, after an RCU
# grace period; until then modprobe -r fails with EAGAIN)
unload() {
	_i=0
	while [ "$(cat /sys/module/rapolicy/refcnt)" != 0 ] && [ $_i -lt 200 ]; do
		usleep 50000
		_i=$((_i + 1))
	done
	modprobe -r rapolicy
}

# apply SETTING
apply() {
	grep -q '^rapolicy ' /proc/modules || modprobe rapolicy || return 1
	[ "$(cat "$RAPOLICY_SYSFS/bpf_ops" 2>/dev/null)" = none ] ||
		rapolicy-bpf unload >/dev/null || return 1
	all_policies_off || return 1
	case $1 in
	unloaded*) unload ;;
	off) ;;
	best) profile best ;;
	pmd) set_policy pmd_hit on ;;
	random) set_policy random_miss fault ;;
	bpf) rapolicy-bpf load "$PROGS/descending_seq.bpf.o" >/dev/null &&
		set_policy bpf on ;;
	esac
}

# entries COUNTER...: their sum now, "-" with the module unloaded
entries() {
	grep -q '^rapolicy ' /proc/modules || { echo -; return 0; }
	_sum=0
	for _c in "$@"; do
		_v=$(counter "$_c") || return 1
		_sum=$((_sum + _v))
	done
	echo $_sum
}

# line ROUND SETTING KIND FAULTS CPU_MS WALL_MS BEFORE AFTER [WALKS]
line() {
	awk -v r="$1" -v s="$2" -v k="$3" -v n="$4" -v cpu="$5" -v wall="$6" \
		-v b="$7" -v a="$8" -v w="${9:-1}" 'BEGIN {
		printf "fround %d %s %s %d %.0f %.0f %s\n", r, s, k, n,
			cpu * 1e6 / n, wall * 1e6 / n, b == "-" ? "-" : (a - b) / w }' |
		tee -a $OUT/rounds
}

# minor ROUND SETTING KIND FILE: WALKS warm walks
minor() {
	[ "$3" = ext4-4k ] || cat "$4" >/dev/null
	_b=$(entries mmap_hit) || return 1
	_out=$(rawalk --advice normal --pattern forward --warm \
		--repeat "$WALKS" "$4" 2>&1) ||
		{ measure_failed "rawalk --warm $4: $_out"; return 1; }
	_a=$(entries mmap_hit) || return 1
	_n=$(echo "$_out" | sed -n 's/^minor_faults: *//p')
	_cpu=$(echo "$_out" | sed -n 's/^cpu_ms_median: *//p')
	_ms=$(echo "$_out" | sed -n 's/^wall_ms_median: *//p')
	[ "$(echo "$_out" | sed -n 's/^major_faults_median: *//p')" = 0 ] ||
		{ measure_failed "$3: major faults in a warm walk"; return 1; }
	[ -n "$_n" ] && [ -n "$_cpu" ] && [ -n "$_ms" ] && [ "$_n" -gt 0 ] ||
		{ measure_failed "no minor faults or times in rawalk's report"; return 1; }
	line "$1" "$2" "$3" "$_n" "$_cpu" "$_ms" "$_b" "$_a" "$WALKS"
}

# major ROUND SETTING: one cold random walk
major() {
	_b=$(entries sync_miss async) || return 1
	walk normal random:20 "$c" --seed 7 --repeat 3 || return 1
	_a=$(entries sync_miss async) || return 1
	_n=$(report major_faults_median)
	[ "$_n" -gt 0 ] || { measure_failed "no major faults"; return 1; }
	line "$1" "$2" major "$_n" "$(report cpu_ms_median)" "$(report wall_ms_median)" "$_b" "$_a" 3
}

r=0
while [ $r -lt "$REPS" ]; do
	# this round's order: the settings rotated by r
	order=$(echo $settings | awk -v r=$r '{ for (i = 0; i < NF; i++)
		printf "%s ", $((i + r) % NF + 1) }')
	for s in $order; do
		apply $s || { measure_failed "apply $s"; continue; }
		! has ext4 || minor $r $s ext4 "$f"
		! has ext4-4k || minor $r $s ext4-4k "$small"
		! has tmpfs || minor $r $s tmpfs $TMPFS/data
		! has major || major $r $s
	done
	r=$((r + 1))
done
apply off
modprobe -r rapolicy

# The counts are exact: every setting takes the same minor faults per walk
for k in ext4 ext4-4k tmpfs; do
	has $k || continue
	n=$(awk -v k=$k '$4 == k { print $5 }' $OUT/rounds | sort -u | wc -l)
	[ "$n" = 1 ]
	tap $? "$k: every setting takes the same minor faults per walk ($(awk -v k=$k '$4 == k { print $5 }' $OUT/rounds | sort -u | tr '\n' ' '))"
done
# The module unloaded and loaded with every policy off take the same
# major faults: no policy, no change
if has major; then
	[ "$(awk '$4 == "major" && ($3 ~ /^unloaded/ || $3 == "off") { print $5 }' $OUT/rounds | sort -u | wc -l)" = 1 ]
	tap $? "major: the same faults unloaded and with every policy off"
fi
# No tmpfs fault enters the module; with every policy off no minor fault does
[ "$(awk '$4 == "tmpfs" && $8 != "-" && $8 != 0' $OUT/rounds | wc -l)" = 0 ] &&
	[ "$(awk '$3 == "off" && $4 != "major" && $8 != 0' $OUT/rounds | wc -l)" = 0 ]
tap $? "no tmpfs fault, and with every policy off no minor fault, enters the module"
rows=$(wc -l <$OUT/rounds)
[ "$(awk '$6 > 0 && $7 > 0' $OUT/rounds | wc -l)" = "$rows" ] &&
	[ "$rows" = $((REPS * nset * nkind)) ]
tap $? "every round measured every setting ($rows lines of $((REPS * nset * nkind))), every time positive"
# TARGET: per minor kind, best's CPU per fault over the module unloaded's
# in the same round, the median of the rounds
if [ -n "${TARGET:-}" ]; then
	for k in ext4 ext4-4k tmpfs; do
		has $k || continue
		ratio=$(awk -v k=$k '$4 == k && $3 == "unloaded" { u[$2] = $6 }
			$4 == k && $3 == "best" { b[$2] = $6 }
			END { for (r in b) if (u[r] > 0) print b[r] / u[r] }' $OUT/rounds |
			sort -n | awk '{ v[NR] = $1 } END { if (NR)
				printf "%.4f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
		[ -n "$ratio" ] && awk -v r="$ratio" -v t="$TARGET" 'BEGIN { exit !(r <= t) }'
		tap $? "$k: a minor fault under best costs ${ratio:-?} of its cost with the module unloaded, at most $TARGET"
	done
fi
! has tmpfs || umount $TMPFS
tap_end
