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
	usr/lib/systemd/system/rapolicy.service etc/rapolicy.conf; do
	[ -f "$D/$f" ] || { echo "# missing $f"; ok=1; }
done
tap $ok "tools, man pages, completion, unit and /etc/rapolicy.conf in place"
unit=$D/usr/lib/systemd/system/rapolicy.service
grep -qx "ExecStart=/usr/sbin/rapolicyctl apply /etc/rapolicy.conf" "$unit" &&
	grep -qx "ExecStartPre=/sbin/modprobe rapolicy" "$unit" &&
	grep -qx "ExecCondition=/bin/grep -qw readahead_policy_register /proc/kallsyms" "$unit" &&
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
echo '{"a": {}}' >"$D/etc/rapolicy.conf"
make -s -C "$here" BUILD="$build" DESTDIR="$D" PREFIX=/usr install >/dev/null &&
	[ "$(cat "$D/etc/rapolicy.conf")" = '{"a": {}}' ]
tap $? "a second install keeps an existing /etc/rapolicy.conf"
echo "1..$n"
exit $((fails > 0))
