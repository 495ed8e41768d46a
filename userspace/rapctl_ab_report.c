// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl ab report: the arithmetic (rates, B/A ratios, the verdict)
 * and the text, JSON and Prometheus formats, as pure functions of the two
 * arms' counters (see rapctl_ab.h, rapolicyctl(8)).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "rapctl.h"
#include "rapctl_ab.h"
#include "util.h"

static const char *const arm_names[2] = { "a", "b" };
static const char *const arm_titles[2] = { "A", "B" };

/* Names of the derived quantities, in every format */
#define MMAP_FAULTS	"mmap_faults"
#define MAJOR_RATE	"major_faults_per_1000_mmap_faults"
#define PAGES_RATE	"pages_requested_per_major_fault"

/* ------------------------------------------------------------------ */
/* Arithmetic */

static struct rapctl_rate quotient(double num, double den)
{
	struct rapctl_rate q = { .ok = den != 0, .v = 0 };

	if (q.ok)
		q.v = num / den;
	return q;
}

/* a + b, or UINT64_MAX: counters read from files can be anything */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

static void arm_compute(struct rapctl_ab_arm *arm, const struct rapctl_stats *st)
{
	arm->st = st;
	arm->sync_miss = rapctl_stat_value(st, "sync_miss");
	arm->mmap_hit = rapctl_stat_value(st, "mmap_hit");
	arm->pages_requested = rapctl_stat_value(st, "pages_requested");
	arm->mmap_faults = sat_add(arm->sync_miss, arm->mmap_hit);
	arm->major_rate = quotient(1000.0 * (double)arm->sync_miss,
				   (double)arm->mmap_faults);
	arm->pages_rate = quotient((double)arm->pages_requested,
				   (double)arm->sync_miss);
}

static struct rapctl_rate ratio(struct rapctl_rate b, struct rapctl_rate a)
{
	struct rapctl_rate q = { 0 };

	if (a.ok && b.ok)
		q = quotient(b.v, a.v);
	return q;
}

/* Append one reason to buf, after "; " unless it is the first */
static void add_reason(char *buf, size_t size, int *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add_reason(char *buf, size_t size, int *n, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 3 >= size)
		return;
	if ((*n)++)
		len += (size_t)snprintf(buf + len, size - len, "; ");
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/* Why the counts are too few, into r->verdict; false if they are enough */
static bool too_few(struct rapctl_ab_report *r)
{
	uint64_t misses = sat_add(r->arm[0].sync_miss, r->arm[1].sync_miss);
	int i, n = 0;

	strcpy(r->verdict, "not enough data: ");
	for (i = 0; i < 2; i++) {
		if (r->arm[i].mmap_faults < RAPCTL_AB_MIN_MMAP_FAULTS)
			add_reason(r->verdict, sizeof(r->verdict), &n,
				   "arm %s has %" PRIu64 " mmap faults, need %d",
				   arm_titles[i], r->arm[i].mmap_faults,
				   RAPCTL_AB_MIN_MMAP_FAULTS);
	}
	if (misses < RAPCTL_AB_MIN_SYNC_MISS)
		add_reason(r->verdict, sizeof(r->verdict), &n,
			   "the arms have %" PRIu64 " major faults (sync_miss) together, need %d",
			   misses, RAPCTL_AB_MIN_SYNC_MISS);
	return n > 0;
}

static const char *judgement(double ratio)
{
	if (ratio >= 1.0 - RAPCTL_AB_SAME_BAND && ratio <= 1.0 + RAPCTL_AB_SAME_BAND)
		return "no clear difference";
	return ratio < 1.0 ? "B better" : "A better";
}

static void decide(struct rapctl_ab_report *r)
{
	const struct rapctl_ab_arm *b = &r->arm[1];

	r->decided = !too_few(r);
	if (!r->decided)
		return;
	if (r->major_ratio.ok)
		snprintf(r->verdict, sizeof(r->verdict),
			 "arm B takes %.2f%% of arm A's major faults per 1000 mmap faults (%s)",
			 100.0 * r->major_ratio.v, judgement(r->major_ratio.v));
	else
		snprintf(r->verdict, sizeof(r->verdict),
			 "arm A takes no major faults, arm B %.2f per 1000 mmap faults (A better)",
			 b->major_rate.v);
}

void rapctl_ab_compute(struct rapctl_ab_report *r, const struct rapctl_stats *a,
		       const struct rapctl_stats *b)
{
	memset(r, 0, sizeof(*r));
	arm_compute(&r->arm[0], a);
	arm_compute(&r->arm[1], b);
	r->major_ratio = ratio(r->arm[1].major_rate, r->arm[0].major_rate);
	r->pages_ratio = ratio(r->arm[1].pages_rate, r->arm[0].pages_rate);
	decide(r);
}

void rapctl_ab_assign_text(const struct rapctl_ab_assign *as, char *buf,
			   size_t size)
{
	if (!strcmp(as->mode, "cgroup"))
		snprintf(buf, size, "cgroup %s", *as->cgroup ? as->cgroup : "(none)");
	else if (!strcmp(as->mode, "sample"))
		snprintf(buf, size, "sample %" PRIu64 " permille, salt %" PRIu64,
			 as->permille, as->salt);
	else
		snprintf(buf, size, "%s", as->mode);
}

/* ------------------------------------------------------------------ */
/* The counters of both arms, by name (each list is sorted by name) */

struct merge {
	const struct rapctl_stats *st[2];
	size_t i[2];
};

/* The next name of either arm; its counter in each arm or NULL */
static bool merge_next(struct merge *m, const struct rapctl_stat *s[2])
{
	const struct rapctl_stat *c[2] = { NULL, NULL };
	int k, cmp;

	for (k = 0; k < 2; k++)
		if (m->i[k] < m->st[k]->n)
			c[k] = &m->st[k]->v[m->i[k]];
	if (!c[0] && !c[1])
		return false;
	cmp = !c[0] ? 1 : !c[1] ? -1 : strcmp(c[0]->name, c[1]->name);
	s[0] = cmp <= 0 ? c[0] : NULL;
	s[1] = cmp >= 0 ? c[1] : NULL;
	for (k = 0; k < 2; k++)
		m->i[k] += s[k] != NULL;
	return true;
}

static void merge_start(struct merge *m, const struct rapctl_ab_report *r)
{
	m->st[0] = r->arm[0].st;
	m->st[1] = r->arm[1].st;
	m->i[0] = m->i[1] = 0;
}

/* ------------------------------------------------------------------ */
/* Text */

#define VALUE_WIDTH 12

static const char mmap_faults_label[] = "mmap faults (sync_miss + mmap_hit)";
static const char major_label[] = "major faults per 1000 mmap faults";
static const char pages_label[] = "pages requested per major fault";

static int label_width(const struct rapctl_ab_report *r)
{
	const struct rapctl_stat *s[2];
	struct merge m;
	int w = (int)strlen(mmap_faults_label), l;

	merge_start(&m, r);
	while (merge_next(&m, s)) {
		l = (int)strlen((s[0] ? s[0] : s[1])->name);
		w = l > w ? l : w;
	}
	return w;
}

static void put_count(FILE *f, const struct rapctl_stat *s)
{
	if (s)
		fprintf(f, " %*" PRIu64, VALUE_WIDTH, s->value);
	else
		fprintf(f, " %*s", VALUE_WIDTH, "-");
}

static void put_rate(FILE *f, struct rapctl_rate q, int decimals)
{
	if (q.ok)
		fprintf(f, " %*.*f", VALUE_WIDTH, decimals, q.v);
	else
		fprintf(f, " %*s", VALUE_WIDTH, "-");
}

static void text_counters(FILE *f, const struct rapctl_ab_report *r, int w)
{
	const struct rapctl_stat *s[2];
	struct merge m;

	fprintf(f, "%-*s %*s %*s\n", w, "counter", VALUE_WIDTH, "arm A",
		VALUE_WIDTH, "arm B");
	merge_start(&m, r);
	while (merge_next(&m, s)) {
		fprintf(f, "%-*s", w, (s[0] ? s[0] : s[1])->name);
		put_count(f, s[0]);
		put_count(f, s[1]);
		fputc('\n', f);
	}
}

static void text_rate(FILE *f, int w, const char *label,
		      const struct rapctl_ab_report *r, bool major)
{
	fprintf(f, "%-*s", w, label);
	put_rate(f, major ? r->arm[0].major_rate : r->arm[0].pages_rate, 2);
	put_rate(f, major ? r->arm[1].major_rate : r->arm[1].pages_rate, 2);
	put_rate(f, major ? r->major_ratio : r->pages_ratio, 4);
	fputc('\n', f);
}

static void text_rates(FILE *f, const struct rapctl_ab_report *r, int w)
{
	fprintf(f, "%-*s %*s %*s %*s\n", w, "rate", VALUE_WIDTH, "arm A",
		VALUE_WIDTH, "arm B", VALUE_WIDTH, "B/A");
	fprintf(f, "%-*s %*" PRIu64 " %*" PRIu64 "\n", w, mmap_faults_label,
		VALUE_WIDTH, r->arm[0].mmap_faults, VALUE_WIDTH,
		r->arm[1].mmap_faults);
	text_rate(f, w, major_label, r, true);
	text_rate(f, w, pages_label, r, false);
}

void rapctl_ab_print_text(FILE *f, const struct rapctl_ab_report *r,
			  const struct rapctl_ab_assign *as)
{
	int w = label_width(r);
	char buf[PATH_MAX + 64];

	if (as) {
		rapctl_ab_assign_text(as, buf, sizeof(buf));
		fprintf(f, "mode: %s\n\n", buf);
	}
	text_counters(f, r, w);
	fputc('\n', f);
	text_rates(f, r, w);
	fprintf(f, "\nverdict: %s\n", r->verdict);
}

/* ------------------------------------------------------------------ */
/* JSON */

static void json_rate(FILE *f, struct rapctl_rate q, int decimals)
{
	if (q.ok)
		fprintf(f, "%.*f", decimals, q.v);
	else
		fputs("null", f);
}

static void json_assign(FILE *f, const struct rapctl_ab_assign *as)
{
	fputs("\"assignment\":{\"mode\":", f);
	json_put_string(f, as->mode);
	if (!strcmp(as->mode, "cgroup")) {
		fputs(",\"cgroup\":", f);
		json_put_string(f, as->cgroup);
	} else if (!strcmp(as->mode, "sample")) {
		fprintf(f, ",\"sample_permille\":%" PRIu64 ",\"salt\":%" PRIu64,
			as->permille, as->salt);
	}
	fputs("},", f);
}

static void json_counters(FILE *f, const struct rapctl_stats *st)
{
	size_t i;

	fputc('{', f);
	for (i = 0; i < st->n; i++) {
		if (i)
			fputc(',', f);
		json_put_string(f, st->v[i].name);
		fprintf(f, ":%" PRIu64, st->v[i].value);
	}
	fputc('}', f);
}

static void json_arm_rates(FILE *f, const struct rapctl_ab_arm *arm)
{
	fprintf(f, "{\"" MMAP_FAULTS "\":%" PRIu64 ",\"" MAJOR_RATE "\":",
		arm->mmap_faults);
	json_rate(f, arm->major_rate, 2);
	fputs(",\"" PAGES_RATE "\":", f);
	json_rate(f, arm->pages_rate, 2);
	fputc('}', f);
}

void rapctl_ab_print_json(FILE *f, const struct rapctl_ab_report *r,
			  const struct rapctl_ab_assign *as)
{
	fputc('{', f);
	if (as)
		json_assign(f, as);
	fputs("\"arms\":{\"a\":", f);
	json_counters(f, r->arm[0].st);
	fputs(",\"b\":", f);
	json_counters(f, r->arm[1].st);
	fputs("},\"rates\":{\"a\":", f);
	json_arm_rates(f, &r->arm[0]);
	fputs(",\"b\":", f);
	json_arm_rates(f, &r->arm[1]);
	fputs("},\"ratios\":{\"" MAJOR_RATE "\":", f);
	json_rate(f, r->major_ratio, 4);
	fputs(",\"" PAGES_RATE "\":", f);
	json_rate(f, r->pages_ratio, 4);
	fprintf(f, "},\"verdict\":{\"decided\":%s,\"text\":",
		r->decided ? "true" : "false");
	json_put_string(f, r->verdict);
	fputs("}}\n", f);
}

/* ------------------------------------------------------------------ */
/* Prometheus */

static void prom_head(FILE *f, const char *name, const char *type,
		      const char *help)
{
	fprintf(f, "# HELP rapolicy_ab_%s %s\n# TYPE rapolicy_ab_%s %s\n", name,
		help, name, type);
}

static void prom_counter(FILE *f, const struct rapctl_stat *s[2])
{
	const char *name = (s[0] ? s[0] : s[1])->name;
	const char *help = rapctl_counter_help(name);
	int k;

	fputs("# HELP rapolicy_ab_", f);
	rapctl_prom_name(f, name);
	fputc(' ', f);
	if (help)
		fprintf(f, "%s Per A/B arm.", help);
	else
		fprintf(f, "rapolicy counter stats/a/%s and stats/b/%s.", name, name);
	fputs("\n# TYPE rapolicy_ab_", f);
	rapctl_prom_name(f, name);
	fputs(" counter\n", f);
	for (k = 0; k < 2; k++) {
		if (!s[k])
			continue;
		fputs("rapolicy_ab_", f);
		rapctl_prom_name(f, name);
		fprintf(f, "{arm=\"%s\"} %" PRIu64 "\n", arm_names[k], s[k]->value);
	}
}

static void prom_arm_rate(FILE *f, const char *name, struct rapctl_rate q, int k)
{
	if (q.ok)
		fprintf(f, "rapolicy_ab_%s{arm=\"%s\"} %.2f\n", name, arm_names[k], q.v);
}

static void prom_rates(FILE *f, const struct rapctl_ab_report *r)
{
	int k;

	prom_head(f, MMAP_FAULTS, "counter", "Mmap faults (sync_miss + mmap_hit) per A/B arm.");
	for (k = 0; k < 2; k++)
		fprintf(f, "rapolicy_ab_" MMAP_FAULTS "{arm=\"%s\"} %" PRIu64 "\n",
			arm_names[k], r->arm[k].mmap_faults);
	prom_head(f, MAJOR_RATE, "gauge",
		  "Major faults (sync_miss) per 1000 mmap faults per A/B arm; absent when the arm has no mmap faults.");
	for (k = 0; k < 2; k++)
		prom_arm_rate(f, MAJOR_RATE, r->arm[k].major_rate, k);
	prom_head(f, PAGES_RATE, "gauge",
		  "Pages requested per major fault per A/B arm; absent when the arm has no major faults.");
	for (k = 0; k < 2; k++)
		prom_arm_rate(f, PAGES_RATE, r->arm[k].pages_rate, k);
}

static void prom_ratio(FILE *f, const char *rate, struct rapctl_rate q)
{
	if (q.ok)
		fprintf(f, "rapolicy_ab_ratio{rate=\"%s\"} %.4f\n", rate, q.v);
}

static void prom_verdict(FILE *f, const struct rapctl_ab_report *r)
{
	prom_head(f, "ratio", "gauge",
		  "Arm B's rate divided by arm A's; absent when arm A's rate is 0 or missing.");
	prom_ratio(f, MAJOR_RATE, r->major_ratio);
	prom_ratio(f, PAGES_RATE, r->pages_ratio);
	prom_head(f, "verdict_decided", "gauge",
		  "1 when the counts are large enough for a verdict, else 0.");
	fprintf(f, "rapolicy_ab_verdict_decided %d\n", r->decided);
}

void rapctl_ab_print_prometheus(FILE *f, const struct rapctl_ab_report *r,
				const struct rapctl_ab_assign *as)
{
	const struct rapctl_stat *s[2];
	char buf[PATH_MAX + 64];
	struct merge m;

	if (as) {
		rapctl_ab_assign_text(as, buf, sizeof(buf));
		prom_head(f, "info", "gauge", "A/B assignment (ab/mode and what it uses).");
		fputs("rapolicy_ab_info{mode=", f);
		rapctl_prom_label(f, as->mode);
		fputs(",assignment=", f);
		rapctl_prom_label(f, buf);
		fputs("} 1\n", f);
	}
	merge_start(&m, r);
	while (merge_next(&m, s))
		prom_counter(f, s);
	prom_rates(f, r);
	prom_verdict(f, r);
}
