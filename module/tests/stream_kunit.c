// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the rapolicy stream tracker. Builds stream.c into this
 * module so that it tests the very code rapolicy.ko runs, without exports.
 */
#include <kunit/test.h>
#include <linux/array_size.h>
#include <linux/module.h>
#include <linux/string.h>

#include "../stream.c"

#define rap_test kunit
#define RAP_EXPECT(t, cond) KUNIT_EXPECT_TRUE(t, cond)
/* compared as unsigned long long, as the host build does: values printed */
#define RAP_EXPECT_EQ(t, a, b)						\
	KUNIT_EXPECT_EQ(t, (unsigned long long)(a), (unsigned long long)(b))
#define RAP_EXPECT_LE(t, a, b)						\
	KUNIT_EXPECT_LE(t, (unsigned long long)(a), (unsigned long long)(b))

#include "stream_cases.h"

static void rap_stream_case_desc(const struct rap_stream_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rap_stream_case, rap_stream_cases, rap_stream_case_desc);

static void rap_stream_case(struct kunit *test)
{
	const struct rap_stream_case *c = test->param_value;

	c->run(test);
}

static struct kunit_case rap_stream_kunit_cases[] = {
	KUNIT_CASE_PARAM(rap_stream_case, rap_stream_case_gen_params),
	{}
};

/* The table the cases ran faults through */
static void rap_stream_suite_exit(struct kunit_suite *suite)
{
	rap_sim_table_release();
}

static struct kunit_suite rap_stream_suite = {
	.name = "rapolicy_stream",
	.suite_exit = rap_stream_suite_exit,
	.test_cases = rap_stream_kunit_cases,
};

kunit_test_suite(rap_stream_suite);

MODULE_DESCRIPTION("KUnit tests for the rapolicy stream tracker");
MODULE_LICENSE("GPL");
