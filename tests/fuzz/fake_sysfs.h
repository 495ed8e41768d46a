/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake /sys/kernel/mm/rapolicy for the rapolicyctl harnesses: a tree of
 * empty files in a temporary directory (so that directory listings work)
 * whose contents live in memory.  rapctl_io's hooks read them from memory
 * and write them as the module does (a bracket file takes one of its
 * values, -EINVAL otherwise), never touching the disk; chosen writes
 * fail, or are short.
 */
#ifndef RAP_FAKE_SYSFS_H
#define RAP_FAKE_SYSFS_H

#include <stdbool.h>
#include <stddef.h>

struct fake_file {
	const char *rel;	/* under kernel/mm/rapolicy/ */
	const char *init;	/* the module's content */
	char *text;		/* the current content */
	char *snap;		/* the content at fake_snapshot() */
};

extern struct fake_file fake_files[];
extern const size_t fake_nr_files;

/* The sysfs root, the proc root (with self/mountinfo) */
extern char fake_sys[256], fake_proc[256];

/* Make the tree and install the hooks (once); 0 or -1 */
int fake_init(void);
/* Every file back to its initial content, no failures planned */
void fake_reset(void);
/* Set file i's content (the harness's hostile input) */
void fake_set(size_t i, const char *text);
/* Remember every file's content; whether each still has it */
void fake_snapshot(void);
bool fake_unchanged(void);

/*
 * Write number n (from 1) fails: with -fail_errno, or, if fail_short,
 * stores the value as the module does and returns -EIO, as a short
 * write() does for rapctl_io_real.write().
 */
extern unsigned int fake_fail_write;
extern int fake_fail_errno;
extern bool fake_fail_short;

/* rapctl_main() on argv; stdout and stderr in *out, *err (malloc'ed) */
int fake_run(int argc, char **argv, char **out, char **err);

#endif /* RAP_FAKE_SYSFS_H */
