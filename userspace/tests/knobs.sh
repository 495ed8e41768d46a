#!/bin/bash
# Every knob of the module from the tool (TAP): a RAP_KNOB line added to
# module/table.h is shown, set, saved, applied, completed and documented
# by a rapolicyctl built from that table with no other change; and the
# tool's source names no knob and no single policy, so that stays true.
#   knobs.sh BINDIR FAKE_TREE
set -uo pipefail
bin=$(cd "$1" && pwd) fake=$(realpath "$2")
here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
. "$here/tests/prelude.sh"

# The rule the knob test below relies on
ok=0
for k in $(printf '%s\n' '#define RAP_KNOB(n, s, a, u, h) knob n' '#include "table.h"' |
	   cpp -P -I"$top/module" - | awk '$1 == "knob" { print $2 }'); do
	grep -nw "$k" "$here"/rapolicyctl/*.c && { echo "# rapolicyctl names the knob $k"; ok=1; }
done
grep -n 'POL_[a-z]' "$here"/rapolicyctl/*.c && { echo "# rapolicyctl names a policy in code"; ok=1; }
tap $ok "rapolicyctl's C names no knob of the table and no single policy"
sed -n '/^static struct attribute \*rap_knob_attrs\[\]/,/^};/p; /^static struct attribute \*rap_policy_attrs\[\]/,/^};/p' \
	"$top/module/sysfs.c" | grep -v '^static\|^};\|^#define RAP_\(KNOB\|POLICY\)\|^#include "table.h"\|^	NULL,$' >$T/extra
[ ! -s $T/extra ] && grep -q "rap_knob_attrs" "$top/module/sysfs.c"
tap $? "module/sysfs.c: each arm's policy and number files are the table's ($(cat $T/extra))"
at_load=$(printf '%s\n' '#define RAP_KNOB(n, s, a, u, h) knob n a' '#include "table.h"' |
	cpp -P -I"$top/module" - | awk '$2 == "streams_max_kb" { print $3 }' | tr -d '"')
grep -qx "#define RAP_STREAM_MAX_KB	$at_load" "$top/module/tracker.c"
tap $? "streams_max_kb at load: the table's $at_load is module/tracker.c's"

# A table with one knob more, and rapolicyctl built from it
mkdir $T/inc
awk '/^RAP_STAT\(sync_miss,/ && !done {
	print "RAP_KNOB(test_knob, 1, \"7\", \"pages\", \"a knob only this test has\")"; done = 1 }
	{ print }' "$top/module/table.h" >$T/inc/table.h
grep -q test_knob $T/inc/table.h && make -s -C "$here" BUILD=$T/build CPPFLAGS=-I$T/inc \
	$T/build/bin/rapolicyctl >$T/out 2>&1
tap $? "rapolicyctl builds from a table with a new knob ($(tail -n 3 $T/out))"
rapctl=$T/build/bin/rapolicyctl
R=$T/knobroot
M=$R/sys/kernel/mm/rapolicy
"$fake" create "$R" && echo 7 >$M/test_knob && echo 7 >$M/ab/test_knob || exit 1
rc get test_knob | q -x test_knob=7 && rc status | q -E "^test_knob +7 +7$" &&
	rc status --json | tr -d ' \n' | q '"test_knob":7'
tap $? "get and status show it"
rc set test_knob=9 >$T/out && grep -qx 9 $M/test_knob && grep -qx 7 $M/ab/test_knob &&
	grep -qx "test_knob: 7 -> 9" $T/out && rc ab set test_knob=3 >/dev/null && grep -qx 3 $M/ab/test_knob
tap $? "set and ab set write it"
rc set test_knob=lots 2>$T/err; [ $? = 2 ] && grep -qx 9 $M/test_knob &&
	grep -q "test_knob: 'lots' is not a number of pages" $T/err
tap $? "a value that is no number: exit 2, named with its unit"
rc save >$T/saved && tr -d ' \n' <$T/saved | q '"a":{[^}]*"test_knob":9' &&
	rc set test_knob=7 >/dev/null && rc ab set test_knob=7 >/dev/null && rc apply $T/saved >/dev/null &&
	grep -qx 9 $M/test_knob && grep -qx 3 $M/ab/test_knob
tap $? "save keeps it, apply restores it"
rc apply --check $T/saved | q "valid"
tap $? "apply --check takes it"
rm $M/test_knob $M/ab/test_knob
rc status | q "^unavailable:.* test_knob" && rc set test_knob=7 >/dev/null &&
	! rc set test_knob=8 2>/dev/null
tap $? "a module without it: unavailable, at its value at load (7) only"
"$rapctl" policies | q "^  test_knob  *pages, a knob only this test has$" &&
	"$rapctl" set --help | q "^  test_knob " && "$rapctl" get --help | q "^  test_knob "
tap $? "policies, set --help and get --help document it"
PATH=$T/build/bin:$PATH bash -c '. "$0"; COMP_WORDS=(rapolicyctl set ""); COMP_CWORD=2;
	_rapolicyctl; printf "%s\n" "${COMPREPLY[@]}"' "$here/rapolicyctl/rapolicyctl.bash-completion" |
	grep -qx "test_knob="
tap $? "the completion offers it to set"
echo "1..$n"
exit $((fails > 0))
