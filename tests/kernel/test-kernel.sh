#!/bin/bash
# The test kernel builds (or comes from the cache) with the hook series and
# the configuration the tests rely on (TAP).
set -uo pipefail
here=$(dirname "$0")
n=0
tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

start=$(date +%s)
tree=$(bash "$here/build-kernel.sh")
tap $? "patched kernel builds ($(($(date +%s) - start)) s)"
[ -n "$tree" ] || exit 1
echo "# kernel tree: $tree"

[ -f "$tree/arch/x86/boot/bzImage" ]
tap $? "bzImage exists"
for opt in CONFIG_READAHEAD_POLICY CONFIG_ADVISE_SYSCALLS CONFIG_TRANSPARENT_HUGEPAGE \
	   CONFIG_PROC_PAGE_MONITOR CONFIG_MEMCG CONFIG_KUNIT CONFIG_MODULE_UNLOAD; do
	grep -qx "$opt=y" "$tree/.config"
	tap $? "$opt=y"
done
for sym in readahead_policy_register readahead_policy_unregister mm_kobj; do
	grep -qP "\t$sym\t" "$tree/Module.symvers"
	tap $? "$sym is exported"
done

# The debug flavour (make stress, the stress suite): same series, plus
# tests/kernel/debug.config.
start=$(date +%s)
dtree=$(bash "$here/build-kernel.sh" --debug)
tap $? "debug kernel builds ($(($(date +%s) - start)) s)"
[ -n "$dtree" ] || exit 1
echo "# debug kernel tree: $dtree"
grep -qx -- '.*-rapolicy-debug' "$dtree/include/config/kernel.release"
tap $? "debug kernel release is $(cat "$dtree/include/config/kernel.release" 2>/dev/null)"
for opt in CONFIG_READAHEAD_POLICY CONFIG_KASAN CONFIG_PROVE_LOCKING CONFIG_PROVE_RCU \
	   CONFIG_DEBUG_KMEMLEAK CONFIG_KFENCE CONFIG_DEBUG_VM CONFIG_DEBUG_ATOMIC_SLEEP \
	   CONFIG_DETECT_HUNG_TASK CONFIG_SOFTLOCKUP_DETECTOR; do
	grep -qx "$opt=y" "$dtree/.config"
	tap $? "debug: $opt=y"
done
