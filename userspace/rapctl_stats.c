// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl: the stats subcommand (see rapolicyctl(8)): the counters as
 * a text table, JSON or Prometheus text, once or as deltas per interval,
 * and stats reset.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rapctl.h"
#include "rapctl_cmd.h"
#include "rapctl_sysfs.h"
#include "util.h"

const char rapctl_usage_stats[] =
"Usage: rapolicyctl stats [--json | --prometheus] [--interval SEC [--count N]]\n"
"       rapolicyctl stats reset\n"
"\n"
"Print the counters of /sys/kernel/mm/rapolicy/stats/ (every regular file\n"
"but reset), sorted by name: \"NAME VALUE\" lines (names padded), or with\n"
"  --json          one JSON object {\"NAME\":VALUE,...} on one line\n"
"  --prometheus    node_exporter textfile-collector format: rapolicy_info,\n"
"                  rapolicy_policy (the current settings) and one counter\n"
"                  rapolicy_NAME per file\n"
"  --interval SEC  every SEC seconds (decimals allowed, e.g. 0.5) print the\n"
"                  increase of each counter since the previous sample: a\n"
"                  header of names, then one row per interval (or, with\n"
"                  --json, one object per line); a counter that went down\n"
"                  (reset) shows its new value\n"
"  --count N       stop after N intervals (default: run until killed)\n"
"'reset' writes 1 to stats/reset, which zeroes every counter (root only).\n";

enum stats_format { FMT_TEXT, FMT_JSON, FMT_PROMETHEUS };

struct stats_opts {
	enum stats_format format;
	double interval;	/* 0: one snapshot */
	uint64_t count;		/* 0: no limit */
	bool reset;
};

/* SEC: digits with an optional fraction, > 0, at most a day */
static int parse_interval(const char *s, double *out)
{
	static const char digits[] = "0123456789";
	size_t n = strspn(s, digits);
	const char *p = s + n;

	if (!n)
		return -EINVAL;
	if (*p == '.') {
		n = strspn(p + 1, digits);
		if (!n)
			return -EINVAL;
		p += 1 + n;
	}
	if (*p)
		return -EINVAL;
	*out = strtod(s, NULL);
	return *out > 0 && *out <= 86400 ? 0 : -ERANGE;
}

static int stats_format(struct rapctl_ctx *c, struct stats_opts *o,
			enum stats_format f, const char *opt)
{
	if (o->format != FMT_TEXT && o->format != f)
		return rapctl_usage_error(c, "stats", "%s conflicts with %s", opt,
					  f == FMT_JSON ? "--prometheus" : "--json");
	o->format = f;
	return 0;
}

/* One argument of stats at argv[*i]; 0, HELP_SHOWN or RAPCTL_USAGE */
static int stats_arg(struct rapctl_ctx *c, int argc, char **argv, int *i,
		     struct stats_opts *o)
{
	const char *a = argv[*i], *v;
	int r;

	if (rapctl_is_help(a)) {
		fputs(rapctl_usage_stats, c->out);
		return HELP_SHOWN;
	}
	if (!strcmp(a, "--json"))
		return stats_format(c, o, FMT_JSON, a);
	if (!strcmp(a, "--prometheus"))
		return stats_format(c, o, FMT_PROMETHEUS, a);
	if (!strcmp(a, "reset")) {
		o->reset = true;
		return 0;
	}
	r = rapctl_opt_value(argc, argv, i, "--interval", &v);
	if (r > 0 && parse_interval(v, &o->interval))
		return rapctl_usage_error(c, "stats", "--interval '%s': a number of seconds above 0 and at most 86400, like 1 or 0.5",
					  v);
	if (r == 0) {
		r = rapctl_opt_value(argc, argv, i, "--count", &v);
		if (r > 0 && (parse_u64(v, &o->count) || !o->count))
			return rapctl_usage_error(c, "stats", "--count '%s': a whole number above 0",
						  v);
	}
	if (r < 0)
		return rapctl_usage_error(c, "stats", "%s needs a value", a);
	if (r > 0)
		return 0;
	if (a[0] == '-')
		return rapctl_usage_error(c, "stats", "unknown option '%s'", a);
	return rapctl_usage_error(c, "stats", "unexpected argument '%s'", a);
}

static int parse_stats_args(struct rapctl_ctx *c, int argc, char **argv,
			    struct stats_opts *o)
{
	int i, ret;

	memset(o, 0, sizeof(*o));
	for (i = 1; i < argc; i++) {
		ret = stats_arg(c, argc, argv, &i, o);
		if (ret)
			return ret;
	}
	if (o->reset && argc != 2)
		return rapctl_usage_error(c, "stats", "'reset' takes no options");
	if (o->count && !o->interval)
		return rapctl_usage_error(c, "stats", "--count needs --interval");
	if (o->interval && o->format == FMT_PROMETHEUS)
		return rapctl_usage_error(c, "stats", "--prometheus takes no --interval (the collector wants one sample)");
	return 0;
}

static void print_stats_text(struct rapctl_ctx *c, const struct rapctl_stats *st)
{
	int w = 0;
	size_t i;

	for (i = 0; i < st->n; i++)
		w = (int)strlen(st->v[i].name) > w ? (int)strlen(st->v[i].name) : w;
	for (i = 0; i < st->n; i++)
		fprintf(c->out, "%-*s  %" PRIu64 "\n", w, st->v[i].name,
			st->v[i].value);
}

/* {"name":value,...} with vals[i] for st's names */
static void print_stats_json(struct rapctl_ctx *c, const struct rapctl_stats *st,
			     const uint64_t *vals)
{
	size_t i;

	fputc('{', c->out);
	for (i = 0; i < st->n; i++) {
		if (i)
			fputc(',', c->out);
		json_put_string(c->out, st->v[i].name);
		fprintf(c->out, ":%" PRIu64, vals ? vals[i] : st->v[i].value);
	}
	fputs("}\n", c->out);
}

/* ---- Prometheus text format ---- */

void rapctl_prom_name(FILE *f, const char *s)
{
	for (; *s; s++) {
		bool ok = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			  (*s >= '0' && *s <= '9') || *s == '_' || *s == ':';

		fputc(ok ? *s : '_', f);
	}
}

void rapctl_prom_label(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* HELP texts of the documented counters (the list itself is read from stats/) */
static const struct {
	const char *name;
	const char *help;
} counter_help[] = {
	{ "sync_miss", "Synchronous mmap misses: major faults of file mappings." },
	{ "sync_thp", "Synchronous mmap misses offered in the VM_HUGEPAGE branch." },
	{ "sync_seq", "Synchronous mmap misses offered in the VM_SEQ_READ branch." },
	{ "sync_exec", "Synchronous mmap misses offered in the VM_EXEC branch." },
	{ "sync_around", "Synchronous mmap misses offered in the read-around branch." },
	{ "async", "Hits on a folio marked for readahead in a mapping." },
	{ "mmap_hit", "Page cache mappings of the faulting address that lowered mmap_miss." },
	{ "descending_thp", "Windows the descending_thp policy redirected downwards." },
	{ "descending_seq", "Windows the descending_seq policy redirected downwards." },
	{ "vma_limit", "Reads the vma_limit policy bounded at the VMA end." },
	{ "vma_clamp", "Reads bounded by vma_limit whose known window crossed the bound." },
	{ "order_raise", "Read-arounds whose folio order sync_mmap_order raised." },
	{ "pmd_hit", "PMD mappings the pmd_hit policy counted as mmap hits." },
	{ "pages_requested", "Pages in the windows whose size was known when the hook ran." },
};

const char *rapctl_counter_help(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(counter_help) / sizeof(counter_help[0]); i++)
		if (!strcmp(counter_help[i].name, name))
			return counter_help[i].help;
	return NULL;
}

static void prom_help(FILE *f, const char *name)
{
	const char *help = rapctl_counter_help(name);

	if (help)
		fputs(help, f);
	else
		fprintf(f, "rapolicy counter stats/%s.", name);
}

static void prom_info(struct rapctl_ctx *c)
{
	char *version = rapctl_read_version();

	fputs("# HELP rapolicy_info Version of the loaded rapolicy module.\n"
	      "# TYPE rapolicy_info gauge\n"
	      "rapolicy_info{version=", c->out);
	rapctl_prom_label(c->out, version ? version : "unknown");
	fputs("} 1\n", c->out);
	free(version);
}

static void prom_policies(struct rapctl_ctx *c, const struct rapctl_policies *ps)
{
	size_t i;

	fputs("# HELP rapolicy_policy Current value of each rapolicy policy.\n"
	      "# TYPE rapolicy_policy gauge\n", c->out);
	for (i = 0; i < ps->n; i++) {
		fputs("rapolicy_policy{policy=", c->out);
		rapctl_prom_label(c->out, ps->v[i].name);
		fputs(",value=", c->out);
		rapctl_prom_label(c->out, rapctl_policy_current(&ps->v[i]));
		fputs("} 1\n", c->out);
	}
}

static void prom_counters(struct rapctl_ctx *c, const struct rapctl_stats *st)
{
	size_t i;

	for (i = 0; i < st->n; i++) {
		fputs("# HELP rapolicy_", c->out);
		rapctl_prom_name(c->out, st->v[i].name);
		fputc(' ', c->out);
		prom_help(c->out, st->v[i].name);
		fputs("\n# TYPE rapolicy_", c->out);
		rapctl_prom_name(c->out, st->v[i].name);
		fputs(" counter\nrapolicy_", c->out);
		rapctl_prom_name(c->out, st->v[i].name);
		fprintf(c->out, " %" PRIu64 "\n", st->v[i].value);
	}
}

static int print_stats_prometheus(struct rapctl_ctx *c, const struct rapctl_stats *st)
{
	struct rapctl_policies ps;
	int ret = rapctl_load_policies(c, "", &ps);

	if (ret)
		return ret;
	prom_info(c);
	prom_policies(c, &ps);
	prom_counters(c, st);
	rapctl_policies_free(&ps);
	return 0;
}

/* ---- --interval ---- */

static void timespec_add(struct timespec *t, double sec)
{
	long long ns = t->tv_nsec + (long long)((sec - (long long)sec) * 1e9);

	t->tv_sec += (time_t)sec + (time_t)(ns / 1000000000);
	t->tv_nsec = (long)(ns % 1000000000);
}

static void sleep_until(const struct timespec *t)
{
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL) == EINTR)
		;
}

/* Column width of counter i in the text rows */
static int column_width(const struct rapctl_stats *st, size_t i)
{
	int w = (int)strlen(st->v[i].name);

	return w < 6 ? 6 : w;
}

static void print_header(struct rapctl_ctx *c, const struct rapctl_stats *st)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		fprintf(c->out, "%s%*s", i ? " " : "", column_width(st, i),
			st->v[i].name);
	fputc('\n', c->out);
}

static void print_row(struct rapctl_ctx *c, const struct rapctl_stats *st,
		      const uint64_t *deltas)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		fprintf(c->out, "%s%*" PRIu64, i ? " " : "",
			column_width(st, i), deltas[i]);
	fputc('\n', c->out);
}

/* One interval: read the counters again, print their increase */
static int stats_delta(struct rapctl_ctx *c, struct rapctl_stats *st,
		       uint64_t *prev, uint64_t *deltas, bool json)
{
	size_t i;
	int ret = rapctl_load_stats(c, st, NULL);

	if (ret)
		return ret;
	for (i = 0; i < st->n; i++) {
		/* a counter that went down was reset: count from 0 */
		deltas[i] = st->v[i].value >= prev[i] ?
			    st->v[i].value - prev[i] : st->v[i].value;
		prev[i] = st->v[i].value;
	}
	if (json)
		print_stats_json(c, st, deltas);
	else
		print_row(c, st, deltas);
	fflush(c->out);
	return 0;
}

static int stats_interval(struct rapctl_ctx *c, struct rapctl_stats *st,
			  const struct stats_opts *o)
{
	uint64_t *prev = calloc(st->n + 1, sizeof(*prev));
	uint64_t *deltas = calloc(st->n + 1, sizeof(*deltas));
	struct timespec next;
	uint64_t k;
	size_t i;
	int ret = 0;

	if (!prev || !deltas) {
		rapctl_errmsg(c, "out of memory");
		ret = RAPCTL_ERR;
	}
	for (i = 0; !ret && i < st->n; i++)
		prev[i] = st->v[i].value;
	if (!ret && o->format == FMT_TEXT)
		print_header(c, st);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (k = 0; !ret && (!o->count || k < o->count); k++) {
		timespec_add(&next, o->interval);
		sleep_until(&next);
		ret = stats_delta(c, st, prev, deltas, o->format == FMT_JSON);
	}
	free(prev);
	free(deltas);
	return ret;
}

static int stats_reset(struct rapctl_ctx *c)
{
	int ret = rapctl_require_module(c);

	if (ret)
		return ret;
	ret = rapctl_write("stats/reset", "1");
	return ret ? rapctl_io_error(c, ret, "writing 1 to", "stats/reset") : 0;
}

int rapctl_cmd_stats(struct rapctl_ctx *c, int argc, char **argv)
{
	struct rapctl_stats st;
	struct stats_opts o;
	int ret;

	ret = parse_stats_args(c, argc, argv, &o);
	if (ret)
		return ret == HELP_SHOWN ? RAPCTL_OK : ret;
	if (o.reset)
		return stats_reset(c);
	ret = rapctl_require_module(c);
	if (!ret)
		ret = rapctl_load_stats(c, &st, "stats");
	if (ret)
		return ret;
	if (o.interval)
		ret = stats_interval(c, &st, &o);
	else if (o.format == FMT_PROMETHEUS)
		ret = print_stats_prometheus(c, &st);
	else if (o.format == FMT_JSON)
		print_stats_json(c, &st, NULL);
	else
		print_stats_text(c, &st);
	rapctl_stats_free(&st);
	return ret;
}
