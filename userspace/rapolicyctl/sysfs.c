// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl: the module's files.  Every path goes through rap_path(),
 * under rap_root (the tests' one seam: a directory holding a fake /sys
 * and /proc).  A module of this tool's version must have exactly the
 * files and values of module/table.h; anything else is an error.  One of
 * another version (an upgrade before the reboot) may lack some and have
 * others: what it lacks is absent, what it adds is left alone and named.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rapctl.h"
#include "util.h"

#define RAP_POLICY(name, orders, help, ...) \
	static const char *const vals_##name[] = { __VA_ARGS__ };
#include "table.h"

#define RAP_POLICY(n, o, h, ...) [POL_##n] = { .name = #n, .help = h, \
	.values = vals_##n, .nr = sizeof(vals_##n) / sizeof(vals_##n[0]), \
	.order = o, .settable = true },
#define RAP_KNOB(n, s, a, u, h) [POL_##n] = { .name = #n, .help = h, \
	.settable = s, .at_load = a, .unit = u },
const struct pol_def pol_defs[NR_SHOWN] = {
#include "table.h"
};

#define RAP_STAT(name, help) #name,
const char *const st_names[NR_ST] = {
#include "table.h"
};
#define RAP_STAT(name, help) help,
const char *const st_help[NR_ST] = {
#include "table.h"
};

const char *const ab_modes[3] = { "off", "cgroup", "sample" };
const struct pol_def ab_mode_def = { "ab/mode", NULL, ab_modes, 3, false, true, NULL, NULL };

const char *rap_root = "";

/* A module of this tool's version: every counter file must be there */
static bool skew_strict = true;

int rap_path(char *buf, size_t size, const char *abs)
{
	int n = snprintf(buf, size, "%s%s", rap_root, abs);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int mod_path(char *buf, size_t size, const char *file)
{
	char abs[PATH_MAX];

	snprintf(abs, sizeof(abs), RAP_DIR "/%s", file);
	return rap_path(buf, size, abs);
}

bool rap_loaded(void)
{
	char p[PATH_MAX];
	struct stat st;

	return !rap_path(p, sizeof(p), RAP_DIR) && !stat(p, &st) &&
	       S_ISDIR(st.st_mode);
}

/* kallsyms hides addresses from non-root, not names */
int rap_hooks(void)
{
	char p[PATH_MAX], *text;
	int ret;

	if (rap_path(p, sizeof(p), "/proc/kallsyms") || !(text = read_file(p, NULL)))
		return -1;
	ret = strstr(text, " " RAP_HOOK_SYM "\n") != NULL;
	free(text);
	return ret;
}

/* The text of a module file, trailing blanks gone, one line of text */
static int read_mod(const char *file, char *buf, size_t size)
{
	char p[PATH_MAX];
	int n;

	if (mod_path(p, sizeof(p), file))
		return -ENAMETOOLONG;
	n = read_small_file(p, buf, size);
	if (n < 0)
		return n;
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\n'))
		buf[--n] = '\0';
	for (int i = 0; i < n; i++)
		if ((unsigned char)buf[i] < ' ')
			return -EPROTO;
	return 0;
}

static int read_u64(const char *file, uint64_t *v)
{
	char buf[32];
	int ret = read_mod(file, buf, sizeof(buf));

	return ret ? ret : parse_u64(buf, v) ? -EPROTO : 0;
}

/*
 * The index of @tok among the possible values of @d: its names, then, if
 * it takes orders, "0", "1", ... (order o at nr + o); -1 if none.
 */
int choice_index(const struct pol_def *d, const char *tok)
{
	uint64_t o;

	for (unsigned int i = 0; i < d->nr; i++)
		if (!strcmp(tok, d->values[i]))
			return (int)i;
	if (!d->order || parse_u64(tok, &o) || (tok[0] == '0' && tok[1]) ||
	    o >= 64 - d->nr)
		return -1;
	return (int)(d->nr + o);
}

/*
 * A choice file, "a [b] c": the tokens must be the names of @d and then,
 * if it takes orders, "0".."N", in that order, each at most once; a kernel
 * leaves out what it cannot honour, but never the first name (stock).
 * What it lists goes into *av, the bracketed one into cur.
 */
/* A newer module's value or file: named in s->extra */
static void add_extra(struct rap_state *s, const char *pol, const char *val)
{
	size_t o = strlen(s->extra);
	char w[96];

	snprintf(w, sizeof(w), " %s%s%s", pol, val ? "=" : "", val ? val : "");
	if (!strstr(s->extra, w))
		snprintf(s->extra + o, sizeof(s->extra) - o, "%s", w);
}

static int parse_choice(struct rap_state *s, char *text, const struct pol_def *d,
			struct pol_avail *av, char *cur)
{
	unsigned int chosen = 0;
	int next = 0, last = -1;

	memset(av, 0, sizeof(*av));
	for (char *tok = strtok(text, " "); tok; tok = strtok(NULL, " ")) {
		size_t len = strlen(tok);
		bool br = tok[0] == '[' && len > 2 && tok[len - 1] == ']';

		if (br) {
			tok[len - 1] = '\0';
			tok++;
		}
		if (choice_index(d, tok) < 0 && s->skew && len < VAL_LEN) {
			add_extra(s, d->name, tok);
			chosen += br;
			if (br)
				snprintf(cur, VAL_LEN, "%s", tok);
			continue;
		}
		last = choice_index(d, tok);
		if (last < next)
			return -EPROTO;
		av->listed |= 1ULL << last;
		next = last + 1;
		if (br) {
			chosen++;
			snprintf(cur, VAL_LEN, "%s", tok);
		}
	}
	if (chosen != 1 || !(av->listed & 1) || (d->order && last < (int)d->nr))
		return -EPROTO;
	if (d->order)
		av->max_order = (unsigned int)last - d->nr;
	return 0;
}

/*
 * One arm's policy files, then its numbers. A file that is not there is a
 * policy this module does not have: unavailable, at stock (an older
 * module's bound: as at load). Both arms must list the same values.
 */
static int load_arm(struct rap_state *s, int arm, char *bad, size_t badlen)
{
	for (int p = 0; p < NR_SHOWN; p++) {
		const struct pol_def *d = &pol_defs[p];
		struct pol_avail av = { 0 };
		char text[512];
		uint64_t v = 0;
		int ret;

		snprintf(bad, badlen, "%s%s", arm ? "ab/" : "", d->name);
		ret = read_mod(bad, text, sizeof(text));
		if (ret == -ENOENT) {
			av = (struct pol_avail){ .absent = true, .listed = 1 };
			snprintf(s->arm[arm].v[p], VAL_LEN, "%s", d->nr ? d->values[0] : d->at_load);
			ret = 0;
		} else if (!ret && p < NR_POL) {
			ret = parse_choice(s, text, d, &av, s->arm[arm].v[p]);
		} else if (!ret) {
			ret = parse_u64(text, &v) || strlen(text) >= VAL_LEN ? -EPROTO : 0;
			snprintf(s->arm[arm].v[p], VAL_LEN, "%llu", (unsigned long long)v);
		}
		if (ret)
			return ret;
		if (arm == ARM_A)
			s->avail[p] = av;
		else if (av.absent != s->avail[p].absent ||
			 av.listed != s->avail[p].listed ||
			 av.max_order != s->avail[p].max_order)
			return -EPROTO;
	}
	return 0;
}

static int load_ab(struct rap_state *s, char *bad, size_t badlen)
{
	struct ab_conf *ab = &s->ab;
	char text[600], mode[VAL_LEN];
	struct pol_avail av;
	bool skew = s->skew;
	uint64_t v;
	int ret;

	snprintf(bad, badlen, "ab/mode");
	ret = read_mod("ab/mode", text, sizeof(text));
	s->skew = false;	/* a mode the tool does not know is an error */
	if (!ret)
		ret = parse_choice(s, text, &ab_mode_def, &av, mode);
	s->skew = skew;
	if (!ret && av.listed != 7)
		ret = -EPROTO;
	if (ret)
		return ret;
	ab->mode = choice_index(&ab_mode_def, mode);
	snprintf(bad, badlen, "ab/cgroup");
	ret = read_mod("ab/cgroup", ab->cgroup, sizeof(ab->cgroup));
	if (ret)
		return ret;
	snprintf(bad, badlen, "ab/sample_permille");
	ret = read_u64("ab/sample_permille", &v);
	if (ret || v > 1000)
		return ret ? ret : -EPROTO;
	ab->permille = (unsigned int)v;
	snprintf(bad, badlen, "ab/salt");
	ret = read_u64("ab/salt", &ab->salt);
	if (ret)
		return ret;
	/* ab/key: absent in a module before keyed buckets */
	snprintf(bad, badlen, "ab/key");
	ret = read_u64("ab/key", &ab->key);
	ab->has_key = !ret;
	return ret == -ENOENT ? 0 : ret;
}

/* stats/buckets: "INDEX ARM SYNC_MISS PAGES_READ", one line per bucket */
static int load_buckets(struct counters *st)
{
	char p[PATH_MAX], *text, *save = NULL, *line;
	unsigned int i = 0;
	int ret = 0;

	if (mod_path(p, sizeof(p), "stats/buckets"))
		return -ENAMETOOLONG;
	text = read_file(p, NULL);
	if (!text)
		return -errno;
	for (line = strtok_r(text, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save), i++) {
		char idx[24], arm[4], miss[24], pages[24], extra;
		uint64_t v;

		if (i >= ABT_BUCKETS ||
		    sscanf(line, "%23s %3s %23s %23s %c", idx, arm, miss, pages, &extra) != 4 ||
		    parse_u64(idx, &v) || v != i || strlen(arm) != 1 || !strchr("ab-", arm[0]) ||
		    parse_u64(miss, &st->bucket[i][BK_MISS]) ||
		    parse_u64(pages, &st->bucket[i][BK_PAGES]))
			ret = -EPROTO;
		st->bucket_arm[i < ABT_BUCKETS ? i : 0] = arm[0];
	}
	free(text);
	return ret ? ret : i == ABT_BUCKETS ? 0 : -EPROTO;
}

uint64_t counter_delta(uint64_t prev, uint64_t cur)
{
	return cur >= prev ? cur - prev : cur;
}

void counters_delta(const struct counters *prev, const struct counters *cur,
		    struct counters *d)
{
	*d = *cur;
	for (int a = 0; a < NR_ARMS; a++)
		for (int i = 0; i < NR_ST; i++)
			d->c[a][i] = counter_delta(prev->c[a][i], cur->c[a][i]);
	for (int i = 0; i < ABT_BUCKETS; i++)
		for (int k = 0; k < NR_BK; k++)
			d->bucket[i][k] = counter_delta(prev->bucket[i][k], cur->bucket[i][k]);
	d->elapsed_ms = counter_delta(prev->elapsed_ms, cur->elapsed_ms);
	d->settings_changed = counter_delta(prev->settings_changed, cur->settings_changed);
}

int rap_load_counters(struct counters *st, char *bad, size_t badlen)
{
	int ret = 0;

	st->absent = 0;
	for (int arm = 0; arm < NR_ARMS; arm++) {
		for (int i = 0; i < NR_ST && !ret; i++) {
			snprintf(bad, badlen, "stats/%c/%s", 'a' + arm, st_names[i]);
			ret = read_u64(bad, &st->c[arm][i]);
			/* an older module's; a module without it has both arms' */
			if (ret == -ENOENT && (!arm || st->absent >> i & 1) && !skew_strict) {
				st->absent |= 1ULL << i;
				st->c[arm][i] = 0;
				ret = 0;
			} else if (!ret && arm && st->absent >> i & 1) {
				ret = -EPROTO;
			}
		}
	}
	if (ret)
		return ret;
	snprintf(bad, badlen, "stats/elapsed_ms");
	ret = read_u64(bad, &st->elapsed_ms);
	if (ret)
		return ret;
	snprintf(bad, badlen, "stats/settings_changed");
	ret = read_u64(bad, &st->settings_changed);
	if (ret)
		return ret;
	snprintf(bad, badlen, "stats/buckets");
	return load_buckets(st);
}

/* The files of DIR that the table does not name: a newer module's */
static void scan_extra(struct rap_state *s, const char *dir, const char *prefix)
{
	static const char *const known[] = { "version", "bpf_ops", "ab", "stats", "mode",
		"cgroup", "sample_permille", "salt", "reset", "elapsed_ms",
		"settings_changed", "buckets", "streams_flush", "ledger", "a", "b" };
	char p[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (mod_path(p, sizeof(p), dir) || !(d = opendir(p)))
		return;
	while ((e = readdir(d))) {
		bool found = e->d_name[0] == '.' || pol_find(e->d_name) >= 0;

		for (int i = 0; i < NR_ST && !found; i++)
			found = !strcmp(e->d_name, st_names[i]);
		for (size_t i = 0; i < sizeof(known) / sizeof(known[0]) && !found; i++)
			found = !strcmp(e->d_name, known[i]);
		snprintf(p, sizeof(p), "%s%s", prefix, e->d_name);
		if (!found)
			add_extra(s, p, NULL);
	}
	closedir(d);
}

int rap_load(struct rap_state *s, char *bad, size_t badlen)
{
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(bad, badlen, "version");
	ret = read_mod("version", s->version, sizeof(s->version));
	if (ret)
		return ret;
	/* a version is a label value in the metrics: no quotes, no escapes */
	if (!*s->version || strspn(s->version, "0123456789abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ.+~_-") != strlen(s->version))
		return -EPROTO;
	s->skew = strcmp(s->version, RAPOLICY_VERSION) != 0;
	skew_strict = !s->skew;
	ret = load_arm(s, ARM_A, bad, badlen);
	if (!ret)
		ret = load_arm(s, ARM_B, bad, badlen);
	if (!ret)
		ret = load_ab(s, bad, badlen);
	if (!ret && s->skew) {
		scan_extra(s, ".", "");
		scan_extra(s, "stats", "stats/");
	}
	return ret ? ret : rap_load_counters(&s->st, bad, badlen);
}

const char *rap_differs(const struct rap_state *s, char *buf, size_t size)
{
	char u[UNAV_MAX][UNAV_LEN];
	unsigned int n = rap_unavailable(s, u, UNAV_MAX);
	size_t o = 0;

	buf[0] = '\0';
	if (!s->skew)
		return buf;
	o += (size_t)snprintf(buf, size, "module %s, rapolicyctl %s", s->version,
			      RAPOLICY_VERSION);
	for (unsigned int i = 0; i < n && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s %s", i ? "" : ": the module lacks",
				      u[i]);
	for (int i = 0; i < NR_ST && o < size; i++)
		if (s->st.absent >> i & 1)
			o += (size_t)snprintf(buf + o, size - o, "%s stats/%s",
					      o && strstr(buf, "lacks") ? "" : ": the module lacks",
					      st_names[i]);
	if (*s->extra && o < size)
		snprintf(buf + o, size - o, "%s it has%s", strstr(buf, "lacks") ? ";" : ":",
			 s->extra);
	return buf;
}

int pol_find(const char *name)
{
	for (int p = 0; p < NR_SHOWN; p++)
		if (!strcmp(pol_defs[p].name, name))
			return p;
	return -1;
}

bool pol_valid(const struct rap_state *s, int p, const char *val)
{
	const struct pol_avail *av = &s->avail[p];
	int i = choice_index(&pol_defs[p], val);
	uint64_t n;

	/* a knob as the module prints it; its range is the module's to check */
	if (p >= NR_POL)
		return pol_defs[p].settable && !parse_u64(val, &n) && n <= UINT_MAX &&
		       (val[0] != '0' || !val[1]);

	/* without the file, the module's largest order is not known */
	return i >= 0 && (av->absent || i < (int)pol_defs[p].nr ||
			  (unsigned int)i - pol_defs[p].nr <= av->max_order);
}

bool pol_available(const struct rap_state *s, int p, const char *val)
{
	int i = choice_index(&pol_defs[p], val);

	if (p >= NR_POL)
		return !s->avail[p].absent || !strcmp(val, pol_defs[p].at_load);
	return i >= 0 && (s->avail[p].listed >> i & 1);
}

unsigned int rap_unavailable(const struct rap_state *s, char (*out)[UNAV_LEN],
			     unsigned int max)
{
	unsigned int n = 0;

	for (int p = 0; p < NR_SHOWN; p++) {
		const struct pol_def *d = &pol_defs[p];
		const struct pol_avail *av = &s->avail[p];
		unsigned int nv = d->nr + (d->order ? av->max_order + 1 : 0);

		if (av->absent && d->settable && n < max)
			snprintf(out[n++], UNAV_LEN, "%s", d->name);
		for (unsigned int i = 0; i < nv && !av->absent && n < max; i++) {
			if (av->listed >> i & 1)
				continue;
			if (i < d->nr)
				snprintf(out[n++], UNAV_LEN, "%s=%s", d->name, d->values[i]);
			else
				snprintf(out[n++], UNAV_LEN, "%s=%u", d->name, i - d->nr);
		}
	}
	return n;
}

int rap_write(const char *file, const char *s)
{
	char p[PATH_MAX], line[520];

	if (mod_path(p, sizeof(p), file))
		return -ENAMETOOLONG;
	snprintf(line, sizeof(line), "%s\n", s);
	return write_file_flags(p, line, O_TRUNC);
}

int rap_apply(const struct write *w, size_t n, size_t *failed, int *undo)
{
	size_t i;
	int ret = 0;

	*undo = 0;
	for (i = 0; i < n && !ret; i++)
		if (strcmp(w[i].from, w[i].to))
			ret = rap_write(w[i].file, w[i].to);
	if (!ret)
		return 0;
	*failed = --i;
	/* the failed one too: a write the module refused changed nothing */
	while (i-- > 0)
		if (strcmp(w[i].from, w[i].to))
			*undo = rap_write(w[i].file, w[i].from) ? -1 : *undo ?: 1;
	return ret;
}

/* ------------------------------------------------------------------ */
/* Profiles: absolute, every policy not named is at stock */

const struct profile profiles[] = {
	{ "stock", "every policy off: the stock kernel's readahead", "" },
	{ "seed", "the seed proposals' policies",
	  "descending_thp=folio pmd_hit=on descending_seq=window "
	  "vma_limit=near_end sync_mmap_order=fault_around" },
	{ "best", "the stream tracker, descending streams and random_miss, the rest stock",
	  "descending_thp=stream descending_seq=stream descending_around=stream "
	  "streams=on random_miss=fault" },
};
const size_t nr_profiles = sizeof(profiles) / sizeof(profiles[0]);

const struct profile *profile_find(const char *name)
{
	for (size_t i = 0; i < nr_profiles; i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

void profile_values(const struct profile *pr, struct arm_set *out)
{
	char buf[256], *save = NULL;

	for (int p = 0; p < NR_POL; p++)
		snprintf(out->v[p], VAL_LEN, "%s", pol_defs[p].values[0]);
	snprintf(buf, sizeof(buf), "%s", pr->pairs);
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');

		*eq = '\0';
		snprintf(out->v[pol_find(t)], VAL_LEN, "%s", eq + 1);
	}
}

unsigned int profile_diff(const struct profile *pr, const struct arm_set *a)
{
	unsigned int mask = 0;
	struct arm_set pv;

	profile_values(pr, &pv);
	for (int p = 0; p < NR_POL; p++)
		if (strcmp(a->v[p], pv.v[p]))
			mask |= 1u << p;
	return mask;
}
