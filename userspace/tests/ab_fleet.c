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
	double theta;		/* B's effect on every file's major faults */
	bool shared;		/* one key and one salt sequence fleet-wide */
	bool power;		/* checked: a verdict of B better in >= 90% */
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
};

/* One fleet over the 28 periods; looks after each */
static void fleet_run(const struct fleet_case *fc, struct fleet_host *h,
		      struct abf_host *look, struct fleet_tally *t)
{
	double base[FILES];
	uint64_t ino[FILES], key = frnd() >> 11, salt = frnd() >> 11;
	int verdict = ABF_NONE, anyway = ABF_NONE;
	/* ab start's complementary pairs: 32 buckets of 64, an even horizon */
	bool pairs = (fc->permille * ABT_BUCKETS + 500) / 1000 == ABT_BUCKETS / 2;

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
		struct abf_fleet fl;

		salt = pairs && p % 2 ? salt | RAP_AB_SALT_SWAP : frnd() >> 11;
		for (unsigned int i = 0; i < fc->hosts; i++) {
			struct abt_period *cur = &h[i].per[p % 2];
			u64 s = fc->shared ? salt : pairs && p % 2 ? h[i].salt | RAP_AB_SALT_SWAP :
				frnd() >> 11, mask = rap_ab_mask(s, fc->permille);
			double load = exp(0.3 * fgauss());

			h[i].salt = s;
			memset(cur, 0, sizeof(*cur));
			for (int b = 0; b < ABT_BUCKETS; b++)
				cur->in_b[b] = mask >> b & 1;
			for (int f = 0; f < FILES; f++) {
				unsigned int b = h[i].bucket[f];
				double l = h[i].rate[f] * load * exp(0.3 * fgauss()), y;

				if (!p)
					l *= 5 * exp(fgauss());
				y = fpoisson(l * (cur->in_b[b] ? fc->theta : 1));
				cur->y[ABT_FAULTS][b] += y;
				cur->y[ABT_PAGES][b] += fpoisson(y * h[i].rf[f]);
			}
			abf_add(&h[i].st, cur, p ? &h[i].per[(p + 1) % 2] : NULL);
			look[i] = h[i].st;
		}
		abf_pool(look, fc->hosts, &fl);
		if (verdict == ABF_NONE || verdict == ABF_NOT_ENOUGH)
			verdict = fl.verdict;
		t->refused += fl.hosts == 0 && p == PERIODS - 1;
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
static const struct fleet_case fleet_cases[] = {
	{ "A/A, 10 hosts, 500 permille", 10, 500, FR, 1, false, false },
	{ "A/A, 10 hosts, 100 permille", 10, 100, FR, 1, false, false },
	{ "A/A, 100 hosts, 500 permille", 100, 500, FR / 2, 1, false, false },
	{ "A/A, 100 hosts, 100 permille", 100, 100, FR / 2, 1, false, false },
	{ "A/A, 1000 hosts, 500 permille", 1000, 500, FR / 20, 1, false, false },
	{ "A/A, 1000 hosts, 100 permille", 1000, 100, FR / 20, 1, false, false },
	{ "A/A, 10 hosts, 500 permille, one key and salt for all", 10, 500, FR, 1, true, false },
	{ "A/A, 100 hosts, 100 permille, one key and salt for all", 100, 100, FR / 2, 1, true, false },
	{ "A/A, 1000 hosts, 500 permille, one key and salt for all", 1000, 500, FR / 20, 1, true,
	  false },
	{ "B: -15% major faults, 10 hosts, 500 permille", 10, 500, FR, 0.85, false, true },
	{ "B: -15% major faults, 10 hosts, 100 permille", 10, 100, FR, 0.85, false, false },
};

/* The fleet's rows of docs/AB.md, into tab; their checks as TAP */
void fleet_table(FILE *tab)
{
	size_t nc = sizeof(fleet_cases) / sizeof(fleet_cases[0]);

	fprintf(tab, "| fleet scenario | runs | B better | B worse | checked: rate [one-sided 95%% bound] | "
		"refused: no host pooled | calls if shared keys were pooled |\n"
		"|---|---|---|---|---|---|---|\n");
	for (size_t c = 0; c < nc; c++) {
		const struct fleet_case *fc = &fleet_cases[c];
		struct fleet_host *h = calloc(fc->hosts, sizeof(*h));
		struct abf_host *look = calloc(fc->hosts, sizeof(*look));
		struct fleet_tally t = { 0 };
		unsigned int calls;
		char anyway[32] = "-";
		double rate;

		if (!h || !look) {
			ok(0, "fleet: %s: out of memory", fc->name);
			free(h);
			free(look);
			continue;
		}
		fs_rng = 0xf1ee7 + c;
		for (unsigned int r = 0; r < fc->runs; r++)
			fleet_run(fc, h, look, &t);
		calls = fc->theta != 1 ? t.better : t.better + t.worse;
		rate = (double)calls / t.runs;
		if (fc->shared)
			snprintf(anyway, sizeof(anyway), "%.1f%%", 100.0 * t.pooled_calls / t.runs);
		fprintf(tab, "| %s | %u | %u | %u | %s %.1f%% [%s %.1f%%] | %u | %s |\n", fc->name,
			t.runs, t.better, t.worse, fc->theta != 1 ? "B better" : "calls", 100 * rate,
			fc->theta != 1 ? ">=" : "<=", 100 * (fc->theta != 1 ?
			1 - cp_up(t.runs - calls, t.runs) : cp_up(calls, t.runs)), t.refused, anyway);
		if (fc->theta != 1 && !fc->power)
			ok(1, "fleet: %s: B better in %.1f%% (reported)", fc->name, 100 * rate);
		else if (fc->power)
			ok(rate >= 0.9, "fleet: %s: B better in %.1f%% of %u runs", fc->name,
			   100 * rate, t.runs);
		else
			ok(rate <= 0.05, "fleet: %s: calls under continuous monitoring in %u of %u runs (%.1f%%)",
			   fc->name, calls, t.runs, 100 * rate);
		if (fc->shared)
			ok(t.refused == t.runs, "fleet: %s: no host pooled in any run", fc->name);
		free(h);
		free(look);
	}
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
	double ra[3], rb[3], lr, se;
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
		}
		if (h[i].periods) {
			snprintf(lab, sizeof(lab), "instance=\"h%u\",key=\"%llu\"", i + 1,
				 (unsigned long long)h[i].key);
			series(f, "rapolicy_ab_periods", lab, h[i].periods);
		}
	}
	/* holdback hosts: three on each arm */
	for (unsigned int i = 0; i < 6; i++) {
		double r = (i < 3 ? 10 : 9) + i % 3;

		*(i < 3 ? &ra[i] : &rb[i - 3]) = r;
		snprintf(lab, sizeof(lab), "instance=\"hold%u\",arm=\"a\"", i);
		counter(f, "rapolicy_sync_miss_total", lab, r / 2);
		snprintf(lab, sizeof(lab), "instance=\"hold%u\",arm=\"b\"", i);
		counter(f, "rapolicy_sync_miss_total", lab, r / 2);
		snprintf(lab, sizeof(lab), "instance=\"hold%u\",arm=\"%c\"", i, i < 3 ? 'a' : 'b');
		series(f, "rapolicy_ab_holdback", lab, 1);
		snprintf(lab, sizeof(lab), "instance=\"hold%u\",arm=\"%c\"", i, i < 3 ? 'b' : 'a');
		series(f, "rapolicy_ab_holdback", lab, 0);
	}
	abf_pool(h, 11, &fl);
	abf_holdback(ra, 3, rb, 3, &lr, &se);
	fprintf(f, "    promql_expr_test:\n");
	near(f, "rapolicy:ab_fleet_hosts:count", fl.hosts);
	near(f, "rapolicy:ab_verdict", fl.verdict);
	for (int m = 0; m < ABT_NR_METRICS; m++) {
		const char *rec[] = { "metric:rapolicy_ab_fleet_s:sum", "metric:rapolicy_ab_fleet_v:sum",
				      "metric:rapolicy_ab_fleet_log_lambda",
				      "metric:rapolicy_ab_fleet_effect:lower",
				      "metric:rapolicy_ab_fleet_effect:upper" };
		const double v[] = { fl.s[m], fl.v[m], fl.log_lambda[m], fl.lo[m], fl.hi[m] };

		for (int k = 0; k < 5; k++) {
			snprintf(lab, sizeof(lab), "%s{metric=\"%s\"}", rec[k], mn[m]);
			near(f, lab, v[k]);
		}
	}
	near(f, "rapolicy:ab_holdback_sync_miss_log_ratio", lr);
	near(f, "rapolicy:ab_holdback_sync_miss_log_ratio:se", se);
	printf("# fleet: %u hosts pooled, verdict %d, ln L %.4f; holdback ln ratio %.4f se %.4f\n",
	       fl.hosts, fl.verdict, fl.log_lambda[ABT_FAULTS], lr, se);
	return fclose(f) ? 1 : 0;
}
