#!/bin/bash
# make check: the real clients in the patched test kernel (TAP), one boot.
#   tests/clients/run.sh [clients.sh arguments...]
# Builds tests/clients (installing liblmdb-dev, lmdb-utils and sqlite3 as
# root if missing), then runs tests/guest/clients.sh in the guest.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/kernel/common.sh source-path=SCRIPTDIR/../..
. "$top/tests/kernel/common.sh"

clients_prereqs() {
	if [ "$(id -u)" = 0 ]; then
		need_pkgs mdb_stat:lmdb-utils sqlite3:sqlite3 || return 1
		if ! dpkg -s liblmdb-dev >/dev/null 2>&1; then
			log "installing liblmdb-dev"
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q liblmdb-dev >&2 ||
				{ apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q liblmdb-dev >&2; } ||
				return 1
		fi
	fi
	make -s -C "$top/tests/clients" BUILD="$top/build" >&2
}

# Sourced by tests/bench/clients.sh for the same prerequisites.
[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

if ! clients_prereqs; then
	echo "not ok 1 - clients: build tests/clients (liblmdb-dev, lmdb-utils, sqlite3)"
	exit 1
fi
exec "$top/tests/vm/vm-run" --mem 2048 --add "$top/tests/guest" \
	--add "$top/build/clients" -- sh /add/guest/clients.sh "$@"
