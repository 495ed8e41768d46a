// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl: argument parsing, the helpers of rapctl_cmd.h and the
 * subcommands but stats (rapctl_stats.c); see rapolicyctl(8).  Each
 * subcommand is one cmd_*() function; all output goes to the out and err
 * streams given to rapctl_main().
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rapctl.h"
#include "rapctl_cmd.h"
#include "rapctl_sysfs.h"
#include "util.h"

struct command {
	const char *name;
	int (*run)(struct rapctl_ctx *c, int argc, char **argv);
	const char *usage;
};

#define COMMANDS "status, get, set, profile, stats, ab, help"

static const struct command *find_command(const char *name);

void rapctl_errmsg(struct rapctl_ctx *c, const char *fmt, ...)
{
	va_list ap;

	fputs("rapolicyctl: ", c->err);
	va_start(ap, fmt);
	vfprintf(c->err, fmt, ap);
	va_end(ap);
	fputc('\n', c->err);
}

int rapctl_usage_error(struct rapctl_ctx *c, const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("rapolicyctl: ", c->err);
	if (cmd)
		fprintf(c->err, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(c->err, fmt, ap);
	va_end(ap);
	fprintf(c->err, "\nTry 'rapolicyctl %s%s--help'.\n", cmd ? cmd : "",
		cmd ? " " : "");
	return RAPCTL_USAGE;
}

int rapctl_io_error(struct rapctl_ctx *c, int err, const char *what, const char *rel)
{
	char path[PATH_MAX];

	rapctl_path(path, sizeof(path), RAPCTL_ROOT_SYS, rel);
	if (err == -EACCES || err == -EPERM)
		rapctl_errmsg(c, "permission denied: run as root (%s %s)", what, path);
	else if (err == -EILSEQ)
		rapctl_errmsg(c, "%s %s: not one line of text (control characters or NUL bytes)",
			      what, path);
	else
		rapctl_errmsg(c, "%s %s: %s", what, path, strerror(-err));
	return RAPCTL_ERR;
}

/* ------------------------------------------------------------------ */
/* Argument helpers */

/*
 * argv[*i] is --name VALUE or --name=VALUE: 1 with the value in *val and
 * *i on the last argument used; -1 when VALUE is missing; 0 for another
 * argument.
 */
int rapctl_opt_value(int argc, char **argv, int *i, const char *name,
		     const char **val)
{
	const char *a = argv[*i];
	size_t len = strlen(name);

	if (strncmp(a, name, len))
		return 0;
	if (a[len] == '=') {
		*val = a + len + 1;
		return 1;
	}
	if (a[len])
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*val = argv[++*i];
	return 1;
}

bool rapctl_is_help(const char *a)
{
	return !strcmp(a, "--help") || !strcmp(a, "-h");
}

int rapctl_plain_args(struct rapctl_ctx *c, const char *name, const char *usage,
		      int argc, char **argv, int *nops)
{
	bool opts = true;
	int i;

	*nops = 0;
	for (i = 1; i < argc; i++) {
		if (opts && !strcmp(argv[i], "--")) {
			opts = false;
		} else if (opts && rapctl_is_help(argv[i])) {
			fputs(usage, c->out);
			return HELP_SHOWN;
		} else if (opts && argv[i][0] == '-' && argv[i][1]) {
			return rapctl_usage_error(c, name, "unknown option '%s'",
						  argv[i]);
		} else {
			argv[++*nops] = argv[i];
		}
	}
	return 0;
}

static int plain_args(struct rapctl_ctx *c, const struct command *cmd, int argc,
		      char **argv, int *nops)
{
	return rapctl_plain_args(c, cmd->name, cmd->usage, argc, argv, nops);
}

/* ------------------------------------------------------------------ */
/* Module state */

static const char *const hooks_words[] = {
	[RAPCTL_HOOKS_UNKNOWN] = "unknown",
	[RAPCTL_HOOKS_ABSENT] = "absent",
	[RAPCTL_HOOKS_PRESENT] = "present",
};

/* The module is not loaded: say why and what to do; returns RAPCTL_ERR */
static int not_loaded(struct rapctl_ctx *c, enum rapctl_hooks hooks)
{
	switch (hooks) {
	case RAPCTL_HOOKS_ABSENT:
		rapctl_errmsg(c, "kernel has no readahead policy hooks (%s): boot a kernel with the rapolicy patches",
			      RAPCTL_HOOK_CONFIG);
		break;
	case RAPCTL_HOOKS_PRESENT:
		rapctl_errmsg(c, "rapolicy module not loaded: run 'modprobe rapolicy'");
		break;
	default:
		rapctl_errmsg(c, "rapolicy module not loaded: run 'modprobe rapolicy' (it needs a kernel with the rapolicy patches, %s)",
			      RAPCTL_HOOK_CONFIG);
		break;
	}
	return RAPCTL_ERR;
}

/* 0 when the module is loaded, else RAPCTL_ERR with the reason printed */
int rapctl_require_module(struct rapctl_ctx *c)
{
	char how[PATH_MAX * 2 + 128];

	if (rapctl_is_dir(""))
		return 0;
	return not_loaded(c, rapctl_detect_hooks(how, sizeof(how)));
}

int rapctl_load_policies(struct rapctl_ctx *c, const char *dir,
			 struct rapctl_policies *ps)
{
	char bad[PATH_MAX], path[PATH_MAX];
	int err;

	err = rapctl_policies_load(ps, dir, bad, sizeof(bad));
	if (err == -EINVAL) {
		rapctl_path(path, sizeof(path), RAPCTL_ROOT_SYS, bad);
		rapctl_errmsg(c, "%s: not a list of values with the current one in brackets",
			      path);
		return RAPCTL_ERR;
	}
	if (err)
		return rapctl_io_error(c, err, "reading", bad);
	if (!ps->n) {
		rapctl_path(path, sizeof(path), RAPCTL_ROOT_SYS, dir);
		rapctl_errmsg(c, "no policy files in %s", path);
		return RAPCTL_ERR;
	}
	return 0;
}

int rapctl_load_stats(struct rapctl_ctx *c, struct rapctl_stats *st,
		      const char *dir)
{
	char bad[PATH_MAX], path[PATH_MAX];
	int err;

	err = dir ? rapctl_stats_load(st, dir, bad, sizeof(bad)) :
		    rapctl_stats_reload(st, bad, sizeof(bad));
	if (err == -EINVAL) {
		rapctl_path(path, sizeof(path), RAPCTL_ROOT_SYS, bad);
		rapctl_errmsg(c, "%s: not a decimal number", path);
		return RAPCTL_ERR;
	}
	return err ? rapctl_io_error(c, err, "reading", bad) : 0;
}

/* The module's version, malloc'ed; "unknown" if version cannot be read */
char *rapctl_read_version(void)
{
	char *v;

	if (rapctl_read(RAPCTL_ROOT_SYS, "version", &v))
		v = strdup("unknown");
	return v;
}

/* ------------------------------------------------------------------ */
/* status */

static const char usage_status[] =
"Usage: rapolicyctl status\n"
"\n"
"Show whether the kernel has the readahead policy hooks, whether rapolicy.ko\n"
"is loaded and its version, every policy with its current and allowed\n"
"values, the profile the settings match, the A/B assignment (ab: off,\n"
"cgroup PATH, or sample N permille, salt S), and the counters that are\n"
"not 0.\n"
"\n"
"Exit status: 0 when the module is loaded, 1 when it is not (the reason and\n"
"what to do on stderr) or a file cannot be read, 2 usage error.\n";

static void print_policy_table(struct rapctl_ctx *c, const struct rapctl_policies *ps)
{
	int wn = (int)strlen("policy"), wc = (int)strlen("current");
	char allowed[1024];
	size_t i;

	for (i = 0; i < ps->n; i++) {
		int ln = (int)strlen(ps->v[i].name);
		int lc = (int)strlen(rapctl_policy_current(&ps->v[i]));

		wn = ln > wn ? ln : wn;
		wc = lc > wc ? lc : wc;
	}
	fprintf(c->out, "%-*s  %-*s  %s\n", wn, "policy", wc, "current",
		"allowed");
	for (i = 0; i < ps->n; i++) {
		rapctl_policy_values(&ps->v[i], allowed, sizeof(allowed));
		fprintf(c->out, "%-*s  %-*s  %s\n", wn, ps->v[i].name, wc,
			rapctl_policy_current(&ps->v[i]), allowed);
	}
}

/* "stats:   a=1 b=2 (10 more at 0)": the counters that are not 0 */
static int status_stats(struct rapctl_ctx *c)
{
	struct rapctl_stats st;
	size_t i, zero = 0;
	int ret;

	ret = rapctl_load_stats(c, &st, "stats");
	if (ret) {
		fprintf(c->out, "stats:   unreadable\n");
		return ret;
	}
	fprintf(c->out, "stats:  ");
	for (i = 0; i < st.n; i++) {
		if (st.v[i].value)
			fprintf(c->out, " %s=%" PRIu64, st.v[i].name,
				st.v[i].value);
		else
			zero++;
	}
	if (!st.n)
		fprintf(c->out, " no counters\n");
	else if (zero == st.n)
		fprintf(c->out, " all %zu counters at 0\n", st.n);
	else if (zero)
		fprintf(c->out, " (%zu more at 0)\n", zero);
	else
		fputc('\n', c->out);
	rapctl_stats_free(&st);
	return 0;
}

static int status_unloaded(struct rapctl_ctx *c)
{
	char how[PATH_MAX * 2 + 128];
	enum rapctl_hooks hooks = rapctl_detect_hooks(how, sizeof(how));

	fprintf(c->out, "hooks:   %s (%s)\n", hooks_words[hooks], how);
	fprintf(c->out, "module:  not loaded\n");
	return not_loaded(c, hooks);
}

static int status_loaded(struct rapctl_ctx *c)
{
	const struct rapctl_profile *pr;
	struct rapctl_policies ps;
	char *version = rapctl_read_version();
	int ret, ret2;

	fprintf(c->out, "hooks:   present (rapolicy is loaded)\n");
	fprintf(c->out, "module:  loaded\n");
	fprintf(c->out, "version: %s\n", version ? version : "unknown");
	free(version);
	ret = rapctl_load_policies(c, "", &ps);
	if (!ret) {
		print_policy_table(c, &ps);
		pr = rapctl_profile_match(&ps);
		fprintf(c->out, "profile: %s\n", pr ? pr->name : "custom");
		rapctl_policies_free(&ps);
	}
	ret2 = rapctl_status_ab(c);
	ret = ret ? ret : ret2;
	ret2 = status_stats(c);
	return ret ? ret : ret2;
}

static int cmd_status(struct rapctl_ctx *c, int argc, char **argv)
{
	int n, ret;

	ret = plain_args(c, find_command("status"), argc, argv, &n);
	if (ret)
		return ret == HELP_SHOWN ? RAPCTL_OK : ret;
	if (n)
		return rapctl_usage_error(c, "status", "unexpected argument '%s'",
					  argv[1]);
	return rapctl_is_dir("") ? status_loaded(c) : status_unloaded(c);
}

/* ------------------------------------------------------------------ */
/* get */

static const char usage_get[] =
"Usage: rapolicyctl get [POLICY...]\n"
"\n"
"Print POLICY=VALUE, one line each, for every POLICY given in that order, or\n"
"for every policy of the module in the order of the ABI document.  An\n"
"unknown POLICY is a usage error (exit 2) that lists the known ones.\n";

/* 0 if every name is a policy, else RAPCTL_USAGE with each one reported */
static int check_names(struct rapctl_ctx *c, const struct rapctl_policies *ps,
		       char **names, int n)
{
	char list[1024];
	int i, bad = 0;

	rapctl_policy_names(ps, list, sizeof(list));
	for (i = 0; i < n; i++) {
		if (rapctl_policy_find(ps, names[i]))
			continue;
		rapctl_errmsg(c, "unknown policy '%s': known policies: %s", names[i],
			      list);
		bad++;
	}
	return bad ? RAPCTL_USAGE : 0;
}

static int cmd_get(struct rapctl_ctx *c, int argc, char **argv)
{
	struct rapctl_policies ps;
	const struct rapctl_policy *p;
	int n, i, ret;

	ret = plain_args(c, find_command("get"), argc, argv, &n);
	if (ret)
		return ret == HELP_SHOWN ? RAPCTL_OK : ret;
	ret = rapctl_require_module(c);
	if (!ret)
		ret = rapctl_load_policies(c, "", &ps);
	if (ret)
		return ret;
	ret = check_names(c, &ps, argv + 1, n);
	for (i = 0; !ret && i < (n ? n : (int)ps.n); i++) {
		p = n ? rapctl_policy_find(&ps, argv[i + 1]) : &ps.v[i];
		fprintf(c->out, "%s=%s\n", p->name, rapctl_policy_current(p));
	}
	rapctl_policies_free(&ps);
	return ret;
}

/* ------------------------------------------------------------------ */
/* set, and profiles, which are applied the same way */

static const char usage_set[] =
"Usage: rapolicyctl set POLICY=VALUE...\n"
"\n"
"Check every pair against the values the module allows, then write them in\n"
"the order of the ABI document (descending_thp, pmd_hit, descending_seq,\n"
"vma_limit, sync_mmap_order).  If any pair is wrong (not POLICY=VALUE, an\n"
"unknown policy, a value not allowed, a policy given twice) each problem is\n"
"reported with what is allowed, nothing is written, and the exit status is\n"
"2.  If a write fails, the policies already written are set back to their\n"
"old values and the exit status is 1.\n"
"\n"
"Prints one line per pair in apply order: \"POLICY: OLD -> NEW\", or\n"
"\"POLICY: VALUE (unchanged)\" for a policy that already had its value (it\n"
"is not written).\n";

void rapctl_report_updates(struct rapctl_ctx *c, const struct rapctl_update *u,
			   size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(u[i].from, u[i].to))
			fprintf(c->out, "%s: %s -> %s\n", u[i].name,
				*u[i].from ? u[i].from : "(none)", u[i].to);
		else
			fprintf(c->out, "%s: %s (unchanged)\n", u[i].name,
				u[i].from);
	}
}

/* The module takes an empty line for an empty value; write() of 0 bytes is no write */
static int write_value(const char *rel, const char *v)
{
	return rapctl_write(rel, *v ? v : "\n");
}

static void write_failed(struct rapctl_ctx *c, const struct rapctl_update *u,
			 int err)
{
	char path[PATH_MAX];

	rapctl_path(path, sizeof(path), RAPCTL_ROOT_SYS, u->rel);
	if (err == -EACCES || err == -EPERM)
		rapctl_errmsg(c, "permission denied: run as root (writing '%s' to %s)",
			      u->to, path);
	else if (err == -EINVAL)
		rapctl_errmsg(c, "%s: the kernel rejected '%s' (%s)", u->name,
			      u->to, strerror(-err));
	else
		rapctl_errmsg(c, "%s: writing '%s' to %s: %s", u->name, u->to,
			      path, strerror(-err));
}

/* Undo u[0..n) newest first; returns how many could not be undone */
static size_t roll_back(struct rapctl_ctx *c, const struct rapctl_update *u,
			size_t n)
{
	size_t failed = 0;
	int err;

	while (n--) {
		if (!strcmp(u[n].from, u[n].to))
			continue;
		err = write_value(u[n].rel, u[n].from);
		if (err) {
			rapctl_errmsg(c, "%s: cannot roll back to '%s': %s",
				      u[n].name, u[n].from, strerror(-err));
			failed++;
		} else {
			rapctl_errmsg(c, "rolled back %s: %s -> %s", u[n].name,
				      u[n].to, *u[n].from ? u[n].from : "(none)");
		}
	}
	return failed;
}

/*
 * Whether the file of a failed write no longer shows its old value: a
 * short write (sysfs stores the value and returns fewer bytes) or a store
 * that failed after it changed something.  A file that cannot be read
 * back may have changed too.
 */
static bool write_landed(const struct rapctl_update *u)
{
	bool landed = true;
	char *now;

	if (!rapctl_read_value(u->rel, &now)) {
		landed = strcmp(now, u->from) != 0;
		free(now);
	}
	return landed;
}

int rapctl_apply_updates(struct rapctl_ctx *c, const struct rapctl_update *u,
			 size_t n, const char *stay)
{
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		if (!strcmp(u[i].from, u[i].to))
			continue;
		err = write_value(u[i].rel, u[i].to);
		if (!err)
			continue;
		write_failed(c, &u[i], err);
		/* the failed file itself is undone too if the write landed */
		if (roll_back(c, u, i + write_landed(&u[i])))
			rapctl_errmsg(c, "%s", stay);
		else
			rapctl_errmsg(c, "nothing was changed");
		return RAPCTL_ERR;
	}
	return RAPCTL_OK;
}

/* The plan as updates of the files of dir */
static struct rapctl_update *plan_updates(const char *dir,
					  const struct rapctl_change *plan,
					  size_t n)
{
	struct rapctl_update *u = calloc(n ? n : 1, sizeof(*u));
	size_t i;

	for (i = 0; u && i < n; i++) {
		snprintf(u[i].rel, sizeof(u[i].rel), "%s%s%s", dir,
			 *dir ? "/" : "", plan[i].p->name);
		u[i].name = plan[i].p->name;
		u[i].from = plan[i].from;
		u[i].to = plan[i].to;
	}
	return u;
}

static int apply_plan(struct rapctl_ctx *c, const char *dir,
		      const struct rapctl_change *plan, size_t n)
{
	struct rapctl_update *u = plan_updates(dir, plan, n);
	int ret;

	if (!u) {
		rapctl_errmsg(c, "out of memory");
		return RAPCTL_ERR;
	}
	ret = rapctl_apply_updates(c, u, n, *dir ?
		"some policies of arm B stay changed: check with 'rapolicyctl ab status'" :
		"some policies stay changed: check with 'rapolicyctl get'");
	if (!ret)
		rapctl_report_updates(c, u, n);
	free(u);
	return ret;
}

/*
 * Check the pairs against the policy set of dir, then apply them.
 * invalid is the exit status when a pair does not fit the module.
 */
static int apply_pairs(struct rapctl_ctx *c, const char *dir,
		       const char *const *pairs, size_t n, int invalid)
{
	struct rapctl_change *plan;
	struct rapctl_policies ps;
	int ret;

	ret = rapctl_require_module(c);
	if (!ret && *dir && !rapctl_is_dir(dir))
		ret = rapctl_no_ab(c);
	if (!ret)
		ret = rapctl_load_policies(c, dir, &ps);
	if (ret)
		return ret;
	if (rapctl_plan(&ps, pairs, n, &plan, c->err)) {
		rapctl_errmsg(c, "nothing was changed");
		ret = invalid;
	} else {
		ret = apply_plan(c, dir, plan, n);
	}
	free(plan);
	rapctl_policies_free(&ps);
	return ret;
}

static bool pair_syntax_ok(const char *pair)
{
	const char *eq = strchr(pair, '=');

	return eq && eq != pair && eq[1];
}

int rapctl_set_pairs(struct rapctl_ctx *c, const char *cmd, const char *dir,
		     char **pairs, int n)
{
	int i, bad = 0;

	if (!n)
		return rapctl_usage_error(c, cmd, "missing POLICY=VALUE");
	/*
	 * With the module loaded the plan reports every problem at once;
	 * without it, a malformed pair is still a usage error.
	 */
	for (i = 0; !rapctl_is_dir("") && i < n; i++) {
		if (!pair_syntax_ok(pairs[i])) {
			rapctl_errmsg(c, "'%s' is not POLICY=VALUE", pairs[i]);
			bad++;
		}
	}
	if (bad)
		return rapctl_usage_error(c, cmd, "nothing was changed");
	return apply_pairs(c, dir, (const char *const *)pairs, (size_t)n,
			   RAPCTL_USAGE);
}

static int cmd_set(struct rapctl_ctx *c, int argc, char **argv)
{
	int n, ret;

	ret = plain_args(c, find_command("set"), argc, argv, &n);
	if (ret)
		return ret == HELP_SHOWN ? RAPCTL_OK : ret;
	return rapctl_set_pairs(c, "set", "", argv + 1, n);
}

/*
 * A policy the module does not have behaves as stock: a profile's pairs
 * that set one to its stock value are dropped, so stock works on modules
 * from before a policy existed; any other pair must fit the module.
 */
static bool policy_present(const char *name)
{
	char *text;

	if (rapctl_read(RAPCTL_ROOT_SYS, name, &text))
		return false;
	free(text);
	return true;
}

static int apply_profile(struct rapctl_ctx *c, const struct rapctl_profile *pr)
{
	const char *pairs[RAPCTL_PROFILE_MAX_PAIRS];
	size_t i, n = 0;
	int ret;

	ret = rapctl_require_module(c);
	if (ret)
		return ret;
	for (i = 0; i < pr->nr_pairs && n < RAPCTL_PROFILE_MAX_PAIRS; i++) {
		const char *pair = pr->pairs[i], *eq = strchr(pair, '=');
		char name[64];

		snprintf(name, sizeof(name), "%.*s", (int)(eq - pair), pair);
		if (!policy_present(name) &&
		    (!strcmp(eq + 1, "off") || !strcmp(eq + 1, "none")))
			continue;
		pairs[n++] = pair;
	}
	/* a profile that does not fit the module is not the caller's fault */
	return apply_pairs(c, "", pairs, n, RAPCTL_ERR);
}

static const char usage_profile[] =
"Usage: rapolicyctl profile NAME\n"
"       rapolicyctl profile list\n"
"\n"
"Set every policy of profile NAME, as 'rapolicyctl set' does (all or\n"
"nothing, same output).  'list' prints each profile's name and settings.\n"
"\n"
"  stock   every policy off: the stock kernel's readahead\n"
"  seed    every policy of the seed proposals on\n";

static void profile_list(struct rapctl_ctx *c)
{
	size_t i, j;

	for (i = 0; i < rapctl_nr_profiles; i++) {
		const struct rapctl_profile *pr = &rapctl_profiles[i];

		fprintf(c->out, "%-5s", pr->name);
		for (j = 0; j < pr->nr_pairs; j++)
			fprintf(c->out, " %s", pr->pairs[j]);
		fputc('\n', c->out);
	}
}

static int cmd_profile(struct rapctl_ctx *c, int argc, char **argv)
{
	const struct rapctl_profile *pr;
	char names[256] = "";
	size_t i;
	int n, ret;

	ret = plain_args(c, find_command("profile"), argc, argv, &n);
	if (ret)
		return ret == HELP_SHOWN ? RAPCTL_OK : ret;
	if (n != 1)
		return rapctl_usage_error(c, "profile", n ? "one profile at a time" :
					  "missing NAME or 'list'");
	if (!strcmp(argv[1], "list")) {
		profile_list(c);
		return RAPCTL_OK;
	}
	pr = rapctl_profile_find(argv[1]);
	if (!pr) {
		for (i = 0; i < rapctl_nr_profiles; i++)
			snprintf(names + strlen(names),
				 sizeof(names) - strlen(names), "%s ",
				 rapctl_profiles[i].name);
		return rapctl_usage_error(c, "profile",
					  "unknown profile '%s': profiles: %slist",
					  argv[1], names);
	}
	return apply_profile(c, pr);
}

/* ------------------------------------------------------------------ */
/* help, global options, dispatch */

static const char usage_main[] =
"Usage: rapolicyctl [--sysfs-root DIR] [--proc-root DIR] COMMAND [ARGS...]\n"
"\n"
"Show and set the live-tunable mmap readahead policies of rapolicy.ko\n"
"(/sys/kernel/mm/rapolicy/).\n"
"\n"
"Commands:\n"
"  status                  kernel hooks, module, policies, profile, counters\n"
"  get [POLICY...]         print POLICY=VALUE lines\n"
"  set POLICY=VALUE...     check every pair, then set all of them or none\n"
"  profile NAME | list     set a named group of policies: stock, seed, best\n"
"  stats [--json | --prometheus] [--interval SEC [--count N]]\n"
"                          the decision counters\n"
"  stats reset             zero the counters\n"
"  ab set POLICY=VALUE...  set arm B's policies (A/B testing), as set does\n"
"  ab assign cgroup PATH | sample PERMILLE [--salt N] | off\n"
"                          which faults use arm B\n"
"  ab status               the assignment, arm B's policies, A vs B\n"
"  ab report [--json | --prometheus]\n"
"                          per-arm counters, rates, B/A and a verdict\n"
"  help [COMMAND]          this text, or a command's\n"
"\n"
"Options (before COMMAND):\n"
"  --sysfs-root DIR        the directory standing for /sys\n"
"                          (default $RAPOLICYCTL_SYSFS_ROOT, else /sys)\n"
"  --proc-root DIR         the directory standing for /proc\n"
"                          (default $RAPOLICYCTL_PROC_ROOT, else /proc)\n"
"  -h, --help              this text; 'rapolicyctl COMMAND --help' for one\n"
"  -V, --version           print the version\n"
"\n"
"Exit status: 0 success, 1 runtime error, 2 usage error.\n";

static const char usage_help[] =
"Usage: rapolicyctl help [COMMAND]\n"
"\n"
"Print the usage of rapolicyctl, or of COMMAND.\n";

static int cmd_help(struct rapctl_ctx *c, int argc, char **argv)
{
	const struct command *cmd;
	int n, ret;

	ret = plain_args(c, find_command("help"), argc, argv, &n);
	if (ret)
		return ret == HELP_SHOWN ? RAPCTL_OK : ret;
	if (n > 1)
		return rapctl_usage_error(c, "help", "one COMMAND at a time");
	if (!n) {
		fputs(usage_main, c->out);
		return RAPCTL_OK;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return rapctl_usage_error(c, "help", "unknown command '%s': commands: %s",
					  argv[1], COMMANDS);
	fputs(cmd->usage, c->out);
	return RAPCTL_OK;
}

static const struct command commands[] = {
	{ "status", cmd_status, usage_status },
	{ "get", cmd_get, usage_get },
	{ "set", cmd_set, usage_set },
	{ "profile", cmd_profile, usage_profile },
	{ "stats", rapctl_cmd_stats, rapctl_usage_stats },
	{ "ab", rapctl_cmd_ab, rapctl_usage_ab },
	{ "help", cmd_help, usage_help },
};

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* Set a root from an option or the environment; 0 or an exit status */
static int set_root(struct rapctl_ctx *c, enum rapctl_root root, const char *dir,
		    const char *from)
{
	struct stat st;

	if (!*dir)
		return rapctl_usage_error(c, NULL, "%s: empty directory name", from);
	if (rapctl_set_root(root, dir))
		return rapctl_usage_error(c, NULL, "%s: name too long", from);
	if (root != RAPCTL_ROOT_SYS)
		return 0;
	if (stat(dir, &st)) {
		rapctl_errmsg(c, "%s %s: %s", from, dir, strerror(errno));
		return RAPCTL_ERR;
	}
	if (!S_ISDIR(st.st_mode)) {
		rapctl_errmsg(c, "%s %s: not a directory", from, dir);
		return RAPCTL_ERR;
	}
	return 0;
}

static int roots_from_env(struct rapctl_ctx *c)
{
	static const struct {
		enum rapctl_root root;
		const char *var;
		const char *dflt;
	} env[] = {
		{ RAPCTL_ROOT_SYS, "RAPOLICYCTL_SYSFS_ROOT", "/sys" },
		{ RAPCTL_ROOT_PROC, "RAPOLICYCTL_PROC_ROOT", "/proc" },
		{ RAPCTL_ROOT_BOOT, "RAPOLICYCTL_BOOT_ROOT", "/boot" },
	};
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < sizeof(env) / sizeof(env[0]); i++) {
		const char *v = getenv(env[i].var);

		ret = v && *v ? set_root(c, env[i].root, v, env[i].var) :
				rapctl_set_root(env[i].root, env[i].dflt);
	}
	return ret;
}

/* One global option at argv[*i]; 0, HELP_SHOWN (or version) or a status */
static int global_opt(struct rapctl_ctx *c, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;
	int r;

	if (rapctl_is_help(a)) {
		fputs(usage_main, c->out);
		return HELP_SHOWN;
	}
	if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
		fprintf(c->out, "rapolicyctl %s\n", RAPOLICY_VERSION);
		return HELP_SHOWN;
	}
	r = rapctl_opt_value(argc, argv, i, "--sysfs-root", &v);
	if (r > 0)
		return set_root(c, RAPCTL_ROOT_SYS, v, "--sysfs-root");
	if (!r)
		r = rapctl_opt_value(argc, argv, i, "--proc-root", &v);
	if (r > 0)
		return set_root(c, RAPCTL_ROOT_PROC, v, "--proc-root");
	if (r < 0)
		return rapctl_usage_error(c, NULL, "%s needs a DIR", a);
	return rapctl_usage_error(c, NULL, "unknown option '%s'", a);
}

int rapctl_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct rapctl_ctx c = { .out = out, .err = err };
	const struct command *cmd;
	int i, ret;

	ret = roots_from_env(&c);
	for (i = 1; !ret && i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		ret = global_opt(&c, argc, argv, &i);
	}
	if (ret)
		return ret == HELP_SHOWN ? RAPCTL_OK : ret;
	if (i >= argc)
		return rapctl_usage_error(&c, NULL, "missing COMMAND (%s)", COMMANDS);
	cmd = find_command(argv[i]);
	if (!cmd)
		return rapctl_usage_error(&c, NULL, "unknown command '%s': commands: %s",
					  argv[i], COMMANDS);
	return cmd->run(&c, argc - i, argv + i);
}
