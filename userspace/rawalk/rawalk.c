// SPDX-License-Identifier: GPL-2.0
/*
 * rawalk: the workload runner of rapolicy.  See rawalk(1).
 */
#include <stdio.h>
#include <stdlib.h>

#include "rawalk.h"
#include "util.h"

/* --repeat N: N walks; print the median walk with min and median figures */
static int repeat(const struct rawalk_opts *o)
{
	struct report *rs = calloc(o->repeat, sizeof(*rs)), r;
	double w[1000];
	int ret = RAWALK_OK;
	unsigned int i, pick = 0;

	if (!rs) {
		fprintf(stderr, "rawalk: out of memory\n");
		return RAWALK_ERR;
	}
	for (i = 0; i < o->repeat && ret == RAWALK_OK; i++) {
		ret = rawalk_run(o, &rs[i]);
		w[i] = rs[i].wall_ms;
	}
	if (ret == RAWALK_OK) {
		report_summarise(&r, rs, o->repeat);
		for (i = 0; i < o->repeat; i++)
			if (w[i] == r.wall_ms_median)
				pick = i;
		rs[pick].repeat = r.repeat;
		rs[pick].wall_ms_min = r.wall_ms_min;
		rs[pick].wall_ms_median = r.wall_ms_median;
		rs[pick].cpu_ms_min = r.cpu_ms_min;
		rs[pick].cpu_ms_median = r.cpu_ms_median;
		rs[pick].major_faults_min = r.major_faults_min;
		rs[pick].major_faults_median = r.major_faults_median;
		rs[pick].read_bytes_min = r.read_bytes_min;
		rs[pick].read_bytes_median = r.read_bytes_median;
		report_print(stdout, &rs[pick], o->json);
	}
	free(rs);
	if (fflush(stdout) || ferror(stdout))
		return RAWALK_ERR;
	return ret;
}

int main(int argc, char **argv)
{
	struct rawalk_opts o;
	struct report r;
	char err[512];
	int ret;

	ret = rawalk_parse_args(argc, argv, &o, err, sizeof(err));
	if (ret) {
		fputs("rawalk: ", stderr);
		fputs_esc(err, stderr);
		fputc('\n', stderr);
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
	if (o.repeat > 1)
		return repeat(&o);
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
