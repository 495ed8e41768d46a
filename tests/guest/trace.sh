#!/bin/sh
# A readahead policy's decisions are visible to tracing (TAP): the
# series' readahead_policy:readahead_policy_window event fires once for
# every window a policy returned, after the kernel's check, with the
# window as it is read ("applied") or as asked for ("refused"), and once
# for every bound a policy set without replacing the window ("bound");
# each names what decided ("by=", the module's policy) and its A/B arm.
. "$(dirname "$0")/lib.sh"

RA_KB=512
SECTOR_SLACK=64
PAGE_KB=4
FILE_PAGES=16384	# 64 MiB
# ra_policy_max_pages() for a mapping without VM_HUGEPAGE: max(ra_pages,
# two PMD folios), 1024 pages with 4 KiB pages (hostile_window.sh)
MAX_PAGES=1024
T=$TRACEFS
EV=$T/events/readahead_policy/readahead_policy_window
EVENTS=/tmp/trace-events.$$

mount_tracefs
check "tracefs offers readahead_policy:readahead_policy_window" test -f "$EV/format"

rmmod rapolicy 2>/dev/null
rmmod rapolicy_hostile 2>/dev/null
f=$(testfile 64M) || { tap 1 "create 64M"; exit 1; }

# traced_walk ADVICE PATTERN: a cold walk with the event on, the events it
# caused in $EVENTS, one per line (lib.sh trace_walk)
traced_walk() {
	trace_walk "$EV" "$EVENTS" "$1" "$2" "$f"
}

# nr_events WORD: events whose line holds WORD (applied, refused, point=X)
nr_events() {
	grep -cE " $1( |\$)" "$EVENTS"
}

# field NAME: NAME's value in every event, one a line
field() {
	sed -n "s/.* $1=\([0-9]*\).*/\1/p" "$EVENTS"
}

# inside: every applied window lies in the file and within the kernel's
# largest window, and is no larger than what the policy asked for
inside() {
	awk -v pages=$FILE_PAGES -v max=$MAX_PAGES '
		/ applied$/ {
			for (i = 1; i <= NF; i++) {
				split($i, kv, "=")
				v[kv[1]] = kv[2] + 0
			}
			if (v["size"] < 1 || v["size"] > max ||
			    v["start"] + v["size"] > pages ||
			    v["size"] > v["req_size"] + 0 ||
			    v["async_size"] > v["size"]) {
				print "# outside: " $0
				bad = 1
			}
		}
		END { exit bad }' "$EVENTS"
}

# No policy registered: nothing is replaced, no event
traced_walk normal reverse
check "no policy: no readahead_policy_window event ($(wc -l <"$EVENTS"))" test ! -s "$EVENTS"

# descending_seq=window alone: on a MADV_SEQUENTIAL reverse walk the only
# policy that replaces windows, each counted once by descending_seq. Each
# replaced window is one event, applied, at the VM_SEQ_READ or async point.
fresh_module && all_policies_off && set_policy descending_seq window &&
	traced_walk seq reverse
replaced=$(counter descending_seq)
applied=$(nr_events applied)
[ "$replaced" -gt 0 ] && [ "$applied" -eq "$replaced" ] &&
	[ "$(nr_events refused)" -eq 0 ] &&
	[ $(($(nr_events point=sync_seq) + $(nr_events point=async))) -eq "$applied" ]
tap $? "descending_seq: one applied event per replaced window ($applied events, descending_seq $replaced)"
check "descending_seq: every applied window inside the file and the bound" inside
check "descending_seq: every event names the policy and its arm (by=descending_seq arm=0)" \
	test "$(grep -cv ' by=descending_seq arm=0 ' "$EVENTS")" = 0

# vma_limit=always alone bounds every window at the VMA end and replaces
# none: each decision is one event, a bound, by vma_limit
fresh_module && all_policies_off && set_policy vma_limit always &&
	traced_walk normal forward
bound=$(nr_events bound)
limited=$(counter vma_limit)
[ "$limited" -gt 0 ] && [ "$bound" -eq "$limited" ] &&
	[ "$(nr_events applied)" -eq 0 ] && [ "$(nr_events refused)" -eq 0 ] &&
	[ "$(grep -cv ' by=vma_limit arm=0 ' "$EVENTS")" = 0 ]
tap $? "vma_limit always: one bound event per bounded window ($bound events, vma_limit $limited)"
sed -n '1,3s/^.*readahead_policy_window: /# /p' "$EVENTS"

# The shipped profile best on a read-around reverse walk: its windows are
# traced, as read
fresh_module && profile best &&
	traced_walk normal reverse
applied=$(nr_events applied)
[ "$applied" -gt 0 ] && [ "$(nr_events refused)" -eq 0 ] &&
	[ "$walk_sectors" -le $((FILE_PAGES * PAGE_KB * 2 + SECTOR_SLACK)) ]
tap $? "profile best: $applied applied events on a reverse walk of $walk_major majflt"
check "profile best: every applied window inside the file and the bound" inside

# rapolicyctl trace, run beside the walk, reads the same events through a
# tracefs instance of its own: per policy and arm, its windows and pages
# are those of the global buffer, and its instance is gone at the end
fresh_module && profile best
rapolicyctl trace --by policy --top 0 --interval 3600 --count 1 >/tmp/rtrace.out 2>/tmp/rtrace.err &
tpid=$!
until grep -qx 1 $T/instances/rapolicyctl.$tpid/events/readahead_policy/readahead_policy_window/enable 2>/dev/null; do
	kill -0 $tpid 2>/dev/null || break
done
traced_walk normal reverse
kill -INT $tpid
wait $tpid
rc=$?
awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	k = (v["by"] == "" ? "-" : v["by"]) " " (v["arm"] + 0 ? "B" : "A")
	o = $NF; if (o == "applied") { a[k]++; p[k] += v["size"]; if (v["size"] > l[k]) l[k] = v["size"] }
	else if (o == "refused") r[k]++; else b[k]++; keys[k] = 1 }
	END { for (k in keys) printf "%s %d %d %d %d %d\n", k, a[k], r[k], b[k], p[k], l[k] }' "$EVENTS" |
	sort >/tmp/rtrace.want
# its rows: policy, arm, the five window columns, then the ledger's used
# and wasted (none of the walk's pages left the cache: 0 0)
sed -n '3,$p' /tmp/rtrace.out | tr -s ' ' | sort >/tmp/rtrace.rows
cut -d ' ' -f 1-7 /tmp/rtrace.rows >/tmp/rtrace.got
[ $rc = 0 ] && [ -s /tmp/rtrace.want ] && cmp -s /tmp/rtrace.want /tmp/rtrace.got &&
	! cut -d ' ' -f 8- /tmp/rtrace.rows | grep -vqx '0 0' &&
	head -n 1 /tmp/rtrace.out | grep -q ": $(wc -l <"$EVENTS") events\$"
tap $? "rapolicyctl trace --by policy: the global buffer's windows and pages, the ledger's columns 0 ($(tr '\n' ';' </tmp/rtrace.rows) exit $rc $(cat /tmp/rtrace.err))"
check "rapolicyctl trace removed its tracefs instance" test -z "$(ls $T/instances)"
modprobe -r rapolicy

# rapolicy_hostile huge_size asks for ULONG_MAX pages at every point, as
# one window: the events show the request and the window cut to one of
# ra_pages, the most read-around reads in one
modprobe rapolicy_hostile mode=huge_size && traced_walk normal forward
applied=$(nr_events applied)
[ "$applied" -gt 0 ] && [ "$(nr_events refused)" -eq 0 ] &&
	[ "$(field req_size | sort -u)" = 18446744073709551615 ] &&
	[ "$(field size | sort -nu | tail -n 1)" -le $((RA_KB / 4)) ]
tap $? "hostile huge_size: $applied events, each asking for ULONG_MAX pages and cut to at most $((RA_KB / 4))"
check "hostile huge_size: every applied window inside the file and the bound" inside
rmmod rapolicy_hostile

# beyond_eof: every window refused, and traced as refused
modprobe rapolicy_hostile mode=beyond_eof && traced_walk normal forward
refused=$(nr_events refused)
[ "$refused" -gt 0 ] && [ "$(nr_events applied)" -eq 0 ] &&
	[ "$(field start | sort -n | head -n 1)" -ge $FILE_PAGES ]
tap $? "hostile beyond_eof: $refused events, every one refused, none applied"
rmmod rapolicy_hostile
tap $? "hostile policy unloads"

rm -f "$EVENTS"
tap_end
