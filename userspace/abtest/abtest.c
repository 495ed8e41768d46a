// SPDX-License-Identifier: GPL-2.0
/*
 * abtest: a randomization test over the module's A/B buckets, with the
 * effect's interval from inverting it (Lehmann, Nonparametrics, 1975,
 * ch. 1; Rosenbaum, Observational Studies, 2nd ed., 2002, section 2.4).
 *
 * The model.  Each used (bucket, period) cell has w = log(1 + y), y its
 * count.  The sharp hypothesis H(tau): every cell would have had w - tau
 * in arm A had it been in arm B.  Under H(tau) the adjusted values
 * w - tau x (x: 1 in arm B) do not depend on the labels, and the labels
 * were drawn by the salt as a uniform set of K buckets per period, so
 * redrawing them that way gives the exact null distribution of any
 * statistic.  The statistic: the mean of arm B's cells minus arm A's
 * after removing each bucket's and each period's mean (with one period,
 * the grand mean), so a bucket is compared with itself in the other arm
 * and a busy period weighs on neither arm.  Being linear in the values,
 * it is a - tau g for each redraw, with a and g computed once; the p-value
 * of H(tau) then costs one pass over the redraws, and the 95% interval is
 * the set of tau with p > 0.05, found by bisection on each side.  The
 * p-value of no effect is that of H(0): exact, whatever the data.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abtest.h"

#define ALPHA 0.05

const struct abt_plan abt_default_plan = {
	.periods = 6, .perms = 999, .io_margin = 0.10, .min_buckets = 4,
	.seed = 0x5eed,
};

static const char *const outcome_names[] = {
	[ABT_B_BETTER] = "B better",
	[ABT_B_WORSE] = "B worse",
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

/* The cells in use: buckets with major faults, by periods */
struct cells {
	unsigned int np, nb;
	unsigned int bucket[ABT_BUCKETS];
	unsigned int k[ABT_MAX_PERIODS];	/* arm B's buckets, of all 64 */
	double *r[ABT_NR_METRICS];	/* centred log(1 + y), [period][bucket] */
	double *x;			/* centred observed label */
	int col[ABT_BUCKETS];		/* bucket -> index in a period, -1 */
	unsigned char (*inb)[ABT_BUCKETS];	/* arm B's buckets per period */
};

/* Remove the bucket (row) and period (column) means; one period: the mean */
static void centre(double *v, unsigned int np, unsigned int nb)
{
	double grand = 0;

	for (unsigned int i = 0; i < np * nb; i++)
		grand += v[i] / (np * nb);
	if (np < 2) {
		for (unsigned int i = 0; i < nb; i++)
			v[i] -= grand;
		return;
	}
	double row[ABT_BUCKETS] = { 0 }, col[ABT_MAX_PERIODS] = { 0 };

	for (unsigned int p = 0; p < np; p++) {
		for (unsigned int b = 0; b < nb; b++) {
			row[b] += v[p * nb + b] / np;
			col[p] += v[p * nb + b] / nb;
		}
	}
	for (unsigned int p = 0; p < np; p++)
		for (unsigned int b = 0; b < nb; b++)
			v[p * nb + b] += grand - row[b] - col[p];
}

/*
 * a (per metric) and g of one labelling, given per period as its list of
 * arm B's buckets; false if an arm has no cell.  The centred values sum
 * to 0, so the mean of B's cells minus A's is sum(B) (1/nB + 1/nA).
 */
static bool contrast(const struct cells *c, unsigned char (*inb)[ABT_BUCKETS],
		     double *a, double *g)
{
	unsigned int n = c->np * c->nb, nb = 0;
	double sa[ABT_NR_METRICS] = { 0 }, sg = 0, scale;

	for (unsigned int p = 0; p < c->np; p++) {
		for (unsigned int i = 0; i < c->k[p]; i++) {
			int col = c->col[inb[p][i]];

			if (col < 0)
				continue;
			nb++;
			col += (int)(p * c->nb);
			sg += c->x[col];
			for (int m = 0; m < ABT_NR_METRICS; m++)
				sa[m] += c->r[m][col];
		}
	}
	if (!nb || nb == n)
		return false;
	scale = 1.0 / nb + 1.0 / (n - nb);
	*g = sg * scale;
	for (int m = 0; m < ABT_NR_METRICS; m++)
		a[m] = sa[m] * scale;
	return true;
}

/* A redraw: per period a uniform set of k buckets of 64 (Fisher-Yates) */
static void redraw(const struct cells *c, uint64_t *rng,
		   unsigned char (*inb)[ABT_BUCKETS])
{
	for (unsigned int p = 0; p < c->np; p++) {
		unsigned char *order = inb[p];

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

/* The redraws' statistics: index 0 is the observed labelling */
struct dist {
	unsigned int n;
	double *a[ABT_NR_METRICS], *g;
	bool *ok;
};

/*
 * The randomization p-value of H(tau) for metric m. The statistics are
 * differences of centred log(1 + y): below ABT_TIE they are rounding, not
 * data (identical counts in every period centre to that), and count as
 * ties, which no redraw may beat.
 */
#define ABT_TIE	1e-9
static double pvalue(const struct dist *d, int m, double tau)
{
	double obs = fabs(d->a[m][0] - tau * d->g[0]) - ABT_TIE;
	unsigned int ge = 1;

	for (unsigned int i = 1; i < d->n; i++)
		ge += !d->ok[i] || fabs(d->a[m][i] - tau * d->g[i]) >= obs;
	return (double)ge / d->n;
}

/* The edge of {tau: p(tau) > ALPHA} from est towards dir; +-inf if none */
static double edge(const struct dist *d, int m, double est, double step, int dir)
{
	double in = est, out = est;
	int i;

	for (i = 0; i < 40; i++, step *= 2) {
		out = est + dir * step;
		if (fabs(out) > 30)
			return dir * INFINITY;
		if (pvalue(d, m, out) <= ALPHA)
			break;
		in = out;
	}
	if (i == 40)
		return dir * INFINITY;
	/* to 1/2^20 of the bracket: far below the interval's own noise */
	for (i = 0; i < 20; i++) {
		double mid = (in + out) / 2;

		*(pvalue(d, m, mid) > ALPHA ? &in : &out) = mid;
	}
	return (in + out) / 2;
}

static void effect(const struct dist *d, int m, struct abt_effect *e)
{
	double est = d->a[m][0] / d->g[0], sum = 0, sq = 0, se;
	unsigned int k = 0;

	for (unsigned int i = 1; i < d->n; i++) {
		if (!d->ok[i])
			continue;
		sum += d->a[m][i];
		sq += d->a[m][i] * d->a[m][i];
		k++;
	}
	se = k > 1 ? sqrt(fmax(sq / k - (sum / k) * (sum / k), 0)) / d->g[0] : 1;
	if (!(se > 1e-6))
		se = 1e-6;
	e->p = pvalue(d, m, 0);
	e->est = expm1(est);
	e->lo = expm1(edge(d, m, est, se / 4, -1));
	e->hi = expm1(edge(d, m, est, se / 4, 1));
}

static bool load_cells(struct cells *c, const struct abt_period *p, unsigned int np)
{
	c->np = np;
	c->nb = 0;
	for (unsigned int b = 0; b < ABT_BUCKETS; b++) {
		bool used = false;

		for (unsigned int i = 0; i < np; i++)
			used |= p[i].y[ABT_FAULTS][b] > 0;
		c->col[b] = used ? (int)c->nb : -1;
		if (used)
			c->bucket[c->nb++] = b;
	}
	c->inb = calloc(np, sizeof(*c->inb));
	if (!c->inb)
		return false;
	for (unsigned int i = 0; i < np; i++) {
		c->k[i] = 0;
		for (unsigned int b = 0; b < ABT_BUCKETS; b++)
			if (p[i].in_b[b])
				c->inb[i][c->k[i]++] = (unsigned char)b;
	}
	for (int m = 0; m < ABT_NR_METRICS; m++)
		c->r[m] = calloc((size_t)np * c->nb + 1, sizeof(double));
	c->x = calloc((size_t)np * c->nb + 1, sizeof(double));
	if (!c->r[0] || !c->r[1] || !c->x)
		return false;
	for (unsigned int i = 0; i < np; i++) {
		for (unsigned int b = 0; b < c->nb; b++) {
			unsigned int bk = c->bucket[b];

			for (int m = 0; m < ABT_NR_METRICS; m++)
				c->r[m][i * c->nb + b] = log1p(p[i].y[m][bk]);
			c->x[i * c->nb + b] = p[i].in_b[bk];
		}
	}
	for (int m = 0; m < ABT_NR_METRICS; m++)
		centre(c->r[m], np, c->nb);
	centre(c->x, np, c->nb);
	return true;
}

static void free_all(struct cells *c, struct dist *d)
{
	for (int m = 0; m < ABT_NR_METRICS; m++) {
		free(c->r[m]);
		free(d->a[m]);
	}
	free(c->x);
	free(c->inb);
	free(d->g);
	free(d->ok);
}

/* Arms' totals and the cells with faults per arm, over the periods used */
static void totals(const struct abt_period *p, unsigned int np, struct abt_result *r)
{
	for (unsigned int i = 0; i < np; i++) {
		for (unsigned int b = 0; b < ABT_BUCKETS; b++) {
			int arm = p[i].in_b[b];

			for (int m = 0; m < ABT_NR_METRICS; m++)
				r->eff[m].total[arm] += p[i].y[m][b];
			r->cells[arm] += p[i].y[ABT_FAULTS][b] > 0;
		}
	}
}

static void decide(struct abt_result *r, const struct abt_plan *plan)
{
	const struct abt_effect *f = &r->eff[ABT_FAULTS], *io = &r->eff[ABT_PAGES];
	char fs[96], ios[96];

	snprintf(fs, sizeof(fs), "major faults %+.1f%% [%+.1f%%, %+.1f%%], p=%.3g",
		 100 * f->est, 100 * f->lo, 100 * f->hi, f->p);
	snprintf(ios, sizeof(ios), "pages read %+.1f%% [%+.1f%%, %+.1f%%]",
		 100 * io->est, 100 * io->lo, 100 * io->hi);
	if (f->p > ALPHA) {
		r->outcome = ABT_NO_DIFFERENCE;
		snprintf(r->why, sizeof(r->why), "%s; %s", fs, ios);
	} else if (f->est > 0) {
		r->outcome = ABT_B_WORSE;
		snprintf(r->why, sizeof(r->why), "B takes more major faults: %s", fs);
	} else if (io->hi <= plan->io_margin) {
		r->outcome = ABT_B_BETTER;
		snprintf(r->why, sizeof(r->why), "%s; %s, within +%.0f%%", fs, ios,
			 100 * plan->io_margin);
	} else if (io->lo > plan->io_margin) {
		r->outcome = ABT_B_WORSE;
		snprintf(r->why, sizeof(r->why),
			 "fewer major faults (%s) for more I/O: %s, over +%.0f%%", fs, ios,
			 100 * plan->io_margin);
	} else {
		r->outcome = ABT_NO_DIFFERENCE;
		snprintf(r->why, sizeof(r->why),
			 "fewer major faults (%s), but %s may exceed +%.0f%%", fs, ios,
			 100 * plan->io_margin);
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
	double a[ABT_NR_METRICS] = { 0 };

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
	r->buckets = c.nb;
	d.n = plan->perms + 1;
	for (int m = 0; m < ABT_NR_METRICS; m++)
		d.a[m] = calloc(d.n, sizeof(double));
	d.g = calloc(d.n, sizeof(double));
	d.ok = calloc(d.n, sizeof(bool));
	if (!d.a[0] || !d.a[1] || !d.g || !d.ok)
		goto nomem;
	for (unsigned int i = 0; i < d.n; i++) {
		if (i)
			redraw(&c, &rng, c.inb);
		a[0] = a[1] = 0;
		d.ok[i] = contrast(&c, c.inb, a, &d.g[i]);
		for (int m = 0; m < ABT_NR_METRICS; m++)
			d.a[m][i] = a[m];
	}
	if (!d.ok[0] || !(d.g[0] > 0)) {
		snprintf(r->why, sizeof(r->why), "no bucket was seen in both arms");
		goto out;
	}
	for (int m = 0; m < ABT_NR_METRICS; m++)
		effect(&d, m, &r->eff[m]);
	decide(r, plan);
out:
	free_all(&c, &d);
	return;
nomem:
	snprintf(r->why, sizeof(r->why), "out of memory");
	free_all(&c, &d);
}
