// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl: policies, set plans, profiles, counters and hook detection
 * (see rapctl.h).  All file access goes through rapctl_sysfs.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "rapctl.h"
#include "rapctl_sysfs.h"
#include "util.h"

/* The policies of docs/ABI/sysfs-kernel-mm-rapolicy, in its order */
static const char *const documented[] = {
	"descending_thp",
	"pmd_hit",
	"descending_seq",
	"vma_limit",
	"sync_mmap_order",
	"descending_around",
};

#define NR_DOCUMENTED (sizeof(documented) / sizeof(documented[0]))

static size_t documented_index(const char *name)
{
	size_t i;

	for (i = 0; i < NR_DOCUMENTED; i++)
		if (!strcmp(documented[i], name))
			return i;
	return NR_DOCUMENTED;
}

/* ------------------------------------------------------------------ */
/* Policy files */

static void values_free(struct rapctl_policy *p)
{
	size_t i;

	for (i = 0; i < p->nr_values; i++)
		free(p->values[i]);
	free(p->values);
	p->values = NULL;
	p->nr_values = 0;
	p->cur = 0;
}

void rapctl_policy_free(struct rapctl_policy *p)
{
	values_free(p);
	free(p->name);
	p->name = NULL;
}

/* One blank-separated token; a bracketed one is the current value */
static int add_choice(struct rapctl_policy *p, const char *tok, size_t len,
		      bool *seen_cur)
{
	bool cur = len > 2 && tok[0] == '[' && tok[len - 1] == ']';
	char **nv;

	if (cur) {
		if (*seen_cur)
			return -EINVAL;
		*seen_cur = true;
		p->cur = p->nr_values;
		tok++;
		len -= 2;
	}
	if (memchr(tok, '[', len) || memchr(tok, ']', len))
		return -EINVAL;
	nv = realloc(p->values, (p->nr_values + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	p->values = nv;
	p->values[p->nr_values] = strndup(tok, len);
	if (!p->values[p->nr_values])
		return -ENOMEM;
	p->nr_values++;
	return 0;
}

int rapctl_parse_choices(const char *text, struct rapctl_policy *p)
{
	static const char blanks[] = " \t\n";
	bool seen_cur = false;
	int err = 0;

	p->values = NULL;
	p->nr_values = 0;
	p->cur = 0;
	text += strspn(text, blanks);
	while (!err && *text) {
		size_t len = strcspn(text, blanks);

		err = add_choice(p, text, len, &seen_cur);
		text += len;
		text += strspn(text, blanks);
	}
	if (!err && !seen_cur)
		err = -EINVAL;
	if (err)
		values_free(p);
	return err;
}

int rapctl_read_value(const char *rel, char **out)
{
	struct rapctl_policy p = { 0 };
	char *text;
	int err = rapctl_read(RAPCTL_ROOT_SYS, rel, &text);

	if (err)
		return err;
	if (!rapctl_parse_choices(text, &p)) {
		free(text);
		text = strdup(rapctl_policy_current(&p));
		rapctl_policy_free(&p);
	}
	*out = text;
	return text ? 0 : -ENOMEM;
}

static void set_bad(char *bad, size_t badlen, const char *dir, const char *name)
{
	if (bad && badlen)
		snprintf(bad, badlen, "%s%s%s", dir, *dir && *name ? "/" : "", name);
}

/*
 * The files of a policy directory that are not policies: the module's
 * version, and the A/B assignment files of ab/ (ab/mode has the bracket
 * format too)
 */
static const char *const not_policies[] = {
	"version", "mode", "cgroup", "sample_permille", "salt",
};

static bool is_policy_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(not_policies) / sizeof(not_policies[0]); i++)
		if (!strcmp(not_policies[i], name))
			return false;
	return true;
}

/* "dir/name", or name when dir is "" */
static void dir_rel(char *buf, size_t size, const char *dir, const char *name)
{
	snprintf(buf, size, "%s%s%s", dir, *dir ? "/" : "", name);
}

/* Read and parse one policy file of dir; 0, -errno, or 1 to skip it */
static int policy_load(const char *dir, const char *name,
		       struct rapctl_policy *p, char *bad, size_t badlen)
{
	bool doc = documented_index(name) < NR_DOCUMENTED;
	char rel[PATH_MAX], *text;
	int err;

	memset(p, 0, sizeof(*p));
	dir_rel(rel, sizeof(rel), dir, name);
	err = rapctl_read(RAPCTL_ROOT_SYS, rel, &text);
	if (!err) {
		err = rapctl_parse_choices(text, p);
		free(text);
	}
	if (err == -ENOMEM || (err && doc)) {
		set_bad(bad, badlen, dir, name);
		return err;
	}
	if (err)
		return 1;
	p->name = strdup(name);
	if (!p->name) {
		rapctl_policy_free(p);
		return -ENOMEM;
	}
	return 0;
}

static int cmp_policies(const void *a, const void *b)
{
	const struct rapctl_policy *pa = a, *pb = b;
	size_t ia = documented_index(pa->name), ib = documented_index(pb->name);

	if (ia != ib)
		return ia < ib ? -1 : 1;
	return strcmp(pa->name, pb->name);
}

int rapctl_policies_load(struct rapctl_policies *ps, const char *dir,
			 char *bad, size_t badlen)
{
	char **names;
	size_t n, i;
	int err;

	ps->v = NULL;
	ps->n = 0;
	err = rapctl_list_files(dir, &names, &n);
	if (err) {
		set_bad(bad, badlen, dir, "");
		return err;
	}
	ps->v = calloc(n ? n : 1, sizeof(*ps->v));
	if (!ps->v)
		err = -ENOMEM;
	for (i = 0; !err && i < n; i++) {
		if (!is_policy_name(names[i]))
			continue;
		err = policy_load(dir, names[i], &ps->v[ps->n], bad, badlen);
		if (!err)
			ps->n++;
		else if (err == 1)
			err = 0;
	}
	rapctl_free_names(names, n);
	if (err) {
		rapctl_policies_free(ps);
		return err;
	}
	qsort(ps->v, ps->n, sizeof(*ps->v), cmp_policies);
	return 0;
}

void rapctl_policies_free(struct rapctl_policies *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		rapctl_policy_free(&ps->v[i]);
	free(ps->v);
	ps->v = NULL;
	ps->n = 0;
}

const struct rapctl_policy *rapctl_policy_find(const struct rapctl_policies *ps,
					       const char *name)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (!strcmp(ps->v[i].name, name))
			return &ps->v[i];
	return NULL;
}

int rapctl_policy_value(const struct rapctl_policy *p, const char *value)
{
	size_t i;

	for (i = 0; i < p->nr_values; i++)
		if (!strcmp(p->values[i], value))
			return (int)i;
	return -1;
}

const char *rapctl_policy_current(const struct rapctl_policy *p)
{
	return p->values[p->cur];
}

/* Append s to buf (of size) after a space unless buf is empty */
static void append_word(char *buf, size_t size, const char *s)
{
	size_t len = strlen(buf);

	if (len + 1 < size)
		snprintf(buf + len, size - len, "%s%s", len ? " " : "", s);
}

void rapctl_policy_names(const struct rapctl_policies *ps, char *buf,
			 size_t size)
{
	size_t i;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < ps->n; i++)
		append_word(buf, size, ps->v[i].name);
}

void rapctl_policy_values(const struct rapctl_policy *p, char *buf, size_t size)
{
	size_t i;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < p->nr_values; i++)
		append_word(buf, size, p->values[i]);
}

/* ------------------------------------------------------------------ */
/* Set plans */

/* Check one pair; 0 and *c filled, or 1 with the problem printed */
static int plan_pair(const struct rapctl_policies *ps, const char *pair,
		     struct rapctl_change *c, FILE *err)
{
	const char *eq = strchr(pair, '=');
	const struct rapctl_policy *p = NULL;
	char name[256], list[1024];
	int v;

	if (!eq || eq == pair || !eq[1]) {
		fprintf(err, "rapolicyctl: '%s' is not POLICY=VALUE\n", pair);
		return 1;
	}
	if ((size_t)(eq - pair) >= sizeof(name)) {
		rapctl_policy_names(ps, list, sizeof(list));
		fprintf(err, "rapolicyctl: unknown policy '%.32s...' (%zu bytes): known policies: %s\n",
			pair, (size_t)(eq - pair), list);
		return 1;
	}
	memcpy(name, pair, (size_t)(eq - pair));
	name[eq - pair] = '\0';
	p = rapctl_policy_find(ps, name);
	if (!p) {
		rapctl_policy_names(ps, list, sizeof(list));
		fprintf(err, "rapolicyctl: unknown policy '%s': known policies: %s\n",
			name, list);
		return 1;
	}
	v = rapctl_policy_value(p, eq + 1);
	if (v < 0) {
		rapctl_policy_values(p, list, sizeof(list));
		fprintf(err, "rapolicyctl: %s: value '%s' is not allowed: allowed values: %s\n",
			p->name, eq + 1, list);
		return 1;
	}
	c->p = p;
	c->from = rapctl_policy_current(p);
	c->to = p->values[v];
	return 0;
}

static int cmp_changes(const void *a, const void *b)
{
	const struct rapctl_change *ca = a, *cb = b;

	return (ca->p > cb->p) - (ca->p < cb->p);
}

/* Whether pairs a and b name the same policy (both have a '=') */
static bool same_policy(const char *a, const char *b)
{
	size_t la = strcspn(a, "="), lb = strcspn(b, "=");

	return a[la] && b[lb] && la == lb && !strncmp(a, b, la);
}

size_t rapctl_plan(const struct rapctl_policies *ps, const char *const *pairs,
		   size_t n, struct rapctl_change **plan, FILE *err)
{
	size_t i, nplan = 0, problems = 0;
	struct rapctl_change c;

	*plan = calloc(n ? n : 1, sizeof(**plan));
	if (!*plan) {
		fprintf(err, "rapolicyctl: out of memory\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < i && !same_policy(pairs[i], pairs[j]); j++)
			;
		if (j < i) {
			fprintf(err, "rapolicyctl: %.*s is given more than once\n",
				(int)strcspn(pairs[i], "="), pairs[i]);
			problems++;
		} else if (plan_pair(ps, pairs[i], &c, err)) {
			problems++;
		} else {
			(*plan)[nplan++] = c;
		}
	}
	/* ps->v is in apply order, so the policies' addresses are too */
	qsort(*plan, nplan, sizeof(**plan), cmp_changes);
	return problems;
}

/* ------------------------------------------------------------------ */
/* Profiles */

static const char *const profile_stock[] = {
	"descending_thp=off",
	"pmd_hit=off",
	"descending_seq=off",
	"vma_limit=none",
	"sync_mmap_order=off",
	"descending_around=off",
	NULL,
};

static const char *const profile_seed[] = {
	"descending_thp=folio",
	"pmd_hit=on",
	"descending_seq=window",
	"vma_limit=near_end",
	"sync_mmap_order=fault_around",
	NULL,
};

/* Every stream for descending readers: the benchmark's winner (issue 7) */
static const char *const profile_best[] = {
	"descending_thp=stream",
	"descending_seq=stream",
	"descending_around=stream",
	NULL,
};

const struct rapctl_profile rapctl_profiles[] = {
	{
		.name = "stock",
		.desc = "every policy off: the stock kernel's readahead",
		.pairs = profile_stock,
		.nr_pairs = sizeof(profile_stock) / sizeof(profile_stock[0]) - 1,
	},
	{
		.name = "seed",
		.desc = "every policy of the seed proposals on",
		.pairs = profile_seed,
		.nr_pairs = sizeof(profile_seed) / sizeof(profile_seed[0]) - 1,
	},
	{
		.name = "best",
		.desc = "descending streams under every advice: a file read backwards costs what one read forwards does",
		.pairs = profile_best,
		.nr_pairs = sizeof(profile_best) / sizeof(profile_best[0]) - 1,
	},
};

const size_t rapctl_nr_profiles =
	sizeof(rapctl_profiles) / sizeof(rapctl_profiles[0]);

const struct rapctl_profile *rapctl_profile_find(const char *name)
{
	size_t i;

	for (i = 0; i < rapctl_nr_profiles; i++)
		if (!strcmp(rapctl_profiles[i].name, name))
			return &rapctl_profiles[i];
	return NULL;
}

/* Whether the current value of the policy in pair is the pair's value */
static bool pair_current(const struct rapctl_policies *ps, const char *pair)
{
	const char *eq = strchr(pair, '=');
	size_t i;

	for (i = 0; eq && i < ps->n; i++) {
		const struct rapctl_policy *p = &ps->v[i];

		if (strlen(p->name) == (size_t)(eq - pair) &&
		    !strncmp(p->name, pair, (size_t)(eq - pair)))
			return !strcmp(rapctl_policy_current(p), eq + 1);
	}
	/* a policy the module does not have behaves as stock */
	return eq && (!strcmp(eq + 1, "off") || !strcmp(eq + 1, "none"));
}

const struct rapctl_profile *
rapctl_profile_match(const struct rapctl_policies *ps)
{
	size_t i, j;

	for (i = 0; i < rapctl_nr_profiles; i++) {
		const struct rapctl_profile *pr = &rapctl_profiles[i];

		for (j = 0; j < pr->nr_pairs; j++)
			if (!pair_current(ps, pr->pairs[j]))
				break;
		if (j == pr->nr_pairs)
			return pr;
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Counters */

static int stat_read(const char *dir, struct rapctl_stat *s, char *bad,
		     size_t badlen)
{
	char rel[PATH_MAX], *text;
	int err;

	dir_rel(rel, sizeof(rel), dir, s->name);
	err = rapctl_read(RAPCTL_ROOT_SYS, rel, &text);
	if (!err) {
		err = parse_u64(text, &s->value) ? -EINVAL : 0;
		free(text);
	}
	if (err)
		set_bad(bad, badlen, dir, s->name);
	return err;
}

int rapctl_stats_load(struct rapctl_stats *st, const char *dir, char *bad,
		      size_t badlen)
{
	char **names;
	size_t n, i;
	int err;

	st->v = NULL;
	st->n = 0;
	st->dir = dir;
	err = rapctl_list_files(dir, &names, &n);
	if (err) {
		set_bad(bad, badlen, dir, "");
		return err;
	}
	st->v = calloc(n ? n : 1, sizeof(*st->v));
	if (!st->v)
		err = -ENOMEM;
	for (i = 0; !err && i < n; i++) {
		if (!strcmp(names[i], "reset"))
			continue;
		/* the array takes the name over */
		st->v[st->n].name = names[i];
		names[i] = NULL;
		err = stat_read(dir, &st->v[st->n++], bad, badlen);
	}
	rapctl_free_names(names, n);
	if (err)
		rapctl_stats_free(st);
	return err;
}

int rapctl_stats_reload(struct rapctl_stats *st, char *bad, size_t badlen)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < st->n; i++)
		err = stat_read(st->dir, &st->v[i], bad, badlen);
	return err;
}

uint64_t rapctl_stat_value(const struct rapctl_stats *st, const char *name)
{
	const struct rapctl_stat *s = rapctl_stat_find(st, name);

	return s ? s->value : 0;
}

const struct rapctl_stat *rapctl_stat_find(const struct rapctl_stats *st,
					   const char *name)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		if (!strcmp(st->v[i].name, name))
			return &st->v[i];
	return NULL;
}

void rapctl_stats_free(struct rapctl_stats *st)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		free(st->v[i].name);
	free(st->v);
	st->v = NULL;
	st->n = 0;
}

/* ------------------------------------------------------------------ */
/* Hook detection */

/* Whether the line [line, end) is "ADDR TYPE NAME" or "ADDR TYPE NAME\t[MOD]" */
static bool kallsyms_line_is(const char *line, const char *end, const char *sym)
{
	size_t len = strlen(sym);
	const char *name = line;
	int field;

	for (field = 0; field < 2; field++) {
		name = memchr(name, ' ', (size_t)(end - name));
		if (!name)
			return false;
		name++;
	}
	return (size_t)(end - name) >= len && !memcmp(name, sym, len) &&
	       (name + len == end || name[len] == '\t' || name[len] == ' ');
}

bool rapctl_kallsyms_has(const char *text, const char *sym)
{
	while (*text) {
		const char *end = strchrnul(text, '\n');

		if (kallsyms_line_is(text, end, sym))
			return true;
		text = *end ? end + 1 : end;
	}
	return false;
}

bool rapctl_config_has(const char *text, const char *opt)
{
	size_t len = strlen(opt);

	while (*text) {
		const char *end = strchrnul(text, '\n');

		if ((size_t)(end - text) == len + 2 && !strncmp(text, opt, len) &&
		    !strncmp(text + len, "=y", 2))
			return true;
		text = *end ? end + 1 : end;
	}
	return false;
}

static enum rapctl_hooks detect_config(char *how, size_t size,
				       const char *kallsyms, int kerr)
{
	char rel[sizeof(((struct utsname *)0)->release) + 16];
	char path[PATH_MAX];
	struct utsname u;
	char *text;
	bool has;
	int err;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	snprintf(rel, sizeof(rel), "config-%s", u.release);
	rapctl_path(path, sizeof(path), RAPCTL_ROOT_BOOT, rel);
	err = rapctl_read(RAPCTL_ROOT_BOOT, rel, &text);
	if (err) {
		snprintf(how, size, "cannot read %s: %s; no %s", kallsyms,
			 kerr ? strerror(-kerr) : "empty", path);
		return RAPCTL_HOOKS_UNKNOWN;
	}
	has = rapctl_config_has(text, RAPCTL_HOOK_CONFIG);
	free(text);
	snprintf(how, size, "%s%s=y in %s", has ? "" : "no ", RAPCTL_HOOK_CONFIG,
		 path);
	return has ? RAPCTL_HOOKS_PRESENT : RAPCTL_HOOKS_ABSENT;
}

enum rapctl_hooks rapctl_detect_hooks(char *how, size_t size)
{
	char path[PATH_MAX];
	char *text;
	bool has;
	int err;

	rapctl_path(path, sizeof(path), RAPCTL_ROOT_PROC, "kallsyms");
	err = rapctl_read(RAPCTL_ROOT_PROC, "kallsyms", &text);
	/* a kernel without CONFIG_KALLSYMS has no file; an empty one says nothing */
	if (!err && !*text) {
		free(text);
		return detect_config(how, size, path, 0);
	}
	if (err)
		return detect_config(how, size, path, err);
	has = rapctl_kallsyms_has(text, RAPCTL_HOOK_SYMBOL);
	free(text);
	snprintf(how, size, "%s%s in %s", has ? "" : "no ", RAPCTL_HOOK_SYMBOL,
		 path);
	return has ? RAPCTL_HOOKS_PRESENT : RAPCTL_HOOKS_ABSENT;
}
