#!/bin/bash
# The counting of make check itself (TAP): tests/tap-count.awk on suites
# that stop halfway, miscount or mark a TODO, and the guest helpers
# (tests/guest/lib.sh) on a walk that fails, a counter that is missing and
# a script that exits before its end, run by the guest's shell.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/tap.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# counts TAP: "PASSED FAILED SKIPPED" of tap-count.awk for TAP
counts() {
	printf '%s\n' "$1" | awk -f "$top/tests/tap-count.awk" | head -n 1
}
expect() {
	local want=$1 tap_text=$2 desc=$3 got
	got=$(counts "$tap_text")
	[ "$got" = "$want" ]
	tap $? "tap-count: $desc ($got, want $want)"
}

expect "2 0 0" $'1..2\nok 1 - a\nok 2 - b' "a leading plan met"
expect "2 0 0" $'ok 1 - a\nok 2 - b\n1..2' "a trailing plan met"
expect "2 0 2" $'ok 1 - a\n1..1\n1..2\nok 1 - b\nok 2 - c # SKIP why\n1..0 # SKIP none here' \
	"several streams, each with its plan, and a skipped one"
expect "1 1 0" $'1..5\nok 1 - a' "a suite that stops after its leading plan fails"
expect "2 1 0" $'ok 1 - a\n1..1\nok 1 - b' "a suite that stops before its trailing plan fails"
expect "1 1 0" $'ok 1 - a' "a suite without a plan fails"
expect "1 1 0" $'ok 1 - a\nok 2 - b # TODO later\n1..2' "a TODO is not a pass"
expect "1 1 0" $'ok 1 - a\nnot ok 2 - b\n1..2' "a failure is a failure"

# The guest helpers, in the guest's shell (busybox sh where there is one)
gsh=sh
command -v busybox >/dev/null && gsh="busybox sh"
mkdir -p "$work/bin" "$work/sysfs/stats"
printf '#!/bin/sh\necho "rawalk: cannot open" >&2\nexit 1\n' >"$work/bin/rawalk"
chmod +x "$work/bin/rawalk"
echo 7 >"$work/sysfs/stats/sync_miss"
cat >"$work/walks.sh" <<'GUEST'
. "$GUEST_DIR/lib.sh"
walk normal reverse /nonexistent
[ "$walk_major" -le 4 ]
tap $? "failed walk, upper bound"
walk normal reverse /nonexistent
tap 0 "failed walk, a test that asks nothing of it"
[ "$(counter sync_miss)" -le 9 ]
tap $? "counter present"
[ "$(counter no_such_counter)" -le 9 ]
tap $? "counter missing, upper bound"
tap_end
GUEST
printf '. "$GUEST_DIR/lib.sh"\ntap 0 one\nexit 3\ntap 0 two\ntap_end\n' >"$work/dies.sh"
printf '. "$GUEST_DIR/lib.sh"\nsuite dies.sh\nsuite walks.sh\ntap_end\n' >"$work/run.sh"
cp "$top/tests/guest/lib.sh" "$work/lib.sh"
out=$(cd "$work" && PATH="$work/bin:$PATH" GUEST_DIR="$work" RAPOLICY_SYSFS="$work/sysfs" \
	$gsh "$work/run.sh" 2>/dev/null)
printf '%s\n' "$out" | comment
grep -q '^not ok [0-9]* - failed walk, upper bound' <<<"$out"
tap $? "guest lib: a failed walk fails an upper bound"
grep -q '^not ok [0-9]* - failed walk, a test that asks nothing of it \[measurement failed' <<<"$out"
tap $? "guest lib: a failed walk fails the next test whatever it asks"
grep -q '^ok [0-9]* - counter present' <<<"$out" &&
	grep -q '^not ok [0-9]* - counter missing, upper bound' <<<"$out"
tap $? "guest lib: a missing counter fails, a present one passes"
grep -q '^not ok [0-9]* - dies.sh ran to its end (it exited with status 3)' <<<"$out"
tap $? "guest lib: suite() fails a script that exits halfway"
[ "$(counts "$out")" = "2 5 0" ]
tap $? "tap-count: the guest run counts 2 passed, 5 failed ($(counts "$out"))"
echo "1..$n"
