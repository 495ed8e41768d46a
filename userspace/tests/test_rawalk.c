// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of rawalk, TAP output.
 *
 *   test_rawalk [BINDIR]
 *
 * The parser, PRNG and report tests call the library directly; the
 * end-to-end tests run rawalk in-process on a file in $TMPDIR (default
 * /tmp) and, when BINDIR is given, run BINDIR/rawalk as a program.
 * Exits 1 if any test failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rawalk.h"
#include "util.h"

#include "tests/tap.h"

/* ------------------------------------------------------------------ */

static void test_parse_u64(void)
{
	uint64_t v = 0;

	ok(!parse_u64("0", &v) && v == 0, "parse_u64 0");
	ok(!parse_u64("18446744073709551615", &v) && v == UINT64_MAX,
	   "parse_u64 UINT64_MAX");
	ok(parse_u64("18446744073709551616", &v) == -ERANGE,
	   "parse_u64 overflow is -ERANGE");
	ok(parse_u64("", &v) == -EINVAL, "parse_u64 rejects empty");
	ok(parse_u64("-1", &v) == -EINVAL, "parse_u64 rejects -1");
	ok(parse_u64("+1", &v) == -EINVAL, "parse_u64 rejects +1");
	ok(parse_u64(" 1", &v) == -EINVAL, "parse_u64 rejects leading space");
	ok(parse_u64("1x", &v) == -EINVAL, "parse_u64 rejects trailing junk");
	ok(parse_u64("0x10", &v) == -EINVAL, "parse_u64 rejects hex");
}

static void test_parse_size(void)
{
	static const struct {
		const char *s;
		uint64_t v;
	} good[] = {
		{ "4096", 4096 }, { "4K", 4096 }, { "4k", 4096 },
		{ "64M", 64ULL << 20 }, { "1G", 1ULL << 30 },
		{ "1GiB", 1ULL << 30 }, { "2MB", 2ULL << 20 },
		{ "1T", 1ULL << 40 }, { "0", 0 },
	};
	static const char *const bad[] = {
		"", "K", "1Q", "1KB7", "-1", "1 K", "1.5G", "1Ki", "0x1000",
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		v = 12345;
		ok(!parse_size(good[i].s, &v) && v == good[i].v,
		   "parse_size '%s'", good[i].s);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(parse_size(bad[i], &v) == -EINVAL,
		   "parse_size rejects '%s'", bad[i]);
	ok(parse_size("17179869184G", &v) == -ERANGE,
	   "parse_size overflow (2^64) is -ERANGE");
	ok(parse_size("99999999999999999999", &v) == -ERANGE,
	   "parse_size strtoull overflow is -ERANGE");
}

static void test_parse_percent(void)
{
	uint64_t v;

	ok(!parse_percent("1", &v) && v == 1000000, "percent 1");
	ok(!parse_percent("0.5", &v) && v == 500000, "percent 0.5");
	ok(!parse_percent("100", &v) && v == 100000000, "percent 100");
	ok(!parse_percent("12.345678", &v) && v == 12345678,
	   "percent with 6 decimals");
	ok(!parse_percent("0.000001", &v) && v == 1, "percent 0.000001");
	ok(parse_percent("1.2345678", &v) == -EINVAL,
	   "percent rejects 7 decimals");
	ok(parse_percent(".", &v) == -EINVAL, "percent rejects '.'");
	ok(parse_percent("1.", &v) == -EINVAL, "percent rejects '1.'");
	ok(parse_percent(".5", &v) == -EINVAL, "percent rejects '.5'");
	ok(parse_percent("", &v) == -EINVAL, "percent rejects empty");
	ok(parse_percent("1e3", &v) == -EINVAL, "percent rejects 1e3");
	ok(parse_percent("-1", &v) == -EINVAL, "percent rejects -1");
}

static void test_parse_pattern(void)
{
	static const char *const good[] = {
		"reverse", "forward", "memcpy", "memcpy-forward", "stride:1",
		"stride:64",
		"random:1", "random:0.5", "random:100", "random:0.000001",
		"vmasplit:1", "vmasplit:64",
	};
	static const char *const bad[] = {
		"", "backward", "reverse:1", "stride", "stride:", "stride:0",
		"stride:x", "stride:-1", "stride:1.5", "random", "random:",
		"random:0", "random:0.0", "random:100.5", "random:101",
		"random:abc", "vmasplit", "vmasplit:0", "memcpy:1", "REVERSE",
		"memcpy-forward:1", "memcpy-backward",
		"stride:99999999999999999999",
	};
	char err[256], buf[64];
	struct pattern p;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int r = parse_pattern(good[i], &p, err, sizeof(err));

		format_pattern(&p, buf, sizeof(buf));
		ok(!r && !strcmp(buf, good[i]), "pattern '%s' round-trips",
		   good[i]);
	}
	ok(!parse_pattern("random:0.50", &p, err, sizeof(err)) &&
	   !strcmp(format_pattern(&p, buf, sizeof(buf)), "random:0.5"),
	   "pattern random:0.50 prints as random:0.5");
	ok(!parse_pattern("stride:7", &p, err, sizeof(err)) &&
	   p.kind == PAT_STRIDE && p.arg == 7, "stride:7 parses to 7");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ok(parse_pattern(bad[i], &p, err, sizeof(err)) == -EINVAL &&
		   err[0], "pattern '%s' rejected: %s", bad[i], err);
	}
	parse_pattern("backward", &p, err, sizeof(err));
	ok(strstr(err, "reverse") && strstr(err, "vmasplit:K") &&
	   strstr(err, "memcpy"), "unknown pattern lists the patterns");
	parse_pattern("random:101", &p, err, sizeof(err));
	ok(strstr(err, "(0, 100]") != NULL, "random range named in error");
}

static void test_parse_advice(void)
{
	static const char *const names[] = {
		"normal", "huge", "seq", "random", "willneed",
	};
	enum advice a;
	size_t i;

	for (i = 0; i < 5; i++)
		ok(!parse_advice(names[i], &a) &&
		   !strcmp(advice_name(a), names[i]), "advice '%s'", names[i]);
	ok(!parse_advice("hugepage", &a) && a == ADV_HUGE,
	   "advice alias hugepage");
	ok(parse_advice("dontneed", &a) == -EINVAL, "advice dontneed rejected");
	ok(parse_advice("", &a) == -EINVAL, "advice empty rejected");
}

static int parse(struct rawalk_opts *o, char *err, size_t errlen, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;

	argv[argc++] = (char *)"rawalk";
	va_start(ap, errlen);
	while (argc < 31 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	return rawalk_parse_args(argc, argv, o, err, errlen);
}

#define P(...) parse(&o, err, sizeof(err), __VA_ARGS__, (char *)NULL)

static void test_parse_args(void)
{
	struct rawalk_opts o;
	char err[256];

	ok(P("f") == 0 && o.action == ACT_RUN && o.pattern.kind == PAT_REVERSE &&
	   o.advice == ADV_NORMAL && o.cold && !o.json && o.seed == 1 &&
	   o.read_ahead_kb == -1 && o.memcg_limit == 0 && !strcmp(o.file, "f"),
	   "defaults");
	ok(P("--pattern", "stride:8", "--advice", "huge", "--warm", "--json",
	     "--seed", "42", "--read-ahead-kb", "8192", "--memcg-limit",
	     "512M", "f") == 0 &&
	   o.pattern.kind == PAT_STRIDE && o.pattern.arg == 8 &&
	   o.advice == ADV_HUGE && !o.cold && o.json && o.seed == 42 &&
	   o.read_ahead_kb == 8192 && o.memcg_limit == 512ULL << 20,
	   "all walk options");
	ok(P("--pattern=forward", "--advice=seq", "f") == 0 &&
	   o.pattern.kind == PAT_FORWARD && o.advice == ADV_SEQ,
	   "--opt=value form");
	ok(P("--warm", "--cold", "f") == 0 && o.cold, "last of --warm/--cold wins");
	ok(P("f") == 0 && !o.folio_orders && P("--folio-orders", "f") == 0 &&
	   o.folio_orders, "--folio-orders");
	ok(P("--folio-orders=1", "f") == RAWALK_USAGE,
	   "--folio-orders takes no value");
	ok(P("--create", "1M", "--folio-orders", "f") == RAWALK_USAGE,
	   "--create with --folio-orders");
	ok(P("--read-ahead-kb", "0", "f") == 0 && o.read_ahead_kb == 0,
	   "--read-ahead-kb 0");
	ok(P("--", "-f") == 0 && !strcmp(o.file, "-f"), "-- ends options");
	ok(P("--help") == 0 && o.action == ACT_HELP, "--help");
	ok(P("-h") == 0 && o.action == ACT_HELP, "-h");
	ok(P("--version") == 0 && o.action == ACT_VERSION, "--version");
	ok(P("--create", "64M", "f") == 0 && o.action == ACT_CREATE &&
	   o.create_size == 64ULL << 20, "--create 64M");
	ok(P("--create", "1M", "--force", "--seed", "3", "f") == 0 && o.force &&
	   o.seed == 3, "--create with --force and --seed");

	ok(parse(&o, err, sizeof(err), (char *)NULL) == RAWALK_USAGE &&
	   strstr(err, "missing FILE"), "no FILE: usage error");
	ok(P("a", "b") == RAWALK_USAGE && strstr(err, "one FILE"),
	   "two FILEs: usage error");
	ok(P("--bogus", "f") == RAWALK_USAGE && strstr(err, "--bogus"),
	   "unknown option named: %s", err);
	ok(P("--pattern") == RAWALK_USAGE && strstr(err, "needs a value"),
	   "--pattern without value");
	ok(P("--pattern", "sideways", "f") == RAWALK_USAGE &&
	   strstr(err, "reverse, forward"), "bad pattern lists patterns");
	ok(P("--advice", "fast", "f") == RAWALK_USAGE &&
	   strstr(err, "normal, huge, seq, random, willneed"),
	   "bad advice lists advice: %s", err);
	ok(P("--seed", "x", "f") == RAWALK_USAGE, "bad --seed");
	ok(P("--seed", "-1", "f") == RAWALK_USAGE, "negative --seed");
	ok(P("--read-ahead-kb", "-1", "f") == RAWALK_USAGE,
	   "negative --read-ahead-kb");
	ok(P("--read-ahead-kb", "4294967296", "f") == RAWALK_USAGE,
	   "huge --read-ahead-kb");
	ok(P("--memcg-limit", "0", "f") == RAWALK_USAGE, "--memcg-limit 0");
	ok(P("--memcg-limit", "12X", "f") == RAWALK_USAGE, "--memcg-limit 12X");
	ok(P("--create", "0", "f") == RAWALK_USAGE, "--create 0");
	ok(P("--create", "1.5G", "f") == RAWALK_USAGE, "--create 1.5G");
	ok(P("--create", "1M", "--pattern", "forward", "f") == RAWALK_USAGE,
	   "--create with a walk option");
	ok(P("--force", "f") == RAWALK_USAGE, "--force without --create");
	ok(P("--json=yes", "f") == RAWALK_USAGE, "--json=yes");
	ok(P("", "--warm") == RAWALK_USAGE, "empty FILE");
}

static void test_rng(void)
{
	struct rng a, b;
	uint64_t counts[10] = { 0 }, x;
	int i, same = 1, differ = 0, inrange = 1, uniform = 1;

	rng_seed(&a, 1);
	rng_seed(&b, 1);
	for (i = 0; i < 1000; i++)
		same &= rng_next(&a) == rng_next(&b);
	ok(same, "rng: same seed, same sequence");
	rng_seed(&a, 1);
	rng_seed(&b, 2);
	for (i = 0; i < 100; i++)
		differ += rng_next(&a) != rng_next(&b);
	ok(differ == 100, "rng: different seeds, different sequences");
	rng_seed(&a, 0);
	ok(rng_next(&a) == 0xe220a8397b1dcdafULL,
	   "rng: splitmix64 reference value for seed 0");
	rng_seed(&a, 7);
	for (i = 0; i < 100000; i++) {
		x = rng_below(&a, 10);
		inrange &= x < 10;
		if (x < 10)
			counts[x]++;
	}
	for (i = 0; i < 10; i++)
		uniform &= counts[i] > 9500 && counts[i] < 10500;
	ok(inrange, "rng_below stays below its bound");
	ok(uniform, "rng_below(10) is roughly uniform");
	rng_seed(&a, 7);
	ok(rng_below(&a, 1) == 0, "rng_below(1) is 0");
}

static int distinct_below(const uint64_t *p, uint64_t k, uint64_t n)
{
	unsigned char *seen = calloc(n, 1);
	uint64_t i;
	int good = seen != NULL;

	for (i = 0; good && i < k; i++) {
		if (p[i] >= n || seen[p[i]])
			good = 0;
		else
			seen[p[i]] = 1;
	}
	free(seen);
	return good;
}

static void test_random_pages(void)
{
	uint64_t *a, *b, *c, i;
	int sorted = 1;

	ok(random_page_count(16384, 1000000) == 164, "1%% of 16384 pages is 164");
	ok(random_page_count(16384, 500000) == 82, "0.5%% of 16384 pages is 82");
	ok(random_page_count(256, 1000000) == 3, "1%% of 256 pages is 3");
	ok(random_page_count(10, 1) == 1, "tiny percentage touches 1 page");
	ok(random_page_count(100, RANDOM_PCT_MAX) == 100, "100%% is all pages");
	ok(random_page_count(4194304, 1000000) == 41943,
	   "1%% of 16 GiB is 41943 pages");

	a = random_pages(1000, 100, 1);
	b = random_pages(1000, 100, 1);
	c = random_pages(1000, 100, 2);
	ok(a && b && c, "random_pages allocates");
	if (!a || !b || !c)
		goto out;
	ok(distinct_below(a, 100, 1000), "random pages are distinct and in range");
	ok(!memcmp(a, b, 100 * sizeof(*a)), "same seed, same pages, same order");
	ok(memcmp(a, c, 100 * sizeof(*a)) != 0, "different seed, different pages");
	for (i = 1; i < 100; i++)
		sorted &= a[i - 1] < a[i];
	ok(!sorted, "random pages come in random order");
	free(a);
	a = random_pages(4096, 4096, 5);
	ok(a && distinct_below(a, 4096, 4096), "k == npages is a permutation");
	free(b);
	b = random_pages(10, 11, 1);
	ok(b == NULL, "k > npages fails");
	free(c);
	c = random_pages(1, 1, 9);
	ok(c && c[0] == 0, "single page");
out:
	free(a);
	free(b);
	free(c);
}

static const char smaps_fixture[] =
"00400000-00401000 r--p 00000000 fe:01 1234                       /bin/x\n"
"Size:                  4 kB\n"
"Rss:                   4 kB\n"
"FilePmdMapped:         0 kB\n"
"VmFlags: rd mr mw me\n"
"7f0000000000-7f0000200000 r--p 00000000 fe:01 99                 /data/f\n"
"Size:               2048 kB\n"
"KernelPageSize:        4 kB\n"
"Rss:                2048 kB\n"
"Pss:                2048 kB\n"
"FilePmdMapped:      2048 kB\n"
"THPeligible:           1\n"
"VmFlags: rd mr mw me hg\n"
"7f0000200000-7f0000400000 rw-p 00200000 fe:01 99                 /data/f (deleted)\n"
"Size:               2048 kB\n"
"Rss:                 100 kB\n"
"FilePmdMapped:         0 kB\n"
"VmFlags: rd wr mr mw me hg\n"
"7f0000400000-7f0000600000 r--p 00400000 fe:01 99                 /data/with space\n"
"Size:               2048 kB\n"
"Rss:                  12 kB\n"
"FilePmdMapped:         0 kB\n"
"7fffffffe000-7ffffffff000 rw-p 00000000 00:00 0                  [stack]\n"
"Rss:                   8 kB\n"
"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0          [vsyscall]\n"
"Rss:                   0 kB\n";

static void test_smaps(void)
{
	struct smaps_sum s;
	int r;

	r = parse_smaps(smaps_fixture, 0x7f0000000000, 0x7f0000600000, &s);
	ok(!r && s.vmas == 3 && s.rss_kb == 2160 && s.file_pmd_mapped_kb == 2048,
	   "smaps: three VMAs summed (vmas %llu rss %llu pmd %llu)",
	   (unsigned long long)s.vmas, (unsigned long long)s.rss_kb,
	   (unsigned long long)s.file_pmd_mapped_kb);
	ok(!parse_smaps(smaps_fixture, 0x7f0000200000, 0x7f0000400000, &s) &&
	   s.vmas == 1 && s.rss_kb == 100 && s.file_pmd_mapped_kb == 0,
	   "smaps: one VMA of three");
	ok(!parse_smaps(smaps_fixture, 0x10000, 0x20000, &s) && s.vmas == 0 &&
	   s.rss_kb == 0, "smaps: no VMA in range");
	ok(!parse_smaps("", 0, 1, &s) && s.vmas == 0, "smaps: empty text");
	ok(parse_smaps("1000-2000 r--p 0 0:0 0\nRss: lots\n", 0, 0x3000, &s) ==
	   -EINVAL, "smaps: malformed Rss rejected");
	ok(!parse_smaps("1000-2000 r--p 0 0:0 0\nRss: 4 kB", 0, 0x3000, &s) &&
	   s.rss_kb == 4, "smaps: no trailing newline");
}

static void test_blkstat(void)
{
	struct blkstat b;

	ok(!parse_blkstat("   36242     8672  2932434    10321    44674   153473  7460600    88771        0    17824   104800     9894       26  1004112     2407     5554     3299\n",
			  &b) && b.ios_read == 36242 && b.sectors_read == 2932434,
	   "blkstat: fields 1 and 3");
	ok(!parse_blkstat("1 2 3", &b) && b.ios_read == 1 && b.sectors_read == 3,
	   "blkstat: three fields are enough");
	ok(parse_blkstat("1 2", &b) == -EINVAL, "blkstat: two fields rejected");
	ok(parse_blkstat("", &b) == -EINVAL, "blkstat: empty rejected");
	ok(parse_blkstat("1 x 3", &b) == -EINVAL, "blkstat: junk rejected");
}

static void test_cgroup_parsers(void)
{
	static const char hybrid[] =
		"26 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
		"30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
		"34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
		"40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
	static const char pure[] =
		"20 1 0:5 / /mnt/cg\\0402 rw shared:1 - cgroup2 none rw\n"
		"21 1 0:6 / /sys/fs/cgroup rw,nosuid shared:2 master:1 - cgroup2 cgroup2 rw,nsdelegate\n";
	static const char escaped[] =
		"20 1 0:5 / /mnt/cg\\0402 rw shared:1 - cgroup2 none rw\n";
	char out[256];

	ok(!find_cgroup2_mount(hybrid, out, sizeof(out)) &&
	   !strcmp(out, "/sys/fs/cgroup/unified"), "cgroup2 in a hybrid layout");
	ok(!find_cgroup2_mount(pure, out, sizeof(out)) &&
	   !strcmp(out, "/sys/fs/cgroup"), "/sys/fs/cgroup preferred");
	ok(!find_cgroup2_mount(escaped, out, sizeof(out)) &&
	   !strcmp(out, "/mnt/cg 2"), "mount point escapes undone");
	ok(find_cgroup2_mount("26 1 254:0 / / rw - ext4 /dev/vda rw\n", out,
			      sizeof(out)) == -ENOENT, "no cgroup2 mount");
	ok(!find_cgroup2_path("4:memory:/x\n0::/user.slice/a\n", out,
			      sizeof(out)) && !strcmp(out, "/user.slice/a"),
	   "/proc/self/cgroup v2 line");
	ok(find_cgroup2_path("4:memory:/x\n", out, sizeof(out)) == -ENOENT,
	   "/proc/self/cgroup without v2 line");
}

/* A fake /proc/kpageflags: one flags word per PFN of a small machine */
#define FAKE_PFNS	10000
#define F_HEAD		(1ULL << KPF_COMPOUND_HEAD)
#define F_TAIL		(1ULL << KPF_COMPOUND_TAIL)
#define F_THP		(1ULL << KPF_THP)

struct fake_kpf {
	uint64_t flags[FAKE_PFNS];
	uint64_t fail_pfn;		/* reading this PFN fails with -EIO */
	unsigned int reads;
};

static long fake_kpf_read(void *ctx, uint64_t pfn, uint64_t *out, size_t n)
{
	struct fake_kpf *k = ctx;
	size_t i;

	k->reads++;
	if (pfn >= FAKE_PFNS)
		return 0;
	if (n > FAKE_PFNS - pfn)
		n = FAKE_PFNS - pfn;
	if (k->fail_pfn && k->fail_pfn >= pfn && k->fail_pfn < pfn + n)
		return -EIO;
	for (i = 0; i < n; i++)
		out[i] = k->flags[pfn + i];
	return (long)n;
}

static void fake_folio(struct fake_kpf *k, uint64_t head, uint64_t nr,
		       uint64_t extra)
{
	uint64_t i;

	k->flags[head] = F_HEAD | extra;
	for (i = 1; i < nr; i++)
		k->flags[head + i] = F_TAIL | extra;
}

/* pagemap entries: PFN n present; -1 not present */
static size_t fake_pagemap(uint64_t *pm, size_t max, const long *pfns)
{
	size_t n;

	for (n = 0; n < max && pfns[n] != -2; n++)
		pm[n] = pfns[n] < 0 ? 0 : PM_PRESENT | (1ULL << 61) |
			(uint64_t)pfns[n];
	return n;
}

#define END_PFNS	-2

static void test_folio_orders(void)
{
	static struct fake_kpf k;
	static const long mixed[] = {
		/* an order-4 folio, all mapped, then a hole */
		100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
		112, 113, 114, 115, -1,
		/* three order-0 pages */
		116, 117, 118,
		/* six pages in the middle of an order-9 folio */
		1029, 1030, 1031, 1032, 1033, 1034, -1, -1, END_PFNS,
	};
	static const long gap[] = {
		100, 101, -1, -1, 104, 105, 106, -1, 115, END_PFNS,
	};
	static const long adjacent[] = {
		5000, 5001, 5002, 5003, 5004, 5005, 5006, 5007, 5008, 5009,
		5010, 5011, 5012, 5013, 5014, 5015, END_PFNS,
	};
	static const long far_tail[] = { 9000, 9001, END_PFNS };
	static const long no_pfn[] = { -1, 0, END_PFNS };
	static const long odd_size[] = { 2049, END_PFNS };
	static const long not_thp[] = { 3000, END_PFNS };
	static const long orphan_tail[] = { 4000, END_PFNS };
	static const long head_alone[] = { 6000, END_PFNS };
	static const long none[] = { -1, -1, END_PFNS };
	struct folio_orders h;
	uint64_t pm[64];
	char buf[256];
	size_t n;
	int r;

	memset(&k, 0, sizeof(k));
	fake_folio(&k, 100, 16, F_THP);
	fake_folio(&k, 1024, 512, F_THP);
	fake_folio(&k, 2048, 3, F_THP);		/* no power of two */
	fake_folio(&k, 3000, 2, 0);		/* compound, no KPF_THP */
	fake_folio(&k, 3990, 11, F_THP);
	k.flags[3990] = F_TAIL | F_THP;		/* tails only, no head */
	fake_folio(&k, 5000, 8, F_THP);
	fake_folio(&k, 5008, 8, F_THP);
	k.flags[6000] = F_HEAD | F_THP;		/* a head with no tail */
	fake_folio(&k, 8192, 1024, F_THP);	/* order 10 */

	n = fake_pagemap(pm, 64, mixed);
	r = count_folio_orders(pm, n, fake_kpf_read, &k, &h);
	ok(!r && h.folios[0] == 3 && h.folios[4] == 1 && h.folios[9] == 1 &&
	   h.pages_mapped == 25,
	   "folio orders: order 4, three order 0, part of order 9 (r %d, mapped %llu)",
	   r, (unsigned long long)h.pages_mapped);
	ok(!strcmp(format_folio_orders(&h, buf, sizeof(buf)), "0:3 4:1 9:1"),
	   "folio orders: text '%s'", buf);

	n = fake_pagemap(pm, 64, gap);
	r = count_folio_orders(pm, n, fake_kpf_read, &k, &h);
	ok(!r && h.folios[4] == 1 && h.pages_mapped == 6,
	   "folio orders: a folio mapped with gaps counts once");
	k.reads = 0;
	n = fake_pagemap(pm, 64, adjacent);
	r = count_folio_orders(pm, n, fake_kpf_read, &k, &h);
	ok(!r && h.folios[3] == 2 && !strcmp(format_folio_orders(&h, buf,
		sizeof(buf)), "3:2"),
	   "folio orders: two order-3 folios side by side are two ('%s')",
	   buf);
	ok(k.reads <= 4, "folio orders: pages of a known folio are not read again (%u reads)",
	   k.reads);
	n = fake_pagemap(pm, 64, far_tail);
	r = count_folio_orders(pm, n, fake_kpf_read, &k, &h);
	ok(!r && h.folios[10] == 1 && h.pages_mapped == 2,
	   "folio orders: head 808 pages below the first mapped page (order 10)");
	n = fake_pagemap(pm, 64, none);
	r = count_folio_orders(pm, n, fake_kpf_read, &k, &h);
	ok(!r && h.pages_mapped == 0 &&
	   !strcmp(format_folio_orders(&h, buf, sizeof(buf)), "none"),
	   "folio orders: nothing mapped is 'none'");

	n = fake_pagemap(pm, 64, no_pfn);
	ok(count_folio_orders(pm, n, fake_kpf_read, &k, &h) == -EPERM,
	   "folio orders: PFN 0 (no CAP_SYS_ADMIN) is -EPERM");
	n = fake_pagemap(pm, 64, odd_size);
	ok(count_folio_orders(pm, n, fake_kpf_read, &k, &h) == -EINVAL,
	   "folio orders: a 3-page compound is -EINVAL");
	n = fake_pagemap(pm, 64, not_thp);
	ok(count_folio_orders(pm, n, fake_kpf_read, &k, &h) == -EINVAL,
	   "folio orders: a compound page without KPF_THP is -EINVAL");
	n = fake_pagemap(pm, 64, orphan_tail);
	ok(count_folio_orders(pm, n, fake_kpf_read, &k, &h) == -EINVAL,
	   "folio orders: tails without a head are -EINVAL");
	n = fake_pagemap(pm, 64, head_alone);
	ok(count_folio_orders(pm, n, fake_kpf_read, &k, &h) == -EINVAL,
	   "folio orders: a head without tails is -EINVAL");
	k.fail_pfn = 1030;
	n = fake_pagemap(pm, 64, mixed);
	ok(count_folio_orders(pm, n, fake_kpf_read, &k, &h) == -EIO,
	   "folio orders: a read error is returned");
	k.fail_pfn = 0;
}

static char *print_report(const struct report *r, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	report_print(f, r, json);
	fclose(f);
	return buf;
}

static void test_report(void)
{
	struct report r;
	char *t, *j;

	memset(&r, 0, sizeof(r));
	r.file = "/tmp/a \"b\"\n";
	r.pattern.kind = PAT_RANDOM;
	r.pattern.arg = 500000;
	r.advice = ADV_HUGE;
	r.cold = true;
	r.seed = 1;
	r.file_bytes = 1048576;
	r.pages_touched = 256;
	r.major_faults = 3;
	r.minor_faults = 4;
	r.sectors_read = -1;
	r.ios_read = -1;
	r.file_pmd_mapped_kb = 2048;
	r.rss_kb = 1024;
	r.file_vmas = 1;
	r.read_ahead_kb = 128;
	r.memcg_limit_bytes = -1;
	r.wall_ms = 1.5;
	r.cpu_ms = 1.25;

	t = print_report(&r, false);
	j = print_report(&r, true);
	ok(t && strstr(t, "\npattern: random:0.5\n") &&
	   strstr(t, "\nadvice: huge\n") && strstr(t, "\ncache: cold\n") &&
	   strstr(t, "\npages_touched: 256\n") &&
	   strstr(t, "\nsectors_read: -1\n") && strstr(t, "\nios_read: -1\n") &&
	   strstr(t, "\nfile_pmd_mapped_kb: 2048\n") &&
	   strstr(t, "\nwall_ms: 1.500\ncpu_ms: 1.250\n"), "text report");
	ok(j && !strncmp(j, "{\"file\":\"/tmp/a \\\"b\\\"\\n\",", 25),
	   "JSON report escapes the file name");
	ok(j && strstr(j, "\"sectors_read\":null,\"ios_read\":null") &&
	   strstr(j, "\"memcg_limit_bytes\":null") &&
	   strstr(j, "\"read_ahead_kb\":128") &&
	   strstr(j, "\"pattern\":\"random:0.5\""), "JSON report nulls");
	ok(j && strchr(j, '\n') == j + strlen(j) - 1 && j[strlen(j) - 2] == '}',
	   "JSON report is one line");
	free(t);
	free(j);
	r.sectors_read = 2048;
	r.ios_read = 8;
	j = print_report(&r, true);
	ok(j && strstr(j, "\"sectors_read\":2048,\"ios_read\":8"),
	   "JSON report numbers");
	free(j);
	t = print_report(&r, false);
	ok(t && !strstr(t, "folio_orders"),
	   "no folio_orders without --folio-orders");
	free(t);
	r.has_folio_orders = true;
	r.folio_orders.folios[0] = 256;
	r.folio_orders.folios[9] = 2;
	t = print_report(&r, false);
	j = print_report(&r, true);
	ok(t && strstr(t, "\nfolio_orders: 0:256 9:2\nwall_ms: "),
	   "text report folio_orders");
	ok(j && strstr(j, ",\"folio_orders\":{\"0\":256,\"9\":2},"),
	   "JSON report folio_orders");
	free(t);
	free(j);
}

/* ------------------------------------------------------------------ */

static char tmpdir[256];

static void tmp_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
}

static void test_inprocess(void)
{
	struct rawalk_opts o;
	struct report r;
	char file[300];
	struct stat st;
	int ret;

	tmp_path(file, sizeof(file), "inproc");
	rawalk_opts_init(&o);
	o.action = ACT_CREATE;
	o.create_size = 1 << 20;
	o.file = file;
	ok(rawalk_create(&o) == 0 && !stat(file, &st) && st.st_size == 1 << 20,
	   "in-process: --create 1M");

	rawalk_opts_init(&o);
	o.file = file;
	o.pattern.kind = PAT_FORWARD;
	o.cold = false;
	ret = rawalk_run(&o, &r);
	ok(ret == 0 && r.complete, "in-process: forward --warm exits 0");
	ok(r.pages_touched == 256, "in-process: pages_touched == 256 (%llu)",
	   (unsigned long long)r.pages_touched);
	ok(r.file_bytes == 1 << 20 && r.file_vmas == 1 && r.rss_kb == 1024,
	   "in-process: file_bytes, one VMA, rss_kb 1024 (%llu)",
	   (unsigned long long)r.rss_kb);
	ok(r.major_faults + r.minor_faults >= 1, "in-process: faults counted");
	ok(r.wall_ms >= 0, "in-process: wall_ms >= 0");
	ok(r.cpu_ms > 0, "in-process: cpu_ms > 0 (%.3f)", r.cpu_ms);
}

/* Run a shell command, collect stdout (and stderr if asked); exit status. */
static int run(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int run(char **out, const char *fmt, ...)
{
	char cmd[2048];
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	va_list ap;
	FILE *p;
	int st;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	p = popen(cmd, "r");
	if (!p || !buf) {
		free(buf);
		*out = NULL;
		return -1;
	}
	while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (cap - len < 2) {
			char *nb = realloc(buf, cap * 2);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	buf[len] = '\0';
	st = pclose(p);
	*out = buf;
	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int has(const char *out, const char *needle)
{
	return out && strstr(out, needle) != NULL;
}

static int all_nonzero(const char *file)
{
	unsigned char buf[65536];
	ssize_t n, i;
	int fd = open(file, O_RDONLY), good = fd >= 0;

	while (good && (n = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < n; i++)
			good &= buf[i] != 0;
	if (fd >= 0)
		close(fd);
	return good;
}

static bool on_tmpfs(const char *path)
{
	struct statfs s;

	return !statfs(path, &s) && (unsigned long)s.f_type == 0x01021994UL;
}

static void test_binary(const char *bindir)
{
	static const struct {
		const char *pattern;
		const char *expect;
	} walks[] = {
		{ "reverse", "\"pages_touched\":256," },
		{ "forward", "\"pages_touched\":256," },
		{ "stride:64", "\"pages_touched\":4," },
		{ "random:1", "\"pages_touched\":3," },
		{ "random:100", "\"pages_touched\":256," },
		{ "vmasplit:4", "\"file_vmas\":4," },
		{ "memcpy", "\"pages_touched\":256," },
		{ "memcpy-forward", "\"pages_touched\":256," },
	};
	static const char *const odd_patterns[] = {
		"reverse", "forward", "stride:2", "random:50", "vmasplit:2",
		"memcpy", "memcpy-forward",
	};
	char rw[512], f[300], big[300], odd[300], empty[300], shm[300];
	char *out;
	size_t i;
	int rc;

	snprintf(rw, sizeof(rw), "%s/rawalk", bindir);
	if (access(rw, X_OK)) {
		skip("no rawalk binary given");
		return;
	}
	tmp_path(f, sizeof(f), "f1m");
	tmp_path(big, sizeof(big), "nonexistent");
	tmp_path(odd, sizeof(odd), "odd");
	tmp_path(empty, sizeof(empty), "empty");

	rc = run(&out, "'%s' --version", rw);
	ok(rc == 0 && has(out, "rawalk "), "binary: --version");
	free(out);
	rc = run(&out, "'%s' --help", rw);
	ok(rc == 0 && has(out, "--pattern") && has(out, "-1"),
	   "binary: --help mentions -1 for missing stat");
	free(out);

	rc = run(&out, "'%s' --create 1M '%s' 2>&1", rw, f);
	ok(rc == 0, "binary: --create 1M");
	free(out);
	ok(all_nonzero(f), "binary: created data has no zero byte");
	rc = run(&out, "'%s' --create 1M '%s' 2>&1", rw, f);
	ok(rc == 0, "binary: --create of the same size keeps the file");
	free(out);
	rc = run(&out, "'%s' --create 2M '%s' 2>&1", rw, f);
	ok(rc == 1 && has(out, "--force"),
	   "binary: --create of another size fails and suggests --force");
	free(out);
	rc = run(&out, "'%s' --create 2M --force '%s' 2>&1 && '%s' --create 1M --force '%s' 2>&1",
		 rw, f, rw, f);
	ok(rc == 0, "binary: --create --force replaces");
	free(out);

	rc = run(&out, "'%s' --pattern forward --warm --json '%s'", rw, f);
	ok(rc == 0 && has(out, "\"pages_touched\":256,") &&
	   has(out, "\"file_bytes\":1048576,"),
	   "binary: forward --warm --json, pages_touched 256");
	free(out);
	rc = run(&out, "'%s' --pattern forward --warm '%s'", rw, f);
	ok(rc == 0 && has(out, "\npages_touched: 256\n") &&
	   has(out, "\ncache: warm\n"), "binary: text output");
	free(out);

	for (i = 0; i < sizeof(walks) / sizeof(walks[0]); i++) {
		rc = run(&out, "'%s' --warm --json --pattern %s '%s'", rw,
			 walks[i].pattern, f);
		ok(rc == 0 && has(out, walks[i].expect), "binary: %s: %s",
		   walks[i].pattern, walks[i].expect);
		free(out);
	}
	/* root with CONFIG_PROC_PAGE_MONITOR: 256 pages, all mapped */
	rc = run(&out, "'%s' --warm --pattern forward --folio-orders '%s' 2>&1",
		 rw, f);
	ok((rc == 0 && has(out, "\nfolio_orders: ") &&
	    !has(out, "folio_orders: none")) ||
	   (rc == 1 && has(out, "--folio-orders: ")),
	   "binary: --folio-orders works or fails clearly (rc %d)", rc);
	if (out && has(out, "folio_orders"))
		printf("# %.*s\n", (int)strcspn(strstr(out, "folio_orders"),
					       "\n"), strstr(out, "folio_orders"));
	free(out);
	rc = run(&out, "'%s' --warm --json --advice willneed --pattern reverse '%s' 2>&1",
		 rw, f);
	ok(rc == 0 || (rc == 1 && has(out, "CONFIG_ADVISE_SYSCALLS")),
	   "binary: --advice willneed");
	free(out);

	/* --cold: evicts on a real file system, cannot on tmpfs */
	rc = run(&out, "'%s' --cold --json --pattern forward '%s' 2>&1", rw, f);
	if (on_tmpfs(tmpdir))
		ok(rc == 1 && has(out, "tmpfs"), "binary: --cold on tmpfs refused");
	else
		ok(rc == 0 && has(out, "\"pages_cached_before\":0,"),
		   "binary: --cold evicts");
	free(out);
	if (!on_tmpfs("/dev/shm")) {
		skip("/dev/shm is not tmpfs");
	} else {
		snprintf(shm, sizeof(shm), "/dev/shm/rawalk-test.%ld",
			 (long)getpid());
		rc = run(&out, "'%s' --create 64K '%s' 2>&1", rw, shm);
		free(out);
		rc = run(&out, "'%s' --cold '%s' 2>&1", rw, shm);
		ok(rc == 1 && has(out, "tmpfs") && has(out, "--warm"),
		   "binary: --cold on tmpfs fails and says why");
		free(out);
		rc = run(&out, "'%s' --warm --json '%s' 2>&1", rw, shm);
		ok(rc == 0 && has(out, "\"sectors_read\":null") &&
		   has(out, "\"pages_touched\":16,"),
		   "binary: --warm walk on tmpfs, sectors_read null");
		free(out);
		rc = run(&out, "'%s' --warm --read-ahead-kb 128 '%s' 2>&1", rw, shm);
		ok(rc == 1 && has(out, "not on a block device"),
		   "binary: --read-ahead-kb on tmpfs fails");
		free(out);
		unlink(shm);
	}

	/*
	 * --read-ahead-kb changes a system-wide setting for a moment: the
	 * guest tests it (tests/guest/tools.sh), where that is harmless.
	 */

	/* a size that is not a multiple of the page size */
	rc = run(&out, "'%s' --create 10000 '%s' 2>&1", rw, odd);
	free(out);
	for (i = 0; i < sizeof(odd_patterns) / sizeof(odd_patterns[0]); i++) {
		rc = run(&out, "'%s' --warm --json --pattern %s '%s'", rw,
			 odd_patterns[i], odd);
		ok(rc == 0 && has(out, "\"file_bytes\":10000,") &&
		   (has(out, "\"pages_touched\":3,") ||
		    (!strcmp(odd_patterns[i], "stride:2") &&
		     has(out, "\"pages_touched\":2,")) ||
		    (!strcmp(odd_patterns[i], "random:50") &&
		     has(out, "\"pages_touched\":2,"))),
		   "binary: 10000-byte file, %s", odd_patterns[i]);
		free(out);
	}

	/* errors */
	rc = run(&out, "'%s' '%s' 2>&1", rw, big);
	ok(rc == 1 && has(out, "No such file"), "binary: missing file exits 1");
	free(out);
	rc = run(&out, "'%s' '%s' 2>&1", rw, tmpdir);
	ok(rc == 1 && has(out, "directory"), "binary: directory exits 1");
	free(out);
	close(open(empty, O_WRONLY | O_CREAT | O_TRUNC, 0644));
	rc = run(&out, "'%s' '%s' 2>&1", rw, empty);
	ok(rc == 1 && has(out, "empty"), "binary: empty file exits 1");
	free(out);
	rc = run(&out, "'%s' --pattern sideways '%s' 2>&1", rw, f);
	ok(rc == 2 && has(out, "reverse, forward"), "binary: bad pattern exits 2");
	free(out);
	rc = run(&out, "'%s' --pattern stride:0 '%s' 2>&1", rw, f);
	ok(rc == 2, "binary: stride:0 exits 2");
	free(out);
	rc = run(&out, "'%s' --pattern random:0 '%s' 2>&1", rw, f);
	ok(rc == 2, "binary: random:0 exits 2");
	free(out);
	rc = run(&out, "'%s' --pattern random:100.1 '%s' 2>&1", rw, f);
	ok(rc == 2, "binary: random:100.1 exits 2");
	free(out);
	rc = run(&out, "'%s' --advice fast '%s' 2>&1", rw, f);
	ok(rc == 2 && has(out, "willneed"), "binary: bad advice exits 2");
	free(out);
	rc = run(&out, "'%s' --seed 1x '%s' 2>&1", rw, f);
	ok(rc == 2, "binary: bad seed exits 2");
	free(out);
	rc = run(&out, "'%s' --warm --pattern vmasplit:257 '%s' 2>&1", rw, f);
	ok(rc == 2 && has(out, "at most vmasplit:256"),
	   "binary: vmasplit:K above the page count exits 2");
	free(out);
	rc = run(&out, "'%s' 2>&1", rw);
	ok(rc == 2 && has(out, "missing FILE"), "binary: no FILE exits 2");
	free(out);
	rc = run(&out, "'%s' --warm --json --memcg-limit 64M '%s' 2>&1", rw, f);
	ok((rc == 0 && has(out, "\"memcg_limit_bytes\":67108864")) ||
	   (rc == 1 && has(out, "--memcg-limit:")),
	   "binary: --memcg-limit works or fails clearly (rc %d)", rc);
	if (rc == 1)
		printf("# memcg: %s", out);
	free(out);

	unlink(f);
	unlink(odd);
	unlink(empty);
}

int main(int argc, char **argv)
{
	const char *t = getenv("TMPDIR");
	char file[300];

	test_parse_u64();
	test_parse_size();
	test_parse_percent();
	test_parse_pattern();
	test_parse_advice();
	test_parse_args();
	test_rng();
	test_random_pages();
	test_smaps();
	test_blkstat();
	test_cgroup_parsers();
	test_folio_orders();
	test_report();

	snprintf(tmpdir, sizeof(tmpdir), "%s/rawalk-test.XXXXXX",
		 t && *t ? t : "/tmp");
	if (!mkdtemp(tmpdir)) {
		ok(0, "mkdtemp %s: %s", tmpdir, strerror(errno));
	} else {
		test_inprocess();
		if (argc > 1)
			test_binary(argv[1]);
		else
			skip("no BINDIR argument");
		tmp_path(file, sizeof(file), "inproc");
		unlink(file);
		rmdir(tmpdir);
	}

	return tap_done();
}
