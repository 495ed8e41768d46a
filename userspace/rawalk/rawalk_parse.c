// SPDX-License-Identifier: GPL-2.0
/*
 * rawalk: the parts that need no system (see rawalk.h).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "rawalk.h"
#include "util.h"

#define PATTERNS \
	"reverse, forward, stride:N, random:P, vmasplit:K, memcpy, memcpy-forward"
#define ADVICES "normal, huge, seq, random, willneed"

static void errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

void rawalk_usage(FILE *f)
{
	fputs(
"Usage: rawalk [OPTIONS] FILE\n"
"       rawalk --create SIZE [--force] [--seed N] FILE\n"
"\n"
"Map FILE, walk it with one access pattern and report page faults, block\n"
"I/O and page-cache mapping sizes for the walk.\n"
"\n"
"  --pattern P          access pattern (default reverse):\n"
"                         reverse     one byte per page, last page first\n"
"                         forward     one byte per page, first page first\n"
"                         stride:N    one byte every N pages (N >= 1), forward\n"
"                         random:P    P percent (0 < P <= 100, up to 6 decimals)\n"
"                                     of the pages, distinct, in random order\n"
"                         vmasplit:K  split the mapping into K VMAs with mprotect,\n"
"                                     then read one byte per page forward\n"
"                         memcpy      memmove() the whole mapping into a buffer\n"
"                                     directly above it (glibc copies backwards)\n"
"                         memcpy-forward  the same into a buffer directly below\n"
"                                     it (glibc copies forwards)\n"
"  --advice A           madvise() on the mapping: normal (default, no call),\n"
"                       huge (MADV_HUGEPAGE), seq (MADV_SEQUENTIAL),\n"
"                       random (MADV_RANDOM), willneed (MADV_WILLNEED)\n"
"  --cold               drop FILE's page cache first, reads in flight too, and\n"
"                       check with cachestat() (mincore() before Linux 6.5)\n"
"                       that nothing stayed (default)\n"
"  --warm               keep whatever FILE has in the page cache\n"
"  --read-ahead-kb N    set read_ahead_kb of FILE's block device for the walk,\n"
"                       restore it afterwards\n"
"  --memcg-limit BYTES  run in a new cgroup v2 child with this memory.max\n"
"  --folio-orders       also report the folio orders of the mapped pages of\n"
"                       FILE (/proc/self/pagemap and /proc/kpageflags: root)\n"
"  --repeat N           walk N times (1..1000), cold each time unless --warm;\n"
"                       report the median walk with min and median figures\n"
"  --jobs N             N threads (1..64) walk the one mapping at once\n"
"  --seed N             seed of random:P and of --create data (default 1)\n"
"  --json               print one JSON object instead of key: value lines\n"
"  --create SIZE        write FILE with SIZE bytes (suffix K, M, G, T) of\n"
"                       non-zero pseudo-random data, fsync it and exit; an\n"
"                       existing FILE of that size without holes is kept,\n"
"                       another one is an error unless --force.  Says\n"
"                       whether it created or kept FILE, after checking\n"
"                       (SEEK_HOLE, st_blocks) that it has no holes\n"
"  --force              with --create, replace an existing FILE\n"
"  -h, --help           this text\n"
"  -V, --version        version\n"
"\n"
"Report keys: file pattern advice cache seed file_bytes pages_touched\n"
"major_faults minor_faults sectors_read ios_read file_pmd_mapped_kb rss_kb\n"
"file_vmas pages_cached_before read_bytes read_ahead_kb memcg_limit_bytes\n"
"wall_ms cpu_ms, folio_orders with --folio-orders, and with --repeat:\n"
"repeat, wall_ms_min/_median, cpu_ms_min/_median, major_faults_min/_median,\n"
"read_bytes_min/_median.\n"
"read_bytes is what this process read from storage (/proc/self/io), exact\n"
"where the device counters count every reader of the device.\n"
"pages_cached_before is unknown (null) when the page cache cannot be read:\n"
"for a caller who neither owns FILE nor may write it, the kernel reports\n"
"every page as cached.\n"
"Faults, I/O, wall and CPU time cover the madvise() call and the walk only.\n"
"sectors_read and ios_read come from /sys/dev/block/MAJ:MIN/stat of the\n"
"device holding FILE; when it has none (tmpfs, overlayfs, NFS) they are -1\n"
"(null in JSON), as is read_ahead_kb.  A file size that is not a multiple\n"
"of the page size is walked including its partial last page.\n"
"\n"
"Exit status: 0 success, 1 runtime error, 2 usage error.\n", f);
}

void rawalk_opts_init(struct rawalk_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->action = ACT_RUN;
	o->pattern.kind = PAT_REVERSE;
	o->advice = ADV_NORMAL;
	o->cold = true;
	o->seed = 1;
	o->read_ahead_kb = -1;
	o->repeat = 1;
	o->jobs = 1;
}

int parse_percent(const char *s, uint64_t *out)
{
	uint64_t ip = 0, frac = 0, scale = RANDOM_PCT_SCALE;
	const char *p = s;
	int idigits = 0, fdigits = 0;

	for (; isdigit((unsigned char)*p); p++, idigits++) {
		if (ip > (UINT64_MAX / RANDOM_PCT_SCALE - 9) / 10)
			return -ERANGE;
		ip = ip * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++, fdigits++) {
			if (fdigits == 6)
				return -EINVAL;
			scale /= 10;
			frac += (uint64_t)(*p - '0') * scale;
		}
		if (!fdigits)
			return -EINVAL;
	}
	if (*p != '\0' || !idigits)
		return -EINVAL;
	*out = ip * RANDOM_PCT_SCALE + frac;
	return 0;
}

static int parse_pattern_arg(const char *name, const char *arg,
			     uint64_t *out, char *err, size_t errlen)
{
	int ret = parse_u64(arg, out);

	if (ret == -ERANGE) {
		errf(err, errlen, "pattern %s:%s: number out of range", name,
		     arg);
		return -EINVAL;
	}
	if (ret) {
		errf(err, errlen,
		     "pattern %s:%s: '%s' is not a decimal number", name, arg,
		     arg);
		return -EINVAL;
	}
	if (*out == 0) {
		errf(err, errlen, "pattern %s:0: %s must be at least 1", name,
		     !strcmp(name, "stride") ? "the stride" :
		     "the number of VMAs");
		return -EINVAL;
	}
	return 0;
}

int parse_pattern(const char *s, struct pattern *p, char *err, size_t errlen)
{
	const char *colon = strchr(s, ':');
	size_t nlen = colon ? (size_t)(colon - s) : strlen(s);
	const char *arg = colon ? colon + 1 : NULL;
	struct pattern res = { 0 };
	int ret;

	if (!colon && !strcmp(s, "reverse")) {
		res.kind = PAT_REVERSE;
	} else if (!colon && !strcmp(s, "forward")) {
		res.kind = PAT_FORWARD;
	} else if (!colon && !strcmp(s, "memcpy")) {
		res.kind = PAT_MEMCPY;
	} else if (!colon && !strcmp(s, "memcpy-forward")) {
		res.kind = PAT_MEMCPY_FORWARD;
	} else if (nlen == 6 && !strncmp(s, "stride", 6)) {
		res.kind = PAT_STRIDE;
		if (!arg) {
			errf(err, errlen,
			     "pattern stride needs a stride in pages: stride:N");
			return -EINVAL;
		}
		if (parse_pattern_arg("stride", arg, &res.arg, err, errlen))
			return -EINVAL;
	} else if (nlen == 8 && !strncmp(s, "vmasplit", 8)) {
		res.kind = PAT_VMASPLIT;
		if (!arg) {
			errf(err, errlen,
			     "pattern vmasplit needs a VMA count: vmasplit:K");
			return -EINVAL;
		}
		if (parse_pattern_arg("vmasplit", arg, &res.arg, err, errlen))
			return -EINVAL;
	} else if (nlen == 6 && !strncmp(s, "random", 6)) {
		res.kind = PAT_RANDOM;
		if (!arg) {
			errf(err, errlen,
			     "pattern random needs a percentage: random:P, 0 < P <= 100");
			return -EINVAL;
		}
		ret = parse_percent(arg, &res.arg);
		if (ret) {
			errf(err, errlen,
			     "pattern random:%s: '%s' is not a percentage (0 < P <= 100, at most 6 decimals, e.g. 1 or 0.5)",
			     arg, arg);
			return -EINVAL;
		}
		if (res.arg == 0 || res.arg > RANDOM_PCT_MAX) {
			errf(err, errlen,
			     "pattern random:%s: the percentage must be in (0, 100]",
			     arg);
			return -EINVAL;
		}
	} else {
		errf(err, errlen, "unknown pattern '%s'; patterns: " PATTERNS,
		     s);
		return -EINVAL;
	}
	*p = res;
	return 0;
}

char *format_pattern(const struct pattern *p, char *buf, size_t len)
{
	uint64_t ip, frac;
	int n;

	switch (p->kind) {
	case PAT_REVERSE:
		snprintf(buf, len, "reverse");
		break;
	case PAT_FORWARD:
		snprintf(buf, len, "forward");
		break;
	case PAT_MEMCPY:
		snprintf(buf, len, "memcpy");
		break;
	case PAT_MEMCPY_FORWARD:
		snprintf(buf, len, "memcpy-forward");
		break;
	case PAT_STRIDE:
		snprintf(buf, len, "stride:%" PRIu64, p->arg);
		break;
	case PAT_VMASPLIT:
		snprintf(buf, len, "vmasplit:%" PRIu64, p->arg);
		break;
	case PAT_RANDOM:
		ip = p->arg / RANDOM_PCT_SCALE;
		frac = p->arg % RANDOM_PCT_SCALE;
		if (!frac) {
			snprintf(buf, len, "random:%" PRIu64, ip);
			break;
		}
		n = snprintf(buf, len, "random:%" PRIu64 ".%06" PRIu64, ip,
			     frac);
		/* drop trailing zeros of the decimals */
		if (n > 0 && (size_t)n < len)
			while (buf[n - 1] == '0')
				buf[--n] = '\0';
		break;
	default:
		snprintf(buf, len, "?");
	}
	return buf;
}

static const struct {
	const char *name;
	enum advice advice;
} advice_names[] = {
	{ "normal", ADV_NORMAL },
	{ "huge", ADV_HUGE },
	{ "seq", ADV_SEQ },
	{ "random", ADV_RANDOM },
	{ "willneed", ADV_WILLNEED },
	/* aliases, accepted but never printed */
	{ "hugepage", ADV_HUGE },
	{ "sequential", ADV_SEQ },
};

int parse_advice(const char *s, enum advice *a)
{
	size_t i;

	for (i = 0; i < sizeof(advice_names) / sizeof(advice_names[0]); i++) {
		if (!strcmp(s, advice_names[i].name)) {
			*a = advice_names[i].advice;
			return 0;
		}
	}
	return -EINVAL;
}

const char *advice_name(enum advice a)
{
	size_t i;

	for (i = 0; i < sizeof(advice_names) / sizeof(advice_names[0]); i++)
		if (advice_names[i].advice == a)
			return advice_names[i].name;
	return "?";
}

/*
 * Options that take a value accept "--opt VALUE" and "--opt=VALUE".
 * Returns the value, or NULL with err set.
 */
static const char *opt_value(int argc, char **argv, int *i, const char *name,
			     const char *eq, char *err, size_t errlen)
{
	if (eq)
		return eq + 1;
	if (*i + 1 >= argc) {
		errf(err, errlen, "option %s needs a value", name);
		return NULL;
	}
	return argv[++*i];
}

/* Which walk-only options were given, for the --create check. */
#define SEEN_WALK_OPT	1
#define SEEN_FORCE	2

static int parse_one_opt(int argc, char **argv, int *i, struct rawalk_opts *o,
			 unsigned int *seen, char *err, size_t errlen)
{
	const char *arg = argv[*i], *eq = strchr(arg, '='), *v;
	char name[32];
	size_t nlen = eq ? (size_t)(eq - arg) : strlen(arg);
	uint64_t n;
	int ret;

	if (nlen >= sizeof(name)) {
		errf(err, errlen, "unknown option '%s' (see --help)", arg);
		return RAWALK_USAGE;
	}
	memcpy(name, arg, nlen);
	name[nlen] = '\0';

	if (!strcmp(name, "--help") || !strcmp(name, "-h") ||
	    !strcmp(name, "--version") || !strcmp(name, "-V") ||
	    !strcmp(name, "--cold") || !strcmp(name, "--warm") ||
	    !strcmp(name, "--json") || !strcmp(name, "--force") ||
	    !strcmp(name, "--folio-orders")) {
		if (eq) {
			errf(err, errlen, "option %s takes no value", name);
			return RAWALK_USAGE;
		}
		if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
			o->action = ACT_HELP;
		} else if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
			o->action = ACT_VERSION;
		} else if (!strcmp(name, "--cold")) {
			o->cold = true;
			*seen |= SEEN_WALK_OPT;
		} else if (!strcmp(name, "--warm")) {
			o->cold = false;
			*seen |= SEEN_WALK_OPT;
		} else if (!strcmp(name, "--json")) {
			o->json = true;
		} else if (!strcmp(name, "--folio-orders")) {
			o->folio_orders = true;
			*seen |= SEEN_WALK_OPT;
		} else {
			o->force = true;
			*seen |= SEEN_FORCE;
		}
		return RAWALK_OK;
	}

	if (!strcmp(name, "--pattern")) {
		v = opt_value(argc, argv, i, name, eq, err, errlen);
		if (!v || parse_pattern(v, &o->pattern, err, errlen))
			return RAWALK_USAGE;
		*seen |= SEEN_WALK_OPT;
	} else if (!strcmp(name, "--advice")) {
		v = opt_value(argc, argv, i, name, eq, err, errlen);
		if (!v)
			return RAWALK_USAGE;
		if (parse_advice(v, &o->advice)) {
			errf(err, errlen, "unknown advice '%s'; advice: " ADVICES,
			     v);
			return RAWALK_USAGE;
		}
		*seen |= SEEN_WALK_OPT;
	} else if (!strcmp(name, "--seed")) {
		v = opt_value(argc, argv, i, name, eq, err, errlen);
		if (!v)
			return RAWALK_USAGE;
		if (parse_u64(v, &o->seed)) {
			errf(err, errlen,
			     "--seed '%s': expected a decimal number from 0 to %" PRIu64,
			     v, UINT64_MAX);
			return RAWALK_USAGE;
		}
	} else if (!strcmp(name, "--read-ahead-kb")) {
		v = opt_value(argc, argv, i, name, eq, err, errlen);
		if (!v)
			return RAWALK_USAGE;
		ret = parse_u64(v, &n);
		if (ret || n > UINT32_MAX) {
			errf(err, errlen,
			     "--read-ahead-kb '%s': expected a decimal number of KiB from 0 to %u",
			     v, UINT32_MAX);
			return RAWALK_USAGE;
		}
		o->read_ahead_kb = (int64_t)n;
		*seen |= SEEN_WALK_OPT;
	} else if (!strcmp(name, "--memcg-limit")) {
		v = opt_value(argc, argv, i, name, eq, err, errlen);
		if (!v)
			return RAWALK_USAGE;
		ret = parse_size(v, &n);
		if (ret || n == 0 || n > INT64_MAX) {
			errf(err, errlen,
			     "--memcg-limit '%s': expected a byte count > 0 with an optional K, M, G or T suffix",
			     v);
			return RAWALK_USAGE;
		}
		o->memcg_limit = n;
		*seen |= SEEN_WALK_OPT;
	} else if (!strcmp(name, "--repeat") || !strcmp(name, "--jobs")) {
		bool rep = !strcmp(name, "--repeat");

		v = opt_value(argc, argv, i, name, eq, err, errlen);
		if (!v)
			return RAWALK_USAGE;
		if (parse_u64(v, &n) || n < 1 || n > (rep ? 1000 : 64)) {
			errf(err, errlen, "%s '%s': expected a number from 1 to %d",
			     name, v, rep ? 1000 : 64);
			return RAWALK_USAGE;
		}
		if (rep)
			o->repeat = (unsigned int)n;
		else
			o->jobs = (unsigned int)n;
		*seen |= SEEN_WALK_OPT;
	} else if (!strcmp(name, "--create")) {
		v = opt_value(argc, argv, i, name, eq, err, errlen);
		if (!v)
			return RAWALK_USAGE;
		ret = parse_size(v, &n);
		if (ret || n == 0 || n > INT64_MAX) {
			errf(err, errlen,
			     "--create '%s': expected a size > 0 in bytes with an optional K, M, G or T suffix",
			     v);
			return RAWALK_USAGE;
		}
		o->create_size = n;
		o->action = ACT_CREATE;
	} else {
		errf(err, errlen, "unknown option '%s' (see --help)", name);
		return RAWALK_USAGE;
	}
	return RAWALK_OK;
}

int rawalk_parse_args(int argc, char **argv, struct rawalk_opts *o,
		      char *err, size_t errlen)
{
	enum rawalk_action final;
	bool opts_done = false;
	unsigned int seen = 0;
	int i, ret, nfiles = 0;

	rawalk_opts_init(o);
	if (err && errlen)
		err[0] = '\0';
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!opts_done && !strcmp(a, "--")) {
			opts_done = true;
			continue;
		}
		if (!opts_done && a[0] == '-' && a[1] != '\0') {
			ret = parse_one_opt(argc, argv, &i, o, &seen, err,
					    errlen);
			if (ret)
				return ret;
			continue;
		}
		if (nfiles++) {
			errf(err, errlen,
			     "one FILE only, got '%s' and '%s'", o->file, a);
			return RAWALK_USAGE;
		}
		o->file = a;
	}

	final = o->action;
	if (final == ACT_HELP || final == ACT_VERSION)
		return RAWALK_OK;
	if (!o->file) {
		errf(err, errlen, "missing FILE (see --help)");
		return RAWALK_USAGE;
	}
	if (!o->file[0]) {
		errf(err, errlen, "FILE is an empty string");
		return RAWALK_USAGE;
	}
	if (final == ACT_CREATE && (seen & SEEN_WALK_OPT)) {
		errf(err, errlen,
		     "--create only takes --force and --seed; walk FILE in a second run");
		return RAWALK_USAGE;
	}
	if (final != ACT_CREATE && (seen & SEEN_FORCE)) {
		errf(err, errlen, "--force only applies to --create");
		return RAWALK_USAGE;
	}
	return RAWALK_OK;
}

/* splitmix64, Steele, Lea and Flood 2014; public-domain constants */
void rng_seed(struct rng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t rng_below(struct rng *r, uint64_t bound)
{
	/* reject the low (2^64 mod bound) values, then the rest is uniform */
	uint64_t threshold = (0 - bound) % bound;
	uint64_t x;

	do {
		x = rng_next(r);
	} while (x < threshold);
	return x % bound;
}

uint64_t random_page_count(uint64_t npages, uint64_t pct_scaled)
{
	unsigned __int128 k;
	const uint64_t div = 100 * RANDOM_PCT_SCALE;

	k = ((unsigned __int128)npages * pct_scaled + div / 2) / div;
	if (k == 0)
		k = 1;
	if (k > npages)
		k = npages;
	return (uint64_t)k;
}

uint64_t *random_pages(uint64_t npages, uint64_t k, uint64_t seed)
{
	uint64_t *pages, *bitmap, j, t, n = 0, i;
	struct rng r;

	if (k > npages || k == 0 || npages > SIZE_MAX / 8)
		return NULL;
	pages = malloc(k * sizeof(*pages));
	bitmap = calloc(npages / 64 + 1, sizeof(*bitmap));
	if (!pages || !bitmap) {
		free(pages);
		free(bitmap);
		return NULL;
	}
	rng_seed(&r, seed);
	/* Floyd: a uniformly chosen k-subset in k steps */
	for (j = npages - k; j < npages; j++) {
		t = rng_below(&r, j + 1);
		if (bitmap[t / 64] & (1ULL << (t % 64)))
			t = j;
		bitmap[t / 64] |= 1ULL << (t % 64);
		pages[n++] = t;
	}
	free(bitmap);
	/* Floyd's order is not random: shuffle (Fisher-Yates) */
	for (i = k - 1; i > 0; i--) {
		j = rng_below(&r, i + 1);
		t = pages[i];
		pages[i] = pages[j];
		pages[j] = t;
	}
	return pages;
}

/* "7f12-7f34 r--p ..." -> start, end; 0 if the line is no VMA header */
static int smaps_header(const char *line, uintptr_t *start, uintptr_t *end)
{
	unsigned long long s, e;
	char *p;

	if (!isxdigit((unsigned char)line[0]))
		return 0;
	errno = 0;
	s = strtoull(line, &p, 16);
	if (errno || *p != '-' || !isxdigit((unsigned char)p[1]))
		return 0;
	e = strtoull(p + 1, &p, 16);
	if (errno || *p != ' ')
		return 0;
	*start = (uintptr_t)s;
	*end = (uintptr_t)e;
	return 1;
}

/* "Rss:   1234 kB" -> 1234; -EINVAL if malformed */
static int smaps_kb(const char *v, uint64_t *out)
{
	unsigned long long n;
	char *end;

	while (*v == ' ' || *v == '\t')
		v++;
	if (!isdigit((unsigned char)*v))
		return -EINVAL;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || strncmp(end, " kB", 3))
		return -EINVAL;
	*out = n;
	return 0;
}

int parse_smaps(const char *text, uintptr_t lo, uintptr_t hi,
		struct smaps_sum *out)
{
	const char *line = text, *nl;
	uintptr_t start, end;
	bool in = false;
	uint64_t kb;

	memset(out, 0, sizeof(*out));
	for (; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (smaps_header(line, &start, &end)) {
			in = start < hi && end > lo;
			if (in)
				out->vmas++;
			continue;
		}
		if (!in)
			continue;
		if (!strncmp(line, "Rss:", 4)) {
			if (smaps_kb(line + 4, &kb))
				return -EINVAL;
			out->rss_kb += kb;
		} else if (!strncmp(line, "FilePmdMapped:", 14)) {
			if (smaps_kb(line + 14, &kb))
				return -EINVAL;
			out->file_pmd_mapped_kb += kb;
		}
	}
	return 0;
}

int parse_blkstat(const char *text, struct blkstat *out)
{
	unsigned long long f[3];
	const char *p = text;
	char *end;
	int i;

	for (i = 0; i < 3; i++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		errno = 0;
		f[i] = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		if (*end != ' ' && *end != '\t' && *end != '\n' && *end)
			return -EINVAL;
		p = end;
	}
	out->ios_read = f[0];
	out->sectors_read = f[2];
	return 0;
}

/* Copy a mountinfo field, undoing the \ooo escapes; returns the field end. */
static const char *mi_field(const char *p, char *out, size_t len)
{
	size_t n = 0;

	while (*p == ' ')
		p++;
	while (*p && *p != ' ' && *p != '\n') {
		char c = *p++;

		if (c == '\\' && p[0] >= '0' && p[0] <= '3' &&
		    p[1] >= '0' && p[1] <= '7' && p[2] >= '0' && p[2] <= '7') {
			c = (char)((p[0] - '0') * 64 + (p[1] - '0') * 8 +
				   (p[2] - '0'));
			p += 3;
		}
		if (n + 1 < len)
			out[n++] = c;
	}
	if (len)
		out[n] = '\0';
	return p;
}

int find_cgroup2_mount(const char *mountinfo, char *out, size_t len)
{
	const char *line = mountinfo, *nl, *p, *sep;
	char mnt[4096], fstype[64], skip[4096];
	bool found = false;
	int i;

	for (; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		/* id parent maj:min root mountpoint ... - fstype source opts */
		p = line;
		for (i = 0; i < 4; i++)
			p = mi_field(p, skip, sizeof(skip));
		mi_field(p, mnt, sizeof(mnt));
		sep = strstr(line, " - ");
		if (!sep || (nl && sep > nl))
			continue;
		mi_field(sep + 3, fstype, sizeof(fstype));
		if (strcmp(fstype, "cgroup2"))
			continue;
		if (!strcmp(mnt, "/sys/fs/cgroup")) {
			snprintf(out, len, "%s", mnt);
			return 0;
		}
		if (!found) {
			snprintf(out, len, "%s", mnt);
			found = true;
		}
	}
	return found ? 0 : -ENOENT;
}

int find_cgroup2_path(const char *proc_cgroup, char *out, size_t len)
{
	const char *line = proc_cgroup, *nl;
	size_t n;

	for (; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (strncmp(line, "0::", 3))
			continue;
		n = nl ? (size_t)(nl - line - 3) : strlen(line + 3);
		if (n + 1 > len)
			return -ENAMETOOLONG;
		memcpy(out, line + 3, n);
		out[n] = '\0';
		return 0;
	}
	return -ENOENT;
}

#define KPF(bit)	(1ULL << (bit))
#define KPF_CHUNK	512

/* Pages of the largest folio count_folio_orders() accepts */
#define FOLIO_MAX_PAGES	(1ULL << (FOLIO_ORDERS - 1))

/* The kpageflags words of PFNs [pfn, pfn + n), all of them or -EINVAL */
static int kpf_read_all(kpageflags_read_fn read, void *ctx, uint64_t pfn,
			uint64_t *out, size_t n)
{
	long got = read(ctx, pfn, out, n);

	if (got < 0)
		return (int)got;
	return (size_t)got == n ? 0 : -EINVAL;
}

/* The folio that holds pfn: its head PFN and its order */
static int find_folio(kpageflags_read_fn read, void *ctx, uint64_t pfn,
		      uint64_t *head, unsigned int *order)
{
	uint64_t buf[KPF_CHUNK], flags, h = pfn, nr, lo;
	long got, i;
	int ret;

	ret = kpf_read_all(read, ctx, pfn, &flags, 1);
	if (ret)
		return ret;
	if (!(flags & (KPF(KPF_COMPOUND_HEAD) | KPF(KPF_COMPOUND_TAIL)))) {
		*head = pfn;
		*order = 0;
		return 0;
	}
	/* a tail page: back to the head, a chunk of PFNs at a time */
	while (!(flags & KPF(KPF_COMPOUND_HEAD))) {
		if (h == 0 || pfn - h + 1 >= FOLIO_MAX_PAGES)
			return -EINVAL;
		lo = h > KPF_CHUNK ? h - KPF_CHUNK : 0;
		ret = kpf_read_all(read, ctx, lo, buf, (size_t)(h - lo));
		if (ret)
			return ret;
		for (i = (long)(h - lo) - 1; i >= 0; i--) {
			h = lo + (uint64_t)i;
			flags = buf[i];
			if (flags & KPF(KPF_COMPOUND_HEAD))
				break;
			if (!(flags & KPF(KPF_COMPOUND_TAIL)))
				return -EINVAL;
		}
	}
	/* a large page-cache folio, not hugetlb or some other compound page */
	if (!(flags & KPF(KPF_THP)))
		return -EINVAL;
	/* the tail pages after the head */
	nr = 1;
	for (;;) {
		got = read(ctx, h + nr, buf, KPF_CHUNK);
		if (got < 0)
			return (int)got;
		for (i = 0; i < got; i++) {
			if (!(buf[i] & KPF(KPF_COMPOUND_TAIL)) ||
			    (buf[i] & KPF(KPF_COMPOUND_HEAD)))
				break;
			nr++;
		}
		if (i < got || got < KPF_CHUNK)
			break;
		if (nr >= FOLIO_MAX_PAGES)
			return -EINVAL;
	}
	if (nr < 2 || (nr & (nr - 1)) || nr > FOLIO_MAX_PAGES ||
	    pfn >= h + nr)
		return -EINVAL;
	*head = h;
	*order = (unsigned int)__builtin_ctzll(nr);
	return 0;
}

int count_folio_orders(const uint64_t *pagemap, size_t npages,
		       kpageflags_read_fn read, void *ctx,
		       struct folio_orders *out)
{
	uint64_t head = 0, nr = 0, pfn;
	unsigned int order;
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < npages; i++) {
		if (!(pagemap[i] & PM_PRESENT))
			continue;
		pfn = pagemap[i] & PM_PFN_MASK;
		if (!pfn)
			return -EPERM;
		out->pages_mapped++;
		/*
		 * The pages of a folio sit at consecutive file offsets, so
		 * at consecutive addresses of a file mapping: a folio met
		 * before is the last one met.
		 */
		if (pfn >= head && pfn - head < nr)
			continue;
		ret = find_folio(read, ctx, pfn, &head, &order);
		if (ret)
			return ret;
		nr = 1ULL << order;
		out->folios[order]++;
	}
	return 0;
}

char *format_folio_orders(const struct folio_orders *h, char *buf,
			  size_t len)
{
	size_t used = 0;
	unsigned int o;
	int n;

	if (len)
		buf[0] = '\0';
	for (o = 0; o < FOLIO_ORDERS; o++) {
		if (!h->folios[o])
			continue;
		n = snprintf(buf + used, len - used, "%s%u:%" PRIu64,
			     used ? " " : "", o, h->folios[o]);
		if (n < 0 || (size_t)n >= len - used)
			return buf;
		used += (size_t)n;
	}
	if (!used)
		snprintf(buf, len, "none");
	return buf;
}

/* A JSON string of s; bytes that are not UTF-8 become '?' */
static json_t *jstr(const char *s)
{
	json_t *j = json_string(s);
	char *copy;

	if (j)
		return j;
	copy = strdup(s);
	for (char *p = copy; p && *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy ? copy : "?");
	free(copy);
	return j;
}

/* The report as one JSON object, in the order of the text report */
static json_t *report_json(const struct report *r)
{
	json_t *o = json_object(), *orders = json_object();
	char pat[64], key[8];

#define STR(k, v) json_object_set_new(o, k, jstr(v))
#define NUM(k, v) json_object_set_new(o, k, json_integer((json_int_t)(v)))
#define OPT(k, v) json_object_set_new(o, k, (v) < 0 ? json_null() : json_integer(v))
	STR("file", r->file ? r->file : "");
	STR("pattern", format_pattern(&r->pattern, pat, sizeof(pat)));
	STR("advice", advice_name(r->advice));
	STR("cache", r->cold ? "cold" : "warm");
	NUM("seed", r->seed);
	NUM("file_bytes", r->file_bytes);
	NUM("pages_touched", r->pages_touched);
	NUM("major_faults", r->major_faults);
	NUM("minor_faults", r->minor_faults);
	OPT("sectors_read", r->sectors_read);
	OPT("ios_read", r->ios_read);
	NUM("file_pmd_mapped_kb", r->file_pmd_mapped_kb);
	NUM("rss_kb", r->rss_kb);
	NUM("file_vmas", r->file_vmas);
	OPT("pages_cached_before", r->cached_known ? (int64_t)r->pages_cached_before : -1);
	OPT("read_bytes", r->read_bytes);
	OPT("read_ahead_kb", r->read_ahead_kb);
	OPT("memcg_limit_bytes", r->memcg_limit_bytes);
	for (unsigned int i = 0; r->has_folio_orders && i < FOLIO_ORDERS; i++) {
		snprintf(key, sizeof(key), "%u", i);
		if (r->folio_orders.folios[i])
			json_object_set_new(orders, key, json_integer((json_int_t)r->folio_orders.folios[i]));
	}
	if (r->has_folio_orders)
		json_object_set(o, "folio_orders", orders);
	json_decref(orders);
	json_object_set_new(o, "wall_ms", json_real(r->wall_ms));
	json_object_set_new(o, "cpu_ms", json_real(r->cpu_ms));
	if (r->repeat > 1) {
		NUM("repeat", r->repeat);
		json_object_set_new(o, "wall_ms_min", json_real(r->wall_ms_min));
		json_object_set_new(o, "wall_ms_median", json_real(r->wall_ms_median));
		json_object_set_new(o, "cpu_ms_min", json_real(r->cpu_ms_min));
		json_object_set_new(o, "cpu_ms_median", json_real(r->cpu_ms_median));
		NUM("major_faults_min", r->major_faults_min);
		NUM("major_faults_median", r->major_faults_median);
		OPT("read_bytes_min", r->read_bytes_min);
		OPT("read_bytes_median", r->read_bytes_median);
	}
#undef STR
#undef NUM
#undef OPT
	return o;
}

/* One "key: value" per line (through jansson, JSON: one object, one line */
void report_print(FILE *f, const struct report *r, bool json)
{
	json_t *o = report_json(r), *v;
	char buf[FOLIO_ORDERS * 26];
	const char *k;

	if (json) {
		json_dumpf(o, f, JSON_COMPACT | JSON_REAL_PRECISION(12));
		fputc('\n', f);
		json_decref(o);
		return;
	}
	json_object_foreach(o, k, v) {
		if (!strcmp(k, "folio_orders"))
			fprintf(f, "%s: %s\n", k, format_folio_orders(&r->folio_orders, buf, sizeof(buf)));
		else if (!strcmp(k, "file")) {
			fputs("file: ", f);
			fputs_esc(r->file ? r->file : "", f);
			fputc('\n', f);
		} else if (json_is_string(v))
			fprintf(f, "%s: %s\n", k, json_string_value(v));
		else if (json_is_real(v))
			fprintf(f, "%s: %.3f\n", k, json_real_value(v));
		else if (json_is_null(v))
			fprintf(f, "%s: %s\n", k, strcmp(k, "pages_cached_before") ? "-1" : "unknown");
		else
			fprintf(f, "%s: %" PRId64 "\n", k, (int64_t)json_integer_value(v));
	}
	json_decref(o);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The lower median of n values, sorted in place */
static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[(n - 1) / 2];
}

void report_summarise(struct report *r, const struct report *rs, unsigned int n)
{
	double w[1000], c[1000], m[1000], b[1000];

	for (unsigned int i = 0; i < n && i < 1000; i++) {
		w[i] = rs[i].wall_ms;
		c[i] = rs[i].cpu_ms;
		m[i] = (double)rs[i].major_faults;
		b[i] = (double)rs[i].read_bytes;
	}
	r->repeat = n;
	r->wall_ms_median = median(w, n);
	r->wall_ms_min = w[0];
	r->cpu_ms_median = median(c, n);
	r->cpu_ms_min = c[0];
	r->major_faults_median = (uint64_t)median(m, n);
	r->major_faults_min = (uint64_t)m[0];
	r->read_bytes_median = (int64_t)median(b, n);
	r->read_bytes_min = (int64_t)b[0];
}
