// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl ab: arm B's policies, the assignment of faults to arms, and
 * the report that compares the arms.
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rapctl.h"
#include "util.h"

static const char usage_ab[] =
"Usage: rapolicyctl ab set POLICY=VALUE...\n"
"       rapolicyctl ab assign off | cgroup PATH | sample PERMILLE [--salt S]\n"
"       rapolicyctl ab status\n"
"       rapolicyctl ab sample\n"
"       rapolicyctl ab report [--samples FILE | --every SECONDS --blocks N] [--json]\n\n"
"Arm A is the top-level policy set, arm B the one under ab/.  'assign'\n"
"chooses which faults use arm B: none, those of tasks in a cgroup v2, or a\n"
"PERMILLE share of files picked by a hash of (device, inode, salt).\n"
"'sample' prints one JSON line of both arms' counters; 'report' compares\n"
"the arms over blocks: the differences between consecutive samples of FILE\n"
"(take one after each workload run or time interval), or N intervals of\n"
"SECONDS it samples itself.  Faults within a block depend on each other,\n"
"blocks much less: the confidence intervals and the test use the spread\n"
"between blocks.  The verdict needs 5 blocks and 100 mmap faults per arm;\n"
"otherwise, or when the difference could be chance (p >= 0.05), it is\n"
"'no significant difference'.  There is no verdict while the mode is off.\n";

#define MAX_SAMPLES 4096

struct sample {
	struct counters st;
	int mode;
};

static int assign(struct ctx *c, int argc, char **argv)
{
	struct rap_state s;
	struct ab_conf to;
	struct write w[4];
	const char *salt = NULL;
	uint64_t v;
	int ret, nops = 0;

	for (int i = 1; i < argc; i++) {
		ret = opt_val(argc, argv, &i, "--salt", &salt);
		if (ret < 0)
			return usage(c, "ab assign", "--salt needs a number");
		if (!ret)
			argv[++nops] = argv[i];
	}
	ret = need_state(c, &s);
	if (ret)
		return ret;
	to = s.ab;
	if (nops == 1 && !strcmp(argv[1], "off") && !salt) {
		to.mode = AB_OFF;
	} else if (nops == 2 && !strcmp(argv[1], "cgroup") && !salt) {
		if (check_cgroup(c, "ab assign", argv[2], to.cgroup, sizeof(to.cgroup)))
			return RC_USAGE;
		if (!*to.cgroup)
			return usage(c, "ab assign", "cgroup needs a PATH");
		to.mode = AB_CGROUP;
	} else if (nops == 2 && !strcmp(argv[1], "sample")) {
		if (parse_u64(argv[2], &v) || v > 1000)
			return usage(c, "ab assign", "sample takes 0 to 1000 permille, not '%s'",
				     esc(argv[2]));
		to.permille = (unsigned int)v;
		if (salt) {
			char *end;

			errno = 0;
			to.salt = strtoull(salt, &end, 0);
			if (errno || *end || !*salt || *salt == '-')
				return usage(c, "ab assign", "bad salt '%s'", esc(salt));
		}
		to.mode = AB_SAMPLE;
	} else {
		return usage(c, "ab assign", "expected off, cgroup PATH or sample PERMILLE [--salt S]");
	}
	return apply_report(c, w, plan_ab(w, &s.ab, &to));
}

static int status(struct ctx *c)
{
	struct rap_state s;
	const char *sep = "";
	char buf[600];
	int ret = need_state(c, &s);

	if (ret)
		return ret;
	fprintf(c->out, "mode:    %s\nA -> B:  ", ab_line(&s.ab, buf, sizeof(buf)));
	for (int p = 0; p < NR_POL; p++) {
		if (strcmp(s.arm[ARM_A].v[p], s.arm[ARM_B].v[p])) {
			fprintf(c->out, "%s%s %s -> %s", sep, pol_defs[p].name,
				s.arm[ARM_A].v[p], s.arm[ARM_B].v[p]);
			sep = ", ";
		}
	}
	fprintf(c->out, "%s\n", *sep ? "" : "(the arms are the same)");
	return RC_OK;
}

static int take(struct ctx *c, struct sample *sm)
{
	struct rap_state s;
	int ret = need_state(c, &s);

	*sm = (struct sample){ s.st, s.ab.mode };
	return ret;
}

/* A line of 'ab sample' */
static int parse_sample(const char *line, struct sample *sm)
{
	json_t *j = json_loads(line, 0, NULL), *arm, *v;
	json_int_t el, ch;
	const char *mode = NULL;
	int ret = -EINVAL;

	if (!j || json_unpack(j, "{s:s, s:I, s:I}", "mode", &mode, "elapsed_ms", &el,
			      "settings_changed", &ch) || el < 0 || ch < 0)
		goto out;
	sm->st.elapsed_ms = (uint64_t)el;
	sm->st.settings_changed = (uint64_t)ch;
	for (sm->mode = 0; sm->mode < 3 && strcmp(ab_modes[sm->mode], mode); sm->mode++)
		;
	for (int a = 0; a < NR_ARMS && sm->mode < 3; a++) {
		arm = json_object_get(j, a ? "b" : "a");
		for (int i = 0; i < NR_ST; i++) {
			v = json_object_get(arm, st_names[i]);
			if (!json_is_integer(v) || json_integer_value(v) < 0)
				goto out;
			sm->st.c[a][i] = (uint64_t)json_integer_value(v);
		}
	}
	ret = sm->mode < 3 ? 0 : -EINVAL;
out:
	json_decref(j);
	return ret;
}

static int read_samples(struct ctx *c, const char *file, struct sample *sm, size_t *n)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char line[4096];
	int ret = 0;

	if (!f)
		return errmsg(c, "%s: %s", esc(file), strerror(errno));
	for (*n = 0; !ret && fgets(line, sizeof(line), f); ++*n)
		if (*n == MAX_SAMPLES || parse_sample(line, &sm[*n]))
			ret = usage(c, "ab report", "%s:%zu: not a line of 'rapolicyctl ab sample'",
				    esc(file), *n + 1);
	if (f != stdin)
		fclose(f);
	return ret;
}

static int live_samples(struct ctx *c, double secs, size_t blocks, struct sample *sm)
{
	struct timespec ts = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };

	for (size_t i = 0; i <= blocks; i++) {
		if (i)
			nanosleep(&ts, NULL);
		if (take(c, &sm[i]))
			return RC_ERR;
	}
	return 0;
}

/* A row of counts (e NULL) or of rates with their intervals */
static void row(FILE *f, const char *label, uint64_t a, uint64_t b, const struct est *e,
		double scale, size_t blocks)
{
	fprintf(f, "%-30s", label);
	for (int arm = 0; arm < NR_ARMS; arm++) {
		char buf[64];

		if (!e)
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)(arm ? b : a));
		else if (blocks >= 2)
			snprintf(buf, sizeof(buf), "%.4g [%.4g, %.4g]", e[arm].rate * scale,
				 e[arm].lo * scale, e[arm].hi * scale);
		else
			snprintf(buf, sizeof(buf), "%.4g", e[arm].rate * scale);
		fprintf(f, "  %20s", buf);
	}
	fputc('\n', f);
}

static int report(struct ctx *c, struct sample *sm, size_t n, bool json)
{
	struct block *b = calloc(n, sizeof(*b));
	const struct sample *last = &sm[n - 1];
	uint64_t changed = last->st.settings_changed;
	bool off = false, mixed = changed > 0;
	struct ab_result r;

	for (size_t i = 0; i < n; i++)
		off |= sm[i].mode == AB_OFF;
	for (size_t i = 1; i < n; i++) {
		for (int a = 0; a < NR_ARMS; a++) {
			for (int k = 0; k < NR_ST; k++) {
				if (sm[i].st.c[a][k] < sm[i - 1].st.c[a][k]) {
					free(b);
					return errmsg(c, "the counters were reset between samples %zu and %zu",
						      i, i + 1);
				}
				b[i - 1].c[a][k] = sm[i].st.c[a][k] - sm[i - 1].st.c[a][k];
			}
		}
	}
	if (n == 1)	/* one snapshot: everything since the reset, one block */
		memcpy(b[0].c, sm[0].st.c, sizeof(b[0].c));
	ab_analyse(b, n > 1 ? n - 1 : 1, &r);
	free(b);
	if (off) {
		r.verdict = "none";
		snprintf(r.why, sizeof(r.why), "the A/B mode is off: every fault used arm A");
	}
	if (json) {
		json_t *o = json_report(&r);

		json_object_set_new(o, "mode", json_string(ab_modes[last->mode]));
		json_object_set_new(o, "elapsed_ms", json_integer((json_int_t)last->st.elapsed_ms));
		json_object_set_new(o, "settings_changed", json_integer((json_int_t)changed));
		json_out(c->out, o, false);
		return RC_OK;
	}
	fprintf(c->out, "mode %s; the counters cover %.1f s since the last reset; %zu block%s\n",
		ab_modes[last->mode], last->st.elapsed_ms / 1000.0, r.blocks,
		r.blocks == 1 ? "" : "s");
	if (mixed)
		fprintf(c->out, "warning: %llu setting changes since the last reset: the counts mix settings (run 'rapolicyctl stats reset')\n",
			(unsigned long long)changed);
	fprintf(c->out, "%-30s  %20s  %20s\n", "", "arm A", "arm B");
	row(c->out, "mmap faults", r.fault[ARM_A].den, r.fault[ARM_B].den, NULL, 0, 0);
	row(c->out, "major faults (sync_miss)", r.fault[ARM_A].num, r.fault[ARM_B].num,
	    NULL, 0, 0);
	row(c->out, "pages read (pages_read)", r.io[ARM_A].num, r.io[ARM_B].num, NULL, 0, 0);
	row(c->out, "major faults per 1000 faults", 0, 0, r.fault, 1000, r.blocks);
	row(c->out, "pages read per fault", 0, 0, r.io, 1, r.blocks);
	fprintf(c->out, "verdict: %s (%s)\n", r.verdict, r.why);
	return RC_OK;
}

static int cmd_report(struct ctx *c, int argc, char **argv)
{
	const char *file = NULL, *every = NULL, *blocks = NULL;
	struct sample *sm = calloc(MAX_SAMPLES, sizeof(*sm));
	bool json = false;
	uint64_t nb = 0;
	size_t n = 1;
	int ret = 0;

	for (int i = 1; i < argc && !ret; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!(ret = opt_val(argc, argv, &i, "--samples", &file)) &&
			 !(ret = opt_val(argc, argv, &i, "--every", &every)) &&
			 !(ret = opt_val(argc, argv, &i, "--blocks", &blocks)))
			ret = -1;
		ret = ret < 0 ? usage(c, "ab report", "bad argument '%s'", esc(argv[i])) : 0;
	}
	if (!ret && (!every != !blocks || (file && every)))
		ret = usage(c, "ab report", "--samples FILE, or --every SECONDS with --blocks N");
	if (!ret && every && (parse_u64(blocks, &nb) || nb < 1 || nb >= MAX_SAMPLES ||
			      atof(every) <= 0))
		ret = usage(c, "ab report", "--blocks takes 1 to %d, --every a positive number",
			    MAX_SAMPLES - 1);
	if (!ret && file)
		ret = read_samples(c, file, sm, &n);
	if (!ret && file && n < 1)
		ret = usage(c, "ab report", "%s has no samples", esc(file));
	if (!ret && every)
		ret = live_samples(c, atof(every), nb, sm);
	else if (!ret && !file)
		ret = take(c, sm);
	if (!ret)
		ret = report(c, sm, every ? nb + 1 : n, json);
	free(sm);
	return ret;
}

int cmd_ab(struct ctx *c, int argc, char **argv)
{
	struct sample sm;
	json_t *o;

	if (argc < 2 || is_help(argv[1]))
		return argc < 2 ? usage(c, "ab", "needs a subcommand")
				: (fputs(usage_ab, c->out), RC_OK);
	if (!strcmp(argv[1], "set"))
		return set_arm(c, "ab set", ARM_B, argc - 1, argv + 1);
	if (!strcmp(argv[1], "assign"))
		return assign(c, argc - 1, argv + 1);
	if (!strcmp(argv[1], "status") && argc == 2)
		return status(c);
	if (!strcmp(argv[1], "sample") && argc == 2) {
		if (take(c, &sm))
			return RC_ERR;
		o = json_counters(&sm.st);
		json_object_set_new(o, "mode", json_string(ab_modes[sm.mode]));
		json_out(c->out, o, true);
		return RC_OK;
	}
	if (!strcmp(argv[1], "report"))
		return cmd_report(c, argc - 1, argv + 1);
	return usage(c, "ab", "unknown subcommand '%s'", esc(argv[1]));
}
