#!/bin/bash
# Run host test programs under a checker, one TAP line per program:
#   checked.sh asan|valgrind TESTDIR BINDIR TEST...
# asan: programs built with SANITIZE=1 (ASan, UBSan, LeakSanitizer);
# valgrind: memcheck, definite leaks and any error fail.  Each program
# gets at most RAP_CHECK_TIMEOUT seconds (default 300).  A program fails
# on a non-zero exit, a "not ok" line or a sanitizer report; the report
# and the failing lines are printed as comments.
set -uo pipefail
mode=$1 dir=$2 bindir=$3
shift 3
limit=${RAP_CHECK_TIMEOUT:-300}
n=0 failed=0

for t in "$@"; do
	n=$((n + 1))
	log=$(mktemp)
	case $mode in
	asan)
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
			timeout -k 10 "$limit" "$dir/$t" "$bindir" >"$log" 2>&1
		;;
	valgrind)
		timeout -k 10 "$limit" valgrind -q --error-exitcode=99 \
			--leak-check=full --errors-for-leak-kinds=definite \
			"$dir/$t" "$bindir" >"$log" 2>&1
		;;
	esac
	rc=$?
	checks=$(grep -cE '^(not )?ok ' "$log")
	if [ "$rc" -eq 0 ] && ! grep -qE '^not ok |runtime error|ERROR: (Address|Leak)Sanitizer' "$log"; then
		echo "ok $n - $t under $mode: $checks checks"
	else
		failed=$((failed + 1))
		grep -aE '^not ok |runtime error|Sanitizer|==[0-9]+== ' "$log" | head -n 30 | sed 's/^/# /'
		[ "$rc" -eq 124 ] && echo "# timed out after $limit s"
		echo "not ok $n - $t under $mode (exit $rc)"
	fi
	rm -f "$log"
done
echo "1..$n"
[ "$failed" -eq 0 ]
