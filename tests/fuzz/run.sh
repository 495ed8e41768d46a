#!/bin/bash
# The fuzz suite: build the libFuzzer targets, run each for FUZZ_SECONDS
# (default 20) from a copy of its seed corpus (corpus/TARGET, which is
# never written), print one TAP line per target with its runs, runs per
# second and coverage.  A crash or a broken invariant is "not ok", with
# the reproducer in BUILD/fuzz/artifacts/TARGET/ and how to run it.
# Without clang's libFuzzer the suite is skipped (CI installs clang in
# .ci/run); it installs nothing itself.
#
#   FUZZ_SECONDS=N  seconds per target    TARGETS="a b"  which targets
#   FUZZ_SEED=S     libFuzzer's -seed (default 1; 0 for a random one)
#   BUILD=DIR       build directory (default build/ of the checkout)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
secs=${FUZZ_SECONDS:-20}
seed=${FUZZ_SEED:-1}
targets=${TARGETS:-policy rawalk rapctl_parse rapctl_sysfs rapctl_args}
fz=$build/fuzz

probe() {
	local d
	d=$(mktemp -d) || return 1
	printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$d/p.c"
	${CLANG:-clang} -fsanitize=fuzzer,address,undefined -o "$d/p" "$d/p.c" >/dev/null 2>&1
	local rc=$?
	rm -rf "$d"
	return $rc
}

if ! probe; then
	echo "ok 1 - fuzz # SKIP clang with libFuzzer (-fsanitize=fuzzer) is not installed: apt-get install clang"
	echo "1..1"
	exit 0
fi
mkdir -p "$fz"
if ! make -s -j"$(nproc)" -C "$here" BUILD="$build" all >"$fz/build.log" 2>&1; then
	sed 's/^/# /' "$fz/build.log"
	echo "not ok 1 - fuzz: the harnesses build"
	echo "1..1"
	exit 1
fi

n=0 failed=0
for t in $targets; do
	n=$((n + 1))
	work=$fz/work/$t art=$fz/artifacts/$t log=$fz/logs/$t.log
	rm -rf "$work" "$art"
	mkdir -p "$work" "$art" "$fz/logs"
	start=$(date +%s.%N)
	(cd "$work" && timeout -k 10 $((secs + 120)) "$fz/bin/fuzz_$t" \
		-max_total_time="$secs" -seed="$seed" -print_final_stats=1 \
		-timeout=10 -rss_limit_mb=2048 -max_len=4096 \
		-artifact_prefix="$art/" "$work" "$here/corpus/$t") >"$log" 2>&1
	rc=$?
	end=$(date +%s.%N)
	runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
	cov=$(grep -ao 'cov: [0-9]*' "$log" | tail -n 1 | awk '{ print $2 }')
	corp=$(ls "$work" | wc -l)
	rate=$(awk -v r="${runs:-0}" -v a="$start" -v b="$end" 'BEGIN { printf "%d", r / (b - a) }')
	if [ "$rc" -eq 0 ] && [ -n "$runs" ]; then
		echo "ok $n - fuzz $t: $runs runs in ${secs} s ($rate/s), cov $cov, $corp new corpus units"
		continue
	fi
	failed=$((failed + 1))
	grep -aE 'INVARIANT|ERROR|SUMMARY|runtime error' "$log" | head -n 8 | sed 's/^/# /'
	for a in "$art"/*; do
		[ -e "$a" ] && echo "# reproduce: $fz/bin/fuzz_$t $a"
	done
	echo "# log: $log"
	echo "not ok $n - fuzz $t (exit $rc after ${runs:-?} runs)"
done
echo "1..$n"
[ "$failed" -eq 0 ]
