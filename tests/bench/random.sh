#!/bin/bash
# make bench, random_miss's part: MiB read against MiB touched by random
# walks of a 128 MiB file (no hint, read_ahead_kb 128, cold) over random
# shares of 0.1% to 20%, under stock, the profile best and MADV_RANDOM, in one boot of
# the patched kernel (tests/guest/random_sweep.sh). Writes
# docs/bench/random.txt (the table) and docs/bench/random.svg (the plot,
# with gnuplot).
#   tests/bench/random.sh [OUTDIR]
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-$top/docs/bench}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

"$top/tests/vm/vm-run" --mem 2048 --add "$top/tests/guest" -- \
	sh /add/guest/random_sweep.sh >"$T/raw" || { cat "$T/raw" >&2; exit 1; }
grep '^@rand ' "$T/raw" >"$T/rows" || { echo "random.sh: no walks" >&2; exit 1; }
mkdir -p "$out"
awk '
function mib(sectors) { return sectors < 0 ? "-" : sprintf("%.2f", sectors / 2048) }
{ share[$2] = 1; order[++n] = $2; touched[$2] = $4 * 4096 / 1048576
  read[$2, $3] = $5; major[$2, $3] = $6 }
END {
	print "Random walks of a 128 MiB file, no hint, read_ahead_kb 128, cold (tests/bench/random.sh):"
	print "MiB read (major faults) per random share, under stock, the profile best and MADV_RANDOM (stock)."
	print ""
	print "| share % | MiB touched | stock | best | MADV_RANDOM |"
	print "|---|---|---|---|---|"
	for (i = 1; i <= n; i++) {
		s = order[i]
		if (s in seen) continue
		seen[s] = 1
		printf "| %s | %.2f | %s (%s) | %s (%s) | %s (%s) |\n", s, touched[s],
			mib(read[s, "stock"]), major[s, "stock"], mib(read[s, "best"]), major[s, "best"],
			mib(read[s, "madv_random"]), major[s, "madv_random"]
		printf "%s %.3f %s %s %s\n", s, touched[s], mib(read[s, "stock"]), mib(read[s, "best"]),
			mib(read[s, "madv_random"]) > dat
	}
}' dat="$T/random.dat" "$T/rows" >"$out/random.txt"
cat "$out/random.txt"
if command -v gnuplot >/dev/null; then
	gnuplot -e "data='$T/random.dat'; out='$out/random.svg'" "$top/tests/bench/random.gp"
else
	echo "random.sh: gnuplot not found: no plot (apt-get install gnuplot-nox)" >&2
fi
