#!/bin/sh
# The ledger (TAP): on walks whose touched pages rawalk knows, the pages
# the ledger counts used and wasted when they leave the page cache agree
# with the walker's count within 5%.
#
# Each walk: a cold rawalk of a 64 MiB file at read_ahead_kb 128 with
# fault-around off (fault_around_bytes 4096: every mapped page is one the
# walk touched), counters from zero, then drop_caches, so that every page
# a window read leaves. The walker's count is the pages of the folios
# behind the mapped pages (rawalk --folio-orders): a used folio counts all
# its pages, and 6.12 reads order-2 folios for read-around on XFS.
# - stock: every policy off, random:0.5 (82 touches, fewer than
#   MMAP_LOTSAMISS misses, so every miss reads a window)
# - random: random_miss=fault alone, random:1 (it reads the faulting
#   page alone once read-around goes unused)
# - stride: the profile best, stride:64 of 16 MiB (64 touches)
# A miss that offered no window (mmap_miss past MMAP_LOTSAMISS) reads its
# faulting page alone, outside every window: the walker's count is its
# folio pages less those misses (sync_miss less the windows offered at
# the synchronous points). For each walk: used within 5% of that count,
# wasted within 5% of the recorded pages the walker did not touch, nothing lost, every
# recorded page left, and what the ledger recorded is what the windows
# read (ledger_read = pages_read). Then the same stock walk with
# fault-around on, printed: x86 maps fault-around PTEs young, so pages
# mapped but never touched count as used (docs/LEDGER.md).
# Every walk also traces the module's event rapolicy:rapolicy_ledger: its
# used and wasted pages are the counters', and rapolicyctl trace --input
# of that trace shows them per policy.
. "$(dirname "$0")/lib.sh"

S=$RAPOLICY_SYSFS
FA=/sys/kernel/debug/fault_around_bytes

# close A B: |A - B| <= 5% of B, or both zero (an empty value fails)
close() {
	[ -n "$1" ] && [ -n "$2" ] || return 1
	_d=$(($1 - $2))
	[ "$_d" -lt 0 ] && _d=$((-_d))
	[ $((_d * 100)) -le $(($2 * 5)) ]
}

# folio_pages: the pages of the folios behind the last walk's mapped
# pages, from its folio_orders report ("0:82 2:3": order:folios)
folio_pages() {
	_o=$(report folio_orders)
	_p=0
	for _kv in $_o; do
		_p=$((_p + ${_kv#*:} * (1 << ${_kv%%:*})))
	done
	echo "$_p"
}

# ledger_walk NAME PROFILE PATTERN FILE: one walk, its pages dropped;
# sets l_touched, l_pages, l_read, l_used, l_wasted, l_lost, l_pages_read
ledger_walk() {
	_n=$1
	l_touched='' l_pages='' l_read='' l_used='' l_wasted='' l_lost=''
	fresh_module && profile "${2%%+*}" || return 1
	# PROFILE+POLICY=VALUE: that profile with one policy more
	case $2 in *+*)
		_pv=${2#*+}
		echo "${_pv#*=}" >"$S/${_pv%%=*}" ||
			{ measure_failed "set ${_pv%%=*}"; return 1; } ;;
	esac
	echo 1 >"$S/stats/reset" || return 1
	trace_on "$LEV" || return 1
	RA_KB=128 walk normal "$3" "$4" --folio-orders || return 1
	l_touched=$(report pages_touched)
	_offered=0
	for _p in sync_thp sync_seq sync_exec sync_around; do
		_offered=$((_offered + $(counter $_p)))
	done
	l_alone=$(($(counter sync_miss) - _offered))
	l_pages=$(($(folio_pages) - l_alone))
	echo 1 >/proc/sys/vm/drop_caches
	trace_off "$LEV" /tmp/ledger.trace
	l_read=$(counter ledger_read)
	l_used=$(counter ledger_used)
	l_wasted=$(counter ledger_wasted)
	l_lost=$(counter ledger_lost)
	l_pages_read=$(counter pages_read)
	echo "# $_n: touched $l_touched, walker's folio pages in windows $l_pages ($l_alone misses read alone); ledger read $l_read used $l_used wasted $l_wasted lost $l_lost; pages_read $l_pages_read"
	sed "s/^/# $_n ledger: /" "$S/stats/ledger"
}

# ledger_check NAME ROW: the tests of the last walk; ROW is the decider
# whose line of stats/ledger must hold reads
ledger_check() {
	close "$l_used" "$l_pages"
	tap $? "$1: pages used ($l_used) within 5% of the walker's ($l_pages)"
	[ -n "$l_read" ] && close "$l_wasted" $((l_read - l_pages))
	tap $? "$1: pages wasted ($l_wasted) within 5% of the recorded pages not touched ($((l_read - l_pages)))"
	[ "$l_lost" = 0 ] && [ -n "$l_read" ] &&
		[ $((l_used + l_wasted)) = "$l_read" ] && [ "$l_read" = "$l_pages_read" ]
	tap $? "$1: every page the windows read was recorded ($l_read of $l_pages_read) and left (used + wasted), none lost ($l_lost)"
	grep -q "^$2 [1-9]" "$S/stats/ledger"
	tap $? "$1: stats/ledger puts the reads on $2's line"
	_t=$(awk '/ rapolicy_ledger: / { n[$NF] += substr($(NF-1), 7) }
		END { printf "%d %d", n["used"], n["wasted"] }' /tmp/ledger.trace)
	[ "$_t" = "$l_used $l_wasted" ]
	tap $? "$1: the events rapolicy_ledger count the pages used and wasted ($_t; counters $l_used $l_wasted)"
	_t=$(rapolicyctl trace --input /tmp/ledger.trace --by policy --top 0 |
		awk -v p="$2" 'NR > 2 { u += $(NF-1); w += $NF } NR > 2 && $1 == p { r = r + $(NF-1) + $NF }
			END { printf "%d %d %d", u, w, r }')
	[ "${_t% *}" = "$l_used $l_wasted" ] && [ "${_t##* }" -gt 0 ]
	tap $? "$1: rapolicyctl trace --by policy shows them, $2's row among them (used, wasted, $2's: $_t)"
}

mount_tracefs
LEV=$TRACEFS/events/rapolicy/rapolicy_ledger
modprobe rapolicy || { tap 1 "load rapolicy"; tap_end; }
check "tracefs offers rapolicy:rapolicy_ledger" test -f "$LEV/format"
for f in ledger_read ledger_used ledger_wasted ledger_lost ledger; do
	[ -r "$S/stats/$f" ] && [ -r "$S/stats/a/$f" ] && [ -r "$S/stats/b/$f" ] ||
		measure_failed "no stats/$f"
done
tap $? "the ledger's files exist in stats/, stats/a/ and stats/b/"
f64=$(testfile 64M) && f16=$(testfile 16M) || { tap 1 "create the files"; tap_end; }
[ -w "$FA" ] && fa=$(cat "$FA") && echo 4096 >"$FA"
tap $? "fault-around off ($FA 4096, was $fa)"

ledger_walk stock stock random:0.5 "$f64"
[ -n "$l_touched" ] && [ "$l_alone" = 0 ] && [ "$l_read" -gt $((l_touched * 8)) ]
tap $? "stock: every miss reads a window, of many pages a touch ($l_read for $l_touched)"
ledger_check stock stock

ledger_walk random stock+random_miss=fault random:1 "$f64"
ledger_check random random_miss

ledger_walk stride best stride:64 "$f16"
ledger_check stride streams

echo "$fa" >"$FA"
ledger_walk fault-around stock random:0.5 "$f64"
close "$l_used" "$l_pages" && [ "$l_used" -gt $((l_touched * 2)) ]
tap $? "fault-around on: used ($l_used) counts the mapped pages ($l_pages), not the touched ($l_touched): x86 maps fault-around young"

fresh_module
tap_end
