/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the host tests of rapolicyctl share: TAP output, fake trees in a
 * temporary directory, I/O hooks that act as the kernel does (and fail
 * chosen writes), and running the tool in-process or as a program.
 */
#ifndef RAPCTL_TEST_H
#define RAPCTL_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The module's directory under a sysfs root */
#define RAP "kernel/mm/rapolicy/"

#include "tap.h"
/* s is not NULL and has sub */
bool has(const char *s, const char *sub);

/* The temporary directory of the fake trees, and a path in it */
extern char tmpdir[256];
void tmp_path(char *buf, size_t size, const char *name);
/* Write text to dir/rel (exits on failure); read it back (static buffer) */
void put(const char *dir, const char *rel, const char *text);
const char *get(const char *dir, const char *rel);
/* mkdir -p dir/rel */
void mkdirs(const char *dir, const char *rel);

/*
 * The I/O hooks.  kernel_write() acts as sysfs does: a file that shows
 * bracketed values takes one of them (the file is rewritten with it in
 * brackets) and -EINVAL for anything else; other files take what is
 * written.  Writes are counted in nwrites and logged in wlog as
 * "BASENAME=VALUE " ("!" after a failed one); bit n of fail_mask makes
 * the n-th write (from 1) fail with fail_err.  reset_hooks() puts the
 * real I/O back and clears all that.
 */
extern unsigned int nwrites;
extern uint64_t fail_mask;
extern int fail_err;
extern char wlog[4096];
void reset_hooks(void);
int kernel_write(const char *path, const char *s);

/* rapctl_main() on the blank-separated words of the line; output in OUT, ERR */
extern char *OUT, *ERR;
int ctl(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A shell command's exit status, its stdout in *out (malloc'ed) */
int run(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Make tmpdir (0, or 1 after a failed test); remove it and print the plan */
void completion(const char *bindir, const char *sys, const char *line,
		const char *want);

int test_begin(const char *name);
int test_end(void);

#endif /* RAPCTL_TEST_H */
