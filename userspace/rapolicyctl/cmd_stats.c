// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl stats: the counters as text, JSON or Prometheus text, once
 * or per interval; stats reset.
 */
#include <errno.h>
#include <jansson.h>
#include <string.h>
#include <time.h>

#include "rapctl.h"
#include "util.h"

static const char usage_stats[] =
"Usage: rapolicyctl stats [--json | --prometheus]\n"
"       rapolicyctl stats --interval SECONDS [--count N] [--counters LIST] [--json]\n"
"       rapolicyctl stats reset\n\n"
"The counters of arms A and B, the time since the last reset and how many\n"
"setting changes happened since.  --prometheus prints the Prometheus text\n"
"format (rapolicy_up 0 and exit 0 when the module is not loaded).\n"
"--interval prints, every SECONDS, a UTC timestamp and per-arm rows of what\n"
"each counter of LIST (default sync_miss,mmap_hit,pmd_hit,async,pages_read)\n"
"added in the interval.  'reset' sets every counter to 0.\n";

static const char default_cols[] = "sync_miss,mmap_hit,pmd_hit,async,pages_read";

static int parse_cols(struct ctx *c, const char *list, int *cols, int *n)
{
	char buf[512], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	*n = 0;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int i = 0;

		while (i < NR_ST && strcmp(st_names[i], t))
			i++;
		if (i == NR_ST)
			return usage(c, "stats", "unknown counter '%s'", esc(t));
		if (*n < NR_ST)
			cols[(*n)++] = i;
	}
	return *n ? 0 : usage(c, "stats", "--counters needs at least one counter");
}

static void stamp(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
}

static int interval(struct ctx *c, double secs, long count, const int *cols,
		    int ncols, bool json)
{
	struct counters prev, cur;
	struct timespec next;
	char bad[80], ts[32];
	int ret = rap_load_counters(&prev, bad, sizeof(bad));

	clock_gettime(CLOCK_MONOTONIC, &next);
	if (!json) {
		fprintf(c->out, "%-20s  %-3s", "time", "arm");
		for (int i = 0; i < ncols; i++)
			fprintf(c->out, "  %10.10s", st_names[cols[i]]);
		fputc('\n', c->out);
	}
	for (long k = 0; !ret && (count < 0 || k < count); k++) {
		next.tv_sec += (time_t)secs;
		next.tv_nsec += (long)((secs - (time_t)secs) * 1e9);
		if (next.tv_nsec >= 1000000000) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		ret = rap_load_counters(&cur, bad, sizeof(bad));
		if (ret)
			break;
		stamp(ts, sizeof(ts));
		if (json) {
			json_t *o = json_pack("{s:s, s:I}", "time", ts, "interval_ms",
					      (json_int_t)(cur.elapsed_ms - prev.elapsed_ms));

			for (int arm = 0; arm < NR_ARMS; arm++) {
				json_t *a = json_object();

				for (int i = 0; i < NR_ST; i++)
					json_object_set_new(a, st_names[i], json_integer(
						(json_int_t)(cur.c[arm][i] - prev.c[arm][i])));
				json_object_set_new(o, arm ? "b" : "a", a);
			}
			json_out(c->out, o, true);
		} else {
			for (int arm = 0; arm < NR_ARMS; arm++) {
				fprintf(c->out, "%-20s  %-3c", ts, 'A' + arm);
				for (int i = 0; i < ncols; i++)
					fprintf(c->out, "  %10llu", (unsigned long long)
						(cur.c[arm][cols[i]] - prev.c[arm][cols[i]]));
				fputc('\n', c->out);
			}
		}
		fflush(c->out);
		prev = cur;
	}
	if (ret) {
		char what[400];

		snprintf(what, sizeof(what), RAP_DIR "/%s", bad);
		return io_error(c, ret, what);
	}
	return RC_OK;
}

static int reset(struct ctx *c)
{
	int ret;

	if (!rap_loaded())
		return errmsg(c, "rapolicy module not loaded: run 'modprobe rapolicy'");
	ret = rap_write("stats/reset", "1");
	return ret ? io_error(c, ret, "writing " RAP_DIR "/stats/reset") : RC_OK;
}

static void text(struct ctx *c, const struct rap_state *s)
{
	fprintf(c->out, "%-18s  %12s  %12s\n", "counter", "arm A", "arm B");
	for (int i = 0; i < NR_ST; i++)
		fprintf(c->out, "%-18s  %12llu  %12llu\n", st_names[i],
			(unsigned long long)s->st.c[ARM_A][i],
			(unsigned long long)s->st.c[ARM_B][i]);
	fprintf(c->out, "elapsed: %.1f s since the last reset, %llu setting changes since\n",
		s->st.elapsed_ms / 1000.0, (unsigned long long)s->st.settings_changed);
}

int cmd_stats(struct ctx *c, int argc, char **argv)
{
	const char *v, *colv = default_cols;
	bool json = false, prom = false;
	double secs = 0;
	long count = -1;
	int cols[NR_ST], ncols, ret;
	struct rap_state s;

	if (argc == 2 && !strcmp(argv[1], "reset"))
		return reset(c);
	for (int i = 1; i < argc; i++) {
		uint64_t n;

		if (is_help(argv[i]))
			return fputs(usage_stats, c->out), RC_OK;
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--prometheus")) {
			prom = true;
		} else if ((ret = opt_val(argc, argv, &i, "--interval", &v))) {
			char *end;

			secs = ret > 0 ? strtod(v, &end) : 0;
			if (ret < 0 || *end || !(secs >= 0.01 && secs <= 86400))
				return usage(c, "stats", "--interval takes 0.01 to 86400 seconds");
		} else if ((ret = opt_val(argc, argv, &i, "--count", &v))) {
			if (ret < 0 || parse_u64(v, &n) || !n || n > 1000000000)
				return usage(c, "stats", "--count takes a number from 1");
			count = (long)n;
		} else if ((ret = opt_val(argc, argv, &i, "--counters", &v))) {
			if (ret < 0)
				return usage(c, "stats", "--counters needs a list");
			colv = v;
		} else {
			return usage(c, "stats", "unexpected argument '%s'", esc(argv[i]));
		}
	}
	if ((json && prom) || (prom && secs > 0))
		return usage(c, "stats", "choose one of --json, --prometheus, --interval");
	if (parse_cols(c, colv, cols, &ncols))
		return RC_USAGE;
	if (prom && !rap_loaded()) {
		print_prometheus(c->out, NULL, false);
		return RC_OK;
	}
	ret = need_state(c, &s);
	if (ret)
		return ret;
	if (secs > 0)
		return interval(c, secs, count, cols, ncols, json);
	if (prom)
		print_prometheus(c->out, &s, true);
	else if (json)
		json_out(c->out, json_counters(&s.st), false);
	else
		text(c, &s);
	return RC_OK;
}
