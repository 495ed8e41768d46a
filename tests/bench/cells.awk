# The cells of make bench's results, for report.awk and report-6.12.awk
# (POSIX awk; loaded first: awk -f cells.awk -f report.awk ...). A cell is
# one workload under one setting on one kernel; the includer fills
# cnt[KEY] (its repetitions), V[FIELD, KEY, REP] (their values) and
# bad[KEY] (cells whose walks failed), KEY being cellkey().

# the fields from i on, joined by single spaces
function rest(i,    s) {
	s = $i
	for (i++; i <= NF; i++)
		s = s " " $i
	return s
}

# sort a[1..n] ascending (numbers)
function sortn(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--)
			a[j + 1] = a[j]
		a[j + 1] = t
	}
}

# fill tmp[1..n] with field f of cell k, sorted; return n (0 if no data)
function collect(f, k,    i, n) {
	n = cnt[k] + 0
	for (i = 1; i <= n; i++)
		tmp[i] = V[f, k, i] + 0
	sortn(tmp, n)
	return n
}

function cellkey(kern, w, s) { return kern SUBSEP w SUBSEP s }

function has(kern, w, s,    k) {
	k = cellkey(kern, w, s)
	return (cnt[k] > 0 && !(k in bad))
}

function med(f, kern, w, s,    n) {
	n = collect(f, cellkey(kern, w, s))
	if (n == 0)
		return -1
	if (n % 2)
		return tmp[(n + 1) / 2]
	return (tmp[n / 2] + tmp[n / 2 + 1]) / 2
}

function vmin(f, kern, w, s,    n) {
	n = collect(f, cellkey(kern, w, s))
	return n ? tmp[1] : -1
}

function vmax(f, kern, w, s,    n) {
	n = collect(f, cellkey(kern, w, s))
	return n ? tmp[n] : -1
}

function fmtn(x) {
	if (x == int(x) || x >= 100)
		return sprintf("%d", x + 0.5)
	if (x >= 10)
		return sprintf("%.1f", x)
	return sprintf("%.2f", x)
}

function fmtx(r) {
	if (r <= 0)
		return "n/a"
	if (r >= 100)
		return sprintf("%d×", r + 0.5)
	if (r >= 10)
		return sprintf("%.1f×", r)
	return sprintf("%.2f×", r)
}

# a count: the median, with the range if the repetitions differed
function count(f, kern, w, s, scale,    a, b, c) {
	if (!has(kern, w, s))
		return "n/a"
	if (scale == "")
		scale = 1
	c = med(f, kern, w, s) / scale
	a = vmin(f, kern, w, s) / scale
	b = vmax(f, kern, w, s) / scale
	if (fmtn(a) == fmtn(b))
		return fmtn(c)
	return fmtn(c) " (" fmtn(a) "–" fmtn(b) ")"
}

function advname(a) {
	if (a == "huge") return "MADV_HUGEPAGE"
	if (a == "seq") return "MADV_SEQUENTIAL"
	if (a == "normal") return "MADV_NORMAL"
	if (a == "random") return "MADV_RANDOM"
	if (a == "willneed") return "MADV_WILLNEED"
	return a
}

# a KEY<TAB>VALUE line of a meta file into meta[]
function read_meta(    i) {
	i = index($0, "\t")
	if (i)
		meta[substr($0, 1, i - 1)] = substr($0, i + 1)
}

# a walk of a results file (KERNEL WORKLOAD SETTING REP MAJOR MINOR
# SECTORS IOS PMD_KB RSS_KB WALL_MS DECISIONS TOOK) into its cell
function read_walk(    k, n) {
	k = $1 SUBSEP $2 SUBSEP $3
	n = ++cnt[k]
	V["major", k, n] = $5; V["minor", k, n] = $6; V["sectors", k, n] = $7
	V["ios", k, n] = $8; V["pmd", k, n] = $9; V["rss", k, n] = $10
	V["ms", k, n] = $11; V["dec", k, n] = $12
	if ($5 < 0 || $11 < 0)
		bad[k]++
	if ($13 == "0")
		nottook[k]++
}
