// SPDX-License-Identifier: GPL-2.0
/*
 * partmap FILE FIRST END ADVICE DIR: drop FILE's page cache, map its pages
 * [FIRST, END) only, touch each page of that mapping with madvise() ADVICE
 * (normal, seq, huge) in DIR (forward, reverse), then print how many pages
 * of FILE are in the page cache outside the mapping, reads still in flight
 * included (lib/pagecache.c): "outside N". Exits 1 on any failure, or when
 * the drop left pages cached.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pagecache.h"

static int die(const char *what)
{
	perror(what);
	return 1;
}

static int advice_of(const char *name)
{
	if (!strcmp(name, "normal"))
		return MADV_NORMAL;
	if (!strcmp(name, "seq"))
		return MADV_SEQUENTIAL;
	if (!strcmp(name, "huge"))
		return MADV_HUGEPAGE;
	return -1;
}

int main(int argc, char **argv)
{
	long ps = sysconf(_SC_PAGESIZE);
	unsigned long first, end, pages, i;
	uint64_t left, before, after;
	volatile unsigned char sum = 0;
	const char *what = "";
	int fd, advice, reverse, err;
	unsigned char *p;
	struct stat st;

	if (argc != 6 || (advice = advice_of(argv[4])) < 0 ||
	    (strcmp(argv[5], "forward") && strcmp(argv[5], "reverse"))) {
		fprintf(stderr, "usage: partmap FILE FIRST END normal|seq|huge forward|reverse\n");
		return 2;
	}
	first = strtoul(argv[2], NULL, 0);
	end = strtoul(argv[3], NULL, 0);
	reverse = !strcmp(argv[5], "reverse");
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return die(argv[1]);
	pages = (st.st_size + ps - 1) / ps;
	if (first >= end || end > pages) {
		fprintf(stderr, "partmap: [%lu, %lu) is not inside %lu pages\n",
			first, end, pages);
		return 2;
	}
	err = pc_drop(fd, pages, &left, &what);
	if (err || left) {
		fprintf(stderr, "partmap: drop the cache: %s\n",
			err ? strerror(-err) : "pages stayed");
		return 1;
	}
	p = mmap(NULL, (end - first) * ps, PROT_READ, MAP_SHARED, fd,
		 first * ps);
	if (p == MAP_FAILED)
		return die("mmap");
	if (madvise(p, (end - first) * ps, advice))
		return die("madvise");
	for (i = 0; i < end - first; i++)
		sum += p[(reverse ? end - first - 1 - i : i) * ps];
	munmap(p, (end - first) * ps);

	err = pc_cached(fd, 0, first, &before, &what);
	if (!err)
		err = pc_cached(fd, end, pages - end, &after, &what);
	if (err) {
		errno = -err;
		return die(what);
	}
	printf("outside %" PRIu64 "\n", before + after);
	(void)sum;
	return 0;
}
