// SPDX-License-Identifier: GPL-2.0
/*
 * collapse_truncate FILE [SECONDS]: a stock kernel deadlock the stress
 * load met, between collapse_file() (mm/khugepaged.c) and truncation.
 *
 * collapse_file() keeps every folio it has locked and isolated so far
 * while it calls page_cache_sync_readahead() for a hole further on, and
 * readahead takes the mapping's invalidate lock shared. ext4_setattr()
 * holds that lock exclusive while truncate_inode_pages_range() waits on
 * one of the folios collapse_file() holds locked. Neither moves.
 *
 * One process collapses a 2 MiB range of FILE (MADV_COLLAPSE, the path
 * khugepaged takes) whose page 256 is not cached, while another shrinks
 * FILE to 512 KiB and grows it back. Exits 0 after SECONDS (default 60)
 * when no collapse blocked; a hung collapse shows as two tasks in D state
 * (do_page_cache_ra() or page_cache_ra_order(), and
 * truncate_inode_pages_range()). Measured on Debian's 7.3.4, patched
 * without rapolicy.ko in the guest and unpatched (tests/vm/vm-run
 * --stock): hung within 90 s and 150 s (docs/TESTING.md).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

#define PMD_SIZE (2UL << 20)
#define PAGE 4096UL
#define HOLE 256

static int create(const char *path)
{
	static char page[PAGE];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return -1;
	memset(page, 'x', sizeof(page));
	for (unsigned long off = 0; off < PMD_SIZE; off += PAGE)
		if (pwrite(fd, page, PAGE, off) != (ssize_t)PAGE)
			return -1;
	return fsync(fd) || close(fd) ? -1 : 0;
}

/* shrink FILE into the collapsed range and grow it back, at random times */
static void truncater(const char *path)
{
	for (;;) {
		if (truncate(path, 512 << 10) || truncate(path, PMD_SIZE)) {
			perror("truncate");
			_exit(1);
		}
		usleep(rand() % 20000);
	}
}

/* cache every page of the range but HOLE, in order-0 folios; map it */
static char *prepare(int fd)
{
	static char page[PAGE];
	char *p, *a;

	posix_fadvise(fd, 0, PMD_SIZE, POSIX_FADV_DONTNEED);
	posix_fadvise(fd, 0, PMD_SIZE, POSIX_FADV_RANDOM);
	for (unsigned long i = 0; i < PMD_SIZE / PAGE; i++)
		if (i != HOLE && pread(fd, page, PAGE, i * PAGE) < 0)
			return NULL;
	p = mmap(NULL, 2 * PMD_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	munmap(p, 2 * PMD_SIZE);
	a = (char *)(((uintptr_t)p + PMD_SIZE - 1) & ~(PMD_SIZE - 1));
	a = mmap(a, PMD_SIZE, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
	if (a == MAP_FAILED || madvise(a, PMD_SIZE, MADV_HUGEPAGE))
		return NULL;
	return a;
}

int main(int argc, char **argv)
{
	time_t end;
	long tried = 0, collapsed = 0;
	pid_t child;

	if (argc < 2) {
		fprintf(stderr, "usage: collapse_truncate FILE [SECONDS]\n");
		return 2;
	}
	end = time(NULL) + (argc > 2 ? atoi(argv[2]) : 60);
	if (create(argv[1])) {
		perror(argv[1]);
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (child == 0)
		truncater(argv[1]);
	while (time(NULL) < end) {
		int fd = open(argv[1], O_RDONLY);
		char *a = fd < 0 ? NULL : prepare(fd);

		if (!a) {
			perror(argv[1]);
			kill(child, SIGKILL);
			return 1;
		}
		collapsed += !madvise(a, PMD_SIZE, MADV_COLLAPSE);
		tried++;
		munmap(a, PMD_SIZE);
		close(fd);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	printf("%ld collapses, %ld of them done, none blocked\n", tried,
	       collapsed);
	return 0;
}
