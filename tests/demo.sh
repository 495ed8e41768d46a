#!/bin/bash
# make demo: build (or reuse) the patched kernel, the module and the tools,
# boot the kernel in QEMU and compare the seed workloads, policies off/on.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/kernel/common.sh"

if [ "$(id -u)" = 0 ]; then
	need_pkgs qemu-system-x86_64:qemu-system-x86 busybox:busybox-static \
		mke2fs:e2fsprogs gcc:build-essential
fi
log "step 1/3: the patched test kernel (about 11 minutes the first time, then cached)"
bash "$top/tests/kernel/build-kernel.sh" >/dev/null
log "step 2/3: booting it in QEMU with rapolicy.ko and rawalk"
log "step 3/3: four cold reverse walks; the stock ones take a minute or two each under TCG"
exec "$top/tests/vm/vm-run" --mem 2048 --add "$top/tests/guest" -- sh /add/guest/demo.sh
