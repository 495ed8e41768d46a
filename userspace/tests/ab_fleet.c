// SPDX-License-Identifier: GPL-2.0
/*
 * ab_fleet: ab_sim's fleet part.  Many hosts run one experiment for 7
 * simulated days, a period every 6 hours (28), and the fleet verdict is
 * looked at after every period, with the arithmetic the rules ship
 * (abtest/fleet.c; userspace/tests/prometheus.sh checks the rules file
 * against it through promtool, on the input fleet_rules_test() writes).
 * The model, in docs/AB.md ("The fleet"):
 *
 *   image:  F = 16 files, the same inodes on every host; activity
 *           Pareto(0.7) (one file often most of the faults); per host
 *           times lognormal(0, 0.5), the host's load lognormal(0, 1);
 *           pages per major fault lognormal(log 8, 0.7) per file.
 *   host:   its own key and salts from ab start and ab period, or
 *           (shared) one key and one salt sequence for the whole fleet,
 *           as an image that copies them would have; files hash into
 *           buckets through the module's rap_ab_bucket() and the arms are
 *           rap_ab_mask()'s; at 500 permille in complementary pairs, as
 *           ab start plans them.
 *   period: load lognormal(0, 0.3); period 1 a cold-start burst, every
 *           file 5 times as active times lognormal(0, 1); per file
 *           Poisson(rate load e theta^B) major faults, e lognormal(0, 0.3),
 *           and Poisson(faults r_f phi^B) pages read.
 *   rollout: a share of the hosts held wholly on A, as many wholly on B
 *           (permille 0 and 1000, never swapped); on the other hosts, A's
 *           files' major faults times 1 + k e, e the pages B's files are
 *           expected to read above what they would under A as a share of
 *           the pages the host is expected to read (interference()).  The
 *           holdback is read at the end as the rules read it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abtest/fleet.h"
#include "tests/tap.h"
#include "policy.h"

#define FILES	16
#define PERIODS	28	/* 7 days of 6 hours */

static uint64_t fs_rng;

static uint64_t frnd(void)
{
	uint64_t z = (fs_rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double funif(void)
{
	return ((double)(frnd() >> 11) + 0.5) / 9007199254740992.0;
}

/* Box-Muller, both of its normals */
static double fgauss(void)
{
	static double next;
	static bool have;
	double r, a;

	if (have) {
		have = false;
		return next;
	}
	r = sqrt(-2 * log(funif()));
	a = 2 * M_PI * funif();
	next = r * sin(a);
	have = true;
	return r * cos(a);
}

static double fpoisson(double l)
{
	double p = 1, lim = exp(-l);
	int k = -1;

	if (l > 30)
		return fmax(0, round(l + sqrt(l) * fgauss()));
	do {
		k++;
		p *= funif();
	} while (p > lim);
	return k;
}

struct fleet_case {
	const char *name;
	unsigned int hosts, permille, runs;
	double theta;		/* B's effect on every file's major faults, alone on a host */
	bool shared;		/* one key and one salt sequence fleet-wide */
	bool power;		/* checked: a verdict of B better in >= 90% */
	double phi;		/* B's effect on pages per major fault */
	double k;		/* interference: A's faults times 1 + k e on a host with both arms */
	unsigned int hold;	/* holdback hosts per arm, per mille of the hosts */
};

struct fleet_host {
	struct abf_host st;
	struct abt_period per[2];	/* this period and the one before */
	double rate[FILES], rf[FILES];
	unsigned int bucket[FILES];
	uint64_t salt;
};

struct fleet_tally {
	unsigned int runs, better, worse, refused, pooled_calls;
	unsigned int held, covered, flagged, pcovered;	/* holdback: read, covers, interference, pages cover */
	double within, within2, ratio, ratio2, interference, pages, pages2;	/* sums over the runs held */
};

/*
 * Interference on a host with both arms: A's files' major faults times
 * 1 + k e, e the pages B's files are expected to read above what they
 * would under A, as a share of the pages the host is expected to read in
 * the period (its cache turnover); e is 0 on a host wholly on one arm
 */
static double interference(const struct fleet_case *fc, const struct fleet_host *h,
			   const struct abt_period *cur)
{
	double extra = 0, turnover = 0, ab = fc->theta * fc->phi;

	for (int f = 0; f < FILES && fc->k > 0; f++) {
		double pages = h->rate[f] * h->rf[f];
		bool b = cur->in_b[h->bucket[f]];

		extra += b ? pages * (ab - 1) : 0;
		turnover += b ? pages * ab : pages;
	}
	return turnover > 0 ? 1 + fc->k * fmax(0, extra) / turnover : 1;
}

/* Hosts 0..n-1 are held on arm A, n..2n-1 on arm B, the rest run the experiment */
static unsigned int held(const struct fleet_case *fc)
{
	return (fc->hosts * fc->hold + 500) / 1000;
}

/*
 * Host i's arm B from its salt s; a held host runs no experiment (no ab
 * start, no pairs), so its permille of 0 or 1000 is never swapped
 */
static u64 host_mask(const struct fleet_case *fc, unsigned int i, u64 s)
{
	unsigned int n = held(fc);

	if (i < 2 * n)
		return rap_ab_mask(s & ~RAP_AB_SALT_SWAP, i < n ? 0 : 1000);
	return rap_ab_mask(s, fc->permille);
}

/* Host h's counts in period p, its arms from mask */
static void host_period(const struct fleet_case *fc, struct fleet_host *h, unsigned int p,
			u64 mask, struct abt_period *cur)
{
	double load = exp(0.3 * fgauss()), ia;

	memset(cur, 0, sizeof(*cur));
	for (int b = 0; b < ABT_BUCKETS; b++)
		cur->in_b[b] = mask >> b & 1;
	ia = interference(fc, h, cur);
	for (int f = 0; f < FILES; f++) {
		unsigned int b = h->bucket[f];
		double l = h->rate[f] * load * exp(0.3 * fgauss()), y;

		if (!p)
			l *= 5 * exp(fgauss());
		y = fpoisson(l * (cur->in_b[b] ? fc->theta : ia));
		cur->y[ABT_FAULTS][b] += y;
		cur->y[ABT_PAGES][b] += fpoisson(y * h->rf[f] * (cur->in_b[b] ? fc->phi : 1));
	}
}

/*
 * The holdback at the end of the rollout, as the rules read it: each held
 * host's major faults over the last period, ln of the ratio of the arms'
 * means and its standard error (abf_holdback(), the rules' arithmetic);
 * the interference term is that less the experiment hosts' change in
 * totals (abf_pool()'s total_lr)
 */
static void holdback(const struct fleet_case *fc, const struct fleet_host *h,
		     const struct abf_fleet *fl, struct fleet_tally *t)
{
	unsigned int n = held(fc);
	double *r = calloc(4 * n + 1, sizeof(*r)), *q = r + 2 * n, lr, se, lq, sq, within, term;
	const struct abt_period *last;

	for (unsigned int i = 0; i < 2 * n && r; i++) {
		last = &h[i].per[(PERIODS - 1) % 2];
		for (int b = 0; b < ABT_BUCKETS; b++) {
			r[i] += last->y[ABT_FAULTS][b];
			q[i] += last->y[ABT_PAGES][b];
		}
	}
	if (!r || !n || !fl->total_lr[ABT_FAULTS] || !abf_holdback(r, n, r + n, n, &lr, &se) ||
	    !abf_holdback(q, n, q + n, n, &lq, &sq)) {
		free(r);
		return;
	}
	free(r);
	within = fl->total_lr[ABT_FAULTS];
	term = lr - within;
	t->held++;
	t->covered += fabs(lr - log(fc->theta)) <= 2 * se;
	t->flagged += fabs(term) > 2 * se;
	t->within += within;
	t->within2 += within * within;
	t->ratio += lr;
	t->ratio2 += lr * lr;
	t->interference += term;
	t->pages += lq;
	t->pages2 += lq * lq;
	t->pcovered += fabs(lq - log(fc->theta * fc->phi)) <= 2 * sq;
}

/* One fleet over the 28 periods; looks after each */
static void fleet_run(const struct fleet_case *fc, struct fleet_host *h,
		      struct abf_host *look, struct fleet_tally *t)
{
	double base[FILES];
	uint64_t ino[FILES], key = frnd() >> 11, salt = frnd() >> 11;
	int verdict = ABF_NONE, anyway = ABF_NONE;
	/* ab start's complementary pairs: 32 buckets of 64, an even horizon */
	bool pairs = (fc->permille * ABT_BUCKETS + 500) / 1000 == ABT_BUCKETS / 2;
	struct abf_fleet fl;

	for (int f = 0; f < FILES; f++) {
		base[f] = pow(funif(), -1 / 0.7);
		ino[f] = frnd() >> 32;
	}
	for (unsigned int i = 0; i < fc->hosts; i++) {
		double load = exp(fgauss());

		h[i].st = (struct abf_host){ .key = fc->shared ? key : frnd() >> 11 };
		for (int f = 0; f < FILES; f++) {
			h[i].rate[f] = 2 * base[f] * load * exp(0.5 * fgauss());
			h[i].rf[f] = exp(log(8) + 0.7 * fgauss());
			h[i].bucket[f] = rap_ab_bucket(h[i].st.key, 0x800010, ino[f]);
		}
	}
	for (unsigned int p = 0; p < PERIODS; p++) {
		salt = pairs && p % 2 ? salt | RAP_AB_SALT_SWAP : frnd() >> 11;
		for (unsigned int i = 0; i < fc->hosts; i++) {
			struct abt_period *cur = &h[i].per[p % 2];
			u64 s = fc->shared ? salt : pairs && p % 2 ? h[i].salt | RAP_AB_SALT_SWAP :
				frnd() >> 11;

			h[i].salt = s;
			host_period(fc, &h[i], p, host_mask(fc, i, s), cur);
			abf_add(&h[i].st, cur, p ? &h[i].per[(p + 1) % 2] : NULL);
			look[i] = h[i].st;
		}
		abf_pool(look, fc->hosts, &fl);
		if (verdict == ABF_NONE || verdict == ABF_NOT_ENOUGH)
			verdict = fl.verdict;
		t->refused += fl.hosts == 0 && p == PERIODS - 1;
		if (p == PERIODS - 1)
			holdback(fc, h, &fl, t);
		/* the same hosts with keys of their own: what sharing would do */
		for (unsigned int i = 0; i < fc->hosts && fc->shared; i++)
			look[i].key = i;
		abf_pool(look, fc->hosts, &fl);
		if (anyway == ABF_NONE || anyway == ABF_NOT_ENOUGH)
			anyway = fl.verdict;
	}
	t->runs++;
	t->better += verdict == ABF_BETTER;
	t->worse += verdict == ABF_WORSE;
	t->pooled_calls += anyway == ABF_BETTER || anyway == ABF_WORSE;
}

static double cp_up(unsigned int k, unsigned int n)
{
	double lo = 0, hi = 1;

	for (int i = 0; i < 60 && k < n; i++) {
		double mid = (lo + hi) / 2, s = 0;

		for (unsigned int j = 0; j <= k; j++)
			s += exp(lgamma(n + 1) - lgamma(j + 1) - lgamma(n - j + 1) +
				 j * log(mid) + (n - j) * log1p(-mid));
		*(s > 0.05 ? &lo : &hi) = mid;
	}
	return k < n ? hi : 1;
}

#define FR 2000
/* make check's rows: every 10-host cell at 2,000 runs, the 100-host ones at 1,000 */
static const struct fleet_case fleet_cases[] = {
	{ "A/A, 10 hosts, 500 permille", 10, 500, FR, 1, false, false, 1, 0, 0 },
	{ "A/A, 10 hosts, 100 permille", 10, 100, FR, 1, false, false, 1, 0, 0 },
	{ "A/A, 100 hosts, 500 permille", 100, 500, FR / 2, 1, false, false, 1, 0, 0 },
	{ "A/A, 100 hosts, 100 permille", 100, 100, FR / 2, 1, false, false, 1, 0, 0 },
	{ "A/A, 10 hosts, 500 permille, one key and salt for all", 10, 500, FR, 1, true, false,
	  1, 0, 0 },
	{ "A/A, 100 hosts, 100 permille, one key and salt for all", 100, 100, FR / 2, 1, true,
	  false, 1, 0, 0 },
	{ "B: -15% major faults, 10 hosts, 500 permille", 10, 500, FR, 0.85, false, true, 1, 0, 0 },
	{ "B: -15% major faults, 10 hosts, 100 permille", 10, 100, FR, 0.85, false, false, 1, 0, 0 },
};

/* The recorded grid (ab_sim --fleet-full): every A/A cell at 2,000 runs */
static const struct fleet_case fleet_full[] = {
	{ "A/A, 10 hosts, 500 permille", 10, 500, FR, 1, false, false, 1, 0, 0 },
	{ "A/A, 10 hosts, 100 permille", 10, 100, FR, 1, false, false, 1, 0, 0 },
	{ "A/A, 100 hosts, 500 permille", 100, 500, FR, 1, false, false, 1, 0, 0 },
	{ "A/A, 100 hosts, 100 permille", 100, 100, FR, 1, false, false, 1, 0, 0 },
	{ "A/A, 1000 hosts, 500 permille", 1000, 500, FR, 1, false, false, 1, 0, 0 },
	{ "A/A, 1000 hosts, 100 permille", 1000, 100, FR, 1, false, false, 1, 0, 0 },
	{ "A/A, 10 hosts, 500 permille, one key and salt for all", 10, 500, FR, 1, true, false,
	  1, 0, 0 },
	{ "A/A, 10 hosts, 100 permille, one key and salt for all", 10, 100, FR, 1, true, false,
	  1, 0, 0 },
	{ "A/A, 100 hosts, 500 permille, one key and salt for all", 100, 500, FR, 1, true, false,
	  1, 0, 0 },
	{ "A/A, 100 hosts, 100 permille, one key and salt for all", 100, 100, FR, 1, true, false,
	  1, 0, 0 },
	{ "A/A, 1000 hosts, 500 permille, one key and salt for all", 1000, 500, FR, 1, true, false,
	  1, 0, 0 },
	{ "A/A, 1000 hosts, 100 permille, one key and salt for all", 1000, 100, FR, 1, true, false,
	  1, 0, 0 },
};

/*
 * A rollout with a holdback of hold per mille of the hosts on each arm.
 * B alone takes 15% more major faults and reads 1.3 times the pages per
 * fault (1.5 times the pages); on a host with both arms its extra pages
 * raise A's faults (k), which the within-host comparison reads as B's gain
 */
#define ROLLOUT(hosts, k, hold, share) \
	{ "rollout +15% major faults, pages x1.5, k = " #k ", " #hosts " hosts, " share \
	  " held per arm", hosts, 500, FR, 1.15, false, false, 1.3, k, hold }
static const struct fleet_case holdback_cases[] = {
	ROLLOUT(100, 0, 50, "5%"), ROLLOUT(100, 2.5, 50, "5%"),
};
static const struct fleet_case holdback_full[] = {
	ROLLOUT(100, 2.5, 200, "20%"), ROLLOUT(1000, 2.5, 50, "5%"),
};

/* fc's runs from seed into t; 0 when out of memory */
static int fleet_runs(const struct fleet_case *fc, uint64_t seed, struct fleet_tally *t)
{
	struct fleet_host *h = calloc(fc->hosts, sizeof(*h));
	struct abf_host *look = calloc(fc->hosts, sizeof(*look));

	*t = (struct fleet_tally){ 0 };
	if (h && look) {
		fs_rng = seed;
		for (unsigned int r = 0; r < fc->runs; r++)
			fleet_run(fc, h, look, t);
	} else {
		ok(0, "fleet: %s: out of memory", fc->name);
	}
	free(h);
	free(look);
	return t->runs == fc->runs;
}

/* One row of the fleet's verdict table, and its checks */
static void verdict_row(FILE *tab, const struct fleet_case *fc, const struct fleet_tally *t)
{
	unsigned int calls = fc->theta != 1 ? t->better : t->better + t->worse;
	double rate = (double)calls / t->runs;
	char anyway[32] = "-";

	if (fc->shared)
		snprintf(anyway, sizeof(anyway), "%.1f%%", 100.0 * t->pooled_calls / t->runs);
	fprintf(tab, "| %s | %u | %u | %u | %s %.1f%% [%s %.1f%%] | %u | %s |\n", fc->name,
		t->runs, t->better, t->worse, fc->theta != 1 ? "B better" : "calls", 100 * rate,
		fc->theta != 1 ? ">=" : "<=", 100 * (fc->theta != 1 ?
		1 - cp_up(t->runs - calls, t->runs) : cp_up(calls, t->runs)), t->refused, anyway);
	if (fc->theta != 1 && !fc->power)
		ok(1, "fleet: %s: B better in %.1f%% (reported)", fc->name, 100 * rate);
	else if (fc->power)
		ok(rate >= 0.9, "fleet: %s: B better in %.1f%% of %u runs", fc->name,
		   100 * rate, t->runs);
	else
		ok(rate <= 0.05, "fleet: %s: calls under continuous monitoring in %u of %u runs (%.1f%%)",
		   fc->name, calls, t->runs, 100 * rate);
	if (fc->shared)
		ok(t->refused == t->runs, "fleet: %s: no host pooled in any run", fc->name);
}

static double pct(double ln)
{
	return 100 * (exp(ln) - 1);
}

/*
 * One row of the holdback table.  Checked: the holdback's estimate is
 * centred on the rollout's true effect (its mean over the runs within 4
 * standard errors); with 20 hosts or more an arm, its interval covers
 * that effect in at least 93% of runs (fewer: reported), and the pages
 * read holdback is as centred on the rollout's pages; without
 * interference, the experiment hosts' change in totals is as centred;
 * with it, the within-host verdict calls B better in over half of the
 * runs, the bias the simulation must show
 */
static void holdback_row(FILE *tab, const struct fleet_case *fc, const struct fleet_tally *t)
{
	unsigned int n = t->held ? t->held : 1;
	double cov = (double)t->covered / n, flag = (double)t->flagged / n, m = t->ratio / n;
	double sem = sqrt(fmax(0, t->ratio2 / n - m * m) / n), w = t->within / n;
	double wsem = sqrt(fmax(0, t->within2 / n - w * w) / n), pm = t->pages / n;
	double psem = sqrt(fmax(0, t->pages2 / n - pm * pm) / n);

	fprintf(tab, "| %s | %u | %u | %u | %u | %+.1f%% | %+.1f%% | %+.1f%% | %.1f%% | %+.1f%% | %.1f%% | %+.1f%% (%+.1f%%) | %.1f%% |\n",
		fc->name, t->runs, held(fc), t->better, t->worse, pct(w),
		pct(log(fc->theta)), pct(m), 100 * cov, 100 * t->interference / n, 100 * flag,
		pct(pm), pct(log(fc->theta * fc->phi)), 100.0 * t->pcovered / n);
	ok(t->held == t->runs && fabs(m - log(fc->theta)) <= 4 * sem,
	   "fleet: %s: the holdback reads %+.1f%% (ln %.3f +- %.3f) for the rollout's %+.1f%%",
	   fc->name, pct(m), m, sem, pct(log(fc->theta)));
	ok(t->held == t->runs && fabs(pm - log(fc->theta * fc->phi)) <= 4 * psem,
	   "fleet: %s: the pages holdback reads %+.1f%% (ln %.3f +- %.3f) for the rollout's %+.1f%%",
	   fc->name, pct(pm), pm, psem, pct(log(fc->theta * fc->phi)));
	if (held(fc) >= 20)
		ok(cov >= 0.93, "fleet: %s: the holdback's interval covers the rollout's effect in %.1f%% of %u runs",
		   fc->name, 100 * cov, t->held);
	else
		ok(1, "fleet: %s: the holdback's interval covers the rollout's effect in %.1f%% (reported)",
		   fc->name, 100 * cov);
	if (fc->k > 0)
		ok(2 * t->better > t->runs, "fleet: %s: within-host B better in %u of %u runs",
		   fc->name, t->better, t->runs);
	else
		ok(t->held == t->runs && fabs(w - log(fc->theta)) <= 4 * wsem,
		   "fleet: %s: the change in totals reads %+.1f%% (ln %.3f +- %.3f) for %+.1f%%, interference flagged in %.1f%%",
		   fc->name, pct(w), w, wsem, pct(log(fc->theta)), 100 * flag);
}

/* The verdict table's rows vc[0..n) from seed */
static void verdict_rows(FILE *tab, const struct fleet_case *vc, size_t n, uint64_t seed)
{
	struct fleet_tally t;

	fprintf(tab, "| fleet scenario | runs | B better | B worse | checked: rate [one-sided 95%% bound] | "
		"refused: no host pooled | calls if shared keys were pooled |\n"
		"|---|---|---|---|---|---|---|\n");
	for (size_t c = 0; c < n; c++) {
		if (fleet_runs(&vc[c], seed + c, &t))
			verdict_row(tab, &vc[c], &t);
		fflush(tab);	/* the grid's rows as they come: it runs for long */
	}
}

/* The holdback table's rows hc[0..n) from seed */
static void holdback_rows(FILE *tab, const struct fleet_case *hc, size_t n, uint64_t seed)
{
	struct fleet_tally t;

	fprintf(tab, "| holdback scenario | runs | hosts held per arm | within-host verdict: B better | "
		"B worse | within-host change in totals (pooled, mean) | rollout's true effect | "
		"holdback estimate (mean) | holdback's interval covers | interference term (mean, of ln) | "
		"interference flagged | pages holdback (mean) (true) | its interval covers |\n"
		"|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
	for (size_t c = 0; c < n; c++) {
		if (fleet_runs(&hc[c], seed + c, &t))
			holdback_row(tab, &hc[c], &t);
		fflush(tab);
	}
}

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The fleet's tables of docs/AB.md into tab, their checks as TAP: make
 * check's, or (full) the recorded grid, its holdback rows first
 */
void fleet_table(FILE *tab, bool full)
{
	if (!full) {
		verdict_rows(tab, fleet_cases, NELEM(fleet_cases), 0xf1ee7);
		fprintf(tab, "\n");
		holdback_rows(tab, holdback_cases, NELEM(holdback_cases), 0xf1ee7 + 0x100);
		return;
	}
	holdback_rows(tab, holdback_full, NELEM(holdback_full), 0xf1ee7f00 + 0x100);
	fprintf(tab, "\n");
	verdict_rows(tab, fleet_full, NELEM(fleet_full), 0xf1ee7f00);
}

/* One series of a promtool test: the value v at every minute of 80 */
static void series(FILE *f, const char *name, const char *labels, double v)
{
	fprintf(f, "      - series: '%s{%s}'\n        values: '%.9g", name, labels, v);
	fprintf(f, "x80'\n");
}

/* A counter's series that adds per_s every second */
static void counter(FILE *f, const char *name, const char *labels, double per_s)
{
	fprintf(f, "      - series: '%s{%s}'\n        values: '0+%.9gx80'\n", name, labels,
		per_s * 60);
}

/* An expression test: expr within 1e-6 relative of want */
static void near(FILE *f, const char *expr, double want)
{
	fprintf(f, "          - expr: 'abs(%s - (%.12g)) < bool %.12g'\n"
		"            eval_time: 70m\n            exp_samples:\n"
		"              - labels: '%s'\n                value: 1\n", expr, want,
		1e-6 * (1 + fabs(want)), strchr(expr, '{') ? strchr(expr, '{') : "{}");
}

int fleet_rules_test(const char *file, const char *rules)
{
	static const char *const mn[ABT_NR_METRICS] = { "major_faults", "pages_read" };
	struct abf_host h[11] = { { .periods = 0 } };
	double ra[3], rb[3], qa[3], qb[3], lr, se, lq, sq;
	struct abf_fleet fl;
	char lab[128];
	FILE *f = fopen(file, "w");

	if (!f)
		return perror(file), 1;
	fprintf(f, "# Written by ab_sim --rules-test: the rules against abtest/fleet.c\n"
		"rule_files:\n  - %s\nevaluation_interval: 1m\n"
		"tests:\n  - interval: 1m\n    input_series:\n", rules);
	/* h1-h8 settled, h9 and h10 share a key, h11 in its first washout */
	for (unsigned int i = 0; i < 11; i++) {
		h[i].key = i == 9 ? 208 : 200 + i;
		h[i].periods = i < 10 ? 1 + i % 5 : 0;
		h[i].m[ABT_FAULTS] = (struct abf_stat){ -0.15 + 0.03 * (i % 3), 0.004 * (1 + i % 4) };
		h[i].m[ABT_PAGES] = (struct abf_stat){ 0.01 - 0.01 * (i % 2), 0.001 * (1 + i % 3) };
		snprintf(lab, sizeof(lab), "instance=\"h%u\",key=\"%llu\"", i + 1,
			 (unsigned long long)h[i].key);
		series(f, "rapolicy_ab_key", lab, 1);
		for (int m = 0; m < ABT_NR_METRICS && h[i].periods; m++) {
			snprintf(lab, sizeof(lab), "instance=\"h%u\",key=\"%llu\",metric=\"%s\"",
				 i + 1, (unsigned long long)h[i].key, mn[m]);
			series(f, "rapolicy_ab_effect", lab, h[i].m[m].est);
			series(f, "rapolicy_ab_effect_variance", lab, h[i].m[m].var);
			for (int a = 0; a < 2; a++) {
				/* h9 and h10 (a shared key) far off: pooled, they would move it */
				h[i].total[a][m] = (1000 + 100 * i + 37 * m) * (a ? 0.8 + 0.1 * (i % 3) : 1) *
						   (i == 8 || i == 9 ? 1 + 9 * a : 1);
				snprintf(lab, sizeof(lab), "instance=\"h%u\",key=\"%llu\",metric=\"%s\",arm=\"%c\"",
					 i + 1, (unsigned long long)h[i].key, mn[m], "ab"[a]);
				series(f, "rapolicy_ab_arm_scaled", lab, h[i].total[a][m]);
			}
		}
		if (h[i].periods) {
			snprintf(lab, sizeof(lab), "instance=\"h%u\",key=\"%llu\"", i + 1,
				 (unsigned long long)h[i].key);
			series(f, "rapolicy_ab_periods", lab, h[i].periods);
		}
	}
	/* holdback hosts: three on each arm */
	for (unsigned int i = 0; i < 6; i++) {
		double r = (i < 3 ? 10 : 9) + i % 3, q = 8 * r * (i < 3 ? 1 : 1.4) + i;

		*(i < 3 ? &ra[i] : &rb[i - 3]) = r;
		*(i < 3 ? &qa[i] : &qb[i - 3]) = q;
		snprintf(lab, sizeof(lab), "instance=\"hold%u\",arm=\"a\"", i);
		counter(f, "rapolicy_sync_miss_total", lab, r / 2);
		counter(f, "rapolicy_pages_read_total", lab, q / 2);
		snprintf(lab, sizeof(lab), "instance=\"hold%u\",arm=\"b\"", i);
		counter(f, "rapolicy_sync_miss_total", lab, r / 2);
		counter(f, "rapolicy_pages_read_total", lab, q / 2);
		snprintf(lab, sizeof(lab), "instance=\"hold%u\",arm=\"%c\"", i, i < 3 ? 'a' : 'b');
		series(f, "rapolicy_ab_holdback", lab, 1);
		snprintf(lab, sizeof(lab), "instance=\"hold%u\",arm=\"%c\"", i, i < 3 ? 'b' : 'a');
		series(f, "rapolicy_ab_holdback", lab, 0);
	}
	abf_pool(h, 11, &fl);
	abf_holdback(ra, 3, rb, 3, &lr, &se);
	abf_holdback(qa, 3, qb, 3, &lq, &sq);
	fprintf(f, "    promql_expr_test:\n");
	near(f, "rapolicy:ab_fleet_hosts:count", fl.hosts);
	near(f, "rapolicy:ab_verdict", fl.verdict);
	for (int m = 0; m < ABT_NR_METRICS; m++) {
		const char *rec[] = { "metric:rapolicy_ab_fleet_s:sum", "metric:rapolicy_ab_fleet_v:sum",
				      "metric:rapolicy_ab_fleet_log_lambda",
				      "metric:rapolicy_ab_fleet_effect:lower",
				      "metric:rapolicy_ab_fleet_effect:upper",
				      "metric:rapolicy_ab_fleet_total_log_ratio" };
		const double v[] = { fl.s[m], fl.v[m], fl.log_lambda[m], fl.lo[m], fl.hi[m],
				     fl.total_lr[m] };

		for (int k = 0; k < 6; k++) {
			snprintf(lab, sizeof(lab), "%s{metric=\"%s\"}", rec[k], mn[m]);
			near(f, lab, v[k]);
		}
	}
	near(f, "rapolicy:ab_holdback_sync_miss_log_ratio", lr);
	near(f, "rapolicy:ab_holdback_sync_miss_log_ratio:se", se);
	near(f, "rapolicy:ab_interference_sync_miss", lr - fl.total_lr[ABT_FAULTS]);
	near(f, "rapolicy:ab_holdback_pages_read_log_ratio", lq);
	near(f, "rapolicy:ab_holdback_pages_read_log_ratio:se", sq);
	near(f, "rapolicy:ab_interference_pages_read", lq - fl.total_lr[ABT_PAGES]);
	printf("# fleet: %u hosts pooled, verdict %d, ln L %.4f, change in totals %.4f; holdback ln ratio %.4f se %.4f\n",
	       fl.hosts, fl.verdict, fl.log_lambda[ABT_FAULTS], fl.total_lr[ABT_FAULTS], lr, se);
	return fclose(f) ? 1 : 0;
}
