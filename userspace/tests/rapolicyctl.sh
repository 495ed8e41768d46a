#!/bin/bash
# rapolicyctl end to end against the generated fake tree (TAP).
#   rapolicyctl.sh BINDIR FAKE_TREE
set -uo pipefail
bin=$1 fake=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/../../tests/tap.sh"
R=$T/root
M=$R/sys/kernel/mm/rapolicy
"$fake" create "$R" || exit 1
# rc ARGS: rapolicyctl on the fake tree, which then shows what the module would
rc() {
	"$bin/rapolicyctl" --root "$R" "$@"
	local ret=$?
	"$fake" settle "$R"
	return $ret
}
tree() { find "$M" -type f | sort | xargs cat; }

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

# Profiles are absolute
rc profile seed >/dev/null && rc profile best >/dev/null
[ "$(rc get | tr '\n' ' ')" = "descending_thp=stream pmd_hit=off descending_seq=stream vma_limit=none sync_mmap_order=off descending_around=stream streams=on random_miss=fault " ]
tap $? "profile seed then best: every policy as best says"
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

# Version skew is an error, not tolerated
echo 9.9.9 >$M/version
rc status 2>$T/err; [ $? = 1 ] && grep -q "does not match" $T/err
tap $? "another module version: exit 1 ($(cat $T/err))"
echo "$("$bin/rapolicyctl" --version | cut -d' ' -f2)" >$M/version
echo "off [on] extra" >$M/pmd_hit
rc get 2>$T/err; [ $? = 1 ] && grep -q "pmd_hit" $T/err
tap $? "a policy file with other values: exit 1 ($(cat $T/err))"
echo "[off] on" >$M/pmd_hit

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
echo '{"a": {"pmd_hit": "maybe"}}' >$T/bad.json
before=$(tree)
rc apply $T/bad.json 2>$T/err; [ $? = 2 ] && [ "$(tree)" = "$before" ]
tap $? "apply with a bad value: exit 2, nothing written ($(cat $T/err))"
echo '{"a": {}}' >$T/stock.json
rc apply $T/stock.json >/dev/null && rc profile verify stock >/dev/null &&
	grep -qx "\[off\] cgroup sample" $M/ab/mode
tap $? "apply: what the file does not name goes to stock, A/B off"

# stats
echo 5 >$M/stats/a/sync_miss; echo 7 >$M/stats/b/pages_read
rc stats | grep -q "^sync_miss  *5  *0$"
tap $? "stats: per-arm columns"
rc stats --json | grep -q '"pages_read": 7'
tap $? "stats --json"
rc stats reset && [ "$(cat $M/stats/a/sync_miss)" = 0 ]
tap $? "stats reset"
out=$(rc stats --interval 0.05 --count 2)
[ "$(echo "$out" | wc -l)" = 5 ] && echo "$out" | sed -n 2p | grep -qE '^20[0-9-]+T[0-9:]+Z A ' &&
	echo "$out" | awk 'length > 80 { bad = 1 } END { exit bad }'
tap $? "stats --interval: header, then a timestamped row per arm, in 80 columns"
[ "$(rc stats --interval 0.05 --count 1 --json | wc -l)" = 1 ]
tap $? "stats --interval --json: one line per interval"
rc stats --interval 0.05 --counters sync_miss,bogus 2>/dev/null; [ $? = 2 ]
tap $? "stats --counters with an unknown counter: exit 2"

# ab report over sample files
sample() { # mode a_faults a_miss b_faults b_miss changed
	printf '{"elapsed_ms": 1000, "settings_changed": %d, "mode": "%s", "a": {' "$6" "$1"
	sep=
	for s in $(bash "$top/tests/table.sh" | awk '$1 == "stat" { print $2 }'); do
		case $s in
		sync_miss) va=$3 vb=$5 ;; mmap_hit) va=$(($2 - $3)) vb=$(($4 - $5)) ;;
		pages_read) va=$(($3 * 8)) vb=$(($5 * 8)) ;; *) va=0 vb=0 ;;
		esac
		printf '%s"%s": %d' "$sep" "$s" "$va"; sep=", "
		eval "b_$s=$vb"
	done
	printf '}, "b": {'; sep=
	for s in $(bash "$top/tests/table.sh" | awk '$1 == "stat" { print $2 }'); do
		printf '%s"%s": %d' "$sep" "$s" "$(eval echo \$b_$s)"; sep=", "
	done
	printf '}}\n'
}
top=$(cd "$(dirname "$0")/../.." && pwd)
# A/A over 20 files, rates varying from file to file but the same per arm
fa=0 ma=0 fb=0 mb=0
: >$T/aa
sample sample 0 0 0 0 0 >>$T/aa
for i in $(seq 1 20); do
	f=$((200 + i * 37 % 300)) p=$((i * 13 % 10))
	fa=$((fa + f)) ma=$((ma + f * p / 10))
	fb=$((fb + f + i)) mb=$((mb + (f + i) * ((p + i % 3) % 10) / 10))
	sample sample $fa $ma $fb $mb 0 >>$T/aa
done
rc ab report --samples $T/aa >$T/out
grep -q "^verdict: no significant difference" $T/out
tap $? "A/A over 20 files: no significant difference"
sed 's/^/# /' $T/out
: >$T/ab
for i in $(seq 0 8); do sample sample $((i * 1000)) $((i * 500 + i * i)) $((i * 990)) $((i * 10)) 0; done >$T/ab
rc ab report --samples $T/ab | grep -q "^verdict: B better"
tap $? "a clear difference over 8 blocks: B better"
printf '%s\n%s\n' "$(sample sample 0 0 0 0 0)" "$(sample sample 100 50 100 53 0)" >$T/one
rc ab report --samples $T/one | grep -q "^verdict: no significant difference (too few"
tap $? "50/100 against 53/100: no significant difference"
sed 's/"mode": "sample"/"mode": "off"/' $T/ab >$T/off
rc ab report --samples $T/off | grep -q "^verdict: none (the A/B mode is off"
tap $? "no verdict while the mode is off"
sed 's/"settings_changed": 0/"settings_changed": 2/' $T/ab >$T/chg
rc ab report --samples $T/chg | grep -q "^warning: 2 setting changes since the last reset"
tap $? "a warning when settings changed since the reset"
rc ab report --samples $T/ab --json | grep -q '"verdict": "B better"'
tap $? "ab report --json"
rc ab sample | rc ab report --samples - >/dev/null
tap $? "ab sample is what ab report --samples reads"

# A kernel that cannot honour every value of the table: the 6.12 port's
# sync_mmap_order lists no order 0 or 1, and an older module without the
# streams files. status says so; nothing that would write them does.
U=$T/unavail
MU=$U/sys/kernel/mm/rapolicy
"$fake" create "$U" "$("$bin/rapolicyctl" --version | cut -d' ' -f2)" \
	"sync_mmap_order=0 sync_mmap_order=1 streams" || exit 1
ru() {
	"$bin/rapolicyctl" --root "$U" "$@"
	local ret=$?
	"$fake" settle "$U"
	return $ret
}
utree() { find "$MU" -type f | sort | xargs cat; }
grep -qx "\[off\] fault_around 2 3 4 5 6 7 8 9" $MU/sync_mmap_order && [ ! -e $MU/streams ] &&
	[ ! -e $MU/ab/streams ]
tap $? "the fake tree can lack values and policies"
ru status >$T/out 2>$T/err
tap $? "status on a kernel lacking values: exit 0 ($(cat $T/err))"
grep -qx "unavailable: sync_mmap_order=0 sync_mmap_order=1 streams" $T/out &&
	grep -qE "^streams +unavailable +unavailable$" $T/out
tap $? "status names what is unavailable"
ru status --json >$T/out
tr -d ' \n' <$T/out | grep -q '"unavailable":\["sync_mmap_order=0","sync_mmap_order=1","streams"\]' &&
	! grep -q '"streams": "' $T/out
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
ru profile seed >/dev/null && ru set sync_mmap_order=2 >/dev/null &&
	grep -qx "off fault_around \[2\] 3 4 5 6 7 8 9" $MU/sync_mmap_order
tap $? "available values are taken"
ru get >$T/out && ! grep -q "^streams=" $T/out && ru get streams >/dev/null 2>$T/err
[ $? = 1 ] && grep -qx "rapolicyctl: streams: not available on this kernel" $T/err
tap $? "get leaves out the missing policy; asked for it, exit 1"
ru save >$T/u-state.json && ru profile stock >/dev/null && ru apply $T/u-state.json >/dev/null &&
	ru save | cmp -s - $T/u-state.json
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

# The module gone
rm -rf "$R/sys/kernel/mm/rapolicy"
rc status 2>$T/err; [ $? = 1 ] && grep -q "modprobe rapolicy" $T/err
tap $? "status without the module: exit 1, says what to do"
echo -n >$R/proc/kallsyms
rc status 2>$T/err; grep -q "no readahead policy hooks" $T/err
tap $? "without the hooks it says so"
echo "1..$n"
exit $((fails > 0))
