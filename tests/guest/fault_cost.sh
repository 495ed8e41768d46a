#!/bin/sh
# What the module costs a fault, for make bench: one "fcost" line per
# setting and kind of fault with the median of the rounds and their lowest
# and highest, then TAP for the sanity of the numbers.
#
# Kinds: a minor fault served by fault-around from the page cache of an
# ext4 file and of a tmpfs file (rawalk --warm, a forward walk: one fault
# per fault_around_bytes; the median of WALKS walks per round), and a major
# fault of a cold random reader (64 MiB, random:20, read_ahead_kb 128, as
# tests/guest/tracker_cost.sh), its wall time per major fault: under TCG
# and with an unthrottled disk the fault path's CPU sets it.
# Settings: the module unloaded (no hook), loaded with every policy off,
# the profile best, random_miss=fault alone, and a BPF policy
# (descending_seq.bpf.o, bpf=on) where the kernel has BPF struct_ops.
# REPS rounds of every setting in turn, so drift spreads over all of them.
. "$(dirname "$0")/lib.sh"

REPS=${REPS:-5}
WALKS=${WALKS:-9}
RA_KB=128
PROGS=/usr/bin
OUT=/tmp/fcost
rm -rf $OUT && mkdir -p $OUT
f=$(testfile 256M) || { tap 1 "create 256M on $SCRATCH"; tap_end; }
c=$(testfile 64M) || { tap 1 "create 64M on $SCRATCH"; tap_end; }
TMPFS=/tmp/fcost-tmpfs
mkdir -p $TMPFS && mount -t tmpfs -o size=300m none $TMPFS &&
	rawalk --create 256M $TMPFS/data >/dev/null ||
	{ tap 1 "a 256 MiB tmpfs file"; tap_end; }
modprobe rapolicy || { tap 1 "load rapolicy"; tap_end; }

settings="unloaded off best random"
if [ -d /sys/kernel/btf ] && [ -x "$PROGS/rapolicy-bpf" ]; then
	settings="$settings bpf"
else
	echo "# no BPF struct_ops in $(uname -r): no bpf row"
fi

# apply SETTING
apply() {
	grep -q '^rapolicy ' /proc/modules || modprobe rapolicy || return 1
	[ "$(cat "$RAPOLICY_SYSFS/bpf_ops" 2>/dev/null)" = none ] ||
		rapolicy-bpf unload >/dev/null || return 1
	all_policies_off || return 1
	case $1 in
	unloaded) modprobe -r rapolicy ;;
	off) ;;
	best) profile best ;;
	random) set_policy random_miss fault ;;
	bpf) rapolicy-bpf load "$PROGS/descending_seq.bpf.o" >/dev/null &&
		set_policy bpf on ;;
	esac
}

# minor SETTING KIND FILE: WALKS warm walks; appends "faults ns" to OUT
minor() {
	cat "$3" >/dev/null
	_out=$(rawalk --advice normal --pattern forward --warm \
		--repeat "$WALKS" "$3" 2>&1) ||
		{ measure_failed "rawalk --warm $3: $_out"; return 1; }
	_n=$(echo "$_out" | sed -n 's/^minor_faults: *//p')
	_ms=$(echo "$_out" | sed -n 's/^wall_ms_median: *//p')
	[ -n "$_n" ] && [ -n "$_ms" ] && [ "$_n" -gt 0 ] ||
		{ measure_failed "no minor faults in rawalk's report"; return 1; }
	echo "$_n $(awk -v ms="$_ms" -v n="$_n" 'BEGIN { printf "%.0f", ms * 1e6 / n }')" \
		>>"$OUT/$1.$2"
}

# major SETTING: one cold random walk; appends "faults ns" to OUT
major() {
	walk normal random:20 "$c" --seed 7 || return 1
	[ "$walk_major" -gt 0 ] || { measure_failed "no major faults"; return 1; }
	echo "$walk_major $(awk -v ms="$(report wall_ms)" -v n="$walk_major" \
		'BEGIN { printf "%.0f", ms * 1e6 / n }')" >>"$OUT/$1.major"
}

r=0
while [ $r -lt "$REPS" ]; do
	for s in $settings; do
		apply $s || { measure_failed "apply $s"; continue; }
		minor $s ext4 "$f"
		minor $s tmpfs $TMPFS/data
		major $s
	done
	r=$((r + 1))
done
apply off
modprobe -r rapolicy

# fcost SETTING KIND FAULTS MEDIAN_NS LOWEST HIGHEST ROUNDS
for s in $settings; do
	for k in ext4 tmpfs major; do
		[ -s "$OUT/$s.$k" ] || continue
		sort -n -k2 "$OUT/$s.$k" | awk -v s=$s -v k=$k '
			{ n[NR] = $1; v[NR] = $2 }
			END { m = int((NR + 1) / 2)
				printf "fcost %s %s %s %s %s %s %d\n", s, k, n[m], v[m], v[1], v[NR], NR }'
	done
done | tee $OUT/table

# The counts are exact: every setting takes the same minor faults per walk
for k in ext4 tmpfs; do
	n=$(awk -v k=$k '$3 == k { print $4 }' $OUT/table | sort -u | wc -l)
	[ "$n" = 1 ]
	tap $? "$k: every setting takes the same minor faults per walk ($(awk -v k=$k '$3 == k { print $2 "=" $4 }' $OUT/table | tr '\n' ' '))"
done
# The module unloaded and loaded with every policy off take the same
# major faults: no policy, no change
[ "$(awk '$3 == "major" && ($2 == "unloaded" || $2 == "off") { print $4 }' $OUT/table | sort -u | wc -l)" = 1 ]
tap $? "major: the same faults unloaded and with every policy off"
[ "$(awk '$5 > 0' $OUT/table | wc -l)" = "$(wc -l <$OUT/table)" ] &&
	[ "$(wc -l <$OUT/table)" -ge 9 ]
tap $? "every median is positive ($(wc -l <$OUT/table) rows)"
umount $TMPFS
tap_end
