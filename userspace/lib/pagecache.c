// SPDX-License-Identifier: GPL-2.0
/*
 * The page cache of one file, for walks that must start cold.
 *
 * mincore() reports a folio only once it is uptodate (mincore_page()), and
 * POSIX_FADV_DONTNEED skips a locked one, so the readahead an earlier
 * reader left in flight is invisible to a mincore() check and cached by
 * the time a "cold" walk touches it. cachestat() (Linux 6.5, cf2aa3b5d1a2)
 * counts every folio in the mapping; a fault on a locked folio waits for
 * it. mincore() is the fallback where cachestat() is missing
 * (CONFIG_CACHESTAT_SYSCALL) or refuses the caller.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pagecache.h"

#ifndef __NR_cachestat
#define __NR_cachestat 451	/* the same on every architecture */
#endif

/* include/uapi/linux/mman.h */
struct pc_cachestat_range {
	uint64_t off;
	uint64_t len;
};

struct pc_cachestat {
	uint64_t nr_cache;
	uint64_t nr_dirty;
	uint64_t nr_writeback;
	uint64_t nr_evicted;
	uint64_t nr_recently_evicted;
};

static int fail(const char *call, const char **what)
{
	int err = errno;

	*what = call;
	return -err;
}

static int cached_mincore(int fd, uint64_t first, uint64_t n, size_t ps,
			  uint64_t *cached, const char **what)
{
	unsigned char *vec = malloc(n);
	uint64_t i;
	void *p;
	int ret = 0;

	if (!vec)
		return fail("malloc", what);
	p = mmap(NULL, n * ps, PROT_READ, MAP_SHARED, fd, first * ps);
	if (p == MAP_FAILED) {
		ret = fail("mmap", what);
	} else {
		if (mincore(p, n * ps, vec))
			ret = fail("mincore", what);
		for (i = 0, *cached = 0; !ret && i < n; i++)
			*cached += vec[i] & 1;
		munmap(p, n * ps);
	}
	free(vec);
	return ret;
}

int pc_cached(int fd, uint64_t first, uint64_t n, uint64_t *cached,
	      const char **what)
{
	size_t ps = sysconf(_SC_PAGESIZE);
	struct pc_cachestat_range range = { first * ps, n * ps };
	struct pc_cachestat cs;

	*cached = 0;
	if (!n)
		return 0;	/* a len of 0 would mean "to the end" */
	if (!syscall(__NR_cachestat, fd, &range, &cs, 0)) {
		*cached = cs.nr_cache;
		return 0;
	}
	if (errno != ENOSYS && errno != EPERM)
		return fail("cachestat", what);
	return cached_mincore(fd, first, n, ps, cached, what);
}

/*
 * Touch each page of fd's file still in the page cache through a new
 * MADV_RANDOM mapping of a new open file: a fault on a locked folio (a
 * read in flight, a migration, a collapse) waits until it is unlocked;
 * MADV_RANDOM starts no readahead and leaves mmap_miss alone, and the new
 * open file leaves fd's file_ra_state alone. Chunks of 512 pages first.
 */
static int wait_cached(int fd, uint64_t npages, const char **what)
{
	size_t ps = sysconf(_SC_PAGESIZE);
	volatile unsigned char sum = 0;
	uint64_t c, i, len, n, one;
	unsigned char *p;
	char path[64];
	int ret = 0, wfd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	wfd = open(path, O_RDONLY);
	if (wfd < 0)
		return fail("open /proc/self/fd", what);
	p = mmap(NULL, npages * ps, PROT_READ, MAP_SHARED, wfd, 0);
	if (p == MAP_FAILED) {
		ret = fail("mmap", what);
		close(wfd);
		return ret;
	}
	(void)madvise(p, npages * ps, MADV_RANDOM);
	for (c = 0; c < npages && !ret; c += 512) {
		len = npages - c < 512 ? npages - c : 512;
		ret = pc_cached(fd, c, len, &n, what);
		for (i = c; !ret && n && i < c + len; i++) {
			ret = pc_cached(fd, i, 1, &one, what);
			if (!ret && one)
				sum += p[i * ps];
		}
	}
	(void)sum;
	munmap(p, npages * ps);
	close(wfd);
	return ret;
}

/*
 * Dirty pages are written back first; locked ones are waited for and the
 * drop tried again, four attempts in all.
 */
int pc_drop(int fd, uint64_t npages, uint64_t *left, const char **what)
{
	int attempt, err;

	for (attempt = 0; attempt < 4; attempt++) {
		if (attempt) {
			err = wait_cached(fd, npages, what);
			if (err)
				return err;
		}
		if (fdatasync(fd) && errno != EINVAL && errno != EROFS)
			return fail("fdatasync", what);
		err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		if (err) {
			*what = "posix_fadvise(POSIX_FADV_DONTNEED)";
			return -err;
		}
		err = pc_cached(fd, 0, npages, left, what);
		if (err || !*left)
			return err;
	}
	return 0;
}
