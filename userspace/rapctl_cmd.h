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

/* 0 when the module is loaded, else RAPCTL_ERR with the reason printed */
int rapctl_require_module(struct rapctl_ctx *c);

/* Load the policies or the counters; 0, or RAPCTL_ERR with the error printed */
int rapctl_load_policies(struct rapctl_ctx *c, struct rapctl_policies *ps);
int rapctl_load_stats(struct rapctl_ctx *c, struct rapctl_stats *st, bool reload);

/* The module's version, malloc'ed; "unknown" if it cannot be read */
char *rapctl_read_version(void);

/* rapctl_stats.c */
extern const char rapctl_usage_stats[];
int rapctl_cmd_stats(struct rapctl_ctx *c, int argc, char **argv);

#endif /* RAPCTL_CMD_H */
