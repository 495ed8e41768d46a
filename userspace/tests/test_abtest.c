// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the A/B analysis (userspace/abtest), on data whose
 * answer is known by construction (TAP).  Its error rates over simulated
 * counters are ab_sim's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "abtest/abtest.h"
#include "tests/tap.h"

#define NP 6

static struct abt_period per[NP + 2];

/*
 * Buckets 0..nb-1 busy, bucket b's faults 50 * (b % 9 + 1) * (1 + p % 3)
 * (buckets and periods differ a lot) times a fixed +-20% wobble per
 * cell, arm B's buckets per period from a fixed pattern; arm B's faults
 * times theta, pages per fault 8 * phi.
 */
static void fill(unsigned int nb, double theta, double phi)
{
	memset(per, 0, sizeof(per));
	for (unsigned int p = 0; p < NP + 2; p++) {
		for (unsigned int b = 0; b < ABT_BUCKETS; b++) {
			bool in_b = ((b * 7 + p * 13) / 5 + b * p) % 2;
			double y = b < nb ? 50.0 * (b % 9 + 1) * (1 + p % 3) *
					    (1 + 0.2 * sin(b * 7.3 + p * 3.1)) : 0;

			per[p].in_b[b] = in_b;
			per[p].y[ABT_FAULTS][b] = round(y * (in_b ? theta : 1));
			per[p].y[ABT_PAGES][b] = round(y * 8 * (in_b ? theta * phi : 1));
		}
	}
}

static struct abt_result analyse(unsigned int n)
{
	struct abt_result r;

	abt_analyse(per, n, &abt_default_plan, &r);
	printf("# %s (%s)\n", abt_outcome_name(r.outcome), r.why);
	return r;
}

static void test_outcomes(void)
{
	struct abt_result r;

	fill(40, 1, 1);
	r = analyse(NP);
	ok(r.outcome == ABT_NO_DIFFERENCE && r.eff[ABT_FAULTS].p > 0.05,
	   "identical arms: no difference detected (p=%.3f)", r.eff[ABT_FAULTS].p);
	ok(r.eff[ABT_FAULTS].lo < 0 && r.eff[ABT_FAULTS].hi > 0 &&
	   r.eff[ABT_FAULTS].hi - r.eff[ABT_FAULTS].lo < 0.2,
	   "identical arms: 0 inside an interval narrower than 20%%");
	ok(r.buckets == 40 && r.periods == NP, "40 busy buckets over 6 periods used");

	fill(40, 0.8, 1);
	r = analyse(NP);
	ok(r.outcome == ABT_B_BETTER, "B takes 20%% fewer major faults: B better");
	ok(r.eff[ABT_FAULTS].lo <= -0.2 && -0.2 <= r.eff[ABT_FAULTS].hi &&
	   fabs(r.eff[ABT_FAULTS].est + 0.2) < 0.02,
	   "the effect is -20%% (%.3f [%.3f, %.3f])", r.eff[ABT_FAULTS].est,
	   r.eff[ABT_FAULTS].lo, r.eff[ABT_FAULTS].hi);
	ok(fabs(r.eff[ABT_PAGES].est + 0.2) < 0.02, "pages read -20%% too (%.3f)",
	   r.eff[ABT_PAGES].est);

	/*
	 * A/A where every bucket takes the same faults in every period, as
	 * deterministic walks do on a kernel whose counts do not vary: the
	 * centred cells are all 0 but for rounding, which must not decide.
	 */
	fill(24, 1, 1);
	for (unsigned int p = 0; p < NP + 2; p++)
		for (unsigned int b = 0; b < 24; b++) {
			per[p].y[ABT_FAULTS][b] = 50 + b * 3;
			per[p].y[ABT_PAGES][b] = 800 + b * 48;
		}
	r = analyse(NP);
	ok(r.outcome == ABT_NO_DIFFERENCE && r.eff[ABT_FAULTS].p > 0.99,
	   "identical counts in every period: no difference (p=%.3f)",
	   r.eff[ABT_FAULTS].p);

	fill(40, 1.25, 1);
	ok(analyse(NP).outcome == ABT_B_WORSE, "25%% more major faults: B worse");

	fill(40, 0.8, 2);
	r = analyse(NP);
	ok(r.outcome == ABT_B_WORSE && strstr(r.why, "more I/O"),
	   "fewer major faults but 60%% more pages: the guardrail makes it B worse");
	fill(40, 0.8, 1.2);
	ok(analyse(NP).outcome == ABT_B_BETTER,
	   "fewer major faults, 4%% fewer pages: within the +10%% guardrail, B better");
	fill(40, 0.8, 1.35);
	r = analyse(NP);
	ok(r.outcome == ABT_NO_DIFFERENCE && strstr(r.why, "may exceed"),
	   "fewer major faults, 8%% more pages, interval across +10%%: no win");
	fill(40, 0.8, 1.45);
	ok(analyse(NP).outcome == ABT_B_WORSE,
	   "fewer major faults, 16%% more pages: past the guardrail, B worse");

	fill(40, 0.8, 1);
	ok(analyse(NP - 1).outcome == ABT_NOT_ENOUGH_DATA,
	   "5 of 6 planned periods: not enough data");
	r = analyse(NP + 2);
	ok(r.outcome == ABT_B_BETTER && r.periods == NP,
	   "8 periods: the horizon is 6, the rest is not looked at");
	per[NP + 1].changed = true;
	ok(analyse(NP + 2).outcome == ABT_B_BETTER,
	   "a setting change after the horizon does not matter");
	per[2].changed = true;
	ok(analyse(NP).outcome == ABT_INVALID, "a setting change within a period: invalid");

	fill(0, 1, 1);
	ok(analyse(NP).outcome == ABT_NOT_ENOUGH_DATA, "no faults: not enough data");
	fill(1, 0.5, 1);
	ok(analyse(NP).outcome == ABT_NOT_ENOUGH_DATA ||
	   analyse(NP).outcome == ABT_NO_DIFFERENCE, "one busy bucket: no verdict");
}

/* The p-value's floor: 1 / (perms + 1), never 0 */
static void test_pvalue(void)
{
	struct abt_result r;

	fill(64, 0.5, 1);
	r = analyse(NP);
	ok(r.eff[ABT_FAULTS].p >= 1.0 / 1000 && r.eff[ABT_FAULTS].p < 0.01,
	   "a large effect: p at its floor 1/1000 (%.4f)", r.eff[ABT_FAULTS].p);
	ok(strcmp(abt_outcome_name(ABT_NO_DIFFERENCE), abt_outcome_name(ABT_NOT_ENOUGH_DATA)),
	   "no difference and not enough data are worded apart");
}

int main(void)
{
	test_outcomes();
	test_pvalue();
	return tap_done();
}
