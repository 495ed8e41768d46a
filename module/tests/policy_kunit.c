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

static struct kunit_case rap_policy_cases[] = {
	KUNIT_CASE_PARAM(rap_policy_case, rap_case_gen_params),
	KUNIT_CASE(rap_register_contract),
	{}
};

static struct kunit_suite rap_policy_suite = {
	.name = "rapolicy_policy",
	.test_cases = rap_policy_cases,
};

kunit_test_suite(rap_policy_suite);

MODULE_DESCRIPTION("KUnit tests for the rapolicy readahead decisions");
MODULE_LICENSE("GPL");
