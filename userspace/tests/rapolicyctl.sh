#!/bin/bash
# rapolicyctl end to end against the generated fake tree (TAP).
#   rapolicyctl.sh BINDIR FAKE_TREE
set -uo pipefail
bin=$1 fake=$2
. "$(dirname "$0")/prelude.sh"

rc status >$T/out
tap $? "status on a fresh tree"
grep -q "^profile: stock$" $T/out && grep -q "^arm B:   stock$" $T/out
tap $? "status: both arms match stock"
! grep -q "unavailable" $T/out && rc status --json | grep -q '"unavailable": \[\]'
tap $? "status: a module with every value of the table has nothing unavailable"

rc set descending_thp=folio pmd_hit=on >$T/out
tap $? "set two policies"
[ "$(cat $T/out)" = "descending_thp: off -> folio
pmd_hit: off -> on" ] && grep -qx "off \[folio\] stream" $M/descending_thp
tap $? "set reports and writes the changes"
[ "$(rc get -n descending_thp pmd_hit | tr '\n' ' ')" = "folio on " ]
tap $? "get -n"
rc get --json | grep -q '"descending_thp": "folio"'
tap $? "get --json"

# Profiles are absolute: what best names, every other policy of the table
# at stock
best="descending_thp=stream descending_seq=stream descending_around=stream streams=on random_miss=fault"
want=$(sh "$(dirname "$0")/../../tests/table.sh" | awk -v best="$best" '
	$1 == "policy" {
		v = $4
		n = split(best, b, " ")
		for (i = 1; i <= n; i++)
			if (b[i] ~ "^" $2 "=")
				v = substr(b[i], length($2) + 2)
		printf "%s=%s ", $2, v
	}
	END { printf "streams_max_kb=4096 streams_bytes=73792 " }')
rc profile seed >/dev/null && rc profile best >/dev/null
[ "$(rc get | tr '\n' ' ')" = "$want" ]
tap $? "profile seed then best: every policy as best says, then the stream table's bound and size"
rc status | grep -qx "profile: best"
tap $? "status names best on an exact match"
rc profile verify best >/dev/null
tap $? "profile verify best: exit 0"
rc set pmd_hit=on >/dev/null
rc status | grep -qx "profile: custom (best but pmd_hit=on)"
tap $? "status: custom with the difference from best"
rc profile verify best >$T/out
[ $? = 1 ] && grep -q "pmd_hit=on" $T/out
tap $? "profile verify exits 1 on drift"
rc profile best >/dev/null && rc profile seed >/dev/null
rc get descending_around | grep -qx "descending_around=off"
tap $? "profile best then seed: descending_around back to stock"
rc profile --help | grep -q "^  best "
tap $? "profile --help lists best"

# Bad input: one line, exit 2, nothing written
before=$(tree)
rc set vma_limit=always descending_seq=bogus 2>$T/err
[ $? = 2 ] && [ "$(tree)" = "$before" ] && grep -q "window, stream" $T/err
tap $? "a bad value: exit 2, nothing written, allowed values named"
rc set sync_mmap_order=10 2>/dev/null; [ $? = 2 ]
tap $? "an order above the largest the module lists is refused"
rc set sync_mmap_order=9 >/dev/null && rc get -n sync_mmap_order | grep -qx 9
tap $? "the largest order is taken"
rc set "$(printf 'x\033]0;evil\a%0200d=1' 0)" 2>$T/err; [ $? = 2 ]
tap $? "a hostile policy name is refused"
[ "$(wc -l <$T/err)" = 1 ] && ! grep -q "$(printf '\033')" $T/err && [ "$(wc -c <$T/err)" -lt 200 ]
tap $? "and echoed escaped and capped, on one line"
rc set pmd_hit=on pmd_hit=off 2>/dev/null; [ $? = 2 ]
tap $? "a policy given twice is refused"

# A write the kernel refuses: the earlier writes are undone (an immutable
# file refuses even root)
before=$(tree)
if chattr +i $M/descending_around 2>/dev/null; then
	rc set descending_seq=stream descending_around=window >/dev/null 2>$T/err
	r=$?
	chattr -i $M/descending_around
	[ $r = 1 ] && [ "$(tree)" = "$before" ] && grep -q "nothing was changed" $T/err
	tap $? "a refused write: exit 1, the earlier write undone ($(tail -n 1 $T/err))"
else
	echo "ok $((n += 1)) - a refused write # SKIP no chattr +i here"
fi

# Another module version: read, and named (skew.sh tests it in full)
echo 9.9.9 >$M/version
rc status >$T/out 2>$T/err && grep -q "^differs: module 9.9.9, rapolicyctl " $T/out
tap $? "another module version: status works and says so ($(cat $T/err))"
echo "$("$bin/rapolicyctl" --version | cut -d' ' -f2)" >$M/version
echo "off [on] extra" >$M/pmd_hit
rc get 2>$T/err; [ $? = 1 ] && grep -q "pmd_hit" $T/err
tap $? "a policy file with other values: exit 1 ($(cat $T/err))"
echo "[off] on" >$M/pmd_hit

# policies: each policy of the table, its values and its help line
printf '%s\n' '#define RAP_POLICY(n, o, h, ...) n h' '#include "table.h"' |
	cpp -P -I"$(dirname "$0")/../../module" - | grep . | sed 's/ "/\t/; s/"$//' >$T/help
ok=0
while IFS=$'\t' read -r pol help; do
	"$bin/rapolicyctl" policies | grep -A1 "^$pol " | grep -qxF "    $help" ||
		{ echo "# $pol: no help line '$help'"; ok=1; }
done <$T/help
[ -s $T/help ] && [ "$("$bin/rapolicyctl" policies | grep -c '^[a-z]')" = "$(wc -l <$T/help)" ]
tap $((ok | $?)) "policies prints each policy of the table with its help line ($(wc -l <$T/help))"

# A/B
rc ab set descending_thp=stream >/dev/null && grep -qx "off folio \[stream\]" $M/ab/descending_thp &&
	grep -qx "off \[folio\] stream" $M/descending_thp
tap $? "ab set writes arm B only"
mkdir -p $R/sys/fs/cgroup/canary
rc ab assign cgroup /sys/fs/cgroup/canary/ >/dev/null && grep -qx /canary $M/ab/cgroup &&
	grep -qx "off \[cgroup\] sample" $M/ab/mode
tap $? "ab assign cgroup by file system path"
rc ab assign cgroup /nope 2>/dev/null; [ $? = 2 ] && grep -qx /canary $M/ab/cgroup
tap $? "ab assign cgroup to a missing cgroup: exit 2"
rc ab assign sample 300 --salt 0x10 >/dev/null && grep -qx 300 $M/ab/sample_permille &&
	grep -qx 16 $M/ab/salt
tap $? "ab assign sample with a hex salt"
rc ab status | grep -q "^A -> B:  descending_thp folio -> stream"
tap $? "ab status shows what B changes"

# save / apply
rc save >$T/state.json
tap $? "save"
rc profile stock >/dev/null && rc ab assign off >/dev/null && rc profile --arm b stock >/dev/null
rc apply $T/state.json >/dev/null
rc save | cmp -s - $T/state.json
tap $? "apply restores exactly what save printed"
printf 'x{' >$T/bad.json
rc apply $T/bad.json 2>$T/err; [ $? = 2 ] && grep -q "'x' expected\|'{' expected\|invalid token" $T/err &&
	! grep -q 'x27' $T/err
tap $? "apply of a file that is no JSON: jansson's message unmangled ($(cat $T/err))"
echo '{"a": {"pmd_hit": "maybe"}}' >$T/bad.json
before=$(tree)
rc apply $T/bad.json 2>$T/err; [ $? = 2 ] && [ "$(tree)" = "$before" ]
tap $? "apply with a bad value: exit 2, nothing written ($(cat $T/err))"
echo '{"a": {}}' >$T/stock.json
rc apply $T/stock.json >/dev/null && rc profile verify stock >/dev/null &&
	grep -qx "\[off\] cgroup sample" $M/ab/mode
tap $? "apply: what the file does not name goes to stock, A/B off"
echo '{"a": {"pmd_hit": "on"}, "ab": {"mode": "cgroup", "cgroup": "/gone"}}' >$T/gone.json
rc apply $T/gone.json >$T/out 2>$T/err; r=$?
[ $r = 0 ] && grep -q " \[on\]" $M/pmd_hit && grep -qx "\[off\] cgroup sample" $M/ab/mode &&
	[ "$(cat $T/err)" = "rapolicyctl: warning: \"ab\": cgroup '/gone' does not exist: skipped, the A/B mode stays off" ]
tap $? "apply with a cgroup that is gone: a warning, the rest applied ($r: $(cat $T/err))"
rc apply $T/stock.json >/dev/null
# A cgroup whose name is not UTF-8: save escapes it, apply skips it
bad=$(printf 'b\377d')
mkdir -p "$R/sys/fs/cgroup/$bad"
rc ab assign cgroup "/$bad" >/dev/null && rc ab set pmd_hit=on >/dev/null && rc save >$T/bad8.json
r1=$?
rc ab assign off >/dev/null && rc ab set pmd_hit=off >/dev/null
rc apply $T/bad8.json >/dev/null 2>$T/err; r2=$?
python3 -m json.tool $T/bad8.json >/dev/null
r3=$?
[ $r1 = 0 ] && [ $r2 = 0 ] && [ $r3 = 0 ] && grep -q " \[on\]" $M/ab/pmd_hit && grep -q "warning" $T/err
tap $? "a cgroup name that is not UTF-8: saved as valid JSON, skipped by apply, the rest applied ($r1 $r2 $r3)"
rc apply $T/stock.json >/dev/null

# streams_max_kb: each arm's bound on its stream table, KiB; the module
# checks the range (the fake as module/sysfs.c does), rapolicyctl the form
rc status >$T/out
grep -qE "^streams_max_kb +4096 +4096$" $T/out && grep -qE "^streams_bytes +73792 +73792$" $T/out
tap $? "status: each arm's streams_max_kb and streams_bytes"
rc status --json | tr -d ' \n' >$T/out
grep -q '"a":{[^}]*"streams_max_kb":4096,"streams_bytes":73792}' $T/out &&
	grep -q '"b":{[^}]*"streams_max_kb":4096,"streams_bytes":73792}' $T/out
tap $? "status --json: both numbers per arm, as integers"
[ "$(rc get -n streams_max_kb streams_bytes | tr '\n' ' ')" = "4096 73792 " ] &&
	rc get --arm b --json | grep -q '"streams_bytes": 73792$'
tap $? "get streams_max_kb streams_bytes, and --json"
rc set streams_max_kb=8192 >$T/out && [ "$(cat $T/out)" = "streams_max_kb: 4096 -> 8192" ] &&
	grep -qx 8192 $M/streams_max_kb && grep -qx 4096 $M/ab/streams_max_kb
tap $? "set streams_max_kb writes arm A's bound"
rc ab set streams_max_kb=1024 descending_thp=off >$T/out && grep -qx 1024 $M/ab/streams_max_kb &&
	grep -qx 8192 $M/streams_max_kb && [ "$(cat $T/out)" = "ab/streams_max_kb: 4096 -> 1024" ]
tap $? "ab set streams_max_kb writes arm B's"
ok=0
before=$(tree)
for v in abc -1 +5 0100 1e3 4294967296 ""; do
	rc set pmd_hit=on "streams_max_kb=$v" >/dev/null 2>$T/err
	r=$?
	[ $r = 2 ] && [ "$(tree)" = "$before" ] && [ "$(wc -l <$T/err)" = 1 ] &&
		grep -q "streams_max_kb: '.*' is not a number of KiB" $T/err ||
		{ echo "# streams_max_kb=$v: exit $r: $(cat $T/err)"; ok=1; }
done
tap $ok "a bound that is no number of KiB: exit 2, one line, nothing written ($(cat $T/err))"
rc set streams_bytes=1 2>$T/err; [ $? = 2 ] && [ "$(tree)" = "$before" ] && grep -q "read-only" $T/err
tap $? "streams_bytes is read-only"
rc set streams_max_kb=1 streams_max_kb=2 2>/dev/null; [ $? = 2 ] && [ "$(tree)" = "$before" ]
tap $? "streams_max_kb given twice is refused"
echo 71 >$M/streams_max_kb && "$fake" settle "$R" && grep -qx 8192 $M/streams_max_kb &&
	echo 73729 >$M/ab/streams_max_kb && "$fake" settle "$R" && grep -qx 1024 $M/ab/streams_max_kb
tap $? "the fake refuses a bound out of the module's range, as the module does"
# The module refusing the bound (out of range; an immutable file here):
# written first, so nothing is to undo and the one line says it
if chattr +i $M/streams_max_kb 2>/dev/null; then
	rc set pmd_hit=on streams_max_kb=71 >/dev/null 2>$T/err
	r=$?
	chattr -i $M/streams_max_kb
	[ $r = 1 ] && [ "$(tree)" = "$before" ] && [ "$(wc -l <$T/err)" = 1 ] &&
		grep -q "writing '71' to /sys/kernel/mm/rapolicy/streams_max_kb" $T/err
	tap $? "a bound the module refuses: exit 1, one line, nothing written ($(cat $T/err))"
else
	echo "ok $((n += 1)) - a bound the module refuses # SKIP no chattr +i here"
fi
rc profile best >/dev/null && grep -qx 8192 $M/streams_max_kb && grep -qx 1024 $M/ab/streams_max_kb
tap $? "a profile leaves the bounds"
rc save >$T/kb.json
tr -d ' \n' <$T/kb.json | grep -q '"a":{[^}]*"streams_max_kb":8192}' &&
	tr -d ' \n' <$T/kb.json | grep -q '"b":{[^}]*"streams_max_kb":1024}' && ! grep -q streams_bytes $T/kb.json
tap $? "save writes each arm's streams_max_kb (not streams_bytes)"
rc set streams_max_kb=4096 >/dev/null && rc ab set streams_max_kb=4096 >/dev/null &&
	rc apply $T/kb.json >/dev/null && grep -qx 8192 $M/streams_max_kb &&
	grep -qx 1024 $M/ab/streams_max_kb && rc save | cmp -s - $T/kb.json
tap $? "apply restores them: save, apply round-trips the bounds"
rc apply "$(dirname "$0")/../rapolicyctl/rapolicy.conf" >/dev/null &&
	echo '{"a": {"pmd_hit": "on"}, "b": {}}' >$T/old.json && rc apply $T/old.json >/dev/null &&
	grep -qx 8192 $M/streams_max_kb && grep -qx 1024 $M/ab/streams_max_kb && grep -q "\[on\]" $M/pmd_hit
tap $? "a file without streams_max_kb (rapolicy.conf, an older save) leaves the bounds"
ok=0
before=$(tree)
for j in '"8192"' -1 1.5 null 4294967296 99999999999999999 true; do
	echo "{\"a\": {\"pmd_hit\": \"off\"}, \"b\": {\"streams_max_kb\": $j}}" >$T/bad.json
	rc apply $T/bad.json >/dev/null 2>$T/err
	r=$?
	[ $r = 2 ] && [ "$(tree)" = "$before" ] && [ "$(wc -l <$T/err)" = 1 ] ||
		{ echo "# streams_max_kb: $j: exit $r: $(cat $T/err)"; ok=1; }
done
echo '{"a": {"streams_bytes": 1}}' >$T/bad.json
rc apply $T/bad.json 2>/dev/null; [ $? = 2 ] && [ "$(tree)" = "$before" ] || ok=1
tap $ok "apply with a bad bound or streams_bytes: exit 2, one line, nothing written ($(cat $T/err))"
rc apply $T/stock.json >/dev/null && rc set streams_max_kb=4096 >/dev/null &&
	rc ab set streams_max_kb=4096 >/dev/null

# stats
echo 5 >$M/stats/a/sync_miss; echo 7 >$M/stats/b/pages_read
rc stats | grep -q "^sync_miss  *5  *0$"
tap $? "stats: per-arm columns"
rc stats --json | grep -q '"pages_read": 7'
tap $? "stats --json"
sed -i 's/^streams 0 0 0 0$/streams 40 3 36 1/' $M/stats/a/ledger
out=$(rc stats)
echo "$out" | grep -q "^streams  *A  *40  *3  *36  *1$" && echo "$out" | grep -q "^streams  *B  *0  *0  *0  *0$" &&
	! echo "$out" | grep -q "^stock  *A"
tap $? "stats: the ledger's lines with pages, per arm"
rc stats reset && [ "$(cat $M/stats/a/sync_miss)" = 0 ]
tap $? "stats reset"
out=$(rc stats --interval 0.05 --count 2)
[ "$(echo "$out" | wc -l)" = 5 ] && echo "$out" | sed -n 2p | grep -qE '^20[0-9-]+T[0-9:]+Z A ' &&
	echo "$out" | awk 'length > 80 { bad = 1 } END { exit bad }'
tap $? "stats --interval: header, then a timestamped row per arm, in 80 columns"
[ "$(rc stats --interval 0.05 --count 1 --json | wc -l)" = 1 ]
tap $? "stats --interval --json: one line per interval"
echo 3 >$M/stats/b/sync_exec
out=$(rc stats --interval 0.01 --count 1 --counters sync_exec,pages_read)
[ "$(echo "$out" | sed -n 1p | tr -s ' ')" = "time arm sync_exec pages_read" ] &&
	echo "$out" | sed -n 3p | grep -qE ' B +0 +0$'
tap $? "stats --counters: the columns it names, in its order"
rc stats --interval 0.01 --count 1 --counters stream_lookups --json >$T/out &&
	tr -d ' ' <$T/out | grep -q '"a":{"stream_lookups":0}' && ! grep -q sync_miss $T/out
tap $? "stats --counters --json: only the counters it names"
rc stats --interval 0.05 --counters sync_miss,bogus 2>$T/err; [ $? = 2 ] &&
	grep -q "unknown counter 'bogus'" $T/err
tap $? "stats --counters with an unknown counter: exit 2, named"
rc stats --counters sync_miss 2>/dev/null; [ $? = 2 ]
tap $? "stats --counters without --interval: exit 2"

# ab report over periods: the fake module's buckets, written per period.
# Bucket b in period p: 50 (b % 9 + 1) (1 + p % 3) major faults, times a
# fixed wobble of -20%..+20%, times THETA/100 in arm B; 8 pages per fault.
# Arm B's buckets follow a pattern in odd periods; an even period swaps
# the previous one's arms (complementary pairs, as 'ab period' draws them
# at 500 permille).
buckets() { # PERIOD THETA ZERO
	local b y arm q=$(($1 - 1 + $1 % 2))
	for b in $(seq 0 63); do
		arm=a; [ $((((b * 7 + q * 13) / 5 + b * q + $1 + q) % 2)) = 1 ] && arm=b
		y=$((50 * (b % 9 + 1) * (1 + $1 % 3) * (80 + (b * 37 + $1 * 11) % 41) / 100))
		[ $arm = b ] && y=$((y * $2 / 100))
		[ "$3" = 0 ] && y=0
		echo "$b $arm $y $((y * 8))"
	done >$M/stats/buckets
}
periods() { # N THETA: the plan line, N periods, a sample at each end, a new salt between
	local p
	"$bin/rapolicyctl" --root "$R" ab start --washout 0
	for p in $(seq 1 "$1"); do
		echo $((p * 1000)) >$M/ab/salt
		buckets $p "$2" 0
		"$bin/rapolicyctl" --root "$R" ab sample
		buckets $p "$2" 1
		"$bin/rapolicyctl" --root "$R" ab sample
	done
}
rc ab assign sample 500 >/dev/null && rc stats reset
periods 6 100 >$T/aa
[ "$(wc -l <$T/aa)" = 13 ] && sed -n 1p $T/aa | grep -q '^{"plan":{"version":1,"periods":6,' &&
	sed -n 1p $T/aa | grep -q '"pairs":true' && sed -n 1p $T/aa | grep -q '"washout_ms":0,'
tap $? "a plan line (6 periods in pairs, no washout) and twelve samples for six periods"
rc ab report --samples $T/aa >$T/out
grep -q "^verdict: no difference detected at this power (major faults" $T/out &&
	grep -q "^mode sample; 6 periods of 6 planned; 64 buckets with major faults$" $T/out
tap $? "A/A over 6 periods: no difference detected at this power"
sed 's/^/# /' $T/out
periods 6 50 >$T/ab
rc ab report --samples $T/ab >$T/out
grep -q "^verdict: B better (major faults -" $T/out &&
	grep -q "^B against A, major faults:  *-[45][0-9.]*% \[" $T/out
tap $? "B with half the major faults: B better, the effect about -50%"
sed 's/^/# /' $T/out
rc ab report --samples $T/ab --json >$T/out
grep -q '"verdict": "B better"' $T/out && grep -q '"p": 0.001' $T/out
tap $? "ab report --json"
# A 7th period after the horizon of 6: its counts are in no printed total
{ cat $T/ab; sed -n 12p $T/ab | sed 's/"salt":[0-9]*/"salt":7000/'
  sed -n 13p $T/ab | sed 's/"salt":[0-9]*/"salt":7000/; s/"sync_miss":0/"sync_miss":99999/'; } >$T/seven
rc ab report --samples $T/ab | grep "^major faults" >$T/six.tot &&
	rc ab report --samples $T/seven | grep "^major faults" >$T/seven.tot &&
	cmp -s $T/six.tot $T/seven.tot && grep -q "99999" $T/seven
tap $? "the printed totals are those of the periods analysed, not of a 7th"
head -n 11 $T/ab >$T/five
rc ab report --samples $T/five | grep -q "^verdict: not enough data (5 of the 6 planned periods)"
tap $? "5 of 6 planned periods: not enough data"
rc ab report --samples $T/five --periods 5 >$T/out 2>$T/err; [ $? = 2 ] && [ ! -s $T/out ] &&
	grep -q "the plan is 6 periods: the report analyses those, no other horizon" $T/err
tap $? "--periods 5 against a plan of 6: refused, exit 2"
rc ab report --samples $T/ab --periods 6 | grep -q "^verdict: B better"
tap $? "--periods 6, the plan's: the same verdict"
sed 1d $T/ab >$T/old
rc ab report --samples $T/old >$T/out 2>$T/err; [ $? = 1 ] && [ ! -s $T/out ] &&
	[ "$(wc -l <$T/err)" = 1 ] && grep -q "no plan line: samples from before 'rapolicyctl ab start'" $T/err
tap $? "samples of the old flow, no plan line: one line of error, no verdict"
sed '1s/"washout_ms":0/"washout_ms":3600000/' $T/ab >$T/early
rc ab report --samples $T/early | grep -q "^verdict: invalid: settings changed (period 1 opened within its washout of 3600 s"
tap $? "a period opened within the planned washout: invalid"
sed '1s/"pairs":true/"pairs":false/' $T/ab | rc ab report --samples - | grep -q "^verdict: B better"
tap $? "the same periods without pairs in the plan: redrawn freely, B better"
sed '5s/"key":[0-9]*/"key":12345/' $T/ab | rc ab report --samples - |
	grep -q "^verdict: invalid: settings changed (a setting changed in period 2"
tap $? "a sample under another key (another experiment): invalid"
sed '7s/"settings_changed":0/"settings_changed":1/' $T/ab >$T/chg
rc ab report --samples $T/chg | grep -q "^verdict: invalid: settings changed (a setting changed in period 3 or at its start)"
tap $? "a setting change within a period: invalid: settings changed"
sed '4s/"settings_changed":0/"settings_changed":1/; 5,$s/"settings_changed":0/"settings_changed":1/' \
	$T/ab >$T/chg
rc ab report --samples $T/chg | grep -q "^verdict: B better"
tap $? "a setting change between periods (the new salt) is not one within"
sed '6,$s/"settings_changed":0/"settings_changed":2/' $T/ab >$T/chg
rc ab report --samples $T/chg | grep -q "^verdict: invalid: settings changed (a setting changed in period 3 or at its start)"
tap $? "a policy changed with the salt between periods: invalid"
sed '6,$s/"sample_permille":500/"sample_permille":400/' $T/ab >$T/chg
rc ab report --samples $T/chg | grep -q "^verdict: invalid: settings changed (a setting changed in period 3 or at its start)"
tap $? "the permille changed between periods: invalid"
sed 's/"mode":"sample"/"mode":"off"/' $T/ab >$T/off
rc ab report --samples $T/off | grep -q "^verdict: not enough data (the A/B mode is off"
tap $? "no verdict while the mode is off"
sed 's/"mode":"sample"/"mode":"cgroup"/; s/\["[ab]",/["-",/g' $T/ab >$T/cg
rc ab report --samples $T/cg >$T/out
grep -q "^verdict: observational (" $T/out && ! grep -q "p=" $T/out
tap $? "cgroup mode with one cgroup: observational, no p-value"
sed 's/"mode":"sample"/"mode":"cgroup"/' $T/ab >$T/cgs
rc ab report --samples $T/cgs | grep -q "^verdict: B better"
tap $? "cgroup mode with cgroups drawn into the buckets: a test"
rc ab assign cgroup-sample 300 --salt 5 >/dev/null 2>$T/err && grep -qx "off \[cgroup\] sample" $M/ab/mode &&
	[ -z "$(cat $M/ab/cgroup)" ] && grep -qx 300 $M/ab/sample_permille && grep -qx 5 $M/ab/salt &&
	rc ab status | grep -qx "mode:    cgroups 300 permille, salt 5" && [ ! -s $T/err ]
tap $? "ab assign cgroup-sample 300: cgroup mode without a cgroup, permille and salt"
rc ab assign off >/dev/null && rc ab assign cgroups 300 --salt 5 >/dev/null 2>$T/err &&
	grep -qx "off \[cgroup\] sample" $M/ab/mode && grep -q "'ab assign cgroups' is now 'ab assign cgroup-sample'" $T/err
tap $? "ab assign cgroups, the old spelling: the same, with a notice"
rc ab assign sample 500 >/dev/null
rc ab report >$T/out 2>$T/err; [ $? = 2 ] && grep -q "needs --samples FILE" $T/err
tap $? "ab report without --samples: exit 2"
# A module reload between the samples of a period: counters restart
{ sed -n 1p $T/ab | sed 's/"periods":6/"periods":1/'
  sed -n 4p $T/ab | sed 's/"sync_miss":0/"sync_miss":900/'
  sed -n 5p $T/ab | sed 's/"sync_miss":0/"sync_miss":100/'; } >$T/reset
rc ab report --samples $T/reset >$T/out
grep -q "^major faults (sync_miss)  *100  *0$" $T/out
tap $? "a counter that went down restarted from 0 (no wrap to 2^64)"
sed 's/^/# /' $T/out
{ sed -n 1p $T/aa; rc ab sample; } | rc ab report --samples - >/dev/null
tap $? "ab sample is what ab report --samples reads"
# ab start: a fresh key and salt per experiment, the plan line
echo 0 >$M/ab/key && echo 0 >$M/ab/salt
rc ab start --periods 4 --period 60 --washout 5 >$T/out && key1=$(cat $M/ab/key) &&
	[ "$key1" != 0 ] && [ "$(cat $M/ab/salt)" != 0 ] &&
	grep -q "\"period_ms\":60000,\"washout_ms\":5000,.*\"key\":$key1," $T/out &&
	rc ab start >/dev/null && [ "$(cat $M/ab/key)" != "$key1" ]
tap $? "ab start: a random key and salt, the plan with them; another start, another key"
rc ab start --run --periods 2 --period 0 --washout 0 >$T/run && [ "$(wc -l <$T/run)" = 5 ] &&
	rc ab report --samples $T/run | grep -q "^mode sample; 2 periods of 2 planned;"
tap $? "ab start --run: the plan, then per period an opening and a closing sample"
rc ab assign off >/dev/null
rc ab start >$T/out 2>$T/err; [ $? = 1 ] && [ ! -s $T/out ] && grep -q "ab start needs" $T/err
tap $? "ab start with the mode off: an error, nothing printed"
rc ab assign sample 500 --salt 7 >/dev/null
rc ab period >$T/out
[ "$(wc -l <$T/out)" = 1 ] && grep -q '"salt":7,' $T/out && grep -qx 9223372036854775815 $M/ab/salt
tap $? "ab period at 500 permille: a closing sample, then the salt with its arms swapped"
rc ab period >$T/out && s2=$(cat $M/ab/salt) && [ "$s2" != 9223372036854775815 ] && [ "$s2" -lt 9007199254740992 ]
tap $? "ab period after a swapped salt: a fresh random salt"
for sub in set assign start status sample period step report; do
	rc ab $sub --help >$T/out 2>&1 && grep -q "^Usage: rapolicyctl ab set" $T/out || echo "$sub" >>$T/badhelp
done
[ ! -s $T/badhelp ]
tap $? "every ab subcommand's --help prints the usage and exits 0 ($(cat $T/badhelp 2>/dev/null))"
# ab step: what is due of the plan, appended; the timer's command
rc ab assign sample 500 >/dev/null
rc ab start --periods 2 --period 0 --washout 0 >$T/st
s0=$(cat $M/ab/salt)
lines() { wc -l <$T/st; }
rc ab step --samples $T/st && [ "$(lines)" = 2 ] && [ "$(cat $M/ab/salt)" = "$s0" ] &&
	rc ab step --samples $T/st && [ "$(lines)" = 3 ] && s1=$(cat $M/ab/salt) && [ "$s1" != "$s0" ] &&
	rc ab step --samples $T/st && [ "$(lines)" = 4 ] &&
	rc ab step --samples $T/st && [ "$(lines)" = 5 ] && [ "$(cat $M/ab/salt)" = "$s1" ] &&
	rc ab step --samples $T/st >$T/out && [ "$(lines)" = 5 ] && [ ! -s $T/out ]
tap $? "ab step: opens, closes and re-salts, opens, closes the last period without a salt, then nothing"
rc ab report --samples $T/st | q "^mode sample; 2 periods of 2 planned"
tap $? "ab report reads what ab step wrote"
rc ab start --periods 2 --period 0 --washout 3600 >$T/st &&
	rc ab step --samples $T/st >$T/out && [ "$(lines)" = 1 ] && [ ! -s $T/out ]
tap $? "ab step within the washout: nothing due, nothing written"
cp $T/st $T/old && rc ab start --washout 0 >/dev/null
rc ab step --samples $T/old >$T/out 2>$T/err; [ $? = 1 ] && cmp -s $T/st $T/old &&
	[ "$(wc -l <$T/err)" = 1 ] && q "the experiment ended; nothing written" $T/err
tap $? "ab step after another ab start: one line of error, nothing written"
rc ab step >/dev/null 2>$T/err; [ $? = 2 ] && q "needs --samples FILE" $T/err &&
	rc ab step --samples $T/nosuch >/dev/null 2>&1; [ $? = 1 ]
tap $? "ab step without --samples: exit 2; with a missing file: exit 1"
for bad in nan inf -inf -1 86401 1e400 1x ""; do
	rc ab start --period "$bad" >/dev/null 2>&1
	[ $? = 2 ] || echo "# --period $bad accepted"
	rc ab start --washout "$bad" >/dev/null 2>&1
	[ $? = 2 ] || echo "# --washout $bad accepted"
done | grep -q . && r=1 || r=0
tap $r "ab start --period and --washout take 0 to 86400 seconds only"
rc ab assign sample 10 --salt 18446744073709551615 >/dev/null && rc save >$T/saved &&
	grep -q '"salt": "18446744073709551615"' $T/saved
tap $? "a salt of 2^64-1 is saved unsigned"
rc ab assign sample 10 --salt 1 >/dev/null && rc apply $T/saved >/dev/null &&
	grep -qx 18446744073709551615 $M/ab/salt
tap $? "and applied back exactly"

# A kernel that cannot honour every value of the table: the 6.12 port's
# sync_mmap_order lists no order 0 or 1, and an older module without the
# streams files or streams_max_kb and streams_bytes. status says so;
# nothing that would write them does.
U=$T/unavail
MU=$U/sys/kernel/mm/rapolicy
"$fake" create "$U" "$("$bin/rapolicyctl" --version | cut -d' ' -f2)" \
	"sync_mmap_order=0 sync_mmap_order=1 streams streams_max_kb" || exit 1
ru() {
	"$bin/rapolicyctl" --root "$U" "$@"
	local ret=$?
	"$fake" settle "$U"
	return $ret
}
utree() { find "$MU" -type f | sort | xargs cat; }
grep -qx "\[off\] fault_around 2 3 4 5 6 7 8 9" $MU/sync_mmap_order && [ ! -e $MU/streams ] &&
	[ ! -e $MU/ab/streams ] && [ ! -e $MU/streams_max_kb ] && [ ! -e $MU/ab/streams_bytes ]
tap $? "the fake tree can lack values and policies"
ru status >$T/out 2>$T/err
tap $? "status on a kernel lacking values: exit 0 ($(cat $T/err))"
grep -qx "unavailable: sync_mmap_order=0 sync_mmap_order=1 streams streams_max_kb" $T/out &&
	grep -qE "^streams +unavailable +unavailable$" $T/out &&
	grep -qE "^streams_max_kb +unavailable +unavailable$" $T/out &&
	grep -qE "^streams_bytes +unavailable +unavailable$" $T/out
tap $? "status names what is unavailable"
ru status --json >$T/out
tr -d ' \n' <$T/out | grep -q '"unavailable":\["sync_mmap_order=0","sync_mmap_order=1","streams","streams_max_kb"\]' &&
	! grep -q '"streams": "' $T/out && ! grep -q '"streams_max_kb": [0-9]' $T/out &&
	! grep -q '"streams_bytes"' $T/out
tap $? "status --json: the unavailable list, no value for the missing policy"
before=$(utree)
ru set sync_mmap_order=0 >/dev/null 2>$T/err
r=$?
[ $r = 1 ] && [ "$(utree)" = "$before" ] &&
	[ "$(cat $T/err)" = "rapolicyctl: sync_mmap_order: value '0' is not available on this kernel" ]
tap $? "set an unavailable value: exit 1 ($r), one line, nothing written"
ru set pmd_hit=on sync_mmap_order=1 >/dev/null 2>&1; r=$?
ru ab set sync_mmap_order=1 >/dev/null 2>&1; r2=$?
[ $r = 1 ] && [ $r2 = 1 ] && [ "$(utree)" = "$before" ]
tap $? "set and ab set with an unavailable value write nothing else either"
ru set sync_mmap_order=10 2>/dev/null; [ $? = 2 ]
tap $? "an order beyond the largest listed is still no value (exit 2)"
ru profile best >/dev/null 2>$T/err; r=$?
[ $r = 1 ] && [ "$(utree)" = "$before" ] && grep -qx "rapolicyctl: streams: value 'on' is not available on this kernel" $T/err
tap $? "profile best without streams: exit 1, nothing written ($(cat $T/err))"
echo '{"b": {"sync_mmap_order": "1"}}' >$T/u.json
ru apply $T/u.json >/dev/null 2>&1; r=$?
[ $r = 1 ] && [ "$(utree)" = "$before" ]
tap $? "apply with an unavailable value: exit 1, nothing written"
ru set streams_max_kb=8192 >/dev/null 2>$T/err; r=$?
ru ab set pmd_hit=on streams_max_kb=8192 >/dev/null 2>&1; r2=$?
echo '{"b": {"streams_max_kb": 8192}}' >$T/u.json
ru apply $T/u.json >/dev/null 2>&1; r3=$?
[ $r = 1 ] && [ $r2 = 1 ] && [ $r3 = 1 ] && [ "$(utree)" = "$before" ] &&
	[ "$(cat $T/err)" = "rapolicyctl: streams_max_kb: value '8192' is not available on this kernel" ]
tap $? "without streams_max_kb: set, ab set, apply of a bound: exit 1, one line, nothing written"
echo '{"a": {"streams_max_kb": 4096}}' >$T/u.json
ru set streams_max_kb=4096 >$T/out && ru apply $T/u.json >>$T/out && [ ! -s $T/out ] &&
	[ "$(utree)" = "$before" ]
tap $? "the bound at load (4096) is what such a module has: taken, nothing written"
ru profile seed >/dev/null && ru set sync_mmap_order=2 >/dev/null &&
	grep -qx "off fault_around \[2\] 3 4 5 6 7 8 9" $MU/sync_mmap_order
tap $? "available values are taken"
ru get >$T/out && ! grep -q "^streams=" $T/out && ! grep -q "^streams_" $T/out &&
	ru get streams >/dev/null 2>$T/err
[ $? = 1 ] && grep -qx "rapolicyctl: streams: not available on this kernel" $T/err &&
	! ru get streams_bytes 2>/dev/null
tap $? "get leaves out the missing policy; asked for it, exit 1"
ru save >$T/u-state.json && ru profile stock >/dev/null && ru apply $T/u-state.json >/dev/null &&
	ru save | cmp -s - $T/u-state.json && ! grep -q streams_max_kb $T/u-state.json
tap $? "save and apply without the missing policy"
ru stats --prometheus >$T/out &&
	! grep -q 'policy="streams"' $T/out && ! grep -q 'policy="sync_mmap_order",value="[01]"' $T/out &&
	grep -q 'policy="sync_mmap_order",value="2"' $T/out
tap $? "stats --prometheus: series only for the values the module lists"
echo "[off] fault_around 3 2" >$MU/sync_mmap_order
ru status >/dev/null 2>&1; [ $? = 1 ]
tap $? "values out of the table's order are still an error"
echo "fault_around [2]" >$MU/sync_mmap_order
ru status >/dev/null 2>&1; [ $? = 1 ]
tap $? "a file without the stock value is still an error"

# trace: a saved trace (trace.sample: 6 events of readahead_policy_window
# on two files from three processes, 3 of rapolicy_ledger, one line of
# another event)
S=$(dirname "$0")/trace.sample
rc trace --input "$S" --by policy --json >$T/out &&
	python3 -c 'import json, sys
j = json.load(sys.stdin)
r = {x["key"]: (x["applied"], x["refused"], x["bound"], x["pages"], x["largest"], x["used"], x["wasted"]) for x in j["rows"]}
sys.exit(j["events"] != 9 or j["lost"] != 0 or r != {"descending_thp A": (1, 0, 0, 512, 512, 64, 60),
	"descending_seq A": (1, 0, 0, 256, 256, 0, 0), "random_miss B": (2, 0, 0, 2, 1, 0, 0),
	"- A": (0, 1, 0, 0, 0, 0, 0), "vma_limit B": (0, 0, 1, 0, 0, 0, 0), "stock B": (0, 0, 0, 0, 0, 0, 20)})' <$T/out
tap $? "trace --input --by policy: each policy and arm's windows, pages, largest, and the ledger's used and wasted"
rc trace --input "$S" --by file >$T/out && [ "$(sed -n 3p $T/out | tr -s ' ')" = "254:0:c 2 1 0 768 512 64 60 descending_thp A" ] &&
	[ "$(sed -n 4p $T/out | tr -s ' ')" = "254:0:d 2 0 1 2 1 0 20 random_miss B" ] && [ "$(wc -l <$T/out)" = 4 ]
tap $? "trace --by file: the most pages first, the ledger's pages, the policy that applied the most"
rc trace --input "$S" --by process --json >$T/out &&
	python3 -c 'import json, sys
j = json.load(sys.stdin)
sys.exit(j["events"] != 9 or sorted(x["key"] for x in j["rows"]) != ["db_bench-300", "my prog-88", "rawalk-231"] or
	any("used" in x or "wasted" in x for x in j["rows"]))' <$T/out
tap $? "trace --by process: no ledger columns (the task that drops a page did not read it)"
for bad in "--by inode" "--top x" "--interval 0" "--count 0" "--input" "--nosuch"; do
	rc trace $bad >$T/out 2>$T/err
	[ $? = 2 ] && [ ! -s $T/out ] && [ "$(wc -l <$T/err)" = 1 ] || { echo "# trace $bad"; false; } || break
done
tap $? "trace: bad options exit 2 with one line"
rc trace --interval 0.01 --count 1 2>$T/err; [ $? = 1 ] && grep -q "mount -t tracefs" $T/err
tap $? "trace without the tracepoint: exit 1, says what is missing"
mkdir -p $R/sys/kernel/tracing/events/readahead_policy/readahead_policy_window $R/sys/kernel/tracing/instances
rc trace --interval 0.01 --count 1 2>$T/err; [ $? = 1 ] && grep -q "instances/rapolicyctl\.[0-9]*/events" $T/err &&
	[ -z "$(ls $R/sys/kernel/tracing/instances)" ]
tap $? "trace: an instance that cannot enable the event is removed, exit 1"

# The module gone
rm -rf "$R/sys/kernel/mm/rapolicy"
rc status 2>$T/err; [ $? = 1 ] && grep -q "modprobe rapolicy" $T/err
tap $? "status without the module: exit 1, says what to do"
rc status --json >$T/out 2>/dev/null; r=$?
[ $r = 1 ] && python3 -c 'import json, sys; j = json.load(sys.stdin); sys.exit(j["exit"] != 1 or "modprobe" not in j["error"])' <$T/out
tap $? "status --json without the module: exit 1, the reason as JSON ($(tr -d '\n' <$T/out))"
rc get --json nosuch >$T/out 2>/dev/null
[ $? = 2 ] && python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)["exit"] != 2)' <$T/out
tap $? "a usage error of a --json command is JSON too"
echo -n >$R/proc/kallsyms
rc status 2>$T/err; grep -q "no readahead policy hooks" $T/err
tap $? "without the hooks it says so"
echo "1..$n"
exit $((fails > 0))
