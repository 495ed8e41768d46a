#!/bin/sh
# make bench, guest side of tests/bench/random.sh: random walks of a 128 MiB
# file at read_ahead_kb 128, cold, no hint, over random shares of 0.1% to
# 20%, under stock, best and MADV_RANDOM (stock). One line per walk:
#   @rand SHARE SETTING PAGES_TOUCHED SECTORS_READ MAJOR_FAULTS
# A failed walk prints -1 for its counts.
. "$(dirname "$0")/lib.sh"

modprobe rapolicy || { echo "random_sweep: cannot load rapolicy" >&2; exit 1; }
f=$(testfile 128M) || { echo "random_sweep: cannot create the file" >&2; exit 1; }
RA_KB=128
for share in 0.1 0.2 0.5 1 2 5 10 20; do
	for setting in stock best madv_random; do
		profile=$setting advice=normal
		[ "$setting" = madv_random ] && profile=stock advice=random
		profile "$profile" || exit 1
		if walk "$advice" "random:$share" "$f"; then
			echo "@rand $share $setting $(report pages_touched) $walk_sectors $walk_major"
		else
			echo "@rand $share $setting -1 -1 -1"
		fi
	done
done
profile stock
