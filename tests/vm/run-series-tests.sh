#!/bin/bash
# make check for a kernel series besides the default 7.3 (TAP): build the
# patched $KERNEL_SERIES kernel (cached), boot it once and run its subset of
# the guest tests (tests/vm/series-guest.sh):
#
#   KERNEL_SERIES=7.2 tests/vm/run-series-tests.sh
#   KERNEL_SERIES=6.12 tests/vm/run-series-tests.sh
#
# SERIES_SUITES chooses the subset (tests/vm/series-guest.sh lists them);
# the default per series:
#   7.2   neutrality policies streams: the same series and module as 7.3,
#         so its own stock table, the policy selftests and "best" on the
#         reverse walks
#   6.12  neutrality reverse vma_limit unavailable memcg demo: the port
#         with no module loaded against stock 6.12 (XFS scratch disk); each
#         descending policy and "best" on the reverse walks, on counts;
#         vma_limit on a split mapping; the values 6.12 cannot honour
#         (sync_mmap_order 0, 1) neither listed nor taken, and unavailable
#         in rapolicyctl; "best" leaves a random reader in a 128 MiB memcg
#         as stock does. Not streams.sh: 17 of its 18 checks pass on 6.12, but
#         its memcg no-regression window (1% around two stock walks) is
#         narrower than 6.12's own spread between stock walks (6% seen: each
#         MADV_HUGEPAGE miss reads 4 MiB into the memcg, so reclaim timing
#         moves the counts); the memcg suite asserts relations on the
#         module's counters instead (series-guest.sh says which and why).
#         make demo's guest side on small files (KERNEL_SERIES=6.12 make
#         demo was never run before; its rows on 6.12 differ from 7.3's).
#         Not the selftests, which assert 7.3's seed problems (the 6.12
#         MADV_HUGEPAGE reverse walk has no MMAP_LOTSAMISS regression to
#         fix).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/kernel/common.sh"

case $KERNEL_SERIES in
6.12) default_suites="neutrality reverse vma_limit unavailable memcg demo" ;;
*) default_suites="neutrality policies streams random" ;;
esac
suites=${SERIES_SUITES:-$default_suites}
args=(--mem 2048 --add "$top/tests/guest" --add "$top/tests/vm/series-guest.sh")
# Only neutrality needs no module: do not build one then.
[ "$suites" != neutrality ] || args+=(--no-module)

# The series' own patches (patches/6.12/, patches/7.2/; patches/ itself is
# checked by tests/style.sh) against its own tree
own=$top/patches/$KERNEL_SERIES
if [ -d "$own" ] && src=$(bash "$top/tests/kernel/fetch-source.sh"); then
	for p in "$own"/*.patch; do
		out=$(cd "$src" && perl scripts/checkpatch.pl --strict --quiet --no-summary "$p" 2>&1)
		[ -z "$out" ] || echo "$out" | sed 's/^/# /'
		if [ -z "$out" ]; then
			echo "ok - checkpatch --strict ${p#"$top"/}"
		else
			echo "not ok - checkpatch --strict ${p#"$top"/}"
		fi
	done
fi

start=$(date +%s)
# RAPOLICY_KERNEL_TREE: an already built patched tree of the series
if [ -n "${RAPOLICY_KERNEL_TREE:-}" ]; then
	tree=$RAPOLICY_KERNEL_TREE
elif ! tree=$(bash "$top/tests/kernel/build-kernel.sh"); then
	echo "not ok 1 - patched $KERNEL_SERIES kernel builds"
	exit 1
fi
echo "ok 1 - patched $KERNEL_SERIES kernel builds ($(($(date +%s) - start)) s): ${tree##*/}"
RAPOLICY_KERNEL_TREE=$tree "$top/tests/vm/vm-run" "${args[@]}" -- \
	sh /add/series-guest.sh $suites
