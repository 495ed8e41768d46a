// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl ab: A/B testing (see rapolicyctl(8)).  Arm A is the
 * top-level policy set, arm B the one under ab/; ab/mode (with ab/cgroup,
 * ab/sample_permille, ab/salt) chooses which faults use arm B, and
 * stats/a/, stats/b/ count each arm.  ab set is set on ab/; ab assign
 * writes the assignment; ab status and ab report read it all back.
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "rapctl.h"
#include "rapctl_ab.h"
#include "rapctl_cmd.h"
#include "rapctl_sysfs.h"
#include "util.h"

#define STR_(x) #x
#define STR(x) STR_(x)

const char rapctl_usage_ab[] =
"Usage: rapolicyctl ab set POLICY=VALUE...\n"
"       rapolicyctl ab assign cgroup PATH\n"
"       rapolicyctl ab assign sample PERMILLE [--salt N]\n"
"       rapolicyctl ab assign off\n"
"       rapolicyctl ab status\n"
"       rapolicyctl ab report [--json | --prometheus]\n"
"\n"
"A/B testing: arm A is the policy set of 'set', arm B a second one in\n"
"/sys/kernel/mm/rapolicy/ab/; the assignment says which faults use B.\n"
"\n"
"  set POLICY=VALUE...   set arm B's policies: checked, applied and reported\n"
"                        as 'set' does (all or none)\n"
"  assign cgroup PATH    tasks in cgroup v2 PATH and below use arm B; PATH\n"
"                        relative to the cgroup2 root as in /proc/PID/cgroup\n"
"                        (/batch), or under its mount (/sys/fs/cgroup/batch)\n"
"  assign sample PERMILLE [--salt N]\n"
"                        PERMILLE (0..1000) thousandths of the files use arm\n"
"                        B, each file always the same arm; --salt N (decimal\n"
"                        or 0x hex, 0..2^64-1) makes another split\n"
"  assign off            every fault uses arm A\n"
"  status                the assignment, both arms' policies, A -> B\n"
"  report [--json | --prometheus]\n"
"                        per arm the counters of stats/a and stats/b, major\n"
"                        faults per 1000 mmap faults (mmap faults: sync_miss\n"
"                        + mmap_hit), pages requested per major fault, B/A of\n"
"                        each, and a verdict once each arm has "
STR(RAPCTL_AB_MIN_MMAP_FAULTS) " mmap\n"
"                        faults and the arms " STR(RAPCTL_AB_MIN_SYNC_MISS)
" major faults together\n"
"\n"
"Bad input is exit 2 and writes nothing; a failed write puts back what was\n"
"already written (exit 1).\n";

#define AB_SUBCOMMANDS "set, assign, status, report"

int rapctl_no_ab(struct rapctl_ctx *c)
{
	char path[PATH_MAX];

	rapctl_path(path, sizeof(path), RAPCTL_ROOT_SYS, "ab");
	rapctl_errmsg(c, "this rapolicy module has no A/B arms (no %s): load a module with A/B testing",
		      path);
	return RAPCTL_ERR;
}

/* 0 when the module is loaded and has ab/, else RAPCTL_ERR with the reason */
static int require_ab(struct rapctl_ctx *c)
{
	int ret = rapctl_require_module(c);

	if (!ret && !rapctl_is_dir("ab"))
		ret = rapctl_no_ab(c);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Pure helpers: mountinfo, cgroup paths, the salt */

/* Field n (from 0) of a mountinfo line [line, end), in [*f, *fend) */
static bool mi_field(const char *line, const char *end, int n, const char **f,
		     const char **fend)
{
	const char *p = line;

	for (; n > 0 && p < end; n--) {
		p = memchr(p, ' ', (size_t)(end - p));
		if (!p)
			return false;
		p++;
	}
	if (n || p >= end)
		return false;
	*f = p;
	*fend = memchr(p, ' ', (size_t)(end - p));
	if (!*fend)
		*fend = end;
	return true;
}

/* [s, end) with mountinfo's \ooo escapes decoded, into buf */
static int mi_unescape(const char *s, const char *end, char *buf, size_t size)
{
	size_t len = 0;

	for (; s < end; s++) {
		if (len + 1 >= size)
			return -ENAMETOOLONG;
		if (*s == '\\' && end - s >= 4 && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			buf[len++] = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
					    (s[3] - '0'));
			s += 3;
		} else {
			buf[len++] = *s;
		}
	}
	buf[len] = '\0';
	return 0;
}

/* Whether the mountinfo line [line, end) is of file system type fstype */
static bool mi_is_type(const char *line, const char *end, const char *fstype)
{
	const char *sep = strstr(line, " - "), *t;
	size_t len = strlen(fstype);

	if (!sep || sep >= end)
		return false;
	t = sep + 3;
	return (size_t)(end - t) > len && !strncmp(t, fstype, len) && t[len] == ' ';
}

int rapctl_mountinfo_cgroup2(const char *text, char *mnt, size_t size)
{
	const char *f, *fend;

	while (*text) {
		const char *end = strchrnul(text, '\n');

		if (mi_is_type(text, end, "cgroup2") &&
		    mi_field(text, end, 4, &f, &fend))
			return mi_unescape(f, fend, mnt, size);
		text = *end ? end + 1 : end;
	}
	return -ENOENT;
}

/* arg without the mount point mnt if arg is under it, else arg */
static const char *strip_mount(const char *arg, const char *mnt)
{
	size_t len = strlen(mnt);

	while (len > 1 && mnt[len - 1] == '/')
		len--;
	if (len > 1 && !strncmp(arg, mnt, len) && (!arg[len] || arg[len] == '/'))
		return arg + len;
	return arg;
}

int rapctl_cgroup_path(const char *arg, const char *mnt, char *buf, size_t size)
{
	const char *p = strip_mount(arg, mnt);
	size_t len = 0, n;

	if (p == arg && *p != '/')
		return -EINVAL;
	while (*p) {
		p += strspn(p, "/");
		n = strcspn(p, "/");
		if (!n)
			break;
		if ((n == 1 && p[0] == '.') || (n == 2 && !strncmp(p, "..", 2)))
			return -EINVAL;
		if (len + 1 + n + 1 > size)
			return -ENAMETOOLONG;
		buf[len++] = '/';
		memcpy(buf + len, p, n);
		len += n;
		p += n;
	}
	if (!len) {
		if (size < 2)
			return -ENAMETOOLONG;
		buf[len++] = '/';
	}
	buf[len] = '\0';
	return 0;
}

static int hex_digit(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

int rapctl_parse_salt(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int d;

	if (strncmp(s, "0x", 2) && strncmp(s, "0X", 2))
		return parse_u64(s, out);
	s += 2;
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		d = hex_digit(*s);
		if (d < 0)
			return -EINVAL;
		if (v >> 60)
			return -ERANGE;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Reading the A/B state */

/* The current value of ab/mode, malloc'ed; 0, -errno or -EINVAL (no brackets) */
static int read_mode(const char *rel, char **out)
{
	struct rapctl_policy p = { 0 };
	char *text;
	int err = rapctl_read(RAPCTL_ROOT_SYS, rel, &text);

	if (err)
		return err;
	err = rapctl_parse_choices(text, &p);
	free(text);
	if (err)
		return err;
	*out = strdup(rapctl_policy_current(&p));
	rapctl_policy_free(&p);
	return *out ? 0 : -ENOMEM;
}

/* A decimal file of ab/; 0, -errno or -EINVAL */
static int read_u64(const char *rel, uint64_t *v)
{
	char *text;
	int err = rapctl_read(RAPCTL_ROOT_SYS, rel, &text);

	if (!err) {
		err = parse_u64(text, v) ? -EINVAL : 0;
		free(text);
	}
	return err;
}

static int read_into(const char *rel, char *buf, size_t size)
{
	char *text;
	int err = rapctl_read(RAPCTL_ROOT_SYS, rel, &text);

	if (!err) {
		snprintf(buf, size, "%s", text);
		free(text);
	}
	return err;
}

/* Read the mode and the files it uses; 0, or -errno with the file in *bad */
static int assign_read(struct rapctl_ab_assign *as, const char **bad)
{
	char *mode;
	int err;

	memset(as, 0, sizeof(*as));
	*bad = "ab/mode";
	err = read_mode(*bad, &mode);
	if (err)
		return err;
	snprintf(as->mode, sizeof(as->mode), "%s", mode);
	free(mode);
	if (!strcmp(as->mode, "cgroup")) {
		*bad = "ab/cgroup";
		return read_into(*bad, as->cgroup, sizeof(as->cgroup));
	}
	if (strcmp(as->mode, "sample"))
		return 0;
	*bad = "ab/sample_permille";
	err = read_u64(*bad, &as->permille);
	if (!err) {
		*bad = "ab/salt";
		err = read_u64(*bad, &as->salt);
	}
	return err;
}

/* An error reading file rel of ab/: says what is wrong; RAPCTL_ERR */
static int ab_file_error(struct rapctl_ctx *c, int err, const char *rel)
{
	char path[PATH_MAX];

	if (err != -EINVAL)
		return rapctl_io_error(c, err, "reading", rel);
	rapctl_path(path, sizeof(path), RAPCTL_ROOT_SYS, rel);
	rapctl_errmsg(c, "%s: %s", path, !strcmp(rel, "ab/mode") ?
		      "not a list of values with the current one in brackets" :
		      "not a decimal number");
	return RAPCTL_ERR;
}

/* The assignment, or RAPCTL_ERR with the error printed */
static int load_assign(struct rapctl_ctx *c, struct rapctl_ab_assign *as)
{
	const char *bad;
	int err = assign_read(as, &bad);

	return err ? ab_file_error(c, err, bad) : 0;
}

int rapctl_status_ab(struct rapctl_ctx *c)
{
	struct rapctl_ab_assign as;
	char text[PATH_MAX + 64];
	int ret;

	if (!rapctl_is_dir("ab"))
		return 0;
	ret = load_assign(c, &as);
	if (ret) {
		fprintf(c->out, "ab:      unreadable\n");
		return ret;
	}
	rapctl_ab_assign_text(&as, text, sizeof(text));
	fprintf(c->out, "ab:      %s\n", text);
	return 0;
}

/* ------------------------------------------------------------------ */
/* ab set */

static int ab_set(struct rapctl_ctx *c, int argc, char **argv)
{
	int n, ret;

	ret = rapctl_plain_args(c, "ab set", rapctl_usage_ab, argc, argv, &n);
	if (ret)
		return ret == HELP_SHOWN ? RAPCTL_OK : ret;
	return rapctl_set_pairs(c, "ab set", "ab", argv + 1, n);
}

/* ------------------------------------------------------------------ */
/* ab assign */

/* A usage error of ab assign */
static int usage(struct rapctl_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int usage(struct rapctl_ctx *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return rapctl_usage_error(c, "ab assign", "%s", msg);
}

struct assign_args {
	const char *kind;	/* "cgroup", "sample", "off" */
	const char *path;	/* cgroup */
	uint64_t permille;	/* sample */
	bool has_salt;		/* sample: --salt given */
	uint64_t salt;
};

/* The operands of 'ab assign sample': PERMILLE and --salt N, any order */
static int sample_args(struct rapctl_ctx *c, int argc, char **argv,
		       struct assign_args *a)
{
	const char *permille = NULL, *v;
	int i, r;

	for (i = 2; i < argc; i++) {
		r = rapctl_opt_value(argc, argv, &i, "--salt", &v);
		if (r < 0)
			return usage(c, "--salt needs a value");
		if (r > 0 && rapctl_parse_salt(v, &a->salt))
			return usage(c, "--salt '%s': a whole number from 0 to %" PRIu64
				     " (decimal, or hex after 0x)", v, UINT64_MAX);
		if (r > 0)
			a->has_salt = true;
		else if (argv[i][0] == '-' && argv[i][1])
			return usage(c, "unknown option '%s'", argv[i]);
		else if (permille)
			return usage(c, "unexpected argument '%s'", argv[i]);
		else
			permille = argv[i];
	}
	if (!permille)
		return usage(c, "sample: missing PERMILLE (0..1000)");
	if (parse_u64(permille, &a->permille) || a->permille > 1000)
		return usage(c, "sample: PERMILLE '%s' is not a whole number from 0 to 1000 (thousandths of the files in arm B)",
			     permille);
	return 0;
}

static int assign_args(struct rapctl_ctx *c, int argc, char **argv,
		       struct assign_args *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	for (i = 1; i < argc; i++) {
		if (rapctl_is_help(argv[i])) {
			fputs(rapctl_usage_ab, c->out);
			return HELP_SHOWN;
		}
	}
	if (argc < 2)
		return usage(c, "missing cgroup PATH, sample PERMILLE or off");
	a->kind = argv[1];
	if (!strcmp(a->kind, "sample"))
		return sample_args(c, argc, argv, a);
	if (!strcmp(a->kind, "off"))
		return argc == 2 ? 0 :
		       usage(c, "off: unexpected argument '%s'", argv[2]);
	if (strcmp(a->kind, "cgroup"))
		return usage(c, "unknown assignment '%s': cgroup PATH, sample PERMILLE or off",
			     a->kind);
	if (argc != 3)
		return usage(c, "%s", argc < 3 ? "cgroup: missing PATH" :
				      "cgroup: one PATH at a time");
	a->path = argv[2];
	return 0;
}

/*
 * The mount point of cgroup2 (a host path): the first one in the proc
 * root's self/mountinfo, or /sys/fs/cgroup if that cannot be read.
 * 0 or RAPCTL_ERR.
 */
static int cgroup2_mount(struct rapctl_ctx *c, char *mnt, size_t size)
{
	char path[PATH_MAX], *text;
	int err;

	if (rapctl_read(RAPCTL_ROOT_PROC, "self/mountinfo", &text)) {
		snprintf(mnt, size, "/sys/fs/cgroup");
		return 0;
	}
	err = rapctl_mountinfo_cgroup2(text, mnt, size);
	free(text);
	if (!err)
		return 0;
	rapctl_path(path, sizeof(path), RAPCTL_ROOT_PROC, "self/mountinfo");
	if (err == -ENOENT)
		rapctl_errmsg(c, "no cgroup2 file system is mounted (%s): mount one, e.g. mount -t cgroup2 none /sys/fs/cgroup",
			      path);
	else
		rapctl_errmsg(c, "%s: cgroup2 mount point too long", path);
	return RAPCTL_ERR;
}

/* The directory of cgroup cg under mount point mnt (host paths) */
static int cgroup_dir(char *buf, size_t size, const char *mnt, const char *cg,
		      const char *file)
{
	int n = snprintf(buf, size, "%s%s%s", strcmp(mnt, "/") ? mnt : "",
			 strcmp(cg, "/") ? cg : "", file);

	if (!n)
		n = snprintf(buf, size, "/");
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* Check that path arg names a cgroup v2 directory; its cgroup path into cg */
static int resolve_cgroup(struct rapctl_ctx *c, const char *arg, char *cg,
			  size_t size)
{
	char mnt[PATH_MAX], dir[PATH_MAX + 16], host[PATH_MAX + 16];
	int ret = cgroup2_mount(c, mnt, sizeof(mnt));

	if (ret)
		return ret;
	ret = rapctl_cgroup_path(arg, mnt, cg, size);
	if (ret == -ENAMETOOLONG) {
		rapctl_errmsg(c, "cgroup path too long (%zu bytes); nothing was changed",
			      strlen(arg));
		return RAPCTL_USAGE;
	}
	if (ret) {
		rapctl_errmsg(c, "'%s' is not a cgroup path: give it from the cgroup2 root, as in /proc/PID/cgroup (e.g. /batch), or under the cgroup2 mount %s, without . or ..; nothing was changed",
			      arg, mnt);
		return RAPCTL_USAGE;
	}
	if (cgroup_dir(dir, sizeof(dir), mnt, cg, "") ||
	    rapctl_host_path(host, sizeof(host), dir)) {
		rapctl_errmsg(c, "'%s': path too long; nothing was changed", arg);
		return RAPCTL_USAGE;
	}
	if (!rapctl_host_is_dir(dir)) {
		rapctl_errmsg(c, "no cgroup %s: %s is not a directory (create it with mkdir); nothing was changed",
			      cg, host);
		return RAPCTL_USAGE;
	}
	if (cgroup_dir(dir, sizeof(dir), mnt, cg, "/cgroup.procs") ||
	    !rapctl_host_is_file(dir)) {
		rapctl_errmsg(c, "%s is not a cgroup v2 directory (it has no cgroup.procs); nothing was changed",
			      host);
		return RAPCTL_USAGE;
	}
	return 0;
}

/* The assignment's writes, in order, with their old and new values */
struct assign_plan {
	struct rapctl_update u[3];
	size_t n;
	char *old[3];
	char cgroup[PATH_MAX];
	char permille[24];
	char salt[24];
};

static void plan_free(struct assign_plan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->old[i]);
}

/*
 * Add the write of to to ab/name, reading the old value, which must be
 * what the module shows (a rollback writes it back); 0 or -errno
 * (-EINVAL: not a bracket list or not a decimal number)
 */
static int plan_add(struct assign_plan *p, const char *name, const char *to)
{
	struct rapctl_update *u = &p->u[p->n];
	uint64_t v;
	int err;

	snprintf(u->rel, sizeof(u->rel), "ab/%s", name);
	if (!strcmp(name, "mode"))
		err = read_mode(u->rel, &p->old[p->n]);
	else
		err = rapctl_read(RAPCTL_ROOT_SYS, u->rel, &p->old[p->n]);
	if (!err && strcmp(name, "mode") && strcmp(name, "cgroup") &&
	    parse_u64(p->old[p->n], &v)) {
		free(p->old[p->n]);
		err = -EINVAL;
	}
	if (err)
		return err;
	u->name = name;
	u->from = p->old[p->n];
	u->to = to;
	p->n++;
	return 0;
}

/*
 * cgroup: ab/cgroup, then ab/mode; sample: ab/salt (with --salt), then
 * ab/sample_permille, then ab/mode; off: ab/mode.  The mode goes last, so
 * that it never applies to the assignment it replaces.  0, or -errno with
 * the unreadable file in p->u[p->n].rel.
 */
static int plan_assign(struct assign_plan *p, const struct assign_args *a)
{
	bool sample = !strcmp(a->kind, "sample");
	int err = 0;

	snprintf(p->permille, sizeof(p->permille), "%" PRIu64, a->permille);
	snprintf(p->salt, sizeof(p->salt), "%" PRIu64, a->salt);
	if (a->path)
		err = plan_add(p, "cgroup", p->cgroup);
	if (!err && sample && a->has_salt)
		err = plan_add(p, "salt", p->salt);
	if (!err && sample)
		err = plan_add(p, "sample_permille", p->permille);
	if (!err)
		err = plan_add(p, "mode", a->kind);
	return err;
}

static int ab_assign(struct rapctl_ctx *c, int argc, char **argv)
{
	struct assign_plan p = { .n = 0 };
	struct assign_args a;
	int ret, err;

	ret = assign_args(c, argc, argv, &a);
	if (ret)
		return ret == HELP_SHOWN ? RAPCTL_OK : ret;
	ret = require_ab(c);
	if (!ret && a.path)
		ret = resolve_cgroup(c, a.path, p.cgroup, sizeof(p.cgroup));
	if (ret)
		return ret;
	err = plan_assign(&p, &a);
	if (err)
		ret = ab_file_error(c, err, p.u[p.n].rel);
	else
		ret = rapctl_apply_updates(c, p.u, p.n,
			"some A/B settings stay changed: check with 'rapolicyctl ab status'");
	if (!ret)
		rapctl_report_updates(c, p.u, p.n);
	plan_free(&p);
	return ret;
}

/* ------------------------------------------------------------------ */
/* ab status */

/* Who uses arm B, in words */
static void print_arm_b(struct rapctl_ctx *c, const struct rapctl_ab_assign *as)
{
	if (!strcmp(as->mode, "cgroup") && *as->cgroup)
		fprintf(c->out, "arm B:   faults of tasks in cgroup %s and below\n",
			as->cgroup);
	else if (!strcmp(as->mode, "cgroup"))
		fprintf(c->out, "arm B:   unused: no cgroup assigned\n");
	else if (!strcmp(as->mode, "sample"))
		fprintf(c->out, "arm B:   faults on the %.1f%% of files whose hash falls under %" PRIu64 " permille (salt %" PRIu64 ")\n",
			(double)as->permille / 10.0, as->permille, as->salt);
	else if (!strcmp(as->mode, "off"))
		fprintf(c->out, "arm B:   unused: every fault uses arm A\n");
}

/* The value of policy name in ps, or "-" */
static const char *value_in(const struct rapctl_policies *ps, const char *name)
{
	const struct rapctl_policy *p = rapctl_policy_find(ps, name);

	return p ? rapctl_policy_current(p) : "-";
}

/* Calls fn for every policy name of a, then those only in b */
static void each_policy(const struct rapctl_policies *a,
			const struct rapctl_policies *b,
			void (*fn)(const char *name, void *arg), void *arg)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		fn(a->v[i].name, arg);
	for (i = 0; i < b->n; i++)
		if (!rapctl_policy_find(a, b->v[i].name))
			fn(b->v[i].name, arg);
}

struct arms_table {
	struct rapctl_ctx *c;
	const struct rapctl_policies *ps[2];
	int w[2];	/* widths of the name and arm A columns */
	int ndiff;
};

static void widen(const char *name, void *arg)
{
	struct arms_table *t = arg;
	int ln = (int)strlen(name), la = (int)strlen(value_in(t->ps[0], name));

	t->w[0] = ln > t->w[0] ? ln : t->w[0];
	t->w[1] = la > t->w[1] ? la : t->w[1];
}

static void table_row(const char *name, void *arg)
{
	struct arms_table *t = arg;

	fprintf(t->c->out, "%-*s  %-*s  %s\n", t->w[0], name, t->w[1],
		value_in(t->ps[0], name), value_in(t->ps[1], name));
}

static void diff_item(const char *name, void *arg)
{
	struct arms_table *t = arg;
	const char *va = value_in(t->ps[0], name), *vb = value_in(t->ps[1], name);

	if (!strcmp(va, vb))
		return;
	fprintf(t->c->out, "%s%s %s -> %s", t->ndiff++ ? ", " : " ", name, va, vb);
}

static void print_arms(struct rapctl_ctx *c, const struct rapctl_policies *a,
		       const struct rapctl_policies *b)
{
	struct arms_table t = {
		.c = c, .ps = { a, b },
		.w = { (int)strlen("policy"), (int)strlen("arm A") },
	};

	each_policy(a, b, widen, &t);
	fprintf(c->out, "%-*s  %-*s  %s\n", t.w[0], "policy", t.w[1], "arm A",
		"arm B");
	each_policy(a, b, table_row, &t);
	fputs("A -> B: ", c->out);
	each_policy(a, b, diff_item, &t);
	fputs(t.ndiff ? "\n" : " no difference: arm B has arm A's settings\n", c->out);
}

static int ab_status(struct rapctl_ctx *c, int argc, char **argv)
{
	struct rapctl_policies a, b;
	struct rapctl_ab_assign as;
	char text[PATH_MAX + 64];
	int n, ret;

	ret = rapctl_plain_args(c, "ab status", rapctl_usage_ab, argc, argv, &n);
	if (ret)
		return ret == HELP_SHOWN ? RAPCTL_OK : ret;
	if (n)
		return rapctl_usage_error(c, "ab status", "unexpected argument '%s'", argv[1]);
	ret = require_ab(c);
	if (!ret)
		ret = load_assign(c, &as);
	if (!ret)
		ret = rapctl_load_policies(c, "", &a);
	if (ret)
		return ret;
	ret = rapctl_load_policies(c, "ab", &b);
	if (!ret) {
		rapctl_ab_assign_text(&as, text, sizeof(text));
		fprintf(c->out, "mode:    %s\n", text);
		print_arm_b(c, &as);
		print_arms(c, &a, &b);
		rapctl_policies_free(&b);
	}
	rapctl_policies_free(&a);
	return ret;
}

/* ------------------------------------------------------------------ */
/* ab report */

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_PROMETHEUS };

static int report_args(struct rapctl_ctx *c, int argc, char **argv,
		       enum report_format *fmt)
{
	enum report_format f;
	int i;

	*fmt = REPORT_TEXT;
	for (i = 1; i < argc; i++) {
		if (rapctl_is_help(argv[i])) {
			fputs(rapctl_usage_ab, c->out);
			return HELP_SHOWN;
		}
		if (!strcmp(argv[i], "--json"))
			f = REPORT_JSON;
		else if (!strcmp(argv[i], "--prometheus"))
			f = REPORT_PROMETHEUS;
		else if (argv[i][0] == '-')
			return rapctl_usage_error(c, "ab report", "unknown option '%s'", argv[i]);
		else
			return rapctl_usage_error(c, "ab report", "unexpected argument '%s'", argv[i]);
		if (*fmt != REPORT_TEXT && *fmt != f)
			return rapctl_usage_error(c, "ab report", "--json conflicts with --prometheus");
		*fmt = f;
	}
	return 0;
}

static void print_report(struct rapctl_ctx *c, enum report_format fmt,
			 const struct rapctl_stats *a, const struct rapctl_stats *b,
			 const struct rapctl_ab_assign *as)
{
	struct rapctl_ab_report r;

	rapctl_ab_compute(&r, a, b);
	if (fmt == REPORT_JSON)
		rapctl_ab_print_json(c->out, &r, as);
	else if (fmt == REPORT_PROMETHEUS)
		rapctl_ab_print_prometheus(c->out, &r, as);
	else
		rapctl_ab_print_text(c->out, &r, as);
}

static int ab_report(struct rapctl_ctx *c, int argc, char **argv)
{
	struct rapctl_stats a, b;
	struct rapctl_ab_assign as;
	enum report_format fmt;
	int ret;

	ret = report_args(c, argc, argv, &fmt);
	if (ret)
		return ret == HELP_SHOWN ? RAPCTL_OK : ret;
	ret = require_ab(c);
	if (!ret)
		ret = load_assign(c, &as);
	if (!ret)
		ret = rapctl_load_stats(c, &a, "stats/a");
	if (ret)
		return ret;
	ret = rapctl_load_stats(c, &b, "stats/b");
	if (!ret) {
		print_report(c, fmt, &a, &b, &as);
		rapctl_stats_free(&b);
	}
	rapctl_stats_free(&a);
	return ret;
}

/* ------------------------------------------------------------------ */

static const struct {
	const char *name;
	int (*run)(struct rapctl_ctx *c, int argc, char **argv);
} ab_commands[] = {
	{ "set", ab_set },
	{ "assign", ab_assign },
	{ "status", ab_status },
	{ "report", ab_report },
};

int rapctl_cmd_ab(struct rapctl_ctx *c, int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		return rapctl_usage_error(c, "ab", "missing SUBCOMMAND (" AB_SUBCOMMANDS ")");
	if (rapctl_is_help(argv[1])) {
		fputs(rapctl_usage_ab, c->out);
		return RAPCTL_OK;
	}
	for (i = 0; i < sizeof(ab_commands) / sizeof(ab_commands[0]); i++)
		if (!strcmp(ab_commands[i].name, argv[1]))
			return ab_commands[i].run(c, argc - 1, argv + 1);
	return rapctl_usage_error(c, "ab", "unknown subcommand '%s': " AB_SUBCOMMANDS,
				  argv[1]);
}
