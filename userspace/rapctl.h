/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicyctl: the control tool of rapolicy.  See rapolicyctl(8).
 *
 * rapctl_policy.c: what rapolicyctl knows about the module (policy files,
 * set plans, profiles, counters, hook detection), on top of the I/O layer
 * of rapctl_sysfs.h.  rapctl_cmd.c: argument parsing and one function per
 * subcommand; rapctl_main() is the whole tool, writing to out and err.
 */
#ifndef RAPCTL_H
#define RAPCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit status */
#define RAPCTL_OK	0
#define RAPCTL_ERR	1	/* runtime error */
#define RAPCTL_USAGE	2	/* usage error */

/* One policy file: its values in file order and the current one */
struct rapctl_policy {
	char *name;
	char **values;
	size_t nr_values;
	size_t cur;
};

/* The policies of the module, in apply order */
struct rapctl_policies {
	struct rapctl_policy *v;
	size_t n;
};

/*
 * Parse a policy file's text, all values on one line separated by blanks
 * with exactly one in brackets ("off [folio]").  Fills p's values and cur
 * (not its name).  Returns 0, -EINVAL (not that format) or -ENOMEM.
 */
int rapctl_parse_choices(const char *text, struct rapctl_policy *p);
/* Free p's name and values */
void rapctl_policy_free(struct rapctl_policy *p);
/*
 * The value of file rel under the module's directory: the current one of
 * a bracket file, else its text (trailing newlines and blanks removed),
 * malloc'ed.  Returns 0 or -errno.
 */
int rapctl_read_value(const char *rel, char **out);

/*
 * Load every policy of a policy set: the regular files of dir (under the
 * module's directory: "" for arm A, "ab" for arm B) that hold the bracket
 * format, other than "version" and the A/B assignment files (mode, cgroup,
 * sample_permille, salt), the documented ones first in the order of the
 * ABI document (the order set applies them in), then any others by name.
 * A documented policy file that cannot be read or parsed is an error; an
 * undocumented one is skipped.  Returns 0 or -errno, with the file
 * concerned (relative to the module's directory) in bad.
 */
int rapctl_policies_load(struct rapctl_policies *ps, const char *dir,
			 char *bad, size_t badlen);
void rapctl_policies_free(struct rapctl_policies *ps);
const struct rapctl_policy *rapctl_policy_find(const struct rapctl_policies *ps,
					       const char *name);
/* Index of value in p's values, or -1 */
int rapctl_policy_value(const struct rapctl_policy *p, const char *value);
const char *rapctl_policy_current(const struct rapctl_policy *p);
/* Policy names separated by spaces, into buf */
void rapctl_policy_names(const struct rapctl_policies *ps, char *buf,
			 size_t size);
/* Allowed values of p separated by spaces, into buf */
void rapctl_policy_values(const struct rapctl_policy *p, char *buf,
			  size_t size);

/* One write of a set: the policy, its current value and the new one */
struct rapctl_change {
	const struct rapctl_policy *p;
	const char *from;
	const char *to;
};

/*
 * Check every POLICY=VALUE pair against ps and plan the writes: one change
 * per pair, in apply order (the order of ps).  Every problem is printed to
 * err, one line each ("rapolicyctl: ..."): a pair that is not
 * POLICY=VALUE, an unknown policy, a value not allowed, a policy given
 * twice.  Returns the number of problems; *plan (malloc'ed) is valid only
 * when that is 0.
 */
size_t rapctl_plan(const struct rapctl_policies *ps, const char *const *pairs,
		   size_t n, struct rapctl_change **plan, FILE *err);

struct rapctl_profile {
	const char *name;
	const char *desc;
	const char *const *pairs;	/* POLICY=VALUE, NULL-terminated */
	size_t nr_pairs;
};

/* The most pairs a profile has */
#define RAPCTL_PROFILE_MAX_PAIRS	16

extern const struct rapctl_profile rapctl_profiles[];
extern const size_t rapctl_nr_profiles;
const struct rapctl_profile *rapctl_profile_find(const char *name);
/* The first profile the current settings match exactly, or NULL */
const struct rapctl_profile *
rapctl_profile_match(const struct rapctl_policies *ps);

/* The counters of stats/ */
struct rapctl_stat {
	char *name;
	uint64_t value;
};

struct rapctl_stats {
	struct rapctl_stat *v;
	size_t n;
	const char *dir;	/* where they were read: "stats", "stats/a" */
};

/*
 * Read every regular file of dir (under the module's directory: "stats",
 * or an arm's "stats/a", "stats/b") except the write-only "reset", sorted
 * by name; subdirectories are left out.  dir must outlive st.  Returns 0
 * or -errno (-EINVAL for a file that does not hold one decimal number),
 * the file in bad.
 */
int rapctl_stats_load(struct rapctl_stats *st, const char *dir, char *bad,
		      size_t badlen);
/* Read the same counters again; same returns */
int rapctl_stats_reload(struct rapctl_stats *st, char *bad, size_t badlen);
const struct rapctl_stat *rapctl_stat_find(const struct rapctl_stats *st,
					   const char *name);
/* The value of counter name, 0 if st has no such counter */
uint64_t rapctl_stat_value(const struct rapctl_stats *st, const char *name);
void rapctl_stats_free(struct rapctl_stats *st);

/* The HELP text of a documented counter, or NULL (rapctl_stats.c) */
const char *rapctl_counter_help(const char *name);
/* Prometheus text format: a metric name ([a-zA-Z0-9_:], others as '_') */
void rapctl_prom_name(FILE *f, const char *s);
/* ... a label value between quotes, with \, " and newline escaped */
void rapctl_prom_label(FILE *f, const char *s);

/* Whether the running kernel has the readahead policy hooks */
enum rapctl_hooks {
	RAPCTL_HOOKS_UNKNOWN,
	RAPCTL_HOOKS_ABSENT,
	RAPCTL_HOOKS_PRESENT,
};

/* The exported symbol of the hook series (patch 0003) */
#define RAPCTL_HOOK_SYMBOL "readahead_policy_register"
#define RAPCTL_HOOK_CONFIG "CONFIG_READAHEAD_POLICY"

/*
 * Look for RAPCTL_HOOK_SYMBOL in /proc/kallsyms; when that cannot be read,
 * for RAPCTL_HOOK_CONFIG=y in /boot/config-$(uname -r).  how says what was
 * found where.
 */
enum rapctl_hooks rapctl_detect_hooks(char *how, size_t size);
/* Whether kallsyms text has a symbol named sym (any type, any module) */
bool rapctl_kallsyms_has(const char *text, const char *sym);
/* Whether kernel config text sets opt=y */
bool rapctl_config_has(const char *text, const char *opt);

int rapctl_main(int argc, char **argv, FILE *out, FILE *err);

#endif /* RAPCTL_H */
