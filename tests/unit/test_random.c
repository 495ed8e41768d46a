// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of random_miss: module/random.c built for userspace,
 * driven by a model of the read-around fault path over a fake page cache,
 * with the cases of module/tests/random_cases.h. Prints TAP; exits
 * non-zero on any failure.
 */
#include <stdio.h>
#include <string.h>

#include "../../module/random.c"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#include "rap_test.h"

#include "../../module/tests/random_cases.h"

int main(void)
{
	size_t i, n = ARRAY_SIZE(rap_random_cases);
	int failed = 0;

	printf("TAP version 13\n1..%zu\n", n);
	for (i = 0; i < n; i++) {
		struct rap_test t = { rap_random_cases[i].name, 0 };

		rap_random_cases[i].run(&t);
		printf("%sok %zu - %s\n", t.failures ? "not " : "", i + 1,
		       rap_random_cases[i].name);
		failed += !!t.failures;
	}
	return failed ? 1 : 0;
}
