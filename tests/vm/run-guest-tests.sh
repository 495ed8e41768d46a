#!/bin/bash
# Boot the patched kernel once and run the guest-side tests in it (TAP).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# every guest script of 7.3 in one boot: more than vm-run's default 30 minutes
# on a loaded host
exec "$top/tests/vm/vm-run" --timeout 3600 --mem 2048 --add "$top/tests/guest" -- sh /add/guest/run.sh
