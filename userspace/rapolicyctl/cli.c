// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl: messages, option parsing, and turning POLICY=VALUE pairs
 * into checked writes.  Every problem is one line on stderr that starts
 * "rapolicyctl: "; arguments are echoed through esc().
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "rapctl.h"

int errmsg(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	fputs("rapolicyctl: ", c->err);
	va_start(ap, fmt);
	vfprintf(c->err, fmt, ap);
	va_end(ap);
	fputc('\n', c->err);
	return RC_ERR;
}

int usage(struct ctx *c, const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(c->err, "rapolicyctl: %s%s", cmd ? cmd : "", cmd ? ": " : "");
	va_start(ap, fmt);
	vfprintf(c->err, fmt, ap);
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
	if (ret == -EPROTO && !strcmp(bad, "version"))
		return errmsg(c, "module version %s does not match rapolicyctl %s: install both from the same release",
			      esc(s->version), RAPOLICY_VERSION);
	if (ret) {
		char what[400];

		snprintf(what, sizeof(what), RAP_DIR "/%s", bad);
		return io_error(c, ret, what);
	}
	return 0;
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
	size_t o = 0;

	for (unsigned int i = 0; i < d->nr; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : "", d->values[i]);
	if (d->order)
		snprintf(buf + o, size - o, ", 0..%u", s->max_order);
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
		} else if (!pol_valid(p, eq + 1, s->max_order)) {
			allowed(s, p, al, sizeof(al));
			bad = usage(c, cmd, "%s: '%s' is not one of %s", name,
				    esc(eq + 1), al);
		} else {
			seen |= 1u << p;
			snprintf(out->v[p], VAL_LEN, "%s", eq + 1);
		}
	}
	return bad;
}

size_t plan_arm(struct write *w, int arm, const struct arm_set *from,
		const struct arm_set *to)
{
	for (int p = 0; p < NR_POL; p++) {
		snprintf(w[p].file, sizeof(w[p].file), "%s%s", arm ? "ab/" : "",
			 pol_defs[p].name);
		snprintf(w[p].from, sizeof(w[p].from), "%s", from->v[p]);
		snprintf(w[p].to, sizeof(w[p].to), "%s", to->v[p]);
	}
	return NR_POL;
}

int apply_report(struct ctx *c, const struct write *w, size_t n)
{
	size_t failed = 0;
	bool undo_failed;
	int ret = rap_apply(w, n, &failed, &undo_failed);

	if (ret) {
		char what[400];

		snprintf(what, sizeof(what), "writing '%s' to " RAP_DIR "/%s",
			 esc(w[failed].to), w[failed].file);
		io_error(c, ret, what);
		return errmsg(c, undo_failed ?
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
	int best_n = NR_POL + 1;

	for (size_t i = 0; i < nr_profiles; i++) {
		struct arm_set pv;
		unsigned int d;

		profile_values(&profiles[i], &pv);
		d = arm_diff(a, &pv);
		if (__builtin_popcount(d) < best_n) {
			best = &profiles[i];
			best_n = __builtin_popcount(d);
			*diff = d;
		}
	}
	return best;
}
