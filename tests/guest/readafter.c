// SPDX-License-Identifier: GPL-2.0
/*
 * readafter: read(2) through a file after one mmap fault on it, for
 * hostile_window.sh. A policy's window must not set the size of the
 * windows that stock's asynchronous readahead reads on with, which read(2)
 * shares with the mapping through the file's readahead state.
 *
 *   readafter FILE FAULT_PAGE READ_PAGES
 *
 * Opens FILE (read_ahead_kb as the device has it now), drops its pages
 * from the cache (checked), maps it, touches page FAULT_PAGE of the
 * mapping (one major fault), then reads its first READ_PAGES pages with
 * read(2) on the same file descriptor, a page at a time, and counts the
 * pages cached above them: what readahead read ahead of the reader.
 *
 * Output: major_faults (of the touch), read_pages, cached_above (pages
 * [READ_PAGES, end of file) in the page cache after the reads),
 * sectors_read (of the file's block device, touch and reads).
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
#include <sys/stat.h>
#include <unistd.h>

#define WALKIO_PROG "readafter"
#include "pagecache.h"
#include "walkio.h"

static uint64_t number(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end) {
		fprintf(stderr, "readafter: %s: not a number: %s\n", what, s);
		exit(2);
	}
	return v;
}

static void pc_fail(int err, const char *what)
{
	fprintf(stderr, "readafter: %s: %s\n", what, strerror(-err));
	exit(1);
}

int main(int argc, char **argv)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t fault, nread, pages, left, above, i;
	volatile const unsigned char *map;
	const char *what = "";
	long long sectors;
	unsigned char *buf;
	struct stat st;
	long major;
	int fd, err;

	if (argc != 4) {
		fprintf(stderr, "usage: readafter FILE FAULT_PAGE READ_PAGES\n");
		return 2;
	}
	fault = number(argv[2], "FAULT_PAGE");
	nread = number(argv[3], "READ_PAGES");
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die(argv[1]);
	pages = ((uint64_t)st.st_size + page - 1) / page;
	if (fault >= pages || !nread || nread >= pages) {
		fprintf(stderr, "readafter: %s has %" PRIu64 " pages\n",
			argv[1], pages);
		return 2;
	}
	err = pc_drop(fd, pages, &left, &what);
	if (err)
		pc_fail(err, what);
	if (left) {
		fprintf(stderr, "readafter: %" PRIu64 " pages still cached\n",
			left);
		return 1;
	}
	map = mmap(NULL, pages * page, PROT_READ, MAP_SHARED, fd, 0);
	buf = malloc(page);
	if (map == MAP_FAILED || !buf)
		die("mmap");
	sectors = sectors_read(st.st_dev);
	major = majflt();
	(void)map[fault * page];
	major = majflt() - major;
	for (i = 0; i < nread; i++)
		if (read(fd, buf, page) != (ssize_t)page)
			die("read");
	sectors = sectors_read(st.st_dev) - sectors;
	err = pc_cached(fd, nread, pages - nread, &above, &what);
	if (err)
		pc_fail(err, what);
	printf("major_faults: %ld\nread_pages: %" PRIu64 "\n"
	       "cached_above: %" PRIu64 "\nsectors_read: %lld\n",
	       major, nread, above, sectors);
	return 0;
}
