// SPDX-License-Identifier: GPL-2.0
/*
 * partmap FILE FIRST END ADVICE DIR: drop FILE's page cache, map its pages
 * [FIRST, END) only, touch each page of that mapping with madvise() ADVICE
 * (normal, seq, huge) in DIR (forward, reverse), then print how many pages
 * of FILE are cached outside the mapping, as a second mapping's mincore()
 * sees them: "outside N". Exits 1 on any failure.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
	unsigned long first, end, pages, i, outside = 0;
	volatile unsigned char sum = 0;
	unsigned char *p, *all, *vec;
	int fd, advice, reverse;
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
	if (posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		return die("posix_fadvise");
	p = mmap(NULL, (end - first) * ps, PROT_READ, MAP_SHARED, fd,
		 first * ps);
	if (p == MAP_FAILED)
		return die("mmap");
	if (madvise(p, (end - first) * ps, advice))
		return die("madvise");
	for (i = 0; i < end - first; i++)
		sum += p[(reverse ? end - first - 1 - i : i) * ps];
	munmap(p, (end - first) * ps);

	all = mmap(NULL, pages * ps, PROT_READ, MAP_SHARED, fd, 0);
	vec = malloc(pages);
	if (all == MAP_FAILED || !vec || mincore(all, pages * ps, vec))
		return die("mincore");
	for (i = 0; i < pages; i++)
		outside += (i < first || i >= end) && (vec[i] & 1);
	printf("outside %lu\n", outside);
	(void)sum;
	return 0;
}
