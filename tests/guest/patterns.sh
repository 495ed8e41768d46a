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
#   largest windows) and takes no more major faults than off;
# - a backward stride with half its touches a page off their places
#   reads no more than off (plus two largest windows);
# - four threads taking turns along one backward stride take fewer than
#   half off's faults, at read_ahead_kb 128 and 8192;
# - a reverse walker beside a random reader takes at most 4 faults more
#   than alone;
# - 400 files read backwards in turn (the table's capacity): below.
#   PATTERN_SEEDS: the draws (default: the first 12 of at most 4 files)
#   MANY_FILES: the files of the capacity test (400)
. "$(dirname "$0")/lib.sh"

S=$RAPOLICY_SYSFS
STEADY_FAULTS=12
MAX_WINDOW=1024		# pages: 2 << the largest folio order

modprobe rapolicy || { tap 1 "load rapolicy"; tap_end; }
all_policies_off || { tap 1 "policies off"; tap_end; }
# Each arm's stream table at load: a 64-byte header and 64 sets of 1152
# bytes (docs/STREAMS.md, "Capacity": x86-64 without lock debugging)
[ "$(cat "$S/streams_bytes")" = 73792 ] && [ "$(cat "$S/ab/streams_bytes")" = 73792 ] &&
	[ "$(cat "$S/streams_max_kb")" = 4096 ] && [ "$(cat "$S/ab/streams_max_kb")" = 4096 ]
tap $? "capacity: each arm's table at load: $(cat "$S/streams_bytes") bytes, bound $(cat "$S/streams_max_kb") KiB"
files=""
for i in 0 1 2 3; do
	rawalk --create 64M "$SCRATCH/pat-$i" >/dev/null ||
		{ tap 1 "create $SCRATCH/pat-$i"; tap_end; }
	files="$files $SCRATCH/pat-$i"
done
f0=$SCRATCH/pat-0

# pw off|on|best ARGS...: one patwalk run with the tracker off, on, or
# the profile best as rapolicyctl applies it; sets pw_out, or fails
pw() {
	case $1 in
	best) profile best || return 1 ;;
	*) echo "$1" >"$S/streams" || return 1 ;;
	esac
	if [ "$1" != off ]; then
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

# off_on WHAT ARGS...: patwalk ARGS off, then on, at read_ahead_kb $ra;
# on reads no more sectors than off plus $slack. Sets off_sectors and
# off_faults; fails if a run failed
off_on() {
	_what=$1
	shift
	if ! pw off "$@"; then
		tap 1 "$_what, read_ahead_kb $ra: tracker off"
		return 1
	fi
	off_sectors=$(val sectors_read) off_faults=$(val major_faults)
	pw on "$@"
	_rc=$?
	tap $_rc "$_what, read_ahead_kb $ra: tracker on"
	[ $_rc = 0 ] || return 1
	[ "$(val sectors_read)" -le $((off_sectors + slack)) ]
	tap $? "$_what, read_ahead_kb $ra: $(val sectors_read) sectors, off $off_sectors + $slack (faults $(val major_faults), off $off_faults)"
	return 0
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

# best, the profile users pick, on the draws of 100000 (files of up to
# 16384 pages) that the tracker alone reads more than stock plus its slack
# in (invariant 1 in the host model: docs/STREAMS.md, "Known limits"):
# strided readers beside a random reader of their file, 37213 with
# jitter. Whatever the tracker reads, random_miss cuts the random reader's
# read-around to its page once two of its windows went unused, so best
# reads no more than off plus the same slack. The tracker alone (on) is
# printed beside it, and so are the major faults, which best does not
# always meet on these draws (docs/STREAMS.md, "Known limits"). BEST_SEEDS:
# the draws
for seed in ${BEST_SEEDS:-11091 23841 86375 37213}; do
	# shellcheck disable=SC2086
	if ! pw off gen "$seed" $files; then
		tap 1 "best: draw $seed, policies off"
		continue
	fi
	off_sectors=$(val sectors_read) off_faults=$(val major_faults)
	# shellcheck disable=SC2086
	pw on gen "$seed" $files &&
		echo "# draw $seed, the tracker alone: $(val sectors_read) sectors, $(val major_faults) major faults"
	# shellcheck disable=SC2086
	pw best gen "$seed" $files
	rc=$?
	all_policies_off || rc=1
	if [ $rc != 0 ]; then
		tap 1 "best: draw $seed"
		continue
	fi
	slack=$(($(val slack_pages) * 8))
	[ "$(val sectors_read)" -le $((off_sectors + slack)) ]
	tap $? "best: draw $seed (read_ahead_kb $(val ra_kb), $(val mix)): $(val sectors_read) sectors, off $off_sectors + $slack; faults $(val major_faults), off $off_faults"
done

for ra in 128 8192; do
	echo "$ra" >/sys/block/vda/queue/read_ahead_kb
	slack=$((2 * (ra / 4 > MAX_WINDOW ? ra / 4 : MAX_WINDOW) * 8))

	# A B-tree index's reverse scan: runs of 64 pages upwards, moving down.
	# Off misses where a run's branch page lies below read-around's
	# window; on, a stream reads the scan as a walker's span and takes
	# no more misses than that (docs/STREAMS.md, "How it reads")
	if off_on "btree index reverse scan" btree 64 "$f0"; then
		[ "$(val major_faults)" -le "$off_faults" ]
		tap $? "btree index reverse scan, read_ahead_kb $ra: $(val major_faults) major faults, off $off_faults"
	fi

	# A backward stride of 40 pages, half its touches a page off their
	# places at random (jitter): past off's give-up (MMAP_LOTSAMISS)
	# off reads the touched pages alone, and a miss below a stream's
	# marker, taken for a new stream, once read the span of the walk
	# (docs/STREAMS.md, "Jitter")
	off_on "jittered backward stride of 40" jitter 40 "$f0"

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

# Capacity (docs/STREAMS.md, "Capacity"): MANY_FILES sparse files of
# 64 strides of 64 pages, each read backwards by one reader, one touch a
# file in turn, read-around at read_ahead_kb 16. Off misses at every
# touch: its window, 4 pages, ends before the next touch, and 64 misses
# stay below MMAP_LOTSAMISS. On, with the table free to grow (the default
# bound, 2048 sets): a file's stream costs the misses that detect it, and
# each file takes at most STEADY_FAULTS, as a steady stream alone in its
# file does, where 400 files in 64 sets of 8 ways evict each other
# (host model: 122 of 400 readers over 12 misses, worst 64; 0 of 400,
# worst 5, in 256 sets after 2 grows). Once the files stop, the table
# halves back to its load size by itself, and grows again when they are
# read again. At the minimum bound (the table of before, 64 sets) the
# table does not grow and some file misses on.
nfiles=${MANY_FILES:-400}
many=""
i=0
while [ $i -lt "$nfiles" ]; do
	truncate -s 16M "$SCRATCH/many-$i" || break
	many="$many $SCRATCH/many-$i"
	i=$((i + 1))
done
[ $i = "$nfiles" ]
tap $? "capacity: $nfiles sparse files of 16 MiB"
echo 16 >/sys/block/vda/queue/read_ahead_kb
touches=$((nfiles * 64))
min_kb=72
load_bytes=73792
# at_load: a bounded poll (240 times 0.5 s at most) until arm A's table
# is at its load size; the polls it took in $polls
at_load() {
	polls=0
	while [ "$(value "$S/streams_bytes")" != "$load_bytes" ] && [ $polls -lt 240 ]; do
		usleep 500000
		polls=$((polls + 1))
	done
	[ "$(value "$S/streams_bytes")" = "$load_bytes" ]
}
# shellcheck disable=SC2086
if pw off files 64 64 $many; then
	off_faults=$(val major_faults)
	[ "$off_faults" -ge $((touches * 9 / 10)) ]
	tap $? "capacity: off, $nfiles files in turn: $off_faults faults for $touches touches"
	# the counters from a table at its load size (shrinks follow grows)
	at_load
	tap $? "capacity: arm A's table at its load size before the runs ($polls polls)"
	echo 1 >"$S/stats/reset"
	# shellcheck disable=SC2086
	pw on files 64 64 $many
	tap $? "capacity: on, $nfiles files in turn"
	# the table may halve by itself from 2 s after the files stop: bytes
	# read from here on are its size then, the counters tell the growth
	shrinks=$(counter stream_shrink a) bytes=$(value "$S/streams_bytes")
	grows=$(counter stream_grow a)
	worst=$(val worst)
	[ "$worst" -le $STEADY_FAULTS ] && [ "$(val major_faults)" -le $((off_faults / 4)) ]
	tap $? "capacity: on, growing: each file at most $STEADY_FAULTS faults (worst $worst, all $(val major_faults), off $off_faults; $grows grows, $bytes bytes, $(counter stream_evict a) evictions)"
	[ "$grows" -ge 1 ] && [ "$bytes" -le $((4096 * 1024 + 64)) ] &&
		{ [ "$bytes" -gt "$load_bytes" ] || [ "$shrinks" -ge 1 ]; } &&
		[ "$(counter stream_grow b)" = 0 ]
	tap $? "capacity: arm A's table grew ($grows grows, $bytes bytes, within 4096 KiB; $shrinks halvings by then), arm B's did not"
	# Once the files stop, the shrink work (every 2 s while the table is
	# above its load size) halves it at each check: back at the load size
	# after one halving per grow. A bounded poll on streams_bytes.
	at_load
	back=$?
	shrinks=$(counter stream_shrink a) grows=$(counter stream_grow a)
	[ $back = 0 ] && [ "$shrinks" = "$grows" ] && [ "$(counter stream_shrink b)" = 0 ] &&
		[ "$(value "$S/ab/streams_bytes")" = "$load_bytes" ]
	tap $? "capacity: once the files stop, arm A's table halves back to $(value "$S/streams_bytes") bytes ($shrinks halvings for $grows grows, $polls polls), arm B's stays"
	# and grows again for the next reader of them all
	echo 1 >"$S/stats/reset"
	# shellcheck disable=SC2086
	pw on files 64 64 $many
	again=$?
	bytes=$(value "$S/streams_bytes") grows=$(counter stream_grow a)
	[ $again = 0 ] && [ "$grows" -ge 1 ] && [ "$(val worst)" -le $STEADY_FAULTS ]
	tap $? "capacity: on again, the table grows again ($grows grows, $bytes bytes; worst file $(val worst))"
	echo "$min_kb" >"$S/streams_max_kb" && [ "$(cat "$S/streams_max_kb")" = "$min_kb" ]
	tap $? "capacity: streams_max_kb takes its minimum, $min_kb"
	min_bytes=$(value "$S/streams_bytes")
	[ "$min_bytes" -le "$bytes" ] && [ "$min_bytes" -le $((min_kb * 1024 + 64)) ]
	tap $? "capacity: lowering the bound shrinks the table now ($bytes to $min_bytes bytes)"
	echo 1 >"$S/stats/reset"
	# shellcheck disable=SC2086
	pw on files 64 64 $many
	tap $? "capacity: on at the minimum bound"
	worst=$(val worst)
	[ "$(counter stream_grow a)" = 0 ] && [ "$(counter stream_shrink a)" = 0 ] &&
		[ "$(value "$S/streams_bytes")" = "$min_bytes" ] && [ "$worst" -gt $STEADY_FAULTS ]
	tap $? "capacity: at the minimum bound the table stays ($min_bytes bytes) and files miss on (worst $worst, all $(val major_faults), $(counter stream_evict a) evictions)"
else
	tap 1 "capacity: off, $nfiles files in turn"
fi
ok=0
before=$(cat "$S/streams_max_kb")
for v in $((min_kb - 1)) 73729 -1 abc 4096x 4294967296; do
	! printf '%s' "$v" 2>/dev/null >"$S/streams_max_kb" || { echo "# streams_max_kb took $v"; ok=1; }
	[ "$(cat "$S/streams_max_kb")" = "$before" ] || ok=1
done
tap $ok "capacity: streams_max_kb refuses values out of range or malformed and changes nothing"
echo 4096 >"$S/streams_max_kb" && echo 73728 >"$S/ab/streams_max_kb" &&
	[ "$(cat "$S/ab/streams_max_kb")" = 73728 ] && echo 4096 >"$S/ab/streams_max_kb"
tap $? "capacity: streams_max_kb takes 4096 and the maximum, 73728 (ab/)"
# shellcheck disable=SC2086
rm -f $many

# stats/streams_flush takes 1 and refuses 0
echo 1 >"$S/stats/streams_flush"
tap $? "stats/streams_flush takes 1"
! echo 0 2>/dev/null >"$S/stats/streams_flush"
tap $? "stats/streams_flush refuses 0"

echo 128 >/sys/block/vda/queue/read_ahead_kb
rm -f $files
rmmod rapolicy
tap_end
