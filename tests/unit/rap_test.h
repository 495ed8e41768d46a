/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host side of the cases shared with KUnit (module/tests/, the
 * policy_cases.h and stream_cases.h files):
 * struct rap_test and the RAP_EXPECT*() checks, which print what failed
 * with its values as a TAP comment and count the failure.
 */
#ifndef RAP_TEST_H
#define RAP_TEST_H

#include <stdio.h>

struct rap_test {
	const char *name;
	int failures;
};

#define RAP_EXPECT(t, cond)						\
	do {								\
		if (!(cond)) {						\
			printf("# %s:%d: expected %s\n", __FILE__,	\
			       __LINE__, #cond);			\
			(t)->failures++;				\
		}							\
	} while (0)

#define RAP_EXPECT_FALSE(t, cond) RAP_EXPECT(t, !(cond))

#define RAP_EXPECT_EQ(t, a, b)						\
	do {								\
		unsigned long long _a = (a), _b = (b);			\
		if (_a != _b) {						\
			printf("# %s:%d: expected %s == %s, got %llu and %llu\n", \
			       __FILE__, __LINE__, #a, #b, _a, _b);	\
			(t)->failures++;				\
		}							\
	} while (0)

#define RAP_EXPECT_LE(t, a, b)						\
	do {								\
		unsigned long long _a = (a), _b = (b);			\
		if (_a > _b) {						\
			printf("# %s:%d: expected %s <= %s, got %llu and %llu\n", \
			       __FILE__, __LINE__, #a, #b, _a, _b);	\
			(t)->failures++;				\
		}							\
	} while (0)

#endif /* RAP_TEST_H */
