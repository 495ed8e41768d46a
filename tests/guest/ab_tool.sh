#!/bin/sh
# rapolicyctl ab against the real module (TAP): ab set and its validation,
# ab assign cgroup/sample/off, ab status, and ab report over blocks of
# walks: arm B = descending streams against stock, and an A/A test.
. "$(dirname "$0")/lib.sh"

AB=$RAPOLICY_SYSFS/ab
CG=/sys/fs/cgroup

# ab_state: every file of ab/, one "name: content" line each
ab_state() {
	for f in "$AB"/*; do echo "$(basename "$f"): $(cat "$f")"; done
}

# unchanged_after DESCRIPTION COMMAND...: COMMAND exits 2, ab/ stays as it was
unchanged_after() {
	desc=$1
	shift
	before=$(ab_state)
	"$@" >/tmp/ab_tool.out 2>/tmp/ab_tool.err
	rc=$?
	[ $rc = 2 ] && [ "$(ab_state)" = "$before" ] && [ ! -s /tmp/ab_tool.out ]
	tap $? "$desc: exit 2 ($rc), nothing written: $(head -n 1 /tmp/ab_tool.err)"
}

modprobe rapolicy || { tap 1 "load rapolicy"; exit 1; }
rapolicyctl profile stock >/dev/null && rapolicyctl profile --arm b stock >/dev/null &&
	rapolicyctl ab assign off >/dev/null
tap $? "start from stock policies and no A/B assignment"

rapolicyctl ab set descending_thp=folio pmd_hit=on descending_seq=window >/tmp/ab_tool.out
tap $? "ab set descending_thp=folio pmd_hit=on descending_seq=window"
grep -q " \[folio\]" "$AB/descending_thp" && grep -q " \[on\]" "$AB/pmd_hit" &&
	grep -q " \[window\]" "$AB/descending_seq"
tap $? "ab set wrote arm B's files"
grep -q "^\[off\] " "$RAPOLICY_SYSFS/descending_thp" &&
	grep -q "^\[off\] " "$RAPOLICY_SYSFS/pmd_hit" &&
	grep -q "^\[off\] " "$RAPOLICY_SYSFS/descending_seq"
tap $? "arm A's policies are untouched"
[ "$(cat /tmp/ab_tool.out)" = "ab/descending_thp: off -> folio
ab/pmd_hit: off -> on
ab/descending_seq: off -> window" ]
tap $? "ab set reports each change"

unchanged_after "ab set with a bad value" rapolicyctl ab set vma_limit=always descending_seq=bogus
unchanged_after "ab set mode=cgroup (not a policy)" rapolicyctl ab set mode=cgroup
unchanged_after "ab set sync_mmap_order=99" rapolicyctl ab set sync_mmap_order=99
unchanged_after "ab assign cgroup to a missing cgroup" rapolicyctl ab assign cgroup /no-such-cgroup
unchanged_after "ab assign cgroup with a relative path" rapolicyctl ab assign cgroup canary
unchanged_after "ab assign sample 1001" rapolicyctl ab assign sample 1001
unchanged_after "ab assign sample with a bad salt" rapolicyctl ab assign sample 10 --salt x
unchanged_after "ab assign something else" rapolicyctl ab assign everyone

mkdir -p "$CG/ab_tool_canary" "$CG/ab_tool_control"
rapolicyctl ab assign cgroup /ab_tool_canary >/dev/null &&
	grep -qx /ab_tool_canary "$AB/cgroup" && grep -qx "off \[cgroup\] sample" "$AB/mode"
tap $? "ab assign cgroup /ab_tool_canary writes ab/cgroup and ab/mode"
out=$(rapolicyctl ab assign cgroup "$CG/ab_tool_canary/")
[ $? = 0 ] && [ -z "$out" ]
tap $? "ab assign cgroup $CG/ab_tool_canary/ is the same cgroup: nothing to write"
rapolicyctl ab status >/tmp/ab_tool.out
grep -qx "mode:    cgroup /ab_tool_canary" /tmp/ab_tool.out &&
	grep -q "^A -> B:  descending_thp off -> folio, pmd_hit off -> on, descending_seq off -> window$" /tmp/ab_tool.out
tap $? "ab status shows the assignment and what arm B changes"
rapolicyctl status | grep -qx "ab:      cgroup /ab_tool_canary"
tap $? "status shows the A/B assignment"

in_cgroup() {
	_cg=$1
	shift
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$CG/$_cg" "$@"
}

# blocks N SAMPLES: N blocks, each a cold reverse walk of its own 32 MiB
# file in each arm (MADV_NORMAL: read-around), a sample after each block
blocks() {
	: >"$2"
	rapolicyctl stats reset
	rapolicyctl ab sample >>"$2" || return 1
	i=1
	while [ $i -le "$1" ]; do
		in_cgroup ab_tool_control rawalk --pattern reverse --read-ahead-kb 8192 \
			"$SCRATCH/ab_tool-a$i" >/dev/null &&
		in_cgroup ab_tool_canary rawalk --pattern reverse --read-ahead-kb 8192 \
			"$SCRATCH/ab_tool-b$i" >/dev/null &&
		rapolicyctl ab sample >>"$2" || return 1
		i=$((i + 1))
	done
}
ok=0
for i in 1 2 3 4 5 6; do
	rawalk --create 32M --seed $i "$SCRATCH/ab_tool-a$i" >/dev/null &&
		rawalk --create 32M --seed $((i + 10)) "$SCRATCH/ab_tool-b$i" >/dev/null || ok=1
done
tap $ok "twelve 32 MiB files"

# A/B: arm B the descending streams of profile best, arm A stock
rapolicyctl profile --arm b best >/dev/null
blocks 6 /tmp/ab.samples
tap $? "six blocks of walks in /ab_tool_control (arm A) and /ab_tool_canary (arm B)"
rapolicyctl ab report --samples /tmp/ab.samples >/tmp/ab_tool.report
tap $? "ab report --samples"
sed 's/^/# /' /tmp/ab_tool.report
grep -q "^verdict: B better " /tmp/ab_tool.report
tap $? "the verdict: B better ($(grep '^verdict' /tmp/ab_tool.report))"
miss_a=$(sed -n 's/^major faults (sync_miss)  *\([0-9]*\)  *\([0-9]*\)$/\1/p' /tmp/ab_tool.report)
[ "$miss_a" = "$(counter sync_miss a)" ]
tap $? "the report's arm A major faults are the module's ($miss_a)"
grep -q "^pages read (pages_read) " /tmp/ab_tool.report && grep -q "cover [0-9.]* s since the last reset" /tmp/ab_tool.report
tap $? "the report shows pages read and the time covered"
rapolicyctl ab report --samples /tmp/ab.samples --json | grep -q '"verdict": "B better"'
tap $? "ab report --json"

# A/A: both arms stock, over six other pairs of files
rapolicyctl profile --arm b stock >/dev/null
blocks 6 /tmp/aa.samples
rapolicyctl ab report --samples /tmp/aa.samples >/tmp/ab_tool.report
grep -q "^verdict: no significant difference" /tmp/ab_tool.report
tap $? "A/A: no significant difference"
sed 's/^/# /' /tmp/ab_tool.report

# A change after the reset is flagged; no verdict with the mode off
rapolicyctl ab set pmd_hit=on >/dev/null
rapolicyctl ab report | grep -q "^warning: [0-9]* setting changes since the last reset"
tap $? "ab report warns about a setting change since the reset"
rapolicyctl ab assign off >/dev/null
rapolicyctl ab report | grep -q "^verdict: none (the A/B mode is off"
tap $? "no verdict while the mode is off"
rapolicyctl ab report --every 0.1 --blocks 2 | grep -q "^verdict: none"
tap $? "ab report --every samples by itself"

rapolicyctl ab assign sample 300 --salt 7 >/dev/null &&
	grep -qx 300 "$AB/sample_permille" && grep -qx 7 "$AB/salt" &&
	grep -qx "off cgroup \[sample\]" "$AB/mode"
tap $? "ab assign sample 300 --salt 7"
rapolicyctl ab assign sample 1000 --salt 0x10 >/dev/null &&
	grep -qx 1000 "$AB/sample_permille" && grep -qx 16 "$AB/salt"
tap $? "ab assign sample 1000 --salt 0x10 (hex salt written as 16)"
rapolicyctl status | grep -qx "ab:      sample 1000 permille, salt 16"
tap $? "status shows permille and salt"
rapolicyctl ab assign off >/dev/null && grep -qx "\[off\] cgroup sample" "$AB/mode"
tap $? "ab assign off"

rmdir "$CG/ab_tool_canary" "$CG/ab_tool_control"
rapolicyctl ab status | grep -qx "mode:    off"
tap $? "ab status after the cgroups are gone"
rm -f "$SCRATCH"/ab_tool-*
rmmod rapolicy
tap $? "rmmod after rapolicyctl ab"
tap_end
