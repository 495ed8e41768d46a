#!/bin/bash
# One source of truth: docs/POLICIES.md, rapolicyctl(8), the ABI document,
# rapolicyctl's --help texts and its bash completion must name exactly the
# policies, values and counters of module/table.h; the facts that drift
# (the number of patches, timings) are stated once, in the README (TAP).
#   doc-drift.sh BINDIR       (BINDIR holds the built rapolicyctl)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$top/build/bin}
table=$top/module/table.h
man=$top/userspace/rapolicyctl/rapolicyctl.8
abi=$top/docs/ABI/sysfs-kernel-mm-rapolicy
readme=$top/README.md
policies=$top/docs/POLICIES.md
. "$(dirname "$0")/tap.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# The table: "name v1 v2 ..." per policy, counter names, the order policy
bash "$top/tests/table.sh" >$T/table
awk '$1 == "policy" { $1 = ""; $3 = ""; print }' $T/table | sed 's/^ //; s/  / /' >$T/policies
awk '$1 == "stat" { print $2 }' $T/table >$T/counters
order=$(awk '$1 == "policy" && $3 == 1 { print $2 }' $T/table)
[ -s $T/policies ] && [ -s $T/counters ] && [ -n "$order" ]
tap $? "module/table.h parsed: $(wc -l <$T/policies) policies, $(wc -l <$T/counters) counters"

# want FILE: the policies as "name v1 v2 ...", orders as "0..N" for the order policy
want() { awk -v o="$order" '{ print $0 ($1 == o ? " 0..N" : "") }' $T/policies; }

# rapolicyctl(8): the POLICIES table and the COUNTERS table
sed -n '/^\.SH POLICIES/,/^\.SH/p' "$man" | sed -n '/^\.TS/,/^\.TE/p' |
	grep -v '^\.\|^l l' | sed 's/\t/ /; s/,//g; s/ (a folio order)//' >$T/man.pol
want | diff -u - $T/man.pol >$T/d
tap $? "rapolicyctl(8) POLICIES: $(grep '^[-+][a-z]' $T/d | tr '\n' ' ')"
sed -n '/^\.SH COUNTERS/,/^\.SH/p' "$man" | sed -n '/^\.TS/,/^\.TE/p' |
	grep -v '^\.\|^l l' | cut -f1 >$T/man.cnt
diff -u $T/counters $T/man.cnt >$T/d
tap $? "rapolicyctl(8) COUNTERS: $(grep '^[-+][a-z]' $T/d | tr '\n' ' ')"
MANWIDTH=80 man -l "$man" 2>/dev/null | awk 'length > 80 { bad = 1 } END { exit bad }' &&
	grep -q '^\.nh$' "$man"
tap $? "rapolicyctl(8) fits 80 columns and does not hyphenate"
MANWIDTH=80 man -l "$top/userspace/rawalk/rawalk.1" 2>/dev/null | awk 'length > 80 { bad = 1 } END { exit bad }' &&
	grep -q '^\.nh$' "$top/userspace/rawalk/rawalk.1"
tap $? "rawalk(1) fits 80 columns and does not hyphenate"

# The ABI document: one entry per policy with its values; every counter
ok=0
while read -r name vals; do
	line=$(sed -n "\\|^What:.*/rapolicy/$name\$|,/^\$/p" "$abi" | sed -n '3p' | tr -d '\t')
	exp=$(echo "$vals" | sed 's/ / | /g; s/^\([a-z_]*\)/\1 [default]/')
	[ "$name" = "$order" ] && exp="$exp | 0 .. MAX_PAGECACHE_ORDER"
	[ "$line" = "$exp" ] || { echo "# ABI $name: '$line', table: '$exp'"; ok=1; }
done <$T/policies
tap $ok "the ABI document's policy entries have the table's values"
sed -n '\|^What:.*/rapolicy/stats/$|,/^What/p' "$abi" | grep -oP '^\t\t[a-z_]+(, [a-z_]+)*$' |
	tr -d '\t' | tr ',' '\n' | tr -d ' ' | sort >$T/abi.cnt
sort $T/counters | diff -u - $T/abi.cnt >$T/d
tap $? "the ABI document's stats/ lists the table's counters: $(grep '^[-+][a-z]' $T/d | tr '\n' ' ')"
ab=$(sed -n '\|^What:.*/rapolicy/ab/$|,/^\$/p' "$abi" | tr -d '\n\t')
ok=0
for p in $(cut -d' ' -f1 $T/policies); do
	case $ab in *"$p"*) ;; *) echo "# ab/ misses $p"; ok=1 ;; esac
done
tap $ok "the ABI document's ab/ entry names every policy"

# docs/POLICIES.md: the policy table
sed -n '/^## The policies/,/^## /p' "$policies" | grep -E '^\| `[a-z_]+` \| `' | sed 's/^| `\([a-z_]*\)` | \([^|]*\)|.*/\1 \2/; s/`//g; s/ *$//' |
	sed "s/^\\($order .*\\) 0\\.\\.[0-9]*$/\\1 0..N/" >$T/readme.pol
want | diff -u - $T/readme.pol >$T/d
tap $? "docs/POLICIES.md's policy table: $(grep '^[-+][a-z]' $T/d | tr '\n' ' ')"
ok=0
for w in $(grep -ohE '\b(pages_requested|rapolicy_[a-z_]+)\b' "$readme" "$man" "$top"/docs/*.md | sort -u); do
	case $w in
	pages_requested) echo "# $w is no counter of the module"; ok=1 ;;
	rapolicy_*_total) grep -qx "${w#rapolicy_}" <(sed 's/$/_total/' $T/counters) ||
		{ echo "# $w is no counter"; ok=1; } ;;
	esac
done
tap $ok "README, docs/*.md and rapolicyctl(8) name no counter the table lacks"

# The README: its size, and the facts that drift, stated there once
size=$(wc -c <"$readme")
[ "$size" -le 12288 ]
tap $? "README.md is at most 12 KiB ($size bytes)"
npatch=$(ls "$top"/patches/0*.patch | wc -l)
nseries=$(grep -cv '^#\|^$' "$top/patches/series")
said=$(grep -oE 'a series of [0-9]+ patches' "$readme" | grep -oE '[0-9]+')
[ "$said" = "$npatch" ] && [ "$nseries" = "$npatch" ]
tap $? "the README's patch count ('${said:-none}') is patches/ ($npatch files, $nseries in series)"
# Documents other than the README that could state a count or a time again;
# docs/BENCHMARKS.md is make bench's own record.
others=("$top"/docs/*.md "$top/tests/vm/README.md" "$top/Makefile" "$top/userspace/rapolicyctl/rapolicyctl.8")
others=("${others[@]/"$top/docs/BENCHMARKS.md"/}")
# units: each sentence of a paragraph, each cell of a table row, each
# Makefile line
units() {
	awk 'function out(t,    i, k, part) {
			k = split(t, part, /[.;:] |\|/)
			for (i = 1; i <= k; i++)
				if (part[i] ~ /[a-z]/)
					print f ": " part[i]
		}
		FNR == 1 && p != "" { out(p); p = "" }
		{ f = FILENAME }
		f ~ /Makefile$/ { out($0); next }
		/^\|/ { if (p != "") out(p); p = ""; out($0); next }
		/^$/ { if (p != "") out(p); p = ""; next }
		{ p = p " " $0 }
		END { if (p != "") out(p) }' "${others[@]}"
}
units | grep -iE '(four|five|six|seven|eight|nine|[0-9]+)[- ]patch(es)? series|series of [0-9a-z]+ patches' |
	cut -c1-160 >$T/counts
if [ -s $T/counts ]; then comment <$T/counts; false; fi
tap $? "no document but the README states the number of patches"
mins='[0-9.]+( to [0-9]+)? (min|minutes)\b'
keys='(make bench\b[^-]|make check|make demo|debug kernel[^.]*buil[dt]|buil[dt][^.]*debug kernel)'
units | grep -iE "$keys.*$mins|$mins.*$keys" |
	cut -c1-200 >$T/times
if [ -s $T/times ]; then comment <$T/times; false; fi
tap $? "no document but the README says how long make check, make bench, make demo or the debug kernel take"
# make bench's time: docs/BENCHMARKS.md's runtime plus its real clients' boot
bench=$(grep -oE '\| runtime \| [0-9]+ min [0-9]+ s in all' "$top/docs/BENCHMARKS.md" | awk '{ print $4 * 60 + $6 }')
clients=$(grep -oE '[0-9]+ s in all on' "$top/docs/BENCHMARKS.md" | awk '{ s += $1 } END { print s + 0 }')
said=$(grep -E '^\| `make bench`' "$readme" | grep -oE '[0-9]+ minutes' | grep -oE '[0-9]+')
want_min=$(( (bench + clients + 30) / 60 ))
[ -n "$bench" ] && [ "$said" = "$want_min" ]
tap $? "the README's make bench time (${said:-none} min) is docs/BENCHMARKS.md's (${bench:-?} s + ${clients} s: $want_min min)"

# --help texts and the completion
"$bin/rapolicyctl" set --help | sed -n '/^Policies/,/^$/p' | sed -n 's/^  //p' |
	sed 's/  */ /g; s/ (a folio order)//' >$T/help.pol
want | diff -u - $T/help.pol >$T/d
tap $? "rapolicyctl set --help lists the table"
for p in $("$bin/rapolicyctl" profile --help | sed -n 's/^  \([a-z]*\) .*/\1/p'); do
	grep -q "^\\.B $p\$" "$man" || { echo "# profile $p not in rapolicyctl(8)"; false; }
done
tap $? "every profile of profile --help is in rapolicyctl(8)"
# make bench's settings that name a profile (tests/bench/matrix, "s ID
# WRITES COUNTERS ... rapolicyctl profile NAME") write what the profile sets
ok=0 seen=0
while read -r _ id writes _ title; do
	name=${title##*rapolicyctl profile }
	[ "$name" != "$title" ] || continue
	seen=$((seen + 1))
	prof=$("$bin/rapolicyctl" profile --help | sed -n "s/^  $name .*: //p")
	[ "$(tr , ' ' <<<"$writes")" = "$prof" ] ||
		{ echo "# bench setting $id: '$writes', profile $name: '$prof'"; ok=1; }
done < <(grep '^s ' "$top/tests/bench/matrix")
# every profile but stock has its setting
nprof=$("$bin/rapolicyctl" profile --help | grep '^  [a-z]' | grep -vc '(all stock)$')
[ "$seen" -ge "$nprof" ] && [ "$nprof" -ge 2 ] ||
	{ echo "# $seen bench settings name one of $nprof profiles"; ok=1; }
tap $ok "make bench's profile settings are rapolicyctl's profiles ($seen)"
comp() {
	PATH=$bin:$PATH bash -c '. "$0"; COMP_WORDS=("${@}"); COMP_CWORD=$(($# - 1));
		_rapolicyctl; printf "%s\n" "${COMPREPLY[@]}"' \
		"$top/userspace/rapolicyctl/rapolicyctl.bash-completion" "$@"
}
comp rapolicyctl set "" | tr -d = >$T/comp.pol
{ cut -d' ' -f1 $T/policies; echo streams_max_kb; } | diff -u - $T/comp.pol >/dev/null
tap $? "the completion offers the table's policies and streams_max_kb"
comp rapolicyctl get "" | grep -x streams_bytes >/dev/null && [ -z "$(comp rapolicyctl set streams_max_kb=)" ]
tap $? "the completion offers get streams_bytes, and no value for streams_max_kb"
ok=0
while read -r name vals; do
	got=$(comp rapolicyctl set "$name=" | sed "s/^$name=//" | tr '\n' ' ')
	[ "$got" = "$vals " ] || { echo "# completion $name: '$got'"; ok=1; }
done <$T/policies
tap $ok "the completion offers each policy's values"
# the tracker's line budget, as docs/STREAMS.md states it
budget=$(sed -n 's/.*together are at most \([0-9]*\) lines.*/\1/p' "$top/docs/STREAMS.md")
lines=$(cat "$top"/module/stream.c "$top"/module/stream.h "$top"/module/tracker.c | wc -l)
[ -n "$budget" ] && [ "$lines" -le "$budget" ]
tap $? "the tracker is within docs/STREAMS.md's budget ($lines lines, at most ${budget:-?})"
echo "1..$n"
exit $((fails > 0))
