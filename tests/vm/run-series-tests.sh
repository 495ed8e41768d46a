#!/bin/bash
# make check for a kernel series besides the default 7.3 (TAP): build the
# patched $KERNEL_SERIES kernel (cached), boot it once and run its subset of
# the guest tests (tests/vm/series-guest.sh):
#
#   KERNEL_SERIES=7.2 tests/vm/run-series-tests.sh
#   KERNEL_SERIES=6.12 tests/vm/run-series-tests.sh
#
# SERIES_SUITES chooses the suites (tests/vm/series-guest.sh lists them);
# the default per series:
#   7.2   guest: every guest script of 7.3's run (tests/guest/run.sh),
#         against 7.2's own stock table
#   6.12  guest reverse vma_limit unavailable memcg demo: 7.3's guest
#         scripts, with a counted skip and its reason for those that
#         assert 7.x's behaviour (tests/guest/run.sh says which); the port
#         against stock 6.12 (XFS scratch disk); each descending policy
#         and "best" on the reverse walks, on counts; vma_limit on a split
#         mapping; the values 6.12 cannot honour (sync_mmap_order 0, 1)
#         neither listed nor taken, and unavailable in rapolicyctl; "best"
#         leaves a random reader in a 128 MiB memcg as stock does, as
#         relations on the module's counters (6.12's own spread between
#         stock walks in a memcg, 6%, is wider than streams.sh's window:
#         series-guest.sh says why); make demo's guest side on small files.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/kernel/common.sh"

case $KERNEL_SERIES in
6.12) default_suites="guest reverse vma_limit unavailable memcg demo" ;;
*) default_suites="guest" ;;
esac
suites=${SERIES_SUITES:-$default_suites}
args=(--timeout 3600 --mem 2048 --add "$top/tests/guest" --add "$top/tests/vm/series-guest.sh")
# Only neutrality needs no module: do not build one then.
[ "$suites" != neutrality ] || args+=(--no-module)

# The series' own patches (patches/6.12/, patches/7.2/; patches/ itself is
# checked by tests/style.sh) against its own tree
host_n=0
own=$top/patches/$KERNEL_SERIES
if [ -d "$own" ] && src=$(bash "$top/tests/kernel/fetch-source.sh"); then
	for p in "$own"/*.patch; do
		out=$(cd "$src" && perl scripts/checkpatch.pl --strict --quiet --no-summary "$p" 2>&1)
		[ -z "$out" ] || echo "$out" | sed 's/^/# /'
		host_n=$((host_n + 1))
		if [ -z "$out" ]; then
			echo "ok $host_n - checkpatch --strict ${p#"$top"/}"
		else
			echo "not ok $host_n - checkpatch --strict ${p#"$top"/}"
		fi
	done
fi

start=$(date +%s)
# RAPOLICY_KERNEL_TREE: an already built patched tree of the series
if [ -n "${RAPOLICY_KERNEL_TREE:-}" ]; then
	tree=$RAPOLICY_KERNEL_TREE
elif ! tree=$(bash "$top/tests/kernel/build-kernel.sh"); then
	echo "not ok $((host_n + 1)) - patched $KERNEL_SERIES kernel builds"
	echo "1..$((host_n + 1))"
	exit 1
fi
echo "ok $((host_n + 1)) - patched $KERNEL_SERIES kernel builds ($(($(date +%s) - start)) s): ${tree##*/}"
# the host's tests; the guest's own, with their plans, follow
echo "1..$((host_n + 1))"
RAPOLICY_KERNEL_TREE=$tree "$top/tests/vm/vm-run" "${args[@]}" -- \
	sh /add/series-guest.sh $suites
