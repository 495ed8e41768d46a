#!/bin/sh
# random_miss with real random readers (TAP), unmodified Debian programs or
# LMDB's own API, each in a memcg a quarter of its data:
#
# - LMDB (tests/clients/lmdb_scan.c get): mdb_get of 1% of the records of
#   a 128 MiB database in a 32 MiB memcg. Without MDB_NORDAHEAD under the
#   profile best, LMDB reads at most 1.2x the bytes it reads with
#   MDB_NORDAHEAD (its madvise(MADV_RANDOM)) under stock.
# - sqlite (Debian's sqlite3): 1% of the rows of a 128 MiB table looked up
#   by primary key, through PRAGMA mmap_size under the profile best: at most 1.5x the
#   sectors of the same queries with mmap_size=0 (pread()).
#
# Each relation is printed with stock's numbers without the hint (or
# through the mapping), which fail it.
#   random_clients.sh     (in the guest, with /add/clients: tests/clients/run-random.sh)
. "$(dirname "$0")/lib.sh"

C=/add/clients
DEB=$C/debian
PATH=$C/bin:$PATH
MIB=128
MEMCG=/sys/fs/cgroup/random_clients
LMDB=$SCRATCH/lmdb-random
SQLDB=$SCRATCH/random.db
ROWS=$((MIB * 1024))

sqlite() {
	"$DEB/ld-linux-x86-64.so.2" --library-path "$DEB/lib" "$DEB/bin/sqlite3" "$@"
}

# in_memcg COMMAND...: run COMMAND in a memcg of MIB / 4
in_memcg() {
	mkdir -p "$MEMCG" &&
		echo +memory >/sys/fs/cgroup/cgroup.subtree_control &&
		echo $((MIB / 4 * 1024 * 1024)) >"$MEMCG/memory.max" || return 1
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$MEMCG" "$@"
}

# run PROFILE COMMAND...: one cold run under measure in the memcg; sets
# m_sectors, m_major (empty if it failed)
run() {
	_p=$1
	shift
	m_sectors='' m_major=''
	profile "$_p" || return 1
	echo 128 >/sys/block/vda/queue/read_ahead_kb || return 1
	echo 1 >"$RAPOLICY_SYSFS/stats/reset"
	if ! m_out=$(in_memcg measure --cold --out /tmp/random_client.out -- "$@"); then
		echo "$m_out" | sed 's/^/# measure: /'
		sed 's/^/# out: /' /tmp/random_client.out
		measure_failed "$* under $_p"
		return 1
	fi
	m_sectors=$(echo "$m_out" | sed -n 's/^sectors_read: //p')
	m_major=$(echo "$m_out" | sed -n 's/^major_faults: //p')
	echo "# $_p ${*##*/}: $m_major majflt, $m_sectors sectors, $(grep -v '^$' /tmp/random_client.out | tr '\n' ' ')"
	_c=
	for _k in sync_miss sync_around pages_read mmap_hit stream_sync stream_async descending_around random_fault random_return random_credit random_marker; do
		_c="$_c $_k=$(counter $_k)"
	done
	echo "#  $_c"
}

# within NUM DEN X Y: X <= Y * NUM / DEN, both runs good
within() {
	[ "$3" -ge 0 ] && [ "$4" -gt 0 ] && [ $(($3 * $2)) -le $(($4 * $1)) ]
}

modprobe rapolicy || { tap 1 "load rapolicy"; tap_end; }

if rm -rf "$LMDB" && mkdir -p "$LMDB" && lmdb_scan fill "$LMDB" "$MIB" >/dev/null; then
	run stock lmdb_scan get "$LMDB" 10 nordahead
	nr=$m_sectors
	run stock lmdb_scan get "$LMDB" 10 normal
	sr=$m_sectors
	run best lmdb_scan get "$LMDB" 10 normal
	within 12 10 "$m_sectors" "$nr"
	tap $? "lmdb: random mdb_get under the profile best reads <= 1.2x MDB_NORDAHEAD's under stock ($m_sectors sectors, nordahead $nr, stock $sr)"
else
	tap 1 "lmdb: fill a $MIB MiB database"
fi

# the lookups: a fixed pseudo-random sequence of keys, 1% of the rows
lookups="WITH RECURSIVE c(i, x) AS (SELECT 1, 12345 UNION ALL
	SELECT i + 1, (x * 1103515245 + 12345) % 2147483648 FROM c
	WHERE i < $((ROWS / 100)))
	SELECT count(*), sum(unicode(hex(substr(v, 1000, 1))))
	FROM c CROSS JOIN t ON t.k = 1 + c.x % $ROWS;"
if rm -f "$SQLDB" && sqlite "$SQLDB" "PRAGMA page_size=4096;
	PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
	CREATE TABLE t(k INTEGER PRIMARY KEY, v BLOB);
	WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < $ROWS)
	INSERT INTO t SELECT x, randomblob(1000) FROM c;" >/dev/null; then
	q() {
		run "$1" "$DEB/ld-linux-x86-64.so.2" --library-path "$DEB/lib" \
			"$DEB/bin/sqlite3" -cmd "PRAGMA mmap_size=$2" "$SQLDB" "$lookups"
	}
	q best 0
	pr=$m_sectors
	q stock 17179869184
	sr=$m_sectors
	q best 17179869184
	within 15 10 "$m_sectors" "$pr"
	tap $? "sqlite: point lookups through mmap_size under the profile best read <= 1.5x pread's ($m_sectors sectors, pread $pr, stock $sr)"
else
	tap 1 "sqlite: create a $MIB MiB table"
fi

profile stock
rmdir "$MEMCG" 2>/dev/null
tap_end
