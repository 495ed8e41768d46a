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
for sym in readahead_policy_register readahead_policy_unregister readahead_policy_set_hooks mm_kobj; do
	grep -qP "\t$sym\t" "$tree/Module.symvers"
	tap $? "$sym is exported"
done

# The debug flavour (KASAN, lockdep, kmemleak) is built and checked by
# make stress, whose guest verifies those options at boot: its cold build
# (about 40 minutes on 2 cores) does not fit in make check.
echo "1..$n"
