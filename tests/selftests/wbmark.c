// SPDX-License-Identifier: GPL-2.0
/*
 * wbmark FILE: a readahead marker on a folio under writeback is not an
 * async readahead marker. PG_readahead is PG_reclaim, so the kernel must
 * not offer such a folio to a readahead policy, nor clear the flag.
 *
 * Drop FILE from the page cache (reads in flight waited for), and with
 * read_ahead_kb small enough that read-around marks a page within its
 * first 1024: fault its first page through a read-only MAP_SHARED mapping,
 * so read-around places its marker; find the marked page in
 * /proc/kpageflags (KPF_RECLAIM is the shared bit), waiting for each page
 * of a read-around the disk has not finished; pwrite() it and start
 * its writeback with sync_file_range(); while it is under writeback
 * (KPF_WRITEBACK, on a throttled disk), touch it through the mapping, which
 * faults into do_async_mmap_readahead() because filemap_map_pages() skips
 * marked folios. Prints "marker N", "async_before N", "async_after N",
 * "writeback_before 0|1", "writeback_after 0|1", "reclaim_after 0|1";
 * the async counts come from STATS_FILE if given (else -1). Exits 1 on any
 * failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pagecache.h"

#define KPF_WRITEBACK	8
#define KPF_RECLAIM	9

static long ps;

static int die(const char *what)
{
	perror(what);
	exit(1);
}

/* A pagecache.h call's -errno, with the call it names */
static void pc_check(int err, const char *what)
{
	if (err) {
		errno = -err;
		die(what);
	}
}

/* The page flags of the page mapped at @addr (which must be mapped) */
static uint64_t flags_at(const void *addr)
{
	uint64_t ent, flags;
	int pm, kf;

	pm = open("/proc/self/pagemap", O_RDONLY);
	kf = open("/proc/kpageflags", O_RDONLY);
	if (pm < 0 || kf < 0)
		die("pagemap/kpageflags");
	if (pread(pm, &ent, 8, (uintptr_t)addr / ps * 8) != 8)
		die("pagemap");
	if (!(ent >> 63) || !(ent & ((1ULL << 55) - 1)))
		die("pagemap: page not present or no PFN (not root?)");
	if (pread(kf, &flags, 8, (ent & ((1ULL << 55) - 1)) * 8) != 8)
		die("kpageflags");
	close(pm);
	close(kf);
	return flags;
}

static long long counter(const char *path)
{
	char buf[32] = "";
	FILE *f;

	if (!path)
		return -1;
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f))
		die(path);
	fclose(f);
	return atoll(buf);
}

int main(int argc, char **argv)
{
	const char *stats = argc > 2 ? argv[2] : NULL;
	volatile unsigned char sum = 0;
	long i, marker = -1, window = 1024;
	unsigned char *map, *probe, c = 1;
	long long async_before, async_after;
	uint64_t before, after, cached;
	const char *what = "";
	struct stat st;
	int fd;

	ps = sysconf(_SC_PAGESIZE);
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: wbmark FILE [STATS_ASYNC_FILE]\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		die(argv[1]);
	if (fstat(fd, &st))
		die("fstat");
	pc_check(pc_drop(fd, (st.st_size + ps - 1) / ps, &cached, &what), what);
	if (cached) {
		fprintf(stderr, "%s: %llu pages stayed cached\n", argv[1],
			(unsigned long long)cached);
		return 1;
	}
	map = mmap(NULL, window * ps, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("mmap");
	sum += map[0];

	/*
	 * Find the marker without faulting on @map: map each cached page
	 * elsewhere. A read-around the disk has not finished is cached and
	 * locked, not uptodate: cachestat() counts it where mincore() would
	 * not, and the touch through the probe waits for it.
	 */
	probe = mmap(NULL, window * ps, PROT_READ, MAP_SHARED, fd, 0);
	if (probe == MAP_FAILED || madvise(probe, window * ps, MADV_RANDOM))
		die("probe mapping");
	for (i = 1; i < window && marker < 0; i++) {
		pc_check(pc_cached(fd, i, 1, &cached, &what), what);
		if (!cached)
			break;
		sum += probe[i * ps];	/* cached: a minor fault */
		if (flags_at(probe + i * ps) & (1ULL << KPF_RECLAIM))
			marker = i;
	}
	if (marker < 0) {
		fprintf(stderr, "no readahead marker in the read-around window\n");
		return 1;
	}
	printf("marker %ld\n", marker);

	if (pwrite(fd, &c, 1, marker * ps) != 1)
		die("pwrite");
	if (sync_file_range(fd, marker * ps, ps, SYNC_FILE_RANGE_WRITE))
		die("sync_file_range");
	before = flags_at(probe + marker * ps);
	async_before = counter(stats);
	sum += map[marker * ps];	/* the fault under test */
	async_after = counter(stats);
	after = flags_at(probe + marker * ps);
	printf("async_before %lld\nasync_after %lld\n", async_before,
	       async_after);
	printf("writeback_before %d\nwriteback_after %d\nreclaim_after %d\n",
	       !!(before & (1ULL << KPF_WRITEBACK)),
	       !!(after & (1ULL << KPF_WRITEBACK)),
	       !!(after & (1ULL << KPF_RECLAIM)));
	(void)sum;
	return 0;
}
