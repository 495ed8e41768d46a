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
 * The statistic: the score of the treatment in a Poisson model with a
 * factor per bucket and a factor per period (McCullagh and Nelder,
 * Generalized Linear Models, 2nd ed., 1989, 6.4): the sum over arm B's
 * cells of the adjusted count less its fitted value R_b C_p / N, where
 * R_b, C_p and N are the adjusted counts' bucket, period and grand totals
 * (with one period, C_p / 64).  A bucket is compared with itself in the
 * other arm, and a busy period raises every bucket in proportion, as a
 * load does, so it weighs on neither arm however the heavy buckets fell;
 * a bucket weighs by its counts, as it does in the total.  The adjusted
 * totals are those of arm A's observed cells plus arm B's over r, so for
 * each redraw five sums, computed once, give the statistic at any r as
 * r a + b - (c0 r^2 + c1 r + c2) / (N_A r + N_B) (times r); the p-value
 * of H(r) then costs one pass over the redraws, the estimate is the r
 * where the observed statistic is 0, and the interval is the set of r the
 * test does not reject, found by bisection on each side.  The p-value of
 * no effect is that of H(1): exact, whatever the data.  With complementary
 * pairs the estimate is the geometric mean of the ratios of totals of the
 * two halves of the buckets: when B's effect differs between the heaviest
 * files and the rest it lies between the ratio of the totals and the
 * typical file's; docs/AB.md has what that does to the intervals.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abtest.h"

#define NC(np)	((size_t)(np) * ABT_BUCKETS)

const struct abt_plan abt_default_plan = {
	.periods = 6, .perms = 999, .alpha = 0.02, .alpha_io = 0.005,
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

/*
 * The cells: all 64 buckets by the periods analysed, [period][bucket],
 * and each bucket's total, split by the observed arm (under H(r) arm B's
 * part is divided by r)
 */
struct cells {
	unsigned int np, nb;		/* nb: arm B's cells, in every redraw */
	bool pairs;			/* periods 2i + 1 are the complement of 2i */
	unsigned int k[ABT_MAX_PERIODS];	/* arm B's buckets per period */
	double *u[ABT_NR_METRICS][2];	/* counts of arm A's, arm B's cells, else 0 */
	double row[ABT_NR_METRICS][2][ABT_BUCKETS];
	double ymax[ABT_NR_METRICS];
	unsigned char (*inb)[ABT_BUCKETS];	/* arm B's buckets per period */
};

/* Sums per labelling and metric: a, b, then per period two bucket totals */
#define NT(np)	(2 + 2 * (size_t)(np))

/*
 * The sums of one labelling that give its statistic at any r: over its
 * arm B's cells, of the observed A counts (a) and B counts (b), and per
 * period, of its arm B's buckets' totals' A and B parts
 */
static void contrast(const struct cells *c, unsigned char (*inb)[ABT_BUCKETS], double *t)
{
	for (int m = 0; m < ABT_NR_METRICS; m++, t += NT(c->np)) {
		const double *u0 = c->u[m][0], *u1 = c->u[m][1];
		const double *r0 = c->row[m][0], *r1 = c->row[m][1];
		double a = 0, b = 0;

		/*
		 * The sums in locals, added in the order they always were
		 * (the same bits): summed through t, each addition waited
		 * for the store of the one before.
		 */
		for (unsigned int p = 0; p < c->np; p++) {
			const double *pu0 = u0 + (size_t)p * ABT_BUCKETS;
			const double *pu1 = u1 + (size_t)p * ABT_BUCKETS;
			double ra = 0, rb = 0;

			for (unsigned int i = 0; i < c->k[p]; i++) {
				unsigned int x = inb[p][i];

				a += pu0[x];
				b += pu1[x];
				ra += r0[x];
				rb += r1[x];
			}
			t[2 + 2 * p] = ra;
			t[3 + 2 * p] = rb;
		}
		t[0] = a;
		t[1] = b;
	}
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

/* The redraws' sums, per metric: index 0 is the observed labelling */
struct dist {
	const struct cells *c;
	unsigned int n;
	double *t;		/* [redraw][metric][NT(np)] */
	double ymax;
	double f[ABT_MAX_PERIODS];	/* the period factors at the r of the last fit() */
	int m;
};

/*
 * The period factors under H(r): the mean over the busy buckets of the
 * share of its adjusted counts that fell in each period (with one period,
 * a bucket's expected count is its 64th of the total: 1/64 per bucket)
 */
static void fit(struct dist *d, double r)
{
	const struct cells *c = d->c;
	unsigned int busy = 0;

	memset(d->f, 0, sizeof(d->f));
	if (c->np < 2) {
		d->f[0] = 1;
		return;
	}
	for (unsigned int b = 0; b < ABT_BUCKETS; b++) {
		double tot = c->row[d->m][0][b] + c->row[d->m][1][b] / r;

		if (!(tot > 0))
			continue;
		busy++;
		for (unsigned int p = 0; p < c->np; p++) {
			size_t cell = p * ABT_BUCKETS + b;

			d->f[p] += (c->u[d->m][0][cell] + c->u[d->m][1][cell] / r) / tot;
		}
	}
	for (unsigned int p = 0; p < c->np && busy; p++)
		d->f[p] /= busy;
}

/* Redraw i's statistic under H(r), times r, after fit(d, r) */
static double stat(const struct dist *d, unsigned int i, double r)
{
	const double *t = d->t + ((size_t)i * ABT_NR_METRICS + d->m) * NT(d->c->np);
	double s = r * t[0] + t[1];

	for (unsigned int p = 0; p < d->c->np; p++)
		s -= d->f[p] * (r * t[2 + 2 * p] + t[3 + 2 * p]);
	return s;
}

/*
 * The randomization p-value of H(r), r = e^s.  Statistics within a
 * billionth of the counts' scale of the observed one are rounding, not
 * data (identical counts in every period leave that), and count as
 * ties, which no redraw may beat.
 */
static double pvalue(struct dist *d, double s)
{
	double r = exp(s), tol = 1e-9 * (1 + d->ymax) * (1 + r), obs;
	unsigned int ge = 1;

	fit(d, r);
	obs = fabs(stat(d, 0, r)) - tol;
	for (unsigned int i = 1; i < d->n; i++)
		ge += fabs(stat(d, i, r)) >= obs;
	return (double)ge / d->n;
}

/* The edge of {s: p(s) > alpha} from est towards dir; +-inf if none */
static double edge(struct dist *d, double alpha, double est, int dir)
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

/* The observed labelling's statistic under H(e^s) */
static double observed(struct dist *d, double s)
{
	fit(d, exp(s));
	return stat(d, 0, exp(s));
}

/* The estimate: where the observed statistic is 0; else the scaled ratio */
static void effect(struct dist *d, double alpha, struct abt_effect *e)
{
	double lo = -30, hi = 30, s;

	if (observed(d, lo) > 0 && observed(d, hi) < 0) {
		for (int i = 0; i < 60; i++) {
			double mid = (lo + hi) / 2;

			*(observed(d, mid) > 0 ? &lo : &hi) = mid;
		}
		s = (lo + hi) / 2;
	} else if (e->scaled[0] > 0 && e->scaled[1] > 0)
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
	double total[ABT_NR_METRICS][2] = { { 0 } };

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
				double y = p[i].y[m][b];

				c->u[m][arm][i * ABT_BUCKETS + b] = y;
				c->row[m][arm][b] += y;
				total[m][arm] += y;
				c->ymax[m] = fmax(c->ymax[m], y);
			}
		}
		c->nb += c->k[i];
	}
	/* one period: no bucket to compare with itself, each expects 1/64 */
	for (int m = 0; m < ABT_NR_METRICS && np < 2; m++)
		for (int arm = 0; arm < 2; arm++)
			for (unsigned int b = 0; b < ABT_BUCKETS; b++)
				c->row[m][arm][b] = total[m][arm] / ABT_BUCKETS;
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
	d.c = &c;
	d.n = plan->perms + 1;
	d.t = calloc((size_t)d.n * ABT_NR_METRICS * NT(c.np), sizeof(*d.t));
	if (!d.t)
		goto nomem;
	for (unsigned int i = 0; i < d.n; i++) {
		if (i)
			redraw(&c, &rng, c.inb);
		contrast(&c, c.inb, d.t + (size_t)i * ABT_NR_METRICS * NT(c.np));
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
	free(d.t);
}
