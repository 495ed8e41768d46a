// SPDX-License-Identifier: GPL-2.0
/* TAP output of the host unit tests */
#include <stdarg.h>
#include <stdio.h>

#include "tap.h"

static int ntests, nfailed;

void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	ntests++;
	printf("%s %d - ", cond ? "ok" : "not ok", ntests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		nfailed++;
	fflush(stdout);
}

void skip(const char *why)
{
	ntests++;
	printf("ok %d - # SKIP %s\n", ntests, why);
}

int tap_done(void)
{
	printf("1..%d\n", ntests);
	if (nfailed)
		printf("# %d of %d tests failed\n", nfailed, ntests);
	return nfailed ? 1 : 0;
}
