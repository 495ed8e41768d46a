#!/bin/sh
# Real engines (TAP): unmodified Debian binaries and a model loader,
# each on a cold page cache under the profiles as rapolicyctl ships them
# (stock, best) and, for the loader, the madvise() hints a loader
# could give instead.
#
#   engines.sh [--bench] [--keys N] [--gets N] [--rows N] [--loader-mib N]
#              [--engines "rocksdb sqlite loader phase"]
#
# Needs /add/clients (make -C tests/clients) and /add/rocksdb (Debian's
# db_bench, staged by tests/clients/Makefile). The workloads, each at
# read_ahead_kb 128:
#   rocksdb  Debian's db_bench (rocksdb-tools) on a database of KEYS
#            1000-byte values (fillseq, then compact: one sorted run of
#            uncompressed tables), opened with --mmap_read=1 and no block
#            cache, so every read goes through the mapping:
#            - readrandom: GETS point gets in a memcg of a quarter of the
#              database, against the same gets through pread()
#              (--mmap_read=0, RocksDB's fadvise(FADV_RANDOM)), and the
#              same gets with --advise_random_on_open=0: no MADV_RANDOM
#              on the mapping, so read-around and the policies decide
#            - readseq and readreverse: a full iteration, forward and
#              backward, with RocksDB's MADV_RANDOM and without
#            - seekrandom: GETS / 8 short range scans of 16 keys
#   sqlite   Debian's sqlite3, PRAGMA mmap_size large: a table of ROWS rows
#            inserted in random key order, an index on the key built
#            after it, then SELECT k FROM t ORDER BY k ASC|DESC (a
#            covering index scan; DESC walks the index B-tree backwards)
#   loader   tests/clients/tensor_load: one thread reads a LOADER_MIB MiB
#            tensor file once, forward, through one mapping; measured as
#            llama.cpp's users measure a load: the device's read requests,
#            their mean size and the mean reads in flight while busy
#            (/sys/block/vda/stat); with no hint and with MADV_SEQUENTIAL
#            plus MADV_WILLNEED over the mapping
#   phase    tests/guest/phaser.c on a 256 MiB file: 1% random lookups,
#            then a scan of the same mapping, against a fresh scan (a
#            scan after random reads should cost what a fresh one does)
#
# Asserted (check mode): every run exits 0 and prints what stock's run of
# the same workload printed (a policy never changes what a program
# reads); each target of docs/ENGINES.md met today is a test; each one
# not met is printed as "# gap: ..." with its numbers, and is no test.
#
# --bench prints, per run:
#   @engine WORKLOAD PROFILE MAJOR SECTORS IOS READ_TICKS IO_TICKS WALL_MS
# shellcheck disable=SC2154  # _fresh and the counts are set through eval
# shellcheck source=tests/guest/lib.sh source-path=SCRIPTDIR/../..
. "$(dirname "$0")/lib.sh"

C=/add/clients
DEB=$C/debian
R=/add/rocksdb
PATH=$C/bin:$PATH
bench=0 keys=65536 gets=8000 rows=300000 loader_mib=1024
engines="rocksdb sqlite loader phase"
while [ $# -gt 0 ]; do
	case $1 in
	--bench) bench=1; shift ;;
	--keys) keys=$2; shift 2 ;;
	--gets) gets=$2; shift 2 ;;
	--rows) rows=$2; shift 2 ;;
	--loader-mib) loader_mib=$2; shift 2 ;;
	--engines) engines=$2; shift 2 ;;
	*) echo "engines: unknown argument $1" >&2; exit 2 ;;
	esac
done
DB=$SCRATCH/rocksdb
SQLDB=$SCRATCH/index.db
MODEL=$SCRATCH/loader.safetensors
MEMCG=/sys/fs/cgroup/engines
t0=$(cut -d. -f1 /proc/uptime)

sqlite() {
	"$DEB/ld-linux-x86-64.so.2" --library-path "$DEB/lib" "$DEB/bin/sqlite3" "$@"
}

# in_memcg MIB COMMAND...: COMMAND in a memcg of MIB MiB (0: no limit)
in_memcg() {
	_mib=$1
	shift
	if [ "$_mib" = 0 ]; then
		"$@"
		return
	fi
	mkdir -p "$MEMCG" &&
		echo +memory >/sys/fs/cgroup/cgroup.subtree_control &&
		echo $((_mib * 1024 * 1024)) >"$MEMCG/memory.max" || return 1
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$MEMCG" "$@"
}

# run NAME PROFILE MEMCG_MIB OUTFILTER COMMAND...: one cold run under
# measure; sets m_major, m_sectors, m_ios, m_rticks, m_ioticks, m_ms
# (empty if it failed) and m_sum, what it printed through OUTFILTER
# (a sed script) that must not change between profiles
run() {
	_name=$1 _p=$2 _mib=$3 _filter=$4
	shift 4
	m_major='' m_sectors='' m_ios='' m_rticks='' m_ioticks='' m_ms='' m_sum=''
	fresh_module && profile "$_p" || return 1
	echo 128 >/sys/block/vda/queue/read_ahead_kb || return 1
	if ! _out=$(in_memcg "$_mib" measure --cold --out /tmp/engine.out -- "$@"); then
		echo "$_out" | sed 's/^/# measure: /'
		tail -n 5 /tmp/engine.out | sed 's/^/# out: /'
		measure_failed "$_name under $_p"
		return 1
	fi
	m_major=$(echo "$_out" | sed -n 's/^major_faults: //p')
	m_sectors=$(echo "$_out" | sed -n 's/^sectors_read: //p')
	m_ios=$(echo "$_out" | sed -n 's/^ios_read: //p')
	m_rticks=$(echo "$_out" | sed -n 's/^read_ticks_ms: //p')
	m_ioticks=$(echo "$_out" | sed -n 's/^io_ticks_ms: //p')
	m_ms=$(echo "$_out" | sed -n 's/^wall_ms: //p')
	m_sum=$(sed -n "$_filter" /tmp/engine.out | md5sum)
	echo "# [$(($(cut -d. -f1 /proc/uptime) - t0)) s] $_name under $_p: $m_major majflt, $m_sectors sectors in $m_ios reads, read ticks $m_rticks ms, busy $m_ioticks ms, $m_ms ms"
	_c=
	for _k in sync_miss pages_read stream_sync stream_async descending_around random_fault random_return; do
		_c="$_c $_k=$(cat "$RAPOLICY_SYSFS/stats/$_k" 2>/dev/null)"
	done
	echo "#  $_c"
	[ "$bench" = 0 ] ||
		echo "@engine $_name $_p $m_major $m_sectors $m_ios $m_rticks $m_ioticks $m_ms"
	return 0
}

# record NAME PROFILE: keep the last run's counts as NAME_PROFILE_*, and
# check that it printed what the first profile's run of NAME printed
record() {
	eval "${1}_${2}_major=\$m_major ${1}_${2}_sectors=\$m_sectors ${1}_${2}_ios=\$m_ios ${1}_${2}_rticks=\$m_rticks ${1}_${2}_ioticks=\$m_ioticks"
	eval "_ref=\${${1}_sum:-}"
	if [ -z "$_ref" ]; then
		eval "${1}_sum=\$m_sum"
		_ref=$m_sum
	fi
	[ "$bench" = 1 ] && return 0
	[ -n "$m_major" ] && [ "$m_sum" = "$_ref" ]
	tap $? "$1 under $2: ran and printed what the first run printed ($m_major majflt, $m_sectors sectors)"
}

# get NAME PROFILE FIELD: a recorded count
get() {
	eval "echo \${${1}_${2}_${3}:-}"
}

# The targets of docs/ENGINES.md met when they were measured: each is a
# test; the others are printed as met or as a gap, and are no test.
asserted="get-stock get-best get-around-best get-around-sectors-best
	rev-around-major-best rev-around-sectors-best
	readseq-around-sectors-best readseq-around-major-best
	readreverse-around-sectors-best readreverse-around-major-best
	rev-major-best rev-sectors-best
	readseq-sectors-best readseq-major-best readreverse-sectors-best
	readreverse-major-best scan-sectors-best scan-major-best
	sqlite-ASC-sectors-best sqlite-ASC-major-best sqlite-DESC-major-best
	sqlite-DESC-below-best loader-sectors phase-best"

# target KEY DESCRIPTION TEST...: a target, a test if KEY is asserted
target() {
	_key=$1 _what=$2
	shift 2
	if "$@" 2>/dev/null; then _st=0; else _st=1; fi
	[ "$bench" = 1 ] && return 0
	_assert=0
	for _k in $asserted; do
		[ "$_k" != "$_key" ] || _assert=1
	done
	if [ "$_assert" = 1 ]; then
		tap "$_st" "target: $_what"
	elif [ "$_st" = 0 ]; then
		echo "# target met (not asserted yet): $_what"
	else
		echo "# gap: target not met: $_what"
	fi
}

# le X Y [NUM DEN]: X <= Y * NUM / DEN (default 1), both counts known
# shellcheck disable=SC2317  # called through target()
le() {
	[ -n "$1" ] && [ -n "$2" ] && [ $(($1 * ${4:-1})) -le $(($2 * ${3:-1})) ]
}

# le_stock X Y: X <= Y + 128 sectors (64 KiB: the file system's metadata
# and a page either way between runs of one program, as clients.sh allows)
# shellcheck disable=SC2317  # called through target()
le_stock() {
	[ -n "$2" ] && le "$1" $(($2 + 128))
}

# le2 X Y Z: X <= Y and X <= Z
# shellcheck disable=SC2317  # called through target()
le2() {
	le "$1" "$2" && le "$1" "$3"
}

# mean_ge S I S1 I1 S2 I2: S / I >= S1 / I1 and >= S2 / I2 (sectors a
# request), as cross products of known counts
# shellcheck disable=SC2317  # called through target()
mean_ge() {
	[ -n "$1" ] && [ -n "$3" ] && [ -n "$5" ] &&
		[ $(($1 * $4)) -ge $(($3 * $2)) ] && [ $(($1 * $6)) -ge $(($5 * $2)) ]
}

modprobe rapolicy || { tap 1 "load rapolicy"; tap_end; }

rocksdb() {
	_mem=$((keys * 1000 / 1048576 / 4))
	# Debian's db_bench through its own loader (tests/vm/README.md)
	set -- "$R/ld-linux-x86-64.so.2" --library-path "$R/lib" "$R/bin/db_bench"
	if ! { rm -rf "$DB" && "$@" --db="$DB" --benchmarks=fillseq,compact \
		--num="$keys" --value_size=1000 --compression_type=none \
		--disable_wal=1 --seed=1 --threads=1 >/tmp/fill.out 2>&1; }; then
		sed 's/^/# fill: /' /tmp/fill.out | tail -n 5
		[ "$bench" = 1 ] || tap 1 "rocksdb: fill a database of $keys keys"
		return
	fi
	sync
	echo "# rocksdb: $keys keys, $(du -sk "$DB" | cut -f1) KiB, memcg $_mem MiB for the gets; [$(($(cut -d. -f1 /proc/uptime) - t0)) s]"
	set -- "$@" --db="$DB" --use_existing_db=1 --num="$keys" --seed=1 \
		--threads=1 --cache_size=0 --compression_type=none
	# what a get or an iteration found: db_bench's summary line
	_f='s/.*( *\([0-9]* of [0-9]* found\).*/\1/p; s/^\(read[a-z]* *\):.*/\1/p'
	run rocksdb_pread stock "$_mem" "$_f" "$@" --mmap_read=0 \
		--benchmarks=readrandom --reads="$gets"
	record rocksdb_pread stock
	for p in stock best; do
		run rocksdb_get "$p" "$_mem" "$_f" "$@" --mmap_read=1 \
			--benchmarks=readrandom --reads="$gets"
		record rocksdb_get "$p"
	done
	# the same gets with RocksDB's MADV_RANDOM off: read-around decides
	for p in stock best; do
		run rocksdb_get_around "$p" "$_mem" "$_f" "$@" --mmap_read=1 \
			--advise_random_on_open=0 --benchmarks=readrandom \
			--reads="$gets"
		record rocksdb_get_around "$p"
	done
	for w in readseq readreverse; do
		for p in stock best; do
			run "rocksdb_$w" "$p" 0 "$_f" "$@" --mmap_read=1 \
				--benchmarks="$w"
			record "rocksdb_$w" "$p"
			run "rocksdb_${w}_around" "$p" 0 "$_f" "$@" \
				--mmap_read=1 --advise_random_on_open=0 \
				--benchmarks="$w"
			record "rocksdb_${w}_around" "$p"
		done
	done
	for p in stock best; do
		run rocksdb_scan "$p" 0 "$_f" "$@" --mmap_read=1 \
			--benchmarks=seekrandom --seek_nexts=16 \
			--reads=$((gets / 8))
		record rocksdb_scan "$p"
	done
	pr=$(get rocksdb_pread stock sectors)
	for p in stock best; do
		s=$(get rocksdb_get "$p" sectors)
		target "get-$p" "rocksdb random gets through mmap under $p read at most 1.5x the sectors of pread's ($s, pread $pr)" \
			le "$s" "$pr" 3 2
	done
	s=$(get rocksdb_get_around best sectors)
	target get-around-best "rocksdb random gets without MADV_RANDOM under best read at most 1.5x the sectors of pread's ($s, pread $pr)" \
		le "$s" "$pr" 3 2
	target get-around-sectors-best "rocksdb random gets without MADV_RANDOM under best read no more sectors than stock ($s, stock $(get rocksdb_get_around stock sectors))" \
		le_stock "$s" "$(get rocksdb_get_around stock sectors)"
	target get-around-major-best "rocksdb random gets without MADV_RANDOM under best take no more major faults than stock ($(get rocksdb_get_around best major), stock $(get rocksdb_get_around stock major))" \
		le "$(get rocksdb_get_around best major)" "$(get rocksdb_get_around stock major)"
	for p in stock best; do
		fm=$(get rocksdb_readseq "$p" major) fs=$(get rocksdb_readseq "$p" sectors)
		rm=$(get rocksdb_readreverse "$p" major) rs=$(get rocksdb_readreverse "$p" sectors)
		target "rev-major-$p" "rocksdb readreverse under $p takes at most 1.1x readseq's major faults ($rm, forward $fm)" \
			le "$rm" "$fm" 11 10
		target "rev-sectors-$p" "rocksdb readreverse under $p reads at most 1.1x readseq's sectors ($rs, forward $fs)" \
			le "$rs" "$fs" 11 10
	done
	# without RocksDB's MADV_RANDOM: read-around and the tracker decide
	fm=$(get rocksdb_readseq_around best major) fs=$(get rocksdb_readseq_around best sectors)
	rm=$(get rocksdb_readreverse_around best major) rs=$(get rocksdb_readreverse_around best sectors)
	target rev-around-major-best "rocksdb readreverse without MADV_RANDOM under best takes at most 1.1x readseq's major faults ($rm, forward $fm)" \
		le "$rm" "$fm" 11 10
	target rev-around-sectors-best "rocksdb readreverse without MADV_RANDOM under best reads at most 1.1x readseq's sectors ($rs, forward $fs)" \
		le "$rs" "$fs" 11 10
	for w in readseq readreverse; do
		target "$w-around-sectors-best" "rocksdb $w without MADV_RANDOM under best reads no more sectors than stock ($(get "rocksdb_${w}_around" best sectors), stock $(get "rocksdb_${w}_around" stock sectors))" \
			le_stock "$(get "rocksdb_${w}_around" best sectors)" "$(get "rocksdb_${w}_around" stock sectors)"
		target "$w-around-major-best" "rocksdb $w without MADV_RANDOM under best takes no more major faults than stock ($(get "rocksdb_${w}_around" best major), stock $(get "rocksdb_${w}_around" stock major))" \
			le "$(get "rocksdb_${w}_around" best major)" "$(get "rocksdb_${w}_around" stock major)"
	done
	for w in readseq readreverse scan; do
		for p in best; do
			target "$w-sectors-$p" "rocksdb $w under $p reads no more sectors than stock ($(get "rocksdb_$w" "$p" sectors), stock $(get "rocksdb_$w" stock sectors))" \
				le_stock "$(get "rocksdb_$w" "$p" sectors)" "$(get "rocksdb_$w" stock sectors)"
			target "$w-major-$p" "rocksdb $w under $p takes no more major faults than stock ($(get "rocksdb_$w" "$p" major), stock $(get "rocksdb_$w" stock major))" \
				le "$(get "rocksdb_$w" "$p" major)" "$(get "rocksdb_$w" stock major)"
		done
	done
}

sqlite_index() {
	# distinct keys in scattered order (x * 7919 mod the prime 1000003
	# for x from 1 to ROWS), the index built after the rows
	if ! { rm -f "$SQLDB" && sqlite "$SQLDB" "PRAGMA page_size=4096;
		PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
		CREATE TABLE t(k INTEGER, v BLOB);
		WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < $rows)
		INSERT INTO t SELECT (x * 7919) % 1000003, randomblob(100) FROM c;
		CREATE INDEX t_k ON t(k);" >/dev/null; }; then
		[ "$bench" = 1 ] || tap 1 "sqlite: create a table of $rows rows and its index"
		return
	fi
	sync
	echo "# sqlite: $rows rows, $(($(stat -c %s "$SQLDB") / 1024)) KiB; [$(($(cut -d. -f1 /proc/uptime) - t0)) s]"
	for d in ASC DESC; do
		for p in stock best; do
			# the keys, in order: one cksum of them all
			run "sqlite_$d" "$p" 0 'p' "$DEB/ld-linux-x86-64.so.2" \
				--library-path "$DEB/lib" "$DEB/bin/sqlite3" \
				-cmd "PRAGMA mmap_size=17179869184" "$SQLDB" \
				"SELECT k FROM t ORDER BY k $d"
			record "sqlite_$d" "$p"
		done
	done
	for p in best; do
		for d in ASC DESC; do
			target "sqlite-$d-sectors-$p" "sqlite index scan $d under $p reads no more sectors than stock ($(get "sqlite_$d" "$p" sectors), stock $(get "sqlite_$d" stock sectors))" \
				le_stock "$(get "sqlite_$d" "$p" sectors)" "$(get "sqlite_$d" stock sectors)"
			target "sqlite-$d-major-$p" "sqlite index scan $d under $p takes no more major faults than stock ($(get "sqlite_$d" "$p" major), stock $(get "sqlite_$d" stock major))" \
				le "$(get "sqlite_$d" "$p" major)" "$(get "sqlite_$d" stock major)"
		done
		# A backward span's windows stop at 8 of stock's (module/stream.h,
		# RAP_STREAM_BACK_WINDOWS): below the index it reads two of them
		# at most, 2 * 8 * 128 KiB = 4096 sectors
		target "sqlite-DESC-below-$p" "sqlite index scan DESC under $p reads at most stock's sectors + two backward windows, 4096 ($(get sqlite_DESC "$p" sectors), stock $(get sqlite_DESC stock sectors))" \
			le_stock "$(get sqlite_DESC "$p" sectors)" "$(($(get sqlite_DESC stock sectors) + 2 * 8 * 128 * 2))"
	done
}

loader() {
	if ! tensor_load create "$MODEL" "$loader_mib" >/dev/null; then
		[ "$bench" = 1 ] || tap 1 "loader: create a $loader_mib MiB tensor file"
		return
	fi
	sync
	echo "# loader: $(($(stat -c %s "$MODEL") / 1048576)) MiB; [$(($(cut -d. -f1 /proc/uptime) - t0)) s]"
	_f='/^\(tensors\|bytes\):/p'
	for p in stock best; do
		run loader "$p" 0 "$_f" tensor_load load "$MODEL" 1 forward
		record loader "$p"
	done
	for p in stock best; do
		run loader_hint "$p" 0 "$_f" tensor_load load "$MODEL" 1 forward hint
		record loader_hint "$p"
	done
	# the better of stock and the hint: fewer requests, larger mean
	# size (sectors / requests, compared as cross products), more in
	# flight (read ticks / busy ticks, likewise)
	si=$(get loader stock ios) ss=$(get loader stock sectors)
	hi=$(get loader_hint stock ios) hs=$(get loader_hint stock sectors)
	bi=$(get loader best ios) bs=$(get loader best sectors)
	target loader-requests "loader under best takes no more read requests than stock and than MADV_SEQUENTIAL+MADV_WILLNEED ($bi; stock $si, hint $hi)" \
		le2 "$bi" "$si" "$hi"
	target loader-sectors "loader under best reads no more sectors than stock ($bs, stock $ss, hint $hs)" \
		le_stock "$bs" "$ss"
	target loader-mean "loader under best: mean request at least stock's and the hint's ($((bs / (bi ? bi : 1))) sectors; stock $((ss / (si ? si : 1))), hint $((hs / (hi ? hi : 1))))" \
		mean_ge "$bs" "$bi" "$ss" "$si" "$hs" "$hi"
	echo "# loader mean reads in flight while busy (read ticks / busy ticks; TCG, not asserted): stock $(get loader stock rticks)/$(get loader stock ioticks), best $(get loader best rticks)/$(get loader best ioticks), hint $(get loader_hint stock rticks)/$(get loader_hint stock ioticks), hint under best $(get loader_hint best rticks)/$(get loader_hint best ioticks)"
	rm -f "$MODEL"
}

# phases PROFILE PCT: one phaser run (tests/guest/random.sh does the same
# for random_miss alone); sets p_major and p_sectors of its scan
phases() {
	p_major='' p_sectors=''
	fresh_module && profile "$1" || return 1
	echo 128 >/sys/block/vda/queue/read_ahead_kb || return 1
	if ! _out=$(phaser "$2" "$PHASE" 2>&1); then
		echo "$_out" | sed 's/^/# phaser: /'
		measure_failed "phaser $2 under $1"
		return 1
	fi
	p_major=$(echo "$_out" | sed -n 's/^scan_major_faults: //p')
	p_sectors=$(echo "$_out" | sed -n 's/^scan_sectors_read: //p')
	echo "# phaser $2% under $1: $(echo "$_out" | grep -v '^sum' | sed 's/: /=/' | tr '\n' ' ')"
	[ "$bench" = 0 ] || echo "@engine phase$2 $1 $p_major $p_sectors 0 0 0 0"
}

phase() {
	PHASE=$(testfile 256M) || { [ "$bench" = 1 ] || tap 1 "phase: create a 256 MiB file"; return; }
	for p in stock best; do
		phases "$p" 0
		eval "fresh_$p=\$p_major"
		phases "$p" 1
		[ "$bench" = 1 ] && continue
		eval "_fresh=\${fresh_$p:-}"
		target "phase-$p" "phase flip under $p: a scan after 1% random lookups takes at most a fresh scan's major faults + 1 ($p_major, fresh $_fresh)" \
			le "$p_major" "$((_fresh + 1))"
	done
	rm -f "$PHASE"
}

for e in $engines; do
	case $e in
	rocksdb) rocksdb ;;
	sqlite) sqlite_index ;;
	loader) loader ;;
	phase) phase ;;
	*) echo "engines: no engine $e" >&2; exit 2 ;;
	esac
done
profile stock
rmdir "$MEMCG" 2>/dev/null
echo "# engines.sh took $(($(cut -d. -f1 /proc/uptime) - t0)) s"
[ "$bench" = 1 ] && exit 0
tap_end
