// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of rapolicyctl's parsers, each called on a buffer: the
 * first byte picks one.  Policy files (the bracket list), set plans
 * (POLICY=VALUE pairs, one a line), profiles matched against fuzzed
 * policy files, salts, cgroup paths, mountinfo, kallsyms and kernel
 * config text, counters (decimal), the A/B report's arithmetic and its
 * three formats, and the JSON and Prometheus escapes.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "fuzz.h"
#include "rapctl.h"
#include "rapctl_ab.h"
#include "util.h"

/* A memory stream; its text in *buf after fclose() */
static FILE *mem(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (!f)
		abort();
	return f;
}

static void choices(const char *text)
{
	struct rapctl_policy p = { 0 }, q = { 0 };
	char line[8192];
	size_t i, len = 0;

	if (rapctl_parse_choices(text, &p))
		return;
	FZ_CHECK(p.nr_values > 0 && p.cur < p.nr_values, "cur %zu of %zu", p.cur,
		 p.nr_values);
	line[0] = '\0';
	for (i = 0; i < p.nr_values; i++) {
		FZ_CHECK(*p.values[i] && !strpbrk(p.values[i], " \t\n[]"),
			 "value '%s'", p.values[i]);
		if (len < sizeof(line))
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						i == p.cur ? " [%s]" : " %s", p.values[i]);
	}
	/* what the module would print for it parses to the same */
	if (len < sizeof(line)) {
		FZ_CHECK(!rapctl_parse_choices(line, &q) && q.nr_values == p.nr_values &&
			 q.cur == p.cur, "'%s' does not parse back", line);
		rapctl_policy_free(&q);
	}
	rapctl_policy_free(&p);
}

/* The module's policy set, its current values from the input */
static void load_set(struct fz *fz, struct rapctl_policies *ps)
{
	static const char *const files[][2] = {
		{ "descending_thp", "[off] folio stream" },
		{ "pmd_hit", "[off] on" },
		{ "descending_seq", "[off] window stream" },
		{ "vma_limit", "[none] always near_end" },
		{ "sync_mmap_order", "[off] fault_around 0 1 2 3 4 5 6 7 8 9" },
		{ "descending_around", "[off] window stream" },
	};
	size_t i, n = sizeof(files) / sizeof(files[0]);

	ps->v = calloc(n, sizeof(*ps->v));
	ps->n = n;
	if (!ps->v)
		abort();
	for (i = 0; i < n; i++) {
		if (rapctl_parse_choices(files[i][1], &ps->v[i]))
			abort();
		/* the current value from the input */
		ps->v[i].cur = fz_u8(fz) % ps->v[i].nr_values;
		ps->v[i].name = strdup(files[i][0]);
		if (!ps->v[i].name)
			abort();
	}
}

static void plan(struct fz *fz)
{
	struct rapctl_policies ps;
	struct rapctl_change *pl;
	char *pairs[32], *errtext;
	size_t n = 0, problems, i, len, lines = 0;
	FILE *err;

	load_set(fz, &ps);
	while (fz->n && n < 32)
		pairs[n++] = fz_chunk(fz, '\n');
	err = mem(&errtext, &len);
	problems = rapctl_plan(&ps, (const char *const *)pairs, n, &pl, err);
	fclose(err);
	for (i = 0; i < len; i++)
		lines += errtext[i] == '\n';
	FZ_CHECK(lines == problems, "%zu problems, %zu lines: %s", problems, lines,
		 errtext);
	for (i = 0; !problems && i < n; i++) {
		FZ_CHECK(rapctl_policy_value(pl[i].p, pl[i].to) >= 0, "value %s", pl[i].to);
		FZ_CHECK(!i || pl[i - 1].p < pl[i].p, "plan not in apply order");
		FZ_CHECK(!strcmp(pl[i].from, rapctl_policy_current(pl[i].p)), "from");
	}
	free(pl);
	free(errtext);
	for (i = 0; i < n; i++)
		free(pairs[i]);
	rapctl_policies_free(&ps);
}

static void salt(const char *s)
{
	uint64_t v;
	int err = rapctl_parse_salt(s, &v);

	if (err)
		return;
	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
		FZ_CHECK(v == strtoull(s + 2, NULL, 16) && strspn(s + 2, "0123456789abcdefABCDEF") == strlen(s + 2),
			 "salt %s -> %" PRIu64, s, v);
	else
		FZ_CHECK(v == strtoull(s, NULL, 10) && strspn(s, "0123456789") == strlen(s),
			 "salt %s -> %" PRIu64, s, v);
}

static void cgroup_path(struct fz *fz)
{
	size_t size = fz_u8(fz) % 64 + 1;
	char *mnt = fz_chunk(fz, 0), *arg = fz_chunk(fz, 0), *buf = malloc(size);

	if (!buf)
		abort();
	if (!rapctl_cgroup_path(arg, mnt, buf, size)) {
		size_t len = strlen(buf);

		FZ_CHECK(len < size && buf[0] == '/', "'%s'", buf);
		FZ_CHECK(!strstr(buf, "//") && (len == 1 || buf[len - 1] != '/'), "'%s'", buf);
		FZ_CHECK(!strstr(buf, "/./") && !strstr(buf, "/../") &&
			 strcmp(buf + (len >= 2 ? len - 2 : 0), "/.") &&
			 strcmp(buf + (len >= 3 ? len - 3 : 0), "/.."), "'%s'", buf);
	}
	free(buf);
	free(mnt);
	free(arg);
}

static void mountinfo(struct fz *fz)
{
	size_t size = fz_u8(fz) % 64 + 1;
	char *text = fz_chunk(fz, 0), *buf = malloc(size);

	if (!buf)
		abort();
	if (!rapctl_mountinfo_cgroup2(text, buf, size))
		FZ_CHECK(strlen(buf) < size, "mount point overflows");
	free(buf);
	free(text);
}

static void hooks_text(struct fz *fz)
{
	char *sym = fz_chunk(fz, 0), *text = fz_chunk(fz, 0);

	if (*sym && rapctl_kallsyms_has(text, sym))
		FZ_CHECK(strstr(text, sym), "kallsyms has '%s' without the text", sym);
	if (*sym && rapctl_config_has(text, sym))
		FZ_CHECK(strstr(text, sym), "config has '%s' without the text", sym);
	free(sym);
	free(text);
}

/* Counters of one arm: names from the documented ones, sorted, values fuzzed */
static void arm_stats(struct fz *fz, struct rapctl_stats *st, struct rapctl_stat *v)
{
	static const char *const names[] = {
		"async", "mmap_hit", "pages_requested", "pmd_hit", "sync_miss", "weird\"name\n",
	};
	uint8_t mask = fz_u8(fz);
	size_t i;

	st->n = 0;
	st->v = v;
	st->dir = "stats/a";
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(mask >> i & 1))
			continue;
		v[st->n].name = (char *)names[i];
		v[st->n].value = fz_u8(fz) & 1 ? fz_u64(fz, 8) : fz_u64(fz, 2);
		st->n++;
	}
}

static void rate_ok(struct rapctl_rate q, double max)
{
	/* 1000.0 * x / x may round above 1000 */
	FZ_CHECK(!q.ok || (isfinite(q.v) && q.v >= 0 && q.v <= max * (1 + 1e-12)),
		 "rate %.17g", q.v);
}

/* printf's "nan" or "inf" ("info" is a metric name) */
static bool has_nonfinite(const char *s)
{
	const char *p;

	if (strstr(s, "nan"))
		return true;
	for (p = strstr(s, "inf"); p; p = strstr(p + 1, "inf"))
		if (p[3] != 'o')
			return true;
	return false;
}

static void report(struct fz *fz)
{
	struct rapctl_stat va[8], vb[8];
	struct rapctl_stats a, b;
	struct rapctl_ab_report r;
	struct rapctl_ab_assign as = { .mode = "sample", .permille = 1000, .salt = 7 };
	char *text;
	size_t len;
	FILE *f;
	int k;

	arm_stats(fz, &a, va);
	arm_stats(fz, &b, vb);
	rapctl_ab_compute(&r, &a, &b);
	for (k = 0; k < 2; k++) {
		rate_ok(r.arm[k].major_rate, 1000);
		rate_ok(r.arm[k].pages_rate, 1e30);
		FZ_CHECK(r.arm[k].mmap_faults >= r.arm[k].sync_miss &&
			 r.arm[k].mmap_faults >= r.arm[k].mmap_hit,
			 "mmap faults %" PRIu64 " below sync_miss %" PRIu64 " or mmap_hit %" PRIu64,
			 r.arm[k].mmap_faults, r.arm[k].sync_miss, r.arm[k].mmap_hit);
	}
	if (r.decided)
		FZ_CHECK(r.arm[0].mmap_faults >= RAPCTL_AB_MIN_MMAP_FAULTS &&
			 r.arm[1].mmap_faults >= RAPCTL_AB_MIN_MMAP_FAULTS, "decided on too few");
	f = mem(&text, &len);
	rapctl_ab_print_text(f, &r, &as);
	rapctl_ab_print_json(f, &r, &as);
	rapctl_ab_print_prometheus(f, &r, &as);
	fclose(f);
	FZ_CHECK(!has_nonfinite(text), "%s", text);
	free(text);
}

/* JSON escapes every control byte; Prometheus needs \\, \" and \n escaped */
static void escapes(const char *s)
{
	char *text;
	size_t len, i;
	FILE *f = mem(&text, &len);

	json_put_string(f, s);
	fclose(f);
	for (i = 0; i < len; i++)
		FZ_CHECK((unsigned char)text[i] >= 0x20, "raw control byte %#x in JSON",
			 (unsigned char)text[i]);
	FZ_CHECK(len >= 2 && text[0] == '"' && text[len - 1] == '"', "JSON string %s", text);
	free(text);
	f = mem(&text, &len);
	rapctl_prom_label(f, s);
	fclose(f);
	FZ_CHECK(!memchr(text, '\n', len), "raw newline in a label");
	for (i = 1; i + 1 < len; i++) {
		if (text[i] == '\\')
			FZ_CHECK(strchr("\\\"n", text[++i]), "bad escape in %s", text);
		else
			FZ_CHECK(text[i] != '"', "raw quote in %s", text);
	}
	free(text);
	f = mem(&text, &len);
	rapctl_prom_name(f, s);
	fclose(f);
	FZ_CHECK(strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:") == len,
		 "metric name '%s'", text);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz fz = { data, size };
	uint8_t which = fz_u8(&fz);
	uint64_t v;
	char *s;

	switch (which % 9) {
	case 0:
		s = fz_chunk(&fz, 0);
		choices(s);
		free(s);
		break;
	case 1:
		plan(&fz);
		break;
	case 2:
		s = fz_chunk(&fz, 0);
		salt(s);
		if (!parse_u64(s, &v))
			FZ_CHECK(v == strtoull(s, NULL, 10), "parse_u64 %s", s);
		free(s);
		break;
	case 3:
		cgroup_path(&fz);
		break;
	case 4:
		mountinfo(&fz);
		break;
	case 5:
		hooks_text(&fz);
		break;
	case 6:
		report(&fz);
		break;
	case 7:
		s = fz_chunk(&fz, 0);
		escapes(s);
		free(s);
		break;
	default:
		s = fz_chunk(&fz, 0);
		FZ_CHECK(!rapctl_profile_find(s) || !strcmp(rapctl_profile_find(s)->name, s),
			 "profile %s", s);
		free(s);
		break;
	}
	return 0;
}
