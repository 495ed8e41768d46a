#!/bin/sh
# The stream tracker's cost per fault, for make bench (one "cost" line per
# setting, then TAP for the sanity of the numbers).
#
# A random reader faults on every touch and the tracker, which must leave
# it as stock, still looks at every miss: the worst case for its cost. The
# same walk runs with the module unloaded (no hook), loaded with every
# policy off, and under the shipped profile best (streams=on among its
# policies, from rapolicyctl's table), REPS rounds of the three in turn.
# Printed per setting: the walk's major faults, its median wall time per
# fault and the lowest and highest of the rounds, and, under best, the
# tracker's own time from its counters (stats/stream_cost,
# local_clock() around one decision in 16, counted 16 times) per decision and per major fault.
# Read-around stops asking after MMAP_LOTSAMISS misses, so the tracker
# sees about a hundred decisions per walk; under TCG the wall times move
# by far more than that between runs, the tracker's own clock does not.
. "$(dirname "$0")/lib.sh"

REPS=${REPS:-5}
RA_KB=128
f=$(testfile 64M) || { tap 1 "create 64M"; exit 1; }
modprobe rapolicy || { tap 1 "load rapolicy"; exit 1; }

# run SETTING: one cold walk; appends "major wall_ms" to /tmp/cost.SETTING
run() {
	if [ "$1" = unloaded ]; then
		rmmod rapolicy || return 1
	else
		all_policies_off
		[ "$1" = off ] || profile best || return 1
	fi
	walk normal random:20 "$f" --seed 7 || return 1
	echo "$walk_major $(report wall_ms)" >>"/tmp/cost.$1"
	[ "$1" != unloaded ] || modprobe rapolicy
}

rm -f /tmp/cost.unloaded /tmp/cost.off /tmp/cost.best
i=0 lookups=0 cost=0
while [ $i -lt "$REPS" ]; do
	# each round reloads the module: its counters cover the round
	run unloaded && run off && run best || { tap 1 "cost walks"; exit 1; }
	n=$(counter stream_lookups) && c=$(counter stream_cost) ||
		{ tap 1 "cost counters"; exit 1; }
	lookups=$((lookups + n)) cost=$((cost + c))
	i=$((i + 1))
done

# spread RUNS-FILE: the median, lowest and highest wall ns per fault
spread() {
	awk '{ printf "%.0f\n", $2 * 1e6 / $1 }' "$1" | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], "min", v[1], "max", v[NR] }'
}
for s in unloaded off best; do
	echo "cost $s majflt $(awk 'NR == 1 { print $1 }' /tmp/cost.$s) ns_per_fault $(spread /tmp/cost.$s)"
done
faults=$(awk '{ n += $1 } END { print n }' /tmp/cost.best)
echo "cost tracker lookups $lookups ns $cost ns_per_decision $((cost / (lookups > 0 ? lookups : 1))) ns_per_fault $((cost / (faults > 0 ? faults : 1)))"

# The tracker must leave a random reader as stock, and it must have looked.
[ "$(awk '{ print $1 }' /tmp/cost.off | sort -u)" = \
	"$(awk '{ print $1 }' /tmp/cost.best | sort -u)" ] &&
	[ "$(awk '{ print $1 }' /tmp/cost.unloaded | sort -u)" = \
	"$(awk '{ print $1 }' /tmp/cost.best | sort -u)" ]
tap $? "tracker cost: the random reader takes the same major faults unloaded, off and under best"
[ "$lookups" -gt 0 ] && [ "$cost" -gt 0 ]
tap $? "tracker cost: the tracker timed its decisions ($lookups)"
rmmod rapolicy
tap_end
