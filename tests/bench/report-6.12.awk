# make bench: the "Linux 6.12" section of docs/BENCHMARKS.md (POSIX awk).
#
#   awk -f report-6.12.awk MATRIX META RESULTS_612 RESULTS_73 > section.md
#
# MATRIX       the 6.12 matrix (tests/bench/matrix without its o workloads)
# META         meta-6.12.txt: KEY<TAB>VALUE (bench.sh and the guests' @meta)
# RESULTS_612  walks on kernels "6.12-stock" (setting "-") and "6.12-patched"
# RESULTS_73   the same run's 7.3 walks ("7.3.4", "patched"): the 7.3
#              columns the 6.12 counts are set beside
# Fields of a walk: KERNEL WORKLOAD SETTING REP MAJOR MINOR SECTORS IOS
# PMD_KB RSS_KB WALL_MS DECISIONS TOOK (as report.awk).
#
# Every sentence about what a policy does is derived from the counts here:
# a setting "changes" a workload when its median major faults or sectors
# read differ from those with every policy off on the same kernel by more
# than 1% (and 64 sectors); wall time is compared only within one boot.

BEGIN {
	S612 = "6.12-stock"; P612 = "6.12-patched"
	S73 = "7.3.4"; P73 = "patched"; OFF73 = "-"; L73 = "7.3.4"
	SLACK = 64
	nfile = 0
}

FNR == 1 { nfile++ }

nfile == 1 && $1 == "w" {
	id = $2
	wl[++nw] = id
	wsize[id] = $3; wadv[id] = $4; wpat[id] = $5; wra[id] = $6
	wopt[id] = $7; wseed[id] = $9
	wtitle[id] = rest(10)
	next
}
nfile == 1 && $1 == "s" {
	st[++ns] = $2
	swrites[$2] = $3
	next
}
nfile == 1 && $1 == "p" {
	prv[++npair] = $2; pfw[npair] = $3; ptitle[npair] = rest(4)
	next
}
nfile == 2 {
	read_meta()
	next
}
(nfile == 3 || nfile == 4) && NF >= 13 {
	read_walk()
	seen[$1] = 1
	next
}

function m(k) { return (k in meta) ? meta[k] : "unknown" }

# the setting of "every policy off" on a kernel: "-" on the stock ones
function off(kern) { return kern == S612 ? "-" : kern == S73 ? OFF73 : "stock" }

# median wall time of s over t's, both on kern (one boot)
function ratio(kern, w, s, t,    a, b) {
	if (!has(kern, w, s) || !has(kern, w, t))
		return -1
	a = med("ms", kern, w, t)
	b = med("ms", kern, w, s)
	return b > 0 ? a / b : -1
}

# 1 when setting s changes workload w's counts on kern against every
# policy off (1% and SLACK sectors; reclaim may move the memcg walk's)
function changes(kern, w, s,    a, b, c, d) {
	if (!has(kern, w, s) || !has(kern, w, off(kern)))
		return 0
	a = med("major", kern, w, off(kern)); b = med("major", kern, w, s)
	c = med("sectors", kern, w, off(kern)); d = med("sectors", kern, w, s)
	if (b > a + a / 100 + 1 || b < a - a / 100 - 1)
		return 1
	return d > c + c / 100 + SLACK || d < c - c / 100 - SLACK
}

# "w 128 → 2 faults (4.1×)" for a changed workload
function effect(kern, w, s,    a, b, c, d, t) {
	a = med("major", kern, w, off(kern)); b = med("major", kern, w, s)
	c = med("sectors", kern, w, off(kern)) / 2048; d = med("sectors", kern, w, s) / 2048
	t = "`" w "` " fmtn(a) " → " fmtn(b) " faults"
	if (fmtn(c) != fmtn(d))
		t = t ", " fmtn(c) " → " fmtn(d) " MiB"
	return t " (" fmtx(ratio(kern, w, s, off(kern))) ")"
}

function opts(w,    o) {
	o = wopt[w]
	if (o == "-")
		return ""
	gsub(/,/, " ", o)
	return " " o
}

END {
	# without a stock 7.3.4 boot (--no-stock): patched 7.3 with every
	# policy off stands in for it (docs/NEUTRALITY.md: the same counts)
	if (!(S73 in seen)) {
		S73 = P73; OFF73 = "stock"; L73 = "7.3.4 (patched, every policy off)"
	}
	print "## Linux 6.12 (XFS)"
	print ""
	print "The matrix above without issue 7's 512 MiB targets" (m("only") != "unknown" ? " (" m("only") ")" : "") ", on"
	print "Linux 6.12: stock " m("6.12-stock.kernel") " (Debian linux-source " m("6.12-stock.source") ","
	print "no hooks, no module) and " m("6.12-patched.kernel") " (linux-source " m("6.12-patched.source")
	print "+ `patches/6.12/`, rapolicy " m("6.12-patched.rapolicy") "), one boot each, "
	print m("reps") " repetition(s), the same throttle, memory and vCPUs as the 7.3 boots."
	print "The scratch disk is " m("6.12-patched.fs") " (" m("6.12-stock.fs") " for stock): 6.12's ext4 has no large"
	B73 = (m("base73") != "unknown") ? m("base73") : "this run's"
	print "folios, so no walk there would map a PMD. The 7.3 columns are " B73
	print "(ext4" (L73 != "7.3.4" ? "; its stock column is " L73 : "") "). Counts are medians, with the range when the repetitions differed;"
	print "wall time is only compared within one boot. Boots took " m("6.12-stock.seconds") " s (stock)"
	split(m("host_samples"), hs, " ")
	print "and " m("6.12-patched.seconds") " s (patched); other QEMU processes ran in " (hs[2] + 0) " of the " (hs[1] + 0) " samples"
	print "taken every 10 s during them (highest load average " hs[3] ")."
	print ""
	if (m("6.12-patched.kernel_warnings") == "yes" || m("6.12-stock.kernel_warnings") == "yes") {
		print "**The kernel logged warnings during the 6.12 boots** (build/bench/vm-6.12-*.log)."
		print ""
	}
	problems()
	policies()
	neutral()
}

# Which of the seeds' problems 6.12 has: stock 7.3.4 against stock 6.12,
# each reverse walk against its forward baseline on the same kernel.
function problems(    i, w, f, r73, r612, a, b, fa, fb, v, t, n, k) {
	print "### The seed problems on 6.12"
	print ""
	print "Stock kernels, no hooks. Reverse / forward: the reverse walk's median"
	print "wall time over its forward baseline's, same kernel, same boot."
	print ""
	print "| workload | 7.3.4 major faults | 6.12 major faults | 7.3.4 MiB read | 6.12 MiB read | 7.3.4 reverse / forward | 6.12 reverse / forward |"
	print "|---|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		f = pairof(w)
		r73 = ""; r612 = ""
		if (f != "") {
			r73 = slow(S73, w, f)
			r612 = slow(S612, w, f)
		}
		print "| `" w "` " advname(wadv[w]) " " wpat[w] " " wsize[w] opts(w) " | " count("major", S73, w, OFF73) \
			" | " c612("major", w) " | " count("sectors", S73, w, OFF73, 2048) \
			" | " c612("sectors", w, 2048) " | " r73 " | " r612 " |"
	}
	print ""
	print "Each reverse walk against its forward baseline (generated from the"
	print "table; slow: at least 1.5× the forward walk's median wall time):"
	print ""
	for (i = 1; i <= npair; i++) {
		w = prv[i]; f = pfw[i]
		if (!has(S73, w, OFF73) || !has(S612, w, "-") || !has(S73, f, OFF73) || !has(S612, f, "-"))
			continue
		a = med("major", S73, w, OFF73); b = med("major", S612, w, "-")
		fa = med("major", S73, f, OFF73); fb = med("major", S612, f, "-")
		v = "about as many as on 7.3.4"
		if (b * 4 < a)
			v = "far fewer than on 7.3.4"
		else if (b > 4 * a)
			v = "far more than on 7.3.4"
		t = (slowx(S612, w, f) >= 1.5) ? "slow on 6.12" : "not slow on 6.12"
		printf("- %s (`%s`): %s, %s the forward walk's wall time; %s major faults against %s forward, %s (%s against %s forward, %s the forward time).\n",
			ptitle[i], w, t, slow(S612, w, f), fmtn(b), fmtn(fb), v, fmtn(a), fmtn(fa), slow(S73, w, f))
	}
	print ""
	if (nsub)
		print "†: not run on the stock kernel; patched 6.12 with every policy off instead."
	print ""
	print "Reads that differ from 7.3.4's by more than a half (MiB, every policy off):"
	print ""
	n = 0
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		k = has(S612, w, "-") ? S612 : P612
		if (!has(S73, w, OFF73) || !has(k, w, off(k)))
			continue
		a = med("sectors", S73, w, OFF73); b = med("sectors", k, w, off(k))
		if (b > a * 1.5 || a > b * 1.5) {
			printf("- `%s` (%s): %s MiB on 6.12%s, %s on 7.3.4 (%s major faults and %s).\n", w, wtitle[w],
				fmtn(b / 2048), (k == P612 ? " (patched, every policy off)" : ""), fmtn(a / 2048),
				fmtn(med("major", k, w, off(k))), fmtn(med("major", S73, w, OFF73)))
			n++
		}
	}
	if (n == 0)
		print "- none"
	print ""
}

# a count on stock 6.12, or (marked †) on patched 6.12 with every policy
# off where the stock kernel did not run the workload
function c612(f, w, scale) {
	if (has(S612, w, "-"))
		return count(f, S612, w, "-", scale)
	if (!has(P612, w, "stock"))
		return "n/a"
	nsub++
	return count(f, P612, w, "stock", scale) " †"
}

# the forward baseline of a reverse workload (p lines)
function pairof(w,    i) {
	for (i = 1; i <= npair; i++)
		if (prv[i] == w)
			return pfw[i]
	return ""
}

# reverse / forward wall time on a stock kernel, as a number (-1: none)
function slowx(kern, w, f,    a, b) {
	if (!has(kern, w, off(kern)) || !has(kern, f, off(kern)))
		return -1
	a = med("ms", kern, w, off(kern)); b = med("ms", kern, f, off(kern))
	return b > 0 ? a / b : -1
}

function slow(kern, w, f) { return fmtx(slowx(kern, w, f)) }

function policies(    i, j, w, s, h, d, line, n73, n612, e73, e612) {
	print "### What each setting does on 6.12"
	print ""
	print "Major faults, patched 6.12 (the setting alone; `stock` = every policy"
	print "off; `6.12, no hooks` = the stock kernel):"
	print ""
	h = "| workload |"; d = "|---|"
	for (j = 1; j <= ns; j++) { h = h " " st[j] " |"; d = d "---:|" }
	print h " 6.12, no hooks |"
	print d "---:|"
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		line = "| `" w "` |"
		for (j = 1; j <= ns; j++)
			line = line " " count("major", P612, w, st[j]) (nottook[cellkey(P612, w, st[j])] ? " (did not take)" : "") " |"
		print line " " count("major", S612, w, "-") " |"
	}
	print ""
	print "Speedup over `stock` (median wall time, same boot):"
	print ""
	print h
	print d
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		line = "| `" w "` |"
		for (j = 1; j <= ns; j++)
			line = line " " fmtx(ratio(P612, w, st[j], "stock")) " |"
		print line
	}
	print ""
	print "Each setting against every policy off on its own kernel: the workloads"
	print "whose major faults or MiB read it changes (by more than 1%), with the"
	print "speedup; 7.3: " B73 " patched 7.3 boot."
	print ""
	print "| setting | on 6.12 | on 7.3 |"
	print "|---|---|---|"
	for (j = 1; j <= ns; j++) {
		s = st[j]
		if (s == "stock")
			continue
		e612 = ""; e73 = ""
		for (i = 1; i <= nw; i++) {
			w = wl[i]
			if (changes(P612, w, s))
				e612 = e612 (e612 == "" ? "" : "; ") effect(P612, w, s)
			if (changes(P73, w, s))
				e73 = e73 (e73 == "" ? "" : "; ") effect(P73, w, s)
		}
		print "| " s " | " (e612 == "" ? "changes nothing here" : e612) " | " (e73 == "" ? "changes nothing here" : e73) " |"
	}
	print ""
}

# stock 6.12 against patched 6.12 with every policy off
function neutral(    i, w, same, n, diff) {
	print "### Neutrality on 6.12"
	print ""
	n = 0; same = 0; diff = ""
	for (i = 1; i <= nw; i++) {
		w = wl[i]
		if (!has(S612, w, "-") || !has(P612, w, "stock"))
			continue
		n++
		if (med("major", S612, w, "-") == med("major", P612, w, "stock") &&
		    med("sectors", P612, w, "stock") <= med("sectors", S612, w, "-") + SLACK &&
		    med("sectors", P612, w, "stock") >= med("sectors", S612, w, "-") - SLACK)
			same++
		else
			diff = diff sprintf("- `%s`: stock 6.12 %s faults %s MiB (range %s–%s faults), patched %s faults %s MiB (range %s–%s)\n", w,
				fmtn(med("major", S612, w, "-")), fmtn(med("sectors", S612, w, "-") / 2048),
				fmtn(vmin("major", S612, w, "-")), fmtn(vmax("major", S612, w, "-")),
				fmtn(med("major", P612, w, "stock")), fmtn(med("sectors", P612, w, "stock") / 2048),
				fmtn(vmin("major", P612, w, "stock")), fmtn(vmax("major", P612, w, "stock")))
	}
	printf("With every policy off, patched 6.12 takes the same median major faults and sectors (within %d) as stock 6.12 on %d of %d workloads.%s\n",
		SLACK, same, n, (diff == "") ? "" : " The others:")
	print ""
	if (diff != "") {
		printf("%s", diff)
		print ""
	}
	print "The raw walks are in [bench/results-6.12.txt](bench/results-6.12.txt)."
	print "`make bench` writes this section after its 7.3 boots (`--no-6.12` leaves"
	print "it out); `KERNEL_SERIES=6.12 make bench` (`tests/bench/bench.sh"
	print "--only-6.12`) reruns the two 6.12 boots and rewrites this section"
	print "alone, against the 7.3 numbers of [bench/results.txt](bench/results.txt)."
	print "The section is written by `tests/bench/report-6.12.awk`."
	print ""
}
