#!/bin/sh
# A/B arms in the module (TAP): cgroup assignment, sample assignment,
# per-arm counters, switching the mode under load, removing the cgroup.
. "$(dirname "$0")/lib.sh"

AB=$RAPOLICY_SYSFS/ab
CG=/sys/fs/cgroup
# Major faults of every task, an independent count for the global counters
pgmajfault() { sed -n 's/^pgmajfault //p' /proc/vmstat; }

# in_cgroup NAME COMMAND...: run COMMAND as a task of cgroup NAME
in_cgroup() {
	_cg=$1
	shift
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$CG/$_cg" "$@"
}

modprobe rapolicy || { tap 1 "load rapolicy"; exit 1; }
all_policies_off
for p in descending_thp:folio pmd_hit:on descending_seq:window; do
	echo "${p#*:}" >"$AB/${p%%:*}"
done
mkdir -p "$CG/arm_a" "$CG/arm_b"
echo /arm_b >"$AB/cgroup" && echo cgroup >"$AB/mode"
tap $? "assign arm B to cgroup /arm_b"
grep -qx "/arm_b" "$AB/cgroup"
tap $? "ab/cgroup reads back /arm_b"

# A MADV_HUGEPAGE reverse walk of 256 MiB, 128 PMD folios: stock reads a
# folio per miss until mmap_miss passes MMAP_LOTSAMISS (100), then a page
# per miss; the seed profile about one miss per two folios.
fa=$(testfile 256M) && cp "$fa" "$SCRATCH/ab-b" && fb=$SCRATCH/ab-b
folios=$((256 * 1024 / 2048))
stock=$((100 + (folios - 100) * 512))
echo 1 >"$RAPOLICY_SYSFS/stats/reset"
RA=8192
g0=$(pgmajfault)
in_cgroup arm_a rawalk --advice huge --pattern reverse --read-ahead-kb $RA "$fa" >/tmp/a.out
g1=$(pgmajfault)
in_cgroup arm_b rawalk --advice huge --pattern reverse --read-ahead-kb $RA "$fb" >/tmp/b.out
g2=$(pgmajfault)
maj_a=$(sed -n 's/^major_faults: //p' /tmp/a.out)
maj_b=$(sed -n 's/^major_faults: //p' /tmp/b.out)
miss_a=$(counter sync_miss a) miss_b=$(counter sync_miss b)
echo "# arm A: rawalk $maj_a majflt, stats/a/sync_miss $miss_a, all tasks $((g1 - g0)); arm B: $maj_b, $miss_b, $((g2 - g1))"
# Only the walker runs in /arm_b: arm B's counter is its faults exactly.
[ "$miss_b" = "$maj_b" ] && [ "$maj_b" -le $((folios / 2 + 2)) ]
tap $? "cgroup mode: arm B (seed) counts its walker's misses, <= $((folios / 2 + 2)) ($miss_b)"
# Arm A is every other task: its counter covers its walker's faults, and
# no more faults than all tasks took while it ran.
# (within 1% below the formula, as tests/guest/neutrality.sh explains)
[ "$maj_a" -le "$stock" ] && [ "$maj_a" -ge $((stock - stock / 100)) ] &&
	[ "$miss_a" -ge "$maj_a" ] && [ "$miss_a" -le $((g1 - g0)) ]
tap $? "cgroup mode: arm A (stock) takes the stock $stock misses, all counted ($miss_a)"
[ "$(counter descending_thp b)" -gt 0 ] && [ "$(counter descending_thp a)" = 0 ]
tap $? "only arm B took descending_thp decisions"
[ "$(counter sync_miss)" = $((miss_a + miss_b)) ]
tap $? "stats/sync_miss is the sum of the arms"
# buckets_within COLUMN STAT: the buckets' sum of COLUMN (3 sync_miss, 4
# pages_read) lies between STAT of both arms read before and after them
buckets_within() {
	_lo=$(( $(counter "$2" a) + $(counter "$2" b) ))
	_sum=$(awk -v c="$1" '{ s += $c } END { print s + 0 }' "$RAPOLICY_SYSFS/stats/buckets")
	_hi=$(( $(counter "$2" a) + $(counter "$2" b) ))
	echo "# buckets' $2 $_sum, the arms' $_lo..$_hi"
	[ "$_lo" -le "$_sum" ] && [ "$_sum" -le "$_hi" ] && [ "$_sum" -gt 0 ]
}
buckets_within 3 sync_miss
tap $? "cgroup mode: every miss counted in one bucket"
buckets_within 4 pages_read
tap $? "cgroup mode: every page read counted in one bucket"
[ "$(awk '$2 == "-"' "$RAPOLICY_SYSFS/stats/buckets" | wc -l)" = 64 ]
tap $? "cgroup mode: no bucket has an arm of its own"

# Sample mode: which arm a file is in, seen from the counters.
echo sample >"$AB/mode" && echo 300 >"$AB/sample_permille" && echo 7 >"$AB/salt"
arms_of_files() {
	i=0
	while [ $i -lt 100 ]; do
		echo 1 >"$RAPOLICY_SYSFS/stats/reset"
		rawalk --pattern forward --read-ahead-kb 128 "$SCRATCH/s$i" >/dev/null
		[ "$(counter sync_miss b)" -gt 0 ] && printf 'B' || printf 'A'
		i=$((i + 1))
	done
}
i=0
while [ $i -lt 100 ]; do
	rawalk --create 64K --seed $i "$SCRATCH/s$i" >/dev/null
	i=$((i + 1))
done
first=$(arms_of_files)
second=$(arms_of_files)
in_b=$(echo "$first" | tr -cd B | wc -c)
echo "# sample 300 permille, salt 7: $in_b of 100 files in arm B"
[ "$first" = "$second" ]
tap $? "sample mode: every file stays in its arm across runs"
# binomial(100, 0.3): mean 30, sd 4.6; 3 sd either side
[ "$in_b" -ge 16 ] && [ "$in_b" -le 44 ]
tap $? "sample mode: 100 files split near 300 permille ($in_b in B)"
echo 8 >"$AB/salt"
third=$(arms_of_files)
[ "$third" != "$first" ]
tap $? "sample mode: another salt, another split"
# 300 permille of 64 buckets: 19.2, rounded to 19
[ "$(awk '$2 == "b"' "$RAPOLICY_SYSFS/stats/buckets" | wc -l)" = 19 ] &&
	[ "$(awk '$2 == "a"' "$RAPOLICY_SYSFS/stats/buckets" | wc -l)" = 45 ]
tap $? "sample mode: 19 of the 64 buckets in arm B at 300 permille"
echo 1 >"$RAPOLICY_SYSFS/stats/reset"
i=0
while [ $i -lt 100 ]; do
	rawalk --pattern forward --read-ahead-kb 128 "$SCRATCH/s$i" >/dev/null || break
	i=$((i + 1))
done
[ $i = 100 ]
tap $? "sample mode: walk the 100 files"
buckets_within 3 sync_miss
tap $? "sample mode: every miss counted in one bucket"
b_lo=$(counter sync_miss b)
b_sum=$(awk '$2 == "b" { s += $3 } END { print s + 0 }' "$RAPOLICY_SYSFS/stats/buckets")
b_hi=$(counter sync_miss b)
[ "$b_lo" -le "$b_sum" ] && [ "$b_sum" -le "$b_hi" ] && [ "$b_sum" -gt 0 ]
tap $? "sample mode: arm B's buckets hold arm B's misses ($b_sum, arm B $b_lo..$b_hi)"
echo 1 >"$RAPOLICY_SYSFS/stats/reset"
[ "$(awk '$3 != 0 || $4 != 0' "$RAPOLICY_SYSFS/stats/buckets" | wc -l)" -le 2 ]
tap $? "stats/reset zeroes the buckets (but for a fault or two since)"

# Switching the mode under load loses no counts.
echo 1 >"$RAPOLICY_SYSFS/stats/reset"
g0=$(pgmajfault)
rawalk --advice huge --pattern reverse --read-ahead-kb $RA "$fa" >/tmp/w.out &
walker=$!
while kill -0 $walker 2>/dev/null; do
	for m in off cgroup sample; do echo $m >"$AB/mode"; done
done
wait $walker
g1=$(pgmajfault)
maj=$(sed -n 's/^major_faults: //p' /tmp/w.out)
total=$(( $(counter sync_miss a) + $(counter sync_miss b) ))
echo "# mode flipping during a walk: walker $maj major faults, $total counted, all tasks $((g1 - g0))"
[ -n "$maj" ] && [ "$total" -ge "$maj" ] && [ "$total" -le $((g1 - g0)) ]
tap $? "switching modes during a walk: the walker's misses counted, none twice"

# cgroup mode without ab/cgroup: cgroups drawn into the buckets. A walker
# in its own cgroup faults into one bucket (its cgroup's), in that
# bucket's arm.
echo >"$AB/cgroup" && echo cgroup >"$AB/mode" && echo 500 >"$AB/sample_permille"
[ "$(awk '$2 == "b"' "$RAPOLICY_SYSFS/stats/buckets" | wc -l)" = 32 ]
tap $? "cgroup mode without a cgroup: 32 of 64 buckets in arm B at 500 permille"
for cg in arm_a arm_b; do
	echo 1 >"$RAPOLICY_SYSFS/stats/reset"
	in_cgroup $cg rawalk --advice huge --pattern reverse --read-ahead-kb $RA "$fa" >/tmp/c.out
	maj=$(sed -n 's/^major_faults: //p' /tmp/c.out)
	top=$(sort -k3 -n -r "$RAPOLICY_SYSFS/stats/buckets" | head -n 1)
	arm=$(echo "$top" | cut -d' ' -f2) n=$(echo "$top" | cut -d' ' -f3)
	[ -n "$maj" ] && [ "$n" -ge "$maj" ] && [ "$(counter sync_miss "$arm")" -ge "$maj" ]
	tap $? "cgroups: /$cg's walker faults in one bucket ($n >= $maj), counted in its arm $arm"
done
echo 0 >"$AB/sample_permille" && echo /arm_b >"$AB/cgroup"

# Removing the assigned cgroup is safe.
echo cgroup >"$AB/mode"
rmdir "$CG/arm_b"
grep -qx "/arm_b (removed)" "$AB/cgroup"
tap $? "a removed cgroup reads back as removed ($(cat "$AB/cgroup"))"
rawalk --advice huge --pattern forward "$fa" >/dev/null
tap $? "faults go on after the assigned cgroup is removed"
echo /arm_a >"$AB/cgroup" && grep -qx /arm_a "$AB/cgroup"
tap $? "reassign after removal"
echo >"$AB/cgroup" && [ -z "$(cat "$AB/cgroup")" ]
tap $? "clear the cgroup"
echo off >"$AB/mode"
rmmod rapolicy
tap $? "rmmod after A/B use"
rmdir "$CG/arm_a"
tap_end
