#!/bin/sh
# The policy kselftests (tests/selftests/rapolicy_test.c) in the guest, TAP
# on stdout: "ok N rapolicy.NAME" per test, "# SKIP" for skipped ones.
# Arguments go to rapolicy_test, e.g. `-t huge_reverse` or `-l`.
#
#   tests/vm/vm-run --mem 2048 --add tests/guest -- sh /add/guest/policies.sh
#
# The test loads rapolicy.ko itself when it is not loaded and leaves it
# loaded with every policy off. About a minute under TCG (10 tests).
if ! command -v rapolicy_test >/dev/null 2>&1; then
	echo "not ok 1 - rapolicy_test is not in the guest (make -C tests/selftests KSRC=...)"
	exit 1
fi

out=/tmp/policies.$$.out
rcfile=/tmp/policies.$$.rc
# stderr carries the harness's "#" diagnostics and TH_LOG lines
{ rapolicy_test "$@" 2>&1; echo $? >"$rcfile"; } | tee "$out"
rc=$(cat "$rcfile")
# A crash that printed no result must still count as a failure (4: skipped)
if [ "$rc" != 0 ] && [ "$rc" != 4 ] && ! grep -q '^not ok ' "$out"; then
	echo "not ok - rapolicy_test exited with status $rc"
fi
rm -f "$out" "$rcfile"
exit "$rc"
