#!/bin/bash
# make check: random_miss with real random readers (LMDB, Debian's sqlite3)
# in the patched test kernel (TAP), one boot: tests/guest/random_clients.sh.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/clients/run.sh
. "$top/tests/clients/run.sh"
if ! clients_prereqs; then
	echo "not ok 1 - random clients: build tests/clients (liblmdb-dev, lmdb-utils, sqlite3)"
	echo "1..1"
	exit 1
fi
exec "$top/tests/vm/vm-run" --mem 2048 --add "$top/tests/guest" \
	--add "$top/build/clients" -- sh /add/guest/random_clients.sh
