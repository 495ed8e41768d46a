// SPDX-License-Identifier: GPL-2.0
/*
 * abtest: a randomization test over the module's A/B buckets, with the
 * effect's interval from inverting it (Lehmann, Nonparametrics, 1975,
 * ch. 1; Rosenbaum, Observational Studies, 2nd ed., 2002, sections 2.4
 * and 5.3).
 *
 * The estimand.  What production pays is the total: the major faults
 * (and pages read) of all files under B against all files under A.  The
 * effect is the ratio r of those totals, as B's files would have had them
 * in arm A times r.  The sharp hypothesis H(r): every (bucket, period)
 * cell's count y would have been y / r in arm A had it been in arm B.
 * Under H(r) the adjusted counts y r^-x (x: 1 in arm B) do not depend on
 * the labels, and the labels were drawn by the salt as a uniform set of K
 * buckets per period, so redrawing them that way gives the exact null
 * distribution of any statistic of the adjusted counts.
 *
 * The statistic: the mean of arm B's cells minus arm A's, after removing
 * each bucket's and each period's mean (with one period, the grand mean),
 * of the raw counts: a bucket is compared with itself in the other arm,
 * a busy period weighs on neither arm, and a bucket weighs by its counts,
 * as it does in the total.  With one period it is the difference of the
 * arms' totals, each scaled by 64 over its number of buckets.  Being
 * linear in the counts, it is r a + b (times 1/r) for each redraw, a from
 * arm A's observed counts and b from arm B's, computed once; the p-value
 * of H(r) then costs one pass over the redraws, the estimate is the r
 * where the observed statistic is 0, and the interval is the set of r
 * the test does not reject, found by bisection on each side.  The
 * p-value of no effect is that of H(1): exact, whatever the data.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abtest.h"

#define NC(np)	((size_t)(np) * ABT_BUCKETS)

const struct abt_plan abt_default_plan = {
	.periods = 6, .perms = 999, .alpha = 0.04, .alpha_io = 0.005,
	.io_margin = 0.05, .min_buckets = 4, .seed = 0x5eed,
};

static const char *const outcome_names[] = {
	[ABT_B_BETTER] = "B better",
	[ABT_B_WORSE] = "B worse",
	[ABT_B_WORSE_IO] = "B worse (I/O)",
	[ABT_NO_DIFFERENCE] = "no difference detected at this power",
	[ABT_NOT_ENOUGH_DATA] = "not enough data",
	[ABT_INVALID] = "invalid: settings changed",
};

const char *abt_outcome_name(enum abt_outcome o)
{
	return outcome_names[o];
}

/* splitmix64 (Steele, Lea, Flood, OOPSLA 2014) */
static uint64_t next_u64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The cells: all 64 buckets by the periods analysed, [period][bucket] */
struct cells {
	unsigned int np, nb;		/* nb: arm B's cells, in every redraw */
	bool pairs;			/* periods 2i + 1 are the complement of 2i */
	unsigned int k[ABT_MAX_PERIODS];	/* arm B's buckets per period */
	double *u[ABT_NR_METRICS][2];	/* centred counts of arm A's, arm B's cells */
	double ymax[ABT_NR_METRICS];
	unsigned char (*inb)[ABT_BUCKETS];	/* arm B's buckets per period */
};

/* Remove the bucket (row) and period (column) means; one period: the mean */
static void centre(double *v, unsigned int np)
{
	double grand = 0, row[ABT_BUCKETS] = { 0 }, col[ABT_MAX_PERIODS] = { 0 };

	for (size_t i = 0; i < NC(np); i++)
		grand += v[i] / (double)NC(np);
	for (unsigned int p = 0; p < np; p++) {
		for (unsigned int b = 0; b < ABT_BUCKETS; b++) {
			row[b] += v[p * ABT_BUCKETS + b] / np;
			col[p] += v[p * ABT_BUCKETS + b] / ABT_BUCKETS;
		}
	}
	for (unsigned int p = 0; p < np; p++)
		for (unsigned int b = 0; b < ABT_BUCKETS; b++)
			v[p * ABT_BUCKETS + b] += np < 2 ? -grand :
						  grand - row[b] - col[p];
}

/*
 * The statistic's two parts for one labelling, given per period as its
 * list of arm B's buckets.  The centred values sum to 0, so the mean of
 * B's cells minus A's is sum(B) (1/nB + 1/nA).
 */
static void contrast(const struct cells *c, unsigned char (*inb)[ABT_BUCKETS],
		     double (*ab)[2])
{
	double s[ABT_NR_METRICS][2] = { { 0 } };
	double scale = 1.0 / c->nb + 1.0 / (NC(c->np) - c->nb);

	for (unsigned int p = 0; p < c->np; p++) {
		for (unsigned int i = 0; i < c->k[p]; i++) {
			size_t cell = p * ABT_BUCKETS + inb[p][i];

			for (int m = 0; m < ABT_NR_METRICS; m++)
				for (int arm = 0; arm < 2; arm++)
					s[m][arm] += c->u[m][arm][cell];
		}
	}
	for (int m = 0; m < ABT_NR_METRICS; m++)
		for (int arm = 0; arm < 2; arm++)
			ab[m][arm] = s[m][arm] * scale;
}

/*
 * A redraw: per period a uniform set of k buckets of 64 (Fisher-Yates);
 * in pairs, the second period of each takes the first's complement.
 */
static void redraw(const struct cells *c, uint64_t *rng,
		   unsigned char (*inb)[ABT_BUCKETS])
{
	for (unsigned int p = 0; p < c->np; p++) {
		unsigned char *order = inb[p];

		if (c->pairs && p % 2) {
			for (unsigned int i = 0; i < ABT_BUCKETS; i++)
				order[i] = inb[p - 1][(i + c->k[p - 1]) % ABT_BUCKETS];
			continue;
		}

		for (unsigned int i = 0; i < ABT_BUCKETS; i++)
			order[i] = (unsigned char)i;
		for (unsigned int i = 0; i < c->k[p]; i++) {
			unsigned int j = i + (unsigned int)(((next_u64(rng) >> 32) *
					     (ABT_BUCKETS - i)) >> 32);
			unsigned char t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
	}
}

/* The redraws' statistics, per metric: index 0 is the observed labelling */
struct dist {
	unsigned int n;
	double (*ab)[ABT_NR_METRICS][2];
	double ymax;
	int m;
};

/*
 * The randomization p-value of H(r), r = e^s.  Statistics within a
 * billionth of the counts' scale of the observed one are rounding, not
 * data (identical counts in every period centre to that), and count as
 * ties, which no redraw may beat.
 */
static double pvalue(const struct dist *d, double s)
{
	double r = exp(s), tol = 1e-9 * (1 + d->ymax) * (1 + r);
	double obs = fabs(r * d->ab[0][d->m][0] + d->ab[0][d->m][1]) - tol;
	unsigned int ge = 1;

	for (unsigned int i = 1; i < d->n; i++)
		ge += fabs(r * d->ab[i][d->m][0] + d->ab[i][d->m][1]) >= obs;
	return (double)ge / d->n;
}

/* The edge of {s: p(s) > alpha} from est towards dir; +-inf if none */
static double edge(const struct dist *d, double alpha, double est, int dir)
{
	double in = est, out = est, step = 1.0 / 256;
	int i;

	for (i = 0; i < 40; i++, step *= 2) {
		out = est + dir * step;
		if (fabs(out) > 30)
			return dir * INFINITY;
		if (pvalue(d, out) <= alpha)
			break;
		in = out;
	}
	if (i == 40)
		return dir * INFINITY;
	/* to 1/2^24 of the bracket: far below the interval's own noise */
	for (i = 0; i < 24; i++) {
		double mid = (in + out) / 2;

		*(pvalue(d, mid) > alpha ? &in : &out) = mid;
	}
	return (in + out) / 2;
}

/* The estimate: where the observed statistic is 0; else the scaled ratio */
static void effect(const struct dist *d, double alpha, struct abt_effect *e)
{
	double a = d->ab[0][d->m][0], b = d->ab[0][d->m][1], s;

	if (a < 0 && b > 0)
		s = log(-b / a);
	else if (e->scaled[0] > 0 && e->scaled[1] > 0)
		s = log(e->scaled[1] / e->scaled[0]);
	else
		s = e->scaled[1] > 0 ? 30 : -30;
	e->p = pvalue(d, 0);
	e->est = expm1(s);
	e->lo = expm1(edge(d, alpha, s, -1));
	e->hi = expm1(edge(d, alpha, s, 1));
}

static bool load_cells(struct cells *c, const struct abt_period *p, unsigned int np)
{
	c->np = np;
	c->nb = 0;
	c->inb = calloc(np, sizeof(*c->inb));
	for (int m = 0; m < ABT_NR_METRICS; m++)
		for (int arm = 0; arm < 2; arm++)
			c->u[m][arm] = calloc(NC(np), sizeof(double));
	if (!c->inb || !c->u[0][0] || !c->u[0][1] || !c->u[1][0] || !c->u[1][1])
		return false;
	for (unsigned int i = 0; i < np; i++) {
		c->k[i] = 0;
		for (unsigned int b = 0; b < ABT_BUCKETS; b++) {
			int arm = p[i].in_b[b];

			if (arm)
				c->inb[i][c->k[i]++] = (unsigned char)b;
			for (int m = 0; m < ABT_NR_METRICS; m++) {
				c->u[m][arm][i * ABT_BUCKETS + b] = p[i].y[m][b];
				c->ymax[m] = fmax(c->ymax[m], p[i].y[m][b]);
			}
		}
		c->nb += c->k[i];
	}
	for (int m = 0; m < ABT_NR_METRICS; m++)
		for (int arm = 0; arm < 2; arm++)
			centre(c->u[m][arm], np);
	return true;
}

static void free_cells(struct cells *c)
{
	for (int m = 0; m < ABT_NR_METRICS; m++)
		for (int arm = 0; arm < 2; arm++)
			free(c->u[m][arm]);
	free(c->inb);
}

/* Arms' totals, raw and scaled, and the cells with faults, over the periods */
static void totals(const struct abt_period *p, unsigned int np, struct abt_result *r)
{
	unsigned int busy[ABT_BUCKETS] = { 0 };

	for (unsigned int i = 0; i < np; i++) {
		unsigned int k = 0;

		for (unsigned int b = 0; b < ABT_BUCKETS; b++)
			k += p[i].in_b[b];
		for (unsigned int b = 0; b < ABT_BUCKETS; b++) {
			int arm = p[i].in_b[b];
			unsigned int n = arm ? k : ABT_BUCKETS - k;

			for (int m = 0; m < ABT_NR_METRICS; m++) {
				r->eff[m].total[arm] += p[i].y[m][b];
				r->eff[m].scaled[arm] += p[i].y[m][b] * ABT_BUCKETS / n;
			}
			r->cells[arm] += p[i].y[ABT_FAULTS][b] > 0;
			busy[b] |= p[i].y[ABT_FAULTS][b] > 0;
		}
	}
	for (unsigned int b = 0; b < ABT_BUCKETS; b++)
		r->buckets += busy[b];
}

/*
 * One rule.  Pages read past the margin (its lower bound above it) is B
 * worse (I/O), whatever the faults.  Otherwise the major-fault test
 * decides; a win also needs pages read's upper bound within the margin.
 * Under no effect a call needs the fault test at alpha or the pages
 * bound at alpha_io: at most alpha + alpha_io of A/A runs.
 */
static void decide(struct abt_result *r, const struct abt_plan *plan)
{
	const struct abt_effect *f = &r->eff[ABT_FAULTS], *io = &r->eff[ABT_PAGES];
	double mg = 100 * plan->io_margin;
	char fs[96], ios[96];

	snprintf(fs, sizeof(fs), "major faults %+.1f%% [%+.1f%%, %+.1f%%], p=%.3g",
		 100 * f->est, 100 * f->lo, 100 * f->hi, f->p);
	snprintf(ios, sizeof(ios), "pages read %+.1f%% [%+.1f%%, %+.1f%%]",
		 100 * io->est, 100 * io->lo, 100 * io->hi);
	if (io->lo > plan->io_margin) {
		r->outcome = ABT_B_WORSE_IO;
		snprintf(r->why, sizeof(r->why), "B reads more than +%.0f%% pages: %s; %s",
			 mg, ios, fs);
	} else if (f->p > plan->alpha) {
		r->outcome = ABT_NO_DIFFERENCE;
		snprintf(r->why, sizeof(r->why), "%s; %s", fs, ios);
	} else if (f->est > 0) {
		r->outcome = ABT_B_WORSE;
		snprintf(r->why, sizeof(r->why), "B takes more major faults: %s", fs);
	} else if (io->hi <= plan->io_margin) {
		r->outcome = ABT_B_BETTER;
		snprintf(r->why, sizeof(r->why), "%s; %s, within +%.0f%%", fs, ios, mg);
	} else {
		r->outcome = ABT_NO_DIFFERENCE;
		snprintf(r->why, sizeof(r->why),
			 "fewer major faults (%s), but %s may exceed +%.0f%%", fs, ios, mg);
	}
}

static bool enough(const struct abt_period *p, unsigned int n,
		   const struct abt_plan *plan, struct abt_result *r)
{
	if (n < plan->periods) {
		snprintf(r->why, sizeof(r->why), "%u of the %u planned periods", n,
			 plan->periods);
		return false;
	}
	for (unsigned int i = 0; i < plan->periods; i++) {
		if (p[i].changed) {
			r->outcome = ABT_INVALID;
			snprintf(r->why, sizeof(r->why),
				 "a setting changed in period %u or at its start", i + 1);
			return false;
		}
	}
	for (unsigned int i = 1; plan->pairs && i < plan->periods; i += 2) {
		for (unsigned int b = 0; b < ABT_BUCKETS; b++) {
			if (p[i].in_b[b] == p[i - 1].in_b[b]) {
				r->outcome = ABT_INVALID;
				snprintf(r->why, sizeof(r->why),
					 "period %u's arms are not period %u's swapped", i + 1, i);
				return false;
			}
		}
	}
	if (r->cells[0] < plan->min_buckets || r->cells[1] < plan->min_buckets) {
		snprintf(r->why, sizeof(r->why),
			 "bucket-periods with major faults: %u in A, %u in B, need %u each",
			 r->cells[0], r->cells[1], plan->min_buckets);
		return false;
	}
	return true;
}

void abt_analyse(const struct abt_period *p, unsigned int n,
		 const struct abt_plan *plan, struct abt_result *r)
{
	struct cells c = { 0 };
	struct dist d = { 0 };
	uint64_t rng = plan->seed;

	memset(r, 0, sizeof(*r));
	r->outcome = ABT_NOT_ENOUGH_DATA;
	r->periods = n < plan->periods ? n : plan->periods;
	if (r->periods > ABT_MAX_PERIODS)
		r->periods = ABT_MAX_PERIODS;
	for (int m = 0; m < ABT_NR_METRICS; m++)
		r->eff[m].p = 1;
	totals(p, r->periods, r);
	if (!enough(p, n, plan, r))
		return;
	if (!load_cells(&c, p, r->periods))
		goto nomem;
	c.pairs = plan->pairs;
	if (!c.nb || c.nb == NC(c.np)) {
		snprintf(r->why, sizeof(r->why), "one arm has no bucket");
		goto out;
	}
	d.n = plan->perms + 1;
	d.ab = calloc(d.n, sizeof(*d.ab));
	if (!d.ab)
		goto nomem;
	for (unsigned int i = 0; i < d.n; i++) {
		if (i)
			redraw(&c, &rng, c.inb);
		contrast(&c, c.inb, d.ab[i]);
	}
	for (d.m = 0; d.m < ABT_NR_METRICS; d.m++) {
		d.ymax = c.ymax[d.m];
		effect(&d, d.m == ABT_FAULTS ? plan->alpha : 2 * plan->alpha_io,
		       &r->eff[d.m]);
	}
	decide(r, plan);
	goto out;
nomem:
	snprintf(r->why, sizeof(r->why), "out of memory");
out:
	free_cells(&c);
	free(d.ab);
}
