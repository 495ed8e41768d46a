// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of rapolicyctl's statistics and escaping (TAP).  The
 * command line is tested end to end by rapolicyctl.sh.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rapolicyctl/rapctl.h"
#include "tests/tap.h"

/* Block i: arm A and B with faults and misses, pages read per fault */
static void set(struct block *b, uint64_t fa, uint64_t ma, uint64_t fb, uint64_t mb)
{
	memset(b, 0, sizeof(*b));
	b->c[ARM_A][ST_sync_miss] = ma;
	b->c[ARM_A][ST_mmap_hit] = fa - ma;
	b->c[ARM_A][ST_pages_read] = ma * 16;
	b->c[ARM_B][ST_sync_miss] = mb;
	b->c[ARM_B][ST_mmap_hit] = fb - mb;
	b->c[ARM_B][ST_pages_read] = mb * 16;
}

static void test_t(void)
{
	ok(fabs(t_pvalue(2.228, 10) - 0.05) < 0.001, "t_pvalue(2.228, 10) = 0.05 (%.4f)",
	   t_pvalue(2.228, 10));
	ok(fabs(t_pvalue(1.96, 1000) - 0.05) < 0.002, "t_pvalue(1.96, 1000) ~ 0.05");
	ok(t_pvalue(0, 5) > 0.999, "t_pvalue(0) = 1");
}

static void test_issue_example(void)
{
	struct block b;
	struct ab_result r;

	/* 50 of 100 against 53 of 100, all in one snapshot */
	set(&b, 100, 50, 100, 53);
	ab_analyse(&b, 1, &r);
	ok(!strcmp(r.verdict, "no significant difference"),
	   "50/100 against 53/100 in one block: %s (%s)", r.verdict, r.why);
}

/* Blocks whose rates swing together (dependence): A/A stays undecided */
static void test_aa(void)
{
	struct block b[40];
	struct ab_result r;
	int decided = 0;

	srand(1);
	for (int run = 0; run < 100; run++) {
		for (int i = 0; i < 40; i++) {
			/* a file is either cold (all misses) or warm */
			uint64_t fa = 100 + rand() % 1000, fb = 100 + rand() % 1000;
			double pa = rand() % 2 ? 0.9 : 0.01, pb = rand() % 2 ? 0.9 : 0.01;

			set(&b[i], fa, (uint64_t)(fa * pa), fb, (uint64_t)(fb * pb));
		}
		ab_analyse(b, 40, &r);
		decided += strcmp(r.verdict, "no significant difference") != 0;
	}
	ok(decided <= 10, "A/A with dependent faults: %d of 100 runs decided (alpha 0.05)",
	   decided);
}

static void test_clear_difference(void)
{
	struct block b[10];
	struct ab_result r;

	for (int i = 0; i < 10; i++)
		set(&b[i], 1000 + i * 10, 500 + i, 1000 + i * 7, 5 + i % 3);
	ab_analyse(b, 10, &r);
	ok(!strcmp(r.verdict, "B better"), "B with 1%% misses against 50%%: %s (%s)",
	   r.verdict, r.why);
	ok(r.fault[ARM_A].lo < r.fault[ARM_A].rate && r.fault[ARM_A].rate < r.fault[ARM_A].hi,
	   "the interval holds the rate");
	for (int i = 0; i < 10; i++) {
		set(&b[i], 1000 + i * 10, 500 + i, 1000 + i * 7, 5 + i % 3);
		b[i].c[ARM_B][ST_pages_read] = 100000;
	}
	ab_analyse(b, 10, &r);
	ok(!strcmp(r.verdict, "trade-off"), "B reads far more pages: %s (%s)", r.verdict,
	   r.why);
	ab_analyse(b, 4, &r);
	ok(!strcmp(r.verdict, "no significant difference") && strstr(r.why, "too few"),
	   "4 blocks are too few: %s", r.why);
}

static void test_esc(void)
{
	char longs[200];

	memset(longs, 'x', sizeof(longs) - 1);
	longs[sizeof(longs) - 1] = '\0';
	ok(!strcmp(esc("a\nb'"), "a\\x0ab\\x27"), "esc escapes controls and quotes: %s",
	   esc("a\nb'"));
	ok(strlen(esc(longs)) == 48 + 3, "esc caps at 48 characters");
}

int main(void)
{
	test_t();
	test_issue_example();
	test_aa();
	test_clear_difference();
	test_esc();
	return tap_done();
}
