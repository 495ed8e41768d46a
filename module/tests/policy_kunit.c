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

#include "policy_cases.h"

#define RAP_KUNIT_CASE(name) KUNIT_CASE(name),

static struct kunit_case rap_policy_cases[] = {
	RAP_CASES(RAP_KUNIT_CASE)
	{}
};

static struct kunit_suite rap_policy_suite = {
	.name = "rapolicy_policy",
	.test_cases = rap_policy_cases,
};
kunit_test_suite(rap_policy_suite);

MODULE_DESCRIPTION("KUnit tests for the rapolicy readahead decisions");
MODULE_LICENSE("GPL");
