#!/bin/bash
# Boot the patched kernel once and run the guest-side tests in it (TAP).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
exec "$top/tests/vm/vm-run" --mem 2048 --add "$top/tests/guest" -- sh /add/guest/run.sh
