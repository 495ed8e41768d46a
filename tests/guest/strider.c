// SPDX-License-Identifier: GPL-2.0
/*
 * strider: mmap walks for the stream tracker's guest test, the ones rawalk
 * has no pattern for. Reads one byte per touched page of FILE through a
 * shared read-only mapping, from a cold cache (checked with mincore()),
 * and prints what it cost:
 *
 *   strider [-a normal|seq|huge|random] PATTERN FILE
 *
 * PATTERN:
 *   stride:N      every Nth page, first to last
 *   rstride:N     every Nth page, last to first
 *   btree:J       a B-tree's reverse leaf scan: the lower half of the file
 *                 page by page downwards, and after every J pages a jump to
 *                 a pseudo-random page of the upper half (an interior node)
 *   fbtree:J      the same scan upwards
 *   interleave:K  K cursors over K equal parts of the file, one touch each
 *                 in turn, even ones upwards, odd ones downwards
 *
 * Output: "key: value" lines: touches, major_faults, sectors_read (of the
 * file's block device, /sys/dev/block/M:m/stat).
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

#define WALKIO_PROG "strider"
#include "pagecache.h"
#include "walkio.h"

struct walk {
	volatile const unsigned char *map;
	size_t pages;
	size_t page_size;
	unsigned long touches;
	unsigned long sum;
};

static void touch(struct walk *w, size_t page)
{
	w->sum += w->map[page * w->page_size];
	w->touches++;
}

/* Drop the file's pages, reads in flight included, and check that none is left */
static void make_cold(int fd, size_t pages)
{
	const char *what = "";
	uint64_t left;
	int err = pc_drop(fd, pages, &left, &what);

	if (err) {
		fprintf(stderr, "strider: %s: %s\n", what, strerror(-err));
		exit(1);
	}
	if (left) {
		fprintf(stderr, "strider: %" PRIu64 " pages still cached\n", left);
		exit(1);
	}
}

static int advice_of(const char *s)
{
	if (!strcmp(s, "normal"))
		return MADV_NORMAL;
	if (!strcmp(s, "seq"))
		return MADV_SEQUENTIAL;
	if (!strcmp(s, "huge"))
		return MADV_HUGEPAGE;
	if (!strcmp(s, "random"))
		return MADV_RANDOM;
	fprintf(stderr, "strider: unknown advice '%s'\n", s);
	exit(2);
}

static void walk_stride(struct walk *w, size_t n, int up)
{
	size_t i;

	for (i = 0; i < w->pages; i += n)
		touch(w, up ? i : w->pages - 1 - i);
}

static void walk_btree(struct walk *w, size_t jump, int up)
{
	size_t half = w->pages / 2, i, page;
	uint32_t seed = 1;

	for (i = 0; i < half; i++) {
		touch(w, up ? i : half - 1 - i);
		if ((i + 1) % jump)
			continue;
		seed = seed * 1103515245u + 12345u;
		page = half + (seed >> 8) % (w->pages - half);
		touch(w, page);
	}
}

static void walk_interleave(struct walk *w, size_t k)
{
	size_t part = w->pages / k, i, c;

	for (i = 0; i < part; i++)
		for (c = 0; c < k; c++)
			touch(w, c * part + (c % 2 ? part - 1 - i : i));
}

static size_t arg_of(const char *pattern, const char *name)
{
	size_t len = strlen(name);
	char *end;
	unsigned long v;

	if (strncmp(pattern, name, len) || pattern[len] != ':')
		return 0;
	errno = 0;
	v = strtoul(pattern + len + 1, &end, 10);
	if (errno || *end || !v) {
		fprintf(stderr, "strider: %s needs a positive number\n", name);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct walk w = { .page_size = (size_t)sysconf(_SC_PAGESIZE) };
	int advice = MADV_NORMAL, opt, fd;
	const char *pattern;
	long long s0;
	struct stat st;
	size_t n;
	long m0;
	void *map;

	while ((opt = getopt(argc, argv, "a:")) != -1) {
		if (opt != 'a') {
			fprintf(stderr, "usage: strider [-a ADVICE] PATTERN FILE\n");
			return 2;
		}
		advice = advice_of(optarg);
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: strider [-a ADVICE] PATTERN FILE\n");
		return 2;
	}
	pattern = argv[optind];
	fd = open(argv[optind + 1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die(argv[optind + 1]);
	w.pages = (size_t)st.st_size / w.page_size;
	if (w.pages < 2) {
		fprintf(stderr, "strider: the file needs two pages at least\n");
		return 2;
	}
	map = mmap(NULL, w.pages * w.page_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("mmap");
	if (madvise(map, w.pages * w.page_size, advice))
		die("madvise");
	w.map = map;
	make_cold(fd, w.pages);

	m0 = majflt();
	s0 = sectors_read(st.st_dev);
	if ((n = arg_of(pattern, "stride")))
		walk_stride(&w, n, 1);
	else if ((n = arg_of(pattern, "rstride")))
		walk_stride(&w, n, 0);
	else if ((n = arg_of(pattern, "btree")))
		walk_btree(&w, n, 0);
	else if ((n = arg_of(pattern, "fbtree")))
		walk_btree(&w, n, 1);
	else if ((n = arg_of(pattern, "interleave")))
		walk_interleave(&w, n);
	else {
		fprintf(stderr, "strider: unknown pattern '%s'\n", pattern);
		return 2;
	}
	printf("touches: %lu\nmajor_faults: %ld\nsectors_read: %lld\n",
	       w.touches, majflt() - m0, sectors_read(st.st_dev) - s0);
	return 0;
}
