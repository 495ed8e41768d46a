#!/bin/bash
# make bench, real clients: LMDB, a parallel tensor loader and Debian's
# sqlite3 scanned forward and in reverse under profiles stock, seed and best
# at read_ahead_kb 128 and 8192, on the patched kernel with the scratch disk
# throttled as the rest of make bench; writes build/bench/clients.txt and
# the "Real clients" section of docs/BENCHMARKS.md; then the real engines
# (tests/guest/engines.sh --bench) into docs/bench/engines.txt.
#
#   tests/bench/clients.sh [--reps N] [--mib N] [--iops N] [--bps N]
#   tests/bench/clients.sh --insert DOC   put the section (from build/bench/)
#                                         into DOC before "## All cells"
#
# The guest side is tests/guest/clients.sh --bench; the table is written by
# tests/bench/clients.awk.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/clients/run.sh source-path=SCRIPTDIR/../..
. "$top/tests/clients/run.sh"
work=$top/build/bench
IOPS=2000
BPS=$((630 * 1024 * 1024))
REPS=1
MIB=256
insert=
cmdline="tests/bench/clients.sh${*:+ $*}"

while [ $# -gt 0 ]; do
	case $1 in
	--insert) insert=${2:?--insert needs a file}; shift ;;
	--reps|--mib|--iops|--bps)
		[[ ${2:-} =~ ^[0-9]+$ ]] || die "$1 needs a number"
		case $1 in
		--reps) REPS=$2 ;;
		--mib) MIB=$2 ;;
		--iops) IOPS=$2 ;;
		--bps) BPS=$2 ;;
		esac
		shift ;;
	*) die "clients.sh: unknown argument $1" ;;
	esac
	shift
done

# section DOC: the table, inserted before "## All cells" (or at the end)
section() {
	local doc=$1 sect
	[ -s "$work/clients.txt" ] || return 0
	sect=$(mktemp)
	awk -v cmd="$(cat "$work/clients.cmd" 2>/dev/null || echo "$cmdline")" \
		-v meta="$(cat "$work/clients.meta" 2>/dev/null)" \
		-v sqlitev="$(sed -n 's|^/usr/bin/sqlite3 sqlite3 ||p' "$top/build/clients/debian/VERSIONS" 2>/dev/null)" \
		-f "$top/tests/bench/clients.awk" "$work/clients.txt" >"$sect"
	awk -v f="$sect" '
		/^## Real clients/ { skip = 1; next }
		skip && /^## / { skip = 0 }
		skip { next }
		/^## All cells/ && !done { while ((getline l < f) > 0) print l; done = 1 }
		{ print }
		END { if (!done) while ((getline l < f) > 0) print l }' "$doc" >"$doc.tmp"
	mv "$doc.tmp" "$doc"
	rm -f "$sect"
	mkdir -p "$(dirname "$doc")/bench"
	cp "$work/clients.txt" "$(dirname "$doc")/bench/clients.txt"
}

if [ -n "$insert" ]; then
	section "$insert"
	exit 0
fi

clients_prereqs || die "cannot build tests/clients"
mkdir -p "$work"
args=(--mem 2048 --cpus 2 --timeout 7200 --add "$top/tests/guest" --add "$top/build/clients")
[ "$IOPS" = 0 ] || args+=(--throttle-iops "$IOPS")
[ "$BPS" = 0 ] || args+=(--throttle-bps "$BPS")
log "real clients: $MIB MiB files, $REPS repetition(s), disk throttled to $IOPS IOPS and $((BPS / 1048576)) MiB/s"
t0=$(date +%s)
load0=$(cut -d' ' -f1 /proc/loadavg) vms0=$(pgrep -c '^qemu-system' || true)
set +e
"$top/tests/vm/vm-run" "${args[@]}" -- sh /add/guest/clients.sh --bench --mib "$MIB" \
	--profiles "stock seed best" --ra "128 8192" --reps "$REPS" \
	2>"$work/vm-clients.err" | tee "$work/vm-clients.log" | grep --line-buffered -v '^@' >&2
rc=${PIPESTATUS[0]}
set -e
[ "$rc" = 0 ] || die "the real-client run failed (status $rc); log in $work/vm-clients.log"
sed -n 's/^@client //p' "$work/vm-clients.log" >"$work/clients.txt"
# The real engines (tests/guest/engines.sh --bench, docs/ENGINES.md) on
# the same throttled disk: build/bench/engines.txt, docs/bench/engines.txt
if need_pkgs db_bench:rocksdb-tools && make -s -C "$top/tests/clients" BUILD="$top/build" rocksdb >&2; then
	eargs=(--mem 3072 --cpus 2 --timeout 7200 --add "$top/tests/guest" \
		--add "$top/build/clients" --add "$top/build/rocksdb")
	[ "$IOPS" = 0 ] || eargs+=(--throttle-iops "$IOPS")
	[ "$BPS" = 0 ] || eargs+=(--throttle-bps "$BPS")
	"$top/tests/vm/vm-run" "${eargs[@]}" -- sh /add/guest/engines.sh --bench 2>"$work/vm-engines.err" |
		tee "$work/vm-engines.log" | grep --line-buffered '^#' >&2 || true
	sed -n 's/^@engine //p' "$work/vm-engines.log" >"$work/engines.txt"
	if [ -s "$work/engines.txt" ]; then
		cp "$work/engines.txt" "$top/docs/bench/engines.txt"
	fi
fi
echo "$cmdline" >"$work/clients.cmd"
echo "$MIB MiB files, $IOPS IOPS and $((BPS / 1048576)) MiB/s, $REPS repetition(s), $(($(date +%s) - t0)) s in all on $(date -u '+%Y-%m-%d %H:%M UTC'); host load average $load0 at the start and $(cut -d' ' -f1 /proc/loadavg) at the end on $(nproc) cores, $vms0 QEMU processes at the start (others' VMs make TCG wall times noisy; the counts are not affected)" >"$work/clients.meta"
log "real clients: $(wc -l <"$work/clients.txt") runs in $(($(date +%s) - t0)) s"
section "$top/docs/BENCHMARKS.md"
