// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl: messages, option parsing, and turning POLICY=VALUE pairs
 * into checked writes.  Every problem is one line on stderr that starts
 * "rapolicyctl: "; arguments are echoed through esc().
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "rapctl.h"

/* The message on stderr; the first of a --json command kept for its JSON */
static void vmsg(struct ctx *c, const char *cmd, const char *fmt, va_list ap)
{
	char line[sizeof(c->msg)];
	size_t o = (size_t)snprintf(line, sizeof(line), "%s%s", cmd ? cmd : "",
				    cmd ? ": " : "");

	vsnprintf(line + o, sizeof(line) - o, fmt, ap);
	fprintf(c->err, "rapolicyctl: %s", line);
	if (!c->msg[0] && strncmp(line, "warning: ", 9))
		memcpy(c->msg, line, sizeof(line));
}

int errmsg(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(c, NULL, fmt, ap);
	va_end(ap);
	fputc('\n', c->err);
	return RC_ERR;
}

int usage(struct ctx *c, const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(c, cmd, fmt, ap);
	va_end(ap);
	fprintf(c->err, " (try 'rapolicyctl %s%s--help')\n", cmd ? cmd : "",
		cmd ? " " : "");
	return RC_USAGE;
}

int io_error(struct ctx *c, int err, const char *what)
{
	if (err == -EACCES || err == -EPERM)
		return errmsg(c, "%s: permission denied: run as root", what);
	if (err == -EPROTO)
		return errmsg(c, "%s: not what rapolicyctl %s expects: rapolicy.ko and rapolicyctl must come from the same release",
			      what, RAPOLICY_VERSION);
	return errmsg(c, "%s: %s", what, strerror(-err));
}

int file_error(struct ctx *c, int err, const char *file)
{
	char what[400];

	snprintf(what, sizeof(what), RAP_DIR "/%s", file);
	return io_error(c, err, what);
}

/* What differs from a module of another version, for writes to name */
static char differs[1024];

int need_state(struct ctx *c, struct rap_state *s)
{
	char bad[80];
	int ret;

	if (!rap_loaded()) {
		if (rap_hooks() == 0)
			return errmsg(c, "the kernel has no readahead policy hooks (CONFIG_READAHEAD_POLICY): boot a kernel with the rapolicy patches");
		return errmsg(c, "rapolicy module not loaded: run 'modprobe rapolicy'");
	}
	ret = rap_load(s, bad, sizeof(bad));
	if (ret == -EPROTO && s->skew)
		return errmsg(c, "%s: module %s, rapolicyctl %s: not a file this version can read: install both from the same release",
			      bad, esc(s->version), RAPOLICY_VERSION);
	rap_differs(s, differs, sizeof(differs));
	return ret ? file_error(c, ret, bad) : 0;
}

bool is_help(const char *a)
{
	return !strcmp(a, "-h") || !strcmp(a, "--help");
}

int opt_val(int argc, char **argv, int *i, const char *name, const char **v)
{
	size_t len = strlen(name);

	if (strncmp(argv[*i], name, len))
		return 0;
	if (argv[*i][len] == '=') {
		*v = argv[*i] + len + 1;
		return 1;
	}
	if (argv[*i][len])
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*v = argv[++*i];
	return 1;
}

static void allowed(const struct rap_state *s, int p, char *buf, size_t size)
{
	const struct pol_def *d = &pol_defs[p];
	size_t o = (size_t)snprintf(buf, size, p < NR_POL ? "one of " : d->settable ?
				    "a number of %s" : "settable (read-only)", d->unit);

	for (unsigned int i = 0; i < d->nr; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : "", d->values[i]);
	if (d->order && s->avail[p].absent)
		snprintf(buf + o, size - o, ", 0..N");
	else if (d->order)
		snprintf(buf + o, size - o, ", 0..%u", s->avail[p].max_order);
}

int parse_pairs(struct ctx *c, const char *cmd, const struct rap_state *s,
		char **pairs, int n, struct arm_set *out)
{
	unsigned int seen = 0;
	int bad = 0;

	if (!n)
		return usage(c, cmd, "no POLICY=VALUE given");
	for (int i = 0; i < n; i++) {
		char name[64], al[160];
		const char *eq = strchr(pairs[i], '=');
		int p;

		if (!eq || eq == pairs[i] || (size_t)(eq - pairs[i]) >= sizeof(name)) {
			bad = usage(c, cmd, "'%s' is not POLICY=VALUE", esc(pairs[i]));
			continue;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(eq - pairs[i]), pairs[i]);
		p = pol_find(name);
		if (p < 0) {
			bad = usage(c, cmd, "unknown policy '%s'", esc(name));
		} else if (seen & (1u << p)) {
			bad = usage(c, cmd, "%s given twice", name);
		} else if (!pol_valid(s, p, eq + 1)) {
			allowed(s, p, al, sizeof(al));
			bad = usage(c, cmd, "%s: '%s' is not %s", name, esc(eq + 1), al);
		} else {
			seen |= 1u << p;
			snprintf(out->v[p], VAL_LEN, "%s", eq + 1);
		}
	}
	return bad;
}

int arm_available(struct ctx *c, const struct rap_state *s, int arm,
		  const struct arm_set *to)
{
	int ret = RC_OK;

	/* a value the arm has is not written: a newer module's is left alone */
	for (int p = 0; p < NR_SHOWN; p++)
		if (strcmp(to->v[p], s->arm[arm].v[p]) && !pol_available(s, p, to->v[p]))
			ret = errmsg(c, "%s: value '%s' is not available on this kernel",
				     pol_defs[p].name, esc(to->v[p]));
	return ret;
}

/*
 * The knobs first, then the policies: a knob the module refuses (out of its
 * range) is the likelier failure, and before any write nothing is to undo
 */
size_t plan_arm(struct write *w, int arm, const struct arm_set *from,
		const struct arm_set *to)
{
	size_t n = 0;

	for (int i = 0; i < NR_SHOWN; i++) {
		int p = (i + NR_POL) % NR_SHOWN;

		if (!pol_defs[p].settable)
			continue;
		snprintf(w[n].file, sizeof(w[n].file), "%s%s", arm ? "ab/" : "",
			 pol_defs[p].name);
		snprintf(w[n].from, sizeof(w[n].from), "%s", from->v[p]);
		snprintf(w[n].to, sizeof(w[n].to), "%s", to->v[p]);
		n++;
	}
	return n;
}

int apply_report(struct ctx *c, const struct write *w, size_t n)
{
	size_t failed = 0;
	int undo, ret;

	for (size_t i = 0; i < n && *differs; i++) {
		if (strcmp(w[i].from, w[i].to)) {
			errmsg(c, "warning: %s; writing what both have", differs);
			break;
		}
	}
	ret = rap_apply(w, n, &failed, &undo);

	if (ret) {
		char what[400];

		snprintf(what, sizeof(what), "writing '%s' to " RAP_DIR "/%s",
			 esc(w[failed].to), w[failed].file);
		io_error(c, ret, what);
		if (!undo)	/* nothing was written before it */
			return RC_ERR;
		return errmsg(c, undo < 0 ?
			      "could not restore every earlier write: check 'rapolicyctl status'" :
			      "nothing was changed");
	}
	for (size_t i = 0; i < n; i++) {
		if (strcmp(w[i].from, w[i].to))
			fprintf(c->out, "%s: %s -> %s\n", w[i].file, esc(w[i].from),
				esc(w[i].to));
	}
	return RC_OK;
}

const struct profile *profile_match(const struct arm_set *a, unsigned int *diff)
{
	const struct profile *best = NULL;

	*diff = ~0u;	/* more than any profile differs in */
	for (size_t i = 0; i < nr_profiles; i++) {
		unsigned int d = profile_diff(&profiles[i], a);

		if (__builtin_popcount(d) < __builtin_popcount(*diff)) {
			best = &profiles[i];
			*diff = d;
		}
	}
	return best;
}

/* The policies and their values, from the table: part of several --help */
static void help_policies(FILE *f)
{
	fputs("\nPolicies and values (the first is stock):\n", f);
	for (int p = 0; p < NR_POL; p++) {
		fprintf(f, "  %-18s", pol_defs[p].name);
		for (unsigned int i = 0; i < pol_defs[p].nr; i++)
			fprintf(f, " %s", pol_defs[p].values[i]);
		fputs(pol_defs[p].order ? " 0..N (a folio order)\n" : "\n", f);
	}
}

void help_knobs(FILE *f, bool settable)
{
	fputs("\nNumbers (decimal; the module checks the range):\n", f);
	for (int p = NR_POL; p < NR_SHOWN; p++)
		if (pol_defs[p].settable || !settable)
			fprintf(f, "  %-18s %s, %s%s\n", pol_defs[p].name, pol_defs[p].unit,
				pol_defs[p].help, pol_defs[p].settable ? "" : " (read-only)");
}

/* set and ab set: the pairs on top of the arm's current values */
int set_arm(struct ctx *c, const char *cmd, int arm, int argc, char **argv)
{
	struct write w[NR_SHOWN];
	struct rap_state s;
	struct arm_set to;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			fprintf(c->out, "Usage: rapolicyctl %s POLICY=VALUE...\n\n"
				"Set policies and numbers of arm %c: all of them, or none when one\n"
				"is wrong.\n", cmd, 'A' + arm);
			help_policies(c->out);
			help_knobs(c->out, true);
			return RC_OK;
		}
	}
	ret = need_state(c, &s);
	if (ret)
		return ret;
	to = s.arm[arm];
	ret = parse_pairs(c, cmd, &s, argv + 1, argc - 1, &to);
	if (!ret)
		ret = arm_available(c, &s, arm, &to);
	if (ret)
		return ret;
	return apply_report(c, w, plan_arm(w, arm, &s.arm[arm], &to));
}

/* ab/cgroup: a cgroup v2 path; cgroup2 mounted at /sys/fs/cgroup */
/* The cgroup2 path of in ("" clears) into out; -1 if it is no cgroup */
int cgroup_path(const char *in, char *out, size_t size)
{
	char abs[PATH_MAX], p[PATH_MAX];
	struct stat st;
	size_t len;

	if (!strncmp(in, "/sys/fs/cgroup/", 15))
		in += 14;
	snprintf(out, size, "%s", in);
	for (len = strlen(out); len > 1 && out[len - 1] == '/'; )
		out[--len] = '\0';
	if (!*out)
		return 0;
	snprintf(abs, sizeof(abs), "/sys/fs/cgroup%s", out);
	return out[0] != '/' || rap_path(p, sizeof(p), abs) || stat(p, &st) ||
	       !S_ISDIR(st.st_mode) ? -1 : 0;
}

size_t plan_ab(struct write *w, const struct ab_conf *from, const struct ab_conf *to)
{
	const struct ab_conf *ab[2] = { from, to };

	for (int k = 0; k < 2; k++) {
		char *v[4] = { k ? w[0].to : w[0].from, k ? w[1].to : w[1].from,
			       k ? w[2].to : w[2].from, k ? w[3].to : w[3].from };

		sprintf(v[0], "%u", ab[k]->permille);
		sprintf(v[1], "%llu", (unsigned long long)ab[k]->salt);
		snprintf(v[2], sizeof(w[2].to), "%s", ab[k]->cgroup);
		sprintf(v[3], "%s", ab_modes[ab[k]->mode]);
	}
	strcpy(w[0].file, "ab/sample_permille");
	strcpy(w[1].file, "ab/salt");
	strcpy(w[2].file, "ab/cgroup");
	strcpy(w[3].file, "ab/mode");
	return 4;
}
