#!/bin/sh
# The stream tracker on the real kernel (TAP): the generated patterns of
# the host model (tests/unit/pattern_gen.h) with its two invariants, and
# three walks of several readers. patwalk (tests/guest/patwalk.c) runs
# each reader as a thread of its own, touch by touch in the pattern's
# order, over cold files; "off" is the module loaded with every policy
# off, "on" is streams=on alone after stats/streams_flush.
#
# - a draw without jitter or a random reader reads no more sectors than
#   off, but for what the host model allows (slack_pages: two largest
#   windows a stream, a dense-looking reader's span);
# - a steady strided reader alone in its file takes at most 12 major
#   faults;
# - a B-tree index's reverse scan reads no more than off (plus two
#   largest windows);
# - four threads taking turns along one backward stride take fewer than
#   half off's faults, at read_ahead_kb 128 and 8192;
# - a reverse walker beside a random reader takes at most 4 faults more
#   than alone.
#   PATTERN_SEEDS: the draws (default: the first 12 of at most 4 files)
. "$(dirname "$0")/lib.sh"

S=$RAPOLICY_SYSFS
STEADY_FAULTS=12
MAX_WINDOW=1024		# pages: 2 << the largest folio order

modprobe rapolicy || { tap 1 "load rapolicy"; tap_end; }
all_policies_off || { tap 1 "policies off"; tap_end; }
files=""
for i in 0 1 2 3; do
	rawalk --create 64M "$SCRATCH/pat-$i" >/dev/null ||
		{ tap 1 "create $SCRATCH/pat-$i"; tap_end; }
	files="$files $SCRATCH/pat-$i"
done
f0=$SCRATCH/pat-0

# pw off|on ARGS...: one patwalk run; sets pw_out, or fails
pw() {
	echo "$1" >"$S/streams" || return 1
	if [ "$1" = on ]; then
		echo 1 >"$S/stats/streams_flush" || return 1
	fi
	shift
	if ! pw_out=$(patwalk "$@" 2>&1); then
		echo "$pw_out" | sed 's/^/# patwalk: /'
		return 1
	fi
}

# val KEY: a value of the last run
val() {
	echo "$pw_out" | sed -n "s/^$1: *//p"
}

# nth N LIST...: the Nth (from 0) of LIST
nth() {
	_n=$1
	shift
	shift "$_n"
	echo "$1"
}

# Generated draws
seeds=${PATTERN_SEEDS:-}
if [ -z "$seeds" ]; then
	s=1
	while [ "$(echo $seeds | wc -w)" -lt 12 ] && [ $s -lt 100 ]; do
		# shellcheck disable=SC2086
		if patwalk gen $s $files 2>/dev/null | grep -q '^skipped'; then
			:
		else
			seeds="$seeds $s"
		fi
		s=$((s + 1))
	done
fi
for seed in $seeds; do
	# shellcheck disable=SC2086
	if ! pw off gen "$seed" $files; then
		tap 1 "patterns: draw $seed, tracker off"
		continue
	fi
	off_sectors=$(val sectors_read)
	off_faults=$(val major_faults)
	# shellcheck disable=SC2086
	if ! pw on gen "$seed" $files; then
		tap 1 "patterns: draw $seed, tracker on"
		continue
	fi
	on_sectors=$(val sectors_read)
	slack=$(($(val slack_pages) * 8))
	mix=$(val mix)
	desc="patterns: draw $seed (read_ahead_kb $(val ra_kb), $mix): $on_sectors sectors, off $off_sectors + $slack; faults $(val major_faults), off $off_faults"
	if [ "$mix" = plain ]; then
		[ "$on_sectors" -le $((off_sectors + slack)) ]
		tap $? "$desc"
	else
		echo "# not claimed: $desc"
	fi
	faults=$(val slot_faults)
	for r in $(val steady_alone); do
		# shellcheck disable=SC2086
		n=$(nth "$r" $faults)
		[ -n "$n" ] && [ "$n" -le $STEADY_FAULTS ]
		tap $? "patterns: draw $seed: steady reader $r alone takes <= $STEADY_FAULTS faults ($n)"
	done
done

for ra in 128 8192; do
	echo "$ra" >/sys/block/vda/queue/read_ahead_kb
	slack=$((2 * (ra / 4 > MAX_WINDOW ? ra / 4 : MAX_WINDOW) * 8))

	# A B-tree index's reverse scan: runs of 64 pages upwards, moving down
	if pw off btree 64 "$f0"; then
		off_sectors=$(val sectors_read) off_faults=$(val major_faults)
		pw on btree 64 "$f0"
		tap $? "btree index reverse scan, read_ahead_kb $ra: tracker on"
		[ "$(val sectors_read)" -le $((off_sectors + slack)) ]
		tap $? "btree index reverse scan, read_ahead_kb $ra: $(val sectors_read) sectors, off $off_sectors + $slack (faults $(val major_faults), off $off_faults)"
	else
		tap 1 "btree index reverse scan, read_ahead_kb $ra: tracker off"
	fi

	# Four threads in turn along one backward stride of 40 pages
	if pw off pool 4 40 "$f0"; then
		off_faults=$(val major_faults) off_sectors=$(val sectors_read)
		pw on pool 4 40 "$f0"
		tap $? "pool of 4, read_ahead_kb $ra: tracker on"
		[ "$(val major_faults)" -le $((off_faults / 2)) ]
		tap $? "pool of 4 on one backward stride, read_ahead_kb $ra: $(val major_faults) faults, off $off_faults ($(val sectors_read) sectors, off $off_sectors)"
	else
		tap 1 "pool of 4, read_ahead_kb $ra: tracker off"
	fi

	# A reverse walker of every 64th page, alone, then beside a random reader
	if pw on alone 64 "$f0"; then
		alone=$(val major_faults)
		pw on beside 64 "$f0"
		tap $? "walker beside a random reader, read_ahead_kb $ra: tracker on"
		beside=$(nth 0 $(val slot_faults))
		[ -n "$beside" ] && [ "$beside" -le $((alone + 4)) ]
		tap $? "reverse walker beside a random reader, read_ahead_kb $ra: $beside faults, alone $alone"
	else
		tap 1 "reverse walker alone, read_ahead_kb $ra: tracker on"
	fi
done

# stats/streams_flush takes 1 and refuses 0
echo 1 >"$S/stats/streams_flush"
tap $? "stats/streams_flush takes 1"
! echo 0 2>/dev/null >"$S/stats/streams_flush"
tap $? "stats/streams_flush refuses 0"

echo 128 >/sys/block/vda/queue/read_ahead_kb
rm -f $files
rmmod rapolicy
tap_end
