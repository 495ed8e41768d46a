#!/bin/sh
# rapolicyctl ab against the real module (TAP): ab set and its validation,
# ab assign cgroup/sample/off, ab status, and ab report in sample mode
# over periods of reverse walks: arm B = profile best against seed (a
# known effect), and an A/A test.
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

# walk: a cold reverse walk of every file (MADV_NORMAL: read-around)
walk() {
	for f in "$SCRATCH"/ab_tool-f*; do
		rawalk --pattern reverse --read-ahead-kb 128 "$f" >/dev/null || return 1
	done
}
# noisy: each file (the heavy one too) walked cold 0, 1 or 2 times, at
# random, so that what each bucket counts varies from period to period
# whatever its arm: an A/A that can fail. Each file's inode and walks go
# to /tmp/ab_tool.walks.
noisy() {
	for f in "$SCRATCH"/ab_tool-f* "$SCRATCH"/ab_tool-heavy; do
		n=$(($(od -An -N1 -tu1 /dev/urandom) % 3))
		echo "$(stat -c %i "$f") $n $(basename "$f")" >>/tmp/ab_tool.walks
		while [ "$n" -gt 0 ]; do
			rawalk --pattern reverse --read-ahead-kb 128 "$f" >/dev/null || return 1
			n=$((n - 1))
		done
	done
}
# periods N SAMPLES [nowash [WALK]]: 'ab start' (a key, a salt, the plan
# line), then N periods, each a washout walk that no sample brackets
# (none with nowash: every walk is cold, so nothing carries over), 'ab
# sample' (the period opens), a walk (WALK, default walk), and 'ab period'
# (a closing sample and the next salt; the last period closes with 'ab
# sample')
periods() {
	rapolicyctl stats reset && rapolicyctl ab start --periods "$1" --washout 0 >"$2" || return 1
	p=1
	while [ $p -le "$1" ]; do
		{ [ "${3:-}" = nowash ] || walk; } && rapolicyctl ab sample >>"$2" &&
			${4:-walk} || return 1
		if [ $p = "$1" ]; then
			rapolicyctl ab sample >>"$2"
		else
			rapolicyctl ab period >>"$2"
		fi || return 1
		p=$((p + 1))
	done
}
# 32 files of 256 KiB to 2 MiB: a reverse walk of one takes 2 major
# faults with profile best, about one per 16 pages with stock read-around
ok=0
for i in $(seq 1 32); do
	rawalk --create $((256 << (i % 4)))K --seed $i "$SCRATCH/ab_tool-f$i" >/dev/null || ok=1
done
tap $ok "32 files of 256 KiB to 2 MiB"
rawalk --create 16M --seed 99 "$SCRATCH/ab_tool-heavy" >/dev/null
tap $? "one heavy file of 16 MiB (its reverse walk takes as many faults as 16 small ones)"

# A/B: arm A the seed profile, arm B best; half the buckets in B
rapolicyctl profile seed >/dev/null && rapolicyctl profile --arm b best >/dev/null &&
	rapolicyctl ab assign sample 500 >/dev/null
tap $? "arm A seed, arm B best, sample 500"
periods 6 /tmp/ab.samples
tap $? "six periods of reverse walks, a new salt and a washout walk for each"
rapolicyctl ab report --samples /tmp/ab.samples >/tmp/ab_tool.report
tap $? "ab report --samples"
sed 's/^/# /' /tmp/ab_tool.report
grep -q "^verdict: B better " /tmp/ab_tool.report
tap $? "seed against best on reverse walks: $(grep '^verdict' /tmp/ab_tool.report)"
grep -q "^mode sample; 6 periods of 6 planned; " /tmp/ab_tool.report
tap $? "the report covers the six periods"
miss_b=$(sed -n 's/^major faults (sync_miss)  *\([0-9]*\)  *\([0-9]*\)$/\2/p' /tmp/ab_tool.report)
[ -n "$miss_b" ] && [ "$miss_b" -le "$(counter sync_miss b)" ]
tap $? "the report's arm B major faults are at most the module's ($miss_b)"
rapolicyctl ab report --samples /tmp/ab.samples --json | grep -q '"verdict": "B better"'
tap $? "ab report --json"

# A/A: both arms stock over the same files
rapolicyctl profile stock >/dev/null && rapolicyctl profile --arm b stock >/dev/null
periods 6 /tmp/aa.samples
tap $? "A/A: six periods"
rapolicyctl ab report --samples /tmp/aa.samples >/tmp/ab_tool.report
sed 's/^/# /' /tmp/ab_tool.report
grep -q "^verdict: no difference detected at this power" /tmp/ab_tool.report
tap $? "A/A: no difference detected at this power"
# Ten more A/A experiments, two periods each (a complementary pair), each
# from its own 'ab start' (its own key and salt), over noisy walks of the
# 32 files and the heavy one: the arms' totals differ by chance. Each
# must reach a verdict (not invalid, not short of data), and at most
# three may call a difference: each calls one with probability at most
# 2.5% (ab_sim's row for this geometry, docs/AB.md, measures 1-2%), so
# four or more in under 1 in 10000 runs of this test (at most one would
# fail 2.5% of them).
calls=0 verdicts=0 keys= ran=0 ps=
for e in 1 2 3 4 5 6 7 8 9 10; do
	: >/tmp/ab_tool.walks
	periods 2 /tmp/aa$e.samples nowash noisy || break
	keys="$keys $(cat "$AB/key")"
	rapolicyctl ab report --samples /tmp/aa$e.samples >/tmp/ab_tool.report || break
	verdict=$(sed -n 's/^verdict: //p' /tmp/ab_tool.report)
	echo "# A/A $e: verdict: $verdict"
	# a call keeps its data in the log: the samples, and each file's
	# inode and walks in each period (a cold walk of a file takes the
	# same faults every time, so its bucket's count follows from them)
	case $verdict in
	"B better"* | "B worse"*)
		calls=$((calls + 1)) verdicts=$((verdicts + 1))
		sed "s/^/# A\/A $e samples: /" /tmp/aa$e.samples
		sed "s/^/# A\/A $e walks: /" /tmp/ab_tool.walks
		;;
	"no difference detected at this power"*) verdicts=$((verdicts + 1)) ;;
	esac
	ps="$ps $(echo "$verdict" | sed -n 's/.*major faults [^]]*], p=\([0-9.e-]*\).*/\1/p')"
	ran=$((ran + 1))
done
[ $ran = 10 ] && [ $verdicts = 10 ] && [ $calls -le 3 ] &&
	[ "$(echo $keys | tr ' ' '\n' | sort -u | wc -l)" = 10 ]
tap $? "ten noisy A/A experiments, ten keys, ten verdicts ($verdicts): $calls called a difference"
distinct=$(echo $ps | tr ' ' '\n' | grep -v '^1$' | sort -u | wc -l)
[ "$distinct" -ge 5 ]
tap $? "the ten A/A experiments differ: $distinct distinct p-values below 1 (p:$ps)"

# Seed against best, three more experiments of a pair of periods, each
# with its own key (other files in each bucket, other totals per arm):
# B better every time. (Over noisy walks the pages read, which both arms
# read whole, vary too much for two periods to bound them within +5%.)
better=0
for e in 1 2 3; do
	rapolicyctl profile seed >/dev/null && rapolicyctl profile --arm b best >/dev/null &&
		periods 2 /tmp/sb$e.samples nowash || break
	rapolicyctl ab report --samples /tmp/sb$e.samples >/tmp/ab_tool.report || break
	grep '^verdict' /tmp/ab_tool.report | sed "s/^/# seed against best $e: /"
	grep -q "^verdict: B better " /tmp/ab_tool.report && better=$((better + 1))
done
[ $better = 3 ]
tap $? "seed against best, three more keys: B better in $better of 3"

# A B that helps the many small files and costs the one big file more:
# descending_around=window reads the window that ends at a reverse
# walk's miss (fewer faults for the 32 small files), and
# vma_limit=always stops read-around at each VMA's end, so the big
# file, mapped in 512 VMAs (rawalk vmasplit:512) and read forwards,
# takes a fault per VMA where stock reads across them. Its total is
# worse: never B better.
bigwalk() {
	walk && rawalk --pattern vmasplit:512 --read-ahead-kb 128 "$SCRATCH/ab_tool-big" >/dev/null
}
faults_of() {
	rawalk "$@" | sed -n 's/^major_faults: *//p'
}
small_faults() {
	s=0
	for f in "$SCRATCH"/ab_tool-f*; do
		n=$(faults_of --pattern reverse --read-ahead-kb 128 "$f") && [ -n "$n" ] || return 1
		s=$((s + n))
	done
	echo $s
}
rawalk --create 32M --seed 98 "$SCRATCH/ab_tool-big" >/dev/null &&
	rapolicyctl profile stock >/dev/null && rapolicyctl profile --arm b stock >/dev/null &&
	rapolicyctl ab set descending_around=window vma_limit=always >/dev/null
tap $? "arm A stock, arm B stock with descending_around=window vma_limit=always"
# each file's faults under A's policies and under B's, every file in arm A
rapolicyctl ab assign off >/dev/null
small_a=$(small_faults) big_a=$(faults_of --pattern vmasplit:512 --read-ahead-kb 128 "$SCRATCH/ab_tool-big")
rapolicyctl set descending_around=window vma_limit=always >/dev/null
small_b=$(small_faults) big_b=$(faults_of --pattern vmasplit:512 --read-ahead-kb 128 "$SCRATCH/ab_tool-big")
rapolicyctl profile stock >/dev/null && rapolicyctl ab assign sample 500 >/dev/null
[ -n "$small_b" ] && [ -n "$big_b" ] && [ "$small_b" -lt "$small_a" ] &&
	[ "$((small_b + big_b))" -gt "$((small_a + big_a))" ]
tap $? "B's policies: the 32 small files $small_a -> $small_b major faults, the big file $big_a -> $big_b (total $((small_a + big_a)) -> $((small_b + big_b)))"
# Two periods are a single pair for the big file, whose bucket alone
# carries most of the faults: the test cannot reject no effect on that,
# but the estimate must say faults up, and the verdict never B better.
better=0 up=0
for e in 1 2 3; do
	periods 2 /tmp/hb$e.samples nowash bigwalk || break
	rapolicyctl ab report --samples /tmp/hb$e.samples >/tmp/ab_tool.report || break
	grep '^verdict' /tmp/ab_tool.report | sed "s/^/# small files helped, big file hurt $e: /"
	grep -q "^verdict: B better " /tmp/ab_tool.report && better=$((better + 1))
	grep -q "^B against A, major faults: *+[1-9]" /tmp/ab_tool.report && up=$((up + 1))
done
[ $better = 0 ] && [ $up = 3 ]
tap $? "small files helped, the big file's total worse: B better in $better of 3, faults up in $up"
rapolicyctl profile --arm b stock >/dev/null

# A change within a period makes it invalid; samples without a plan are refused
rapolicyctl ab start --periods 1 --washout 0 >/tmp/chg.samples &&
	rapolicyctl ab sample >>/tmp/chg.samples &&
	rapolicyctl ab set pmd_hit=on >/dev/null && rapolicyctl ab sample >>/tmp/chg.samples
rapolicyctl ab report --samples /tmp/chg.samples |
	grep -q "^verdict: invalid: settings changed"
tap $? "a setting change within a period: invalid: settings changed"
sed 1d /tmp/chg.samples >/tmp/old.samples
rapolicyctl ab report --samples /tmp/old.samples >/tmp/ab_tool.out 2>/tmp/ab_tool.err
[ $? = 1 ] && grep -q "no plan line" /tmp/ab_tool.err
tap $? "samples without a plan line: an error, no verdict"
key=$(cat "$AB/key")
rapolicyctl ab start --run --periods 2 --period 0.1 --washout 0.1 >/tmp/run.samples &&
	[ "$(cat "$AB/key")" != "$key" ] &&
	rapolicyctl ab report --samples /tmp/run.samples | grep -q "^mode sample; 2 periods of 2 planned;"
tap $? "ab start --run: a new key, two periods it samples itself"
rapolicyctl ab assign off >/dev/null
rapolicyctl ab start >/dev/null 2>&1
[ $? = 1 ]
tap $? "no experiment starts while the mode is off"

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
