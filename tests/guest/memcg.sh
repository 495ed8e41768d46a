#!/bin/sh
# best under memory pressure (TAP): in memcgs of 16, 32 and 64 MiB, walks
# of a 128 MiB file (two to eight times the limit) at read_ahead_kb 128,
# under stock and under the profile best:
#   forward, reverse   no hint: a scan either way
#   huge reverse       MADV_HUGEPAGE, a reverse scan (best's descending
#                      stream ramps to 4 MiB windows)
#   huge random:5      MADV_HUGEPAGE, 5% of the pages at random
#   normal random:1    no hint, 1% of the pages at random
# Scans: best takes no more major faults and reads no more sectors than
# stock. Without the cut of windows to the memcg's headroom
# (module/pressure.c), best's 4 MiB THP windows push out folios of the
# next before the reader gets there: 306960 sectors against stock's
# 262144 (the file, once) in 16 MiB.
# Random walks: best takes at most 20% more major faults than stock, and
# reads at most 1% more (reclaim makes stock's own counts vary by that
# much between runs of a random walk in a memcg): random_miss reads the
# faulting page alone, and gives up the touches stock's unused read-around
# windows happen to catch (1% random, 32-page windows: 0.32 a window),
# and for MADV_HUGEPAGE the folios that
# would have lasted until the next touch (docs/RANDOM.md). Measured:
# 1.03x, 1.14x and 0.99x stock's faults for 5% in 16, 32 and 64 MiB,
# reading 22x, 18x and 5x less; 1.08x for 1%, reading 9x less. The 1.14x
# is a gap against the target (no more faults than stock), bounded here
# so that a worse measure fails.
# Each line prints stock's and best's counts.
# shellcheck source=tests/guest/lib.sh source-path=SCRIPTDIR/../..
. "$(dirname "$0")/lib.sh"

modprobe rapolicy || { tap 1 "load rapolicy"; tap_end; }
f=$(testfile 128M) || { tap 1 "create the file"; tap_end; }
RA_KB=128

# one PROFILE ADVICE PATTERN MIB: a cold walk in a memcg of MIB MiB; sets
# o_major, o_sectors (empty if it failed)
one() {
	o_major='' o_sectors=''
	fresh_module && profile "$1" || return 1
	walk "$2" "$3" "$f" --memcg-limit "$(($4 * 1048576))" || return 1
	o_major=$walk_major o_sectors=$walk_sectors
}

for mib in 16 32 64; do
	for w in normal:forward normal:reverse huge:reverse huge:random:5 normal:random:1; do
		adv=${w%%:*} pat=${w#*:}
		one stock "$adv" "$pat" "$mib"
		sm=$o_major ss=$o_sectors
		one best "$adv" "$pat" "$mib"
		case $pat in
		random:*)
			cap=$((sm + sm / 5)) scap=$((ss + ss / 100))
			what="<= 1.2x stock's major faults ($o_major, stock $sm) and <= 1.01x stock's sectors" ;;
		*)
			cap=$sm scap=$ss
			what="<= stock's major faults ($o_major, stock $sm) and sectors" ;;
		esac
		[ -n "$sm" ] && [ -n "$o_major" ] &&
			[ "$o_major" -le "$cap" ] && [ "$o_sectors" -le "$scap" ]
		tap $? "memcg $mib MiB, $adv $pat: best $what ($o_sectors, stock $ss)"
	done
done

profile stock
tap_end
