// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of rapolicyctl ab (A/B testing), TAP output.
 *
 *   test_rapctl_ab [BINDIR]
 *
 * Units: the report's arithmetic and formats (golden strings, the verdict
 * thresholds at their edges, zero counts), mountinfo, cgroup paths, the
 * salt.  Commands: ab set, ab assign, ab status, ab report and status's
 * "ab:" line, in-process against a fake tree with ab/, stats/a/,
 * stats/b/ and a cgroup2 tree under the sysfs root, with writes that act
 * as the kernel does (rapctl_test.h).  When BINDIR is given,
 * BINDIR/rapolicyctl also runs as a program, and the bash completion.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rapctl.h"
#include "rapctl_ab.h"
#include "rapctl_sysfs.h"
#include "rapctl_test.h"

/* ------------------------------------------------------------------ */
/* Counters made up in memory */

/* A stats list of "name value" pairs (sorted by name, as loaded) */
struct fake_stats {
	struct rapctl_stats st;
	struct rapctl_stat v[16];
};

static const struct rapctl_stats *mkstats(struct fake_stats *f, const char *spec)
{
	char buf[512], *tok, *save;
	uint64_t val;

	memset(f, 0, sizeof(*f));
	snprintf(buf, sizeof(buf), "%s", spec);
	f->st.v = f->v;
	f->st.dir = "stats/x";
	for (tok = strtok_r(buf, " ", &save); tok && f->st.n < 16;
	     tok = strtok_r(NULL, " ", &save)) {
		f->v[f->st.n].name = strdup(tok);
		tok = strtok_r(NULL, " ", &save);
		val = tok ? strtoull(tok, NULL, 10) : 0;
		f->v[f->st.n++].value = val;
	}
	return &f->st;
}

static void freestats(struct fake_stats *f)
{
	size_t i;

	for (i = 0; i < f->st.n; i++)
		free(f->v[i].name);
}

/* The report of two arms in text, JSON or Prometheus, into a static buffer */
static const char *report_of(const char *a, const char *b, char fmt,
			     const struct rapctl_ab_assign *as,
			     struct rapctl_ab_report *r)
{
	static char *buf;
	struct fake_stats fa, fb;
	size_t len;
	FILE *f;

	free(buf);
	f = open_memstream(&buf, &len);
	rapctl_ab_compute(r, mkstats(&fa, a), mkstats(&fb, b));
	if (fmt == 'j')
		rapctl_ab_print_json(f, r, as);
	else if (fmt == 'p')
		rapctl_ab_print_prometheus(f, r, as);
	else
		rapctl_ab_print_text(f, r, as);
	fclose(f);
	freestats(&fa);
	freestats(&fb);
	return buf;
}

/* The arms of the README example (measured in the VM) */
#define ARM_A "mmap_hit 125 pages_requested 102400 sync_miss 14436 sync_thp 100"
#define ARM_B "descending_thp 63 mmap_hit 68 pages_requested 66560 sync_miss 65 sync_thp 65"

static const char report_golden[] =
"mode: cgroup /canary\n"
"\n"
"counter                                   arm A        arm B\n"
"descending_thp                                -           63\n"
"mmap_hit                                    125           68\n"
"pages_requested                          102400        66560\n"
"sync_miss                                 14436           65\n"
"sync_thp                                    100           65\n"
"\n"
"rate                                      arm A        arm B          B/A\n"
"mmap faults (sync_miss + mmap_hit)        14561          133\n"
"major faults per 1000 mmap faults        991.42       488.72       0.4930\n"
"pages requested per major fault            7.09      1024.00     144.3600\n"
"\n"
"verdict: arm B takes 49.30% of arm A's major faults per 1000 mmap faults (B better)\n";

static const char report_json_golden[] =
"{\"assignment\":{\"mode\":\"cgroup\",\"cgroup\":\"/canary\"},"
"\"arms\":{\"a\":{\"mmap_hit\":125,\"pages_requested\":102400,\"sync_miss\":14436,\"sync_thp\":100},"
"\"b\":{\"descending_thp\":63,\"mmap_hit\":68,\"pages_requested\":66560,\"sync_miss\":65,\"sync_thp\":65}},"
"\"rates\":{\"a\":{\"mmap_faults\":14561,\"major_faults_per_1000_mmap_faults\":991.42,\"pages_requested_per_major_fault\":7.09},"
"\"b\":{\"mmap_faults\":133,\"major_faults_per_1000_mmap_faults\":488.72,\"pages_requested_per_major_fault\":1024.00}},"
"\"ratios\":{\"major_faults_per_1000_mmap_faults\":0.4930,\"pages_requested_per_major_fault\":144.3600},"
"\"verdict\":{\"decided\":true,\"text\":\"arm B takes 49.30% of arm A's major faults per 1000 mmap faults (B better)\"}}\n";

static const char report_prom_golden[] =
"# HELP rapolicy_ab_info A/B assignment (ab/mode and what it uses).\n"
"# TYPE rapolicy_ab_info gauge\n"
"rapolicy_ab_info{mode=\"sample\",assignment=\"sample 300 permille, salt 7\"} 1\n"
"# HELP rapolicy_ab_descending_thp Windows the descending_thp policy redirected downwards. Per A/B arm.\n"
"# TYPE rapolicy_ab_descending_thp counter\n"
"rapolicy_ab_descending_thp{arm=\"b\"} 63\n"
"# HELP rapolicy_ab_mmap_hit Page cache mappings of the faulting address that lowered mmap_miss. Per A/B arm.\n"
"# TYPE rapolicy_ab_mmap_hit counter\n"
"rapolicy_ab_mmap_hit{arm=\"a\"} 125\n"
"rapolicy_ab_mmap_hit{arm=\"b\"} 68\n"
"# HELP rapolicy_ab_pages_requested Pages in the windows whose size was known when the hook ran. Per A/B arm.\n"
"# TYPE rapolicy_ab_pages_requested counter\n"
"rapolicy_ab_pages_requested{arm=\"a\"} 102400\n"
"rapolicy_ab_pages_requested{arm=\"b\"} 66560\n"
"# HELP rapolicy_ab_sync_miss Synchronous mmap misses: major faults of file mappings. Per A/B arm.\n"
"# TYPE rapolicy_ab_sync_miss counter\n"
"rapolicy_ab_sync_miss{arm=\"a\"} 14436\n"
"rapolicy_ab_sync_miss{arm=\"b\"} 65\n"
"# HELP rapolicy_ab_sync_thp Synchronous mmap misses offered in the VM_HUGEPAGE branch. Per A/B arm.\n"
"# TYPE rapolicy_ab_sync_thp counter\n"
"rapolicy_ab_sync_thp{arm=\"a\"} 100\n"
"rapolicy_ab_sync_thp{arm=\"b\"} 65\n"
"# HELP rapolicy_ab_mmap_faults Mmap faults (sync_miss + mmap_hit) per A/B arm.\n"
"# TYPE rapolicy_ab_mmap_faults counter\n"
"rapolicy_ab_mmap_faults{arm=\"a\"} 14561\n"
"rapolicy_ab_mmap_faults{arm=\"b\"} 133\n"
"# HELP rapolicy_ab_major_faults_per_1000_mmap_faults Major faults (sync_miss) per 1000 mmap faults per A/B arm; absent when the arm has no mmap faults.\n"
"# TYPE rapolicy_ab_major_faults_per_1000_mmap_faults gauge\n"
"rapolicy_ab_major_faults_per_1000_mmap_faults{arm=\"a\"} 991.42\n"
"rapolicy_ab_major_faults_per_1000_mmap_faults{arm=\"b\"} 488.72\n"
"# HELP rapolicy_ab_pages_requested_per_major_fault Pages requested per major fault per A/B arm; absent when the arm has no major faults.\n"
"# TYPE rapolicy_ab_pages_requested_per_major_fault gauge\n"
"rapolicy_ab_pages_requested_per_major_fault{arm=\"a\"} 7.09\n"
"rapolicy_ab_pages_requested_per_major_fault{arm=\"b\"} 1024.00\n"
"# HELP rapolicy_ab_ratio Arm B's rate divided by arm A's; absent when arm A's rate is 0 or missing.\n"
"# TYPE rapolicy_ab_ratio gauge\n"
"rapolicy_ab_ratio{rate=\"major_faults_per_1000_mmap_faults\"} 0.4930\n"
"rapolicy_ab_ratio{rate=\"pages_requested_per_major_fault\"} 144.3600\n"
"# HELP rapolicy_ab_verdict_decided 1 when the counts are large enough for a verdict, else 0.\n"
"# TYPE rapolicy_ab_verdict_decided gauge\n"
"rapolicy_ab_verdict_decided 1\n";

static bool near(double x, double want)
{
	return x > want - 1e-9 && x < want + 1e-9;
}

static void golden(const char *got, const char *want, const char *what)
{
	ok(!strcmp(got, want), "%s (golden)", what);
	if (strcmp(got, want))
		printf("# got:\n%s", got);
}

static void test_report_formats(void)
{
	struct rapctl_ab_assign cg = { .mode = "cgroup", .cgroup = "/canary" };
	struct rapctl_ab_assign sm = { .mode = "sample", .permille = 300, .salt = 7 };
	struct rapctl_ab_report r;
	const char *out;

	out = report_of(ARM_A, ARM_B, 't', &cg, &r);
	golden(out, report_golden, "report: text of the README example");
	ok(r.decided && r.arm[0].mmap_faults == 14561 && r.arm[1].mmap_faults == 133 &&
	   near(r.arm[0].major_rate.v, 1000.0 * 14436 / 14561) &&
	   near(r.arm[1].major_rate.v, 1000.0 * 65 / 133) &&
	   near(r.major_ratio.v, (65.0 / 133) / (14436.0 / 14561)) &&
	   near(r.pages_ratio.v, (66560.0 / 65) / (102400.0 / 14436)),
	   "report: the rates and ratios are the documented quotients");
	out = report_of(ARM_A, ARM_B, 'j', &cg, &r);
	golden(out, report_json_golden, "report --json");
	out = report_of(ARM_A, ARM_B, 'p', &sm, &r);
	golden(out, report_prom_golden, "report --prometheus");
	out = report_of(ARM_A, ARM_B, 't', NULL, &r);
	ok(!strncmp(out, "counter ", 8), "report: no mode line without an assignment");
}

/* The verdict of two arms given as "sync_miss mmap_hit" counts */
static const char *verdict_of(uint64_t ma, uint64_t ha, uint64_t mb, uint64_t hb,
			      bool *decided)
{
	static struct rapctl_ab_report r;
	char a[128], b[128];

	snprintf(a, sizeof(a), "mmap_hit %" PRIu64 " sync_miss %" PRIu64, ha, ma);
	snprintf(b, sizeof(b), "mmap_hit %" PRIu64 " sync_miss %" PRIu64, hb, mb);
	report_of(a, b, 't', NULL, &r);
	*decided = r.decided;
	return r.verdict;
}

static void verdict_case(uint64_t ma, uint64_t ha, uint64_t mb, uint64_t hb,
			 bool want_decided, const char *want)
{
	bool decided;
	const char *v = verdict_of(ma, ha, mb, hb, &decided);

	ok(decided == want_decided && !strcmp(v, want),
	   "verdict: A %" PRIu64 "+%" PRIu64 ", B %" PRIu64 "+%" PRIu64 ": %s", ma, ha,
	   mb, hb, want);
	if (strcmp(v, want))
		printf("# got: %s\n", v);
}

static void test_verdict(void)
{
	ok(RAPCTL_AB_MIN_MMAP_FAULTS == 100 && RAPCTL_AB_MIN_SYNC_MISS == 100,
	   "verdict: thresholds as documented (100 mmap faults per arm, 100 major faults together)");
	/* the edges of each threshold */
	verdict_case(50, 49, 50, 50, false,
		     "not enough data: arm A has 99 mmap faults, need 100");
	verdict_case(50, 50, 50, 49, false,
		     "not enough data: arm B has 99 mmap faults, need 100");
	verdict_case(50, 50, 50, 50, true,
		     "arm B takes 100.00% of arm A's major faults per 1000 mmap faults (no clear difference)");
	verdict_case(60, 940, 39, 961, false,
		     "not enough data: the arms have 99 major faults (sync_miss) together, need 100");
	verdict_case(60, 940, 40, 960, true,
		     "arm B takes 66.67% of arm A's major faults per 1000 mmap faults (B better)");
	verdict_case(0, 0, 0, 0, false,
		     "not enough data: arm A has 0 mmap faults, need 100; arm B has 0 mmap faults, need 100; the arms have 0 major faults (sync_miss) together, need 100");
	/* B takes none: a good B needs no minimum of its own */
	verdict_case(500, 500, 0, 100, true,
		     "arm B takes 0.00% of arm A's major faults per 1000 mmap faults (B better)");
	verdict_case(0, 1000, 100, 900, true,
		     "arm A takes no major faults, arm B 100.00 per 1000 mmap faults (A better)");
	verdict_case(100, 900, 200, 800, true,
		     "arm B takes 200.00% of arm A's major faults per 1000 mmap faults (A better)");
	/* the band of no clear difference */
	verdict_case(100, 900, 104, 896, true,
		     "arm B takes 104.00% of arm A's major faults per 1000 mmap faults (no clear difference)");
	verdict_case(100, 900, 96, 904, true,
		     "arm B takes 96.00% of arm A's major faults per 1000 mmap faults (no clear difference)");
	verdict_case(100, 900, 106, 894, true,
		     "arm B takes 106.00% of arm A's major faults per 1000 mmap faults (A better)");
	verdict_case(100, 900, 94, 906, true,
		     "arm B takes 94.00% of arm A's major faults per 1000 mmap faults (B better)");
}

static const char zero_text[] =
"counter                                   arm A        arm B\n"
"sync_miss                                     0            0\n"
"\n"
"rate                                      arm A        arm B          B/A\n"
"mmap faults (sync_miss + mmap_hit)            0            0\n"
"major faults per 1000 mmap faults             -            -            -\n"
"pages requested per major fault               -            -            -\n"
"\n"
"verdict: not enough data: arm A has 0 mmap faults, need 100; arm B has 0 mmap faults, need 100; the arms have 0 major faults (sync_miss) together, need 100\n";

static void test_report_zero(void)
{
	struct rapctl_ab_assign off = { .mode = "off" };
	struct rapctl_ab_report r;
	const char *out;

	out = report_of("sync_miss 0", "sync_miss 0", 't', NULL, &r);
	golden(out, zero_text, "report: zero counts print '-' for every quotient");
	ok(!r.arm[0].major_rate.ok && !r.arm[0].pages_rate.ok && !r.major_ratio.ok &&
	   !r.pages_ratio.ok, "report: zero counts: no quotient exists");
	out = report_of("sync_miss 0", "sync_miss 0", 'j', &off, &r);
	ok(has(out, "{\"assignment\":{\"mode\":\"off\"},") &&
	   has(out, "\"rates\":{\"a\":{\"mmap_faults\":0,\"major_faults_per_1000_mmap_faults\":null,\"pages_requested_per_major_fault\":null}") &&
	   has(out, "\"ratios\":{\"major_faults_per_1000_mmap_faults\":null,\"pages_requested_per_major_fault\":null}") &&
	   has(out, "\"verdict\":{\"decided\":false,\"text\":\"not enough data: "),
	   "report --json: zero counts are null, decided false");
	out = report_of("sync_miss 0", "sync_miss 0", 'p', NULL, &r);
	ok(!has(out, "rapolicy_ab_major_faults_per_1000_mmap_faults{") &&
	   !has(out, "rapolicy_ab_ratio{") && has(out, "rapolicy_ab_mmap_faults{arm=\"b\"} 0\n") &&
	   has(out, "rapolicy_ab_verdict_decided 0\n") && !has(out, "rapolicy_ab_info"),
	   "report --prometheus: quotients that do not exist are left out");
	/* A's rate exists but is 0: no ratio */
	out = report_of("mmap_hit 10", "mmap_hit 5 sync_miss 5 pages_requested 40", 't',
			NULL, &r);
	ok(has(out, "major faults per 1000 mmap faults          0.00       500.00            -\n") &&
	   has(out, "pages requested per major fault               -         8.00            -\n"),
	   "report: B/A is '-' when A's rate is 0 or missing");
	/* an arm without mmap_hit or pages_requested counts them as 0 */
	report_of("sync_miss 200", "sync_miss 100 mmap_hit 100", 't', NULL, &r);
	ok(r.decided && r.arm[0].mmap_faults == 200 && near(r.major_ratio.v, 0.5),
	   "report: a missing counter counts as 0");
}

/* ------------------------------------------------------------------ */
/* mountinfo, cgroup paths, the salt */

static void test_mountinfo(void)
{
	static const char mi[] =
		"22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
		"25 22 0:23 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
		"26 21 0:24 / /mnt/my\\040cg rw,nosuid shared:9 - cgroup2 cgroup2 rw\n"
		"27 21 0:25 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";
	char mnt[64];

	ok(!rapctl_mountinfo_cgroup2(mi, mnt, sizeof(mnt)) && !strcmp(mnt, "/mnt/my cg"),
	   "mountinfo: first cgroup2 mount, optional fields skipped, \\040 decoded (%s)", mnt);
	ok(!rapctl_mountinfo_cgroup2(mi + 43, mnt, sizeof(mnt)) ||
	   !strcmp(mnt, "/mnt/my cg"), "mountinfo: from a later line");
	ok(rapctl_mountinfo_cgroup2("22 1 0:21 / /proc rw - proc proc rw\n"
				    "25 22 0:23 / /sys/fs/cgroup rw - cgroup cgroup rw\n",
				    mnt, sizeof(mnt)) == -ENOENT,
	   "mountinfo: cgroup v1 only is -ENOENT");
	ok(rapctl_mountinfo_cgroup2("", mnt, sizeof(mnt)) == -ENOENT, "mountinfo: empty");
	ok(!rapctl_mountinfo_cgroup2("1 0 0:1 / /cg rw - cgroup2 none rw", mnt, sizeof(mnt)) &&
	   !strcmp(mnt, "/cg"), "mountinfo: last line without newline");
	ok(rapctl_mountinfo_cgroup2(mi, mnt, 4) == -ENAMETOOLONG, "mountinfo: buffer too small");
}

static void cgpath(const char *arg, const char *mnt, int want_err, const char *want)
{
	char buf[64] = "";
	int err = rapctl_cgroup_path(arg, mnt, buf, sizeof(buf));

	ok(err == want_err && (err || !strcmp(buf, want)),
	   "cgroup path: '%s' (mount %s) -> %s", arg, mnt, err ? strerror(-err) : buf);
}

static void test_cgroup_path(void)
{
	char small[4];

	cgpath("/batch", "/sys/fs/cgroup", 0, "/batch");
	cgpath("/batch/loaders/", "/sys/fs/cgroup", 0, "/batch/loaders");
	cgpath("/sys/fs/cgroup/batch", "/sys/fs/cgroup", 0, "/batch");
	cgpath("/sys/fs/cgroup/", "/sys/fs/cgroup/", 0, "/");
	cgpath("/sys/fs/cgroup", "/sys/fs/cgroup", 0, "/");
	cgpath("//a///b//", "/sys/fs/cgroup", 0, "/a/b");
	cgpath("/", "/sys/fs/cgroup", 0, "/");
	cgpath("/sys/fs/cgroupx/a", "/sys/fs/cgroup", 0, "/sys/fs/cgroupx/a");
	cgpath("/a/..b/.c", "/sys/fs/cgroup", 0, "/a/..b/.c");
	cgpath("/x/y", "/", 0, "/x/y");
	cgpath("batch", "/sys/fs/cgroup", -EINVAL, NULL);
	cgpath("", "/sys/fs/cgroup", -EINVAL, NULL);
	cgpath("/a/../b", "/sys/fs/cgroup", -EINVAL, NULL);
	cgpath("/a/./b", "/sys/fs/cgroup", -EINVAL, NULL);
	cgpath("/sys/fs/cgroup/..", "/sys/fs/cgroup", -EINVAL, NULL);
	ok(rapctl_cgroup_path("/abcd", "/sys/fs/cgroup", small, sizeof(small)) == -ENAMETOOLONG,
	   "cgroup path: buffer too small");
}

static void salt(const char *s, int want_err, uint64_t want)
{
	uint64_t v = 12345;
	int err = rapctl_parse_salt(s, &v);

	ok(err == want_err && (err || v == want), "salt '%s' -> %s %" PRIu64, s,
	   err ? strerror(-err) : "", err ? 0 : v);
}

static void test_salt(void)
{
	salt("0", 0, 0);
	salt("7", 0, 7);
	salt("18446744073709551615", 0, UINT64_MAX);
	salt("0x10", 0, 16);
	salt("0XfF", 0, 255);
	salt("0xffffffffffffffff", 0, UINT64_MAX);
	salt("0x0000000000000000001", 0, 1);
	salt("18446744073709551616", -ERANGE, 0);
	salt("0x10000000000000000", -ERANGE, 0);
	salt("0x", -EINVAL, 0);
	salt("0x1g", -EINVAL, 0);
	salt("-1", -EINVAL, 0);
	salt("", -EINVAL, 0);
	salt(" 7", -EINVAL, 0);
}

/* ------------------------------------------------------------------ */
/* The fake tree */

static char sys_ab[300], sys_noab[300], sys_empty[300];
static char proc_cg[300], proc_nocg[300], proc_elsewhere[300], proc_none[300];
static char cg_elsewhere[300];

#define AB RAP "ab/"

static const char *const arm_counters[][3] = {
	{ "async", "0", "0" },
	{ "descending_thp", "0", "63" },
	{ "mmap_hit", "125", "68" },
	{ "pages_requested", "102400", "66560" },
	{ "pmd_hit", "0", "63" },
	{ "sync_miss", "14436", "65" },
	{ "sync_thp", "100", "65" },
};

static void policies(const char *sys, const char *dir)
{
	char rel[256];

	snprintf(rel, sizeof(rel), RAP "%sdescending_thp", dir);
	put(sys, rel, "[off] folio\n");
	snprintf(rel, sizeof(rel), RAP "%spmd_hit", dir);
	put(sys, rel, "[off] on\n");
	snprintf(rel, sizeof(rel), RAP "%sdescending_seq", dir);
	put(sys, rel, "[off] window\n");
	snprintf(rel, sizeof(rel), RAP "%svma_limit", dir);
	put(sys, rel, "[none] always near_end\n");
	snprintf(rel, sizeof(rel), RAP "%ssync_mmap_order", dir);
	put(sys, rel, "[off] fault_around 0 1 2 3 4 5 6 7 8 9\n");
}

/* Both arms' policies stock, assignment off and empty */
static void ab_defaults(void)
{
	policies(sys_ab, "");
	policies(sys_ab, "ab/");
	put(sys_ab, AB "mode", "[off] cgroup sample\n");
	put(sys_ab, AB "cgroup", "\n");
	put(sys_ab, AB "sample_permille", "0\n");
	put(sys_ab, AB "salt", "0\n");
}

static void make_counters(const char *sys)
{
	char rel[256];
	size_t i;

	mkdirs(sys, RAP "stats/a");
	mkdirs(sys, RAP "stats/b");
	put(sys, RAP "stats/reset", "");
	for (i = 0; i < sizeof(arm_counters) / sizeof(arm_counters[0]); i++) {
		snprintf(rel, sizeof(rel), RAP "stats/%s", arm_counters[i][0]);
		put(sys, rel, "1\n");
		snprintf(rel, sizeof(rel), RAP "stats/a/%s", arm_counters[i][0]);
		put(sys, rel, arm_counters[i][1]);
		snprintf(rel, sizeof(rel), RAP "stats/b/%s", arm_counters[i][0]);
		put(sys, rel, arm_counters[i][2]);
	}
}

static void make_trees(void)
{
	char mi[1024];

	tmp_path(sys_ab, sizeof(sys_ab), "sys-ab");
	tmp_path(sys_noab, sizeof(sys_noab), "sys-noab");
	tmp_path(sys_empty, sizeof(sys_empty), "sys-empty");
	tmp_path(proc_cg, sizeof(proc_cg), "proc-cg");
	tmp_path(proc_nocg, sizeof(proc_nocg), "proc-nocg");
	tmp_path(proc_elsewhere, sizeof(proc_elsewhere), "proc-elsewhere");
	tmp_path(proc_none, sizeof(proc_none), "proc-none");
	tmp_path(cg_elsewhere, sizeof(cg_elsewhere), "cg2 elsewhere");
	mkdirs(sys_ab, AB);
	ab_defaults();
	put(sys_ab, RAP "version", "0.1.0\n");
	make_counters(sys_ab);
	mkdirs(sys_ab, "fs/cgroup/canary");
	mkdirs(sys_ab, "fs/cgroup/batch/loaders");
	mkdirs(sys_ab, "fs/cgroup/notcg");
	put(sys_ab, "fs/cgroup/cgroup.procs", "");
	put(sys_ab, "fs/cgroup/canary/cgroup.procs", "");
	put(sys_ab, "fs/cgroup/batch/cgroup.procs", "");
	put(sys_ab, "fs/cgroup/batch/loaders/cgroup.procs", "");
	put(sys_ab, "fs/cgroup/afile", "x\n");
	mkdirs(sys_noab, RAP "stats");
	policies(sys_noab, "");
	mkdirs(sys_empty, "kernel/mm");

	mkdirs(proc_cg, "self");
	put(proc_cg, "self/mountinfo",
	    "22 1 0:21 / /proc rw - proc proc rw\n"
	    "27 21 0:25 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw\n");
	mkdirs(proc_nocg, "self");
	put(proc_nocg, "self/mountinfo", "22 1 0:21 / /proc rw - proc proc rw\n");
	mkdirs(proc_none, "");
	/* a cgroup2 mount outside /sys, with a blank in its name */
	mkdirs(cg_elsewhere, "web");
	put(cg_elsewhere, "web/cgroup.procs", "");
	put(cg_elsewhere, "cgroup.procs", "");
	mkdirs(proc_elsewhere, "self");
	snprintf(mi, sizeof(mi), "30 1 0:40 / %s/cg2\\040elsewhere rw - cgroup2 none rw\n",
		 tmpdir);
	put(proc_elsewhere, "self/mountinfo", mi);
}

/* Assignment and policies back to the defaults, hooks to the kernel's */
static void fresh(void)
{
	ab_defaults();
	reset_hooks();
	rapctl_io.write = kernel_write;
}

static bool ab_untouched(void)
{
	return !strcmp(get(sys_ab, AB "mode"), "[off] cgroup sample") &&
	       !strcmp(get(sys_ab, AB "cgroup"), "") &&
	       !strcmp(get(sys_ab, AB "sample_permille"), "0") &&
	       !strcmp(get(sys_ab, AB "salt"), "0") &&
	       !strcmp(get(sys_ab, AB "pmd_hit"), "[off] on") &&
	       !strcmp(get(sys_ab, AB "descending_thp"), "[off] folio");
}

/* ------------------------------------------------------------------ */
/* ab set */

static void test_ab_set(void)
{
	int rc;

	fresh();
	rc = ctl("--sysfs-root %s ab set sync_mmap_order=4 pmd_hit=on descending_thp=off",
		 sys_ab);
	ok(rc == 0 && !strcmp(OUT, "descending_thp: off (unchanged)\n"
			      "pmd_hit: off -> on\nsync_mmap_order: off -> 4\n") && !*ERR,
	   "ab set: reports as set does, in apply order");
	ok(!strcmp(wlog, "pmd_hit=on sync_mmap_order=4 ") &&
	   !strcmp(get(sys_ab, AB "pmd_hit"), "off [on]") &&
	   !strcmp(get(sys_ab, RAP "pmd_hit"), "[off] on"),
	   "ab set: writes arm B's files, not arm A's (%s)", wlog);

	fresh();
	rc = ctl("--sysfs-root %s ab set pmd_hit=on mode=cgroup descending_seq=maybe pmd_hit=off",
		 sys_ab);
	ok(rc == 2 && nwrites == 0 && ab_untouched() && !*OUT &&
	   has(ERR, "unknown policy 'mode': known policies: descending_thp pmd_hit descending_seq vma_limit sync_mmap_order") &&
	   has(ERR, "descending_seq: value 'maybe' is not allowed: allowed values: off window") &&
	   has(ERR, "pmd_hit is given more than once") && has(ERR, "nothing was changed"),
	   "ab set: every problem reported, nothing written; mode is not a policy");
	rc = ctl("--sysfs-root %s ab set", sys_ab);
	ok(rc == 2 && has(ERR, "ab set: missing POLICY=VALUE\nTry 'rapolicyctl ab set --help'."),
	   "ab set: no pairs is a usage error");
	rc = ctl("--sysfs-root %s ab set -x", sys_ab);
	ok(rc == 2 && has(ERR, "ab set: unknown option '-x'"), "ab set: unknown option");

	/* the third write fails: the first two are undone */
	fresh();
	fail_mask = 1 << 3;
	fail_err = -EINVAL;
	rc = ctl("--sysfs-root %s ab set descending_thp=folio pmd_hit=on descending_seq=window",
		 sys_ab);
	ok(rc == 1 && !*OUT && ab_untouched() &&
	   has(ERR, "rapolicyctl: descending_seq: the kernel rejected 'window' (Invalid argument)\n"
		    "rapolicyctl: rolled back pmd_hit: on -> off\n"
		    "rapolicyctl: rolled back descending_thp: folio -> off\n"
		    "rapolicyctl: nothing was changed\n"),
	   "ab set: a failed write rolls back arm B");
	fresh();
	fail_mask = (1 << 2) | (1 << 3);
	fail_err = -EIO;
	rc = ctl("--sysfs-root %s ab set descending_thp=folio pmd_hit=on", sys_ab);
	ok(rc == 1 && has(ERR, "descending_thp: cannot roll back to 'off'") &&
	   has(ERR, "some policies of arm B stay changed: check with 'rapolicyctl ab status'"),
	   "ab set: a failed undo points at ab status");

	rc = ctl("--sysfs-root %s ab set pmd_hit=on", sys_noab);
	ok(rc == 1 && has(ERR, "has no A/B arms (no ") && has(ERR, "/kernel/mm/rapolicy/ab)"),
	   "ab set: a module without ab/ is exit 1");
	rc = ctl("--sysfs-root %s --proc-root %s ab set pmd_hit=on", sys_empty, proc_none);
	ok(rc == 1 && has(ERR, "rapolicy module not loaded"), "ab set: module not loaded");
	rc = ctl("--sysfs-root %s --proc-root %s ab set junk", sys_empty, proc_none);
	ok(rc == 2 && has(ERR, "'junk' is not POLICY=VALUE"),
	   "ab set: a malformed pair is a usage error without the module too");
}

/* ------------------------------------------------------------------ */
/* ab assign */

static void assign_ok(const char *proc, const char *args, const char *out,
		      const char *writes)
{
	int rc;

	fresh();
	rc = ctl("--sysfs-root %s --proc-root %s ab assign %s", sys_ab, proc, args);
	ok(rc == 0 && !strcmp(OUT, out) && !*ERR && !strcmp(wlog, writes),
	   "ab assign %s: writes %s", args, writes);
	if (rc || strcmp(OUT, out))
		printf("# rc %d out: %s# err: %s", rc, OUT, ERR);
}

/* Bad input: exit 2 (or rc), message, nothing written */
static void assign_bad(const char *proc, const char *args, int want_rc, const char *msg)
{
	int rc;

	fresh();
	rc = ctl("--sysfs-root %s --proc-root %s ab assign %s", sys_ab, proc, args);
	ok(rc == want_rc && nwrites == 0 && ab_untouched() && !*OUT && has(ERR, msg),
	   "ab assign %s: exit %d, nothing written", args, want_rc);
	if (!has(ERR, msg))
		printf("# rc %d err: %s", rc, ERR);
}

static void test_assign_cgroup(void)
{
	char args[512];
	int rc;

	assign_ok(proc_cg, "cgroup /canary", "cgroup: (none) -> /canary\nmode: off -> cgroup\n",
		  "cgroup=/canary mode=cgroup ");
	ok(!strcmp(get(sys_ab, AB "cgroup"), "/canary") &&
	   !strcmp(get(sys_ab, AB "mode"), "off [cgroup] sample"), "ab assign cgroup: files hold it");
	assign_ok(proc_cg, "cgroup /sys/fs/cgroup/batch/loaders/",
		  "cgroup: (none) -> /batch/loaders\nmode: off -> cgroup\n",
		  "cgroup=/batch/loaders mode=cgroup ");
	assign_ok(proc_none, "cgroup //canary", "cgroup: (none) -> /canary\nmode: off -> cgroup\n",
		  "cgroup=/canary mode=cgroup ");
	assign_ok(proc_cg, "cgroup /", "cgroup: (none) -> /\nmode: off -> cgroup\n",
		  "cgroup=/ mode=cgroup ");
	assign_ok(proc_elsewhere, "cgroup /web", "cgroup: (none) -> /web\nmode: off -> cgroup\n",
		  "cgroup=/web mode=cgroup ");

	/* the same again: nothing to write */
	fresh();
	put(sys_ab, AB "cgroup", "/canary\n");
	put(sys_ab, AB "mode", "off [cgroup] sample\n");
	rc = ctl("--sysfs-root %s --proc-root %s ab assign cgroup /canary", sys_ab, proc_cg);
	ok(rc == 0 && nwrites == 0 &&
	   !strcmp(OUT, "cgroup: /canary (unchanged)\nmode: cgroup (unchanged)\n"),
	   "ab assign cgroup: the same assignment writes nothing");
	/* a removed cgroup is replaced even by a new one of its name */
	put(sys_ab, AB "cgroup", "/canary (removed)\n");
	rc = ctl("--sysfs-root %s --proc-root %s ab assign cgroup /canary", sys_ab, proc_cg);
	ok(rc == 0 && !strcmp(wlog, "cgroup=/canary ") &&
	   has(OUT, "cgroup: /canary (removed) -> /canary\n"),
	   "ab assign cgroup: replaces a removed cgroup of the same name");

	assign_bad(proc_cg, "cgroup canary", 2,
		   "'canary' is not a cgroup path: give it from the cgroup2 root, as in /proc/PID/cgroup (e.g. /batch), or under the cgroup2 mount /sys/fs/cgroup");
	assign_bad(proc_cg, "cgroup /nope", 2, "no cgroup /nope: ");
	assign_bad(proc_cg, "cgroup /nope", 2, "/fs/cgroup/nope is not a directory (create it with mkdir)");
	assign_bad(proc_cg, "cgroup /afile", 2, "no cgroup /afile");
	assign_bad(proc_cg, "cgroup /notcg", 2,
		   "/fs/cgroup/notcg is not a cgroup v2 directory (it has no cgroup.procs)");
	assign_bad(proc_cg, "cgroup /batch/../canary", 2, "without . or ..");
	assign_bad(proc_cg, "cgroup", 2, "ab assign: cgroup: missing PATH\nTry 'rapolicyctl ab assign --help'.");
	assign_bad(proc_cg, "cgroup /canary /batch", 2, "cgroup: one PATH at a time");
	assign_bad(proc_nocg, "cgroup /canary", 1, "no cgroup2 file system is mounted (");
	assign_bad(proc_elsewhere, "cgroup /canary", 2, "cg2 elsewhere/canary is not a directory");
	/* a path of the fake tree is not under the mount point /sys/fs/cgroup */
	snprintf(args, sizeof(args), "cgroup %s/fs/cgroup/canary", sys_ab);
	assign_bad(proc_cg, args, 2, "is not a directory");
}

static void test_assign_sample(void)
{
	int rc;

	assign_ok(proc_cg, "sample 300 --salt 7",
		  "salt: 0 -> 7\nsample_permille: 0 -> 300\nmode: off -> sample\n",
		  "salt=7 sample_permille=300 mode=sample ");
	ok(!strcmp(get(sys_ab, AB "mode"), "off cgroup [sample]") &&
	   !strcmp(get(sys_ab, AB "sample_permille"), "300"), "ab assign sample: files hold it");
	assign_ok(proc_cg, "sample --salt=0x10 1000",
		  "salt: 0 -> 16\nsample_permille: 0 -> 1000\nmode: off -> sample\n",
		  "salt=16 sample_permille=1000 mode=sample ");
	assign_ok(proc_cg, "sample 0", "sample_permille: 0 (unchanged)\nmode: off -> sample\n",
		  "mode=sample ");
	fresh();
	put(sys_ab, AB "salt", "99\n");
	rc = ctl("--sysfs-root %s ab assign sample 500", sys_ab);
	ok(rc == 0 && !strcmp(wlog, "sample_permille=500 mode=sample ") &&
	   !strcmp(get(sys_ab, AB "salt"), "99"), "ab assign sample without --salt keeps the salt");

	assign_bad(proc_cg, "sample 1001", 2,
		   "sample: PERMILLE '1001' is not a whole number from 0 to 1000");
	assign_bad(proc_cg, "sample 30%", 2, "PERMILLE '30%'");
	assign_bad(proc_cg, "sample 0.5", 2, "PERMILLE '0.5'");
	assign_bad(proc_cg, "sample -1", 2, "unknown option '-1'");
	assign_bad(proc_cg, "sample", 2, "sample: missing PERMILLE (0..1000)");
	assign_bad(proc_cg, "sample --salt 7", 2, "sample: missing PERMILLE");
	assign_bad(proc_cg, "sample 300 --salt", 2, "--salt needs a value");
	assign_bad(proc_cg, "sample 300 --salt -1", 2, "--salt '-1': a whole number from 0 to 18446744073709551615");
	assign_bad(proc_cg, "sample 300 --salt 0x1g", 2, "--salt '0x1g'");
	assign_bad(proc_cg, "sample 300 400", 2, "unexpected argument '400'");
}

static void test_assign_other(void)
{
	int rc;

	fresh();
	put(sys_ab, AB "mode", "off cgroup [sample]\n");
	rc = ctl("--sysfs-root %s ab assign off", sys_ab);
	ok(rc == 0 && !strcmp(OUT, "mode: sample -> off\n") && !strcmp(wlog, "mode=off "),
	   "ab assign off: writes the mode only");
	assign_bad(proc_cg, "off now", 2, "off: unexpected argument 'now'");
	assign_bad(proc_cg, "", 2, "ab assign: missing cgroup PATH, sample PERMILLE or off");
	assign_bad(proc_cg, "random 5", 2, "unknown assignment 'random': cgroup PATH, sample PERMILLE or off");
	rc = ctl("--sysfs-root %s ab assign off --help", sys_ab);
	ok(rc == 0 && has(OUT, "Usage: rapolicyctl ab set") && nwrites == 0,
	   "ab assign ... --help: help wins");

	/* the mode write fails: the cgroup goes back to none */
	fresh();
	fail_mask = 1 << 2;
	fail_err = -EINVAL;
	rc = ctl("--sysfs-root %s --proc-root %s ab assign cgroup /canary", sys_ab, proc_cg);
	ok(rc == 1 && !*OUT && !strcmp(wlog, "cgroup=/canary mode=cgroup! cgroup=\n ") &&
	   ab_untouched() &&
	   has(ERR, "rapolicyctl: mode: the kernel rejected 'cgroup' (Invalid argument)\n"
		    "rapolicyctl: rolled back cgroup: /canary -> (none)\n"
		    "rapolicyctl: nothing was changed\n"),
	   "ab assign: a failed mode write rolls the cgroup back (empty as a newline)");
	fresh();
	fail_mask = (1 << 3) | (1 << 4);
	fail_err = -EACCES;
	rc = ctl("--sysfs-root %s ab assign sample 10 --salt 3", sys_ab);
	ok(rc == 1 && has(ERR, "permission denied: run as root (writing 'sample' to ") &&
	   has(ERR, "sample_permille: cannot roll back to '0'") &&
	   has(ERR, "rolled back salt: 3 -> 0") &&
	   has(ERR, "some A/B settings stay changed: check with 'rapolicyctl ab status'"),
	   "ab assign: a failed undo is reported");

	rc = ctl("--sysfs-root %s ab assign off", sys_noab);
	ok(rc == 1 && has(ERR, "no A/B arms"), "ab assign: a module without ab/ is exit 1");
	rc = ctl("--sysfs-root %s --proc-root %s ab assign off", sys_empty, proc_none);
	ok(rc == 1 && has(ERR, "rapolicy module not loaded"), "ab assign: module not loaded");
	rc = ctl("--sysfs-root %s --proc-root %s ab assign sample 2000", sys_empty, proc_none);
	ok(rc == 2, "ab assign: bad input is exit 2 without the module too");
}

/* ------------------------------------------------------------------ */
/* ab status, status */

static const char ab_status_golden[] =
"mode:    cgroup /canary\n"
"arm B:   faults of tasks in cgroup /canary and below\n"
"policy           arm A  arm B\n"
"descending_thp   off    folio\n"
"pmd_hit          off    on\n"
"descending_seq   off    window\n"
"vma_limit        none   none\n"
"sync_mmap_order  off    off\n"
"A -> B:  descending_thp off -> folio, pmd_hit off -> on, descending_seq off -> window\n";

static void test_ab_status(void)
{
	char path[512];
	int rc;

	fresh();
	rc = ctl("--sysfs-root %s --proc-root %s ab set descending_thp=folio pmd_hit=on descending_seq=window",
		 sys_ab, proc_cg);
	rc |= ctl("--sysfs-root %s --proc-root %s ab assign cgroup /canary", sys_ab, proc_cg);
	rc |= ctl("--sysfs-root %s ab status", sys_ab);
	golden(OUT, ab_status_golden, "ab status: cgroup mode");
	ok(rc == 0 && !*ERR, "ab status: exit 0");
	rc = ctl("--sysfs-root %s status", sys_ab);
	ok(rc == 0 && has(OUT, "profile: stock\nab:      cgroup /canary\nstats:   "),
	   "status: the ab line has mode and cgroup");

	ctl("--sysfs-root %s ab assign sample 250 --salt 0x2a", sys_ab);
	rc = ctl("--sysfs-root %s ab status", sys_ab);
	ok(rc == 0 && !strncmp(OUT, "mode:    sample 250 permille, salt 42\n"
			       "arm B:   faults on the 25.0% of files whose hash falls under 250 permille (salt 42)\n", 115),
	   "ab status: sample mode");
	rc = ctl("--sysfs-root %s status", sys_ab);
	ok(rc == 0 && has(OUT, "\nab:      sample 250 permille, salt 42\n"),
	   "status: the ab line has permille and salt");

	fresh();
	rc = ctl("--sysfs-root %s ab status", sys_ab);
	ok(rc == 0 && has(OUT, "mode:    off\narm B:   unused: every fault uses arm A\n") &&
	   has(OUT, "A -> B:  no difference: arm B has arm A's settings\n"),
	   "ab status: off, no difference");
	rc = ctl("--sysfs-root %s status", sys_ab);
	ok(rc == 0 && has(OUT, "\nab:      off\n"), "status: the ab line when off");
	put(sys_ab, AB "mode", "off [cgroup] sample\n");
	rc = ctl("--sysfs-root %s status", sys_ab);
	ok(rc == 0 && has(OUT, "\nab:      cgroup (none)\n"), "status: cgroup mode without a cgroup");
	put(sys_ab, AB "cgroup", "/gone (removed)\n");
	rc = ctl("--sysfs-root %s ab status", sys_ab);
	ok(rc == 0 && has(OUT, "mode:    cgroup /gone (removed)\n"), "ab status: a removed cgroup says so");

	/* a policy only arm A has */
	fresh();
	put(sys_ab, RAP "zz_new", "[a] b\n");
	rc = ctl("--sysfs-root %s ab status", sys_ab);
	ok(rc == 0 && has(OUT, "zz_new           a      -\n") &&
	   has(OUT, "A -> B:  zz_new a -> -\n"), "ab status: a policy of one arm only");
	snprintf(path, sizeof(path), "%s/" RAP "zz_new", sys_ab);
	unlink(path);

	put(sys_ab, AB "sample_permille", "lots\n");
	put(sys_ab, AB "mode", "off cgroup [sample]\n");
	rc = ctl("--sysfs-root %s status", sys_ab);
	ok(rc == 1 && has(OUT, "\nab:      unreadable\n") &&
	   has(ERR, "ab/sample_permille: not a decimal number"),
	   "status: an unreadable assignment is exit 1");
	rc = ctl("--sysfs-root %s ab status extra", sys_ab);
	ok(rc == 2 && has(ERR, "ab status: unexpected argument 'extra'"), "ab status: no arguments");
	rc = ctl("--sysfs-root %s ab status", sys_noab);
	ok(rc == 1 && has(ERR, "no A/B arms"), "ab status: a module without ab/");
	rc = ctl("--sysfs-root %s status", sys_noab);
	ok(rc == 0 && !has(OUT, "ab:"), "status: no ab line without ab/");
	fresh();
}

/* ------------------------------------------------------------------ */
/* ab report */

static void test_ab_report(void)
{
	char path[512];
	int rc;

	fresh();
	put(sys_ab, AB "cgroup", "/canary\n");
	put(sys_ab, AB "mode", "off [cgroup] sample\n");
	rc = ctl("--sysfs-root %s ab report", sys_ab);
	ok(rc == 0 && !*ERR && !strncmp(OUT, "mode: cgroup /canary\n\ncounter ", 30) &&
	   has(OUT, "async                                         0            0\n") &&
	   has(OUT, "\nverdict: arm B takes 49.30% of arm A's major faults per 1000 mmap faults (B better)\n"),
	   "ab report: counters read from stats/a and stats/b");
	rc = ctl("--sysfs-root %s ab report --json", sys_ab);
	ok(rc == 0 && has(OUT, "\"arms\":{\"a\":{\"async\":0,\"descending_thp\":0,") &&
	   has(OUT, "\"decided\":true"), "ab report --json");
	rc = ctl("--sysfs-root %s ab report --prometheus", sys_ab);
	ok(rc == 0 && has(OUT, "rapolicy_ab_sync_miss{arm=\"a\"} 14436\nrapolicy_ab_sync_miss{arm=\"b\"} 65\n") &&
	   has(OUT, "rapolicy_ab_info{mode=\"cgroup\",assignment=\"cgroup /canary\"} 1\n"),
	   "ab report --prometheus");

	/* a new counter of a later module is picked up from the directory */
	put(sys_ab, RAP "stats/b/new_one", "5\n");
	rc = ctl("--sysfs-root %s ab report", sys_ab);
	ok(rc == 0 && has(OUT, "new_one                                       -            5\n"),
	   "ab report: a counter of one arm only");
	snprintf(path, sizeof(path), "%s/" RAP "stats/b/new_one", sys_ab);
	unlink(path);
	put(sys_ab, RAP "stats/a/sync_miss", "many\n");
	rc = ctl("--sysfs-root %s ab report", sys_ab);
	ok(rc == 1 && has(ERR, "stats/a/sync_miss: not a decimal number"),
	   "ab report: a counter that is not a number is exit 1");
	put(sys_ab, RAP "stats/a/sync_miss", "14436\n");

	rc = ctl("--sysfs-root %s ab report --json --prometheus", sys_ab);
	ok(rc == 2 && has(ERR, "--json conflicts with --prometheus"), "ab report: one format");
	rc = ctl("--sysfs-root %s ab report --csv", sys_ab);
	ok(rc == 2 && has(ERR, "ab report: unknown option '--csv'"), "ab report: unknown option");
	rc = ctl("--sysfs-root %s ab report now", sys_ab);
	ok(rc == 2 && has(ERR, "ab report: unexpected argument 'now'"), "ab report: no operands");
	rc = ctl("--sysfs-root %s ab report", sys_noab);
	ok(rc == 1 && has(ERR, "no A/B arms"), "ab report: a module without ab/");
	mkdirs(sys_noab, RAP "ab");
	put(sys_noab, RAP "ab/mode", "[off] cgroup sample\n");
	rc = ctl("--sysfs-root %s ab report", sys_noab);
	ok(rc == 1 && has(ERR, "stats/a: No such file or directory"),
	   "ab report: no per-arm counters is exit 1");
	fresh();
}

/* ------------------------------------------------------------------ */
/* Dispatch, help, the binary */

static void test_ab_args(void)
{
	int rc;

	rc = ctl("--sysfs-root %s ab", sys_ab);
	ok(rc == 2 && has(ERR, "ab: missing SUBCOMMAND (set, assign, status, report)\nTry 'rapolicyctl ab --help'."),
	   "ab: missing subcommand");
	rc = ctl("--sysfs-root %s ab frob", sys_ab);
	ok(rc == 2 && has(ERR, "ab: unknown subcommand 'frob'"), "ab: unknown subcommand");
	rc = ctl("ab --help");
	ok(rc == 0 && !strncmp(OUT, "Usage: rapolicyctl ab set POLICY=VALUE...\n", 42) &&
	   has(OUT, "each arm has 100 mmap\n") && has(OUT, "faults and the arms 100 major faults together"),
	   "ab --help, with the thresholds");
	rc = ctl("help ab");
	ok(rc == 0 && !strncmp(OUT, "Usage: rapolicyctl ab ", 22), "help ab");
	rc = ctl("--sysfs-root %s ab report --help", sys_empty);
	ok(rc == 0 && has(OUT, "--json | --prometheus"), "ab report --help without the module");
	rc = ctl("--help");
	ok(rc == 0 && has(OUT, "  ab assign cgroup PATH | sample PERMILLE [--salt N] | off\n"),
	   "--help lists the ab commands");
}

static void test_binary(const char *bindir)
{
	char bin[512], *out;
	int rc;

	snprintf(bin, sizeof(bin), "%s/rapolicyctl", bindir);
	if (access(bin, X_OK)) {
		ok(0, "binary: %s: %s", bin, strerror(errno));
		return;
	}
	fresh();
	rc = run(&out, "'%s' --sysfs-root '%s' ab report", bin, sys_ab);
	ok(rc == 0 && has(out, "verdict: arm B takes 49.30%"), "binary: ab report");
	free(out);
	rc = run(&out, "'%s' --sysfs-root '%s' --proc-root '%s' ab assign cgroup /nope 2>&1",
		 bin, sys_ab, proc_cg);
	ok(rc == 2 && has(out, "no cgroup /nope") && ab_untouched(), "binary: ab assign bad cgroup exits 2");
	free(out);
	rc = run(&out, "'%s' --sysfs-root '%s' --proc-root '%s' ab assign cgroup /canary", bin,
		 sys_ab, proc_cg);
	ok(rc == 0 && !strcmp(get(sys_ab, AB "cgroup"), "/canary") &&
	   !strcmp(get(sys_ab, AB "mode"), "cgroup"), "binary: ab assign cgroup writes the files");
	free(out);
	fresh();
	if (access("rapolicyctl.bash-completion", R_OK) || system("bash -c true")) {
		skip("bash completion: no bash or not run from userspace/");
		return;
	}
	completion(bindir, sys_ab, "a", "ab");
	completion(bindir, sys_ab, "ab ", "set assign status report --help");
	completion(bindir, sys_ab, "ab set pmd", "pmd_hit=");
	completion(bindir, sys_ab, "ab set vma_limit=a", "always");
	completion(bindir, sys_ab, "ab assign ", "cgroup sample off");
	completion(bindir, sys_ab, "ab assign cgroup /b", "/batch/");
	completion(bindir, sys_ab, "ab assign cgroup /batch/", "/batch/loaders/");
	completion(bindir, sys_ab, "ab assign sample 300 --", "--salt --help");
	completion(bindir, sys_ab, "ab assign sample 300 --salt ", "");
	completion(bindir, sys_ab, "ab report --", "--json --prometheus --help");
	completion(bindir, sys_ab, "help a", "ab");
}

int main(int argc, char **argv)
{
	char boot[300];

	if (test_begin("rapctl-ab-test"))
		return 1;
	make_trees();
	tmp_path(boot, sizeof(boot), "boot-none");
	setenv("RAPOLICYCTL_BOOT_ROOT", boot, 1);

	test_report_formats();
	test_verdict();
	test_report_zero();
	test_mountinfo();
	test_cgroup_path();
	test_salt();
	test_ab_set();
	test_assign_cgroup();
	test_assign_sample();
	test_assign_other();
	test_ab_status();
	test_ab_report();
	test_ab_args();
	if (argc > 1)
		test_binary(argv[1]);
	else
		skip("no BINDIR argument");
	return test_end();
}
