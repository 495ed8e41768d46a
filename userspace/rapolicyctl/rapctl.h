/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicyctl: the control tool of rapolicy.ko, see rapolicyctl(8).
 *
 * Layers, each using only those above it (no cycles):
 *   sysfs.c    the one I/O seam (a root directory), the module's state as
 *              read from its files, planned and rolled-back writes
 *   ../abtest  the A/B analysis (a library of its own, pure arithmetic)
 *   fmt.c      output: escaping, text tables, JSON, Prometheus
 *   cli.c      messages and option parsing
 *   cmd_*.c    one function per subcommand; main.c dispatches
 *
 * The policies, their values and the counters come from module/table.h.
 */
#ifndef RAPCTL_H
#define RAPCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "abtest.h"

#define RC_OK		0
#define RC_ERR		1	/* runtime error, drift, module missing */
#define RC_USAGE	2	/* bad command line or bad input */

#define RAP_DIR		"/sys/kernel/mm/rapolicy"
#define RAP_HOOK_SYM	"readahead_policy_register"

/*
 * The policies, then the knobs: the numbers of each arm (module/table.h's
 * RAP_KNOB, such as the bound on its stream tracker's table), which get
 * and status show with them and set, save and apply take when settable
 */
enum {
#define RAP_POLICY(name, orders, help, ...) POL_##name,
#include "table.h"
	NR_POL
};
enum {
	POL_KNOBS_BEFORE = NR_POL - 1,
#define RAP_KNOB(name, settable, at_load, unit, help) POL_##name,
#include "table.h"
	NR_SHOWN
};

enum {
#define RAP_STAT(name, help) ST_##name,
#include "table.h"
	NR_ST
};

struct pol_def {
	const char *name, *help;
	const char *const *values;	/* named values, stock first */
	unsigned int nr;
	bool order;			/* also takes a folio order */
	bool settable;			/* a policy, or a knob that takes writes */
	const char *at_load, *unit;	/* a knob's */
};

extern const struct pol_def pol_defs[NR_SHOWN];
extern const char *const st_names[NR_ST];
extern const char *const st_help[NR_ST];
extern const char *const ab_modes[3];
extern const struct pol_def ab_mode_def;	/* ab/mode, a choice file too */

enum { ARM_A, ARM_B, NR_ARMS };
enum { AB_OFF, AB_CGROUP, AB_SAMPLE };
#define VAL_LEN 16

/* One arm's policies and numbers: the value of each, as the module spells it */
struct arm_set {
	char v[NR_SHOWN][VAL_LEN];
};

struct ab_conf {
	int mode;
	char cgroup[512];
	unsigned int permille;
	uint64_t salt;
	uint64_t key;		/* of the bucket hash, ab/key */
	bool has_key;		/* the module has ab/key */
};

/* stats/buckets: per A/B bucket its arm ('a', 'b', '-') and two counts */
enum { BK_MISS, BK_PAGES, NR_BK };
struct counters {
	uint64_t c[NR_ARMS][NR_ST];
	uint64_t elapsed_ms;
	uint64_t settings_changed;
	uint64_t bucket[ABT_BUCKETS][NR_BK];
	char bucket_arm[ABT_BUCKETS];
	uint64_t absent;	/* bit i: counter i has no file (an older module) */
};

/*
 * What the kernel's file of a policy lists of the table's values: the
 * module leaves out what this kernel cannot honour, and an older module
 * may lack the file altogether (absent: unavailable, at stock).
 */
struct pol_avail {
	bool absent;
	uint64_t listed;	/* bit i: value i, names first, then orders */
	unsigned int max_order;	/* the largest order listed */
};

/*
 * The module's version need not be the tool's: what each has is read from
 * its files. A module one version older lacks files (absent: at stock, or
 * a counter of 0 that is not shown); a newer one has files and values the
 * table does not name (extra: left alone).
 */
struct rap_state {
	char version[64];
	bool skew;		/* version is not RAPOLICY_VERSION */
	char extra[512];	/* " NAME POLICY=VALUE ...": what the table lacks */
	struct arm_set arm[NR_ARMS];
	struct pol_avail avail[NR_SHOWN];
	struct ab_conf ab;
	struct counters st;
};

/* sysfs.c: the root directory ("" is /) and paths under it */
extern const char *rap_root;
int rap_path(char *buf, size_t size, const char *abs);
bool rap_loaded(void);
int rap_hooks(void);	/* 1: the kernel has the hooks, 0: not, -1: unknown */
/* 0 or -errno with the file in bad (-EPROTO: not this tool's format) */
int rap_load(struct rap_state *s, char *bad, size_t badlen);
int rap_load_counters(struct counters *st, char *bad, size_t badlen);
/*
 * What a counter added from prev to cur; one that went down was reset
 * (stats/reset, a module reload) and counts from 0, as Prometheus'
 * rate() takes it: never a wrap to 2^64
 */
uint64_t counter_delta(uint64_t prev, uint64_t cur);
void counters_delta(const struct counters *prev, const struct counters *cur,
		    struct counters *d);
int pol_find(const char *name);	/* -1: no such policy (or number) */
/* The index of tok among d's values: names, then orders; -1 if none */
int choice_index(const struct pol_def *d, const char *tok);
/* A value of the table (orders up to the module's largest); a bound: KiB */
bool pol_valid(const struct rap_state *s, int p, const char *val);
/* A value the module lists: one this kernel honours */
bool pol_available(const struct rap_state *s, int p, const char *val);
/*
 * What the module lacks of the table, up to max entries: "policy" for a
 * policy file it does not have, "policy=value" for a value its file does
 * not list (orders up to the largest it lists)
 */
#define UNAV_LEN 48
#define UNAV_MAX 64
unsigned int rap_unavailable(const struct rap_state *s, char (*out)[UNAV_LEN],
			     unsigned int max);
/*
 * What differs between the module and the table, one line: "module 0.0.9,
 * rapolicyctl 0.1.0: the module lacks ...; it has ..."; "" when nothing
 */
const char *rap_differs(const struct rap_state *s, char *buf, size_t size);

/* One write; the old value is what a rollback writes back */
struct write {
	char file[64];		/* under RAP_DIR: "ab/pmd_hit" */
	char from[512];
	char to[512];
};
/*
 * Write w[0..n) in order; on a failure write the old values back (*undo:
 * 0 when there was none to write back, 1 when all were, -1 when not)
 */
int rap_apply(const struct write *w, size_t n, size_t *failed, int *undo);
int rap_write(const char *file, const char *s);

/* Profiles: every policy of an arm, stock where pairs say nothing */
struct profile {
	const char *name, *desc, *pairs;	/* pairs: "policy=value ..." */
};
extern const struct profile profiles[];
extern const size_t nr_profiles;
const struct profile *profile_find(const char *name);
void profile_values(const struct profile *pr, struct arm_set *out);
/* The policies in which a differs from pr */
unsigned int profile_diff(const struct profile *pr, const struct arm_set *a);

/*
 * fmt.c; esc(): s escaped and capped for messages, quotes too (it is
 * echoed in '...'); esc_text(): the same but for quotes (a library's
 * message: "'{' expected near 'x'")
 */
const char *esc(const char *s);
const char *esc_text(const char *s);
void print_prometheus(FILE *f, const struct rap_state *s, bool up);
/* The # HELP and # TYPE lines of a Prometheus family */
void prom_head(FILE *f, const char *name, const char *type, const char *help);
/* JSON (jansson's json_t *, as void * to keep jansson.h out of here) */
void *json_value(int p, const char *v);	/* a string, or a number's integer */
/* rap_unavailable() as an array of strings */
void *json_unavailable(const struct rap_state *s);
void *json_ab(const struct ab_conf *ab);
void *json_counters(const struct counters *st);
void *json_buckets(const struct counters *st);
/* Each arm's values: all, or those apply takes (settable) */
void *json_state(const struct rap_state *s, bool settable);
/* "off", "cgroup PATH", "sample|cgroups N permille, salt S" */
const char *ab_line(const struct ab_conf *ab, char *buf, size_t size);
/* u64 as a JSON integer, above INT64_MAX as a decimal string; and back */
void *json_u64(uint64_t v);
int json_get_u64(const void *j, uint64_t *v);
void json_out(FILE *f, void *j, bool compact);
unsigned int json_outs(void);	/* how many json_out() printed so far */

/* cli.c; with json, a failure's first message is also kept in msg */
struct ctx {
	FILE *out, *err;
	bool json;
	char msg[1024];
};
int errmsg(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int usage(struct ctx *c, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int io_error(struct ctx *c, int err, const char *what);
/* io_error() on @file of RAP_DIR */
int file_error(struct ctx *c, int err, const char *file);
int need_state(struct ctx *c, struct rap_state *s);
bool is_help(const char *a);
/* --name V or --name=V: 1 (value in *v), 0 not it, -1 V missing */
int opt_val(int argc, char **argv, int *i, const char *name, const char **v);
int parse_pairs(struct ctx *c, const char *cmd, const struct rap_state *s,
		char **pairs, int n, struct arm_set *out);
/* RC_ERR and a line per value to writes into arm that the module does not list */
int arm_available(struct ctx *c, const struct rap_state *s, int arm,
		  const struct arm_set *to);
size_t plan_arm(struct write *w, int arm, const struct arm_set *from,
		const struct arm_set *to);
/* The knobs' help: the settable ones, or all */
void help_knobs(FILE *f, bool settable);
int apply_report(struct ctx *c, const struct write *w, size_t n);
/* Closest profile to a and the policies that differ (0: exact) */
const struct profile *profile_match(const struct arm_set *a, unsigned int *diff);

/* cli.c: set and ab set, A/B assignment writes */
int set_arm(struct ctx *c, const char *cmd, int arm, int argc, char **argv);
int cgroup_path(const char *in, char *out, size_t size);
size_t plan_ab(struct write *w, const struct ab_conf *from, const struct ab_conf *to);

/* The subcommands */
int cmd_status(struct ctx *c, int argc, char **argv);
int cmd_get(struct ctx *c, int argc, char **argv);
int cmd_set(struct ctx *c, int argc, char **argv);
int cmd_profile(struct ctx *c, int argc, char **argv);
int cmd_save(struct ctx *c, int argc, char **argv);
int cmd_apply(struct ctx *c, int argc, char **argv);
int cmd_stats(struct ctx *c, int argc, char **argv);
int cmd_ab(struct ctx *c, int argc, char **argv);
/*
 * The fleet's part of stats --prometheus: this host's estimate from the
 * samples stream FILE of 'ab start', while its experiment is settled
 */
void ab_fleet_prometheus(struct ctx *c, FILE *f, const char *file, const struct rap_state *s);
int cmd_policies(struct ctx *c, int argc, char **argv);
int cmd_trace(struct ctx *c, int argc, char **argv);
int rapctl_main(int argc, char **argv, FILE *out, FILE *err);

#endif /* RAPCTL_H */
