#!/bin/bash
# make install into a DESTDIR (TAP): conventional paths, a unit that runs
# the installed rapolicyctl on the installed /etc/rapolicy.conf after
# modprobe, and a rapolicy.conf that rapolicyctl applies.
#   install.sh BUILD FAKE_TREE
set -uo pipefail
build=$1 fake=$2
here=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/../../tests/tap.sh"
D=$T/dest
make -s -C "$here" BUILD="$build" DESTDIR="$D" PREFIX=/usr install >/dev/null
tap $? "make install DESTDIR=... PREFIX=/usr"
ok=0
for f in usr/sbin/rapolicyctl usr/bin/rawalk usr/share/man/man8/rapolicyctl.8 \
	usr/share/man/man1/rawalk.1 usr/share/bash-completion/completions/rapolicyctl \
	usr/lib/systemd/system/rapolicy.service usr/lib/systemd/system/rapolicy-ab.service \
	usr/lib/systemd/system/rapolicy-ab.timer etc/rapolicy.conf; do
	[ -f "$D/$f" ] || { echo "# missing $f"; ok=1; }
done
tap $ok "tools, man pages, completion, units and /etc/rapolicy.conf in place"
unit=$D/usr/lib/systemd/system/rapolicy.service
grep -q "^ExecStart=/bin/sh -c '/usr/sbin/rapolicyctl apply /etc/rapolicy.conf || " "$unit" &&
	grep -qx "ExecStartPre=/sbin/modprobe rapolicy" "$unit" &&
	grep -q "^ExecCondition=/bin/sh -c 'grep -qw readahead_policy_register /proc/kallsyms || " "$unit" &&
	! grep -q "@[A-Z]*@" "$unit" &&
	grep -qx "ConditionPathExists=/etc/rapolicy.conf" "$unit" &&
	grep -qx "WantedBy=sysinit.target" "$unit"
tap $? "the unit loads the module, then applies /etc/rapolicy.conf with the installed tool, on a kernel with the hooks only"
grep -qx "DefaultDependencies=no" "$unit" && grep -qx "Before=sysinit.target shutdown.target" "$unit" &&
	grep -qx "After=systemd-modules-load.service local-fs.target" "$unit"
tap $? "the unit runs before sysinit.target, so before the services it governs"
awk '/^ExecStart=/ { a = NR } /^ExecStartPost=/ { p = NR } END { exit !(a && p > a) }' "$unit" &&
	grep -qx "ExecStartPost=/usr/sbin/rapolicyctl stats reset" "$unit"
tap $? "after apply the counters start from zero: boot is no settings change"
"$fake" create "$T/root"
"$D/usr/sbin/rapolicyctl" --root "$T/root" apply "$D/etc/rapolicy.conf" >/dev/null &&
	"$fake" settle "$T/root" &&
	"$D/usr/sbin/rapolicyctl" --root "$T/root" profile verify stock >/dev/null
tap $? "the installed rapolicy.conf applies: stock, A/B off"
# The unit's commands, run as systemd would (no % specifiers, no $
# variables in them) with the installed tool on the fake tree
R=$T/root
M=$R/sys/kernel/mm/rapolicy
tool="$D/usr/sbin/rapolicyctl --root $R"
execline() { # KEY: the unit's KEY= line, its paths under $R and $D
	sed -n "s/^$1=//p" "$unit" | sed "s|/usr/sbin/rapolicyctl|$tool|g;
		s|/etc/rapolicy.conf|$D/etc/rapolicy.conf|g; s|/proc/kallsyms|$R/proc/kallsyms|g"
}
# modprobe.d options set arm A at load; a rapolicy.conf that does not
# apply must leave stock, not them, and say why
$tool profile best >/dev/null && "$fake" settle "$R" && $tool ab assign sample 100 >/dev/null &&
	"$fake" settle "$R"
cp "$D/etc/rapolicy.conf" $T/conf.orig
echo '{"a": {"pmd_hit": "on", "vma_limit": "sometimes"}}' >"$D/etc/rapolicy.conf"
eval "$(execline ExecStart)" >$T/out 2>$T/err
r=$?
"$fake" settle "$R"
[ $r = 1 ] && $tool profile verify stock >/dev/null && $tool profile --arm b verify stock >/dev/null &&
	grep -qx "\[off\] cgroup sample" $M/ab/mode && grep -q "vma_limit" $T/err &&
	grep -q "rapolicy.conf not applied (the line above says why): every policy set to stock, A/B off" $T/err
tap $? "the unit's ExecStart with a bad rapolicy.conf: fails, leaves stock, says why ($r: $(tr '\n' ' ' <$T/err))"
cp $T/conf.orig "$D/etc/rapolicy.conf"
$tool set pmd_hit=on >/dev/null && "$fake" settle "$R"
eval "$(execline ExecStart)" >/dev/null 2>$T/err && "$fake" settle "$R" &&
	$tool profile verify stock >/dev/null && [ ! -s $T/err ]
tap $? "the unit's ExecStart with the shipped rapolicy.conf: applied, nothing on stderr"
eval "$(execline ExecCondition)" >$T/out
r=$?
: >"$R/proc/kallsyms"
eval "$(execline ExecCondition)" >$T/out2
r2=$?
[ $r = 0 ] && [ $r2 = 1 ] && grep -q "skipped: this kernel has no readahead policy hooks" $T/out2
tap $? "the unit's ExecCondition: runs on a kernel with the hooks, skips one without and says so"

# rapolicy-ab.timer: every minute, rapolicy-ab.service's ab step on the
# experiment file; run as systemd would, on the fake tree
abs=$D/usr/lib/systemd/system/rapolicy-ab.service
abt=$D/usr/lib/systemd/system/rapolicy-ab.timer
[ "$(sed -n 's/^ExecStart=//p' "$abs")" = "/usr/sbin/rapolicyctl ab step --samples /var/lib/rapolicy/samples" ] &&
	grep -qx "ConditionPathExists=/var/lib/rapolicy/samples" "$abs" &&
	grep -qx "OnUnitActiveSec=1min" "$abt" && grep -qx "WantedBy=timers.target" "$abt" &&
	! grep -q "^Unit=" "$abt" && ! grep -q "@[A-Z]*@" "$abs"
tap $? "rapolicy-ab.timer starts rapolicy-ab.service every minute: ab step on /var/lib/rapolicy/samples, if it exists"
if command -v systemd-analyze >/dev/null; then
	sed "s|^ExecStart=/usr/sbin/rapolicyctl|ExecStart=$D/usr/sbin/rapolicyctl|" "$abs" >$T/rapolicy-ab.service
	cp "$abt" $T/rapolicy-ab.timer
	out=$(cd $T && systemd-analyze verify --man=no rapolicy-ab.service rapolicy-ab.timer 2>&1)
	r=$?
	[ -n "$out" ] && echo "$out" | sed 's/^/# /'
	tap $r "systemd-analyze verify: rapolicy-ab.service and .timer"
else
	tap 0 "systemd-analyze verify # SKIP no systemd-analyze"
fi
$tool ab assign sample 500 >/dev/null && "$fake" settle "$R" &&
	$tool ab start --periods 1 --period 0 --washout 0 >$T/ab.samples && "$fake" settle "$R"
sed -n "s/^ExecStart=//p" "$abs" | sed "s|/usr/sbin/rapolicyctl|$tool|; s|/var/lib/rapolicy/samples|$T/ab.samples|" >$T/cmd
eval "$(cat $T/cmd)" && "$fake" settle "$R" && eval "$(cat $T/cmd)" && "$fake" settle "$R" &&
	eval "$(cat $T/cmd)" && [ "$(wc -l <$T/ab.samples)" = 3 ] &&
	$tool ab report --samples $T/ab.samples | grep -q "^mode sample; 1 period of 1 planned"
tap $? "the service's command, run three times: the period opened and closed, no more; ab report reads it"
$tool ab assign off >/dev/null && "$fake" settle "$R"

echo '{"a": {}}' >"$D/etc/rapolicy.conf"
make -s -C "$here" BUILD="$build" DESTDIR="$D" PREFIX=/usr install >/dev/null &&
	[ "$(cat "$D/etc/rapolicy.conf")" = '{"a": {}}' ]
tap $? "a second install keeps an existing /etc/rapolicy.conf"
echo "1..$n"
exit $((fails > 0))
