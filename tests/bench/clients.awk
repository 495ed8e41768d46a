# The "Real clients" section of docs/BENCHMARKS.md, from the lines of
# tests/guest/clients.sh --bench (without "@client "):
#   CLIENT DIRECTION PROFILE RA_KB REP MAJOR READ_BYTES SECTORS IOS WALL_MS FILE_BYTES READERS
# Every figure is the median over the repetitions; a count that varied
# between them is shown with its range.  Variables: cmd (the command),
# meta (a line on the setup), sqlitev (sqlite3's Debian version).
function median(key) { return med(walls[key]) }
function med(list,   n, i, j, t, a) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	if (n == 0) return -1
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function mib(sectors) { return sprintf("%.1f", sectors / 2048) }
function rb(v) { return (v < 0) ? "n/a" : sprintf("%.1f", v / 1048576) }
function mark(ok) { return ok ? "met" : "**missed**" }
{
	key = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
	if (!(key in majors)) {
		lo[key] = hi[key] = $6
		if (!($1 in fbytes)) { order[++nc] = $1 }
		fbytes[$1] = $11; readers[$1] = $12
		if (!(($4) in seenra)) { seenra[$4] = 1; ras[++nr] = $4 }
		if (!(($3) in seenp)) { seenp[$3] = 1; profs[++np] = $3 }
	}
	if ($6 < 0) failed[key] = 1
	if ($6 < lo[key]) lo[key] = $6
	if ($6 > hi[key]) hi[key] = $6
	majors[key] = majors[key] " " $6; rbl[key] = rbl[key] " " $7
	sectl[key] = sectl[key] " " $8
	walls[key] = walls[key] " " $10
}
function counts(key) {
	if (key in failed) return "failed"
	return (lo[key] == hi[key]) ? major[key] : major[key] " (" lo[key] "–" hi[key] ")"
}
END {
	for (key in majors) {
		major[key] = med(majors[key]); rbytes[key] = med(rbl[key])
		sect[key] = med(sectl[key])
	}
	print "## Real clients"
	print ""
	print "Programs that read their files through mmap the way they always do,"
	print "on a cold page cache (the guest drops it before each run), with the"
	print "disk throttled as above; " meta "."
	print "Each is scanned forward and in reverse under profiles " \
		"stock, seed and best, at read_ahead_kb 128 and 8192:"
	print ""
	print "- **lmdb**: LMDB, the mmap B-tree, through its own API: one read"
	print "  transaction, a cursor from `MDB_FIRST` with `MDB_NEXT`, or from"
	print "  `MDB_LAST` with `MDB_PREV`, summing every value byte"
	print "  ([tests/clients/lmdb_scan.c](../tests/clients/lmdb_scan.c); liblmdb from"
	print "  Debian's `liblmdb-dev`, statically linked). 1000-byte values, four"
	print "  to a leaf page, appended in key order; the branch pages lie among the leaves."
	print "- **tensors**: a parallel loader: one shared read-only mapping of a"
	print "  safetensors-style file (header, then tensors of 4 MiB, 1 MiB,"
	print "  4 MiB + 12 KiB and 16 KiB), each thread `memcpy()`s its own contiguous"
	print "  share of the tensors into its buffer, in file order or in reverse order"
	print "  ([tests/clients/tensor_load.c](../tests/clients/tensor_load.c))."
	print "- **sqlite**: Debian's `sqlite3` (" sqlitev ") binary, unmodified, run in the"
	print "  guest through its own loader (`ld-linux-x86-64.so.2 --library-path`),"
	print "  `PRAGMA mmap_size` set, `SELECT count(*), sum(k), sum(unicode(hex(substr(v,"
	print "  1000, 1)))) FROM (SELECT k, v FROM t ORDER BY k ASC|DESC LIMIT -1)` over a"
	print "  table of 1000-byte rows, four to a page: a co-routine that walks the table"
	print "  B-tree's leaves forwards (`OP_Next`) or backwards (`OP_Prev`)."
	print ""
	print "Major faults and wall time are the program's (wait4()), medians over"
	print "the repetitions, with the range where a count varied (the loader's"
	print "threads share the file's readahead state, so its counts follow their"
	print "interleaving; a single reader's counts repeat from run to run where no"
	print "range is shown);"
	print "MiB read is what the disk read while it ran (the guest runs nothing"
	print "else), read_bytes the program's own, all its threads, from"
	print "`/proc/self/io` of the measuring parent after reaping it (n/a on a"
	print "kernel without `CONFIG_TASK_IO_ACCOUNTING`). Ratio = reverse wall"
	print "time / forward wall time."
	print ""
	print "In short (major faults, medians):"
	print ""
	for (c = 1; c <= nc; c++) {
		cl = order[c]
		line = "- **" cl "**:"
		sep = " "
		for (r = 1; r <= nr; r++) {
			sr = cl SUBSEP "reverse" SUBSEP "stock" SUBSEP ras[r]
			br = cl SUBSEP "reverse" SUBSEP "best" SUBSEP ras[r]
			bf = cl SUBSEP "forward" SUBSEP "best" SUBSEP ras[r]
			if (!(sr in major) || !(br in major) || !(bf in major)) continue
			line = line sep "at " ras[r] " KiB the reverse scan takes " major[sr] \
				" under stock, " major[br] " under best (forward: " major[bf] ")"
			sep = "; "
		}
		for (r = 1; r <= nr; r++) {
			sf = cl SUBSEP "forward" SUBSEP "stock" SUBSEP ras[r]
			ef = cl SUBSEP "forward" SUBSEP "seed" SUBSEP ras[r]
			if ((sf in major) && (ef in major) && major[ef] > major[sf] && readers[cl] == 1)
				line = line "; seed's forward scan takes more than stock's at " \
					ras[r] " KiB (" major[ef] " against " major[sf] ")"
		}
		print line "."
	}
	print ""
	print "| client | file | read_ahead_kb | profile | major faults fwd / rev | MiB read fwd / rev | read_bytes MiB fwd / rev | wall ms fwd / rev | rev / fwd |"
	print "|---|---:|---:|---|---:|---:|---:|---:|---:|"
	for (c = 1; c <= nc; c++) {
		cl = order[c]
		for (r = 1; r <= nr; r++) for (p = 1; p <= np; p++) {
			f = cl SUBSEP "forward" SUBSEP profs[p] SUBSEP ras[r]
			b = cl SUBSEP "reverse" SUBSEP profs[p] SUBSEP ras[r]
			if (!(f in major) || !(b in major)) continue
			mf = median(f); mb = median(b)
			printf "| %s | %d MiB | %d | %s | %s / %s | %s / %s | %s / %s | %.0f / %.0f | %.2f× |\n",
				cl (cl == "tensors" ? " (" readers[cl] " threads)" : ""),
				fbytes[cl] / 1048576, ras[r], profs[p],
				counts(f), counts(b),
				mib(sect[f]), mib(sect[b]), rb(rbytes[f]), rb(rbytes[b]),
				mf, mb, (mf > 0) ? mb / mf : 0
		}
	}
	print ""
	print "### Targets under best"
	print ""
	print "Issue 14's targets for every real client at read_ahead_kb 128 and 8192"
	print "under best: a reverse scan takes no more major faults than the forward"
	print "scan plus 4 per reader; a forward scan no more than stock's forward;"
	print "each reads at most 1.05× the file; reverse wall time within 1.2× of"
	print "forward on the throttled disk."
	print ""
	print "| client | read_ahead_kb | reverse ≤ forward + 4/reader | forward ≤ stock forward | read ≤ 1.05× file (fwd, rev) | wall rev / fwd ≤ 1.2 |"
	print "|---|---:|---|---|---|---|"
	for (c = 1; c <= nc; c++) {
		cl = order[c]
		lim = fbytes[cl] / 512 * 1.05
		for (r = 1; r <= nr; r++) {
			f = cl SUBSEP "forward" SUBSEP "best" SUBSEP ras[r]
			b = cl SUBSEP "reverse" SUBSEP "best" SUBSEP ras[r]
			s = cl SUBSEP "forward" SUBSEP "stock" SUBSEP ras[r]
			if (!(f in major) || !(b in major)) continue
			t1 = major[b] <= major[f] + 4 * readers[cl]
			t2 = (s in major) ? (major[f] <= major[s]) : -1
			t3 = sect[f] <= lim && sect[b] <= lim
			ratio = (median(f) > 0) ? median(b) / median(f) : 0
			t4 = ratio <= 1.2
			printf "| %s | %d | %s (%d vs %d + %d) | %s | %s (%s, %s MiB of %.1f) | %s (%.2f×) |\n",
				cl, ras[r], mark(t1), major[b], major[f], 4 * readers[cl],
				(t2 < 0) ? "n/a" : mark(t2) " (" major[f] " vs " major[s] ")",
				mark(t3), mib(sect[f]), mib(sect[b]), fbytes[cl] / 1048576,
				mark(t4), ratio
		}
	}
	print ""
	print "Command: `" cmd "`; raw lines in [bench/clients.txt](bench/clients.txt)"
	print "(client direction profile read_ahead_kb repetition major read_bytes"
	print "sectors I/Os wall-ms file-bytes readers)."
	print ""
}
