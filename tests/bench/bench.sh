#!/bin/bash
# make bench: every seed workload under every policy setting, on the patched
# kernel and on stock 7.3.4, then the same on Linux 6.12 (patched 6.12 and
# stock 6.12, XFS scratch disk), with the scratch disk throttled in QEMU;
# writes docs/BENCHMARKS.md, docs/bench/*.svg, docs/bench/results.txt and
# docs/bench/results-6.12.txt.
#
#   tests/bench/bench.sh [--reps N] [--iops N] [--bps N] [--no-stock] [--no-6.12]
#   tests/bench/bench.sh --only-6.12      the 6.12 boots alone, then the doc
#                                         from them and build/bench/'s 7.3 data
#   tests/bench/bench.sh --smoke          one small cell per setting (TAP)
#   tests/bench/bench.sh --report-only    redo the doc from build/bench/ (with
#                                         --only-6.12: its 6.12 section alone)
#   tests/bench/bench.sh --fault-cost     the fault cost boot alone, then the
#                                         doc's section on it and its plot
#                                         (with --report-only: from build/bench/)
#
# The matrix (workloads, sizes, settings) is tests/bench/matrix; the guest
# side is tests/guest/bench.sh; the doc is written by tests/bench/report.awk
# and the plots by tests/bench/*.gp (gnuplot).  A last boot runs the real
# clients (tests/bench/clients.sh) for the doc's "Real clients" section.
#
# --smoke: the workloads of tests/bench/smoke.cells at small sizes, each
# setting once, no throttle, one repetition, patched kernel only; prints
# TAP ("ok N - bench smoke: ...") asserting sanity only (the walk ran,
# counts are non-negative, something was read, the setting took, the report
# and plots render) and writes into build/bench-smoke/, never docs/.
#
# 6.12 (tests/bench/report-6.12.awk, the doc's "Linux 6.12" section): the
# matrix without the o/p workloads (issue 7's 512 MiB symmetry targets, a
# 7.3 question), every setting, on patches/6.12 + rapolicy.ko and on stock
# 6.12 (KERNEL_SERIES=6.12: both cached kernels, XFS scratch disk, as
# tests/vm/vm-run picks for 6.12, since 6.12's ext4 has no large folios).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bench=$top/tests/bench
# shellcheck source=tests/kernel/common.sh source-path=SCRIPTDIR/../..
. "$top/tests/kernel/common.sh"

# Throttle: the seed's disk slowed down 5.6 times.  Its stock walk took
# 42.23 s for 473189 faults, one 4 KiB read each: 11205 reads/s at queue
# depth 1; its fixed walk read 2 GiB in 0.58 s: 3531 MiB/s.  2000 I/Os per
# second (0.5 ms each, above TCG's ~0.3 ms of CPU per fault, so the I/O
# count sets the time of a per-page walk) and 630 MiB/s keep that ratio of
# bandwidth to request rate, so the speedups of I/O-bound walks compare
# with the seed's once scaled to our file sizes.
IOPS=2000
BPS=$((630 * 1024 * 1024))
REPS=3
MEM=2048
CPUS=2
smoke=0 stock=1 report_only=0 k612=1 only612=0 fcost_only=0
cmdline="tests/bench/bench.sh${*:+ $*}"
# Run by make with no arguments: `make bench`.
[ -z "${MAKELEVEL:-}" ] || [ $# -gt 0 ] || cmdline="make bench (tests/bench/bench.sh)"

usage() {
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2
	exit "$1"
}

while [ $# -gt 0 ]; do
	case $1 in
	--smoke) smoke=1 ;;
	--no-stock) stock=0 ;;
	--no-6.12) k612=0 ;;
	--only-6.12) only612=1 ;;
	--report-only) report_only=1 ;;
	--fault-cost) fcost_only=1 ;;
	--reps|--iops|--bps)
		if [ $# -lt 2 ] || ! [[ $2 =~ ^[0-9]+$ ]]; then
			die "$1 needs a number"
		fi
		case $1 in
		--reps) REPS=$2 ;;
		--iops) IOPS=$2 ;;
		--bps) BPS=$2 ;;
		esac
		shift ;;
	-h|--help) usage 0 ;;
	*) echo "bench: unknown argument $1" >&2; usage 2 ;;
	esac
	shift
done

if [ "$smoke" = 1 ]; then
	work=$top/build/bench-smoke
	doc=$work/BENCHMARKS.md svgdir=$work/bench
	IOPS=0 BPS=0 REPS=1 stock=0 k612=0 only612=0
else
	work=$top/build/bench
	doc=$top/docs/BENCHMARKS.md svgdir=$top/docs/bench
fi
[ "$REPS" -ge 1 ] || die "--reps must be at least 1"
# KERNEL_SERIES: the smoke runs on that series' patched kernel; the full
# bench always runs 7.3 (its boots) and 6.12 (its section), so
# KERNEL_SERIES=6.12 make bench redoes the 6.12 section alone (--only-6.12)
# and 7.2, which has no column, is refused.
if [ "$smoke" = 0 ]; then
	case $KERNEL_SERIES in
	6.12) [ "$k612" = 1 ] || die "KERNEL_SERIES=6.12 with --no-6.12: nothing to run"
		only612=1 ;;
	7.2) die "make bench has no 7.2 column: KERNEL_SERIES=7.3 (the default) or 6.12" ;;
	esac
	export KERNEL_SERIES=7.3
fi
[ "$only612" = 0 ] || [ "$k612" = 1 ] || die "--only-6.12 and --no-6.12 exclude each other"

n=0 failed=0
tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - bench smoke: $2"
	else
		echo "not ok $n - bench smoke: $2"
		failed=$((failed + 1))
	fi
}

have_gnuplot() {
	command -v gnuplot >/dev/null 2>&1
}

# gnuplot-nox: the SVG terminal without X.  A failed install only costs the
# plots (the doc says so); the smoke test then skips them.
ensure_gnuplot() {
	have_gnuplot && return 0
	if [ "$(id -u)" = 0 ]; then
		(need_pkgs gnuplot:gnuplot-nox) || log "could not install gnuplot-nox"
	fi
	have_gnuplot || log "gnuplot not found: no plots (apt-get install gnuplot-nox)"
}

# The matrix the guest runs: the full one, or the smoke cells at small sizes
# with the settings of the full one.
write_spec() {
	rm -rf "$work/spec"
	mkdir -p "$work/spec"
	if [ "$smoke" = 1 ]; then
		{
			grep -v '^s ' "$bench/smoke.cells"
			grep '^s ' "$bench/matrix"
		} >"$work/spec/matrix"
	else
		cp "$bench/matrix" "$work/spec/matrix"
	fi
	rm -rf "$work/spec612"
	[ "$k612" = 1 ] || return 0
	# 6.12: the matrix without the o workloads (and their p pairs)
	mkdir -p "$work/spec612"
	awk 'FNR == NR { if ($1 == "o") { g = $2; gsub(/\*/, ".*", g); re[++n] = "^" g "$" }; next }
		$1 == "o" { next }
		$1 == "w" || $1 == "p" { for (i = 1; i <= n; i++) if ($2 ~ re[i]) next }
		{ print }' "$bench/matrix" "$bench/matrix" >"$work/spec612/matrix"
	# The memcg walk reads about 12 GiB through its 32 MiB memcg on 6.12
	# (each VM_HUGEPAGE miss reads two PMD folios there, at any mmap_miss),
	# 19 s a walk under TCG: stock, seed and best only, patched kernel only
	echo "o rand5-memcg stock seed best" >>"$work/spec612/matrix"
}

# Other VMs on this 2-core host slow TCG down and make times noisy: count,
# every 10 s, the QEMU processes besides ours, and the load, for the doc.
sampler=''
sample_host() {
	while :; do
		echo "$(pgrep -c '^qemu-system' || true) $(cut -d' ' -f1 /proc/loadavg)"
		sleep 10
	done >"$work/host-samples.txt"
}
stop_sampler() {
	[ -z "$sampler" ] || kill "$sampler" 2>/dev/null || true
	sampler=''
}
trap stop_sampler EXIT

# meta KEY VALUE: to meta.txt, or to meta-6.12.txt with METAFILE=meta-6.12.txt
meta() {
	printf '%s\t%s\n' "$1" "$2" >>"$work/${METAFILE:-meta.txt}"
}

# run_vm LABEL [--stock]: one boot, every cell of the spec; appends to
# results.txt and meta.txt.  With SPEC=spec612 (and KERNEL_SERIES=6.12 in
# the environment) the 6.12 matrix, appending to results-6.12.txt.
run_vm() {
	local label=$1 args rc t0 guest_args spec=${SPEC:-spec} results=results.txt
	shift
	[ "$spec" = spec ] || results="results-6.12.txt"
	args=(--mem "$MEM" --cpus "$CPUS" --timeout 7200
		--add "$top/tests/guest" --add "$work/$spec")
	[ "$IOPS" = 0 ] || args+=(--throttle-iops "$IOPS")
	[ "$BPS" = 0 ] || args+=(--throttle-bps "$BPS")
	guest_args=("/add/$spec/matrix" --reps "$REPS" --kernel "$label")
	if [ "${1:-}" = --stock ]; then
		args+=(--stock)
		guest_args+=(--unpatched)
	fi
	t0=$(date +%s)
	# Progress ("# ..." lines) to the terminal, everything to the log.
	set +e
	"$top/tests/vm/vm-run" "${args[@]}" -- sh /add/guest/bench.sh "${guest_args[@]}" \
		2>"$work/vm-$label.err" | tee "$work/vm-$label.log" |
		grep --line-buffered -v '^@' >&2
	rc=${PIPESTATUS[0]}
	set -e
	sed 's/^/  /' "$work/vm-$label.err" | grep -v '^  \[rapolicy\] cached' >&2 || true
	meta "$label.seconds" "$(($(date +%s) - t0))"
	meta "$label.accel" "$(sed -n 's/^vm-run: accel //p' "$work/vm-$label.err" | head -n 1)"
	sed -n 's/^@meta \([^ ]*\) \(.*\)$/\1\t\2/p' "$work/vm-$label.log" |
		sed "s/^/$label./" >>"$work/${METAFILE:-meta.txt}"
	sed -n 's/^@bench //p' "$work/vm-$label.log" >>"$work/$results"
	return "$rc"
}

render() {
	local svg=1
	have_gnuplot || svg=0
	mkdir -p "$svgdir"
	# only its own plots: random.sh drew random.svg before
	rm -f "$svgdir"/majflt.svg "$svgdir"/speedup.svg "$svgdir"/*.dat \
		"$svgdir"/*.colors
	awk -v svgdir="$svgdir" -v docsvg="$(basename "$svgdir")" -v svg="$svg" \
		-f "$bench/cells.awk" -f "$bench/report.awk" "$work/spec/matrix" "$work/meta.txt" \
		"$work/results.txt" >"$doc.tmp" || return 1
	mv "$doc.tmp" "$doc"
	if [ "$svg" = 1 ]; then
		# gnuplot warns about empty columns (no stock cell in the smoke
		# matrix, so no speedups); show its messages only if it fails.
		for plot in majflt speedup; do
			gnuplot -e "data='$svgdir/$plot.dat'; out='$svgdir/$plot.svg'; colors='$(cat "$svgdir/$plot.colors")'" \
				"$bench/$plot.gp" 2>"$work/gnuplot.err" ||
				{ cat "$work/gnuplot.err" >&2; return 1; }
		done
	fi
	rm -f "$svgdir"/*.dat "$svgdir"/*.colors
	[ "$smoke" = 1 ] || cp "$work/results.txt" "$svgdir/results.txt"
	# the real clients' section (tests/bench/clients.sh), if they ran
	[ "$smoke" = 1 ] || bash "$bench/clients.sh" --insert "$doc"
	# the one-profile table (tests/bench/oneprofile.sh), if it ran
	[ "$smoke" = 1 ] || bash "$bench/oneprofile.sh" --insert "$doc" >/dev/null
	[ "$smoke" = 1 ] || tracker_section
	[ "$smoke" = 1 ] || fault_cost_section || return 1
}

# What the module costs a fault (tests/guest/fault_cost.sh), if it ran:
# the section (tests/bench/fcost.awk) and its plot (tests/bench/fcost.gp),
# inserted before "## All cells", or at the end
fault_cost_section() {
	local log clock name head=1 sec=$work/fcost.md svg=''
	grep -q '^fround ' "$work/vm-fcost.log" "$work/vm-fcost-icount.log" 2>/dev/null || return 0
	rm -f "$svgdir/fcost.svg" "$svgdir/fcost-icount.svg" "$sec"
	for clock in icount time; do
		log=$work/vm-fcost.log
		[ "$clock" = time ] || log=$work/vm-fcost-icount.log
		grep -q '^fround ' "$log" 2>/dev/null || continue
		svg='' name=fcost
		[ "$clock" = time ] || name=fcost-icount
		have_gnuplot && svg=$(basename "$svgdir")/$name.svg
		awk -v head=$head -v clock=$clock -v dat="$work/fcost.dat" -v svg="$svg" \
			-v run="$(sed -n "s/^$clock //p" "$work/fcost-meta.txt" 2>/dev/null)" \
			-f "$bench/fcost.awk" "$log" >>"$sec" || return 1
		head=0
		[ -n "$svg" ] || continue
		gnuplot -e "data='$work/fcost.dat'; out='$svgdir/$name.svg'; clock='$clock'" \
			"$bench/fcost.gp" 2>"$work/gnuplot.err" ||
			{ cat "$work/gnuplot.err" >&2; return 1; }
	done
	awk -v sec="$sec" '
		function put(  l) { while ((getline l < sec) > 0) print l; done = 1 }
		/^## What the module costs a fault/ { skip = 1; if (!done) put(); next }
		skip && /^## / { skip = 0 }
		skip { next }
		/^## All cells/ && !done { put() }
		{ print }
		END { if (!done) put() }' "$doc" >"$doc.tmp" && mv "$doc.tmp" "$doc"
}

# fault_cost_run: the boots of tests/guest/fault_cost.sh, into
# vm-fcost-icount.log (-icount: instructions, 3 rounds suffice) and
# vm-fcost.log (time); fcost-meta.txt: per boot its clock, start date,
# the host's load average at its start and end, and the commit
fault_cost_run() {
	local t0
	rm -f "$work/fcost-meta.txt"
	log "what the module costs a minor and a major fault, in instructions (-icount)"
	t0="$(date -u '+%Y-%m-%d %H:%M UTC') $(cut -d' ' -f1 /proc/loadavg)"
	"$top/tests/vm/vm-run" --icount --mem 2048 --timeout 7200 --add "$top/tests/guest" -- \
		sh -c 'REPS=3 sh /add/guest/fault_cost.sh' >"$work/vm-fcost-icount.log" 2>&1 ||
		log "the fault cost run failed (log in $work/vm-fcost-icount.log)"
	echo "icount $t0 $(cut -d' ' -f1 /proc/loadavg) $(git -C "$top" describe --always --dirty)" >>"$work/fcost-meta.txt"
	log "what the module costs a minor and a major fault, in time"
	t0="$(date -u '+%Y-%m-%d %H:%M UTC') $(cut -d' ' -f1 /proc/loadavg)"
	"$top/tests/vm/vm-run" --mem 2048 --timeout 7200 --add "$top/tests/guest" -- \
		sh /add/guest/fault_cost.sh >"$work/vm-fcost.log" 2>&1 ||
		log "the fault cost run failed (log in $work/vm-fcost.log)"
	echo "time $t0 $(cut -d' ' -f1 /proc/loadavg) $(git -C "$top" describe --always --dirty)" >>"$work/fcost-meta.txt"
}

# The stream tracker's cost (tests/guest/tracker_cost.sh), if it ran:
# inserted before "## All cells", or at the end
tracker_section() {
	local log=$work/vm-tracker.log sec=$work/tracker.md
	grep -q '^cost tracker ' "$log" 2>/dev/null || return 0
	awk '$1 == "cost" && ($2 == "unloaded" || $2 == "off" || $2 == "best") {
		f[$2] = $4; ns[$2] = $6; lo[$2] = $8; hi[$2] = $10 }
	$1 == "cost" && $2 == "tracker" {
		l = $4; t = $6; d = $8; pf = $10 }
	END {
		print "## The stream tracker'"'"'s cost"
		print ""
		print "A random reader (64 MiB, `random:20`, read_ahead_kb 128, cold), which"
		print "the tracker must leave as stock: the module unloaded (no hook), loaded"
		print "with every policy off, and under the profile best (`streams=on` among"
		print "its policies; tests/guest/tracker_cost.sh,"
		print "5 rounds of the three in turn). Wall time per fault is the median walk'"'"'s,"
		print "with the lowest and highest of the rounds; the"
		print "tracker'"'"'s own time is `stats/stream_cost` (local_clock() around one"
		print "decision in 16, counted 16 times), over its decisions and over the major faults of the walks."
		print "Read-around stops asking after MMAP_LOTSAMISS misses, so it decides"
		print "about a hundred times per walk."
		print ""
		print "| setting | major faults | wall ns per fault | lowest | highest |"
		print "|---|---:|---:|---:|---:|"
		printf "| module unloaded | %s | %s | %s | %s |\n", f["unloaded"], ns["unloaded"], lo["unloaded"], hi["unloaded"]
		printf "| streams=off | %s | %s | %s | %s |\n", f["off"], ns["off"], lo["off"], hi["off"]
		printf "| profile best | %s | %s | %s | %s |\n", f["best"], ns["best"], lo["best"], hi["best"]
		print ""
		printf "The tracker itself: %s decisions, %s ns each, %s ns per major fault.\n", l, d, pf
		print ""
	}' "$log" >"$sec"
	awk -v sec="$sec" '/^## All cells/ && !done { while ((getline l < sec) > 0) print l; done = 1 }
		{ print } END { if (!done) while ((getline l < sec) > 0) print l }' "$doc" >"$doc.tmp" &&
		mv "$doc.tmp" "$doc"
}

# The 6.12 section (tests/bench/report-6.12.awk), if the 6.12 boots ran:
# replaces the doc's "## Linux 6.12" section, or goes before "## All cells"
section612() {
	local sec=$work/section-6.12.md
	[ -s "$work/results-6.12.txt" ] || return 0
	awk -f "$bench/cells.awk" -f "$bench/report-6.12.awk" "$work/spec612/matrix" "$work/meta-6.12.txt" \
		"$work/results-6.12.txt" "$work/results.txt" >"$sec" || return 1
	awk -v sec="$sec" '
		function put(  l) { while ((getline l < sec) > 0) print l; done = 1 }
		/^## Linux 6\.12/ { skip = 1; if (!done) put(); next }
		skip && /^## / { skip = 0 }
		skip { next }
		/^## All cells/ && !done { put() }
		{ print }
		END { if (!done) put() }' "$doc" >"$doc.tmp" && mv "$doc.tmp" "$doc"
	[ "$smoke" = 1 ] || cp "$work/results-6.12.txt" "$svgdir/results-6.12.txt"
}

# run612: the 6.12 kernels (cached), the stock 6.12 boot and the patched
# 6.12 boot, into results-6.12.txt and meta-6.12.txt
run612() {
	local rc=0 s0
	rm -f "$work/results-6.12.txt" "$work/meta-6.12.txt"
	: >"$work/results-6.12.txt"
	METAFILE=meta-6.12.txt
	meta date "$(date -u '+%Y-%m-%d %H:%M UTC')"
	meta reps "$REPS"
	meta only "\`rand5-memcg\` only under stock, seed and best on patched 6.12: it reads about 12 GiB through its 32 MiB memcg there, 19 s a walk"
	KERNEL_SERIES=6.12 bash "$top/tests/kernel/build-kernel.sh" 2>&1 >/dev/null | tee "$work/kernel-6.12.log" >&2
	[ "${PIPESTATUS[0]}" = 0 ] || die "6.12 kernel build failed"
	meta 6.12-patched.source "$(sed -n 's/.* kernel \([^ ]* ([0-9a-f]*)\)$/\1/p' "$work/kernel-6.12.log" | tail -n 1)"
	KERNEL_SERIES=6.12 bash "$top/tests/kernel/build-kernel.sh" --stock 2>&1 >/dev/null | tee "$work/kernel-6.12-stock.log" >&2
	[ "${PIPESTATUS[0]}" = 0 ] || die "stock 6.12 kernel build failed"
	meta 6.12-stock.source "$(sed -n 's/.* kernel \([^ ]* ([0-9a-f]*)\)$/\1/p' "$work/kernel-6.12-stock.log" | tail -n 1)"
	s0=$(wc -l <"$work/host-samples.txt" 2>/dev/null || echo 0)
	log "6.12 boot 1/2: stock 6.12, no hooks, XFS"
	KERNEL_SERIES=6.12 SPEC=spec612 run_vm 6.12-stock --stock || rc=$?
	[ "$rc" = 0 ] || die "the stock 6.12 run failed (status $rc); log in $work/vm-6.12-stock.log"
	log "6.12 boot 2/2: patched 6.12 with rapolicy, every setting, XFS"
	KERNEL_SERIES=6.12 SPEC=spec612 run_vm 6.12-patched || rc=$?
	[ "$rc" = 0 ] || die "the patched 6.12 run failed (status $rc); log in $work/vm-6.12-patched.log"
	meta host_samples "$(tail -n +"$((s0 + 1))" "$work/host-samples.txt" |
		awk '{ n++; if ($1 > 1) busy++; if ($2 > max) max = $2 }
		END { printf "%d %d %.2f\n", n, busy, max }')"
	METAFILE=meta.txt
}

if [ "$fcost_only" = 1 ]; then
	[ "$smoke" = 0 ] && [ "$only612" = 0 ] ||
		die "--fault-cost goes with neither --smoke nor --only-6.12"
	[ -f "$doc" ] || die "no $doc to put the fault cost section in"
	mkdir -p "$work" "$svgdir"
	ensure_gnuplot
	if [ "$report_only" = 0 ]; then
		rm -f "$work/vm-fcost.log" "$work/vm-fcost-icount.log"
		fault_cost_run
	fi
	grep -q '^fround ' "$work/vm-fcost.log" "$work/vm-fcost-icount.log" 2>/dev/null ||
		die "no fault cost figures in $work/vm-fcost.log or vm-fcost-icount.log"
	fault_cost_section || die "fault cost report failed"
	log "wrote the fault cost section of $doc"
	exit 0
fi

if [ "$report_only" = 1 ] && [ "$only612" = 1 ]; then
	[ -s "$work/results-6.12.txt" ] || die "no $work/results-6.12.txt: run the 6.12 bench first"
	section612 || die "6.12 report failed"
	log "wrote the 6.12 section of $doc"
	exit 0
fi
if [ "$report_only" = 1 ]; then
	[ -s "$work/results.txt" ] || die "no $work/results.txt: run the bench first"
	ensure_gnuplot
	render || die "report failed"
	section612 || die "6.12 report failed"
	log "wrote $doc"
	exit 0
fi

if [ "$only612" = 1 ]; then
	[ -f "$doc" ] || die "no $doc to put the 6.12 section in"
	mkdir -p "$work"
	rm -f "$work"/vm-6.12-*.log "$work"/vm-6.12-*.err
	# the 7.3 columns of the section: the last full run's (the doc's)
	cp "$svgdir/results.txt" "$work/results.txt"
	write_spec
	sample_host &
	sampler=$!
	start=$(date +%s)
	run612
	stop_sampler
	METAFILE=meta-6.12.txt meta base73 "the last full run's, $(sed -n 's/^on \(.* UTC\) .*/\1/p' "$doc" | head -n 1) ([bench/results.txt](bench/results.txt))"
	section612 || die "6.12 report failed"
	log "wrote the 6.12 section of $doc in $(($(date +%s) - start)) s"
	exit 0
fi

mkdir -p "$work"
rm -f "$work/results.txt" "$work/meta.txt" "$work"/vm-*.log "$work"/vm-*.err \
	"$work/results-6.12.txt" "$work/meta-6.12.txt"
: >"$work/results.txt"
write_spec
ensure_gnuplot
start=$(date +%s)
meta command "$cmdline"
meta date "$(date -u '+%Y-%m-%d %H:%M UTC')"
meta git "$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)"
meta host_cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
meta host_cores "$(nproc)"
meta qemu "$(qemu-system-x86_64 --version 2>/dev/null | head -n 1 || echo unknown)"
meta gnuplot "$(gnuplot --version 2>/dev/null || echo none)"
meta iops "$IOPS"
meta bps "$BPS"
meta reps "$REPS"
meta mem "$MEM"
meta cpus "$CPUS"

if [ "$smoke" = 0 ]; then
	log "make bench: kernels (cached after the first build, ~11 minutes each otherwise)"
	# build-kernel.sh says on stderr which source and cache key it used:
	# "[rapolicy] cached rapolicy kernel 7.3.4-1~bpo13+1 (8b0a0565f41069d5)"
	bash "$top/tests/kernel/build-kernel.sh" 2>&1 >/dev/null | tee "$work/kernel.log" >&2
	[ "${PIPESTATUS[0]}" = 0 ] || die "kernel build failed"
	meta patched.source "$(sed -n 's/.* kernel \([^ ]* ([0-9a-f]*)\)$/\1/p' "$work/kernel.log" | tail -n 1)"
	if [ "$stock" = 1 ]; then
		bash "$top/tests/kernel/build-kernel.sh" --stock 2>&1 >/dev/null | tee "$work/kernel-stock.log" >&2
		[ "${PIPESTATUS[0]}" = 0 ] || die "stock kernel build failed"
		meta 7.3.4.source "$(sed -n 's/.* kernel \([^ ]* ([0-9a-f]*)\)$/\1/p' "$work/kernel-stock.log" | tail -n 1)"
	fi
	log "make bench: $REPS repetition(s), disk throttled to $IOPS IOPS and $((BPS / 1048576)) MiB/s; about 30 minutes under TCG on 2 cores"
fi

sample_host &
sampler=$!
rc=0
nboots=$((stock + 2 + 2 * k612))
if [ "$stock" = 1 ]; then
	log "boot 1/$nboots: stock 7.3.4, no hooks (the neutrality column)"
	run_vm 7.3.4 --stock || rc=$?
	[ "$rc" = 0 ] || die "the stock 7.3.4 run failed (status $rc); log in $work/vm-7.3.4.log"
fi
[ "$smoke" = 1 ] || log "boot $((stock + 1))/$nboots: patched 7.3.4 with rapolicy, every setting"
run_vm patched || rc=$?
if [ "$smoke" = 0 ] && [ "$rc" = 0 ] && [ "$k612" = 1 ]; then
	run612
fi
meta total_seconds "$(($(date +%s) - start))"
stop_sampler
# Our own VM is one of the QEMU processes in each sample.
meta host_samples "$(awk '{ n++; if ($1 > 1) busy++; if ($2 > max) max = $2 }
	END { printf "%d %d %.2f\n", n, busy, max }' "$work/host-samples.txt")"

if [ "$smoke" = 0 ]; then
	[ "$rc" = 0 ] || die "the patched run failed (status $rc); log in $work/vm-patched.log"
	log "boot $nboots/$nboots: real clients (LMDB, a tensor loader, sqlite3) under stock, seed and best"
	rm -f "$work/clients.txt"
	bash "$bench/clients.sh" --iops "$IOPS" --bps "$BPS" --reps "$REPS" ||
		log "the real-client run failed: no real-client table (log in $work/vm-clients.log)"
	log "random walks over random shares (random_miss): docs/bench/random.{txt,svg}"
	bash "$bench/random.sh" "$svgdir" >"$work/vm-random.log" 2>&1 ||
		log "the random sweep failed: no random plot (log in $work/vm-random.log)"
	log "one profile: workloads under stock, each madvise() hint and best"
	rm -f "$work/oneprofile.txt"
	bash "$bench/oneprofile.sh" --run >"$work/vm-oneprofile.log" 2>&1 ||
		log "the one-profile run failed: no table (log in $work/vm-oneprofile.log)"
	log "the stream tracker's cost per fault"
	"$top/tests/vm/vm-run" --mem 1024 --add "$top/tests/guest" -- \
		sh /add/guest/tracker_cost.sh >"$work/vm-tracker.log" 2>&1 ||
		log "the tracker cost run failed (log in $work/vm-tracker.log)"
	fault_cost_run
	render || die "report failed"
	section612 || die "6.12 report failed"
	log "wrote $doc and $svgdir/ in $(($(date +%s) - start)) s"
	exit 0
fi

# Smoke: sanity of every cell, of the report and of the plots.
tap "$rc" "the guest ran the matrix (vm-run status $rc)"
# One walk per c line, plus N when its workload has a THEN of ID*N.
expected=$(awk '$1 == "w" { k = split($8, a, "*"); t[$2] = ($8 == "-") ? 0 : (k > 1 ? a[2] : 1) }
	$1 == "c" { n += 1 + t[$2] } END { print n + 0 }' "$work/spec/matrix")
got=$(wc -l <"$work/results.txt")
[ "$got" = "$expected" ]
tap $? "every cell reported ($got of $expected walks)"
while read -r _kernel wl set _rep major minor sectors ios pmd rss ms dec took; do
	warm=0
	awk -v w="$wl" '$1 == "w" && $2 == w && $7 ~ /--warm/ { f = 1 } END { exit !f }' \
		"$work/spec/matrix" && warm=1
	ok=0
	for v in "$major" "$minor" "$sectors" "$ios" "$pmd" "$rss"; do
		[[ $v =~ ^[0-9]+$ ]] || ok=1
	done
	[ "$ok" = 0 ] && { [ "$warm" = 1 ] || [ "$sectors" -gt 0 ]; } || ok=1
	awk -v t="$ms" 'BEGIN { exit !(t > 0) }' || ok=1
	[ "$took" = 1 ] || ok=1
	what="walk ran"
	[ "$warm" = 1 ] && what="warm walk ran"
	tap "$ok" "$wl under $set: $what (majflt $major, $((sectors / 2048)) MiB, $ios I/Os, $ms ms, decisions $dec), setting took"
done <"$work/results.txt"
grep -qx "patched.kernel_warnings	no" "$work/meta.txt"
tap $? "no kernel warnings in the guest"
render
tap $? "report renders"
grep -q '^| rev-huge ' "$doc" && grep -q 'seed 000' "$doc"
tap $? "report has the tables"
if have_gnuplot; then
	grep -q '<svg' "$svgdir/majflt.svg" 2>/dev/null && grep -q '<svg' "$svgdir/speedup.svg" 2>/dev/null
	tap $? "plots render (gnuplot SVG)"
else
	n=$((n + 1))
	echo "ok $n - bench smoke: plots render # SKIP gnuplot not installed"
fi
echo "1..$n"
[ "$failed" = 0 ]
