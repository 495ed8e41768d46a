#!/bin/sh
# The stream tracker (streams=on), TAP. On a 256 MiB file at read_ahead_kb
# 128 and 8192: strided walks (every 16th, 64th and 1024th page, either
# direction, no hint, MADV_SEQUENTIAL, MADV_HUGEPAGE) take at most 8 major
# faults and read no more than with the tracker off; random walks are
# exactly what they are with it off; a B-tree's reverse leaf scan with
# jumps elsewhere takes no more faults than its forward scan plus 4.
# strider (tests/guest/strider.c) runs the walks rawalk has no pattern for.
. "$(dirname "$0")/lib.sh"

S=$RAPOLICY_SYSFS
SECTOR_SLACK=64
MAX_STRIDE_FAULTS=8

# strided ADVICE PATTERN FILE: a cold strider walk at $RA_KB; sets
# s_major, s_sectors
strided() {
	echo "$RA_KB" >/sys/block/vda/queue/read_ahead_kb || return 1
	if ! s_out=$(strider -a "$1" "$2" "$3" 2>&1); then
		echo "$s_out" | sed 's/^/# strider: /'
		s_major='' s_sectors=''
		measure_failed "strider -a $1 $2 $3"
		return 1
	fi
	s_major=$(echo "$s_out" | sed -n 's/^major_faults: *//p')
	s_sectors=$(echo "$s_out" | sed -n 's/^sectors_read: *//p')
}

# tracker off|on: the policy, counters from zero; "on" with an empty table
# (the module reloaded), so that no stream of an earlier walk of the file
# takes part
tracker() {
	fresh_module
	set_policy streams "$1"
}

# The KUnit suite of the tracker's decisions (rapolicy_stream_test.ko)
results=/sys/kernel/debug/kunit/rapolicy_stream/results
if modprobe rapolicy_stream_test && [ -r "$results" ]; then
	kunit_import "$results"
	grep -q "^ok 1 rapolicy_stream" "$results"
	tap $? "KUnit suite rapolicy_stream passed"
	rmmod rapolicy_stream_test
else
	tap 1 "load rapolicy_stream_test.ko, results in $results"
fi

modprobe rapolicy || { tap 1 "load rapolicy"; exit 1; }
all_policies_off
[ -w "$S/streams" ]
tap $? "streams policy file exists"
f=$(testfile 256M) || { tap 1 "create 256M"; exit 1; }

ns=0 lookups=0
for RA_KB in 128 8192; do
	for advice in normal seq huge; do
		for pattern in stride:16 rstride:16 stride:64 rstride:64 \
			stride:1024 rstride:1024; do
			tracker off
			strided "$advice" "$pattern" "$f"
			m0=$s_major s0=$s_sectors
			tracker on
			strided "$advice" "$pattern" "$f"
			ns=$((ns + $(counter stream_cost)))
			lookups=$((lookups + $(counter stream_lookups)))
			w=$(($(counter stream_sync) + $(counter stream_async)))
			echo "# ra $RA_KB $advice $pattern: off $m0 majflt $s0 sectors; on $s_major, $s_sectors, $w tracker windows"
			# Where stock takes more than the bound, the tracker's
			# windows must be what brought it under; where stock
			# meets it already (read-around covers short strides),
			# the tracker may only take no more faults. Either way
			# it reads no more (with no window of its own, what
			# was read is stock's doing: huge folio sizes vary).
			if [ "$m0" -gt "$MAX_STRIDE_FAULTS" ]; then
				[ "$s_major" -le "$MAX_STRIDE_FAULTS" ] && [ "$w" -gt 0 ]
			else
				[ "$s_major" -le "$m0" ]
			fi && { [ "$w" = 0 ] || [ "$s_sectors" -le $((s0 + SECTOR_SLACK)) ]; }
			tap $? "tracker: $advice $pattern at read_ahead_kb $RA_KB: $s_major majflt (off $m0, bound $MAX_STRIDE_FAULTS) with $w windows, reads no more ($s_sectors, off $s0)"
		done
	done
done
[ "$lookups" -gt 0 ] && echo "# tracker cost: $((ns / lookups)) ns per decision ($lookups decisions, this guest's clock)"

# Random readers: what they get with the tracker off, and no window of its
for RA_KB in 128 8192; do
	for c in normal:random:1 seq:random:1 huge:random:1 normal:random:10; do
		advice=${c%%:*} pattern=${c#*:}
		tracker off
		RA_KB=$RA_KB walk "$advice" "$pattern" "$f"
		m0=$walk_major s0=$walk_sectors
		tracker on
		RA_KB=$RA_KB walk "$advice" "$pattern" "$f"
		w=$(($(counter stream_sync) + $(counter stream_async)))
		echo "# ra $RA_KB $advice $pattern: off $m0 majflt $s0 sectors; on $walk_major, $walk_sectors, $w tracker windows"
		# No window replaced: the kernel read as off, by construction.
		# Its own counts may still differ by a few faults between two
		# walks (seen once, on a host loaded by kernel builds: 6212
		# against 6204, 77424 sectors against 77608, with no window
		# of the tracker's), so the counts are reported, not compared.
		[ "$w" = 0 ]
		tap $? "tracker: $advice $pattern at read_ahead_kb $RA_KB: no window of the tracker's ($walk_major majflt, off $m0)"
	done
done

# A B-tree's leaf scan with a jump to an interior node every 32 leaves (a
# page of the file's upper half at random): the scan keeps its stream
# across the jumps, forward takes no more faults than with the tracker off,
# and reverse takes no more than forward and one a jump, and reads no more
# than off. At read_ahead_kb 128 stock's reverse scan misses once a window
# and the jumps once each: its mmap_miss passes MMAP_LOTSAMISS, and from
# then on it reads the page of a jump alone; the tracker, which served the
# scan's touches, reads so too, not a window around each jump that nobody
# touches (reading those cost 418504 sectors against off's 296088).
jumps=$(($(stat -c %s "$f") / 4096 / 2 / 32))
for RA_KB in 128 8192; do
	tracker off
	strided normal fbtree:32 "$f"
	fm0=$s_major
	tracker on
	strided normal fbtree:32 "$f"
	fm=$s_major
	echo "# ra $RA_KB fbtree:32: forward off $fm0 majflt, on $fm"
	[ "$fm" -le "$fm0" ]
	tap $? "tracker: B-tree forward scan at read_ahead_kb $RA_KB takes no more faults ($fm, off $fm0)"
	tracker off
	strided normal btree:32 "$f"
	m0=$s_major s0=$s_sectors
	tracker on
	strided normal btree:32 "$f"
	echo "# ra $RA_KB btree:32: reverse off $m0 majflt, $s0 sectors; on $s_major, $s_sectors; forward on $fm; $jumps jumps"
	[ "$s_major" -le $((fm + jumps)) ] && [ "$m0" -gt $((fm + 4)) ] &&
		[ "$s_sectors" -le "$s0" ]
	tap $? "tracker: B-tree reverse scan at read_ahead_kb $RA_KB: $s_major faults, forward $fm + $jumps jumps; $s_sectors sectors, off $s0"
done

# Four readers of one mapping at once, two up and two down
RA_KB=128
tracker off
strided normal interleave:4 "$f"
m0=$s_major
tracker on
strided normal interleave:4 "$f"
echo "# interleave:4: off $m0 majflt, on $s_major"
[ "$s_major" -lt "$m0" ]
tap $? "tracker: four interleaved readers take fewer faults ($s_major, off $m0)"

# A stream of a file that is gone: its key matches no new file, nothing
# stale is read (any oops fails run.sh's dmesg check)
tracker on
g=$(testfile 64M) && strided normal rstride:64 "$g" && rm -f "$g" &&
	g=$(testfile 64M) && strided normal rstride:64 "$g"
tap $? "tracker: a file replaced under its streams walks cleanly ($s_major majflt)"
rm -f "$g"

tracker off
echo 128 >/sys/block/vda/queue/read_ahead_kb
tap_end
