#!/bin/bash
# Version skew (TAP): after an upgrade of the tool and before the reboot
# that loads the new module, the read-only commands (status, get, save,
# stats and its --prometheus metrics) work against a module one version
# older and one newer; a write names what differs and writes only what
# both have. A module of the tool's own version must still be exact.
#   skew.sh BINDIR FAKE_TREE
set -uo pipefail
bin=$1 fake=$2
. "$(dirname "$0")/prelude.sh"
ver=$("$bin/rapolicyctl" --version | cut -d' ' -f2)
# on ROOT ARGS: rapolicyctl on ROOT's fake tree, then what the module shows
on() {
	local root=$1
	shift
	"$bin/rapolicyctl" --root "$root" "$@"
	local ret=$?
	"$fake" settle "$root"
	return $ret
}

# One version older: no random_miss, no stream table bound, no random_*
# counters (what 0.0.9 lacked of this table, near enough)
O=$T/old
old_lacks="random_miss streams_max_kb stats/random_fault stats/random_return stats/random_credit stats/random_marker"
"$fake" create $O 0.0.9 "$old_lacks" || exit 1
[ ! -e $O/sys/kernel/mm/rapolicy/stats/a/random_fault ] && [ ! -e $O/sys/kernel/mm/rapolicy/random_miss ]
tap $? "the fake tree of 0.0.9 lacks the policy and the counters"
on $O status >$T/out 2>$T/err
tap $? "status against 0.0.9: exit 0 ($(head -c 200 $T/err))"
grep -qx "module:  rapolicy 0.0.9" $T/out &&
	grep -qx "differs: module 0.0.9, rapolicyctl $ver: the module lacks random_miss streams_max_kb stats/random_fault stats/random_return stats/random_credit stats/random_marker" $T/out
tap $? "status names what 0.0.9 lacks ($(grep differs $T/out))"
on $O status --json >$T/out && json <$T/out && grep -q '"differs": "module 0.0.9' $T/out
tap $? "status --json against 0.0.9: valid, with what differs"
on $O get >$T/out && grep -qx pmd_hit=off $T/out && ! grep -q random_miss $T/out
tap $? "get against 0.0.9"
on $O save >$T/old.json && json <$T/old.json && grep -q '"version": "0.0.9"' $T/old.json &&
	! grep -q random_miss $T/old.json
tap $? "save against 0.0.9: what it has"
on $O stats >$T/out && grep -q "^sync_miss " $T/out && ! grep -q random_fault $T/out
tap $? "stats against 0.0.9: its counters, not those it lacks"
on $O stats --json >$T/out && json <$T/out && ! grep -q random_fault $T/out
tap $? "stats --json against 0.0.9"
on $O stats --prometheus >$T/out && grep -qx "rapolicy_up 1" $T/out &&
	grep -qx 'rapolicy_info{version="0.0.9"} 1' $T/out && grep -q "^rapolicy_sync_miss_total" $T/out &&
	! grep -q random_fault $T/out
tap $? "stats --prometheus against 0.0.9: up, its version, no series of what it lacks"
on $O stats --interval 0.01 --count 1 >/dev/null
tap $? "stats --interval against 0.0.9"
before=$(tree $O)
on $O set pmd_hit=on >$T/out 2>$T/err && grep -q " \[on\]" $O/sys/kernel/mm/rapolicy/pmd_hit &&
	grep -qx "rapolicyctl: warning: module 0.0.9, rapolicyctl $ver: the module lacks random_miss.*; writing what both have" $T/err
tap $? "a write against 0.0.9 names what differs and writes what both have ($(cat $T/err))"
on $O set pmd_hit=off >/dev/null 2>&1
on $O set pmd_hit=on random_miss=fault >/dev/null 2>$T/err
[ $? = 1 ] && [ "$(tree $O)" = "$before" ] && grep -q "random_miss: value 'fault' is not available" $T/err
tap $? "a write of what 0.0.9 lacks: exit 1, named, nothing written"
on $O apply $T/old.json >/dev/null 2>&1 && on $O profile stock >/dev/null 2>&1 && [ "$(tree $O)" = "$before" ]
tap $? "apply of 0.0.9's own save and profile stock (a rollback) work"

# One version newer: a value, a knob and a counter the table lacks
N=$T/new
"$fake" create $N 0.2.0 "+pmd_hit=maybe +walk_limit +stats/new_counter" || exit 1
grep -qx "\[off\] on maybe" $N/sys/kernel/mm/rapolicy/pmd_hit && [ -e $N/sys/kernel/mm/rapolicy/walk_limit ]
tap $? "the fake tree of 0.2.0 has a value, a file and a counter more"
on $N status >$T/out 2>$T/err &&
	grep -qx "differs: module 0.2.0, rapolicyctl $ver: it has pmd_hit=maybe walk_limit stats/new_counter" $T/out
tap $? "status against 0.2.0: exit 0, names what it has ($(cat $T/err; grep differs $T/out))"
on $N status --json | json && on $N save | json && on $N get >/dev/null && on $N stats >/dev/null &&
	on $N stats --prometheus >$T/out && grep -qx "rapolicy_up 1" $T/out
tap $? "status --json, save, get, stats and --prometheus against 0.2.0"
echo "off on [maybe]" >$N/sys/kernel/mm/rapolicy/pmd_hit
on $N status >$T/out && grep -qE "^pmd_hit +maybe +off$" $T/out && on $N save | q '"pmd_hit": "maybe"'
tap $? "a value set by the newer tool: shown and saved as it is"
on $N stats --prometheus >$T/out && grep -q 'policy="pmd_hit",value="on"} 0' $T/out
tap $? "and the metrics of the values both know"
before=$(tree $N)
on $N set pmd_hit=maybe >/dev/null 2>$T/err
[ $? = 2 ] && [ "$(tree $N)" = "$before" ] && grep -q "pmd_hit: 'maybe' is not one of off, on" $T/err
tap $? "a write of a value the tool does not know: exit 2, nothing written"
on $N set vma_limit=always >/dev/null 2>$T/err && grep -q "\[always\]" $N/sys/kernel/mm/rapolicy/vma_limit &&
	grep -q "it has pmd_hit=maybe" $T/err && grep -q "\[maybe\]" $N/sys/kernel/mm/rapolicy/pmd_hit
tap $? "another write leaves the newer value alone and names it"

# The tool's own version: nothing tolerated
S=$T/same
"$fake" create $S "$ver" "stats/random_fault" || exit 1
on $S status >/dev/null 2>$T/err; [ $? = 1 ] && grep -q "stats/a/random_fault" $T/err
tap $? "a module of the tool's version without a counter: exit 1 ($(cat $T/err))"
"$fake" create $S.2 "$ver" "+pmd_hit=maybe" || exit 1
on $S.2 status >/dev/null 2>&1; [ $? = 1 ]
tap $? "a module of the tool's version with a value the table lacks: exit 1"
echo '0.1"} 1' >$O/sys/kernel/mm/rapolicy/version
on $O stats --prometheus >$T/out 2>/dev/null; [ $? = 1 ] && ! grep -q rapolicy_info $T/out
tap $? "a version that would break the metrics' label: exit 1"
echo "1..$n"
exit $((fails > 0))
