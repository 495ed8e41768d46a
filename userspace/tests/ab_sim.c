// SPDX-License-Identifier: GPL-2.0
/*
 * ab_sim: the module's per-bucket counters, simulated, through the real
 * analysis (userspace/abtest).  Prints TAP, and with --table FILE writes
 * the table of docs/AB.md.  The model, written down in docs/AB.md:
 *
 *   file f:    bucket uniform in 0..63 (the module's fixed hash);
 *              size s_f pages, Pareto(1.1) from 32 pages, at most 2^18;
 *              activity a_f lognormal(0, 1); 1% of files (at least one)
 *              dominant, 30 times as active; pages per major fault r_f
 *              lognormal(log 8, 0.7); a fifth of the files (a cgroup
 *              that changes its workload) 4 times as active in the
 *              second half of the periods, another fifth 4 times less.
 *   period p:  load L_p lognormal(0, 0.3); bursty: lognormal(0, 1.5),
 *              and each file idle with probability 1/2; the salt draws
 *              32 of the 64 buckets for arm B, uniformly.
 *   counts:    major faults Poisson(mu sqrt(s_f) a_f L_p e_fp theta^B),
 *              e_fp lognormal(0, 0.3) (a file's own variation from
 *              period to period); pages read Poisson(faults r_f phi^B).
 *   effects:   theta, phi per file: the heaviest 2% of the files by
 *              activity may have their own (or the one that puts B's
 *              total at a given ratio to A's); the truth is the ratio of
 *              the totals the model expects under B and under A over the
 *              periods, the changing workloads included.
 *   interference: on the host, which runs both arms, B's files' expected
 *              pages read above A's (theta phi - 1) as a share e of the
 *              pages the host is expected to read in the period; A's
 *              files' major faults times 1 + k e.  The truth stays the
 *              rollout's (B alone against A alone, where e = 0).
 *
 * A/A has theta = phi = 1.  What would fail if the analysis broke: an
 * A/A call rate over 5% or its upper one-sided 95% Clopper-Pearson bound
 * over 6.5%, A/A p-values below 0.3 significantly more than 30% of runs,
 * B better in more than 1% of runs where B's total faults or pages are
 * 5% or more worse, B worse (I/O) in under 80% where B reads 3 times the
 * pages, power under 70% for -15% over 24 periods (90% in complementary
 * pairs), an interval that covers the true change in totals in under
 * 93% of runs, or, with interference k = 4, B better in under half of
 * the runs where the rollout is 15% worse (the bias the model must show).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abtest/abtest.h"
#include "tests/tap.h"
#include "tests/ab_fleet.h"
/* The module's bucket hash and arm draw, built for the host as tests/unit does */
#include "../module/policy.c"

static uint64_t rs;

static uint64_t rnd(void)
{
	uint64_t z = (rs += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double unif(void)
{
	return ((double)(rnd() >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

static double lognormal(double mu, double sigma)
{
	return exp(mu + sigma * gauss());
}

static double poisson(double l)
{
	double p = 1, lim = exp(-l);
	int k = -1;

	if (l > 30)
		return fmax(0, round(l + sqrt(l) * gauss()));
	do {
		k++;
		p *= unif();
	} while (p > lim);
	return k;
}

/* What a scenario checks, besides the interval's coverage */
enum check {
	AA,		/* calls (any) at most 5%: upper one-sided bound */
	POWER,		/* B better in at least 70% */
	POWER90,	/* B better in at least 90% */
	NOT_BETTER,	/* B is worse in a total: B better in at most 1% */
	WORSE_IO,	/* B worse (I/O) in at least 80% */
	INTERFERES,	/* B better in at least 50%: the bias interference makes */
	REPORT,		/* reported only */
};

struct scenario {
	const char *name;
	unsigned int files;
	double theta, phi;	/* B's effect on major faults, on pages per fault */
	double theta_h, phi_h;	/* the same on the heaviest 2% of the files */
	double mu;		/* the activity's scale: 2; low counts 0.05 */
	bool bursty;
	unsigned int runs;
	enum check check;
	unsigned int periods;	/* the plan's horizon; 0: 6 */
	bool pairs;		/* complementary period pairs */
	double carry;		/* share of a period's faults under the last arm's state */
	unsigned int flags;
	double k;		/* interference: A's faults times 1 + k e (interference()) */
};

#define NO_WASHOUT	1	/* the carry-over reaches the analysed counts whole */
#define COLD_START	2	/* period 1: every file 5 times as active, lognormal(0, 1) */
#define HEAVY_TOTAL	4	/* theta_h is set per run so that B's total is theta_h times A's */

struct file {
	unsigned int bucket, group;
	double rate, rf, theta, phi;
	uint64_t ino;
};

/* B against A in the totals the model expects: faults, pages */
static double truth[2];

/* One run: the module's counters over the plan's periods */
static int by_rate(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a < b) - (a > b);
}

/*
 * A file's expected share of the faults over np periods: its rate, times
 * 4 or 1/4 in the second half for the files whose workload changes
 */
static double weight(const struct file *f, unsigned int np)
{
	double later = f->group == 1 ? 4 : f->group == 0 ? 0.25 : 1;

	return f->rate * (np / 2 + (np - np / 2) * later);
}

/*
 * Files at or above the heaviest 2% get theta_h, phi_h (with HEAVY_TOTAL,
 * the theta_h that makes B's expected total theta_h times A's); the
 * truth, from the totals expected over the np periods
 */
static void effects(const struct scenario *sc, struct file *fs, unsigned int np)
{
	double *r = malloc(sc->files * sizeof(*r)), cut, sum[2][2] = { { 0 } };
	double heavy = 0, all = 0, theta_h = sc->theta_h;
	unsigned int nh = (sc->files + 49) / 50;

	for (unsigned int f = 0; f < sc->files; f++)
		r[f] = fs[f].rate;
	qsort(r, sc->files, sizeof(*r), by_rate);
	cut = r[nh - 1];
	free(r);
	for (unsigned int f = 0; f < sc->files; f++) {
		all += weight(&fs[f], np);
		heavy += fs[f].rate >= cut ? weight(&fs[f], np) : 0;
	}
	if (sc->flags & HEAVY_TOTAL)
		theta_h = (sc->theta_h - sc->theta * (1 - heavy / all)) / (heavy / all);
	for (unsigned int f = 0; f < sc->files; f++) {
		bool h = fs[f].rate >= cut;
		double w = weight(&fs[f], np);

		fs[f].theta = h ? theta_h : sc->theta;
		fs[f].phi = h ? sc->phi_h : sc->phi;
		sum[0][0] += w;
		sum[0][1] += w * fs[f].theta;
		sum[1][0] += w * fs[f].rf;
		sum[1][1] += w * fs[f].rf * fs[f].theta * fs[f].phi;
	}
	truth[0] = sum[0][1] / sum[0][0];
	truth[1] = sum[1][1] / sum[1][0];
}

/*
 * Interference in period p of np: on a host with both arms, B's files'
 * extra pages (those they are expected to read above what they would
 * under A: rate times pages per fault times theta phi - 1) as a share e
 * of the pages the host is expected to read in the period (its cache
 * turnover, both arms); A's files' major faults are multiplied by
 * 1 + k e.  A host wholly on one arm has e = 0: theta and phi are B's
 * effect when it has the host to itself.
 */
static double interference(const struct scenario *sc, const struct file *fs,
			   const bool *in_b, unsigned int p, unsigned int np)
{
	double extra = 0, turnover = 0;

	for (unsigned int f = 0; f < sc->files && sc->k > 0; f++) {
		const struct file *fl = &fs[f];
		double pages = fl->rate * fl->rf, ab = fl->theta * fl->phi;

		if (fl->group < 2 && p >= np / 2)
			pages *= fl->group ? 4 : 0.25;
		extra += in_b[fl->bucket] ? pages * (ab - 1) : 0;
		turnover += in_b[fl->bucket] ? pages * ab : pages;
	}
	return turnover > 0 ? 1 + sc->k * fmax(0, extra) / turnover : 1;
}

static void simulate(const struct scenario *sc, struct abt_period *per, unsigned int np,
		     struct file *fs)
{
	/* a washout of three time constants of the carry-over: e^-3 of it is left */
	double mu = sc->mu, carry = sc->carry * (sc->flags & NO_WASHOUT ? 1 : exp(-3));
	uint64_t key = rnd() >> 11, salt = 0;

	for (unsigned int f = 0; f < sc->files; f++) {
		double s = fmin(32 * pow(unif(), -1 / 1.1), 262144);

		/* the module's hash, keyed per experiment, of (device, inode) */
		fs[f].ino = rnd() >> 32;
		fs[f].bucket = rap_ab_bucket(key, 0x800010, fs[f].ino);
		fs[f].rate = mu * sqrt(s) * lognormal(0, 1);
		fs[f].rf = lognormal(log(8), 0.7);
		fs[f].group = (unsigned int)(rnd() % 5);
	}
	for (unsigned int f = 0; f < (sc->files + 99) / 100; f++)
		fs[rnd() % sc->files].rate *= 30;
	effects(sc, fs, np);
	memset(per, 0, np * sizeof(*per));
	for (unsigned int p = 0; p < np; p++) {
		double load = sc->bursty ? lognormal(0, 1.5) : lognormal(0, 0.3), ia;
		u64 mask;

		/* ab start's salt, then ab period's: fresh, or the pair's swap */
		salt = sc->pairs && p % 2 ? salt | RAP_AB_SALT_SWAP : rnd() >> 11;
		mask = rap_ab_mask(salt, 500);
		for (unsigned int i = 0; i < ABT_BUCKETS; i++)
			per[p].in_b[i] = mask >> i & 1;
		ia = interference(sc, fs, per[p].in_b, p, np);
		for (unsigned int f = 0; f < sc->files; f++) {
			const struct file *fl = &fs[f];
			bool b = per[p].in_b[fl->bucket];
			bool was = p ? per[p - 1].in_b[fl->bucket] : b;
			double l = fl->rate * load * lognormal(0, 0.3), y, c = p ? carry : 0;

			if (fl->group < 2 && p >= np / 2)
				l *= fl->group ? 4 : 0.25;
			if (!p && (sc->flags & COLD_START))
				l *= 5 * lognormal(0, 1);
			if (sc->bursty && (rnd() & 1))
				continue;
			/* a share c of the faults runs on the state the last arm left */
			y = poisson(l * ((1 - c) * (b ? fl->theta : ia) + c * (was ? fl->theta : 1)));
			per[p].y[ABT_FAULTS][fl->bucket] += y;
			per[p].y[ABT_PAGES][fl->bucket] += poisson(y * fl->rf *
				((1 - c) * (b ? fl->phi : 1) + c * (was ? fl->phi : 1)));
		}
	}
}

/* log P(X <= k) for X ~ binomial(n, p) */
static double binom_cdf(unsigned int k, unsigned int n, double p)
{
	double s = 0;

	for (unsigned int i = 0; i <= k; i++)
		s += exp(lgamma(n + 1) - lgamma(i + 1) - lgamma(n - i + 1) +
			 i * log(p) + (n - i) * log1p(-p));
	return s;
}

/* Clopper-Pearson one-sided 1 - tail bounds of k successes in n */
static double cp_upper_at(unsigned int k, unsigned int n, double tail)
{
	double lo = 0, hi = 1;

	if (k == n)
		return 1;
	for (int i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;

		*(binom_cdf(k, n, mid) > tail ? &lo : &hi) = mid;
	}
	return hi;
}

static double cp_lower_at(unsigned int k, unsigned int n, double tail)
{
	return k ? 1 - cp_upper_at(n - k, n, tail) : 0;
}

/* The table's bounds: one-sided 95% */
static double cp_upper(unsigned int k, unsigned int n)
{
	return cp_upper_at(k, n, 0.05);
}

static double cp_lower(unsigned int k, unsigned int n)
{
	return cp_lower_at(k, n, 0.05);
}

struct tally {
	unsigned int runs, better, worse, worse_io, none, enough, covered, covered_io;
	unsigned int p30;	/* runs with a major-fault p-value below 0.3 */
};

static void run(const struct scenario *sc, uint64_t seed, struct tally *t)
{
	struct abt_plan pl = abt_default_plan, *plan = &pl;
	struct abt_period *per;

	if (sc->periods)
		pl.periods = sc->periods;
	pl.pairs = sc->pairs;
	per = calloc(plan->periods, sizeof(*per));
	struct file *fs = calloc(sc->files, sizeof(*fs));
	struct abt_result r;

	memset(t, 0, sizeof(*t));
	rs = seed;
	for (unsigned int i = 0; i < sc->runs; i++) {
		const struct abt_effect *e = &r.eff[ABT_FAULTS];

		simulate(sc, per, plan->periods, fs);
		abt_analyse(per, plan->periods, plan, &r);
		t->runs++;
		t->better += r.outcome == ABT_B_BETTER;
		t->worse += r.outcome == ABT_B_WORSE;
		t->worse_io += r.outcome == ABT_B_WORSE_IO;
		t->none += r.outcome == ABT_NOT_ENOUGH_DATA;
		if (r.outcome == ABT_NOT_ENOUGH_DATA)
			continue;
		t->enough++;
		t->covered += e->lo <= truth[0] - 1 && truth[0] - 1 <= e->hi;
		t->covered_io += r.eff[ABT_PAGES].lo <= truth[1] - 1 &&
				 truth[1] - 1 <= r.eff[ABT_PAGES].hi;
		t->p30 += e->p < 0.3;
	}
	free(per);
	free(fs);
}

#define RUNS 2000
/*
 * A row's runs are drawn from a seed of its index (main()): a new row goes
 * at the end, or every row after it draws other runs. The row "total +5%,
 * period pairs" calls B better in 0.92% of 16000 runs over eight other
 * seeds (0.65% to 1.3% a seed), against its check's 1%.
 */
static const struct scenario scenarios[] = {
	{ "A/A, 6 files", 6, 1, 1, 1, 1, 2, false, RUNS, AA, 0, false, 0, 0, 0 },
	{ "A/A, 200 files", 200, 1, 1, 1, 1, 2, false, RUNS, AA, 0, false, 0, 0, 0 },
	{ "A/A, 2000 files", 2000, 1, 1, 1, 1, 2, false, RUNS, AA, 0, false, 0, 0, 0 },
	{ "A/A, 200 files, bursty load", 200, 1, 1, 1, 1, 2, true, RUNS, AA, 0, false, 0, 0, 0 },
	{ "A/A, 200 files, low counts", 200, 1, 1, 1, 1, 0.05, false, RUNS, AA, 0, false, 0, 0, 0 },
	{ "B: -15% major faults, 200 files", 200, 0.85, 1, 0.85, 1, 2, false, RUNS, REPORT, 0, false, 0, 0, 0 },
	{ "B: -15% major faults, 200 files, 12 periods", 200, 0.85, 1, 0.85, 1, 2, false, RUNS,
	  REPORT, 12, false, 0, 0, 0 },
	{ "B: -15% major faults, 200 files, 24 periods", 200, 0.85, 1, 0.85, 1, 2, false, RUNS,
	  POWER, 24, false, 0, 0, 0 },
	{ "A/A, 200 files, period pairs", 200, 1, 1, 1, 1, 2, false, RUNS, AA, 0, true, 0, 0, 0 },
	{ "B: -15% major faults, 200 files, period pairs", 200, 0.85, 1, 0.85, 1, 2, false, RUNS,
	  REPORT, 0, true, 0, 0, 0 },
	{ "B: -15% major faults, 200 files, 24 periods in pairs", 200, 0.85, 1, 0.85, 1, 2,
	  false, RUNS, POWER90, 24, true, 0, 0, 0 },
	{ "B: -15% major faults, 200 files, bursty", 200, 0.85, 1, 0.85, 1, 2, true, RUNS,
	  REPORT, 0, false, 0, 0, 0 },
	{ "B: -15% major faults, low counts", 200, 0.85, 1, 0.85, 1, 0.05, false, RUNS,
	  REPORT, 0, false, 0, 0, 0 },
	{ "B: the heaviest 2% of files +60% major faults", 200, 1, 1, 1.6, 1, 2, false, RUNS,
	  NOT_BETTER, 0, false, 0, 0, 0 },
	{ "B: -10% major faults, the heaviest 2% +60%, low counts", 200, 0.9, 1, 1.6, 1, 0.05,
	  false, RUNS, REPORT, 0, false, 0, 0, 0 },
	{ "B: -15% major faults but the heaviest 2% of files, total +5%", 200, 0.85, 1, 1.05, 1,
	  2, false, RUNS, NOT_BETTER, 0, false, 0, HEAVY_TOTAL, 0 },
	{ "B: -15% major faults but the heaviest 2% of files, total +5%, period pairs", 200, 0.85,
	  1, 1.05, 1, 2, false, RUNS, NOT_BETTER, 0, true, 0, HEAVY_TOTAL, 0 },
	{ "B: +5% major faults", 200, 1.05, 1, 1.05, 1, 2, false, RUNS, NOT_BETTER, 0, false, 0, 0, 0 },
	{ "B: -15% major faults, +5% pages read", 200, 0.85, 1.05 / 0.85, 0.85, 1.05 / 0.85, 2,
	  false, RUNS, NOT_BETTER, 0, false, 0, 0, 0 },
	{ "B: -15% major faults, +50% pages per fault", 200, 0.85, 1.5, 0.85, 1.5, 2, false,
	  RUNS, NOT_BETTER, 0, false, 0, 0, 0 },
	{ "B: the heaviest 2% of files read 3x the pages", 200, 1, 1, 1, 3, 2, false, RUNS,
	  NOT_BETTER, 0, false, 0, 0, 0 },
	{ "B: pages read x3, major faults unchanged", 200, 1, 3, 1, 3, 2, false, RUNS,
	  WORSE_IO, 0, false, 0, 0, 0 },
	{ "A/A, 200 files, cold-start burst in period 1", 200, 1, 1, 1, 1, 2, false, RUNS, AA, 0,
	  false, 0, COLD_START, 0 },
	{ "B: -15% major faults, carry-over 25%, washout", 200, 0.85, 1, 0.85, 1, 2, false, RUNS,
	  REPORT, 0, false, 0.25, 0, 0 },
	{ "B: -15% major faults, carry-over 50%, washout", 200, 0.85, 1, 0.85, 1, 2, false, RUNS,
	  REPORT, 0, false, 0.5, 0, 0 },
	{ "B: -15% major faults, carry-over 50%, no washout (not shipped)", 200, 0.85, 1, 0.85, 1,
	  2, false, RUNS, REPORT, 0, false, 0.5, NO_WASHOUT, 0 },
	{ "B: rollout +15% major faults, pages x1.5, period pairs, no interference", 200,
	  1.15, 1.3, 1.15, 1.3, 2, false, RUNS, REPORT, 0, true, 0, 0, 0 },
	{ "B: rollout +15% major faults, pages x1.5, period pairs, interference k = 2.5",
	  200, 1.15, 1.3, 1.15, 1.3, 2, false, RUNS, REPORT, 0, true, 0, 0, 2.5 },
	{ "B: rollout +15% major faults, pages x1.5, period pairs, interference k = 4",
	  200, 1.15, 1.3, 1.15, 1.3, 2, false, RUNS, INTERFERES, 0, true, 0, 0, 4 },
	{ "A/A, 33 files, one pair of periods (ab_tool.sh's)", 33, 1, 1, 1, 1, 2, false, RUNS, AA, 2,
	  true, 0, 0, 0 },
};

/* The text of a file, or NULL */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];
	FILE *m;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(f);
	fclose(m);
	return buf;
}

static const char *const check_names[] = {
	[AA] = "calls", [POWER] = "B better", [POWER90] = "B better", [NOT_BETTER] = "B better",
	[WORSE_IO] = "B worse (I/O)", [INTERFERES] = "B better", [REPORT] = "B better",
};

/* One scenario: its row of the table, its checks */
static void row(FILE *tab, const struct scenario *sc, uint64_t seed)
{
	struct tally t;
	unsigned int calls;
	double rate, cov, cov_io, hi;

	run(sc, seed, &t);
	calls = sc->check == AA ? t.better + t.worse + t.worse_io :
		sc->check == WORSE_IO ? t.worse_io : t.better;
	rate = (double)calls / t.runs;
	hi = cp_upper(calls, t.runs);
	cov = t.enough ? (double)t.covered / t.enough : 1;
	cov_io = t.enough ? (double)t.covered_io / t.enough : 1;
	fprintf(tab, "| %s | %u | %u | %u | %u | %u | %s %.1f%% [%.1f%%, %.1f%%] | %.1f%% | %.1f%% | %.1f%% |\n",
		sc->name, t.runs, t.better, t.worse, t.worse_io, t.none,
		check_names[sc->check], 100 * rate, 100 * cp_lower(calls, t.runs), 100 * hi,
		100 * cov, 100 * cov_io, t.enough ? 100.0 * t.p30 / t.enough : 0);
	switch (sc->check) {
	case AA:
		ok(rate <= 0.05 && hi <= 0.065,
		   "%s: false positives %u of %u (%.1f%%, 95%% upper bound %.1f%%)",
		   sc->name, calls, t.runs, 100 * rate, 100 * hi);
		/*
		 * a valid test's p-values are uniform: 30% below 0.3; the bound
		 * is one-sided 99.9%, so that a valid test fails none of the
		 * table's eight A/A rows in over 99% of seeds (at 95% a row,
		 * one of them fails in 30% of seeds)
		 */
		ok(cp_lower_at(t.p30, t.enough, 0.001) <= 0.3,
		   "%s: p < 0.3 in %u of %u runs, not more than a uniform p gives",
		   sc->name, t.p30, t.enough);
		break;
	case POWER:
	case POWER90:
		ok(rate >= (sc->check == POWER ? 0.70 : 0.90), "%s: power %.1f%% (%u of %u)",
		   sc->name, 100 * rate, calls, t.runs);
		break;
	case NOT_BETTER:
		ok(rate <= 0.01, "%s: B better in %u of %u runs (%.2f%%)", sc->name, calls,
		   t.runs, 100 * rate);
		break;
	case WORSE_IO:
		ok(rate >= 0.80, "%s: B worse (I/O) in %u of %u runs (%.1f%%)", sc->name,
		   calls, t.runs, 100 * rate);
		break;
	case INTERFERES:
		ok(rate >= 0.5, "%s: B better in %u of %u runs (%.1f%%), for a rollout that is worse",
		   sc->name, calls, t.runs, 100 * rate);
		break;
	case REPORT:
		ok(1, "%s: B better in %.1f%% (reported)", sc->name, 100 * rate);
		break;
	}
	if (t.enough && sc->k > 0)
		ok(1, "%s: coverage of the rollout's change %.1f%% (reported: interference biases it)",
		   sc->name, 100 * cov);
	else if (t.enough && (sc->flags & NO_WASHOUT))
		ok(1, "%s: coverage %.1f%% (reported: the design it shows is not shipped)",
		   sc->name, 100 * cov);
	else if (t.enough)
		ok(cov >= 0.93 && cov_io >= 0.93,
		   "%s: the intervals cover the true change in totals in %.1f%% (faults), %.1f%% (pages) of %u runs",
		   sc->name, 100 * cov, 100 * cov_io, t.enough);
}

/* The fleet's recorded grid into FILE: ab_sim --fleet-full FILE */
static int fleet_full(const char *file)
{
	FILE *f = fopen(file, "w");

	if (!f)
		return perror(file), 1;
	fleet_table(f, true);
	ok(!fclose(f), "the fleet's grid is in %s", file);
	return tap_done();
}

/*
 * ab_sim [--table FILE] [--doc docs/AB.md]: the doc must hold the tables;
 * ab_sim --fleet-full FILE: the fleet's grid of 2,000 runs a cell, which
 * docs/AB.md records with this command (too long for make check);
 * ab_sim --rules-test FILE RULES: ab_fleet.c's promtool test of RULES
 */
int main(int argc, char **argv)
{
	const char *out = NULL, *doc = NULL;
	char *table = NULL, *fleet = NULL, *text;
	size_t len = 0, flen = 0;
	FILE *tab, *ftab;

	if (argc == 4 && !strcmp(argv[1], "--rules-test"))
		return fleet_rules_test(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "--fleet-full"))
		return fleet_full(argv[2]);
	tab = open_memstream(&table, &len);
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--table"))
			out = argv[i + 1];
		else if (!strcmp(argv[i], "--doc"))
			doc = argv[i + 1];
	}
	fprintf(tab, "| scenario | runs | B better | B worse | B worse (I/O) | not enough data | "
		"checked: rate [one-sided 95%% bounds] | faults interval covers | "
		"pages interval covers | p < 0.3 |\n|---|---|---|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		row(tab, &scenarios[i], 0xab5eed + i);
	fclose(tab);
	ftab = open_memstream(&fleet, &flen);
	fleet_table(ftab, false);
	fclose(ftab);
	if (out) {
		FILE *f = fopen(out, "w");

		ok(f && fprintf(f, "%s\n%s", table, fleet) >= 0 && !fclose(f), "the tables are in %s",
		   out);
	}
	if (doc) {
		text = slurp(doc);
		ok(text && strstr(text, table), "%s holds this table (regenerate: ab_sim --table)",
		   doc);
		ok(text && strstr(text, fleet), "%s holds the fleet's table (regenerate: ab_sim --table)",
		   doc);
		free(text);
	}
	free(table);
	free(fleet);
	return tap_done();
}
