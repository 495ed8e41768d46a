# make bench: docs/BENCHMARKS.md from the bench's data (POSIX awk; mawk ok).
#
#   awk -v svgdir=DIR -v docsvg=REL -v svg=0|1 -f report.awk \
#       MATRIX META RESULTS > BENCHMARKS.md
#
# MATRIX   tests/bench/matrix (w and s lines)
# META     KEY<TAB>VALUE lines written by bench.sh (and the guests' @meta)
# RESULTS  one walk per line: KERNEL WORKLOAD SETTING REP MAJOR MINOR
#          SECTORS IOS PMD_KB RSS_KB WALL_MS DECISIONS TOOK
# Writes DIR/majflt.dat and DIR/speedup.dat for the gnuplot scripts; the doc
# embeds REL/majflt.svg and REL/speedup.svg when svg is 1.
#
# Wall time is only ever compared as a ratio within one boot: speedup =
# median wall time of the workload under "stock" / median under the setting.
# Counts are deterministic; the tables show the median and, when the
# repetitions differed, the range.

BEGIN {
	PATCHED = "patched"
	UNPATCHED = "7.3.4"
	SLACK = 64	# sectors: ext4 metadata a cold read may add (NEUTRALITY.md)
	nfile = 0
}

FNR == 1 { nfile++ }

nfile == 1 && $1 == "w" {
	id = $2
	wl[++nw] = id
	wsize[id] = $3; wadv[id] = $4; wpat[id] = $5; wra[id] = $6
	wopt[id] = $7; wthen[id] = $8; wseed[id] = $9
	wtitle[id] = rest(10)
	t = $8
	sub(/\*.*/, "", t)
	if (t != "-")
		isthen[t] = id
	next
}
nfile == 1 && $1 == "s" {
	id = $2
	st[++ns] = id
	swrites[id] = $3; scount[id] = $4
	stitle[id] = rest(5)
	if (index($3, ","))
		prof[++np] = id
	isprof[id] = index($3, ",") > 0
	next
}
nfile == 1 && $1 == "o" {
	# o GLOB SETTING...: workloads run under these settings only; they are
	# left out of the matrices and shown in their pairs (p lines)
	g = $2
	gsub(/\*/, ".*", g)
	onlyre[++no] = "^" g "$"
	next
}
nfile == 1 && $1 == "p" {
	# p REVERSE FORWARD TITLE: a reverse walk and its forward baseline
	prv[++npair] = $2; pfw[npair] = $3; ptitle[npair] = rest(4)
	next
}
nfile == 2 {
	i = index($0, "\t")
	if (i)
		meta[substr($0, 1, i - 1)] = substr($0, i + 1)
	next
}
nfile == 3 && NF >= 13 {
	k = $1 SUBSEP $2 SUBSEP $3
	n = ++cnt[k]
	V["major", k, n] = $5; V["minor", k, n] = $6; V["sectors", k, n] = $7
	V["ios", k, n] = $8; V["pmd", k, n] = $9; V["rss", k, n] = $10
	V["ms", k, n] = $11; V["dec", k, n] = $12
	if ($5 < 0 || $11 < 0)
		bad[k]++
	if ($13 == "0")
		nottook[k]++
	kernels[$1] = 1
	next
}

function fmtms(x) {
	if (x < 0)
		return "n/a"
	if (x >= 100)
		return sprintf("%d", x + 0.5)
	if (x >= 10)
		return sprintf("%.1f", x)
	return sprintf("%.2f", x)
}

function mib(kern, w, s) { return count("sectors", kern, w, s, 2048) }

# speedup of setting s over stock for workload w (patched kernel, one boot)
function speedup(w, s,    a, b) {
	if (!has(PATCHED, w, "stock") || !has(PATCHED, w, s))
		return -1
	a = med("ms", PATCHED, w, "stock")
	b = med("ms", PATCHED, w, s)
	return b > 0 ? a / b : -1
}

# 1 when every repetition under s was faster than every stock repetition,
# -1 when every one was slower, 0 when they overlap
function separated(w, s,    r) {
	if (!has(PATCHED, w, "stock") || !has(PATCHED, w, s))
		return 0
	r = speedup(w, s)
	if (r > 1 / 1.05 && r < 1.05)
		return 0
	if (vmax("ms", PATCHED, w, s) < vmin("ms", PATCHED, w, "stock"))
		return 1
	if (vmin("ms", PATCHED, w, s) > vmax("ms", PATCHED, w, "stock"))
		return -1
	return 0
}

# ratio of medians of a count, setting / stock
function cratio(f, w, s, base,    a, b) {
	if (base == "")
		base = "stock"
	if (!has(PATCHED, w, base) || !has(PATCHED, w, s))
		return -1
	a = med(f, PATCHED, w, base)
	b = med(f, PATCHED, w, s)
	if (a == 0 && b == 0)
		return 1
	return a > 0 ? b / a : -1
}

# how far apart two ratios are (>= 1)
function apart(a, b) {
	if (a <= 0 || b <= 0)
		return 0
	return a > b ? a / b : b / a
}

function bytes(s,    n, u) {
	n = s + 0
	u = toupper(substr(s, length(n "") + 1))
	if (u == "K") return n * 1024
	if (u == "M") return n * 1048576
	if (u == "G") return n * 1073741824
	return n
}

function mibs(s) { return bytes(s) / 1048576 }

function human(s,    m) {
	m = mibs(s)
	if (m >= 1024 && m % 1024 == 0)
		return (m / 1024) " GiB"
	return m " MiB"
}

function opts(w,    o) {
	o = wopt[w]
	if (o == "-")
		return ""
	gsub(/,/, " ", o)
	return o
}

function m(k) { return (k in meta) ? meta[k] : "unknown" }

# the settings whose cells are shown, in matrix order; the unpatched kernel
# last
function header(first,    i, h, d) {
	h = "| " first " |"
	d = "|---|"
	for (i = 1; i <= ns; i++) {
		h = h " " st[i] " |"
		d = d "---:|"
	}
	if (UNPATCHED in kernels) {
		h = h " 7.3.4, no hooks |"
		d = d "---:|"
	}
	print h
	print d
}

function seedrow(label, sv, ov, why) {
	# not used; see the seed section
}

END {
	restricted()
	title()
	summary()
	headline()
	plots()
	setup()
	matrices()
	neutrality()
	seeds()
	beyond()
	details()
	howto()
	datafiles()
}

# drop the workloads of o lines from wl[], which the matrices show
function restricted(    i, j, n, keep) {
	n = 0
	for (i = 1; i <= nw; i++) {
		keep = 1
		for (j = 1; j <= no; j++)
			if (wl[i] ~ onlyre[j])
				keep = 0
		if (keep)
			wl[++n] = wl[i]
	}
	nw = n
}

function title() {
	print "# Benchmarks"
	print ""
	print "<!-- Generated by tests/bench/bench.sh (make bench); edits are overwritten. -->"
	print ""
	print "Every workload of the seeds under every rapolicy setting, on the"
	print "patched kernel with `rapolicy.ko` and, for the neutrality column, on"
	print "stock 7.3.4 without the hook series, in one run of"
	print ""
	print "```"
	print m("command")
	print "```"
	print ""
	print "on " m("date") " (setup, sizes and throttle: [Setup](#setup))."
	print ""
}

function setup(    i, w, s, c) {
	print "## Setup"
	print ""
	print "| | |"
	print "|---|---|"
	print "| date | " m("date") " |"
	print "| source | `" m("git") "` |"
	print "| patched kernel | " m("patched.kernel") " (Debian linux-source " m("patched.source") " + patches/), rapolicy " m("patched.rapolicy") " |"
	if (UNPATCHED in kernels)
		print "| stock kernel | " m("7.3.4.kernel") " (Debian linux-source " m("7.3.4.source") ", same config, no hooks, no module) |"
	print "| VM | QEMU " qemuver() ", " m("patched.accel") ", " m("cpus") " vCPUs, " m("mem") " MiB; host: " m("host_cpu") ", " m("host_cores") " cores |"
	print "| disk | " m("patched.fs") " on virtio-blk, a sparse 4 GiB image, `cache=unsafe`; throttle: " throttle() " |"
	print "| walks | one byte per page touched, cold page cache (rawalk default; `remap-warm` excepted), " m("reps") " repetitions per cell (`remap-warm`: 5 walks in each) |"
	print "| runtime | " runtime() " |"
	print "| other load on the host | " hostload() " |"
	print ""
	throttle_text()
	print "**Reading the numbers.** Major faults and MiB read are deterministic"
	print "except under memory pressure (the memcg walk: what reclaim evicts"
	print "depends on timing); I/Os (read requests completed by the disk) vary by"
	print "a few with timing, as the block layer merges requests. The tables show"
	print "the median of the repetitions and, where they differed, the range. Wall"
	print "times are TCG times, noisy where a walk is CPU-bound, and are only compared as"
	print "**speedup = median wall time under `stock` / median wall time under the"
	print "setting**, the same workload in the same boot (> 1: faster than stock)."
	print "The repetitions run interleaved (repetition, then workload, then"
	print "setting), so drift of the host spreads over all settings."
	print ""
	print "### Settings"
	print ""
	print "Before each walk every policy file is set back to its stock (first)"
	print "value, then the setting's files are written, every file is read back"
	print "(`[value]`) and `stats/` is reset."
	print ""
	print "| setting | /sys/kernel/mm/rapolicy writes | decisions counted (stats/) |"
	print "|---|---|---|"
	for (i = 1; i <= ns; i++) {
		s = st[i]
		c = scount[s]
		gsub(/,/, ", ", c)
		print "| " s " | " (swrites[s] == "-" ? "none (every policy off)" : "`" swrites_h(s) "`") " | " (c == "-" ? "" : c) " |"
	}
	if (UNPATCHED in kernels)
		print "| 7.3.4, no hooks | stock 7.3.4 kernel, no module | |"
	print ""
	print "### Workloads"
	print ""
	print "| workload | file | advice | pattern | read_ahead_kb | rawalk options | seed | what |"
	print "|---|---:|---|---|---:|---|---|---|"
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		print "| " w " | " human(wsize[w]) " | " advname(wadv[w]) " | " wpat[w] " | " wra[w] " | " (opts(w) == "" ? "" : "`" opts(w) "`") " | " (wseed[w] == "-" ? "" : wseed[w]) " | " wtitle[w] " |"
	}
	print ""
	print "Sizes are chosen for TCG (the whole run takes 15-20 minutes on 2 cores):"
	print "256 MiB is 128 PMD folios, past MMAP_LOTSAMISS (100 misses), so the"
	print "MADV_HUGEPAGE reverse walk and the memcpy show the seed's regression; a"
	print "MADV_SEQUENTIAL reverse walk faults once per page on stock, so 64 MiB"
	print "(256 and 64 MiB are also the sizes of tests/guest/neutrality.sh); the"
	print "seed 002 and 003 workloads use 128 and 130 MiB (their own files were"
	print "256 and 100 MB; 130 MiB lets the 4 MiB read-around windows centred on"
	print "stride-4M's touches cover the whole file). The 1% random walks scale read_ahead_kb with the file (the"
	print "seed: 16 GiB with 8 MiB windows, 2048 windows; here 128 MiB with 64 KiB),"
	print "and the memcg is 1/8 of the file, as the seed's 2 GiB of 16 GiB."
	print "`remap-warm` walks the page cache that `stride-4M` just left (same"
	print "setting, no cache drop), one page per 64 KiB fault-around block, five"
	print "times after each `stride-4M` walk: seed 003's measurement, which maps"
	print "folios that are already cached and takes only tens of milliseconds."
	print ""
	notes()
}

function throttle_text(    f) {
	if (m("iops") == 0 && m("bps") == 0) {
		print "**No throttle** (smoke run): times are TCG's CPU, not I/O."
		print ""
		return
	}
	f = 473189 / 42.23 / m("iops")
	print "**Throttle.** QEMU's `throttling.iops-total` and `throttling.bps-total`"
	print "on the scratch disk (`tests/vm/vm-run --throttle-iops " m("iops") " --throttle-bps " m("bps") "`):"
	printf("the seed's disk slowed down %.1f times. Seed 000's stock walk took\n", f)
	print "42.23 s for 473189 faults of one 4 KiB read each: 11205 reads/s at"
	print "queue depth 1; its fixed walk read 2 GiB in 0.58 s: 3531 MiB/s. " m("iops") " reads/s"
	printf("and %d MiB/s (seed: 3531 / %.1f = %d) keep that ratio of bandwidth to\n", m("bps") / 1048576, f, 3531 / f)
	print "request rate, so a walk's time depends on its I/O count and on the"
	print "bytes it reads in the seed's proportions, and speedups of I/O-bound"
	print "walks compare with the seed's once scaled to our file sizes. " sprintf("%.2g", 1000 / m("iops")) " ms per"
	print "request is also more than TCG's ~0.3 ms of CPU per MADV_HUGEPAGE fault,"
	print "so the I/O count, not emulation noise, sets the time of that per-page"
	printf("walk (measured: %.3f ms per fault of `rev-huge` under stock)", perfault("rev-huge"))
	if (has(PATCHED, "rev-seq", "stock"))
		printf("; a MADV_SEQUENTIAL fault costs more CPU than that under TCG, so `rev-seq` (%.3f ms per fault) stays CPU-bound and noisier", perfault("rev-seq"))
	print ". Without a throttle the virtual disk reads at the speed of the host's"
	print "page cache and TCG's CPU cost hides the I/O pattern the policies change."
	print ""
}

function perfault(w) {
	if (!has(PATCHED, w, "stock") || med("major", PATCHED, w, "stock") <= 0)
		return 0
	return med("ms", PATCHED, w, "stock") / med("major", PATCHED, w, "stock")
}

function hostload(    a) {
	if (split(m("host_samples"), a, " ") < 3)
		return "not sampled"
	if (a[2] == 0)
		return "no other QEMU process in " a[1] " samples (10 s apart); highest 1-min load average " a[3]
	return "**another QEMU process ran during " a[2] " of " a[1] " samples** (10 s apart; highest 1-min load average " a[3] "): times are noisier than on an idle host"
}

function swrites_h(s,    x) {
	x = swrites[s]
	gsub(/,/, " ", x)
	return x
}

function qemuver(    q) {
	q = m("qemu")
	sub(/^QEMU emulator version /, "", q)
	return q
}

function throttle() {
	if (m("iops") == 0 && m("bps") == 0)
		return "none"
	return "`throttling.iops-total=" m("iops") "`, `throttling.bps-total=" m("bps") "` (" m("bps") / 1048576 " MiB/s)"
}

function runtime(    t) {
	t = m("total_seconds")
	if (t == "unknown")
		return t
	return sprintf("%d min %d s in all", t / 60, t % 60) \
		((UNPATCHED in kernels) ? sprintf(" (stock 7.3.4 boot %d s, patched boot %d s)", m("7.3.4.seconds"), m("patched.seconds")) : "")
}

function notes(    k, w, s, parts, any) {
	any = 0
	for (k in bad) {
		split(k, parts, SUBSEP)
		if (!any) print "**Failed walks** (shown as n/a):"
		print "- " parts[2] " under " parts[3] " on " parts[1] ": " bad[k] " of " cnt[k] " repetitions failed"
		any = 1
	}
	for (k in nottook) {
		split(k, parts, SUBSEP)
		if (!any) print "**Problems:**"
		print "- the setting " parts[3] " did not read back as written before " nottook[k] " walk(s) of " parts[2]
		any = 1
	}
	if (m("patched.kernel_warnings") == "yes" || m("7.3.4.kernel_warnings") == "yes") {
		if (!any) print "**Problems:**"
		print "- the kernel logged warnings during the run (see build/bench/vm-*.log)"
		any = 1
	}
	if (any)
		print ""
}

# a few sentences computed from the data
function summary(    i, j, w, s, fr, sp, lo, hi, n_other, slow, nslow, nb, nn, hit, parts, p) {
	print "## Summary"
	print ""
	lo = 1e9; hi = 0; n_other = 0
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		if (!has(PATCHED, w, "stock"))
			continue
		hit = 0; parts = ""
		for (j = 1; j <= np; j++) {
			p = prof[j]
			if (!has(PATCHED, w, p))
				continue
			fr = cratio("major", w, p)
			sp = speedup(w, p)
			if ((fr > 0 && fr <= 0.5) || (sp >= 1.25 && separated(w, p) == 1))
				hit = 1
			parts = parts (j > 1 ? "; " : "") p " " count("major", PATCHED, w, p) " major faults, " fmtx(sp) " (" fmtms(med("ms", PATCHED, w, p)) " ms)"
		}
		if (hit) {
			printf("- **%s** (%s, %s): stock %s major faults, %s ms; %s%s.\n", w, human(wsize[w]), wtitle[w], \
				count("major", PATCHED, w, "stock"), fmtms(med("ms", PATCHED, w, "stock")), parts, alone(w))
		} else {
			n_other++
			for (j = 1; j <= np; j++) {
				sp = speedup(w, prof[j])
				if (sp > 0 && sp < lo) lo = sp
				if (sp > hi) hi = sp
			}
		}
	}
	if (n_other)
		printf("- The other %d workloads keep their counts under the profiles (major faults and MiB read as in the tables below) and run at %s–%s the speed of stock (the spread column of the speedup table shows the noise).\n", n_other, fmtx(lo), fmtx(hi))
	nslow = 0; slow = ""
	for (i = 1; i <= nw; i++)
		for (j = 1; j <= ns; j++) {
			w = wl[i]; s = st[j]
			if (s == "stock") continue
			fr = cratio("major", w, s)
			if (fr >= 1.5) {
				slow = slow (nslow++ ? "; " : "") w " under " s " (" count("major", PATCHED, w, "stock") " → " count("major", PATCHED, w, s) " major faults, " fmtx(speedup(w, s)) ")"
			}
		}
	if (nslow)
		print "- More major faults than stock: " slow "."
	if (UNPATCHED in kernels) {
		nb = 0; nn = 0
		for (i = 1; i <= nw; i++) {
			w = wl[i]
			if (!has(UNPATCHED, w, "-") || !has(PATCHED, w, "stock"))
				continue
			nn++
			if (med("major", UNPATCHED, w, "-") != med("major", PATCHED, w, "stock") && !(near("major", w)))
				nb++
		}
		printf("- Neutrality: with every policy off the patched kernel takes the same major faults as stock 7.3.4 on %d of %d workloads (where reclaim makes the counts vary between repetitions: within their spread; details in [Neutrality](#neutrality-stock-734-against-the-patched-kernel-with-every-policy-off)).\n", nn - nb, nn)
	}
	print ""
}

# which single policies do what the profiles do on w: as few major faults
# (within 2x + 1) when a profile cuts them, else as fast (0.8x of the
# fastest profile, every repetition faster than stock)
function alone(w,    j, s, f0, fs, sp, f, out, n) {
	f0 = med("major", PATCHED, w, "stock"); fs = f0; sp = 0
	for (j = 1; j <= np; j++) {
		if (!has(PATCHED, w, prof[j]))
			continue
		if (med("major", PATCHED, w, prof[j]) < fs) fs = med("major", PATCHED, w, prof[j])
		if (speedup(w, prof[j]) > sp) sp = speedup(w, prof[j])
	}
	out = ""; n = 0
	for (j = 1; j <= ns; j++) {
		s = st[j]
		if (s == "stock" || isprof[s] || !has(PATCHED, w, s))
			continue
		f = med("major", PATCHED, w, s)
		if (f0 > fs * 2 && f <= fs * 2 + 1)
			out = out (n++ ? ", " : "") s " (" fmtn(f) ", " fmtx(speedup(w, s)) ")"
		else if (f0 <= fs * 2 && speedup(w, s) >= 0.8 * sp && separated(w, s) == 1)
			out = out (n++ ? ", " : "") s " (" fmtx(speedup(w, s)) ")"
	}
	if (n == 0)
		return ""
	return "; alone, " out " " (n == 1 ? "does" : "do") " as much"
}

function arrow3(f, w, scale,    j, out) {
	out = (f == "ms") ? fmtms(med("ms", PATCHED, w, "stock")) : (f == "mib" ? mib(PATCHED, w, "stock") : count(f, PATCHED, w, "stock", scale))
	for (j = 1; j <= np; j++)
		out = out " → " ((f == "ms") ? fmtms(med("ms", PATCHED, w, prof[j])) : (f == "mib" ? mib(PATCHED, w, prof[j]) : count(f, PATCHED, w, prof[j], scale)))
	return out
}

function fmtsp(w, s) {
	return separated(w, s) ? "**" fmtx(speedup(w, s)) "**" : fmtx(speedup(w, s))
}

function profnames(    j, out) {
	out = "stock"
	for (j = 1; j <= np; j++)
		out = out " → " prof[j]
	return out
}

function headline(    i, w, best, bs, r, j, s, h, d) {
	print "## Headline: stock against the profiles"
	print ""
	for (j = 1; j <= np; j++)
		print "- Profile " prof[j] " = `" swrites_h(prof[j]) "`" (stitle[prof[j]] != prof[j] && stitle[prof[j]] != "profile " prof[j] ? " (" stitle[prof[j]] ")" : "")
	print ""
	print "Best single policy = the single-policy setting with the highest speedup,"
	print "if that is at least 1.25× and every one of its repetitions beat every"
	print "stock repetition (ties within 5% go to the first in matrix order)."
	print "**Bold** speedup: every repetition under the profile was faster (or,"
	print "below 1×, slower) than every stock repetition, and the medians differ"
	print "by 5% or more."
	print ""
	h = "| workload | file | major faults " profnames() " | MiB read " profnames() " | I/Os " profnames() " | wall ms " profnames() " (median) |"
	d = "|---|---:|---:|---:|---:|---:|"
	for (j = 1; j <= np; j++) {
		h = h " speedup " prof[j] " |"
		d = d "---:|"
	}
	print h " best single policy |"
	print d "---|"
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		best = ""; bs = 0
		for (j = 1; j <= ns; j++) {
			s = st[j]
			if (s == "stock" || isprof[s])
				continue
			r = speedup(w, s)
			if (r > bs * 1.05 && separated(w, s) == 1) { bs = r; best = s }
		}
		h = "| " w " | " human(wsize[w]) " | " arrow3("major", w) " | " arrow3("mib", w) " | " arrow3("ios", w) " | " arrow3("ms", w) " |"
		for (j = 1; j <= np; j++)
			h = h " " fmtsp(w, prof[j]) " |"
		print h " " (bs >= 1.25 ? best " " fmtx(bs) : "—") " |"
	}
	print ""
}

function plots() {
	if (!svg)
		return
	print "## Plots"
	print ""
	print "![Major faults per workload and setting, log scale](" docsvg "/majflt.svg)"
	print ""
	print "Major faults, median of the repetitions, log scale (a bar at the"
	print "bottom edge is 0)."
	print ""
	print "![Wall-time speedup over stock per workload, log scale](" docsvg "/speedup.svg)"
	print ""
	print "Speedup over stock (median wall time under stock / under the setting,"
	print "same workload, same boot), log scale; above 1 is faster."
	print ""
}

function matrices(    i, j, w, s, row, r) {
	print "## Every workload under every setting"
	print ""
	print "### Major faults"
	print ""
	header("workload")
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		row = "| " w " |"
		for (j = 1; j <= ns; j++)
			row = row " " count("major", PATCHED, w, st[j]) " |"
		if (UNPATCHED in kernels)
			row = row " " count("major", UNPATCHED, w, "-") " |"
		print row
	}
	print ""
	print "### Speedup over stock (wall time)"
	print ""
	print "The stock column is the median wall time in ms; spread = slowest /"
	print "fastest stock repetition, a measure of the noise; the others are"
	print "speedups over the stock median. The unpatched kernel ran in another"
	print "boot, so its time is not compared (its wall time is in the full table"
	print "below)."
	print ""
	print "| workload | stock (ms) | spread |" settings_cols(1)
	print "|---|---:|---:|" settings_dashes(1)
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		row = "| " w " | " fmtms(med("ms", PATCHED, w, "stock")) " | " \
			(vmin("ms", PATCHED, w, "stock") > 0 ? sprintf("%.2f", vmax("ms", PATCHED, w, "stock") / vmin("ms", PATCHED, w, "stock")) : "n/a") " |"
		for (j = 1; j <= ns; j++) {
			s = st[j]
			if (s == "stock")
				continue
			r = speedup(w, s)
			row = row " " (separated(w, s) ? "**" fmtx(r) "**" : fmtx(r)) " |"
		}
		print row
	}
	print ""
	print "**Bold**: every repetition under the setting was faster (or, below"
	print "1×, slower) than every stock repetition, by 5% or more of the median;"
	print "the others overlap with stock or differ by less."
	print ""
	print "### MiB read / I/Os"
	print ""
	header("workload")
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		row = "| " w " |"
		for (j = 1; j <= ns; j++)
			row = row " " mib(PATCHED, w, st[j]) " / " count("ios", PATCHED, w, st[j]) " |"
		if (UNPATCHED in kernels)
			row = row " " mib(UNPATCHED, w, "-") " / " count("ios", UNPATCHED, w, "-") " |"
		print row
	}
	print ""
}

function settings_cols(skipstock,    j, h) {
	h = ""
	for (j = 1; j <= ns; j++)
		if (!(skipstock && st[j] == "stock"))
			h = h " " st[j] " |"
	return h
}

function settings_dashes(skipstock,    j, h) {
	h = ""
	for (j = 1; j <= ns; j++)
		if (!(skipstock && st[j] == "stock"))
			h = h "---:|"
	return h
}

function neutrality(    i, w, a, b, sa, sb, ok, bad_n, row) {
	if (!(UNPATCHED in kernels))
		return
	print "## Neutrality: stock 7.3.4 against the patched kernel with every policy off"
	print ""
	print "The hook series must not change what the kernel does while every policy"
	print "is off: same major faults, same sectors (up to " SLACK " sectors of ext4"
	print "metadata that a cold read may add, see NEUTRALITY.md). Patched = the"
	print "stock setting, rapolicy loaded."
	print ""
	print "| workload | major faults 7.3.4 | patched | sectors 7.3.4 | patched | I/Os 7.3.4 | patched | same |"
	print "|---|---:|---:|---:|---:|---:|---:|---|"
	bad_n = 0
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		if (!has(UNPATCHED, w, "-") || !has(PATCHED, w, "stock")) {
			print "| " w " | n/a | | | | | | |"
			continue
		}
		a = med("major", UNPATCHED, w, "-"); b = med("major", PATCHED, w, "stock")
		sa = med("sectors", UNPATCHED, w, "-"); sb = med("sectors", PATCHED, w, "stock")
		if (steady(UNPATCHED, w, "-") && steady(PATCHED, w, "stock")) {
			ok = (a == b && sb - sa <= SLACK && sa - sb <= SLACK)
		} else {
			# counts that vary between repetitions (memcg reclaim):
			# the medians must lie within the larger of the two
			# spreads, or 2%
			ok = near("major", w) && near("sectors", w)
			if (ok) { ok = 2; vary_n++ }
		}
		if (!ok) bad_n++
		print "| " w " | " count("major", UNPATCHED, w, "-") " | " count("major", PATCHED, w, "stock") \
			" | " count("sectors", UNPATCHED, w, "-") " | " count("sectors", PATCHED, w, "stock") \
			" | " count("ios", UNPATCHED, w, "-") " | " count("ios", PATCHED, w, "stock") \
			" | " (ok == 1 ? "yes" : ok == 2 ? "within the spread" : "**no**") " |"
	}
	print ""
	if (bad_n == 0)
		print "Every workload: the same major faults and sectors read" (vary_n ? "; where the counts vary between repetitions of the same kernel (the memcg walk: what reclaim evicts depends on timing), the two medians lie within the spread of the repetitions or 2%." : ".") " I/O counts may differ by a few requests: the block layer merges requests depending on timing."
	else
		print "**" bad_n " workload(s) differ** between stock 7.3.4 and the patched kernel with every policy off."
	print ""
}

# the counts of a cell were the same in every repetition
function steady(kern, w, s) {
	return vmin("major", kern, w, s) == vmax("major", kern, w, s) &&
		vmax("sectors", kern, w, s) - vmin("sectors", kern, w, s) <= SLACK
}

# the medians of both kernels are within the larger spread (or 2%)
function near(f, w,    a, b, tol, r) {
	a = med(f, UNPATCHED, w, "-"); b = med(f, PATCHED, w, "stock")
	tol = vmax(f, UNPATCHED, w, "-") - vmin(f, UNPATCHED, w, "-")
	r = vmax(f, PATCHED, w, "stock") - vmin(f, PATCHED, w, "stock")
	if (r > tol) tol = r
	if (0.02 * (a > b ? a : b) > tol) tol = 0.02 * (a > b ? a : b)
	return (a - b <= tol && b - a <= tol)
}

function details(    i, j, w, s, k) {
	print "## All cells"
	print ""
	print "<details><summary>Every cell with min and median wall time, minor faults, PMD-mapped MiB and policy decisions</summary>"
	print ""
	print "| workload | setting | reps | wall ms min | wall ms median | speedup | major faults | minor faults | MiB read | I/Os | PMD-mapped MiB | decisions |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		for (j = 1; j <= ns + 1; j++) {
			if (j <= ns) { s = st[j]; k = PATCHED }
			else { s = "-"; k = UNPATCHED }
			if (!(cellkey(k, w, s) in cnt))
				continue
			print "| " w " | " (j <= ns ? s : "7.3.4, no hooks") " | " cnt[cellkey(k, w, s)] \
				" | " fmtms(vmin("ms", k, w, s)) " | " fmtms(med("ms", k, w, s)) \
				" | " (j <= ns ? fmtx(speedup(w, s)) : "") \
				" | " count("major", k, w, s) " | " count("minor", k, w, s) \
				" | " mib(k, w, s) " | " count("ios", k, w, s) \
				" | " count("pmd", k, w, s, 1024) " | " (V["dec", cellkey(k, w, s), 1] == "-" ? "" : count("dec", k, w, s)) " |"
		}
	}
	print ""
	print "</details>"
	print ""
	print "Raw data, one line per walk: [" docsvg "/results.txt](" docsvg "/results.txt)"
	print "(kernel workload setting repetition major minor sectors I/Os PMD-KiB"
	print "RSS-KiB wall-ms decisions took)."
	print ""
}

function howto() {
	print "## Running it"
	print ""
	print "```sh"
	print "make bench                        # this file, docs/bench/*.svg and results.txt (~20 min, TCG)"
	print "make bench-smoke                  # one small cell per setting, no throttle, TAP, < 1 min"
	print "tests/bench/bench.sh --reps 5 --iops 2000 --bps 660602880 [--no-stock]"
	print "tests/bench/bench.sh --report-only  # redo this file and the plots from build/bench/"
	print "```"
	print ""
	print "The matrix (workloads, sizes, settings) is `tests/bench/matrix`; the"
	print "guest side `tests/guest/bench.sh`; this file is written by"
	print "`tests/bench/report.awk`, the plots by `tests/bench/*.gp` (gnuplot, from"
	print "Debian's gnuplot-nox, installed by the driver if missing). Guest logs"
	print "of the last run are in `build/bench/`."
}

# the bar colour of a setting, the same in every plot
function colour(s,    k) {
	if (s == "stock") return "#888888"
	if (s == "7.3.4-no-hooks") return "#cfcfcf"
	if (s == "seed") return "#000000"
	if (s == "best") return "#b2182b"
	k = ++ncolour
	return substr("#1f77b4#ff7f0e#2ca02c#9467bd#8c564b#e377c2#17becf#bcbd22#7f7f7f#aec7e8#ffbb78#98df8a", (k - 1) % 12 * 7 + 1, 7)
}

# gnuplot data: one row per workload, one column per setting (+ 7.3.4)
function datafiles(    f, i, j, w, s, row, v, c) {
	if (svgdir == "")
		return
	ncolour = 0
	c = ""
	for (j = 1; j <= ns; j++)
		col[st[j]] = colour(st[j])
	col["7.3.4-no-hooks"] = colour("7.3.4-no-hooks")
	for (j = 1; j <= ns; j++)
		c = c " " col[st[j]]
	if (UNPATCHED in kernels)
		c = c " " col["7.3.4-no-hooks"]
	print substr(c, 2) > (svgdir "/majflt.colors")
	close(svgdir "/majflt.colors")
	c = ""
	for (j = 1; j <= ns; j++)
		if (st[j] != "stock")
			c = c " " col[st[j]]
	print substr(c, 2) > (svgdir "/speedup.colors")
	close(svgdir "/speedup.colors")
	f = svgdir "/majflt.dat"
	row = "workload"
	for (j = 1; j <= ns; j++)
		row = row " " st[j]
	if (UNPATCHED in kernels)
		row = row " 7.3.4-no-hooks"
	print row > f
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		row = w
		for (j = 1; j <= ns; j++) {
			v = has(PATCHED, w, st[j]) ? med("major", PATCHED, w, st[j]) : "?"
			row = row " " (v == 0 ? 0.7 : v)
		}
		if (UNPATCHED in kernels) {
			v = has(UNPATCHED, w, "-") ? med("major", UNPATCHED, w, "-") : "?"
			row = row " " (v == 0 ? 0.7 : v)
		}
		print row > f
	}
	close(f)
	f = svgdir "/speedup.dat"
	row = "workload"
	for (j = 1; j <= ns; j++)
		if (st[j] != "stock")
			row = row " " st[j]
	print row > f
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		row = w
		for (j = 1; j <= ns; j++) {
			s = st[j]
			if (s == "stock")
				continue
			v = speedup(w, s)
			row = row " " (v > 0 ? sprintf("%.4f", v) : "?")
		}
		print row > f
	}
	close(f)
}

# profile best against issue 7's targets: reverse costs what forward does
function beyond(    i, rv, fw, r, f, ok) {
	if (!("best" in isprof) || !npair)
		return
	print "## Beyond the seeds: reverse against forward under profile best"
	print ""
	print "Issue 7's targets, stated for 512 MiB: a reverse walk takes at most 4"
	print "major faults under every advice, reads no more than the file, and its"
	print "wall time is within 1.2× of the forward walk of the same file in the"
	print "same run; a backward memmove() out of a mapping within 1.2× of the"
	print "forward copy. Ratio = median reverse wall time / median forward wall"
	print "time, both under best. The 512 MiB workloads run under best only."
	print ""
	print "| workload | file | reverse major faults stock → best | reverse MiB under best | forward major faults under best | reverse / forward wall time | targets met |"
	print "|---|---:|---:|---:|---:|---:|---|"
	for (i = 1; i <= npair; i++) {
		rv = prv[i]; fw = pfw[i]
		if (!has(PATCHED, rv, "best") || !has(PATCHED, fw, "best")) {
			print "| " ptitle[i] " | " human(wsize[rv]) " | n/a | | | | |"
			continue
		}
		r = med("ms", PATCHED, rv, "best") / med("ms", PATCHED, fw, "best")
		f = med("major", PATCHED, rv, "best")
		ok = (f <= 4 && med("sectors", PATCHED, rv, "best") <= bytes(wsize[rv]) / 512 + SLACK && r <= 1.2)
		print "| " ptitle[i] " | " human(wsize[rv]) " | " count("major", PATCHED, rv, "stock") " → " count("major", PATCHED, rv, "best") \
			" | " mib(PATCHED, rv, "best") " | " count("major", PATCHED, fw, "best") " | " sprintf("%.2f×", r) " | " (ok ? "yes" : "no") " |"
	}
	print ""
}

# ---------------------------------------------------------------------------
# The seeds' own numbers next to ours.

function seeds() {
	print "## The seeds' tables next to ours"
	print ""
	print "The seeds measured on other machines and sizes (seed 000: a 32 vCPU VM,"
	print "2 GiB and 16 GiB files; seed 002: a phone, 256 MB; seed 003: arm64,"
	print "100 MB, warm page cache). Only ratios compare: ours are stock →"
	print "setting on the patched kernel in one boot, theirs before → after their"
	print "patch. Every row where the two ratios differ by more than 2× has a"
	print "sentence saying why."
	print ""
	seed000_walk()
	seed000_other()
	seed002()
	seed003()
}

# one comparison line: "ratio label: seed X, ours Y" plus why, if > 2x apart
function cmpnote(what, sr, or, why) {
	if (apart(sr, or) > 2)
		printf("- **%s**: seed %s, ours %s (%.1f× apart). %s\n", what, fmtx(sr), fmtx(or), apart(sr, or), why)
	else if (sr > 0 && or > 0)
		printf("- %s: seed %s, ours %s: within 2×.\n", what, fmtx(sr), fmtx(or))
	else
		printf("- %s: seed %s, ours n/a.\n", what, fmtx(sr))
}

function seed000_walk(    w, nf, exp_stock, exp_seed, so, fo, pages, win, t_floor, mss, mod, tfix) {
	print "### Seed 000: the reverse walk (2 GiB, read_ahead_kb 8192)"
	print ""
	print "| walk | seed: v7.4-rc2 → patched | seed speedup | seed major faults | seed ratio | ours: file | ours: stock → seed (median) | our speedup | our major faults | our ratio | seed's mechanism at our size: faults | and time (seed's disk) |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
	# MADV_HUGEPAGE
	w = "rev-huge"
	nf = int(mibs(wsize[w]) / 2)
	exp_stock = nf > 100 ? (nf - 100) * 512 + 100 : nf / 2 + 1
	exp_seed = int(nf / 2) + 1
	print "| reverse, MADV_HUGEPAGE | 42.23 s → 0.58 s | 72.8× | 473189 → 514 | 921× | " human(wsize[w]) \
		" | " fmtms(med("ms", PATCHED, w, "stock")) " ms → " fmtms(med("ms", PATCHED, w, "seed")) " ms | " fmtx(speedup(w, "seed")) \
		" | " count("major", PATCHED, w, "stock") " → " count("major", PATCHED, w, "seed") \
		" | " fmtx(1 / cratio("major", w, "seed")) " | ≈" exp_stock " → ≈" exp_seed " (" nf " folios) | " model(exp_stock * 42.23 / 473189, mibs(wsize[w]) / 3531) " |"
	w = "rev-seq"
	pages = mibs(wsize[w]) * 256
	win = wra[w] / 4
	print "| reverse, MADV_SEQUENTIAL | 52.42 s → 0.96 s | 54.6× | 524289 → 258 | 2032× | " human(wsize[w]) \
		" | " fmtms(med("ms", PATCHED, w, "stock")) " ms → " fmtms(med("ms", PATCHED, w, "seed")) " ms | " fmtx(speedup(w, "seed")) \
		" | " count("major", PATCHED, w, "stock") " → " count("major", PATCHED, w, "seed") \
		" | " fmtx(1 / cratio("major", w, "seed")) " | ≈" pages " → ≈" int(pages / win) + 2 " (" pages / win " windows) | " model(pages * 52.42 / 524289, mibs(wsize[w]) / (2048 / 0.96)) " |"
	print "| forward, both advices | \"take the same time\" | 1× | | | " human(wsize["fwd-huge"]) ", " human(wsize["fwd-seq"]) \
		" | " fmtms(med("ms", PATCHED, "fwd-huge", "stock")) " → " fmtms(med("ms", PATCHED, "fwd-huge", "seed")) " ms, " \
		fmtms(med("ms", PATCHED, "fwd-seq", "stock")) " → " fmtms(med("ms", PATCHED, "fwd-seq", "seed")) " ms" \
		" | " fmtx(speedup("fwd-huge", "seed")) ", " fmtx(speedup("fwd-seq", "seed")) \
		" | " count("major", PATCHED, "fwd-huge", "stock") " → " count("major", PATCHED, "fwd-huge", "seed") ", " \
		count("major", PATCHED, "fwd-seq", "stock") " → " count("major", PATCHED, "fwd-seq", "seed") " | | | |"
	print ""
	w = "rev-huge"
	fo = 1 / cratio("major", w, "seed")
	so = speedup(w, "seed")
	mss = med("ms", PATCHED, w, "stock") / med("major", PATCHED, w, "stock")
	t_floor = (m("bps") > 0) ? bytes(wsize[w]) / m("bps") * 1000 : 0
	cmpnote("reverse MADV_HUGEPAGE, major faults", 921, fo, \
		"On stock a descending reader's first ~100 faults each read a whole PMD folio (the THP window's second folio, the one above, is already cached); only after mmap_miss passes MMAP_LOTSAMISS does every page cost a fault. At 2 GiB that per-page tail is 924 of 1024 folios, at " human(wsize[w]) " " (nf - 100) " of " nf ", so stock's count, (N−100)·512+100, and with it the ratio shrink: ≈" int(exp_stock / exp_seed) "× is what the seed's mechanism predicts here, and we measure " fmtx(fo) ".")
	mod = (exp_stock * 42.23 / 473189) / (mibs(wsize[w]) / 3531)
	tfix = med("ms", PATCHED, w, "seed")
	cmpnote("reverse MADV_HUGEPAGE, wall time", 72.8, so, \
		"Fewer per-page faults for the reason above: with the seed's own disk (11205 reads/s, 3531 MiB/s) a " human(wsize[w]) " walk would go from " sprintf("%.2f s to %.3f s", exp_stock * 42.23 / 473189, mibs(wsize[w]) / 3531) ", " fmtx(mod) " (last column)" \
		(so < mod / 1.5 ? sprintf("; ours is lower still because the fast walk takes %d ms where the throttle's bandwidth alone needs %d ms: TCG's CPU for the walk itself (cache drop, madvise(), %s faults, mapping %s) does not shrink with the disk.", tfix, t_floor, count("major", PATCHED, w, "seed"), human(wsize[w])) : \
		 so > mod * 1.5 ? sprintf("; ours is higher because our stock walk pays %.2f ms per fault (TCG's CPU on top of the 0.5 ms request slot) against the seed's 0.09 ms.", mss) : \
		 sprintf("; we measure %s, within 1.5× of it.", fmtx(so))))
	w = "rev-seq"
	fo = 1 / cratio("major", w, "seed")
	so = speedup(w, "seed")
	cmpnote("reverse MADV_SEQUENTIAL, major faults", 2032, fo, \
		"Stock faults once per page at any size, the seed profile once per read_ahead_kb window, so the ratio is about pages per window (2048 here and in the seed) minus the few extra faults at the ends, which weigh more in " pages / win " windows than in 256.")
	cmpnote("reverse MADV_SEQUENTIAL, wall time", 54.6, so, \
		"Our stock walk pays TCG's CPU per fault (" sprintf("%.2f", med("ms", PATCHED, w, "stock") / med("major", PATCHED, w, "stock")) " ms) and the throttle per I/O; the fast walk is bound by the bandwidth limit and by the fixed cost of a short walk (cache drop, madvise, " pages / win " windows).")
	print ""
	print "The seed also names memmove() copying backwards out of a mapping (LLM"
	print "loaders) as the real-world case; it gives no number for it. Ours:"
	printf("`memcpy-huge` (%s, MADV_HUGEPAGE) %s → %s major faults, %s → %s ms, %s.\n", \
		human(wsize["memcpy-huge"]), count("major", PATCHED, "memcpy-huge", "stock"), \
		count("major", PATCHED, "memcpy-huge", "seed"), fmtms(med("ms", PATCHED, "memcpy-huge", "stock")), \
		fmtms(med("ms", PATCHED, "memcpy-huge", "seed")), fmtx(speedup("memcpy-huge", "seed")))
	print ""
}

# the seed's time model: stock and fixed seconds -> "a s → b s, N×"
function model(a, b) {
	return sprintf("%.2f s → %.3f s, %s", a, b, fmtx(a / b))
}

function seed000_other(    ids, n, i, w, smb0, smb1, sf0, sf1, label, scale, mr, fr, smr, sfr, why) {
	print "### Seed 000: other access patterns (16 GiB file)"
	print ""
	print "\"Megabytes read and major faults\", v7.4-rc2 → patched, against our"
	print "stock → seed. \"Seed ÷ scale\" is the seed's stock row divided by 16 GiB /"
	print "our file size, for magnitudes; the ratios are what compare."
	print ""
	print "| pattern | seed MB | seed major faults | seed MB ratio | seed faults ratio | ours: file | seed ÷ scale (MB, faults) | our MiB stock → seed | our major faults stock → seed | our MiB ratio | our faults ratio |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	n = split("rand1-normal rand1-huge stride-64 rand5-memcg", ids, " ")
	split("1002 1584 10503 2205", smb0, " "); split("1013 1587 10496 2225", smb1, " ")
	split("39617 38760 2 187416", sf0, " "); split("39617 38756 2 187402", sf1, " ")
	split("1% random, MADV_NORMAL|1% random, MADV_HUGEPAGE|1% stride 64 pages|5% random in 2 GiB memcg, MADV_HUGEPAGE", label, "|")
	for (i = 1; i <= n; i++) {
		w = ids[i]
		scale = 16384 / mibs(wsize[w])
		mr = cratio("sectors", w, "seed"); fr = cratio("major", w, "seed")
		smr[i] = smb1[i] / smb0[i]; sfr[i] = sf1[i] / sf0[i]
		print "| " label[i] " | " smb0[i] " → " smb1[i] " | " sf0[i] " → " sf1[i] " | " sprintf("%.3f", smr[i]) " | " sprintf("%.4f", sfr[i]) \
			" | " human(wsize[w]) " (" w ") | " fmtn(smb0[i] / scale) ", " fmtn(sf0[i] / scale) \
			" | " mib(PATCHED, w, "stock") " → " mib(PATCHED, w, "seed") \
			" | " count("major", PATCHED, w, "stock") " → " count("major", PATCHED, w, "seed") \
			" | " (mr > 0 ? sprintf("%.3f", mr) : "n/a") " | " (fr > 0 ? sprintf("%.4f", fr) : "n/a") " |"
		ours_mr[i] = mr; ours_fr[i] = fr
	}
	print ""
	for (i = 1; i <= n; i++) {
		w = ids[i]
		why = "The seed profile changes what a fault reads on this pattern; see the cells of " w " above for which policy does it."
		cmpnote(label[i] ", MiB read ratio", smr[i], ours_mr[i], why)
		cmpnote(label[i] ", major faults ratio", sfr[i], ours_fr[i], why)
	}
	print ""
	print "Magnitudes (not ratios) differ where the file is too small for the"
	print "seed's regime: a PMD folio is 1/" int(mibs(wsize["rand1-huge"]) / 2) " of our " human(wsize["rand1-huge"]) " file but 1/8192"
	print "of 16 GiB, so with up to two folios per fault 1% random MADV_HUGEPAGE reads"
	print "the whole file in well under 100 faults and never reaches"
	print "MMAP_LOTSAMISS, where the seed's walk spends most of its faults; the"
	print "first 100 faults of the memcg walk read up to 2 folios (4 MiB) each whatever"
	print "the file size, so they weigh more in our MiB read. The seed does not"
	print "say why its 1% stride walk read 10.5 GB of 16 GiB; ours reads the"
	print "whole file with one fault, the async window staying ahead of the stride."
	print ""
}

function seed002(    w, ra, rn, fa, fn) {
	w = "vmasplit"
	print "### Seed 002: mprotect-split VMAs"
	print ""
	print "Sequential read across 64 VMAs of 4 MB (256 MB file, ra_pages 128) on a"
	print "phone, against our " wpat[w] " over " human(wsize[w]) " with read_ahead_kb " wra[w] "."
	print ""
	print "| vma_limit | seed time | seed speedup vs none | ours: wall ms (median) | our speedup vs stock | our major faults | our I/Os |"
	print "|---|---:|---:|---:|---:|---:|---:|"
	print "| none (stock) | 158 ms (1620 MB/s) | 1× | " fmtms(med("ms", PATCHED, w, "stock")) " | 1× | " count("major", PATCHED, w, "stock") " | " count("ios", PATCHED, w, "stock") " |"
	print "| always (7b32f64bc512) | 180 ms (1420 MB/s) | 0.88× | " fmtms(med("ms", PATCHED, w, "vma_always")) " | " fmtx(speedup(w, "vma_always")) " | " count("major", PATCHED, w, "vma_always") " | " count("ios", PATCHED, w, "vma_always") " |"
	print "| near_end (the fix) | 158 ms (1620 MB/s) | 1× | " fmtms(med("ms", PATCHED, w, "vma_near_end")) " | " fmtx(speedup(w, "vma_near_end")) " | " count("major", PATCHED, w, "vma_near_end") " | " count("ios", PATCHED, w, "vma_near_end") " |"
	print ""
	ra = speedup(w, "vma_always"); rn = speedup(w, "vma_near_end")
	fa = count("major", PATCHED, w, "vma_always")
	cmpnote("vma_limit=always", 0.878, ra, \
		"With `always` the readahead stream stops at each VMA end, so each of the " int(substr(wpat[w], 10)) " VMAs starts with a synchronous fault (" fa " major faults against " count("major", PATCHED, w, "stock") "); each costs a throttled I/O and TCG's fault path, where the phone's UFS absorbed the stall in 22 ms over 64 boundaries.")
	cmpnote("vma_limit=near_end", 1.0, rn, "near_end must keep the stream crossing VMA boundaries.")
	print ""
	print "QEMU's throttle limits the request rate and the bandwidth but adds no"
	print "latency of its own, so what a stall at a VMA boundary costs here (TCG's"
	print "fault path and a request slot) is not what it cost on the phone's"
	print "storage, and the time ratio carries over less well than the counts:"
	print "`always` restarts the stream at every boundary (" count("major", PATCHED, w, "vma_always") " major faults and " count("ios", PATCHED, w, "vma_always") " I/Os"
	print "against " count("major", PATCHED, w, "stock") " and " count("ios", PATCHED, w, "stock") "), `near_end` does not (" count("major", PATCHED, w, "vma_near_end") " and " count("ios", PATCHED, w, "vma_near_end") ")."
	print ""
}

function seed003(    w0, w1, rw, n, list, i, w) {
	w0 = "stride-4M"; w1 = "remap-warm"
	print "### Seed 003: sync_mmap_order (order of mmap read-around folios)"
	print ""
	print "The seed reads one byte per 4 MiB of a 100 MB file with 4 MiB readahead,"
	print "ten times, and reports about 3× the throughput (130k → 380k accesses per"
	print "second) once the page cache holds order-4 folios: the gain is in"
	print "filemap_map_pages() mapping one 64 KiB folio per fault-around instead of"
	print "16 pages (and arm64 contiguous PTEs, which x86 does not have)."
	print ""
	print "| walk | seed | ours: stock → sync_order wall ms (median) | our speedup | major faults | minor faults stock → sync_order | PMD-mapped MiB |"
	print "|---|---:|---:|---:|---:|---:|---:|"
	print "| cold: " w0 " (" wpat[w0] ", " human(wsize[w0]) ", read_ahead_kb " wra[w0] ") | not measured | " fmtms(med("ms", PATCHED, w0, "stock")) " → " fmtms(med("ms", PATCHED, w0, "sync_order")) " | " fmtx(speedup(w0, "sync_order")) " | " count("major", PATCHED, w0, "stock") " → " count("major", PATCHED, w0, "sync_order") " | " count("minor", PATCHED, w0, "stock") " → " count("minor", PATCHED, w0, "sync_order") " | " count("pmd", PATCHED, w0, "stock", 1024) " → " count("pmd", PATCHED, w0, "sync_order", 1024) " |"
	print "| warm: " w1 " (" wpat[w1] " over the cache " w0 " left) | ~3× (2.9×) | " fmtms(med("ms", PATCHED, w1, "stock")) " → " fmtms(med("ms", PATCHED, w1, "sync_order")) " | " fmtx(speedup(w1, "sync_order")) " | " count("major", PATCHED, w1, "stock") " → " count("major", PATCHED, w1, "sync_order") " | " count("minor", PATCHED, w1, "stock") " → " count("minor", PATCHED, w1, "sync_order") " | " count("pmd", PATCHED, w1, "stock", 1024) " → " count("pmd", PATCHED, w1, "sync_order", 1024) " |"
	print ""
	rw = speedup(w1, "sync_order")
	n = 0; list = ""
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		if (w == w1 || speedup(w, "sync_order") < 1.25 || separated(w, "sync_order") != 1)
			continue
		list = list (n++ ? ", " : "") w " " fmtx(speedup(w, "sync_order"))
	}
	if (n) {
		print "Cold walks gain too, which the seed did not measure: sync_order makes " list " faster"
		print "with the same major faults and MiB read and about as many I/Os, so the gain is CPU: the"
		print "read-around allocates, inserts and completes 64 KiB folios instead of"
		print "16 times as many pages, which TCG makes expensive."
		print ""
	}
	cmpnote("warm remap throughput", 2.9, rw, \
		"Under TCG a minor fault's fixed cost (exception, page-table walk, emulated TLB flush) is large against the per-page work filemap_map_pages() saves with one order-4 folio instead of 16 order-0 ones, and x86 has no contiguous-PTE bit to gain from, where the seed's arm64 numbers include it.")
	print ""
}
