/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page cache of one file as it is: what is cached, reads still in
 * flight included, and dropping it for a cold walk. rawalk, the selftests
 * and the guest's walkers share it.
 */
#ifndef RAPOLICY_PAGECACHE_H
#define RAPOLICY_PAGECACHE_H

#include <stdint.h>

/*
 * Pages [first, first + n) of fd's file in the page cache, in *cached.
 * 0, or -errno with *what naming the call that failed.
 */
int pc_cached(int fd, uint64_t first, uint64_t n, uint64_t *cached,
	      const char **what);

/*
 * Drop fd's file (npages long) from the page cache; *left: the pages that
 * stayed (dirty, or mapped by another process). 0, or -errno with *what
 * naming the call that failed.
 */
int pc_drop(int fd, uint64_t npages, uint64_t *left, const char **what);

#endif /* RAPOLICY_PAGECACHE_H */
