// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl status, get, set, profile, save, apply.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rapctl.h"
#include "util.h"

static void help_profiles(FILE *f)
{
	fputs("\nProfiles (every policy not named is at stock):\n", f);
	for (size_t i = 0; i < nr_profiles; i++)
		fprintf(f, "  %-6s %s: %s\n", profiles[i].name, profiles[i].desc,
			*profiles[i].pairs ? profiles[i].pairs : "(all stock)");
}

/* --arm a|b at argv[*i]: 1 taken, 0 not --arm, -1 usage error printed */
static int arm_opt(struct ctx *c, const char *cmd, int argc, char **argv, int *i,
		   int *arm)
{
	const char *v = NULL;
	int ret = opt_val(argc, argv, i, "--arm", &v);

	if (ret && (ret < 0 || (strcmp(v, "a") && strcmp(v, "b"))))
		return usage(c, cmd, "--arm takes a or b"), -1;
	if (ret)
		*arm = v[0] - 'a';
	return ret;
}

/* The profile an arm matches, or "custom (pr but these=values)"; pr NULL: the closest */
static unsigned int print_profile(FILE *f, const struct arm_set *a, const char *prefix,
				  const struct profile *pr)
{
	unsigned int diff;

	if (pr)
		diff = profile_diff(pr, a);
	else
		pr = profile_match(a, &diff);
	fprintf(f, diff ? "%scustom (%s but" : "%s%s", prefix, pr->name);
	for (int p = 0; p < NR_POL; p++)
		if (diff & (1u << p))
			fprintf(f, " %s=%s", pol_defs[p].name, a->v[p]);
	fputs(diff ? ")\n" : "\n", f);
	return diff;
}

/* "unavailable: streams sync_mmap_order=0 ..." when the module lacks any */
static void print_unavailable(FILE *f, const struct rap_state *s)
{
	char u[UNAV_MAX][UNAV_LEN];
	unsigned int n = rap_unavailable(s, u, UNAV_MAX);

	if (!n)
		return;
	fputs("unavailable:", f);
	for (unsigned int i = 0; i < n; i++)
		fprintf(f, " %s", u[i]);
	fputs("\n", f);
}

static const char usage_status[] =
"Usage: rapolicyctl status [--json]\n\n"
"The module's version, both arms' policies and numbers (see 'rapolicyctl\n"
"policies'), the profile each matches (or 'custom'\n"
"and how it differs from the closest), what this kernel cannot honour\n"
"('unavailable'), the A/B assignment and the time the counters cover.\n"
"A module of another version ('differs:'): what it lacks and what it has\n"
"that this rapolicyctl does not know.  Exit status 1 when the module is not\n"
"loaded.\n";

int cmd_status(struct ctx *c, int argc, char **argv)
{
	struct rap_state s;
	bool json = false;
	char buf[1024];
	int ret;

	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i]))
			return fputs(usage_status, c->out), RC_OK;
		if (strcmp(argv[i], "--json"))
			return usage(c, "status", "unexpected argument '%s'", esc(argv[i]));
		json = true;
	}
	ret = need_state(c, &s);
	if (ret)
		return ret;
	rap_differs(&s, buf, sizeof(buf));
	if (json) {
		json_t *o = json_state(&s, false);

		json_object_set_new(o, "rapolicyctl", json_string(RAPOLICY_VERSION));
		json_object_set_new(o, "differs", json_string(buf));
		json_object_set_new(o, "unavailable", json_unavailable(&s));
		json_object_set_new(o, "stats", json_counters(&s.st));
		json_out(c->out, o, false);
		return RC_OK;
	}
	fprintf(c->out, "module:  rapolicy %s\n", esc(s.version));
	if (*buf)
		fprintf(c->out, "differs: %s\n", buf);
	fprintf(c->out, "%-18s  %-12s  %s\n", "policy", "arm A", "arm B");
	for (int p = 0; p < NR_SHOWN; p++)
		fprintf(c->out, "%-18s  %-12s  %s\n", pol_defs[p].name,
			s.avail[p].absent ? "unavailable" : s.arm[ARM_A].v[p],
			s.avail[p].absent ? "unavailable" : s.arm[ARM_B].v[p]);
	print_unavailable(c->out, &s);
	print_profile(c->out, &s.arm[ARM_A], "profile: ", NULL);
	print_profile(c->out, &s.arm[ARM_B], "arm B:   ", NULL);
	fprintf(c->out, "ab:      %s\n", ab_line(&s.ab, buf, sizeof(buf)));
	fprintf(c->out, "stats:   %.1f s since the last reset, %llu setting changes since\n",
		s.st.elapsed_ms / 1000.0, (unsigned long long)s.st.settings_changed);
	return RC_OK;
}

static const char usage_get[] =
"Usage: rapolicyctl get [--arm a|b] [-n] [--json] [POLICY...]\n\n"
"Print POLICY=VALUE for each policy (all by default, then the numbers)\n"
"of arm A, or of arm B with --arm b; -n prints the values only, --json\n"
"one object.\n";

int cmd_get(struct ctx *c, int argc, char **argv)
{
	int arm = ARM_A, nops = 0, ret;
	bool values = false, json = false;
	struct rap_state s;
	json_t *o;

	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			fputs(usage_get, c->out);
			help_knobs(c->out, false);
			return RC_OK;
		}
		ret = arm_opt(c, "get", argc, argv, &i, &arm);
		if (ret < 0)
			return RC_USAGE;
		if (ret)
			continue;
		if (!strcmp(argv[i], "-n"))
			values = true;
		else if (!strcmp(argv[i], "--json"))
			json = true;
		else if (argv[i][0] == '-')
			return usage(c, "get", "unknown option '%s'", esc(argv[i]));
		else if (pol_find(argv[i]) < 0)
			return usage(c, "get", "unknown policy '%s'", esc(argv[i]));
		else
			argv[++nops] = argv[i];
	}
	ret = need_state(c, &s);
	if (ret)
		return ret;
	o = json_object();
	for (int p = 0; p < NR_SHOWN; p++) {
		bool want = !nops;

		for (int i = 1; i <= nops; i++)
			want |= pol_find(argv[i]) == p;
		if (!want || (s.avail[p].absent && !nops))
			continue;
		if (s.avail[p].absent) {
			ret = errmsg(c, "%s: not available on this kernel", pol_defs[p].name);
			continue;
		}
		if (json)
			json_object_set_new(o, pol_defs[p].name, json_value(p, s.arm[arm].v[p]));
		else if (values)
			fprintf(c->out, "%s\n", s.arm[arm].v[p]);
		else
			fprintf(c->out, "%s=%s\n", pol_defs[p].name, s.arm[arm].v[p]);
	}
	if (json)
		json_out(c->out, o, false);
	else
		json_decref(o);
	return ret;
}

int cmd_set(struct ctx *c, int argc, char **argv)
{
	return set_arm(c, "set", ARM_A, argc, argv);
}

static const char usage_profile[] =
"Usage: rapolicyctl profile [--arm a|b] [NAME | verify NAME]\n\n"
"With no NAME, list the profiles.  NAME sets every policy of the arm (A by\n"
"default): those the profile names to its values, the rest to stock.\n"
"'verify NAME' exits 1 and prints the difference when the arm has drifted\n"
"from the profile.\n";

int cmd_profile(struct ctx *c, int argc, char **argv)
{
	int arm = ARM_A, nops = 0, ret;
	const struct profile *pr;
	struct write w[NR_SHOWN];
	struct rap_state s;
	struct arm_set pv;
	char prefix[16];

	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			fputs(usage_profile, c->out);
			help_profiles(c->out);
			return RC_OK;
		}
		ret = arm_opt(c, "profile", argc, argv, &i, &arm);
		if (ret < 0)
			return RC_USAGE;
		if (!ret && argv[i][0] == '-')
			return usage(c, "profile", "unknown option '%s'", esc(argv[i]));
		if (!ret)
			argv[++nops] = argv[i];
	}
	if (!nops) {
		help_profiles(c->out);
		return RC_OK;
	}
	if (nops > 2 || (nops == 2 && strcmp(argv[1], "verify")))
		return usage(c, "profile", "unexpected argument '%s'", esc(argv[nops]));
	pr = profile_find(argv[nops]);
	if (!pr)
		return usage(c, "profile", "unknown profile '%s'", esc(argv[nops]));
	ret = need_state(c, &s);
	if (ret)
		return ret;
	pv = s.arm[arm];	/* a profile leaves the bound */
	profile_values(pr, &pv);
	if (nops == 1) {
		ret = arm_available(c, &s, arm, &pv);
		return ret ? ret : apply_report(c, w, plan_arm(w, arm, &s.arm[arm], &pv));
	}
	snprintf(prefix, sizeof(prefix), "arm %c: ", 'A' + arm);
	return print_profile(c->out, &s.arm[arm], prefix, pr) ? RC_ERR : RC_OK;
}

/* "NAME ID" of the loaded BPF policy in name; 1 loaded, 0 none or unsupported */
static int bpf_loaded(char *name, size_t size)
{
	char p[PATH_MAX];

	if (rap_path(p, sizeof(p), RAP_DIR "/bpf_ops") || read_small_file(p, name, size) < 0)
		return 0;
	return strcmp(name, "none") && strcmp(name, "unsupported") && *name;
}

/*
 * The BPF policy is saved by the path of its object file, which the
 * module cannot know: save -o keeps the "bpf" of the file it replaces
 * while a program is loaded
 */
static void keep_bpf(struct ctx *c, const char *file, json_t *state)
{
	json_t *old = json_load_file(file, 0, NULL);
	const char *path = json_string_value(json_object_get(old, "bpf"));
	char name[64];

	if (path && bpf_loaded(name, sizeof(name)))
		json_object_set_new(state, "bpf", json_string(path));
	else if (path)
		errmsg(c, "warning: no BPF policy loaded: %s no longer loads %s", esc(file),
		       esc(path));
	json_decref(old);
}

static const char usage_save[] =
"Usage: rapolicyctl save [-o FILE]\n\n"
"Print both arms' policies and settable numbers, and the A/B assignment, as\n"
"JSON for 'apply'.  -o FILE replaces FILE atomically (a temporary file\n"
"renamed over it): when the save fails, FILE is left as it was; the BPF\n"
"policy that FILE names (\"bpf\": PATH) is kept while one is loaded.  At\n"
"boot, rapolicy.service applies /etc/rapolicy.conf: 'save -o' it.\n";

int cmd_save(struct ctx *c, int argc, char **argv)
{
	const char *file = NULL;
	char *text, *line;
	struct rap_state s;
	json_t *j;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i]))
			return fputs(usage_save, c->out), RC_OK;
		ret = opt_val(argc, argv, &i, "-o", &file);
		if (ret < 0 || (ret && !*file))
			return usage(c, "save", "-o needs a FILE");
		if (!ret)
			return usage(c, "save", "unexpected argument '%s'", esc(argv[i]));
	}
	ret = need_state(c, &s);
	if (ret)
		return ret;
	if (!file) {
		json_out(c->out, json_state(&s, true), false);
		return RC_OK;
	}
	j = json_state(&s, true);
	keep_bpf(c, file, j);
	text = json_dumps(j, JSON_INDENT(2));
	json_decref(j);
	line = text ? malloc(strlen(text) + 2) : NULL;
	if (line)
		sprintf(line, "%s\n", text);
	ret = line ? replace_file(file, line, 0644) : -ENOMEM;
	free(text);
	free(line);
	if (ret)
		return errmsg(c, "save: %s: %s: it is left as it was", esc(file), strerror(-ret));
	return RC_OK;
}

/* One arm of a saved state: a policy not named is stock, no bound keeps it */
static int load_arm(struct ctx *c, const struct rap_state *s, json_t *j, int arm,
		    struct arm_set *out)
{
	const char *name, *val;
	char num[VAL_LEN];
	json_t *v;

	*out = s->arm[arm];
	profile_values(&profiles[0], out);	/* stock */
	if (!j)
		return 0;
	if (!json_is_object(j))
		return usage(c, "apply", "\"%c\" is not an object", 'a' + arm);
	json_object_foreach(j, name, v) {
		int p = pol_find(name);

		if (p < 0)
			return usage(c, "apply", "%c: unknown policy '%s'", 'a' + arm, esc(name));
		/* a policy's value is a string, a bound's an integer (cut short: too large) */
		snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		val = p < NR_POL ? json_string_value(v) : json_is_integer(v) ? num : NULL;
		if (!val || !pol_valid(s, p, val))
			return usage(c, "apply", "%c: %s: not a value of the policy", 'a' + arm,
				     name);
		snprintf(out->v[p], VAL_LEN, "%s", val);
	}
	return 0;
}

static int load_ab(struct ctx *c, json_t *j, struct ab_conf *ab)
{
	const char *mode = "off", *cg = "";
	json_int_t permille = 0;
	json_t *salt = NULL;
	json_error_t e;

	memset(ab, 0, sizeof(*ab));
	if (j && json_unpack_ex(j, &e, JSON_STRICT, "{s?s, s?s, s?I, s?o}", "mode", &mode,
				"cgroup", &cg, "sample_permille", &permille, "salt", &salt))
		return usage(c, "apply", "\"ab\": %s", esc_text(e.text));
	ab->mode = choice_index(&ab_mode_def, mode);
	if (ab->mode < 0)
		return usage(c, "apply", "\"ab\": unknown mode '%s'", esc(mode));
	/* a salt above INT64_MAX is saved as a string (json_u64()) */
	if (permille < 0 || permille > 1000 || (salt && json_get_u64(salt, &ab->salt)))
		return usage(c, "apply", "\"ab\": sample_permille 0..1000, salt 0..2^64-1");
	ab->permille = (unsigned int)permille;
	/* A cgroup gone since the save must not keep the rest from applying */
	if (cgroup_path(cg, ab->cgroup, sizeof(ab->cgroup))) {
		errmsg(c, "warning: \"ab\": cgroup '%s' does not exist: skipped%s", esc(cg),
		       ab->mode == AB_CGROUP ? ", the A/B mode stays off" : "");
		ab->cgroup[0] = '\0';
		if (ab->mode == AB_CGROUP)
			ab->mode = AB_OFF;
	}
	return 0;
}

static const char usage_apply[] =
"Usage: rapolicyctl apply [--check] FILE\n\n"
"Set the whole state that 'rapolicyctl save' printed ('-' reads stdin):\n"
"both arms' policies (stock where FILE names none), numbers (kept where\n"
"FILE has none) and the A/B assignment (off where FILE has none).\n"
"All of it is checked first; when a write fails, the earlier ones are\n"
"undone.  A cgroup that does not exist is skipped with a warning (the A/B\n"
"mode stays off), the rest applied.  \"bpf\": PATH loads that BPF policy\n"
"with rapolicy-bpf first, unless one is loaded.  An 'options rapolicy' line of\n"
"modprobe.d that sets arm A otherwise is named in a warning: FILE wins.\n"
"--check checks FILE against the table only, reading and writing no\n"
"module: 'FILE: valid' and exit 0, or the errors and exit 2.\n";

/* The state of a module with every value of the table, at stock */
static void table_state(struct rap_state *s)
{
	memset(s, 0, sizeof(*s));
	for (int arm = 0; arm < NR_ARMS; arm++) {
		profile_values(&profiles[0], &s->arm[arm]);
		for (int p = NR_POL; p < NR_SHOWN; p++)
			snprintf(s->arm[arm].v[p], VAL_LEN, "%s", pol_defs[p].at_load);
	}
	for (int p = 0; p < NR_SHOWN; p++)
		s->avail[p].absent = true;	/* any order: the largest is the kernel's */
}

/*
 * The module parameters that modprobe.d sets: arm A's policies at load,
 * before rapolicy.service applies FILE over them. Each that differs from
 * what FILE sets is a warning, so the two never disagree unseen.
 */
static void modprobe_differs(struct ctx *c, const char *file, const struct arm_set *a)
{
	static const char *const dirs[] = { "/etc/modprobe.d", "/run/modprobe.d",
		"/usr/local/lib/modprobe.d", "/lib/modprobe.d", "/usr/lib/modprobe.d" };

	for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
		char dir[PATH_MAX], conf[PATH_MAX + 256], *text, *save = NULL;
		struct dirent *e;
		DIR *d;

		if (rap_path(dir, sizeof(dir), dirs[k]) || !(d = opendir(dir)))
			continue;
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);

			if (len < 6 || strcmp(e->d_name + len - 5, ".conf"))
				continue;
			snprintf(conf, sizeof(conf), "%s/%s", dir, e->d_name);
			text = read_file(conf, NULL);
			for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l;
			     l = strtok_r(NULL, "\n", &save)) {
				char *t, *sv = NULL;

				if (!(t = strtok_r(l, " \t", &sv)) || strcmp(t, "options") ||
				    !(t = strtok_r(NULL, " \t", &sv)) || strcmp(t, "rapolicy"))
					continue;
				while ((t = strtok_r(NULL, " \t", &sv))) {
					char *eq = strchr(t, '=');
					int p;

					if (!eq)
						continue;
					*eq = '\0';
					p = pol_find(t);
					if (p >= 0 && p < NR_POL && strcmp(eq + 1, a->v[p]))
						errmsg(c, "warning: %s/%s sets %s=%s, %s sets %s: %s wins (rapolicy.service applies it after modprobe)",
						       dirs[k], esc(e->d_name), t, esc(eq + 1), esc(file),
						       a->v[p], esc(file));
				}
			}
			free(text);
		}
		closedir(d);
	}
}

/*
 * The BPF policy of a saved state: loaded with rapolicy-bpf unless one is
 * already (the module shows its name, not its file: it is left alone)
 */
static int load_bpf(struct ctx *c, const char *path)
{
	char *args[] = { "rapolicy-bpf", "load", (char *)path, NULL }, name[64];
	int status;
	pid_t pid;

	if (bpf_loaded(name, sizeof(name)))
		return RC_OK;
	fflush(c->out);
	if (posix_spawnp(&pid, args[0], NULL, NULL, args, environ) ||
	    waitpid(pid, &status, 0) != pid)
		return errmsg(c, "rapolicy-bpf load %s: cannot run it", esc(path));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return errmsg(c, "rapolicy-bpf load %s failed: nothing was changed", esc(path));
	fprintf(c->out, "bpf_ops: none -> %s\n", esc(path));
	return RC_OK;
}

int cmd_apply(struct ctx *c, int argc, char **argv)
{
	json_t *j, *arms[NR_ARMS] = { NULL }, *ab = NULL, *ver = NULL;
	struct write w[2 * NR_SHOWN + 4];
	struct arm_set to[NR_ARMS];
	const char *file = NULL;
	struct ab_conf abc;
	char bpf_path[PATH_MAX] = "";
	const char *bpf = NULL;
	struct rap_state s;
	bool check = false;
	json_error_t e;
	size_t n = 0;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i]))
			return fputs(usage_apply, c->out), RC_OK;
		if (!strcmp(argv[i], "--check"))
			check = true;
		else if (file)
			return usage(c, "apply", "needs one FILE");
		else
			file = argv[i];
	}
	if (!file)
		return usage(c, "apply", "needs one FILE");
	if (check)
		table_state(&s);
	else if ((ret = need_state(c, &s)))
		return ret;
	j = strcmp(file, "-") ? json_load_file(file, 0, &e) : json_loadf(stdin, 0, &e);
	if (!j)
		return usage(c, "apply", "%s:%d: %s", esc(file), e.line, esc_text(e.text));
	ret = json_unpack_ex(j, &e, JSON_STRICT, "{s?o, s?o, s?o, s?o, s?s}", "a", &arms[ARM_A],
			     "b", &arms[ARM_B], "ab", &ab, "version", &ver, "bpf", &bpf) ?
	      usage(c, "apply", "%s: %s", esc(file), esc_text(e.text)) : 0;
	if (!ret && bpf && (bpf[0] != '/' || access(bpf, R_OK)))
		ret = usage(c, "apply", "\"bpf\": '%s' is no readable file (an absolute path)",
			    esc(bpf));
	if (!ret && bpf)
		snprintf(bpf_path, sizeof(bpf_path), "%s", bpf);
	for (int arm = 0; arm < NR_ARMS && !ret; arm++)
		ret = load_arm(c, &s, arms[arm], arm, &to[arm]);
	if (!ret)
		ret = load_ab(c, ab, &abc);
	json_decref(j);
	if (!ret)
		modprobe_differs(c, file, &to[ARM_A]);
	if (!ret && check)
		fprintf(c->out, "%s: valid\n", esc(file));
	for (int arm = 0; arm < NR_ARMS && !ret && !check; arm++)
		ret = arm_available(c, &s, arm, &to[arm]);
	if (ret || check)
		return ret;
	ret = *bpf_path ? load_bpf(c, bpf_path) : 0;
	if (ret)
		return ret;
	for (int arm = 0; arm < NR_ARMS; arm++)
		n += plan_arm(w + n, arm, &s.arm[arm], &to[arm]);
	n += plan_ab(w + n, &s.ab, &abc);
	return apply_report(c, w, n);
}

static const char usage_policies[] =
"Usage: rapolicyctl policies\n\n"
"Each policy of the module's table: its values (the first is stock; 0..N\n"
"a folio order) and what it does; then its numbers.  It reads no module.\n";

int cmd_policies(struct ctx *c, int argc, char **argv)
{
	if (argc > 1 && is_help(argv[1]))
		return fputs(usage_policies, c->out), RC_OK;
	if (argc > 1)
		return usage(c, "policies", "unexpected argument '%s'", esc(argv[1]));
	for (int p = 0; p < NR_POL; p++) {
		const struct pol_def *d = &pol_defs[p];

		fprintf(c->out, "%-18s", d->name);
		for (unsigned int i = 0; i < d->nr; i++)
			fprintf(c->out, " %s", d->values[i]);
		fprintf(c->out, "%s\n    %s\n", d->order ? " 0..N" : "", d->help);
	}
	help_knobs(c->out, false);
	return RC_OK;
}
