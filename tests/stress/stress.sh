#!/bin/bash
# make stress: boot the debug kernel (make kernel-debug: KASAN, lockdep,
# kmemleak, KFENCE, DEBUG_VM) and run tests/guest/stress.sh in it for
# STRESS_SECONDS (default 600): concurrent walkers, policy flips, module
# reloads, truncation and hole punching under the walkers; then neutrality,
# kmemleak and dmesg checks (TAP).
#
#   STRESS_SECONDS=N   how long the load runs (boot and checks come on top)
#   STRESS_KERNEL=release  the patched release kernel instead of the debug
#                      one: the same load and checks, kmemleak's among them
#                      (booted with kmemleak=on), but not KASAN's or
#                      lockdep's (make check runs this, see tests/run-all.sh)
#   STRESS_WALKERS=N   concurrent rawalk walkers (default 4)
#   STRESS_MEM=MB      guest memory (default 3072; KASAN's shadow is 1/8)
#   STRESS_NEUTRAL="advice:pattern:size ..."  neutrality walks afterwards
#   STRESS_GRACE=N     seconds past the load's end after which the guest
#                      prints every blocked task's stack and fails (600)
#                      (default: see tests/guest/stress.sh)
#
# The guest's output, kernel messages included, is kept in
# build/stress/stress.log.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"

seconds=${STRESS_SECONDS:-600}
walkers=${STRESS_WALKERS:-4}
kernel=${STRESS_KERNEL:-debug}
case $kernel in
debug) vmflags=(--debug) ;;
# the release test kernel has kmemleak built in but off: boot it on
release) vmflags=() RAPOLICY_VM_APPEND="${RAPOLICY_VM_APPEND:-} kmemleak=on"
	export RAPOLICY_VM_APPEND ;;
*) echo "STRESS_KERNEL must be debug or release" >&2; exit 2 ;;
esac
mem=${STRESS_MEM:-3072}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "STRESS_SECONDS must be a positive integer" >&2; exit 2; }
[[ $walkers =~ ^[1-9][0-9]*$ ]] || { echo "STRESS_WALKERS must be a positive integer" >&2; exit 2; }
[[ ${STRESS_GRACE:-600} =~ ^-?[0-9]+$ ]] || { echo "STRESS_GRACE must be an integer" >&2; exit 2; }

out=$top/build/stress
mkdir -p "$out"
gcc -static -O2 -Wall -Wextra -Werror -o "$out/punch" tests/stress/punch.c
# not part of the load: the stock deadlock the load keeps away from
# (docs/TESTING.md), built so that it keeps building
gcc -static -O2 -Wall -Wextra -Werror -o "$out/collapse_truncate" tests/stress/collapse_truncate.c

# Boot (about a minute under TCG), files, the neutrality walks and the
# kmemleak scans need minutes of their own on a KASAN kernel.
timeout=$((seconds + 1200))
start=$(date +%s)
set +e
tests/vm/vm-run "${vmflags[@]}" --mem "$mem" --cpus 2 \
	--timeout "$timeout" --add tests/guest --add "$out/punch" -- \
	env STRESS_SECONDS="$seconds" STRESS_WALKERS="$walkers" STRESS_PUNCH=/add/punch \
	STRESS_KERNEL="$kernel" STRESS_GRACE="${STRESS_GRACE:-600}" \
	STRESS_NEUTRAL="${STRESS_NEUTRAL:-}" \
	sh /add/guest/stress.sh 2>&1 | tee "$out/stress.log"
rc=${PIPESTATUS[0]}
set -e
echo "# stress run took $(($(date +%s) - start)) s (STRESS_SECONDS=$seconds); log: $out/stress.log"

# Kernel reports on the console (also those the guest could not collect
# because it died), outside the TAP and comment lines.
splats=$(grep -vE '^(ok|not ok|#|  \|) ' "$out/stress.log" |
	grep -E 'BUG:|WARNING:|KASAN:|possible circular locking|suspicious RCU usage|blocked for more than|soft lockup|Oops|general protection|Kernel panic' || true)
if [ -n "$splats" ]; then
	echo "not ok - console: kernel reports (see $out/stress.log)"
	printf '%s\n' "$splats" | head -n 40 | sed 's/^/# console: /'
else
	echo "ok - console: no kernel reports"
fi
case $rc in
0) echo "ok - the stress run ended" ;;
124) echo "not ok - the stress run timed out after $timeout s (hung guest?)" ;;
*) echo "not ok - the stress run exited with status $rc" ;;
esac
# the guest's own TAP (its tests and plan) went by above; these two are
# the host's
echo "1..2"
[ "$rc" = 0 ] && [ -z "$splats" ]
