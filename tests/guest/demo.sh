#!/bin/sh
# make demo, guest side: the seed's reverse walk under MADV_HUGEPAGE and
# MADV_SEQUENTIAL (one byte per page, last page first, cold cache,
# read_ahead_kb 8192) with every policy off (stock) and with the seed
# policies on, as a table.
. "$(dirname "$0")/lib.sh"

HUGE_SIZE=${HUGE_SIZE:-512M}
SEQ_SIZE=${SEQ_SIZE:-256M}

modprobe rapolicy || { echo "demo: cannot load rapolicy"; exit 1; }
echo "rapolicy $(cat $RAPOLICY_SYSFS/version) on $(uname -r); read_ahead_kb 8192"
echo "files: $HUGE_SIZE (MADV_HUGEPAGE), $SEQ_SIZE (MADV_SEQUENTIAL) on ext4/virtio-blk"

seed_profile() {
	set_policy descending_thp folio && set_policy pmd_hit on &&
		set_policy descending_seq window
}

# run LABEL ADVICE SIZE PROFILE: one walk, one table row saved in $rows
rows=""
run() {
	file=$(testfile "$3") || exit 1
	all_policies_off || exit 1
	[ "$4" = seed ] && { seed_profile || exit 1; }
	echo "... $1, policies $4" >&2
	walk "$2" reverse "$file" || exit 1
	ms=$(report wall_ms)
	rows="$rows$1 $4 $walk_major $((walk_sectors / 2048)) $walk_ios $ms
"
}

run "reverse/MADV_HUGEPAGE/$HUGE_SIZE" huge "$HUGE_SIZE" stock
run "reverse/MADV_HUGEPAGE/$HUGE_SIZE" huge "$HUGE_SIZE" seed
run "reverse/MADV_SEQUENTIAL/$SEQ_SIZE" seq "$SEQ_SIZE" stock
run "reverse/MADV_SEQUENTIAL/$SEQ_SIZE" seq "$SEQ_SIZE" seed
all_policies_off

echo
printf '%-30s %-8s %12s %8s %8s %10s %8s\n' workload policies "major faults" "MiB read" "I/Os" "wall ms" "ratio"
echo "$rows" | awk '
NF == 6 {
	if ($2 == "stock") base[$1] = $6
	ratio = ($2 == "stock" || $6 == 0) ? "1.00x" : sprintf("%.1fx", base[$1] / $6)
	printf "%-30s %-8s %12d %8d %8d %10d %8s\n", $1, $2, $3, $4, $5, $6, ratio
}'
echo
echo "policies seed = descending_thp=folio pmd_hit=on descending_seq=window;"
echo "ratio = stock wall time / this row's wall time (TCG: CPU-bound, indicative only)."
