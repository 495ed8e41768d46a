// SPDX-License-Identifier: GPL-2.0
/*
 * The stream tracker's cost per decision on this CPU: module/stream.c
 * driven by the fault-path model of module/tests/stream_cases.h over
 * strided, random and interleaved walks, timing rap_stream_decide() on a
 * copy of the set and the two copies, as rap_stream_run() takes them (its
 * lock and its clock read aside).
 * Prints "ns_per_decision: N" and the number of decisions; no pass/fail.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

static double rap_bench_ns;
static unsigned long rap_bench_calls;

static double rap_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

#include "../../module/stream.c"

/* time every decision the model asks for */
static bool rap_timed_decide(struct rap_stream_set *set,
			     const struct rap_stream_fault *f,
			     const struct rap_cache_view *view,
			     struct ra_policy_window *win, unsigned int *did)
{
	static struct rap_stream_set snap;
	double t0 = rap_now();
	bool r;

	snap = *set;
	r = rap_stream_decide(&snap, f, view, win, did);
	if (snap.clock != set->clock)
		*set = snap;

	rap_bench_ns += rap_now() - t0;
	rap_bench_calls++;
	return r;
}

#define rap_stream_decide rap_timed_decide
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
struct rap_test {
	int failures;
};
#define RAP_EXPECT(t, cond) ((t)->failures += !(cond))
#define RAP_EXPECT_EQ(t, a, b) RAP_EXPECT(t, (a) == (b))
#define RAP_EXPECT_LE(t, a, b) RAP_EXPECT(t, (a) <= (b))
#include "../../module/tests/stream_cases.h"

int main(void)
{
	struct rap_test t = { 0 };
	int i;

	for (i = 0; i < 3; i++) {
		rap_case_stream_strides(&t);
		rap_case_stream_random_is_stock(&t);
		rap_case_stream_btree_reverse(&t);
		rap_case_stream_two_readers(&t);
	}
	printf("decisions: %lu\nns_per_decision: %.0f\n", rap_bench_calls,
	       rap_bench_ns / rap_bench_calls);
	return 0;
}
