#!/bin/bash
# rapolicyctl stats --prometheus against promtool, the textfile recipe of
# rapolicyctl(8), and docs/prometheus's rules under promtool test rules (TAP).
#   prometheus.sh BINDIR FAKE_TREE
set -uo pipefail
bin=$1 fake=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/prelude.sh"
if ! command -v promtool >/dev/null; then
	echo "not ok 1 - promtool is missing: apt-get install prometheus"
	exit 1
fi

rc stats --prometheus >$T/m
tap $? "stats --prometheus"
promtool check metrics <$T/m >$T/lint 2>&1
tap $? "promtool check metrics: $(tr '\n' ' ' <$T/lint)"
[ ! -s $T/lint ]
tap $? "promtool check metrics has no findings"
counters=$(bash "$top/tests/table.sh" | awk '$1 == "stat" { print $2 }')
ok=0
for c in $counters; do
	[ "$(grep -c "^rapolicy_${c}_total{arm=\"[ab]\"} 0$" $T/m)" = 2 ] || ok=1
done
tap $ok "every counter of module/table.h is one _total family with arm a and b"
! grep -qE '^rapolicy_[a-z_]*(ratio|rate|_per_)' $T/m
tap $? "no derived ratios"
grep -q '^rapolicy_policy{arm="b",policy="descending_around",value="off"} 1$' $T/m
tap $? "arm B's policies are exported"
grep -qx "rapolicy_up 1" $T/m
tap $? "rapolicy_up 1 with the module"
ts=$(sed -n 's/^rapolicy_exporter_timestamp_seconds //p' $T/m)
[ -n "$ts" ] && [ $(( $(date +%s) - ts )) -ge 0 ] && [ $(( $(date +%s) - ts )) -le 60 ]
tap $? "rapolicy_exporter_timestamp_seconds is the time of the export ($ts)"
grep -qx 'rapolicy_ab_buckets{arm="a"} 0' $T/m && grep -qx 'rapolicy_ab_buckets{arm="b"} 0' $T/m
tap $? "rapolicy_ab_buckets per arm, 0 outside sample mode"
rc ab assign sample 500 >/dev/null && "$fake" settle "$R"
for i in $(seq 0 63); do echo "$i $( [ $((i % 3)) = 0 ] && echo b || echo a) 0 0"; done \
	>"$R/sys/kernel/mm/rapolicy/stats/buckets"
rc stats --prometheus >$T/m2
grep -qx 'rapolicy_ab_buckets{arm="a"} 42' $T/m2 && grep -qx 'rapolicy_ab_buckets{arm="b"} 22' $T/m2
tap $? "in sample mode rapolicy_ab_buckets counts the buckets of each arm"
for i in $(seq 0 63); do echo "$i b 0 0"; done >"$R/sys/kernel/mm/rapolicy/stats/buckets"
rc stats --prometheus >$T/m2
grep -qx 'rapolicy_ab_holdback{arm="a"} 0' $T/m2 && grep -qx 'rapolicy_ab_holdback{arm="b"} 1' $T/m2
tap $? "every bucket in arm B: rapolicy_ab_holdback{arm=\"b\"} 1, a host held back on B"

# The fleet's per-host estimate, from the samples stream of ab start.
# Bucket b in period p: 40 (b % 9 + 1) (1 + p % 3) major faults, times a
# fixed wobble, times THETA/100 in arm B; 8 pages per fault; arm B's
# buckets a pattern that changes with the period.
M=$R/sys/kernel/mm/rapolicy
buckets() { # PERIOD THETA ZERO
	local b y arm
	for b in $(seq 0 63); do
		arm=a; [ $(((b * 7 + $1 * 13) / 5 % 2)) = 1 ] && arm=b
		y=$((40 * (b % 9 + 1) * (1 + $1 % 3) * (80 + (b * 37 + $1 * 11) % 41) / 100))
		[ $arm = b ] && y=$((y * $2 / 100))
		[ "$3" = 0 ] && y=0
		echo "$b $arm $y $((y * 8))"
	done >$M/stats/buckets
}
periods() { # N THETA: the plan line, N periods, a sample at each end, a new salt between
	local p
	rc ab start --washout 0 --periods 6
	for p in $(seq 1 "$1"); do
		echo $((p * 1000)) >$M/ab/salt
		buckets $p "$2" 0
		rc ab sample
		buckets $p "$2" 1
		rc ab sample
	done
}
effect() { sed -n "s/^rapolicy_ab_effect{key=\"[0-9]*\",metric=\"$1\"} //p" "$2"; }
scaled() { sed -n "s/^rapolicy_ab_arm_scaled{key=\"[0-9]*\",metric=\"$1\",arm=\"$2\"} //p" "$3"; }
rc ab assign sample 500 >/dev/null && rc stats reset
periods 6 60 >$T/s60
rc stats --prometheus --samples $T/s60 >$T/m3
key=$(cat $M/ab/key)
f=$(effect major_faults $T/m3) p=$(effect pages_read $T/m3)
grep -qx "rapolicy_ab_periods{key=\"$key\"} 6" $T/m3 &&
	awk -v f="$f" -v p="$p" 'BEGIN { exit !(f < -0.4 && f > -0.6 && p < -0.4 && p > -0.6) }' &&
	[ "$(grep -c "^rapolicy_ab_effect_variance{key=\"$key\",metric=\"[a-z_]*\"} [0-9]" $T/m3)" = 2 ] &&
	sa=$(scaled major_faults a $T/m3) && sb=$(scaled major_faults b $T/m3) &&
	awk -v a="$sa" -v b="$sb" 'BEGIN { exit !(a > 0 && b / a > 0.55 && b / a < 0.65) }' &&
	[ "$(grep -c "^rapolicy_ab_arm_scaled{key=\"$key\"," $T/m3)" = 4 ] &&
	promtool check metrics <$T/m3 >$T/lint 2>&1 && [ ! -s $T/lint ]
tap $? "stats --samples: 6 periods of B at 60% give ln(B/A) near ln 0.6 (faults $f, pages $p), a variance each, the key, arms' scaled totals B/A near 0.6 ($sb / $sa); promtool clean"
periods 6 100 >$T/s100
rc stats --prometheus --samples $T/s100 >$T/m3
f=$(effect major_faults $T/m3)
awk -v f="$f" 'BEGIN { exit !(f > -0.05 && f < 0.05) }'
tap $? "A/A: an estimate near 0 ($f)"
head -n 2 $T/s100 >$T/washout
rc stats --prometheus --samples $T/washout >$T/m3 && ! grep -q "^rapolicy_ab_effect" $T/m3 &&
	rc stats --prometheus --samples $T/nosuch >$T/m3 && ! grep -q "^rapolicy_ab_effect" $T/m3
tap $? "no estimate in the first washout and opening, nor without a samples file"
echo 1 >$M/stats/settings_changed
rc stats --prometheus --samples $T/s100 >$T/m3 && ! grep -q "^rapolicy_ab_effect" $T/m3
tap $? "a setting changed since the last sample: in transition, no estimate"
echo 0 >$M/stats/settings_changed
echo 100 >$M/ab/sample_permille
rc stats --prometheus --samples $T/s100 >$T/m3 && ! grep -q "^rapolicy_ab_effect" $T/m3
tap $? "another permille than the plan's: no estimate"
echo 500 >$M/ab/sample_permille
sed '5s/"settings_changed": *0/"settings_changed":1/' $T/s100 >$T/changed && ! cmp -s $T/s100 $T/changed &&
	rc stats --prometheus --samples $T/changed >$T/m3 && ! grep -q "^rapolicy_ab_effect" $T/m3
tap $? "a setting changed within a period: no estimate, whatever the counts"
rc stats --samples $T/s100 >/dev/null 2>$T/err; [ $? = 2 ] && grep -q "needs --prometheus" $T/err
tap $? "--samples without --prometheus: exit 2"
rc ab assign off >/dev/null && "$fake" settle "$R"

mv "$R/sys/kernel/mm/rapolicy" "$T/gone"
rc stats --prometheus >$T/m
tap $? "without the module: exit 0"
[ "$(grep -v '^#' $T/m | grep -v '^rapolicy_exporter_timestamp_seconds [0-9]*$')" = "rapolicy_up 0" ] &&
	promtool check metrics <$T/m
tap $? "without the module: rapolicy_up 0 and the timestamp only, promtool clean"
mv "$T/gone" "$R/sys/kernel/mm/rapolicy"

# The textfile recipe of rapolicyctl(8), verbatim
recipe=$(sed -n '/^\.\\" textfile-recipe-begin/,/^\.\\" textfile-recipe-end/p' \
	"$top/userspace/rapolicyctl/rapolicyctl.8" | grep -v '^\.')
[ -n "$recipe" ]
tap $? "rapolicyctl(8) has the textfile recipe"
D=$T/textfile
mkdir -p $D
mkdir -p $T/path
printf '#!/bin/sh\nexec %s --root %s "$@"\n' "$bin/rapolicyctl" "$R" >$T/path/rapolicyctl
chmod +x $T/path/rapolicyctl
(export PATH=$T/path:$PATH; DIR=$D; eval "${recipe//\/var\/lib\/prometheus\/node-exporter/$D}")
[ "$(ls $D)" = rapolicy.prom ] && grep -qx "rapolicy_up 1" $D/rapolicy.prom
tap $? "the recipe leaves rapolicy.prom and nothing else"
printf '#!/bin/sh\necho partial\nexit 1\n' >$T/path/rapolicyctl
(export PATH=$T/path:$PATH; eval "${recipe//\/var\/lib\/prometheus\/node-exporter/$D}") 2>/dev/null
[ "$(ls $D)" = rapolicy.prom ] && grep -qx "rapolicy_up 1" $D/rapolicy.prom
tap $? "a failing run leaves the old file and no temporary file"

# The rules' arithmetic is abtest/fleet.c's: ab_sim writes a promtool
# test of fixed hosts with the values fleet.c computes; a rule that
# drifts from it (a constant, a term) fails here
rules=$top/docs/prometheus/rapolicy.rules.yml
"$(dirname "$fake")/ab_sim" --rules-test $T/fleet.test.yml "$rules" >$T/fleet.out &&
	promtool test rules $T/fleet.test.yml >$T/out 2>&1
tap $? "the rules compute fleet.c's pooling, mixture, bounds, verdict and holdback within 1e-6: $(sed 's/^# //' $T/fleet.out)"
sed 's/0\.001225 \* metric:rapolicy_ab_fleet_s:sum/0.0012 * metric:rapolicy_ab_fleet_s:sum/' "$rules" >$T/drift.yml &&
	"$(dirname "$fake")/ab_sim" --rules-test $T/drift.test.yml $T/drift.yml >/dev/null &&
	! promtool test rules $T/drift.test.yml >/dev/null 2>&1
tap $? "a rule with another tau^2 fails that test"

cd "$top/docs/prometheus" && promtool check rules rapolicy.rules.yml >/dev/null
tap $? "promtool check rules docs/prometheus/rapolicy.rules.yml"
promtool test rules rapolicy.rules.test.yml >$T/out 2>&1
tap $? "promtool test rules: verdict, transitions, unequal arms, shared keys, continuous watching, guardrail, holdback, staleness"
[ "$(grep -v "^#" rapolicy.rules.yml | grep -c "job=")" = 1 ] && grep -q 'up{job="node"}' rapolicy.rules.yml
tap $? "the rules have one job selector, up{job=\"node\"}"
sh rules-job.sh node-prod >$T/job.yml && grep -q 'up{job="node-prod"}' $T/job.yml &&
	! grep -q 'job="node"' $T/job.yml && promtool check rules $T/job.yml >/dev/null &&
	[ "$(sh rules-job.sh node)" = "$(cat rapolicy.rules.yml)" ]
tap $? "rules-job.sh node-prod: the rules for that job, promtool clean; for node, the shipped file"
sh rules-job.sh 'x"}' >$T/out 2>$T/err; [ $? = 2 ] && [ ! -s $T/out ] && [ "$(wc -l <$T/err)" = 1 ]
tap $? "rules-job.sh with a bad job name: one line of error, exit 2"
[ "$(grep -c '^      - alert:' rapolicy.rules.yml)" = "$(grep -c '^          severity: \(critical\|warning\|info\)$' rapolicy.rules.yml)" ]
tap $? "every alert has a severity label"
echo "1..$n"
exit $((fails > 0))
