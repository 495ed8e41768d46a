/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abtest: the A/B analysis over the module's buckets, a library of its own
 * (pure arithmetic, no I/O) used by rapolicyctl ab report and by the
 * simulator that checks it (userspace/tests/ab_sim.c).  docs/AB.md has
 * the design, the model and the simulation's figures.
 *
 * The module hashes each unit (a file; in cgroup mode a cgroup) into one
 * of ABT_BUCKETS buckets; per period the salt draws a uniform random set
 * of K buckets for arm B.  The analysis unit is the bucket, so a
 * randomization test that redraws those sets the way the module drew
 * them is exact under its null, whatever the files, their sizes, their
 * rates or how the load varies over time.  A new salt per period (a
 * crossover) shows each bucket in both arms, and the test compares a
 * bucket with itself.  What is estimated is what production pays: the
 * ratio of the arms' total major faults (and pages read), each arm
 * scaled up to all the buckets.
 */
#ifndef ABTEST_H
#define ABTEST_H

#include <stdbool.h>
#include <stdint.h>

#define ABT_BUCKETS	64
#define ABT_MAX_PERIODS	64

/* What is compared, per bucket: both count what the policy cannot redefine */
enum abt_metric {
	ABT_FAULTS,	/* major faults of mmap (sync_miss) */
	ABT_PAGES,	/* pages read by mmap readahead (pages_read) */
	ABT_NR_METRICS
};

/* One period: one salt, one draw of arm B's buckets */
struct abt_period {
	double y[ABT_NR_METRICS][ABT_BUCKETS];
	bool in_b[ABT_BUCKETS];
	bool changed;	/* a setting changed within the period, or at its start
			   other than by the salt */
};

enum abt_outcome {
	ABT_B_BETTER,
	ABT_B_WORSE,
	ABT_B_WORSE_IO,
	ABT_NO_DIFFERENCE,
	ABT_NOT_ENOUGH_DATA,
	ABT_INVALID,
};

/* The plan, fixed before the data: a fixed horizon */
struct abt_plan {
	unsigned int periods;	/* the horizon: periods analysed */
	unsigned int perms;	/* re-randomizations, e.g. 999 */
	double alpha;		/* of the major-fault test, two-sided */
	double alpha_io;	/* of each one-sided pages-read bound */
	double io_margin;	/* pages read: B may read this much more */
	unsigned int min_buckets;	/* cells with major faults, per arm */
	bool pairs;		/* period 2i + 1's arm B is period 2i's arm A */
	uint64_t seed;		/* of the re-randomizations */
};
extern const struct abt_plan abt_default_plan;

/*
 * B against A: the ratio of the arms' totals less 1, as a fraction, with
 * its interval from inverting the test: 1 - alpha for major faults,
 * 1 - 2 alpha_io for pages read (each bound one-sided 1 - alpha_io).
 */
struct abt_effect {
	double est, lo, hi;
	double p;		/* two-sided randomization p-value of no effect */
	double total[2];	/* the arms' counts over the periods analysed */
	double scaled[2];	/* the same, each cell times 64 / its arm's buckets */
};

struct abt_result {
	enum abt_outcome outcome;
	struct abt_effect eff[ABT_NR_METRICS];
	unsigned int periods;	/* analysed */
	unsigned int buckets;	/* with major faults in some analysed period */
	unsigned int cells[2];	/* (bucket, period) cells with major faults, per arm */
	char why[240];
};

/*
 * Analyse the first plan->periods of p[0..n).  Fewer: not enough data;
 * a period with a setting change: invalid.
 */
void abt_analyse(const struct abt_period *p, unsigned int n,
		 const struct abt_plan *plan, struct abt_result *r);
const char *abt_outcome_name(enum abt_outcome o);

#endif /* ABTEST_H */
