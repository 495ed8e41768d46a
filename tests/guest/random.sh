#!/bin/sh
# random_miss in the profile best (TAP): random reads through mmap read
# about what they touch, read-around comes back when the mapping is
# scanned again, and a MADV_HUGEPAGE mapping with room in its memcg keeps
# stock's windows.
#
# - rand1-normal (1% random pages of 128 MiB, read_ahead_kb 64) and
#   rand5-memcg (5% of 256 MiB, MADV_HUGEPAGE, a 32 MiB memcg, 8192), the
#   walks of make bench: under best, bytes read within 1.5x and 4x the
#   bytes touched, major faults within 1.05x and 1.15x stock's. Stock
#   reads 5.5x and 34x.
# - rand1-huge (1% of 128 MiB, MADV_HUGEPAGE, no memcg limit, 64): the
#   file's 64 folios of 2 MiB stay cached, so each later touch of a folio
#   read is a PMD mapping, not a fault: best takes no more major faults
#   and reads no more than stock (random_miss cutting these windows to
#   the faulting page took 307 faults where stock takes 40).
# - phaser (tests/guest/phaser.c): 1% lookups, a scan of the whole
#   mapping after its pages were dropped, lookups again, one open file:
#   the scan under best reads what a fresh scan reads (within 1.1x) and
#   takes at most one major fault more, its first miss, which no reader
#   can tell from a lookup; stock has mmap_miss at its cap after the
#   lookups and takes one major fault per page (65536).
# - rand20 (20% of 64 MiB, read_ahead_kb 128, seed 7: make bench's fault
#   cost and tracker cost walk): the stream tracker is asked no more often
#   under best than with streams=on alone. Stock's read-around gives up
#   after MMAP_LOTSAMISS misses and asks no policy; random_miss takes the
#   misses it decides back, and the tracker counts them as stock does
#   (rap_random_took()), so it finds no chance "streams" among random
#   touches. Best then reads no more than stock, and reads and faults as
#   random_miss=fault alone does (within 1%): more major faults than
#   stock, the trade of cutting read-around early (docs/RANDOM.md, "Dense
#   random readers"). Before, best read 1.40x stock's KiB here.
# Each relation is printed with stock's numbers, which fail it.
. "$(dirname "$0")/lib.sh"

S=$RAPOLICY_SYSFS

# setting NAME: the profile NAME, counters from zero
setting() {
	case $1 in
	streams=* | random_miss=*)
		profile stock && echo "${1#*=}" >"$S/${1%%=*}" ;;
	*) profile "$1" ;;
	esac && echo 1 >"$S/stats/reset"
}

# within NUM DEN X Y: X <= Y * NUM / DEN (a failed measurement is empty
# and fails the test)
within() {
	[ "$3" -ge 0 ] && [ "$4" -ge 0 ] && [ $(($3 * $2)) -le $(($4 * $1)) ]
}

# The KUnit suite of the policy's decisions (rapolicy_random_test.ko)
results=/sys/kernel/debug/kunit/rapolicy_random/results
if modprobe rapolicy_random_test && [ -r "$results" ]; then
	kunit_import "$results"
	grep -q "^ok 1 rapolicy_random" "$results"
	tap $? "KUnit suite rapolicy_random passed"
	rmmod rapolicy_random_test
else
	tap 1 "load rapolicy_random_test.ko, results in $results"
fi

modprobe rapolicy || { tap 1 "load rapolicy"; tap_end; }
[ -w "$S/random_miss" ]
tap $? "random_miss policy file exists"
rapolicyctl profile best >/dev/null && grep -q '\[fault\]' "$S/random_miss"
tap $? "the profile best sets random_miss=fault"
f128=$(testfile 128M) && f256=$(testfile 256M) ||
	{ tap 1 "create the files"; tap_end; }

# rand WORKLOAD SETTING ADVICE PCT FILE RA_KB [RAWALK OPTIONS]: one walk;
# sets r_major, r_read_kb, r_touched_kb (empty if the walk failed)
rand() {
	_w=$1 _s=$2 _adv=$3 _pct=$4 _f=$5
	RA_KB=$6
	shift 6
	r_major='' r_read_kb='' r_touched_kb=''
	setting "$_s" || return 1
	walk "$_adv" "random:$_pct" "$_f" "$@" || return 1
	r_major=$walk_major
	r_read_kb=$((walk_sectors / 2))
	r_touched_kb=$(($(report pages_touched) * 4))
	echo "# $_w $_s: $r_major majflt, $r_read_kb KiB read, $r_touched_kb KiB touched, random_fault $(counter random_fault), random_credit $(counter random_credit)"
}

# rand_targets NAME ADVICE PCT FILE RA_KB READ_NUM FAULT_NUM [OPTIONS]:
# reads <= READ_NUM/10 x touched, majors <= FAULT_NUM/100 x stock's
rand_targets() {
	_n=$1 _a=$2 _p=$3 _file=$4 _ra=$5 _rn=$6 _fn=$7
	shift 7
	rand "$_n" stock "$_a" "$_p" "$_file" "$_ra" "$@"
	sm=$r_major sr=$r_read_kb st=$r_touched_kb
	rand "$_n" best "$_a" "$_p" "$_file" "$_ra" "$@"
	within "$_rn" 10 "$r_read_kb" "$r_touched_kb" && [ "$r_touched_kb" -gt 0 ]
	tap $? "$_n: best reads <= $((_rn / 10)).$((_rn % 10))x the KiB touched ($r_read_kb of $r_touched_kb; stock $sr of $st)"
	within "$_fn" 100 "$r_major" "$sm" && [ "$sm" -gt 0 ]
	tap $? "$_n: best's major faults <= $_fn% of stock's ($r_major, stock $sm)"
}

rand_targets rand1-normal normal 1 "$f128" 64 15 105
rand_targets rand5-memcg huge 5 "$f256" 8192 40 115 --memcg-limit=32M

f64=$(testfile 64M) || { tap 1 "create 64M"; tap_end; }
rand rand20 stock normal 20 "$f64" 128 --seed 7
sm=$r_major sr=$r_read_kb
rand rand20 streams=on normal 20 "$f64" 128 --seed 7
sl=$(counter stream_lookups)
rand rand20 random_miss=fault normal 20 "$f64" 128 --seed 7
rm=$r_major rr=$r_read_kb
rand rand20 best normal 20 "$f64" 128 --seed 7
bl=$(counter stream_lookups)
[ -n "$sl" ] && [ -n "$bl" ] && [ "$bl" -le "$sl" ]
tap $? "rand20: the tracker takes no more decisions under best ($bl) than with streams=on alone ($sl)"
within 1 1 "$r_read_kb" "$sr" && within 101 100 "$r_read_kb" "$rr"
tap $? "rand20: best reads no more KiB than stock and random_miss alone ($r_read_kb; stock $sr, random_miss $rr)"
within 101 100 "$r_major" "$rm" && [ "$rm" -gt 0 ]
tap $? "rand20: best takes random_miss's major faults, within 1% ($r_major; random_miss $rm, stock $sm)"

rand rand1-huge stock huge 1 "$f128" 64
sm=$r_major sr=$r_read_kb
rand rand1-huge best huge 1 "$f128" 64
[ -n "$sm" ] && [ -n "$r_major" ] && [ "$r_major" -le "$sm" ] && [ "$r_read_kb" -le "$sr" ]
tap $? "rand1-huge: best takes no more major faults ($r_major, stock $sm) and reads no more KiB ($r_read_kb, stock $sr) than stock"

# phases SETTING PCT: one phaser run at read_ahead_kb 128; sets p_*
phases() {
	p_scan_major='' p_scan_sectors='' p_look_sectors=''
	p_look_touches='' p_again_sectors='' p_again_touches=''
	setting "$1" && echo 128 >/sys/block/vda/queue/read_ahead_kb || return 1
	if ! p_out=$(phaser "$2" "$f256" 2>&1); then
		echo "$p_out" | sed 's/^/# phaser: /'
		measure_failed "phaser $2 under $1"
		return 1
	fi
	p_scan_major=$(echo "$p_out" | sed -n 's/^scan_major_faults: //p')
	p_scan_sectors=$(echo "$p_out" | sed -n 's/^scan_sectors_read: //p')
	p_look_sectors=$(echo "$p_out" | sed -n 's/^lookups_sectors_read: //p')
	p_look_touches=$(echo "$p_out" | sed -n 's/^lookups_touches: //p')
	p_again_sectors=$(echo "$p_out" | sed -n 's/^again_sectors_read: //p')
	p_again_touches=$(echo "$p_out" | sed -n 's/^again_touches: //p')
	echo "# phaser $1 $2%: $(echo "$p_out" | grep -v '^sum' | sed 's/: /=/' | tr '\n' ' ')"
}

phases best 0
fresh_major=$p_scan_major fresh_sectors=$p_scan_sectors
phases stock 1
stock_major=$p_scan_major stock_sectors=$p_scan_sectors
phases best 1
[ "$fresh_major" -ge 0 ] && [ "$p_scan_major" -le $((fresh_major + 1)) ]
tap $? "phases: the scan after lookups takes <= a fresh scan's major faults + 1 ($p_scan_major, fresh $fresh_major, stock $stock_major)"
within 11 10 "$p_scan_sectors" "$fresh_sectors" && [ "$fresh_sectors" -gt 0 ]
tap $? "phases: the scan after lookups reads <= 1.1x a fresh scan ($p_scan_sectors sectors, fresh $fresh_sectors, stock $stock_sectors)"
# sectors of 512 bytes, touches of 4 KiB pages: 1.5 x 8 sectors a touch
within 15 10 "$p_look_sectors" $(($p_look_touches * 8)) &&
	within 15 10 "$p_again_sectors" $(($p_again_touches * 8))
tap $? "phases: the lookups before and after read <= 1.5x what they touch ($p_look_sectors and $p_again_sectors sectors for $p_look_touches and $p_again_touches pages)"

profile stock
tap_end
