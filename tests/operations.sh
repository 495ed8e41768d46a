#!/bin/bash
# docs/OPERATIONS.md, run as written (TAP): every ```sh block after an
# "operations-test" marker, in order, in one boot of the patched test
# kernel; each run of a block one test, which passes when every command of
# it succeeds (sh -e). Before each the guest runs "traffic": a cold reverse
# walk of 24 files of 256 KiB to 2 MiB, so the A/B periods have faults to
# count. The blocks between "repeat N" and "end repeat" run N times in
# turn; in a block after "durations" the A/B plan's --period and --washout
# become 60 and 0 seconds. The canary's report must find arm B (best)
# better than arm A (stock) on the traffic's reverse walks.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/tap.sh"
doc=$top/docs/OPERATIONS.md
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

mkdir -p "$T/ops/blocks"
# Each marked block to blocks/NN.sh (its section in NN.name); the order to
# run them in, repeats expanded, to blocks/plan ("NN K N": run K of N)
awk -v dir="$T/ops/blocks" '
	/^## / { section = $0; sub(/^## [0-9]+\. /, "", section) }
	/^<!-- operations-test -->$/ { armed = 1; next }
	/^<!-- operations-test: durations -->$/ { armed = 1; durations = 1; next }
	/^<!-- operations-test: repeat [0-9]+ -->$/ { reps = $4; ng = 0; next }
	/^<!-- operations-test: end repeat -->$/ {
		for (k = 1; k <= reps; k++)
			for (i = 1; i <= ng; i++)
				print group[i], k, reps > (dir "/plan")
		reps = 0; next }
	(armed || reps) && /^```sh$/ {
		n++; id = sprintf("%02d", n); f = dir "/" id ".sh"; inblock = 1
		print section > (dir "/" id ".name")
		close(dir "/" id ".name")
		if (reps) group[++ng] = id; else print id, 1, 1 > (dir "/plan")
		armed = 0; next }
	inblock && /^```$/ { inblock = 0; durations = 0; close(f); next }
	inblock && durations {
		gsub(/--period [0-9]+/, "--period 60"); gsub(/--washout [0-9]+/, "--washout 0") }
	inblock { print > f }
' "$doc"
blocks=$(ls "$T/ops/blocks"/*.sh 2>/dev/null | wc -l)
all=$(grep -c '^```sh$' "$doc")
runs=$(wc -l <"$T/ops/blocks/plan" 2>/dev/null)
[ "$blocks" -ge 8 ] && [ "$blocks" = "$all" ] && [ "${runs:-0}" -gt "$blocks" ]
tap $? "docs/OPERATIONS.md: $blocks of its $all sh blocks are marked to run, ${runs:-0} runs"

cat >"$T/ops/run.sh" <<'GUEST'
#!/bin/sh
# In the guest: the runbook's blocks in the plan's order, a result line per
# run for the host, the traffic before each.
S=${RAPOLICY_SCRATCH:-/mnt/scratch}
i=0
while [ $i -lt 24 ]; do
	rawalk --create $((256 << (i % 4)))K --seed $i "$S/ops-f$i" >/dev/null || echo "@traffic-failed"
	i=$((i + 1))
done
traffic() {
	for f in "$S"/ops-f*; do
		rawalk --pattern reverse --read-ahead-kb 128 --cold "$f" >/dev/null || echo "@traffic-failed"
	done
}
while read -r id k reps; do
	traffic
	sh -e "/add/ops/blocks/$id.sh" >/tmp/ops.out 2>&1
	rc=$?
	sed 's/^/# /' /tmp/ops.out | tail -n 12
	echo "@block $id $k $rc"
done </add/ops/blocks/plan
GUEST

start=$(date +%s)
out=$("$top/tests/vm/vm-run" --timeout 900 --mem 1024 --add "$T/ops" -- sh /add/ops/run.sh 2>&1)
rc=$?
echo "$out" | grep '^# ' | grep -v '^# *$' | tail -n 80
[ "$rc" = 0 ] && ! echo "$out" | grep -q '^@traffic-failed'
tap $? "the guest ran the runbook, its traffic walks included ($(($(date +%s) - start)) s, exit $rc)"
while read -r id k reps; do
	echo "$out" | grep -qx "@block $id $k 0"
	tap $? "OPERATIONS.md, $(cat "$T/ops/blocks/$id.name"): block $id$([ "$reps" = 1 ] ||
		echo ", period $k of $reps"): $(head -n 1 "$T/ops/blocks/$id.sh")"
done <"$T/ops/blocks/plan"
echo "$out" | grep '^# verdict: ' | comment
echo "$out" | grep -q '^# verdict: B better'
tap $? "the canary's report: B better"
echo "1..$n"
[ "$fails" = 0 ]
