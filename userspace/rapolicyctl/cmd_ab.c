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
#include <unistd.h>

#include "fleet.h"
#include "rapctl.h"
#include "util.h"

static const char usage_ab[] =
"Usage: rapolicyctl ab set POLICY=VALUE...\n"
"       rapolicyctl ab assign off | cgroup PATH | {sample|cgroup-sample} PERMILLE\n"
"                             [--salt S]\n"
"       rapolicyctl ab start [--periods N] [--period SECONDS] [--washout SECONDS]\n"
"                            [--run]\n"
"       rapolicyctl ab status\n"
"       rapolicyctl ab sample\n"
"       rapolicyctl ab period\n"
"       rapolicyctl ab step --samples FILE\n"
"       rapolicyctl ab report --samples FILE [--json]\n\n"
"Arm A is the top-level policy set, arm B the one under ab/.  'assign'\n"
"chooses which faults use arm B: none, those of tasks in a cgroup v2 (an\n"
"observational comparison), those of files in PERMILLE of 64 buckets that\n"
"a salt draws (files hash into the buckets by device and inode, keyed by\n"
"ab/key), or those of tasks whose cgroups are in them ('cgroup-sample';\n"
"'cgroups' is its old name).\n"
"'start' begins an experiment: a random key and salt, and a plan line\n"
"(periods, their length, the washout, the metric) that opens the samples\n"
"stream.  Each period opens with a washout whose counts are not\n"
"analysed: 'ab sample' after it opens the period, 'ab period' closes it\n"
"with a sample and draws the next salt (at 500 permille, every second\n"
"period swaps the previous one's arms).  With --run, start does this\n"
"itself and prints the stream.  'step' does what is due of the plan of\n"
"FILE (start's stream) and appends its sample to FILE: opening a period\n"
"once its washout has passed, closing it (and drawing the next salt)\n"
"once the period has; rapolicy-ab.timer runs it every minute.\n"
"'report' analyses the plan's periods of FILE, no other horizon: the\n"
"ratio of B's total major faults and pages read to A's, each arm scaled\n"
"to all 64 buckets, a randomization test and the interval it gives (98%\n"
"for faults, 99% for pages), and one of: B better, B worse, B worse\n"
"(I/O), no difference detected at this power, not enough data, invalid:\n"
"settings changed.  B better needs fewer major faults and pages read\n"
"below +5%; pages read above +5% is B worse (I/O) whatever the faults.\n"
"The totals printed are those of the periods analysed.\n";

#define MAX_SAMPLES 4096

struct sample {
	struct counters st;
	int mode;
	unsigned int permille;
	uint64_t salt, key, t_ms;
};

/* The plan line that opens a samples stream: ab start writes it */
struct plan {
	unsigned int periods, permille;
	uint64_t period_ms, washout_ms, key, t_ms;
	int mode;
	bool pairs;
};

#define PLAN_VERSION 1
#define SALT_SWAP (1ULL << 63)	/* the module's RAP_AB_SALT_SWAP */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Random bits from getrandom(); 53 of them keep a salt exact in any JSON reader */
static int random_u64(struct ctx *c, uint64_t *v)
{
	if (getrandom(v, sizeof(*v), 0) != sizeof(*v))
		return errmsg(c, "getrandom: %s", strerror(errno));
	return 0;
}

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
	} else if (nops == 2 && (!strcmp(argv[1], "sample") || !strcmp(argv[1], "cgroups") ||
				 !strcmp(argv[1], "cgroup-sample"))) {
		if (!strcmp(argv[1], "cgroups"))
			fprintf(c->err, "rapolicyctl: 'ab assign cgroups' is now 'ab assign cgroup-sample'\n");
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
		if (strcmp(argv[1], "sample")) {
			to.mode = AB_CGROUP;
			to.cgroup[0] = '\0';
		}
	} else {
		return usage(c, "ab assign", "expected off, cgroup PATH, sample PERMILLE or cgroup-sample PERMILLE [--salt S]");
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

	*sm = (struct sample){ s.st, s.ab.mode, s.ab.permille, s.ab.salt, s.ab.key, now_ms() };
	return ret;
}

static void print_sample(struct ctx *c, const struct sample *sm)
{
	json_t *o = json_counters(&sm->st);

	json_object_set_new(o, "mode", json_string(ab_modes[sm->mode]));
	json_object_set_new(o, "sample_permille", json_integer(sm->permille));
	json_object_set_new(o, "salt", json_u64(sm->salt));
	json_object_set_new(o, "key", json_u64(sm->key));
	json_object_set_new(o, "t_ms", json_u64(sm->t_ms));
	json_object_set_new(o, "buckets", json_buckets(&sm->st));
	json_out(c->out, o, true);
}

/* Complementary pairs: at 32 buckets in B, as the module rounds permille */
static bool pairs_of(unsigned int permille)
{
	return (permille * ABT_BUCKETS + 500) / 1000 == ABT_BUCKETS / 2;
}

/*
 * The next period's salt: at 32 buckets of 64 in B, the second period of
 * each pair swaps the first's arms; otherwise 53 fresh random bits.
 */
static int resalt(struct ctx *c, const struct sample *sm)
{
	uint64_t v = 0;
	char buf[24];
	int ret;

	if (pairs_of(sm->permille) && !(sm->salt & SALT_SWAP))
		v = sm->salt | SALT_SWAP;
	else if (random_u64(c, &v))
		return RC_ERR;
	else
		v >>= 11;
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	ret = rap_write("ab/salt", buf);
	return ret ? io_error(c, ret, "writing " RAP_DIR "/ab/salt") : 0;
}

/* Whether the salt draws the arms: sample mode or 'ab assign cgroups' */
static bool randomized(const struct sample *sm)
{
	return sm->mode != AB_OFF && sm->st.bucket_arm[0] != '-';
}

/*
 * ab sample; ab period: a sample that closes the period, then the next
 * period's salt; its washout starts there, and 'ab sample' opens it.
 */
static int period(struct ctx *c, bool next)
{
	struct sample sm;
	int ret = take(c, &sm);

	if (ret)
		return ret;
	if (next && !randomized(&sm))
		return errmsg(c, "ab period needs 'ab assign sample' or 'ab assign cgroup-sample'");
	print_sample(c, &sm);
	return next ? resalt(c, &sm) : RC_OK;
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
	    get_u64(j, "key", &sm->key) || get_u64(j, "t_ms", &sm->t_ms) ||
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

/* The plan line: {"plan": {...}} */
static json_t *json_plan(const struct plan *pl)
{
	json_t *o = json_pack("{s:i, s:i, s:o, s:o, s:s, s:s, s:i, s:b, s:o, s:o}",
			      "version", PLAN_VERSION, "periods", (int)pl->periods,
			      "period_ms", json_u64(pl->period_ms),
			      "washout_ms", json_u64(pl->washout_ms),
			      "metric", "total major faults and pages read, per arm",
			      "mode", ab_modes[pl->mode], "sample_permille", (int)pl->permille,
			      "pairs", pl->pairs, "key", json_u64(pl->key), "t_ms", json_u64(pl->t_ms));

	return json_pack("{s:o}", "plan", o);
}

static int parse_plan(const char *line, struct plan *pl)
{
	json_t *j = json_loads(line, 0, NULL), *o = json_object_get(j, "plan");
	const char *mode = NULL;
	int version = 0, periods = 0, permille = -1, pairs = 0;
	int ret = -EINVAL;

	if (o && !json_unpack(o, "{s:i, s:i, s:s, s:i, s:b}", "version", &version,
			      "periods", &periods, "mode", &mode, "sample_permille", &permille,
			      "pairs", &pairs) &&
	    version == PLAN_VERSION && periods >= 1 && periods <= ABT_MAX_PERIODS &&
	    permille >= 0 && permille <= 1000 &&
	    !get_u64(o, "period_ms", &pl->period_ms) && !get_u64(o, "washout_ms", &pl->washout_ms) &&
	    !get_u64(o, "key", &pl->key) && !get_u64(o, "t_ms", &pl->t_ms)) {
		pl->periods = (unsigned int)periods;
		pl->permille = (unsigned int)permille;
		pl->pairs = pairs;
		pl->mode = choice_index(&ab_mode_def, mode);
		ret = pl->mode >= 0 ? 0 : -EINVAL;
	}
	json_decref(j);
	return ret;
}

/* A samples stream: the plan line of 'ab start', then lines of 'ab sample' */
static int read_samples(struct ctx *c, const char *file, struct plan *pl,
			struct sample *sm, size_t *n)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char line[8192];
	int ret = 0;

	if (!f)
		return errmsg(c, "%s: %s", esc(file), strerror(errno));
	if (!fgets(line, sizeof(line), f) || parse_plan(line, pl))
		ret = errmsg(c, "%s: no plan line: samples from before 'rapolicyctl ab start' are not analysed; start an experiment with it",
			     esc(file));
	for (*n = 0; !ret && fgets(line, sizeof(line), f); ++*n)
		if (*n == MAX_SAMPLES || parse_sample(line, &sm[*n]))
			ret = usage(c, "ab report", "%s:%zu: not a line of 'rapolicyctl ab sample'",
				    esc(file), *n + 2);
	if (f != stdin)
		fclose(f);
	return ret;
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
			    const struct plan *pl, unsigned int *early, uint64_t (*tot)[NR_ST])
{
	unsigned int np = 0, planned = pl->periods;

	*early = 0;
	if (n && sm[0].t_ms - pl->t_ms < pl->washout_ms)
		*early = 1;
	for (size_t i = 1; i < n; i++) {
		const struct counters *a = &sm[i - 1].st, *b = &sm[i].st;
		struct abt_period *q = &p[np];

		if (!same_assignment(&sm[i - 1], &sm[i])) {
			np += i > 1 && same_assignment(&sm[i - 2], &sm[i - 1]);
			/* the period opened within the washout after its salt */
			if (!*early && np < planned && sm[i].t_ms - sm[i - 1].t_ms < pl->washout_ms)
				*early = np + 1;
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
			      sm[i].mode == AB_OFF || sm[i].key != pl->key ||
			      sm[i].mode != pl->mode || sm[i].permille != pl->permille;
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

static int report(struct ctx *c, const struct plan *pl, const struct sample *sm, size_t n,
		  bool json)
{
	static struct abt_period p[ABT_MAX_PERIODS];
	struct abt_plan plan = abt_default_plan;
	uint64_t tot[NR_ARMS][NR_ST] = { { 0 } };
	const int metric[3] = { ST_sync_miss, ST_pages_read, ST_ledger_wasted };
	static const char *const label[3] = { "major faults (sync_miss)",
		"pages read (pages_read)", "pages wasted (ledger_wasted)" };
	unsigned int planned = pl->periods, np, early;
	int mode = n ? sm[n - 1].mode : pl->mode;
	bool tested, obs = n && mode != AB_OFF && !randomized(&sm[n - 1]);
	struct abt_result r;

	memset(p, 0, sizeof(p));
	np = periods(sm, n, p, pl, &early, tot);
	plan.periods = planned;
	plan.pairs = pl->pairs;
	abt_analyse(p, np, &plan, &r);
	if (early && r.outcome != ABT_NOT_ENOUGH_DATA) {
		r.outcome = ABT_INVALID;
		snprintf(r.why, sizeof(r.why),
			 "period %u opened within its washout of %llu s after the salt", early,
			 (unsigned long long)(pl->washout_ms / 1000));
	}
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
			json_object_set_new(o, arm ? "b" : "a", json_pack("{s:o, s:o, s:o}",
				"major_faults", json_u64(tot[arm][ST_sync_miss]),
				"pages_read", json_u64(tot[arm][ST_pages_read]),
				"pages_wasted", json_u64(tot[arm][ST_ledger_wasted])));
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
	for (int i = 0; i < 3; i++)
		fprintf(c->out, "%-30s  %20llu  %20llu\n", label[i],
			(unsigned long long)tot[ARM_A][metric[i]],
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
	const char *file = NULL, *per = NULL;
	struct sample *sm = calloc(MAX_SAMPLES, sizeof(*sm));
	struct plan pl = { 0 };
	bool json = false;
	uint64_t np = 0;
	size_t n = 0;
	int ret = sm ? 0 : errmsg(c, "out of memory");

	for (int i = 1; i < argc && !ret; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!(ret = opt_val(argc, argv, &i, "--samples", &file)) &&
			 !(ret = opt_val(argc, argv, &i, "--periods", &per)))
			ret = -1;
		ret = ret < 0 ? usage(c, "ab report", "bad argument '%s'", esc(argv[i])) : 0;
	}
	if (!ret && !file)
		ret = usage(c, "ab report", "needs --samples FILE, the stream of 'ab start'");
	if (!ret && per && (parse_u64(per, &np) || np < 1 || np > ABT_MAX_PERIODS))
		ret = usage(c, "ab report", "--periods takes 1 to %d", ABT_MAX_PERIODS);
	if (!ret)
		ret = read_samples(c, file, &pl, sm, &n);
	/* the horizon is the plan's: a look at another one is refused */
	if (!ret && per && np != pl.periods)
		ret = usage(c, "ab report", "the plan is %u periods: the report analyses those, no other horizon",
			    pl.periods);
	if (!ret)
		ret = report(c, &pl, sm, n, json);
	free(sm);
	return ret;
}

/* Seconds, 0 to a day, as milliseconds */
static int parse_secs(const char *v, uint64_t *ms)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (errno || *end || !*v || !(d >= 0 && d <= 86400))
		return -EINVAL;
	*ms = (uint64_t)(d * 1000 + 0.5);
	return 0;
}

static void sleep_ms(uint64_t ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The tool's own loop: per period a washout, a sample, the period, a sample */
static int run_plan(struct ctx *c, const struct plan *pl)
{
	struct sample sm;

	for (unsigned int i = 0; i < pl->periods; i++) {
		sleep_ms(pl->washout_ms);
		if (take(c, &sm))
			return RC_ERR;
		print_sample(c, &sm);
		fflush(c->out);
		sleep_ms(pl->period_ms);
		if (period(c, i + 1 < pl->periods))
			return RC_ERR;
		fflush(c->out);
	}
	return RC_OK;
}

/*
 * ab start: a random key and salt for this experiment on this host, and
 * the plan line; with --run, the periods themselves.
 */
static int cmd_start(struct ctx *c, int argc, char **argv)
{
	const char *per = NULL, *len = NULL, *wash = NULL;
	struct plan pl = { .periods = 6, .period_ms = 3600000, .washout_ms = 600000 };
	struct rap_state s;
	uint64_t v, key, salt;
	bool run = false;
	char buf[24];
	int ret = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--run"))
			run = true;
		else if (!(ret = opt_val(argc, argv, &i, "--periods", &per)) &&
			 !(ret = opt_val(argc, argv, &i, "--period", &len)) &&
			 !(ret = opt_val(argc, argv, &i, "--washout", &wash)))
			ret = -1;
		if (ret < 0)
			return usage(c, "ab start", "bad argument '%s'", esc(argv[i]));
		ret = 0;
	}
	if (per && (parse_u64(per, &v) || v < 1 || v > ABT_MAX_PERIODS))
		return usage(c, "ab start", "--periods takes 1 to %d", ABT_MAX_PERIODS);
	if (per)
		pl.periods = (unsigned int)v;
	if ((len && parse_secs(len, &pl.period_ms)) || (wash && parse_secs(wash, &pl.washout_ms)))
		return usage(c, "ab start", "--period and --washout take 0 to 86400 seconds");
	ret = need_state(c, &s);
	if (ret)
		return ret;
	if (s.ab.mode == AB_OFF || (s.ab.mode == AB_CGROUP && *s.ab.cgroup))
		return errmsg(c, "ab start needs 'ab assign sample PERMILLE' or 'ab assign cgroup-sample PERMILLE'");
	if (!s.ab.has_key)
		return errmsg(c, "this module has no %s/ab/key: per-experiment keys need a newer rapolicy", RAP_DIR);
	pl.pairs = pl.periods % 2 == 0 && pairs_of(s.ab.permille);
	if (random_u64(c, &key) || random_u64(c, &salt))
		return RC_ERR;
	key >>= 11;	/* exact in any JSON reader, as the salt */
	salt >>= 11;
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)key);
	ret = rap_write("ab/key", buf);
	if (ret)
		return io_error(c, ret, "writing " RAP_DIR "/ab/key");
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)salt);
	ret = rap_write("ab/salt", buf);
	if (ret)
		return io_error(c, ret, "writing " RAP_DIR "/ab/salt");
	pl.key = key;
	pl.mode = s.ab.mode;
	pl.permille = s.ab.permille;
	pl.t_ms = now_ms();
	json_out(c->out, json_plan(&pl), true);
	fflush(c->out);
	return run ? run_plan(c, &pl) : RC_OK;
}

/*
 * ab step --samples FILE: what is due of the plan of FILE, appended to
 * it.  Sample 2i opens period i once its washout has passed since the
 * last line; sample 2i + 1 closes it once the period has passed, then
 * the next salt is drawn, as 'ab period' does (not after the last).
 * Nothing is due: nothing is written.  rapolicy-ab.timer runs it every
 * minute, so a period is as long as planned to within a minute.
 */
static int cmd_step(struct ctx *c, int argc, char **argv)
{
	const char *file = NULL;
	struct sample *sm = calloc(MAX_SAMPLES, sizeof(*sm)), now;
	struct plan pl = { 0 };
	FILE *out = c->out, *f = NULL;
	uint64_t last, wait;
	size_t n = 0;
	int ret = sm ? 0 : errmsg(c, "out of memory"), i = 1;

	if (!ret && (argc < 2 || opt_val(argc, argv, &i, "--samples", &file) != 1 || i != argc - 1))
		ret = usage(c, "ab step", "needs --samples FILE, the stream of 'ab start'");
	if (!ret)
		ret = read_samples(c, file, &pl, sm, &n);
	if (ret || n >= 2 * (size_t)pl.periods)
		goto out;
	last = n ? sm[n - 1].t_ms : pl.t_ms;
	wait = n % 2 ? pl.period_ms : pl.washout_ms;
	ret = take(c, &now);
	if (!ret && (now.key != pl.key || !randomized(&now)))
		ret = errmsg(c, "%s: the module's key or mode is not the plan's: the experiment ended; nothing written",
			     esc(file));
	if (ret || now.t_ms - last < wait)
		goto out;
	if (!(f = fopen(file, "a")))
		ret = errmsg(c, "%s: %s", esc(file), strerror(errno));
	if (ret)
		goto out;
	c->out = f;
	print_sample(c, &now);
	c->out = out;
	if (fclose(f))
		ret = errmsg(c, "%s: %s", esc(file), strerror(errno));
	if (!ret && n % 2 && n + 1 < 2 * (size_t)pl.periods)
		ret = resalt(c, &now);
out:
	free(sm);
	return ret;
}

/*
 * Settled: the experiment of the plan is the module's (key, mode,
 * permille), none of its periods had a change or opened within its
 * washout, and since the last sample at most the salt changed.  Else the
 * host is in transition and exports no estimate, whatever its counts say.
 */
static bool settled(const struct plan *pl, const struct sample *sm, size_t n,
		    const struct abt_period *p, unsigned int np, unsigned int early,
		    const struct rap_state *s)
{
	const struct sample *last = &sm[n - 1];

	if (early || s->ab.mode != pl->mode || s->ab.permille != pl->permille ||
	    !s->ab.has_key || s->ab.key != pl->key || !randomized(last) ||
	    counter_delta(last->st.settings_changed, s->st.settings_changed) >
	    (s->ab.salt != last->salt))
		return false;
	for (unsigned int i = 0; i < np; i++)
		if (p[i].changed)
			return false;
	return true;
}

void ab_fleet_prometheus(struct ctx *c, FILE *f, const char *file, const struct rap_state *s)
{
	static struct abt_period p[ABT_MAX_PERIODS];
	static const char *const names[ABT_NR_METRICS] = { "major_faults", "pages_read" };
	uint64_t tot[NR_ARMS][NR_ST] = { { 0 } };
	struct sample *sm = calloc(MAX_SAMPLES, sizeof(*sm));
	struct abf_host h = { 0 };
	struct plan pl = { 0 };
	unsigned int np, early;
	size_t n = 0;

	if (!sm || access(file, F_OK) || read_samples(c, file, &pl, sm, &n) || n < 2)
		goto out;
	memset(p, 0, sizeof(p));
	np = periods(sm, n, p, &pl, &early, tot);
	if (np > pl.periods)
		np = pl.periods;
	if (!settled(&pl, sm, n, p, np, early, s))
		goto out;
	abf_host(p, np, &h);
	if (!h.periods || h.m[ABT_FAULTS].var <= 0)
		goto out;
	prom_head(f, "rapolicy_ab_periods", "gauge",
		  "Periods of this host's settled A/B experiment in rapolicy_ab_effect.");
	fprintf(f, "rapolicy_ab_periods{key=\"%llu\"} %u\n", (unsigned long long)pl.key,
		h.periods);
	prom_head(f, "rapolicy_ab_effect", "gauge",
		  "B against A on this host, ln(B's total / A's total) to first order, each arm scaled to all buckets.");
	for (int m = 0; m < ABT_NR_METRICS; m++)
		if (h.m[m].var > 0)
			fprintf(f, "rapolicy_ab_effect{key=\"%llu\",metric=\"%s\"} %.9g\n",
				(unsigned long long)pl.key, names[m], h.m[m].est);
	prom_head(f, "rapolicy_ab_effect_variance", "gauge",
		  "The variance of rapolicy_ab_effect under no effect: its weight in the fleet's pooling.");
	for (int m = 0; m < ABT_NR_METRICS; m++)
		if (h.m[m].var > 0)
			fprintf(f, "rapolicy_ab_effect_variance{key=\"%llu\",metric=\"%s\"} %.9g\n",
				(unsigned long long)pl.key, names[m], h.m[m].var);
	prom_head(f, "rapolicy_ab_arm_scaled", "gauge",
		  "An arm's count over this host's periods in rapolicy_ab_effect, scaled to all buckets: the fleet's change in totals sums them.");
	for (int m = 0; m < ABT_NR_METRICS; m++)
		for (int a = 0; a < 2 && h.m[m].var > 0; a++)
			fprintf(f, "rapolicy_ab_arm_scaled{key=\"%llu\",metric=\"%s\",arm=\"%c\"} %.9g\n",
				(unsigned long long)pl.key, names[m], "ab"[a], h.total[a][m]);
out:
	free(sm);
}

int cmd_ab(struct ctx *c, int argc, char **argv)
{
	if (argc < 2 || is_help(argv[1]))
		return argc < 2 ? usage(c, "ab", "needs a subcommand")
				: (fputs(usage_ab, c->out), RC_OK);
	/* every subcommand's --help: the usage of them all */
	for (int i = 2; i < argc; i++)
		if (is_help(argv[i]))
			return fputs(usage_ab, c->out), RC_OK;
	if (!strcmp(argv[1], "start"))
		return cmd_start(c, argc - 1, argv + 1);
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
	if (!strcmp(argv[1], "step"))
		return cmd_step(c, argc - 1, argv + 1);
	return usage(c, "ab", "unknown subcommand '%s'", esc(argv[1]));
}
