#!/bin/bash
# rapolicy.ko's stack and lock layout, read off the module built against
# the test kernel (TAP):
#
# - every function's stack frame, by the kernel's own scripts/checkstack.pl
#   over objdump -d of rapolicy.ko, at most STACK_LIMIT bytes (640): the
#   fault path runs rap_mmap_ra() -> rap_decide_window() -> a policy's
#   decide() -> rap_tracker_mmap_ra() -> rap_stream_run() ->
#   rap_stream_decide() on the faulting task's stack, and its frames are
#   printed with their sum;
# - random_miss's table: RAP_RANDOM_SETS (64) slots, each its lock and its
#   set on cache lines of their own (module/random_table.c), so that no
#   two sets' locks share a cache line.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"

STACK_LIMIT=${STACK_LIMIT:-640}
CACHE_LINE=64
RANDOM_SETS=$(sed -n 's/^#define RAP_RANDOM_SETS[[:space:]]*\([0-9]*\).*/\1/p' "$top/module/random.h")

tree=$(bash "$top/tests/kernel/build-kernel.sh") && [ -f "$tree/Module.symvers" ]
tap $? "the test kernel tree"
[ -n "$tree" ] || { echo "1..$n"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -r "$top/Kbuild" "$top/VERSION" "$top/module" "$T/" &&
	make -s -C "$tree" M="$T" CC="ccache gcc" -j"$(nproc)" modules >"$T/build.log" 2>&1 &&
	[ -f "$T/rapolicy.ko" ]
rc=$?
[ $rc = 0 ] || sed 's/^/# /' "$T/build.log" | tail -n 20
tap $rc "rapolicy.ko builds against $(basename "$tree")"
[ $rc = 0 ] || { echo "1..$n"; exit 1; }

# "0x... function [rapolicy]:<tab>bytes", largest first
objdump -d "$T/rapolicy.ko" | perl "$tree/scripts/checkstack.pl" x86_64 0 |
	sed -E 's/^0x[0-9a-f]+ ([^ ]+) \[[^]]*\]:[[:space:]]*([0-9]+)$/\1 \2/' >"$T/frames"
[ -s "$T/frames" ] && ! grep -qv '^[a-z_0-9.]* [0-9]*$' "$T/frames"
tap $? "checkstack.pl reads rapolicy.ko's frames ($(wc -l <"$T/frames") functions)"
head -n 8 "$T/frames" | sed 's/^/# frame: /'
path=0
for fn in rap_mmap_ra rap_decide_window rap_tracker_mmap_ra rap_stream_run rap_stream_decide; do
	b=$(awk -v f="$fn" '$1 == f { print $2 }' "$T/frames")
	path=$((path + ${b:-0}))
done
echo "# the tracker's fault path, rap_mmap_ra() to rap_stream_decide(): $path bytes of frames"
over=$(awk -v l="$STACK_LIMIT" '$2 > l { printf " %s %s", $1, $2 }' "$T/frames")
[ -z "$over" ]
tap $? "no frame of rapolicy.ko above $STACK_LIMIT bytes${over:+:$over}"

# nm -S: "address size type name"
slots=$(nm -S "$T/rapolicy.ko" | awk '$4 == "rap_random_slots" { print $1, $2 }')
locks=$(nm -S "$T/rapolicy.ko" | awk '$4 == "rap_random_locks" { print $2 }')
[ -n "$locks" ] && locks=$((16#$locks)) && echo "# rap_random_locks: $RANDOM_SETS locks in $locks bytes, $((CACHE_LINE * RANDOM_SETS / locks)) to a cache line"
ok=1
if [ -n "$slots" ] && [ -z "$locks" ]; then
	addr=$((16#${slots% *})) size=$((16#${slots#* }))
	each=$((size / RANDOM_SETS))
	echo "# rap_random_slots: $RANDOM_SETS slots of $each bytes at offset $addr"
	[ $((size % RANDOM_SETS)) = 0 ] && [ $((each % CACHE_LINE)) = 0 ] &&
		[ $((addr % CACHE_LINE)) = 0 ] && ok=0
fi
tap $ok "random_miss: each of its $RANDOM_SETS locks with its set on cache lines of their own"
echo "1..$n"
[ "$fails" = 0 ]
