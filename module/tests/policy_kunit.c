// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the rapolicy decisions. Builds policy.c into this module
 * so that it tests the very code rapolicy.ko runs, without exports.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/readahead_policy.h>
#include <linux/string.h>

#include "../compat.h"
#include "../policy.c"

#define rap_test kunit
#define RAP_EXPECT(t, cond) KUNIT_EXPECT_TRUE(t, cond)
#define RAP_EXPECT_FALSE(t, cond) KUNIT_EXPECT_FALSE(t, cond)
#define RAP_EXPECT_EQ(t, a, b) KUNIT_EXPECT_EQ(t, a, b)
#define RAP_EXPECT_LE(t, a, b)						\
	KUNIT_EXPECT_LE(t, (unsigned long long)(a), (unsigned long long)(b))

#include "policy_cases.h"

static void rap_case_desc(const struct rap_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rap_case, rap_cases, rap_case_desc);

static void rap_policy_case(struct kunit *test)
{
	const struct rap_case *c = test->param_value;

	c->run(test);
}

static bool rap_nop_ra(const struct ra_policy_fault *fault,
		       struct ra_policy_window *win)
{
	return false;
}

static const struct readahead_policy_ops rap_nop_ops = {
	.mmap_ra = rap_nop_ra,
};

/*
 * readahead_policy_register() refuses NULL ops, and a registration while a
 * policy is registered (rapolicy.ko, or the first one here) fails with
 * -EBUSY and leaves the registered policy in place.
 */
static void rap_register_contract(struct kunit *test)
{
	int err;

	KUNIT_EXPECT_EQ(test, readahead_policy_register(NULL), -EINVAL);
	err = readahead_policy_register(&rap_nop_ops);
	if (err) {
		KUNIT_EXPECT_EQ(test, err, -EBUSY);
		return;
	}
	KUNIT_EXPECT_EQ(test, readahead_policy_register(&rap_nop_ops), -EBUSY);
	KUNIT_EXPECT_EQ(test, readahead_policy_register(NULL), -EINVAL);
	readahead_policy_unregister(&rap_nop_ops);
}

/*
 * The kernel's check of a replaced window, ra_policy_window_check(), as
 * the fault path runs it on every window a policy (built in or BPF)
 * returns: a VMA mapping pages [100, 4100) of a 3000-page file, read-around
 * with ra_pages 32, a miss at page 300.
 */
static void rap_window_check(struct kunit *test)
{
	struct ra_policy_fault f = {
		.index = 300, .vma_start = 100, .vma_end = 4100,
		.point = RA_POLICY_SYNC_AROUND, .sync_point = RA_POLICY_SYNC_AROUND,
		.ra_pages = 32, .max_pages = 1024, .window_pages = 32,
		.max_order = 9,
	};
	const pgoff_t pages = 3000;
	struct ra_policy_window w = { .start = 290, .size = 32,
				      .async_size = 8, .order = 2 };

	KUNIT_EXPECT_TRUE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	KUNIT_EXPECT_EQ(test, w.start, 290);
	KUNIT_EXPECT_EQ(test, w.size, 32);
	KUNIT_EXPECT_EQ(test, w.async_size, 8);
	/* a miss's window holds the faulting page, or is refused */
	w = (struct ra_policy_window){ .start = 301, .size = 32 };
	KUNIT_EXPECT_FALSE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	w = (struct ra_policy_window){ .start = 200, .size = 100 };
	KUNIT_EXPECT_FALSE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	/* ra_pages without VM_HUGEPAGE, cut so that it keeps the fault */
	w = (struct ra_policy_window){ .start = 300, .size = 1024,
				       .async_size = 1024, .order = 10 };
	KUNIT_EXPECT_TRUE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	KUNIT_EXPECT_EQ(test, w.start, 300);
	KUNIT_EXPECT_EQ(test, w.size, 32);
	KUNIT_EXPECT_EQ(test, w.async_size, 32);
	KUNIT_EXPECT_EQ(test, w.order, 9);
	w = (struct ra_policy_window){ .start = 250, .size = 100 };
	KUNIT_EXPECT_TRUE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	KUNIT_EXPECT_EQ(test, w.start, 269);
	KUNIT_EXPECT_EQ(test, w.size, 32);
	/* with VM_HUGEPAGE, the two folios' 1024 pages */
	f.window_pages = 1024;
	w = (struct ra_policy_window){ .start = 300, .size = 2048 };
	KUNIT_EXPECT_TRUE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	KUNIT_EXPECT_EQ(test, w.size, 1024);
	f.window_pages = 32;
	/* several windows: the fault in one of them, none overlapping */
	w = (struct ra_policy_window){ .start = 290, .size = 1, .stride = 10,
				       .nr = 2, .async_size = 11 };
	KUNIT_EXPECT_TRUE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	KUNIT_EXPECT_EQ(test, w.nr, 2);
	KUNIT_EXPECT_EQ(test, w.async_size, 11);
	w.async_size = 100;
	KUNIT_EXPECT_TRUE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	KUNIT_EXPECT_EQ(test, w.async_size, 11);
	w.start = 291;
	KUNIT_EXPECT_FALSE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	w = (struct ra_policy_window){ .start = 300, .size = 8, .stride = 4,
				       .nr = 2 };
	KUNIT_EXPECT_FALSE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	w = (struct ra_policy_window){ .start = 300, .size = 1, .stride = 1,
				       .nr = RA_POLICY_MAX_WINDOWS + 1 };
	KUNIT_EXPECT_FALSE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	/* windows of ra_pages each, up to max_pages and EOF */
	w = (struct ra_policy_window){ .start = 300, .size = 64, .stride = 64,
				       .nr = RA_POLICY_MAX_WINDOWS };
	KUNIT_EXPECT_TRUE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	KUNIT_EXPECT_EQ(test, w.size, 32);
	KUNIT_EXPECT_EQ(test, w.nr, RA_POLICY_MAX_WINDOWS);
	w = (struct ra_policy_window){ .start = 300, .size = 32, .stride = 32,
				       .nr = RA_POLICY_MAX_WINDOWS };
	KUNIT_EXPECT_TRUE(test, ra_policy_window_check(&f, &w, 700, 0, 0));
	KUNIT_EXPECT_EQ(test, w.nr, 13);
	/* async: not the marked folio [300, 304) again, nothing outside */
	f.point = RA_POLICY_ASYNC;
	w = (struct ra_policy_window){ .start = 300, .size = 32, .order = 2 };
	KUNIT_EXPECT_TRUE(test, ra_policy_window_check(&f, &w, pages, 300, 304));
	KUNIT_EXPECT_EQ(test, w.start, 304);
	KUNIT_EXPECT_EQ(test, w.size, 28);
	KUNIT_EXPECT_EQ(test, w.order, 2);
	w = (struct ra_policy_window){ .start = 301, .size = 3 };
	KUNIT_EXPECT_FALSE(test, ra_policy_window_check(&f, &w, pages, 300, 304));
	w = (struct ra_policy_window){ .start = 300, .size = 1, .stride = 8,
				       .nr = 2 };
	KUNIT_EXPECT_FALSE(test, ra_policy_window_check(&f, &w, pages, 300, 304));
	w = (struct ra_policy_window){ .start = pages, .size = 32 };
	KUNIT_EXPECT_FALSE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	w = (struct ra_policy_window){ .start = 0, .size = 100 };
	KUNIT_EXPECT_FALSE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	w = (struct ra_policy_window){ .start = 90, .size = 20 };
	KUNIT_EXPECT_TRUE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	KUNIT_EXPECT_EQ(test, w.start, 100);
	KUNIT_EXPECT_EQ(test, w.size, 10);
	w = (struct ra_policy_window){ .start = ~0UL, .size = ~0UL };
	KUNIT_EXPECT_FALSE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	w = (struct ra_policy_window){ .start = pages - 10, .size = ~0UL };
	KUNIT_EXPECT_TRUE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	KUNIT_EXPECT_EQ(test, w.size, 10);
	/* an empty file, an empty window, an empty VMA range */
	w = (struct ra_policy_window){ .start = 300, .size = 32 };
	KUNIT_EXPECT_FALSE(test, ra_policy_window_check(&f, &w, 0, 0, 0));
	w.size = 0;
	KUNIT_EXPECT_FALSE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
	w.size = 32;
	f.vma_end = f.vma_start;
	KUNIT_EXPECT_FALSE(test, ra_policy_window_check(&f, &w, pages, 0, 0));
}

static struct kunit_case rap_policy_cases[] = {
	KUNIT_CASE_PARAM(rap_policy_case, rap_case_gen_params),
	KUNIT_CASE(rap_register_contract),
	KUNIT_CASE(rap_window_check),
	{}
};

static struct kunit_suite rap_policy_suite = {
	.name = "rapolicy_policy",
	.test_cases = rap_policy_cases,
};

kunit_test_suite(rap_policy_suite);

MODULE_DESCRIPTION("KUnit tests for the rapolicy readahead decisions");
MODULE_LICENSE("GPL");
