// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the rapolicy decisions. Builds policy.c into this module
 * so that it tests the very code rapolicy.ko runs, without exports.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include "../policy.c"

#define rap_test kunit
#define RAP_EXPECT(t, cond) KUNIT_EXPECT_TRUE(t, cond)
#define RAP_EXPECT_FALSE(t, cond) KUNIT_EXPECT_FALSE(t, cond)
#define RAP_EXPECT_EQ(t, a, b) KUNIT_EXPECT_EQ(t, a, b)

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

static struct kunit_case rap_policy_cases[] = {
	KUNIT_CASE_PARAM(rap_policy_case, rap_case_gen_params),
	{}
};

static struct kunit_suite rap_policy_suite = {
	.name = "rapolicy_policy",
	.test_cases = rap_policy_cases,
};

kunit_test_suite(rap_policy_suite);

MODULE_DESCRIPTION("KUnit tests for the rapolicy readahead decisions");
MODULE_LICENSE("GPL");
