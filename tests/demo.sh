#!/bin/bash
# make demo: build (or reuse) the patched kernel, the module and the tools,
# boot the kernel in QEMU and compare profiles stock, seed and best on the
# seed workloads and one real client (LMDB).  KERNEL_SERIES=6.12 does the
# same on the patched 6.12 kernel with an XFS scratch disk (tests/vm/vm-run's
# default there: 6.12's ext4 has no large folios) and adds a read-around
# (MADV_NORMAL) reverse walk to the table (tests/guest/demo.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/kernel/common.sh"

if [ "$(id -u)" = 0 ]; then
	need_pkgs qemu-system-x86_64:qemu-system-x86 busybox:busybox-static \
		mke2fs:e2fsprogs gcc:build-essential
fi
log "step 1/3: the patched $KERNEL_SERIES test kernel (about 11 minutes the first time, then cached)"
bash "$top/tests/kernel/build-kernel.sh" >/dev/null
log "step 2/3: booting it in QEMU with rapolicy.ko and rawalk"
walks=two
[ "$KERNEL_SERIES" != 6.12 ] || walks="three (XFS scratch disk)"
log "step 3/3: $walks cold reverse walks and an LMDB reverse scan under stock, seed and best; the stock walks take a minute or two each under TCG"
# the real-client row: LMDB and the tools of tests/clients
clients=()
if bash -c ". \"$top/tests/clients/run.sh\" && clients_prereqs" >/dev/null; then
	clients=(--add "$top/build/clients")
else
	log "tests/clients did not build: no real-client row"
fi
exec "$top/tests/vm/vm-run" --mem 2048 --add "$top/tests/guest" "${clients[@]}" -- sh /add/guest/demo.sh
