#!/bin/bash
# rapolicyctl stats --prometheus against promtool, the textfile recipe of
# rapolicyctl(8), and docs/prometheus's rules under promtool test rules (TAP).
#   prometheus.sh BINDIR FAKE_TREE
set -uo pipefail
bin=$1 fake=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/../../tests/tap.sh"
if ! command -v promtool >/dev/null; then
	echo "not ok 1 - promtool is missing: apt-get install prometheus"
	exit 1
fi
R=$T/root
"$fake" create "$R" || exit 1
rc() { "$bin/rapolicyctl" --root "$R" "$@"; }

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

mv "$R/sys/kernel/mm/rapolicy" "$T/gone"
rc stats --prometheus >$T/m
tap $? "without the module: exit 0"
[ "$(grep -v '^#' $T/m)" = "rapolicy_up 0" ] && promtool check metrics <$T/m
tap $? "without the module: rapolicy_up 0 only, promtool clean"
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

cd "$top/docs/prometheus" && promtool check rules rapolicy.rules.yml >/dev/null
tap $? "promtool check rules docs/prometheus/rapolicy.rules.yml"
promtool test rules rapolicy.rules.test.yml >$T/out 2>&1
tap $? "promtool test rules: fleet rates, verdict, A/A, alerts"
echo "1..$n"
exit $((fails > 0))
