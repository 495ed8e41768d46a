/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one fake tree of the tests: DIR/sys/kernel/mm/rapolicy as the module
 * builds it from module/table.h, DIR/proc/kallsyms with the hook symbol and
 * an empty cgroup2 root at DIR/sys/fs/cgroup.  Files are plain, so a write
 * leaves the written word; fake_tree_settle() turns it back into what the
 * module would show ("off [folio] stream"; a write to stats/reset zeroes the
 * counters).  Returns 0 or -errno.
 */
#ifndef FAKE_TREE_H
#define FAKE_TREE_H

#define FAKE_MAX_ORDER 9

int fake_tree_create(const char *dir, const char *version);
int fake_tree_settle(const char *dir);

#endif
