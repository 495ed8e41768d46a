// SPDX-License-Identifier: GPL-2.0
/*
 * rawalk: the workload runner of rapolicy.  See rawalk(1).
 */
#include <stdio.h>

#include "rawalk.h"
#include "util.h"

int main(int argc, char **argv)
{
	struct rawalk_opts o;
	struct report r;
	char err[512];
	int ret;

	ret = rawalk_parse_args(argc, argv, &o, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "rawalk: %s\n", err);
		return ret;
	}
	switch (o.action) {
	case ACT_HELP:
		rawalk_usage(stdout);
		return RAWALK_OK;
	case ACT_VERSION:
		printf("rawalk %s\n", RAPOLICY_VERSION);
		return RAWALK_OK;
	case ACT_CREATE:
		return rawalk_create(&o);
	case ACT_RUN:
		break;
	}
	ret = rawalk_run(&o, &r);
	/* a failure to undo read_ahead_kb or the memcg still has valid numbers */
	if (r.complete)
		report_print(stdout, &r, o.json);
	if (fflush(stdout) || ferror(stdout)) {
		perror("rawalk: stdout");
		return RAWALK_ERR;
	}
	return ret;
}
