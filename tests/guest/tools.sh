#!/bin/sh
# rapolicyctl against the real module, and rawalk's counts against the
# kernel's own /proc/vmstat (TAP).
. "$(dirname "$0")/lib.sh"

vmstat() { sed -n "s/^$1 //p" /proc/vmstat; }

modprobe rapolicy || { tap 1 "load rapolicy"; exit 1; }
all_policies_off
rapolicyctl status >/tmp/status.out
tap $? "rapolicyctl status with the module loaded"
grep -q "^descending_around " /tmp/status.out && grep -qx "profile: stock" /tmp/status.out
tap $? "status lists the policies and names the stock profile"

rapolicyctl set descending_thp=folio pmd_hit=on >/dev/null &&
	grep -q "\[folio\]" "$RAPOLICY_SYSFS/descending_thp" &&
	grep -q "\[on\]" "$RAPOLICY_SYSFS/pmd_hit"
tap $? "rapolicyctl set writes the module's files"
[ "$(rapolicyctl get descending_thp pmd_hit | tr '\n' ' ')" = "descending_thp=folio pmd_hit=on " ]
tap $? "rapolicyctl get reads them back"
[ "$(rapolicyctl get -n pmd_hit)" = on ]
tap $? "get -n"

rapolicyctl set vma_limit=always descending_seq=bogus 2>/tmp/err
rc=$?
[ $rc = 2 ] && grep -q "^\[none\]" "$RAPOLICY_SYSFS/vma_limit" &&
	grep -q "^\[off\]" "$RAPOLICY_SYSFS/descending_seq"
tap $? "a bad pair: exit 2 ($rc), nothing written"
grep -q "window" /tmp/err
tap $? "the error names the allowed values ($(head -n 1 /tmp/err))"
rapolicyctl set sync_mmap_order=99 2>/dev/null
[ $? = 2 ] && grep -q "^\[off\]" "$RAPOLICY_SYSFS/sync_mmap_order"
tap $? "an out-of-range order is refused"
max=$(tr ' ' '\n' <"$RAPOLICY_SYSFS/sync_mmap_order" | tr -d '[]' | tail -n 1)
rapolicyctl set sync_mmap_order="$max" >/dev/null && grep -q "\[$max\]" "$RAPOLICY_SYSFS/sync_mmap_order"
tap $? "the largest order the module lists ($max) is taken"

# This kernel honours every value of the table: every file lists them all
# (the table's, as rapolicyctl prints it; orders 0 up to the largest) and
# rapolicyctl calls nothing unavailable
ok=0
rapolicyctl set --help | sed -n '/^Policies/,/^$/s/^  //p' >/tmp/table
while read -r name vals; do
	want=$(echo "$vals" | sed "s/ 0\.\.N (a folio order)/ $(seq -s ' ' 0 "$max")/")
	for d in "" ab/; do
		got=$(tr -d '[]' <"$RAPOLICY_SYSFS/$d$name")
		[ "$got" = "$want" ] || { echo "# $d$name: '$got', table: '$want'"; ok=1; }
	done
done </tmp/table
[ -s /tmp/table ] && [ $ok = 0 ]
tap $? "every policy file lists every value of the table ($(wc -l </tmp/table) policies)"
! rapolicyctl status | grep -q unavailable &&
	rapolicyctl status --json | tr -d ' \n' | grep -q '"unavailable":\[\]'
tap $? "rapolicyctl status: nothing unavailable on $(uname -r)"

# Profiles are absolute
rapolicyctl profile seed >/dev/null && rapolicyctl profile best >/dev/null &&
	[ "$(rapolicyctl get | grep -v '^streams_' | tr '\n' ' ')" = "descending_thp=stream pmd_hit=off descending_seq=stream vma_limit=none sync_mmap_order=off descending_around=stream streams=on bpf=off random_miss=fault " ]
tap $? "profile seed then best sets every policy as best says"
rapolicyctl status | grep -qx "profile: best" && rapolicyctl profile verify best >/dev/null
tap $? "status and profile verify: best"
echo on >"$RAPOLICY_SYSFS/pmd_hit"
rapolicyctl profile verify best >/tmp/out
[ $? = 1 ] && rapolicyctl status | grep -qx "profile: custom (best but pmd_hit=on)"
tap $? "a drift: profile verify exits 1, status says custom ($(cat /tmp/out))"

# save and apply
rapolicyctl save >/tmp/state.json
tap $? "save"
rapolicyctl profile stock >/dev/null && rapolicyctl apply /tmp/state.json >/dev/null &&
	[ "$(rapolicyctl save)" = "$(cat /tmp/state.json)" ]
tap $? "apply restores what save printed"
echo '{"b": {"vma_limit": "sometimes"}}' >/tmp/bad.json
rapolicyctl apply /tmp/bad.json 2>/dev/null
[ $? = 2 ] && [ "$(rapolicyctl save)" = "$(cat /tmp/state.json)" ]
tap $? "apply of a bad file: exit 2, nothing changed"
rapolicyctl status --json | grep -q '"version"'
tap $? "status --json"
rapolicyctl profile stock >/dev/null

# streams_max_kb, each arm's bound on its stream table: rapolicyctl writes
# it, the module checks the range (0 and 2^32-1 are outside it on every
# configuration), save and apply carry it
S=$RAPOLICY_SYSFS
echo 4096 >"$S/streams_max_kb" && echo 4096 >"$S/ab/streams_max_kb"
rapolicyctl status | grep -qE "^streams_max_kb +4096 +4096$" &&
	rapolicyctl status | grep -qE "^streams_bytes +[1-9][0-9]* +[1-9][0-9]*$" &&
	rapolicyctl get -n streams_bytes | grep -qE '^[1-9][0-9]*$' &&
	rapolicyctl status --json | tr -d ' \n' | grep -q '"b":{[^}]*"streams_max_kb":4096,"streams_bytes":[1-9]'
tap $? "status, get and status --json show both arms' streams_max_kb and streams_bytes"
rapolicyctl set streams_max_kb=8192 pmd_hit=on >/dev/null && [ "$(cat "$S/streams_max_kb")" = 8192 ] &&
	grep -q "\[on\]" "$S/pmd_hit" && rapolicyctl ab set streams_max_kb=2048 >/dev/null &&
	[ "$(cat "$S/ab/streams_max_kb")" = 2048 ] && [ "$(cat "$S/streams_max_kb")" = 8192 ]
tap $? "set and ab set write each arm's streams_max_kb"
rapolicyctl set pmd_hit=off streams_max_kb=0 >/dev/null 2>/tmp/err
rc=$?
[ $rc = 1 ] && [ "$(wc -l </tmp/err)" = 1 ] && grep -q "streams_max_kb: Invalid argument" /tmp/err &&
	[ "$(cat "$S/streams_max_kb")" = 8192 ] && grep -q "\[on\]" "$S/pmd_hit"
tap $? "a bound the module refuses (0): exit 1 ($rc), one line, nothing changed ($(cat /tmp/err))"
rapolicyctl ab set streams_max_kb=4294967295 >/dev/null 2>/tmp/err
rc=$?
[ $rc = 1 ] && [ "$(wc -l </tmp/err)" = 1 ] && [ "$(cat "$S/ab/streams_max_kb")" = 2048 ]
tap $? "and 4294967295 in arm B: exit 1 ($rc), one line, nothing changed"
rapolicyctl set streams_max_kb=8k 2>/tmp/err
[ $? = 2 ] && [ "$(wc -l </tmp/err)" = 1 ] && [ "$(cat "$S/streams_max_kb")" = 8192 ]
tap $? "a bound that is no number: exit 2, one line, nothing written"
rapolicyctl save >/tmp/kb.json && rapolicyctl set streams_max_kb=4096 >/dev/null &&
	rapolicyctl ab set streams_max_kb=4096 >/dev/null && rapolicyctl apply /tmp/kb.json >/dev/null &&
	[ "$(cat "$S/streams_max_kb")" = 8192 ] && [ "$(cat "$S/ab/streams_max_kb")" = 2048 ] &&
	[ "$(rapolicyctl save)" = "$(cat /tmp/kb.json)" ]
tap $? "save and apply round-trip both bounds"
echo '{"a": {}, "b": {}, "ab": {"mode": "off"}}' >/tmp/old.json
rapolicyctl apply /tmp/old.json >/dev/null && [ "$(cat "$S/streams_max_kb")" = 8192 ] &&
	[ "$(cat "$S/ab/streams_max_kb")" = 2048 ]
tap $? "a file without streams_max_kb (rapolicy.conf as shipped) leaves the bounds"
before=$(rapolicyctl save)
echo '{"b": {"streams_max_kb": 0}}' >/tmp/bad.json
rapolicyctl apply /tmp/bad.json >/dev/null 2>/tmp/err
rc=$?
[ $rc = 1 ] && [ "$(wc -l </tmp/err)" = 1 ] && [ "$(rapolicyctl save)" = "$before" ]
tap $? "apply of a bound the module refuses: exit 1 ($rc), one line, nothing changed"
rapolicyctl set streams_max_kb=4096 >/dev/null && rapolicyctl ab set streams_max_kb=4096 >/dev/null

rapolicyctl stats --prometheus >/tmp/prom
grep -q '^rapolicy_sync_miss_total{arm="a"} [0-9]' /tmp/prom &&
	grep -q '^rapolicy_pages_read_total{arm="b"} [0-9]' /tmp/prom && grep -qx 'rapolicy_up 1' /tmp/prom
tap $? "stats --prometheus: _total counters per arm, rapolicy_up 1"
rapolicyctl stats --interval 0.1 --count 1 | grep -qE '^20[0-9-]+T[0-9:]+Z B '
tap $? "stats --interval: timestamped rows per arm"

# rawalk's counts against the kernel's own: the guest runs nothing else.
f=$(testfile 64M)
maj0=$(vmstat pgmajfault) in0=$(vmstat pgpgin)
rapolicyctl stats reset
walk seq reverse "$f"
maj1=$(vmstat pgmajfault) in1=$(vmstat pgpgin)
rb=$(report read_bytes)
echo "# rawalk: $walk_major majflt, $walk_sectors sectors, read_bytes $rb; vmstat: $((maj1 - maj0)) pgmajfault, $((in1 - in0)) KiB pgpgin"
d=$((maj1 - maj0 - walk_major))
[ $d -ge 0 ] && [ $d -le 4 ]
tap $? "rawalk major_faults match /proc/vmstat pgmajfault (+$d for rawalk itself)"
d=$((in1 - in0 - walk_sectors / 2))
[ $d -ge 0 ] && [ $d -le 64 ]
tap $? "rawalk sectors_read match /proc/vmstat pgpgin (+$d KiB)"
pr=$(counter pages_read a)
[ "$rb" = "$(stat -c %s "$f")" ]
tap $? "rawalk read_bytes is the file, read once ($rb)"
[ $((pr * 4096)) -le "$rb" ] && [ "$pr" -gt 0 ]
tap $? "the module's pages_read ($pr pages) is at most what rawalk read"

# rawalk --read-ahead-kb sets the disk's read_ahead_kb for its walk and
# restores it afterwards (a system-wide setting: tested here, not on the host)
ra=/sys/block/vda/queue/read_ahead_kb
before=$(value "$ra")
kb=$((before == 4096 ? 2048 : 4096))
walk_out=$(rawalk --warm --json --read-ahead-kb "$kb" "$f") ||
	measure_failed "rawalk --read-ahead-kb $kb"
echo "$walk_out" | grep -q "\"read_ahead_kb\":$kb," && [ "$(value "$ra")" = "$before" ]
tap $? "rawalk --read-ahead-kb $kb walks with it and restores $before ($(value "$ra"))"

rmmod rapolicy
out=$(rapolicyctl stats --prometheus)
rc=$?
[ $rc = 0 ] && [ "$(echo "$out" | grep -v '^#' | grep -v '^rapolicy_exporter_timestamp_seconds [0-9]')" = "rapolicy_up 0" ] &&
	echo "$out" | grep -q '^rapolicy_exporter_timestamp_seconds [0-9]'
tap $? "without the module: rapolicy_up 0 and the exporter's timestamp, exit 0"
rapolicyctl status 2>/tmp/err
[ $? = 1 ] && grep -q "modprobe rapolicy" /tmp/err
tap $? "status without the module: exit 1, what to do"
tap_end
