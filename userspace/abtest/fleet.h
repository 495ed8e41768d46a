/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fleet: what each host exports for the fleet's A/B verdict, and the
 * verdict's arithmetic, the one that docs/prometheus/rapolicy.rules.yml
 * writes in PromQL (userspace/tests/prometheus.sh checks that they agree;
 * userspace/tests/ab_fleet.c runs this one over simulated fleets).
 *
 * Per host and period, per metric (major faults, pages read):
 *
 *   x = (T_B - T_A) / T,   v = 64^3 s^2 / (n (64 - n) T^2)
 *
 * with T_B, T_A the arms' totals each scaled to all 64 buckets (64 / n
 * and 64 / (64 - n), n arm B's buckets), T both arms' total, and s^2 the
 * variance over the 64 buckets of the counts less a covariate (the same
 * bucket's share of the previous period, times T).  Under no effect the
 * counts do not depend on the salt, so T and s^2 do not either: x has
 * mean 0 and variance v exactly, for any number of buckets in B (the
 * scaled totals are unbiased, their log ratio is not).  Under an effect
 * x is ln(B / A) to first order.  A host exports the inverse-variance
 * mean of its periods' x and its variance.
 *
 * The fleet: hosts with an estimate and a key no other host has are
 * pooled, S = sum(est / var), V = sum(1 / var).  Under no effect S is a
 * sum of mean-0 terms of variance V, and Robbins' normal mixture
 *
 *   ln L = tau^2 S^2 / (2 (1 + tau^2 V)) - ln(1 + tau^2 V) / 2
 *
 * exceeds ln(1 / alpha) at any time with probability at most alpha
 * (Ville's inequality; Robbins, Ann. Math. Stat. 41, 1970; Johari et al.,
 * "Always valid inference", Oper. Res. 70, 2022): the verdict may be
 * watched every minute.  Its interval, S / V +- sqrt((1 + tau^2 V)
 * (2 ln(1 / alpha) + ln(1 + tau^2 V))) / (tau V), is as valid.
 */
#ifndef FLEET_H
#define FLEET_H

#include <stdint.h>

#include "abtest.h"

/* The rules' constants: docs/prometheus/rapolicy.rules.yml has each */
#define ABF_ALPHA	0.05	/* of the fault verdict, and of each pages bound */
#define ABF_TAU		0.035	/* the mixture's scale on ln(B / A) */
#define ABF_IO_MARGIN	0.0488	/* ln 1.05: B may read 5% more pages */
#define ABF_MIN_HOSTS	3	/* pooled hosts before any verdict */

struct abf_stat {
	double est, var;	/* var 0: no estimate */
};

struct abf_host {
	struct abf_stat m[ABT_NR_METRICS];
	unsigned int periods;	/* periods with an estimate */
	uint64_t key;
	double sum[ABT_NR_METRICS], info[ABT_NR_METRICS];	/* of x / v, 1 / v */
	double total[2][ABT_NR_METRICS];	/* A's and B's, scaled, summed over the periods */
};

/*
 * One period's x and v for metric m; prev: the period before it (its
 * counts are the covariate), or NULL.  Returns 0 when the period says
 * nothing: one arm has no bucket, no counts, or no variance.
 */
int abf_period(const struct abt_period *cur, const struct abt_period *prev, int m,
	       double *x, double *v);

/* A host's estimate over its periods p[0..n) (key left alone) */
void abf_host(const struct abt_period *p, unsigned int n, struct abf_host *h);
/* The same, one period more: cur, after prev (NULL for the first) */
void abf_add(struct abf_host *h, const struct abt_period *cur,
	     const struct abt_period *prev);

/* The verdict's values, as the rules record them */
enum { ABF_BETTER = -1, ABF_NONE = 0, ABF_WORSE = 1, ABF_NOT_ENOUGH = 2 };

struct abf_fleet {
	unsigned int hosts;		/* pooled */
	double s[ABT_NR_METRICS], v[ABT_NR_METRICS];
	double log_lambda[ABT_NR_METRICS];
	double lo[ABT_NR_METRICS], hi[ABT_NR_METRICS];	/* of ln(B / A); hi < lo: none */
	double total[2][ABT_NR_METRICS];	/* the pooled hosts' */
	double total_lr[ABT_NR_METRICS];	/* ln(total[1] / total[0]); 0: an arm has none */
	int verdict;
};

/* Pool h[0..n): every host that exports a key, settled or not */
void abf_pool(const struct abf_host *h, unsigned int n, struct abf_fleet *f);

/*
 * Holdback hosts: per host its rate, ra[0..na) on arm A, rb[0..nb) on B.
 * The difference of the arms' mean ln rates (ln of the ratio of their
 * geometric means) and its standard error between hosts; hosts with no
 * count are left out, and 0 is returned when an arm has fewer than 2 left.
 * Host loads are skewed (lognormal in ab_sim): on the log scale a few
 * hosts an arm give an interval that holds, which the ratio of the arms'
 * means, skewed by its heaviest host, did not.
 */
int abf_holdback(const double *ra, unsigned int na, const double *rb, unsigned int nb,
		 double *lr, double *se);

#endif /* FLEET_H */
