// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the rapolicy decisions: module/policy.c built for
 * userspace against a fake page cache, with the cases KUnit runs too.
 * Prints TAP; exits non-zero on any failure.
 */
#include <stdio.h>
#include <string.h>

#include "../../module/policy.c"

#include "rap_test.h"

#include "../../module/tests/policy_cases.h"

int main(void)
{
	size_t i, n = sizeof(rap_cases) / sizeof(rap_cases[0]);
	int failed = 0;

	printf("TAP version 13\n1..%zu\n", n);
	for (i = 0; i < n; i++) {
		struct rap_test t = { rap_cases[i].name, 0 };

		rap_cases[i].run(&t);
		printf("%sok %zu - %s\n", t.failures ? "not " : "", i + 1,
		       rap_cases[i].name);
		failed += !!t.failures;
	}
	return failed ? 1 : 0;
}
