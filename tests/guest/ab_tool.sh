#!/bin/sh
# rapolicyctl ab against the real module (TAP): ab set and its validation,
# ab assign cgroup/sample/off, ab status, and ab report after the reverse
# MADV_HUGEPAGE walk in two cgroups (arm B = descending_thp, pmd_hit,
# descending_seq).
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
rapolicyctl profile stock >/dev/null && rapolicyctl ab assign off >/dev/null
tap $? "start from stock policies and no A/B assignment"

# ab set: arm B's files, not arm A's
rapolicyctl ab set descending_thp=folio pmd_hit=on descending_seq=window >/tmp/ab_tool.out
tap $? "ab set descending_thp=folio pmd_hit=on descending_seq=window"
grep -q " \[folio\]" "$AB/descending_thp" && grep -q " \[on\]" "$AB/pmd_hit" &&
	grep -q " \[window\]" "$AB/descending_seq"
tap $? "ab set wrote arm B's files"
grep -q "^\[off\] " "$RAPOLICY_SYSFS/descending_thp" &&
	grep -q "^\[off\] " "$RAPOLICY_SYSFS/pmd_hit" &&
	grep -q "^\[off\] " "$RAPOLICY_SYSFS/descending_seq"
tap $? "arm A's policies are untouched"
[ "$(cat /tmp/ab_tool.out)" = "descending_thp: off -> folio
pmd_hit: off -> on
descending_seq: off -> window" ]
tap $? "ab set reports each change"

unchanged_after "ab set with a bad value" rapolicyctl ab set vma_limit=always descending_seq=bogus
unchanged_after "ab set mode=cgroup (not a policy)" rapolicyctl ab set mode=cgroup
unchanged_after "ab set sync_mmap_order=99" rapolicyctl ab set sync_mmap_order=99
unchanged_after "ab assign cgroup to a missing cgroup" rapolicyctl ab assign cgroup /no-such-cgroup
unchanged_after "ab assign cgroup with a relative path" rapolicyctl ab assign cgroup canary
unchanged_after "ab assign sample 1001" rapolicyctl ab assign sample 1001
unchanged_after "ab assign sample with a bad salt" rapolicyctl ab assign sample 10 --salt x
unchanged_after "ab assign something else" rapolicyctl ab assign everyone

# ab assign cgroup, by cgroup path and by file system path
mkdir -p "$CG/ab_tool_canary" "$CG/ab_tool_control"
rapolicyctl ab assign cgroup /ab_tool_canary >/dev/null &&
	grep -qx /ab_tool_canary "$AB/cgroup" && grep -qx "off \[cgroup\] sample" "$AB/mode"
tap $? "ab assign cgroup /ab_tool_canary writes ab/cgroup and ab/mode"
out=$(rapolicyctl ab assign cgroup "$CG/ab_tool_canary/")
[ "$out" = "cgroup: /ab_tool_canary (unchanged)
mode: cgroup (unchanged)" ]
tap $? "ab assign cgroup $CG/ab_tool_canary/ is the same cgroup"
rapolicyctl ab status >/tmp/ab_tool.out
grep -qx "mode:    cgroup /ab_tool_canary" /tmp/ab_tool.out &&
	grep -q "^A -> B:  descending_thp off -> folio, pmd_hit off -> on, descending_seq off -> window$" /tmp/ab_tool.out
tap $? "ab status shows the assignment and what arm B changes"
rapolicyctl status | grep -qx "ab:      cgroup /ab_tool_canary"
tap $? "status shows the A/B assignment"

# The reverse MADV_HUGEPAGE walk of the module issue in each cgroup
in_cgroup() {
	_cg=$1
	shift
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$CG/$_cg" "$@"
}
fa=$(testfile 256M) && cp "$fa" "$SCRATCH/ab_tool-b" && fb=$SCRATCH/ab_tool-b
rapolicyctl stats reset
in_cgroup ab_tool_control rawalk --advice huge --pattern reverse --read-ahead-kb 8192 "$fa" >/dev/null &&
	in_cgroup ab_tool_canary rawalk --advice huge --pattern reverse --read-ahead-kb 8192 "$fb" >/dev/null
tap $? "the walks in /ab_tool_control (arm A) and /ab_tool_canary (arm B)"
rapolicyctl ab report >/tmp/ab_tool.report
tap $? "ab report"
sed 's/^/# /' /tmp/ab_tool.report
counts=$(sed -n 's/^sync_miss  *\([0-9]*\)  *\([0-9]*\)$/\1 \2/p' /tmp/ab_tool.report)
miss_a=${counts% *} miss_b=${counts#* }
[ -n "$counts" ] && [ "$miss_a" = "$(cat "$RAPOLICY_SYSFS/stats/a/sync_miss")" ] &&
	[ "$miss_b" = "$(cat "$RAPOLICY_SYSFS/stats/b/sync_miss")" ]
tap $? "ab report shows both arms' counters ($miss_a, $miss_b major faults)"
[ -n "$counts" ] && [ "$miss_a" -ge 10000 ] && [ $((miss_b * 100)) -le "$miss_a" ]
tap $? "arm B takes a small fraction of arm A's major faults ($miss_b of $miss_a)"
grep -q "^verdict: arm B takes [0-9.]*% of arm A's major faults per 1000 mmap faults (B better)$" \
	/tmp/ab_tool.report
tap $? "the verdict is decided, for B ($(grep '^verdict' /tmp/ab_tool.report))"
rapolicyctl ab report --json | grep -q '"verdict":{"decided":true,'
tap $? "ab report --json: decided"
rapolicyctl ab report --prometheus >/tmp/ab_tool.out &&
	grep -qx "rapolicy_ab_sync_miss{arm=\"a\"} $miss_a" /tmp/ab_tool.out &&
	grep -qx "rapolicy_ab_sync_miss{arm=\"b\"} $miss_b" /tmp/ab_tool.out &&
	grep -qx "rapolicy_ab_verdict_decided 1" /tmp/ab_tool.out
tap $? "ab report --prometheus: per-arm counters, decided"

# ab assign sample and off
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
rm -f "$fb"
rmmod rapolicy
tap $? "rmmod after rapolicyctl ab"
