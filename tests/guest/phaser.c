// SPDX-License-Identifier: GPL-2.0
/*
 * phaser: one mapping that flips between lookups and a scan, for
 * random_miss's guest test (tests/guest/random.sh). Through one shared
 * read-only mapping of FILE, kept open so the file keeps its readahead
 * state (mmap_miss), from a cold cache each phase:
 *
 *   1. lookups: PCT percent of the pages, distinct, in pseudo-random order;
 *   2. scan: every page, first to last;
 *   3. lookups again, other pages.
 *
 * Before each phase the mapping is zapped (MADV_DONTNEED) and the file's
 * pages dropped (POSIX_FADV_DONTNEED, checked with mincore()). PCT 0 runs
 * the scan alone: a fresh scan. Reads one byte per touched page.
 *
 *   phaser PCT FILE [ADVICE]
 *
 * ADVICE (random, sequential or hugepage) is madvise()d over the mapping
 * once, as a program that knows one of its phases would.
 *
 * Output: "PHASE_key: value" lines, PHASE one of lookups, scan, again:
 * touches, major_faults, sectors_read (of the file's block device).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define WALKIO_PROG "phaser"
#include "pagecache.h"
#include "walkio.h"

struct phaser {
	volatile const unsigned char *map;
	int fd;
	dev_t dev;
	size_t pages;
	size_t page_size;
	unsigned long sum;
};

/*
 * Unmap the file's pages and drop them from the cache, reads in flight
 * included. The file stays open and its file_ra_state (mmap_miss) as it
 * is: pc_drop() waits for locked folios through a file of its own.
 */
static void make_cold(struct phaser *p)
{
	const char *what = "";
	uint64_t left;
	int err;

	if (madvise((void *)p->map, p->pages * p->page_size, MADV_DONTNEED))
		die("madvise(MADV_DONTNEED)");
	err = pc_drop(p->fd, p->pages, &left, &what);
	if (err) {
		fprintf(stderr, "phaser: %s: %s\n", what, strerror(-err));
		exit(1);
	}
	if (left) {
		fprintf(stderr, "phaser: %" PRIu64 " pages still cached\n", left);
		exit(1);
	}
}

/* xorshift64 */
static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void report(const char *phase, unsigned long touches, long major,
		   long long sectors)
{
	printf("%s_touches: %lu\n%s_major_faults: %ld\n%s_sectors_read: %lld\n",
	       phase, touches, phase, major, phase, sectors);
}

/* @n distinct pages in pseudo-random order, or all in order if @order */
static void phase(struct phaser *p, const char *name, size_t n, int order,
		  uint64_t seed)
{
	size_t *perm = malloc(p->pages * sizeof(*perm)), i;
	long major;
	long long sectors;

	if (!perm)
		die("malloc");
	for (i = 0; i < p->pages; i++)
		perm[i] = i;
	for (i = 0; !order && i < n; i++) {
		size_t j = i + next(&seed) % (p->pages - i), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	make_cold(p);
	major = majflt();
	sectors = sectors_read(p->dev);
	for (i = 0; i < n; i++)
		p->sum += p->map[perm[i] * p->page_size];
	report(name, n, majflt() - major, sectors_read(p->dev) - sectors);
	free(perm);
}

/* The madvise() advice named @s, or -1 */
static int advice(const char *s)
{
	if (!strcmp(s, "random"))
		return MADV_RANDOM;
	if (!strcmp(s, "sequential"))
		return MADV_SEQUENTIAL;
	if (!strcmp(s, "hugepage"))
		return MADV_HUGEPAGE;
	return -1;
}

int main(int argc, char **argv)
{
	struct phaser p = { 0 };
	struct stat st;
	int adv = 0;
	double pct;
	size_t n;

	if ((argc != 3 && argc != 4) || (pct = atof(argv[1])) < 0 || pct > 100 ||
	    (argc == 4 && (adv = advice(argv[3])) < 0)) {
		fprintf(stderr, "usage: phaser PCT FILE [random|sequential|hugepage]\n");
		return 2;
	}
	p.fd = open(argv[2], O_RDONLY);
	if (p.fd < 0 || fstat(p.fd, &st))
		die(argv[2]);
	p.dev = st.st_dev;
	p.page_size = (size_t)sysconf(_SC_PAGESIZE);
	p.pages = (size_t)st.st_size / p.page_size;
	if (!p.pages) {
		fprintf(stderr, "phaser: %s: empty\n", argv[2]);
		return 1;
	}
	p.map = mmap(NULL, p.pages * p.page_size, PROT_READ, MAP_SHARED, p.fd, 0);
	if (p.map == MAP_FAILED)
		die("mmap");
	if (argc == 4 && madvise((void *)p.map, p.pages * p.page_size, adv))
		die("madvise");
	n = (size_t)(pct * (double)p.pages / 100);
	if (n)
		phase(&p, "lookups", n, 0, 1);
	phase(&p, "scan", p.pages, 1, 0);
	if (n)
		phase(&p, "again", n, 0, 2);
	printf("sum: %lu\n", p.sum);
	return 0;
}
