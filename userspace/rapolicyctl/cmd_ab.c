// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl ab: arm B's policies, the assignment of faults to arms, and
 * the report that compares the arms.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "rapctl.h"
#include "util.h"

static const char usage_ab[] =
"Usage: rapolicyctl ab set POLICY=VALUE...\n"
"       rapolicyctl ab assign off | cgroup PATH | {sample|cgroups} PERMILLE\n"
"                             [--salt S]\n"
"       rapolicyctl ab status\n"
"       rapolicyctl ab sample\n"
"       rapolicyctl ab period\n"
"       rapolicyctl ab report [--samples FILE [--periods N] | --every SECONDS\n"
"                             --blocks N] [--json]\n\n"
"Arm A is the top-level policy set, arm B the one under ab/.  'assign'\n"
"chooses which faults use arm B: none, those of tasks in a cgroup v2, or\n"
"those of files in PERMILLE of 64 buckets that a salt draws (files hash\n"
"into the buckets by device and inode), or those of tasks whose cgroups\n"
"are in them ('cgroups').  'sample' prints one JSON line of\n"
"the counters, per arm and per bucket; 'period' prints one, draws a new\n"
"salt, and prints another: it ends a period and starts the next.\n"
"'report' compares the arms over the first N periods of FILE (default\n"
"6; decide N before starting), or over N periods of SECONDS it runs\n"
"itself: the ratio of B's total major faults and pages read to A's, each\n"
"arm scaled to all 64 buckets, a randomization test and the interval it\n"
"gives (96% for faults, 99% for pages), and one of: B better, B worse,\n"
"B worse (I/O), no difference detected at this power, not enough data,\n"
"invalid: settings changed.  B better needs fewer major faults and pages\n"
"read below +5%; pages read above +5% is B worse (I/O) whatever the\n"
"faults.  The totals printed are those of the periods analysed.\n"
"With 'cgroup PATH' the report is observational, with no test.\n";

#define MAX_SAMPLES 4096

struct sample {
	struct counters st;
	int mode;
	unsigned int permille;
	uint64_t salt;
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
		if (cgroup_path(argv[2], to.cgroup, sizeof(to.cgroup)))
			return usage(c, "ab assign", "'%s' is not a cgroup (a path under /sys/fs/cgroup)",
				     esc(argv[2]));
		if (!*to.cgroup)
			return usage(c, "ab assign", "cgroup needs a PATH");
		to.mode = AB_CGROUP;
	} else if (nops == 2 && (!strcmp(argv[1], "sample") || !strcmp(argv[1], "cgroups"))) {
		if (parse_u64(argv[2], &v) || v > 1000)
			return usage(c, "ab assign", "%s takes 0 to 1000 permille, not '%s'",
				     argv[1], esc(argv[2]));
		to.permille = (unsigned int)v;
		if (salt) {
			char *end;

			errno = 0;
			to.salt = strtoull(salt, &end, 0);
			if (errno || *end || !*salt || *salt == '-')
				return usage(c, "ab assign", "bad salt '%s'", esc(salt));
		}
		to.mode = AB_SAMPLE;
		if (!strcmp(argv[1], "cgroups")) {
			to.mode = AB_CGROUP;
			to.cgroup[0] = '\0';
		}
	} else {
		return usage(c, "ab assign", "expected off, cgroup PATH, sample PERMILLE or cgroups PERMILLE [--salt S]");
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

	*sm = (struct sample){ s.st, s.ab.mode, s.ab.permille, s.ab.salt };
	return ret;
}

static void print_sample(struct ctx *c, const struct sample *sm)
{
	json_t *o = json_counters(&sm->st);

	json_object_set_new(o, "mode", json_string(ab_modes[sm->mode]));
	json_object_set_new(o, "sample_permille", json_integer(sm->permille));
	json_object_set_new(o, "salt", json_u64(sm->salt));
	json_object_set_new(o, "buckets", json_buckets(&sm->st));
	json_out(c->out, o, true);
}

/* A new salt: 53 random bits, exact in any JSON reader */
static int resalt(struct ctx *c)
{
	uint64_t v = 0;
	char buf[24];
	int ret;

	if (getrandom(&v, sizeof(v), 0) != sizeof(v))
		return errmsg(c, "getrandom: %s", strerror(errno));
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)(v >> 11));
	ret = rap_write("ab/salt", buf);
	return ret ? io_error(c, ret, "writing " RAP_DIR "/ab/salt") : 0;
}

/* Whether the salt draws the arms: sample mode or 'ab assign cgroups' */
static bool randomized(const struct sample *sm)
{
	return sm->mode != AB_OFF && sm->st.bucket_arm[0] != '-';
}

/* ab sample; ab period: then a new salt and a sample of the next period */
static int period(struct ctx *c, bool next)
{
	struct sample sm;
	int ret = take(c, &sm);

	if (ret)
		return ret;
	print_sample(c, &sm);
	if (!next)
		return RC_OK;
	if (!randomized(&sm))
		return errmsg(c, "ab period needs 'ab assign sample' or 'ab assign cgroups'");
	ret = resalt(c) ?: take(c, &sm);
	if (!ret)
		print_sample(c, &sm);
	return ret;
}

#define get_u64(j, key, v) json_get_u64(json_object_get(j, key), v)

/* A line of 'ab sample' */
static int parse_sample(const char *line, struct sample *sm)
{
	json_t *j = json_loads(line, 0, NULL), *arm, *bk, *e;
	const char *mode = NULL, *a;
	uint64_t v = 0;
	int ret = -EINVAL;

	memset(sm, 0, sizeof(*sm));
	if (!j || json_unpack(j, "{s:s, s:o}", "mode", &mode, "buckets", &bk) ||
	    get_u64(j, "elapsed_ms", &sm->st.elapsed_ms) ||
	    get_u64(j, "settings_changed", &sm->st.settings_changed) ||
	    get_u64(j, "salt", &sm->salt) || get_u64(j, "sample_permille", &v) || v > 1000 ||
	    json_array_size(bk) != ABT_BUCKETS)
		goto out;
	sm->permille = (unsigned int)v;
	sm->mode = choice_index(&ab_mode_def, mode);
	for (int k = 0; k < NR_ARMS && sm->mode >= 0; k++) {
		arm = json_object_get(j, k ? "b" : "a");
		for (int i = 0; i < NR_ST; i++)
			if (get_u64(arm, st_names[i], &sm->st.c[k][i]))
				goto out;
	}
	for (int i = 0; i < ABT_BUCKETS; i++) {
		e = json_array_get(bk, (size_t)i);
		a = json_string_value(json_array_get(e, 0));
		if (json_array_size(e) != 3 || !a || strlen(a) != 1 || !strchr("ab-", *a) ||
		    json_get_u64(json_array_get(e, 1), &sm->st.bucket[i][BK_MISS]) ||
		    json_get_u64(json_array_get(e, 2), &sm->st.bucket[i][BK_PAGES]))
			goto out;
		sm->st.bucket_arm[i] = *a;
	}
	ret = sm->mode >= 0 ? 0 : -EINVAL;
out:
	json_decref(j);
	return ret;
}

static int read_samples(struct ctx *c, const char *file, struct sample *sm, size_t *n)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char line[8192];
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

/* N periods of secs: a sample at each end, a new salt in between */
static int live_samples(struct ctx *c, double secs, size_t periods, struct sample *sm)
{
	struct timespec ts = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };

	for (size_t i = 0; i < periods; i++) {
		if ((i && randomized(&sm[2 * i - 1]) && resalt(c)) || take(c, &sm[2 * i]))
			return RC_ERR;
		nanosleep(&ts, NULL);
		if (take(c, &sm[2 * i + 1]))
			return RC_ERR;
	}
	return 0;
}

static bool same_assignment(const struct sample *x, const struct sample *y)
{
	return x->mode == y->mode && x->permille == y->permille && x->salt == y->salt &&
	       !memcmp(x->st.bucket_arm, y->st.bucket_arm, sizeof(x->st.bucket_arm));
}

/*
 * Periods: runs of consecutive samples under one assignment; a period's
 * counts are the deltas within its run, the step between two runs (a
 * new salt) belongs to neither, and changes nothing else: a policy, the
 * mode or the permille changed there makes the next period invalid.
 * tot: both arms' counters over the first @planned, those analysed.
 */
static unsigned int periods(const struct sample *sm, size_t n, struct abt_period *p,
			    unsigned int planned, uint64_t (*tot)[NR_ST])
{
	unsigned int np = 0;

	for (size_t i = 1; i < n; i++) {
		const struct counters *a = &sm[i - 1].st, *b = &sm[i].st;
		struct abt_period *q = &p[np];

		if (!same_assignment(&sm[i - 1], &sm[i])) {
			np += i > 1 && same_assignment(&sm[i - 2], &sm[i - 1]);
			/* between periods only the salt may change: one write */
			if (np < ABT_MAX_PERIODS)
				p[np].changed |= sm[i - 1].mode != sm[i].mode ||
						 sm[i - 1].permille != sm[i].permille ||
						 counter_delta(a->settings_changed,
							       b->settings_changed) > 1;
			continue;
		}
		if (np == ABT_MAX_PERIODS)
			break;
		q->changed |= counter_delta(a->settings_changed, b->settings_changed) > 0 ||
			      sm[i].mode == AB_OFF;
		for (int k = 0; k < ABT_BUCKETS; k++) {
			q->in_b[k] = b->bucket_arm[k] == 'b';
			q->y[ABT_FAULTS][k] += (double)counter_delta(a->bucket[k][BK_MISS], b->bucket[k][BK_MISS]);
			q->y[ABT_PAGES][k] += (double)counter_delta(a->bucket[k][BK_PAGES], b->bucket[k][BK_PAGES]);
		}
		for (int arm = 0; arm < NR_ARMS && np < planned; arm++)
			for (int k = 0; k < NR_ST; k++)
				tot[arm][k] += counter_delta(a->c[arm][k], b->c[arm][k]);
	}
	return np + (n > 1 && np < ABT_MAX_PERIODS && same_assignment(&sm[n - 2], &sm[n - 1]));
}

static json_t *json_effect(const struct abt_effect *e)
{
	json_t *o = json_object();
	const char *k[] = { "effect", "lo", "hi", "p" };
	const double v[] = { e->est, e->lo, e->hi, e->p };

	for (int i = 0; i < 4; i++)
		json_object_set_new(o, k[i], isfinite(v[i]) ? json_real(v[i]) : json_null());
	return o;
}

static int report(struct ctx *c, const struct sample *sm, size_t n, unsigned int planned,
		  bool json)
{
	static struct abt_period p[ABT_MAX_PERIODS];
	struct abt_plan plan = abt_default_plan;
	uint64_t tot[NR_ARMS][NR_ST] = { { 0 } };
	const int metric[2] = { ST_sync_miss, ST_pages_read };
	int mode = sm[n - 1].mode;
	bool tested, obs = mode != AB_OFF && !randomized(&sm[n - 1]);
	struct abt_result r;
	unsigned int np;

	memset(p, 0, sizeof(p));
	np = periods(sm, n, p, planned, tot);
	plan.periods = planned;
	abt_analyse(p, np, &plan, &r);
	if (mode == AB_OFF || obs) {
		r.outcome = ABT_NOT_ENOUGH_DATA;
		snprintf(r.why, sizeof(r.why), "%s", obs ?
			 "observational: one cgroup against the rest of the machine compares workloads, not policies; no test" :
			 "the A/B mode is off: every fault used arm A");
	}
	tested = r.outcome != ABT_NOT_ENOUGH_DATA && r.outcome != ABT_INVALID;
	if (json) {
		json_t *o = json_pack("{s:s, s:i, s:i, s:i, s:s, s:s, s:b}", "mode", ab_modes[mode],
				      "periods", (int)np, "planned", (int)planned,
				      "buckets", (int)r.buckets, "verdict",
				      obs ? "observational" : abt_outcome_name(r.outcome),
				      "why", r.why, "observational", obs);

		for (int arm = 0; arm < NR_ARMS; arm++)
			json_object_set_new(o, arm ? "b" : "a", json_pack("{s:o, s:o}",
				"major_faults", json_u64(tot[arm][ST_sync_miss]),
				"pages_read", json_u64(tot[arm][ST_pages_read])));
		if (tested)
			json_object_set_new(o, "effect", json_pack("{s:o, s:o}",
				"major_faults", json_effect(&r.eff[ABT_FAULTS]),
				"pages_read", json_effect(&r.eff[ABT_PAGES])));
		json_out(c->out, o, false);
		return RC_OK;
	}
	fprintf(c->out, "mode %s; %u period%s of %u planned; %u buckets with major faults\n",
		ab_modes[mode], np, np == 1 ? "" : "s", planned, r.buckets);
	fprintf(c->out, "%-30s  %20s  %20s\n", "", "arm A", "arm B");
	for (int i = 0; i < 2; i++)
		fprintf(c->out, "%-30s  %20llu  %20llu\n", i ? "pages read (pages_read)" :
			"major faults (sync_miss)", (unsigned long long)tot[ARM_A][metric[i]],
			(unsigned long long)tot[ARM_B][metric[i]]);
	for (int i = 0; i < 2 && tested; i++) {
		const struct abt_effect *e = &r.eff[i ? ABT_PAGES : ABT_FAULTS];

		fprintf(c->out, "B against A, %-17s %+.1f%% [%+.1f%%, %+.1f%%], p=%.3g\n",
			i ? "pages read:" : "major faults:", 100 * e->est, 100 * e->lo,
			100 * e->hi, e->p);
	}
	fprintf(c->out, "verdict: %s (%s)\n", obs ? "observational" : abt_outcome_name(r.outcome),
		r.why);
	return RC_OK;
}

static int cmd_report(struct ctx *c, int argc, char **argv)
{
	const char *file = NULL, *every = NULL, *blocks = NULL, *per = NULL;
	struct sample *sm = calloc(MAX_SAMPLES, sizeof(*sm));
	bool json = false;
	uint64_t nb = 0, np = abt_default_plan.periods;
	double secs = 0;
	size_t n = 1;
	int ret = sm ? 0 : errmsg(c, "out of memory");

	for (int i = 1; i < argc && !ret; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!(ret = opt_val(argc, argv, &i, "--samples", &file)) &&
			 !(ret = opt_val(argc, argv, &i, "--every", &every)) &&
			 !(ret = opt_val(argc, argv, &i, "--periods", &per)) &&
			 !(ret = opt_val(argc, argv, &i, "--blocks", &blocks)))
			ret = -1;
		ret = ret < 0 ? usage(c, "ab report", "bad argument '%s'", esc(argv[i])) : 0;
	}
	if (!ret && (!every != !blocks || (file && every) || (per && !file)))
		ret = usage(c, "ab report", "--samples FILE [--periods N], or --every SECONDS with --blocks N");
	if (!ret && every) {
		char *end;

		secs = strtod(every, &end);
		if (*end || !isfinite(secs) || !(secs > 0 && secs <= 86400) ||
		    parse_u64(blocks, &nb) || nb < 1 || nb > ABT_MAX_PERIODS)
			ret = usage(c, "ab report", "--blocks takes 1 to %d, --every 0 to 86400 seconds",
				    ABT_MAX_PERIODS);
		np = nb;
	}
	if (!ret && per && (parse_u64(per, &np) || np < 1 || np > ABT_MAX_PERIODS))
		ret = usage(c, "ab report", "--periods takes 1 to %d", ABT_MAX_PERIODS);
	if (!ret && file)
		ret = read_samples(c, file, sm, &n);
	if (!ret && file && n < 1)
		ret = usage(c, "ab report", "%s has no samples", esc(file));
	if (!ret && every)
		ret = live_samples(c, secs, nb, sm);
	else if (!ret && !file && !(ret = take(c, &sm[1]))) {
		/* one snapshot: everything since the reset, one period */
		sm[0] = sm[1];
		memset(&sm[0].st, 0, sizeof(sm[0].st));
		memcpy(sm[0].st.bucket_arm, sm[1].st.bucket_arm, sizeof(sm[0].st.bucket_arm));
		n = 2;
	}
	if (!ret)
		ret = report(c, sm, every ? 2 * nb : n, (unsigned int)np, json);
	free(sm);
	return ret;
}

int cmd_ab(struct ctx *c, int argc, char **argv)
{
	if (argc < 2 || is_help(argv[1]))
		return argc < 2 ? usage(c, "ab", "needs a subcommand")
				: (fputs(usage_ab, c->out), RC_OK);
	if (!strcmp(argv[1], "set"))
		return set_arm(c, "ab set", ARM_B, argc - 1, argv + 1);
	if (!strcmp(argv[1], "assign"))
		return assign(c, argc - 1, argv + 1);
	if (!strcmp(argv[1], "status") && argc == 2)
		return status(c);
	if (!strcmp(argv[1], "sample") && argc == 2)
		return period(c, false);
	if (!strcmp(argv[1], "period") && argc == 2)
		return period(c, true);
	if (!strcmp(argv[1], "report"))
		return cmd_report(c, argc - 1, argv + 1);
	return usage(c, "ab", "unknown subcommand '%s'", esc(argv[1]));
}
