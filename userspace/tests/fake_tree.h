/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one fake tree of the tests: DIR/sys/kernel/mm/rapolicy as the module
 * builds it from module/table.h, DIR/proc/kallsyms with the hook symbol and
 * an empty cgroup2 root at DIR/sys/fs/cgroup.  Files are plain, so a write
 * leaves the written word; fake_tree_settle() turns it back into what the
 * module would show ("off [folio] stream"; a write to stats/reset zeroes the
 * counters; a streams_max_kb the module would refuse goes back to the bound
 * it held).  Returns 0 or -errno.
 *
 * lacking (NULL: nothing) fakes a kernel that cannot honour everything of
 * the table: "POLICY" leaves out a policy's files (an older module),
 * "POLICY=VALUE" leaves a value out of its files (a kernel that cannot
 * honour it), "streams_max_kb" leaves out streams_max_kb and streams_bytes
 * (an older module), "stats/NAME" leaves out a counter (an older module),
 * separated by blanks.  A newer module: "+POLICY=VALUE" lists a value the
 * table lacks after the table's, "+NAME" adds a file ("[off] on") at the
 * top, "+stats/NAME" a counter there.  It is kept in DIR/lack for settle.
 */
#ifndef FAKE_TREE_H
#define FAKE_TREE_H

#define FAKE_MAX_ORDER 9

int fake_tree_create(const char *dir, const char *version, const char *lacking);
int fake_tree_settle(const char *dir);

#endif
