// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the rapolicy random_miss policy. Builds random.c into this
 * module so that it tests the very code rapolicy.ko runs, without exports.
 */
#include <kunit/test.h>
#include <linux/array_size.h>
#include <linux/module.h>
#include <linux/string.h>

#include "../random.c"

#define rap_test kunit
#define RAP_EXPECT(t, cond) KUNIT_EXPECT_TRUE(t, cond)

#include "random_cases.h"

static void rap_random_case_desc(const struct rap_random_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rap_random_case, rap_random_cases, rap_random_case_desc);

static void rap_random_case(struct kunit *test)
{
	const struct rap_random_case *c = test->param_value;

	c->run(test);
}

static struct kunit_case rap_random_kunit_cases[] = {
	KUNIT_CASE_PARAM(rap_random_case, rap_random_case_gen_params),
	{}
};

static struct kunit_suite rap_random_suite = {
	.name = "rapolicy_random",
	.test_cases = rap_random_kunit_cases,
};

kunit_test_suite(rap_random_suite);

MODULE_DESCRIPTION("KUnit tests for the rapolicy random_miss policy");
MODULE_LICENSE("GPL");
