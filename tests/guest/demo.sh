#!/bin/sh
# make demo, guest side: the seed's reverse walk under MADV_HUGEPAGE and
# MADV_SEQUENTIAL (one byte per page, last page first, cold cache,
# read_ahead_kb 8192), and one real client (an LMDB reverse cursor scan,
# tests/clients/lmdb_scan.c, when /add/clients is there), each under
# profiles stock, seed and best, side by side.
#
# On Linux 6.12 (the scratch disk is XFS there, see tests/vm/vm-run) the
# table has a third walk, MADV_NORMAL (read-around): 6.12 has no
# MADV_HUGEPAGE per-page regression (its stock walk takes one fault per
# PMD folio), while its MADV_SEQUENTIAL reverse walk faults once per page
# and its read-around one once per window, as on 7.3. NORMAL_SIZE=SIZE adds
# that walk on any kernel, NORMAL_SIZE= (empty) leaves it out.
# shellcheck source=tests/guest/lib.sh source-path=SCRIPTDIR/../..
. "$(dirname "$0")/lib.sh"

HUGE_SIZE=${HUGE_SIZE:-512M}
SEQ_SIZE=${SEQ_SIZE:-256M}
case $(uname -r) in
6.12.*) NORMAL_SIZE=${NORMAL_SIZE-512M} ;;
*) NORMAL_SIZE=${NORMAL_SIZE-} ;;
esac
LMDB_MIB=${LMDB_MIB:-256}
LMDB_RA=${LMDB_RA:-128}
PROFILES="stock seed best"
C=/add/clients

modprobe rapolicy || { echo "demo: cannot load rapolicy"; exit 1; }
echo "rapolicy $(cat "$RAPOLICY_SYSFS/version") on $(uname -r)"
fs=$(sed -n "s|^[^ ]* $SCRATCH \([^ ]*\) .*|\1|p" /proc/mounts)
echo "files: $HUGE_SIZE (MADV_HUGEPAGE), $SEQ_SIZE (MADV_SEQUENTIAL)${NORMAL_SIZE:+, $NORMAL_SIZE (MADV_NORMAL)} on ${fs:-?}/virtio-blk, read_ahead_kb 8192"

# row LABEL PROFILE MAJOR SECTORS MS: one cell of the table, kept in $rows
rows=""
row() {
	rows="$rows$1 $2 $3 $(($4 / 2048)) $5
"
}

# walkrow LABEL ADVICE SIZE PROFILE: one rawalk walk
walkrow() {
	file=$(testfile "$3") || exit 1
	profile "$4" || exit 1
	echo "... $1, profile $4" >&2
	walk "$2" reverse "$file" || exit 1
	row "$1" "$4" "$walk_major" "$walk_sectors" "$(report wall_ms)"
}

# lmdbrow LABEL PROFILE: LMDB's reverse cursor scan on a cold cache
lmdbrow() {
	profile "$2" || exit 1
	echo "$LMDB_RA" >/sys/block/vda/queue/read_ahead_kb
	echo "... $1, profile $2" >&2
	out=$("$C/bin/measure" --cold --out /dev/null -- \
		"$C/bin/lmdb_scan" scan "$SCRATCH/lmdb" reverse) || exit 1
	row "$1" "$2" "$(echo "$out" | sed -n 's/^major_faults: //p')" \
		"$(echo "$out" | sed -n 's/^sectors_read: //p')" \
		"$(echo "$out" | sed -n 's/^wall_ms: //p' | cut -d. -f1)"
}

for p in $PROFILES; do
	walkrow "reverse/MADV_HUGEPAGE/$HUGE_SIZE" huge "$HUGE_SIZE" "$p"
done
for p in $PROFILES; do
	walkrow "reverse/MADV_SEQUENTIAL/$SEQ_SIZE" seq "$SEQ_SIZE" "$p"
done
if [ -n "$NORMAL_SIZE" ]; then
	for p in $PROFILES; do
		walkrow "reverse/MADV_NORMAL/$NORMAL_SIZE" normal "$NORMAL_SIZE" "$p"
	done
fi
if [ -x "$C/bin/lmdb_scan" ]; then
	mkdir -p "$SCRATCH/lmdb"
	"$C/bin/lmdb_scan" fill "$SCRATCH/lmdb" "$LMDB_MIB" >/dev/null || exit 1
	for p in $PROFILES; do
		lmdbrow "LMDB-reverse-cursor/${LMDB_MIB}M/ra$LMDB_RA" "$p"
	done
fi
rapolicyctl profile stock >/dev/null

echo
printf '%-36s %26s %18s %24s %8s\n' workload "major faults stock/seed/best" "MiB read" "wall ms stock/seed/best" "best"
echo "$rows" | awk '
NF == 5 {
	if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
	maj[$1, $2] = $3; mib[$1, $2] = $4; ms[$1, $2] = $5
}
END {
	for (i = 1; i <= n; i++) {
		w = order[i]
		sp = (ms[w, "best"] > 0) ? sprintf("%.1fx", ms[w, "stock"] / ms[w, "best"]) : "-"
		printf "%-36s %26s %18s %24s %8s\n", w,
			maj[w, "stock"] " / " maj[w, "seed"] " / " maj[w, "best"],
			mib[w, "stock"] "/" mib[w, "seed"] "/" mib[w, "best"],
			sprintf("%.0f / %.0f / %.0f", ms[w, "stock"], ms[w, "seed"], ms[w, "best"]), sp
	}
}'
echo
echo "profiles (rapolicyctl profile NAME):"
# `rapolicyctl profile` lists them: "  NAME   what it is: POLICY=VALUE ..."
for p in seed best; do
	echo "  $p = $(rapolicyctl profile 2>/dev/null | sed -n "s/^ *${p} .*: //p" | head -n 1)"
done
echo "best = stock wall time / best's (TCG: CPU-bound, indicative only)."
case $(uname -r) in
6.12.*) echo "6.12: stock's MADV_HUGEPAGE reverse walk takes one fault per PMD folio (no per-page regression, unlike 7.3); its MADV_SEQUENTIAL reverse walk takes one per page and the read-around walk one per window, as on 7.3." ;;
esac
[ ! -x "$C/bin/lmdb_scan" ] ||
	echo "LMDB: tests/clients/lmdb_scan.c, MDB_LAST then MDB_PREV over a ${LMDB_MIB} MiB database, read_ahead_kb $LMDB_RA."
