#!/bin/bash
# make check: real engines in the patched test kernel (TAP), one boot:
# tests/guest/engines.sh (Debian's db_bench and sqlite3, a model loader).
#   tests/clients/run-engines.sh [engines.sh arguments...]
# Installs rocksdb-tools (and what tests/clients/run.sh installs) as root
# if missing.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/clients/run.sh
. "$top/tests/clients/run.sh"
if ! { clients_prereqs && { [ "$(id -u)" != 0 ] || need_pkgs db_bench:rocksdb-tools; } &&
	make -s -C "$top/tests/clients" BUILD="$top/build" rocksdb >&2; }; then
	echo "not ok 1 - engines: build tests/clients and stage db_bench (rocksdb-tools)"
	echo "1..1"
	exit 1
fi
exec "$top/tests/vm/vm-run" --mem 3072 --add "$top/tests/guest" \
	--add "$top/build/clients" --add "$top/build/rocksdb" -- sh /add/guest/engines.sh "$@"
