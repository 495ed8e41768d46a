/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicyctl: what the subcommand files (rapctl_cmd.c, rapctl_stats.c)
 * share: the output streams, messages in the tool's format, argument
 * helpers, and loading module state with the errors reported.
 */
#ifndef RAPCTL_CMD_H
#define RAPCTL_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "rapctl.h"

struct rapctl_ctx {
	FILE *out;
	FILE *err;
};

/* A command's argument parser saw --help and printed the usage */
#define HELP_SHOWN	(-1)

/* "rapolicyctl: MESSAGE" on err */
void rapctl_errmsg(struct rapctl_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A usage error of command cmd (NULL: of the global options), with a
 * pointer to its --help; returns RAPCTL_USAGE.
 */
int rapctl_usage_error(struct rapctl_ctx *c, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * An I/O error (-errno) while doing what to rel under the rapolicy
 * directory; "permission denied: run as root" for EACCES and EPERM.
 * Returns RAPCTL_ERR.
 */
int rapctl_io_error(struct rapctl_ctx *c, int err, const char *what, const char *rel);

/*
 * argv[*i] is --name VALUE or --name=VALUE: 1 with the value in *val and
 * *i on the last argument used; -1 when VALUE is missing; 0 for another
 * argument.
 */
int rapctl_opt_value(int argc, char **argv, int *i, const char *name, const char **val);

/* -h or --help */
bool rapctl_is_help(const char *a);

/*
 * For a command that takes operands and no option but --help: moves the
 * operands to argv[1..*nops].  Returns 0, HELP_SHOWN (usage printed), or
 * RAPCTL_USAGE for an unknown option of command name.  "--" ends the
 * options.
 */
int rapctl_plain_args(struct rapctl_ctx *c, const char *name, const char *usage,
		      int argc, char **argv, int *nops);

/* 0 when the module is loaded, else RAPCTL_ERR with the reason printed */
int rapctl_require_module(struct rapctl_ctx *c);

/*
 * Load the policies of dir ("" arm A, "ab" arm B), or the counters of dir
 * ("stats", "stats/a", ...; NULL reads st's counters again); 0, or
 * RAPCTL_ERR with the error printed
 */
int rapctl_load_policies(struct rapctl_ctx *c, const char *dir,
			 struct rapctl_policies *ps);
int rapctl_load_stats(struct rapctl_ctx *c, struct rapctl_stats *st,
		      const char *dir);

/* One file write of a change: the file, its name in messages, old and new */
struct rapctl_update {
	char rel[320];		/* under the module's directory: "ab/pmd_hit" */
	const char *name;	/* "pmd_hit" */
	const char *from;	/* "" for an empty file */
	const char *to;
};

/*
 * Write u[0..n) in order, skipping those whose value does not change (an
 * empty value is written as a newline, which the module reads as empty).
 * If a write fails: report it, write the old values of the ones already
 * written back (newest first, each reported), and of the failed one too
 * if it no longer shows its old value (a short write lands), then
 * "nothing was changed" or, if an undo failed too, stay.  Returns 0 or
 * RAPCTL_ERR.
 */
int rapctl_apply_updates(struct rapctl_ctx *c, const struct rapctl_update *u,
			 size_t n, const char *stay);
/* "NAME: OLD -> NEW" or "NAME: VALUE (unchanged)" per update, on out */
void rapctl_report_updates(struct rapctl_ctx *c, const struct rapctl_update *u,
			   size_t n);

/*
 * set and ab set: check POLICY=VALUE pairs[0..n) against the policy set
 * of dir and write them all or none (see rapolicyctl(8)); cmd names the
 * command in usage errors.  Returns the exit status.
 */
int rapctl_set_pairs(struct rapctl_ctx *c, const char *cmd, const char *dir,
		     char **pairs, int n);

/* The module's version, malloc'ed; "unknown" if it cannot be read */
char *rapctl_read_version(void);

/* rapctl_stats.c */
extern const char rapctl_usage_stats[];
int rapctl_cmd_stats(struct rapctl_ctx *c, int argc, char **argv);

/* rapctl_ab.c */
extern const char rapctl_usage_ab[];
int rapctl_cmd_ab(struct rapctl_ctx *c, int argc, char **argv);
/* The "ab:" line of status, when the module has ab/; 0 or RAPCTL_ERR */
int rapctl_status_ab(struct rapctl_ctx *c);
/* The module has no ab/: say so; returns RAPCTL_ERR */
int rapctl_no_ab(struct rapctl_ctx *c);

#endif /* RAPCTL_CMD_H */
