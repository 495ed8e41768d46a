// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl: the A/B statistics.  Faults are not independent (one
 * readahead decision shapes the next hundred faults of a file), so the
 * unit of evidence is a block: the counts of one time interval or one
 * workload run.  Each arm's rate is a ratio estimator over blocks
 * (Cochran, Sampling Techniques, 3rd ed., section 6.4), its variance from
 * the spread of the blocks, floored at the binomial variance; the arms
 * are compared with Welch's t statistic on k - 1 degrees of freedom.
 * Pages read per mmap fault differ between arms by a few percent even in
 * an A/A test (the same pages read, slightly different fault counts), so
 * an I/O difference counts only beyond a margin of practical interest.
 */
#include <math.h>
#include <string.h>

#include "rapctl.h"

static const double t975[] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double t_quantile(unsigned int df)
{
	if (df == 0)
		return INFINITY;
	if (df <= 30)
		return t975[df - 1];
	return 1.960 + 2.4 / df;
}

static double t_density(double x, double df)
{
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2) -
		   0.5 * log(df * M_PI) - (df + 1) / 2 * log1p(x * x / df));
}

/* Two-sided p-value of t on df degrees of freedom (Simpson's rule) */
double t_pvalue(double t, unsigned int df)
{
	const int steps = 4000;
	double x = fabs(t), h, sum;

	if (df == 0)
		return 1;
	if (isinf(x) || x > 60)
		return 0;
	h = x / steps;
	sum = t_density(0, df) + t_density(x, df);
	for (int i = 1; i < steps; i++)
		sum += (i % 2 ? 4 : 2) * t_density(i * h, df);
	sum = 1 - 2 * sum * h / 3;
	return sum < 0 ? 0 : sum;
}

static uint64_t faults(const uint64_t *c)
{
	return c[ST_sync_miss] + c[ST_mmap_hit];
}

/* The rate of counter num per mmap fault of arm over the k blocks used */
static void estimate(const struct block *b, size_t n, int arm, int num,
		     size_t k, struct est *e)
{
	double ss = 0, var, floor_var, tq = t_quantile(k ? (unsigned int)k - 1 : 0);

	memset(e, 0, sizeof(*e));
	for (size_t i = 0; i < n; i++) {
		e->num += b[i].c[arm][num];
		e->den += faults(b[i].c[arm]);
	}
	if (!e->den)
		return;
	e->rate = (double)e->num / (double)e->den;
	for (size_t i = 0; i < n; i++) {
		double r = (double)b[i].c[arm][num] -
			   e->rate * (double)faults(b[i].c[arm]);

		ss += r * r;
	}
	var = k > 1 ? (double)k / (double)(k - 1) * ss / ((double)e->den * e->den) : INFINITY;
	/* never below what independent faults would give */
	floor_var = (e->rate < 1 ? e->rate * (1 - e->rate) : e->rate) / (double)e->den;
	e->se = sqrt(var > floor_var ? var : floor_var);
	e->lo = e->rate - tq * e->se;
	e->hi = e->rate + tq * e->se;
	if (e->lo < 0)
		e->lo = 0;
}

static double compare(const struct est *a, const struct est *b, size_t k)
{
	double se = sqrt(a->se * a->se + b->se * b->se);

	if (se == 0)
		return a->rate == b->rate ? 1 : 0;
	return t_pvalue((b->rate - a->rate) / se, (unsigned int)k - 1);
}

void ab_analyse(const struct block *b, size_t n, struct ab_result *r)
{
	bool fsig, iosig;
	int better;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < n; i++)
		if (faults(b[i].c[ARM_A]) && faults(b[i].c[ARM_B]))
			r->blocks++;
	for (int arm = 0; arm < NR_ARMS; arm++) {
		estimate(b, n, arm, ST_sync_miss, r->blocks, &r->fault[arm]);
		estimate(b, n, arm, ST_pages_read, r->blocks, &r->io[arm]);
	}
	r->fault_p = r->io_p = 1;
	r->verdict = "no significant difference";
	if (r->blocks < AB_MIN_BLOCKS) {
		snprintf(r->why, sizeof(r->why),
			 "too few samples: blocks with faults in both arms: %zu, need %d",
			 r->blocks, AB_MIN_BLOCKS);
		return;
	}
	for (int arm = 0; arm < NR_ARMS; arm++) {
		if (r->fault[arm].den < AB_MIN_FAULTS) {
			snprintf(r->why, sizeof(r->why),
				 "too few samples: arm %c has %llu mmap faults, need %d",
				 'A' + arm, (unsigned long long)r->fault[arm].den,
				 AB_MIN_FAULTS);
			return;
		}
	}
	r->fault_p = compare(&r->fault[ARM_A], &r->fault[ARM_B], r->blocks);
	r->io_p = compare(&r->io[ARM_A], &r->io[ARM_B], r->blocks);
	fsig = r->fault_p < 0.05;
	/* I/O cost: only a difference of more than AB_IO_MARGIN counts */
	iosig = r->io_p < 0.05 && r->io[ARM_A].rate > 0 &&
		fabs(r->io[ARM_B].rate / r->io[ARM_A].rate - 1) > AB_IO_MARGIN;
	if (!fsig) {
		snprintf(r->why, sizeof(r->why),
			 "major fault rates differ by chance (p=%.3g)%s", r->fault_p,
			 iosig ? "; pages read per fault differ by more than 50%" : "");
		return;
	}
	better = r->fault[ARM_B].rate < r->fault[ARM_A].rate ? ARM_B : ARM_A;
	if (iosig && (r->io[better].rate > r->io[!better].rate)) {
		r->verdict = "trade-off";
		snprintf(r->why, sizeof(r->why),
			 "arm %c takes fewer major faults (p=%.3g) but reads more pages per fault (p=%.3g)",
			 'A' + better, r->fault_p, r->io_p);
		return;
	}
	r->verdict = better == ARM_B ? "B better" : "A better";
	snprintf(r->why, sizeof(r->why),
		 "fewer major faults per mmap fault (p=%.3g); pages read per fault %s",
		 r->fault_p, iosig ? "lower too" : "within 50%");
}
