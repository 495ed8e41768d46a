// SPDX-License-Identifier: GPL-2.0
/*
 * fleet: the per-host statistic for the fleet's A/B verdict and the
 * verdict's arithmetic; fleet.h has the method.
 */
#include <math.h>
#include <stdlib.h>

#include "fleet.h"

#define N ABT_BUCKETS

/*
 * The covariate's coefficient: least squares of the counts on the
 * previous period's, over the 64 buckets, clamped to [0, 1].  It is a
 * function of all 64 counts, which no effect leaves alone of the salt,
 * so x keeps its mean 0 and its variance v.
 */
static double slope(const double *y, const double *c)
{
	double my = 0, mc = 0, sxy = 0, sxx = 0;

	for (int b = 0; b < N; b++) {
		my += y[b] / N;
		mc += c[b] / N;
	}
	for (int b = 0; b < N; b++) {
		sxy += (y[b] - my) * (c[b] - mc);
		sxx += (c[b] - mc) * (c[b] - mc);
	}
	return sxx > 0 ? fmin(1, fmax(0, sxy / sxx)) : 0;
}

/*
 * Metric m's total in each arm of p, scaled to all buckets, into t[0]
 * (A) and t[1] (B): each is unbiased for what the host would have counted
 * with every bucket in that arm.  p has buckets in both arms.
 */
static void add_totals(const struct abt_period *p, int m, double t[2][ABT_NR_METRICS])
{
	double ta = 0, tb = 0;
	unsigned int n = 0;

	for (int b = 0; b < N; b++) {
		n += p->in_b[b];
		*(p->in_b[b] ? &tb : &ta) += p->y[m][b];
	}
	t[0][m] += ta * N / (N - n);
	t[1][m] += tb * N / n;
}

int abf_period(const struct abt_period *cur, const struct abt_period *prev, int m,
	       double *x, double *v)
{
	double t = 0, tp = 0, c[N] = { 0 }, e[N], beta, mean = 0, ss = 0, sb = 0, sa = 0;
	unsigned int n = 0;

	for (int b = 0; b < N; b++) {
		n += cur->in_b[b];
		t += cur->y[m][b];
		tp += prev ? prev->y[m][b] : 0;
	}
	if (!n || n == N || t <= 0)
		return 0;
	for (int b = 0; b < N && tp > 0; b++)
		c[b] = prev->y[m][b] * t / tp;
	beta = slope(cur->y[m], c);
	for (int b = 0; b < N; b++) {
		e[b] = cur->y[m][b] - beta * c[b];
		mean += e[b] / N;
		*(cur->in_b[b] ? &sb : &sa) += e[b];
	}
	for (int b = 0; b < N; b++)
		ss += (e[b] - mean) * (e[b] - mean);
	*v = (double)N * N * N * (ss / (N - 1)) / ((double)n * (N - n) * t * t);
	*x = ((double)N / n * sb - (double)N / (N - n) * sa) / t;
	return *v > 0;
}

void abf_add(struct abf_host *h, const struct abt_period *cur,
	     const struct abt_period *prev)
{
	unsigned int any = 0;

	for (int m = 0; m < ABT_NR_METRICS; m++) {
		double x, v;

		if (!abf_period(cur, prev, m, &x, &v))
			continue;
		add_totals(cur, m, h->total);
		h->sum[m] += x / v;
		h->info[m] += 1 / v;
		h->m[m].est = h->sum[m] / h->info[m];
		h->m[m].var = 1 / h->info[m];
		any = 1;
	}
	h->periods += any;
}

void abf_host(const struct abt_period *p, unsigned int n, struct abf_host *h)
{
	uint64_t key = h->key;

	*h = (struct abf_host){ .key = key };
	for (unsigned int i = 0; i < n; i++)
		abf_add(h, &p[i], i ? &p[i - 1] : NULL);
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/* A key another host of the list also has (k: all keys, sorted) */
static int shared(const uint64_t *k, unsigned int n, uint64_t key)
{
	unsigned int lo = 0, hi = n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (k[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo + 1 < n && k[lo + 1] == key;
}

void abf_pool(const struct abf_host *h, unsigned int n, struct abf_fleet *f)
{
	const double tau2 = ABF_TAU * ABF_TAU, bound = log(1 / ABF_ALPHA);

	uint64_t *keys = malloc((n + 1) * sizeof(*keys));

	*f = (struct abf_fleet){ 0 };
	for (unsigned int i = 0; i < n && keys; i++)
		keys[i] = h[i].key;
	if (keys)
		qsort(keys, n, sizeof(*keys), cmp_u64);
	for (unsigned int i = 0; i < n && keys; i++) {
		if (h[i].periods < 1 || h[i].m[ABT_FAULTS].var <= 0 || shared(keys, n, h[i].key))
			continue;
		f->hosts++;
		for (int m = 0; m < ABT_NR_METRICS; m++) {
			const struct abf_stat *st = &h[i].m[m];

			if (st->var <= 0)
				continue;
			f->s[m] += st->est / st->var;
			f->v[m] += 1 / st->var;
			f->total[0][m] += h[i].total[0][m];
			f->total[1][m] += h[i].total[1][m];
		}
	}
	free(keys);
	for (int m = 0; m < ABT_NR_METRICS; m++) {
		double g = 1 + tau2 * f->v[m], half;

		if (f->total[0][m] > 0 && f->total[1][m] > 0)
			f->total_lr[m] = log(f->total[1][m] / f->total[0][m]);
		f->log_lambda[m] = tau2 * f->s[m] * f->s[m] / (2 * g) - log(g) / 2;
		f->lo[m] = 1;
		f->hi[m] = -1;
		if (f->v[m] <= 0)
			continue;
		half = sqrt(g * (2 * bound + log(g))) / (ABF_TAU * f->v[m]);
		f->lo[m] = f->s[m] / f->v[m] - half;
		f->hi[m] = f->s[m] / f->v[m] + half;
	}
	if (f->hosts < ABF_MIN_HOSTS)
		f->verdict = ABF_NOT_ENOUGH;
	else if (f->v[ABT_PAGES] > 0 && f->lo[ABT_PAGES] > ABF_IO_MARGIN)
		f->verdict = ABF_WORSE;
	else if (f->log_lambda[ABT_FAULTS] < bound)
		f->verdict = ABF_NONE;
	else if (f->s[ABT_FAULTS] > 0)
		f->verdict = ABF_WORSE;
	else if (f->v[ABT_PAGES] > 0 && f->hi[ABT_PAGES] <= ABF_IO_MARGIN)
		f->verdict = ABF_BETTER;
	else
		f->verdict = ABF_NONE;
}

/* The mean of ln r over the n rates r > 0, their variance over it; 0: under 2 */
static unsigned int ln_mean(const double *r, unsigned int n, double *mean, double *var)
{
	unsigned int k = 0;
	double ss = 0;

	*mean = 0;
	for (unsigned int i = 0; i < n; i++)
		if (r[i] > 0) {
			*mean += log(r[i]);
			k++;
		}
	if (k < 2)
		return 0;
	*mean /= k;
	for (unsigned int i = 0; i < n; i++)
		if (r[i] > 0)
			ss += (log(r[i]) - *mean) * (log(r[i]) - *mean);
	*var = ss / (k - 1) / k;
	return k;
}

int abf_holdback(const double *ra, unsigned int na, const double *rb, unsigned int nb,
		 double *lr, double *se)
{
	double ma, mb, va, vb;

	if (!ln_mean(ra, na, &ma, &va) || !ln_mean(rb, nb, &mb, &vb))
		return 0;
	*lr = mb - ma;
	*se = sqrt(va + vb);
	return 1;
}
