#!/bin/sh
# The hook series checks a policy's window instead of trusting it (TAP).
# rapolicy_hostile.ko returns one kind of broken window at every decision
# point; the walks must complete, read each page of the file at most once,
# and a refused window must leave the kernel's default: the counts of
# mode=none (the same module, keeping every default window).
. "$(dirname "$0")/lib.sh"

# ra_pages 128: the kernel cuts a window of a mapping without VM_HUGEPAGE
# to one of ra_pages, or to nr of them and ra_policy_max_pages() in all,
# max(128, 2 << 9) = 1024 pages with 4KiB pages and 2MB PMD folios
RA_KB=512
ra_pages=$((RA_KB / 4))
SECTOR_SLACK=64
FILE_SECTORS=131072	# 64 MiB
WALKS="normal:reverse normal:forward huge:reverse seq:forward normal:random:5"

rmmod rapolicy 2>/dev/null
f=$(testfile 64M) || { tap 1 "create 64M"; exit 1; }

load_hostile() {
	rmmod rapolicy_hostile 2>/dev/null
	modprobe rapolicy_hostile mode="$1"
}

# walks: every walk of $WALKS once; sets "<advice>_<pattern>" results in
# $out as "major sectors" lines, fails if a walk fails
walks() {
	out=
	for w in $WALKS; do
		walk "${w%%:*}" "${w#*:}" "$f" || return 1
		out="$out$w $walk_major $walk_sectors
"
	done
}

# same_as_none: every walk's faults within 1% and sectors within the
# slack of mode=none's
same_as_none() {
	echo "$out" | while read -r w m s; do
		[ -n "$w" ] || continue
		set -- $(echo "$none" | sed -n "s/^$w //p")
		ds=$((s - $2))
		if [ "$m" -gt $(($1 + $1 / 100 + 1)) ] || [ "$m" -lt $(($1 - $1 / 100 - 1)) ] ||
			[ "${ds#-}" -gt "$SECTOR_SLACK" ]; then
			echo "# $w: $m majflt $s sectors, mode=none $1 $2"
			exit 1
		fi
	done
}

# read_once: no walk read more than the file
read_once() {
	echo "$out" | while read -r w m s; do
		[ -n "$w" ] || continue
		if [ "$s" -gt $((FILE_SECTORS + SECTOR_SLACK)) ]; then
			echo "# $w: $s sectors, more than the file"
			exit 1
		fi
	done
}

check "hostile policy rejects an unknown mode" sh -c '! modprobe rapolicy_hostile mode=sideways 2>/dev/null'
load_hostile none && walks
tap $? "hostile mode=none: walks complete"
none=$out
echo "$none" | sed '/^$/d; s/^/# none: /'

for mode in zero_size beyond_eof wrap; do
	load_hostile "$mode" && walks && same_as_none
	tap $? "hostile $mode: refused, the default window is read"
done


for mode in async_over order huge_size; do
	load_hostile "$mode" && walks && read_once
	tap $? "hostile $mode: walks complete, each page read at most once"
	echo "$out" | sed '/^$/d; s/^/# '"$mode"': /'
done

# huge_size asks for ULONG_MAX pages at every fault, as one window; a walk
# that touches two pages must read at most two windows of ra_pages (2048
# sectors), not the whole file, nor the 1024 pages of two PMD folios that
# a window of a mapping without VM_HUGEPAGE was cut to before.
load_hostile huge_size
walk normal random:0.01 "$f"
[ "$(report pages_touched)" -le 2 ] && [ "$walk_sectors" -le $((2 * ra_pages * 8 + SECTOR_SLACK)) ]
tap $? "hostile huge_size: cut down to ra_pages ($walk_sectors sectors for $(report pages_touched) pages)"

# wide asks at each read-around miss for the 4 * ra_pages from the fault
# as one window: the kernel reads ra_pages of it, holding the faulting
# page. wide_nr asks for them as 4 windows (ra_policy_window.nr): all are
# read, in 4 reads of ra_pages each (one readahead:page_cache_ra_order
# event a read; 6.12 has no such event). Touching one page every 4 *
# ra_pages, every touch misses, and wide_nr's walk reads the whole file.
stride=$((4 * ra_pages))
touches=$((FILE_SECTORS / 8 / stride))
load_hostile wide && walk normal stride:$stride "$f" &&
	[ "$walk_major" -eq "$touches" ] &&
	[ "$walk_sectors" -le $((touches * ra_pages * 8 + SECTOR_SLACK)) ] &&
	[ "$walk_sectors" -ge $((touches * ra_pages * 8)) ]
tap $? "hostile wide: a window of 4 * ra_pages is cut to ra_pages ($walk_major majflt, $walk_sectors sectors; $touches touches)"

RA_EV=$TRACEFS/events/readahead/page_cache_ra_order
mount_tracefs
load_hostile wide_nr
if [ -f "$RA_EV/enable" ]; then
	trace_walk "$RA_EV" /tmp/ra_reads normal stride:$stride "$f" &&
		ra_reads=$(grep "ino=$(printf %x "$(stat -c %i "$f")") " /tmp/ra_reads) &&
		nr_reads=$(echo "$ra_reads" | grep -c .) &&
		big=$(echo "$ra_reads" | sed -n 's/.* size=\([0-9]*\) .*/\1/p' | awk -v m=$ra_pages '$1 > m' | wc -l) &&
		[ "$walk_major" -eq "$touches" ] && [ "$nr_reads" -eq $((4 * touches)) ] && [ "$big" -eq 0 ] &&
		[ "$walk_sectors" -ge $((FILE_SECTORS)) ] && [ "$walk_sectors" -le $((FILE_SECTORS + SECTOR_SLACK)) ]
	tap $? "hostile wide_nr: 4 windows of ra_pages are read in 4 reads ($walk_major majflt, $walk_sectors sectors; ${nr_reads:-?} reads, ${big:-?} larger than $ra_pages pages)"
else
	walk normal stride:$stride "$f" && [ "$walk_major" -eq "$touches" ] &&
		[ "$walk_sectors" -ge $((FILE_SECTORS)) ] && [ "$walk_sectors" -le $((FILE_SECTORS + SECTOR_SLACK)) ]
	tap $? "hostile wide_nr: 4 windows of ra_pages are read ($walk_major majflt, $walk_sectors sectors; no readahead:page_cache_ra_order event to count the reads)"
fi

# max_index 0 on every read: raised to the faulting page, so read-around
# still reads the half of its window below the fault, which is all that a
# reverse walk uses: the counts of mode=none. Trusted, every page of a
# reverse walk would be a major fault (16384).
load_hostile max_index_zero
WALKS=normal:reverse walks && same_as_none
tap $? "hostile max_index_zero: never below the faulting page, as mode=none"

# whole_file replaces every window with the whole file, asking for as many
# windows as the kernel reads in one decision. Mapping only the
# middle half (away from folio boundaries), nothing outside the mapping may
# be read, in any direction or advice: the kernel keeps a policy's window
# inside the VMA that faulted.
load_hostile whole_file
first=$((FILE_SECTORS / 8 / 4 + 3)) end=$((3 * FILE_SECTORS / 8 / 4 - 5))
for adv in normal seq huge; do
	for dir in forward reverse; do
		o=$(partmap "$f" $first $end $adv $dir) && [ "$o" = "outside 0" ]
		tap $? "hostile whole_file: $adv $dir over pages [$first, $end) reads nothing outside ($o)"
	done
done

# The kernel cuts whole_file's window at a miss to 1024 pages: the 1024
# holding the faulting page, not the file's first 1024, which a miss past
# them finds cached, leaving filemap_fault() to read the faulting page
# alone (61 major faults for this walk before the fix). Touching every
# 256th page of the 64 MiB file, a walk misses once every 1024 pages.
load_hostile whole_file && walk normal stride:256 "$f" &&
	[ "$walk_major" -le $((FILE_SECTORS / 8 / 1024 + 1)) ] &&
	[ "$walk_sectors" -le $((FILE_SECTORS + SECTOR_SLACK)) ]
tap $? "hostile whole_file: a miss reads the 1024 pages around it ($walk_major majflt, $walk_sectors sectors for every 256th page)"

# order_low: on every VM_HUGEPAGE miss, the default window read with
# order-0 folios for this read only, and no marker. The order is the
# read's, not a floor under the PMD order the file's readahead state
# holds: no folio of the walk can be PMD-mapped, where mode=none maps
# with PMDs, and each page is read once.
load_hostile none && walk huge forward "$f" && none_pmd=$walk_pmd_kb &&
	load_hostile order_low && walk huge forward "$f" &&
	[ "$none_pmd" -gt 0 ] && [ "$walk_pmd_kb" -eq 0 ] &&
	[ "$walk_sectors" -le $((FILE_SECTORS + SECTOR_SLACK)) ]
tap $? "hostile order_low: an order_once window reads its own order ($walk_pmd_kb KiB PMD-mapped, mode=none ${none_pmd:-?}; $walk_sectors sectors)"

# async_here, at every marker, keeps the default window's start, the
# faulting page in the marked folio, and asks for the largest window of
# the largest folios. The marked folio is cached: a window read from it
# stopped there, and page_cache_ra_order() read the rest in order-0
# folios through do_page_cache_ra(), so that only the first two folios of
# the walk, which the miss reads, could be PMD-mapped. The kernel starts
# the window past the marked folio: the walk maps with PMDs at least half
# of what mode=none maps, each page read once.
load_hostile async_here && walk huge forward "$f" &&
	[ "${none_pmd:-0}" -gt 0 ] && [ "$walk_pmd_kb" -ge $((none_pmd / 2)) ] &&
	[ "$walk_sectors" -le $((FILE_SECTORS + SECTOR_SLACK)) ]
tap $? "hostile async_here: a window from the marked folio starts past it ($walk_pmd_kb KiB PMD-mapped, mode=none ${none_pmd:-?}; $walk_sectors sectors)"

# cut_marked bounds every read-around miss right after its window's
# marked page, ra_pages / 4 above the miss. A read cut short by the bound
# places no marker (as one cut by EOF does), so nothing is read but on a
# major fault, at most ra_pages each. Touching every (ra_pages / 4)th
# page (the miss, then the marked page of its cut window), a marker left
# in a cut window starts asynchronous readahead that no bound stops: on
# 6.12 before the fix the walk took 1 major fault for the whole file.
load_hostile cut_marked && walk normal stride:$((ra_pages / 4)) "$f" &&
	[ "$walk_sectors" -le $((walk_major * ra_pages * 8 + SECTOR_SLACK)) ]
tap $? "hostile cut_marked: a read cut by max_index leaves no marker ($walk_sectors sectors for $walk_major majflt of at most $ra_pages pages)"

# whole_file's window at a miss is 1024 pages, 8 times ra_pages here, and
# read(2) on the same file shares the file's readahead state with the
# mapping: page_cache_async_ra() goes on from it with windows no smaller
# than the one it records. The file records at most ra_pages of a policy's
# window, so after one fault on page 0 a reader of the file's first 2560
# pages through read(2) has at most two of stock's windows, 2 * ra_pages,
# cached ahead of it, as with mode=none; when the file recorded the whole
# window, windows of 1024 pages followed it (1536 pages ahead).
readafter_ahead() {
	load_hostile "$1" && echo "$RA_KB" >/sys/block/vda/queue/read_ahead_kb &&
		ra_out=$(readafter "$f" 0 2560 2>&1) &&
		ra_ahead=$(echo "$ra_out" | sed -n 's/^cached_above: //p') &&
		[ -n "$ra_ahead" ] && [ "$(echo "$ra_out" | sed -n 's/^major_faults: //p')" = 1 ] ||
		{ echo "$ra_out" | sed 's/^/# readafter: /'; measure_failed "readafter under $1"; return 1; }
}
readafter_ahead none && none_ahead=$ra_ahead &&
	readafter_ahead whole_file &&
	[ "$none_ahead" -le $((2 * ra_pages)) ] && [ "$ra_ahead" -le $((2 * ra_pages)) ]
tap $? "hostile whole_file: read(2) after a fault reads stock's windows ($ra_ahead pages ahead of the reader, mode=none ${none_ahead:-?}, at most $((2 * ra_pages)))"

rmmod rapolicy_hostile
tap $? "hostile policy unloads"
tap_end
