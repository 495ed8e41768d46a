// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of rapolicyctl's JSON numbers, escaping and stream table
 * bound (TAP).  The command line is tested end to end by rapolicyctl.sh.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "rapolicyctl/rapctl.h"
#include "tests/tap.h"

/* u64 in JSON: never negative, and back exactly */
static void test_json_u64(void)
{
	const uint64_t vals[] = { 0, 1, INT64_MAX, (uint64_t)INT64_MAX + 1, UINT64_MAX };
	struct counters st;
	json_t *o;
	char *text;
	int good = 1;

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		json_t *j = json_u64(vals[i]);
		uint64_t back = 1;

		text = json_dumps(j, JSON_ENCODE_ANY);
		good &= text && !strchr(text, '-') && !json_get_u64(j, &back) && back == vals[i];
		free(text);
		json_decref(j);
	}
	ok(good, "json_u64: 0 .. 2^64-1 print unsigned and read back exactly");
	memset(&st, 0, sizeof(st));
	memset(st.bucket_arm, 'a', sizeof(st.bucket_arm));
	st.c[ARM_B][ST_sync_miss] = UINT64_MAX;
	st.settings_changed = (uint64_t)INT64_MAX + 2;
	o = json_counters(&st);
	text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	ok(text && !strchr(text, '-') && strstr(text, "\"18446744073709551615\"") &&
	   strstr(text, "\"9223372036854775809\""),
	   "json_counters: counters above 2^63 are not negative");
	free(text);
}

/* A counter that went down was reset: the delta is its new value */
static void test_delta(void)
{
	struct counters a, b, d;

	ok(counter_delta(10, 25) == 15 && counter_delta(25, 25) == 0,
	   "counter_delta: what a counter added");
	ok(counter_delta(900, 100) == 100, "counter_delta: after a reset, the new value");
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.c[ARM_A][ST_sync_miss] = 1000;
	b.c[ARM_A][ST_sync_miss] = 7;
	a.bucket[3][BK_PAGES] = 50;
	b.bucket[3][BK_PAGES] = 60;
	a.elapsed_ms = 5000;
	b.elapsed_ms = 200;
	counters_delta(&a, &b, &d);
	ok(d.c[ARM_A][ST_sync_miss] == 7 && d.bucket[3][BK_PAGES] == 10 && d.elapsed_ms == 200,
	   "counters_delta: a module reload between samples gives no wrap to 2^64");
}

static void test_esc(void)
{
	char longs[200];

	memset(longs, 'x', sizeof(longs) - 1);
	longs[sizeof(longs) - 1] = '\0';
	ok(!strcmp(esc("a\nb'"), "a\\x0ab\\x27"), "esc escapes controls and quotes: %s",
	   esc("a\nb'"));
	ok(strlen(esc(longs)) == 48 + 3, "esc caps at 48 characters");
}

/* streams_max_kb: its form is rapolicyctl's to check, its range the module's */
static void test_bound(void)
{
	static const char *const good[] = { "0", "72", "4096", "4294967295" };
	static const char *const bad[] = { "", "-1", "+5", "0100", "4096 ", "4294967296", "1e3" };
	struct write w[NR_POL + 1];
	struct arm_set from, to;
	struct rap_state s;
	int g = 1;

	memset(&s, 0, sizeof(s));
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		g &= pol_valid(&s, POL_streams_max_kb, good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		g &= !pol_valid(&s, POL_streams_max_kb, bad[i]);
	ok(g, "pol_valid: a bound is a decimal number of KiB up to UINT_MAX, no sign, no leading 0");
	ok(!pol_valid(&s, POL_streams_bytes, "73792"), "pol_valid: streams_bytes takes nothing");
	ok(pol_find("streams_max_kb") == POL_streams_max_kb &&
	   pol_find("streams_bytes") == POL_streams_bytes, "pol_find: both numbers by name");
	memset(&from, 0, sizeof(from));
	strcpy(from.v[POL_streams_max_kb], "4096");
	to = from;
	strcpy(to.v[POL_streams_max_kb], "8192");
	ok(plan_arm(w, ARM_B, &from, &to) == NR_POL + 1 &&
	   !strcmp(w[0].file, "ab/streams_max_kb") && !strcmp(w[0].to, "8192") &&
	   !strcmp(w[1].file, "ab/descending_thp"),
	   "plan_arm: the bound first, so that a bound the module refuses leaves nothing to undo");
	s.avail[POL_streams_max_kb].absent = true;
	ok(pol_available(&s, POL_streams_max_kb, "4096") &&
	   !pol_available(&s, POL_streams_max_kb, "8192"),
	   "pol_available: without streams_max_kb, only the bound at load");
}

int main(void)
{
	test_json_u64();
	test_delta();
	test_esc();
	test_bound();
	return tap_done();
}
