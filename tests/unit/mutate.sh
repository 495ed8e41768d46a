#!/bin/bash
# make mutate: each match rule, state and flag of the stream tracker
# (module/stream.c) removed in turn, the victim choice changed, the arms'
# tables joined, a stale copy of a set put back, and the growth rule, the
# resize and the shrink rule broken in turn; every
# mutant must fail at least one host case (tests/unit/test_stream.c) or a
# claimed invariant of the generated patterns (pattern_stream, 1000 draws).
# Prints TAP, one test per mutant, and writes the table to
# build/mutate/MUTATION.md (docs/MUTATION.md is its committed copy).
#   mutate.sh [NAME...]    only the named mutants
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/mutate
mkdir -p "$out"

# name|what it removes|perl substitution on module/stream.c
mutants=$(cat <<'EOF'
match-stride|the stride match (exactly one stride on)|s/return (rap_stream_walked_up\(s, f, nbr->view\)) \?\n\t\t       RAP_MATCH_DESCENT : RAP_MATCH_STRIDE;/if ($1)\n\t\t\treturn RAP_MATCH_DESCENT;/
match-skip|the skip match (a few strides on)|s/return RAP_MATCH_SKIP;/;/
match-jitter|the jitter match (a miss beside the marker of a stream's next touch)|s/return RAP_MATCH_JITTER;/;/
jitter-walked|a jitter match only if its reader did not walk its last stride|s/\t    !rap_blocks_between\(f, nbr->view, s->last,\n[^\n]*\n[^\n]*, true\)\)\n/\t    true)\n/
jitter-place|a jittered stream's place kept where its touches land (the miss taken for it)|s/s->last = s->marker \+ \(long\)\(f->index - s->marker\) \/ 2;/s->last = f->index;/
jitter-stock|stock's window for a jittered miss where it holds two touches or more|s/if \(how == RAP_MATCH_JITTER &&\n\t    2 \* rap_stream_step\(s\) <= f->stock_pages\)\n\t\treturn false;\n//
match-short|the shorter match (a stride shorter than learnt)|s/return RAP_MATCH_SHORT;/;/
match-dense|the dense match (continues the cached pages behind it)|s/return RAP_MATCH_DENSE;/;/
match-descent|the descent match (a run below the one walked)|s/return RAP_MATCH_DESCENT;/;/
match-near|the near match (a distance to try)|s/return RAP_MATCH_NEAR;/;/
flag-span|the span flag (reads whole spans)|s/s->span\b(?!\s*=[^=])/false/g
flag-dense|the dense flag|s/s->dense\b(?!\s*=[^=])/false/g
flag-done|the done flag (ran into the VMA's start)|s/s->done\b(?!\s*=[^=])/false/g
flag-lost|the lost flag (stock lost the stream)|s/s->lost\b(?!\s*=[^=])/false/g
state-follow|the FOLLOW state (a stream follows stock's marker)|s/(static bool rap_stream_adopt\([^{]*\{\n)/$1\treturn false;\n/
claim-conf|a stream's confidence in its claim (plain LRU)|s/\(long\)\(s->conf \* RAP_STREAM_HOLD \/ RAP_STREAM_CONFIRM\)/0/
age-never|aging of claims (a confident stream holds its way for ever)|s/\(long\)\(set->clock - s->age\);/0;/
age-reap|expiry by time (RAP_STREAM_REAP_MS)|s/rap_stream_recent\(s->seen, now\)/true/
victim-first|the victim: the first way that is not free|s/return victim;\n\}/return &set->way[0];\n}/
victim-mru|the victim: the stream of most claim|s/rap_stream_claim\(set, s\) < rap_stream_claim\(set, victim\)/rap_stream_claim(set, s) > rap_stream_claim(set, victim)/
lotsamiss-page|the page-only read past MMAP_LOTSAMISS|s/(static bool rap_stream_page_only\([^{]*\{\n)/$1\treturn false;\n/
took-stock-hits|stock's faults on the blocks its reader enters (its misses alone counted)|s/rise = miss - \(unit - miss\) \* block \/ unit;/rise = miss;/
took-hits|the tracker's faults (a stream counts stock's misses alone)|s/hits = s->span \?[^;]*;/hits = 0;/
took-span|a span's faults (counted as a touch window's, one a touch)|s/hits = s->span \?[^;]*;/hits = unit;/
took-floor|the file's count at zero (the tracker's faults counted where they take nothing off it)|s/if \(!s->span && !f->mmap_miss && !s->above\)\n\t\thits = 0;\n//
took-span-floor|a span's faults counted only when its marker hit finds the file's count above zero|s/if \(!s->span && !f->mmap_miss/if (!f->mmap_miss/
took-above|the fault that took the file's count to zero|s/ && !s->above\)/)/
lotsamiss-stream|the file's count in a stride's give-up (a stream counts its own windows)|s/f->taken \+ RAP_STREAM_CONFIRM/s->took \/ RAP_STREAM_TOOK_UNIT + RAP_STREAM_CONFIRM/
lotsamiss-real|the file's mmap_miss in the give-up (the streams' count alone)|s/return f->mmap_miss \+ f->taken > /return f->taken > /
took-inherit|an evicted stream's count passed to the file's stream in its way|s/\? s->took : 0;/? 0 : 0;/
took-skip|the touches a skip match passed counted|s/if \(how == RAP_MATCH_SKIP && !s->span\)\n\t\trap_stream_took/if (false)\n\t\trap_stream_took/
took-skip-own|a skip match's touches counted whatever window served them|s/min\(rap_absdiff\(f->index, s->last\) -\n\t\t\t\t\t  rap_stream_step\(s\),\n\t\t\t\t\t  max\(s->window, rap_stream_step\(s\)\)\)/rap_absdiff(f->index, s->last) - rap_stream_step(s)/
took-forward|a forward span's progress counted (stock follows its marker without a miss)|s/if \(!s->span \|\| s->delta < 0\)\n\t\trap_stream_took/rap_stream_took/
rule-walked-up|a stride's miss below a run its reader walked read as a descent (a B-tree's branch pages)|s/(static bool rap_stream_walked_up\([^{]*\{\n[^\n]*\n[^\n]*\n)/$1\treturn false;\n/
rule-step-walked|a dense stream's first window two steps only where its reader walked the last one|s/\tif \(step > f->stock_pages && !rap_stream_between\(s, f, view, true\)\)\n\t\tstep = 0;\n//
walked-up-ends|both ends of a block above such a miss looked at (its first page only)|s/ \|\|\n\t\t    view->mapped\(view->ctx, p \+ fa - 1\)\)/)/
rule-walked|a backward walker read as a span|s/(static bool rap_stream_walked\([^{]*\{\n[^\n]*\n[^\n]*\n[^\n]*\n)/$1\treturn false;\n/
rule-above|a walker's pages above its miss cached but not touched (nothing cached there only)|s/(\tif \(!view->has_range\(view->ctx, f->index \+ 1, f->index \+ 2 \* fa\)\)\n\t\treturn true;\n)/$1\treturn false;\n/
rule-around|stock's window around a strided touch|s/(static bool rap_stream_around\([^{]*\{\n)/$1\treturn false;\n/
rule-untouched|a stride with nothing touched between its misses|s/rap_stream_between\(s, f, view, false\)/true/
rule-own-first|a task's own streams first|s/ \| own << 3 \| m;/ | m;/
rule-stride-any|a stride match of any task's stream first|s/return \(m == RAP_MATCH_STRIDE\) << 4 \| /return /
rule-fork-nearest|the nearer of two near matches (the first way's forks)|s/ \|\|\n\t\t\t  \(r == rank && m == RAP_MATCH_NEAR &&\n\t\t\t   rap_absdiff\(f->index, s->last\) <\n\t\t\t   rap_absdiff\(f->index, best->last\)\)//
rule-dense-touched|a confirmed stream turned dense without its reader touching the page behind the miss|s/\n\t     rap_stream_nbr_mapped\(nbr, f, !up\)\)\)/\n\t     true))/
rule-fork|the fork of another task's young stream (near matches a task's own only)|s/(\t    dist <= RAP_STREAM_MAX_DELTA\))/\t    s->reader == f->reader \&\&\n$1/
arm-shared|the arms apart (one table for both)|s/rcu_dereference\(table->sets\[arm\]\)/rcu_dereference(table->sets[0])/g
run-stale|the check that a set did not change before its copy goes back|s/stale = slot->moved \|\| slot->set.clock != clock;/stale = slot->moved;/
grow-never|growth (a crowded set never asks for more sets)|s/\*did \|= RAP_STREAM_DID_CROWDED;/;/
grow-own|evictions of a file's own streams counted toward growth|s/ \|\| rap_stream_key_eq\(&s->key, &f->key\)//
grow-dead|evictions of expired streams counted toward growth|s/if \(!rap_stream_live\(s, f->now\) \|\| /if (/
grow-interval|the interval of evictions (counted for ever)|s/f->now - set->evict_start > RAP_STREAM_REAP_MS/false/
grow-unbounded|the bound (a table grows past streams_max_kb)|s/if \(order >= READ_ONCE\(table->max_order\[arm\]\)\)\n\t\treturn 0;\n//
resize-drop|the streams moved on a resize (dropped, as by a flush)|s/if \(!rap_stream_live\(s, now\)\)/if (true)/
resize-moved|the moved mark (a copy put back into a set a resize moved)|s/from->moved = true;/;/
shrink-never|shrinking (a grown table never halves by itself)|s/(int rap_stream_table_shrink\([^{]*\{\n)/$1\treturn 0;\n/
shrink-live|the live streams' check (a grown table halves with its files live)|s/if \(live >= room\)\n\t\treturn 0;\n//
shrink-asked|the wait after an ask (a table halves right after a set asked for more)|s/if \(rap_stream_recent\(READ_ONCE\(table->asked\[arm\]\), now\)\)\n\t\treturn 0;\n//
shrink-unasked|the time of an ask noted by the fault (the wait never starts)|s/WRITE_ONCE\(table->asked\[arm\], f->now\);/;/
shrink-floor|the load size as the floor (a table halves below RAP_STREAM_SETS sets)|s/if \(sets->order <= ilog2\(RAP_STREAM_SETS\)\)\n\t\treturn 0;\n//
shrink-margin|the margin (a table halves while its live streams would take under half the halved table's ways)|s/\/ RAP_STREAM_SHRINK_SHARE;/\/ 2;/
back-uncapped|the backward span's cap (its windows double to the kernel's largest read)|s/most = min\(most, RAP_STREAM_BACK_WINDOWS \* f->stock_pages\);/;/
back-descent|a descent's exemption from the backward cap (its windows capped as a span's)|s/s->descent = true;/;/
EOF
)

# A copy of what the host build includes, with module/stream.c mutated
prepare() {
	rm -rf "$out/tree" && mkdir -p "$out/tree/module/tests" "$out/tree/tests/unit"
	cp "$top"/module/{stream.c,stream.h,random.c,random.h,policy.h,table.h} "$out/tree/module/"
	cp "$top"/module/tests/stream_cases.h "$out/tree/module/tests/"
	cp "$top"/tests/unit/{test_stream.c,pattern_stream.c,pattern_gen.h,stream_model.h,rap_test.h,kernel_compat.h} \
		"$out/tree/tests/unit/"
}

# run NAME: "killed by CASE" or "survived" on stdout
run() {
	local u=$out/tree/tests/unit first rc
	${CC:-cc} -std=c11 -w -O1 -I"$u" -o "$out/test_stream" "$u/test_stream.c" 2>"$out/cc.log" &&
		${CC:-cc} -std=c11 -w -O2 -I"$u" -o "$out/pattern_stream" "$u/pattern_stream.c" 2>>"$out/cc.log" ||
		{ echo "does not build"; return; }
	"$out/test_stream" >"$out/test_stream.log" 2>&1
	rc=$?
	first=$(sed -n 's/^not ok [0-9]* - //p' "$out/test_stream.log" | head -n 1)
	[ -z "$first" ] && [ $rc -gt 1 ] && first="test_stream crashing (exit $rc)"
	[ -n "$first" ] && { echo "$first"; return; }
	first=$("$out/pattern_stream" -n 1000 | sed -n 's/^not ok [0-9]* - patterns: \([^:]*\):.*/patterns: \1/p' | head -n 1)
	[ -n "$first" ] && { echo "$first"; return; }
	echo "survived"
}

n=0 bad=0
table=$out/MUTATION.md
{
	echo "| mutant | removes | first failing case |"
	echo "|---|---|---|"
} >"$table"
while IFS='|' read -r name what subst; do
	[ -n "$name" ] || continue
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then
		continue
	fi
	prepare
	perl -0pi -e "$subst" "$out/tree/module/stream.c"
	n=$((n + 1))
	if cmp -s "$top/module/stream.c" "$out/tree/module/stream.c"; then
		echo "not ok $n - mutant $name: the substitution changed nothing"
		bad=1
		continue
	fi
	result=$(run)
	echo "| \`$name\` | $what | $result |" >>"$table"
	case $result in
	survived|"does not build")
		echo "not ok $n - mutant $name ($what): $result"
		bad=1 ;;
	*)
		echo "ok $n - mutant $name killed by $result" ;;
	esac
done <<<"$mutants"
echo "1..$n"
echo "# table: $table"
exit $bad
