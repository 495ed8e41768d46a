#!/bin/bash
# monitoring/ (TAP): the textfile collector writes what `rapolicyctl stats
# --prometheus` prints, atomically, and keeps the last file when it fails;
# its systemd units verify and the timer runs it every minute; the Grafana
# dashboard names only metric families the exporter emits (against the fake
# sysfs tree generated from module/table.h) and only series the Prometheus
# rules record.
#   monitoring.sh BINDIR FAKE_TREE
set -uo pipefail
bin=$1 fake=$2
top=$(cd "$(dirname "$0")/.." && pwd)
mon=$top/monitoring
rules=$top/docs/prometheus/rapolicy.rules.yml
dash=$mon/rapolicy.dashboard.json
. "$top/tests/tap.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

R=$T/root
"$fake" create "$R" || exit 1
# rapolicyctl on PATH as the units give it, on the fake tree
mkdir -p "$T/path" "$T/textfile"
printf '#!/bin/sh\nexec %q --root %q "$@"\n' "$bin/rapolicyctl" "$R" >"$T/path/rapolicyctl"
chmod +x "$T/path/rapolicyctl"

# --- the collector -------------------------------------------------------------
PATH=$T/path:$PATH "$mon/rapolicy-textfile" "$T/textfile"
rc=$?
"$T/path/rapolicyctl" stats --prometheus >$T/want
strip() { grep -v '^rapolicy_exporter_timestamp_seconds ' "$1"; }
[ "$rc" = 0 ] && [ "$(ls -A "$T/textfile")" = rapolicy.prom ] &&
	diff <(strip $T/want) <(strip "$T/textfile/rapolicy.prom") >/dev/null &&
	[ "$(stat -c %a "$T/textfile/rapolicy.prom")" = 644 ]
tap $? "rapolicy-textfile writes rapolicy.prom (0644), what stats --prometheus prints, and nothing else"
promtool check metrics <"$T/textfile/rapolicy.prom" >/dev/null 2>&1
tap $? "promtool check metrics accepts it"

cp "$T/textfile/rapolicy.prom" $T/before
printf '#!/bin/sh\necho half a line\nexit 1\n' >"$T/path/rapolicyctl"
PATH=$T/path:$PATH "$mon/rapolicy-textfile" "$T/textfile" 2>/dev/null
rc=$?
[ "$rc" != 0 ] && [ "$(ls -A "$T/textfile")" = rapolicy.prom ] && cmp -s $T/before "$T/textfile/rapolicy.prom"
tap $? "when rapolicyctl fails: exit $rc, the previous rapolicy.prom kept, no temporary file left"

# --- the units ---------------------------------------------------------------------
make -s -C "$mon" install DESTDIR="$T/inst" PREFIX=/usr >/dev/null
svc=$T/inst/usr/lib/systemd/system/rapolicy-textfile.service
timer=$T/inst/usr/lib/systemd/system/rapolicy-textfile.timer
exec_start=$(sed -n 's/^ExecStart=//p' "$svc")
[ "$exec_start" = "/usr/libexec/rapolicy/rapolicy-textfile /var/lib/prometheus/node-exporter" ] &&
	[ -x "$T/inst/usr/libexec/rapolicy/rapolicy-textfile" ] &&
	grep -qx 'ConditionPathIsDirectory=/var/lib/prometheus/node-exporter' "$svc"
tap $? "the service runs the installed rapolicy-textfile into node_exporter's textfile directory"
grep -qx 'OnUnitActiveSec=1min' "$timer" && grep -qx 'WantedBy=timers.target' "$timer" &&
	! grep -q '^Unit=' "$timer"
tap $? "the timer starts rapolicy-textfile.service every minute and is wanted by timers.target"
if command -v systemd-analyze >/dev/null; then
	# verify resolves ExecStart on this host: point it at the copy
	sed -i "s|^ExecStart=/usr/libexec|ExecStart=$T/inst/usr/libexec|" "$svc"
	out=$(cd "$T/inst/usr/lib/systemd/system" && systemd-analyze verify --man=no \
		rapolicy-textfile.service rapolicy-textfile.timer 2>&1 | grep -v 'rapolicy.service')
	echo "$out" | grep . | comment
	[ -z "$out" ]
	tap $? "systemd-analyze verify: the service and the timer"
else
	tap 0 "systemd-analyze verify # SKIP no systemd-analyze"
fi

# --- the dashboard ---------------------------------------------------------------------
# Every PromQL expression and variable query of the dashboard
python3 - "$dash" >$T/exprs 2>$T/err <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
def walk(o, key=None):
    if isinstance(o, dict):
        for k, v in o.items():
            walk(v, k)
    elif isinstance(o, list):
        for v in o:
            walk(v, key)
    elif isinstance(o, str) and key in ("expr", "query", "definition"):
        print(o.replace("\n", " "))
walk(d)
assert len(d["panels"]) == len({p["id"] for p in d["panels"]}), "panel ids repeat"
EOF
tap $? "the dashboard is JSON with unique panel ids: $(wc -l <$T/exprs) expressions $(tr '\n' ' ' <$T/err)"
grep -oE '[A-Za-z_:][A-Za-z0-9_:]*' $T/exprs | grep rapolicy | sort -u >$T/names
grep ':' $T/names >$T/recorded
grep -v ':' $T/names >$T/raw
"$bin/rapolicyctl" --root "$R" stats --prometheus | sed -n 's/^# TYPE \([a-z_]*\) .*/\1/p' | sort >$T/families
comm -23 $T/raw $T/families >$T/d
comment <$T/d
[ -s $T/raw ] && [ ! -s $T/d ]
tap $? "the dashboard's metrics ($(wc -l <$T/raw)) are families stats --prometheus emits"
sed -n 's/^ *- record: *//p' "$rules" | sort -u >$T/records
comm -23 $T/recorded $T/records >$T/d
comment <$T/d
[ -s $T/recorded ] && [ ! -s $T/d ]
tap $? "the dashboard's recorded series ($(wc -l <$T/recorded)) are recorded by docs/prometheus/rapolicy.rules.yml"
grep -q 'rapolicy:ab_verdict' $T/recorded && grep -q 'instance:rapolicy_up:fresh' $T/recorded
tap $? "the dashboard shows the fleet verdict and the exporters' freshness"
echo "1..$n"
[ "$fails" = 0 ]
