// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl stats: the counters as text, JSON or Prometheus text, once
 * or per interval; stats reset.
 */
#include <errno.h>
#include <limits.h>
#include <jansson.h>
#include <string.h>
#include <time.h>

#include "rapctl.h"
#include "util.h"

static const char usage_stats[] =
"Usage: rapolicyctl stats [--json | --prometheus [--samples FILE]]\n"
"       rapolicyctl stats --interval SECONDS [--count N] [--counters LIST]\n"
"                         [--json]\n"
"       rapolicyctl stats reset\n\n"
"The counters of arms A and B, the time since the last reset and how many\n"
"setting changes happened since.  --prometheus prints the Prometheus text\n"
"format (rapolicy_up 0 and exit 0 when the module is not loaded); with\n"
"--samples, the stream of 'ab start', also this host's estimate for the\n"
"fleet's verdict while its experiment is settled.\n"
"The ledger's lines (stats/*/ledger) follow, per deciding policy, for\n"
"those with pages.\n"
"--interval prints, every SECONDS, a UTC timestamp and one row per arm of\n"
"what the counters of LIST (comma-separated; default sync_miss,mmap_hit,\n"
"pmd_hit,async,pages_read) added (--json: one object a line, every counter\n"
"unless --counters names them).  'reset' sets them all to 0.\n";

#define DEFAULT_COLS "sync_miss,mmap_hit,pmd_hit,async,pages_read"

/* The columns of --interval: the counters of a LIST, each once */
struct cols {
	int nr, st[NR_ST];
	bool only;	/* --counters given: JSON rows hold these only */
};

static int parse_cols(struct ctx *c, const char *list, struct cols *cols)
{
	char buf[1024], *save = NULL;
	unsigned long long seen = 0;

	cols->nr = 0;
	if (strlen(list) >= sizeof(buf))
		return usage(c, "stats", "--counters: the list is too long");
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int i = 0;

		while (i < NR_ST && strcmp(st_names[i], t))
			i++;
		if (i == NR_ST)
			return usage(c, "stats", "--counters: unknown counter '%s'", esc(t));
		if (seen & (1ULL << i))
			return usage(c, "stats", "--counters: %s given twice", st_names[i]);
		seen |= 1ULL << i;
		cols->st[cols->nr++] = i;
	}
	return cols->nr ? RC_OK : usage(c, "stats", "--counters needs a counter");
}

static int col_width(int st)
{
	int len = (int)strlen(st_names[st]);

	return len > 10 ? len : 10;
}

static void interval_row(struct ctx *c, const struct counters *d, bool json,
			 const struct cols *cols)
{
	char ts[32];
	time_t t = time(NULL);
	struct tm tm;

	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	if (json) {
		json_t *o = json_counters(d);

		for (int arm = 0; arm < NR_ARMS && cols->only; arm++) {
			json_t *a = json_object_get(o, arm ? "b" : "a");

			for (int i = 0; i < NR_ST; i++) {
				int k = 0;

				while (k < cols->nr && cols->st[k] != i)
					k++;
				if (k == cols->nr)
					json_object_del(a, st_names[i]);
			}
		}
		json_object_set_new(o, "time", json_string(ts));
		json_out(c->out, o, true);
		return;
	}
	for (int arm = 0; arm < NR_ARMS; arm++) {
		fprintf(c->out, "%-20s %-3c", ts, 'A' + arm);
		for (int i = 0; i < cols->nr; i++)
			fprintf(c->out, " %*llu", col_width(cols->st[i]),
				(unsigned long long)d->c[arm][cols->st[i]]);
		fputc('\n', c->out);
	}
}

static int interval(struct ctx *c, double secs, long count, bool json,
		    const struct cols *cols)
{
	struct counters prev, cur, d;
	struct timespec next;
	char bad[80];
	int ret = rap_load_counters(&prev, bad, sizeof(bad));
	long step = (long)(secs * 1e9);

	clock_gettime(CLOCK_MONOTONIC, &next);
	if (!json) {
		fprintf(c->out, "%-20s %-3s", "time", "arm");
		for (int i = 0; i < cols->nr; i++)
			fprintf(c->out, " %*s", col_width(cols->st[i]), st_names[cols->st[i]]);
		fputc('\n', c->out);
	}
	for (long k = 0; !ret && (count < 0 || k < count); k++) {
		next.tv_sec += (next.tv_nsec + step) / 1000000000;
		next.tv_nsec = (next.tv_nsec + step) % 1000000000;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		ret = rap_load_counters(&cur, bad, sizeof(bad));
		if (!ret) {
			counters_delta(&prev, &cur, &d);
			interval_row(c, &d, json, cols);
		}
		fflush(c->out);
		prev = cur;
	}
	return ret ? file_error(c, ret, bad) : RC_OK;
}

/*
 * The ledger per decider (stats/a/ledger, stats/b/ledger: "NAME read used
 * wasted lost" a line), the lines with any page; nothing from a module
 * without it
 */
static void print_ledger(struct ctx *c)
{
	char buf[2][4096], p[PATH_MAX], *save[2], *l[2];
	bool head = false;

	for (int arm = 0; arm < NR_ARMS; arm++)
		if (rap_path(p, sizeof(p), arm ? RAP_DIR "/stats/b/ledger" : RAP_DIR "/stats/a/ledger") ||
		    read_small_file(p, buf[arm], sizeof(buf[arm])) < 0)
			return;
	l[0] = strtok_r(buf[0], "\n", &save[0]);
	l[1] = strtok_r(buf[1], "\n", &save[1]);
	for (; l[0] && l[1]; l[0] = strtok_r(NULL, "\n", &save[0]),
	     l[1] = strtok_r(NULL, "\n", &save[1])) {
		char name[2][64];
		unsigned long long n[2][4];

		for (int arm = 0; arm < NR_ARMS; arm++)
			if (sscanf(l[arm], "%63s %llu %llu %llu %llu", name[arm], &n[arm][0],
				   &n[arm][1], &n[arm][2], &n[arm][3]) != 5)
				return;
		if (!(n[0][0] | n[0][1] | n[0][2] | n[0][3] | n[1][0] | n[1][1] | n[1][2] | n[1][3]))
			continue;
		if (!head)
			fprintf(c->out, "%-18s  %-3s  %12s  %12s  %12s  %12s\n", "ledger", "arm",
				"read", "used", "wasted", "lost");
		head = true;
		for (int arm = 0; arm < NR_ARMS; arm++)
			fprintf(c->out, "%-18s  %-3c  %12llu  %12llu  %12llu  %12llu\n", name[arm],
				'A' + arm, n[arm][0], n[arm][1], n[arm][2], n[arm][3]);
	}
}

static int reset(struct ctx *c)
{
	struct rap_state s;
	int ret = need_state(c, &s);

	if (!ret && (ret = rap_write("stats/reset", "1")))
		return io_error(c, ret, "writing " RAP_DIR "/stats/reset");
	return ret;
}

int cmd_stats(struct ctx *c, int argc, char **argv)
{
	bool json = false, prom = false;
	struct cols cols = { 0 };
	const char *list = NULL, *samples = NULL;
	double secs = 0;
	long count = -1;
	struct rap_state s;
	const char *v;
	uint64_t n;
	int ret;

	if (argc == 3 && !strcmp(argv[1], "reset") && is_help(argv[2]))
		return fputs(usage_stats, c->out), RC_OK;
	if (argc == 2 && !strcmp(argv[1], "reset"))
		return reset(c);
	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i]))
			return fputs(usage_stats, c->out), RC_OK;
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "--prometheus")) {
			*(argv[i][2] == 'j' ? &json : &prom) = true;
		} else if ((ret = opt_val(argc, argv, &i, "--interval", &v))) {
			char *end;

			secs = ret > 0 ? strtod(v, &end) : 0;
			if (ret < 0 || *end || !(secs >= 0.01 && secs <= 86400))
				return usage(c, "stats", "--interval takes 0.01 to 86400 seconds");
		} else if ((ret = opt_val(argc, argv, &i, "--samples", &samples))) {
			if (ret < 0)
				return usage(c, "stats", "--samples needs a FILE");
		} else if ((ret = opt_val(argc, argv, &i, "--counters", &list))) {
			if (ret < 0)
				return usage(c, "stats", "--counters needs a LIST");
		} else if ((ret = opt_val(argc, argv, &i, "--count", &v))) {
			if (ret < 0 || parse_u64(v, &n) || !n || n > 1000000000)
				return usage(c, "stats", "--count takes a number from 1");
			count = (long)n;
		} else {
			return usage(c, "stats", "unexpected argument '%s'", esc(argv[i]));
		}
	}
	if ((json && prom) || (prom && secs > 0))
		return usage(c, "stats", "choose one of --json, --prometheus, --interval");
	if (samples && !prom)
		return usage(c, "stats", "--samples needs --prometheus");
	if (list && secs <= 0)
		return usage(c, "stats", "--counters needs --interval");
	cols.only = list;
	ret = parse_cols(c, list ? list : DEFAULT_COLS, &cols);
	if (ret)
		return ret;
	if (prom && !rap_loaded())
		return print_prometheus(c->out, NULL, false), RC_OK;
	ret = need_state(c, &s);
	if (ret)
		return ret;
	if (secs > 0)
		return interval(c, secs, count, json, &cols);
	if (prom)
		print_prometheus(c->out, &s, true);
	if (prom && samples)
		ab_fleet_prometheus(c, c->out, samples, &s);
	else if (json)
		json_out(c->out, json_counters(&s.st), false);
	if (prom || json)
		return RC_OK;
	fprintf(c->out, "%-18s  %12s  %12s\n", "counter", "arm A", "arm B");
	for (int i = 0; i < NR_ST; i++)
		if (!(s.st.absent >> i & 1))
			fprintf(c->out, "%-18s  %12llu  %12llu\n", st_names[i],
				(unsigned long long)s.st.c[ARM_A][i],
				(unsigned long long)s.st.c[ARM_B][i]);
	print_ledger(c);
	fprintf(c->out, "elapsed: %.1f s since the last reset, %llu setting changes since\n",
		s.st.elapsed_ms / 1000.0, (unsigned long long)s.st.settings_changed);
	return RC_OK;
}
