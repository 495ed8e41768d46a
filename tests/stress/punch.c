// SPDX-License-Identifier: GPL-2.0
/*
 * punch FILE OFFSET LENGTH: punch a hole (FALLOC_FL_PUNCH_HOLE, size kept)
 * into FILE, which busybox fallocate cannot do. Built static for the
 * stress suite's guest (tests/guest/stress.sh).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long long num(const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || end == s || *end || v < 0) {
		fprintf(stderr, "punch: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long long off, len;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: punch FILE OFFSET LENGTH\n");
		return 2;
	}
	off = num(argv[2]);
	len = num(argv[3]);
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "punch: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, len)) {
		fprintf(stderr, "punch: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	return close(fd) ? 1 : 0;
}
