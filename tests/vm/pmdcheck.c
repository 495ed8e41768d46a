// SPDX-License-Identifier: GPL-2.0
/*
 * vm-run self-test: large folios work on the guest's scratch filesystem.
 *
 * Writes a 16 MiB file, drops the page cache, maps the file read-only at a
 * 2 MiB-aligned address with MADV_HUGEPAGE, touches every page, and checks
 * that /proc/self/smaps shows FilePmdMapped > 0 for that mapping (readahead
 * brought PMD-sized folios in and the fault path mapped them with a PMD).
 *
 * Build: gcc -static -O2 -o pmdcheck tests/vm/pmdcheck.c
 * Run:   tests/vm/vm-run --add pmdcheck -- /add/pmdcheck [FILE]
 * Exit:  0 pass, 1 fail, 2 error. FILE defaults to $RAPOLICY_SCRATCH/pmdcheck.dat.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FILE_SIZE (16UL << 20)
#define PMD_SIZE (2UL << 20)

static void die(const char *what)
{
	fprintf(stderr, "pmdcheck: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void write_file(const char *path)
{
	static char buf[1 << 20];
	unsigned long done;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die(path);
	for (done = 0; done < FILE_SIZE; done += sizeof(buf)) {
		memset(buf, (int)(done >> 20) + 1, sizeof(buf));
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			die("write");
	}
	if (fsync(fd) || close(fd))
		die("fsync");
}

/* So the mapping is filled by readahead, not by the pages write() left. */
static void drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	sync();
	if (fd < 0 || write(fd, "3\n", 2) != 2)
		die("/proc/sys/vm/drop_caches");
	close(fd);
}

/* A PMD mapping needs a PMD-aligned virtual address. */
static char *map_aligned(int fd)
{
	char *area = mmap(NULL, FILE_SIZE + PMD_SIZE, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *p;

	if (area == MAP_FAILED)
		die("mmap reserve");
	p = (char *)(((uintptr_t)area + PMD_SIZE - 1) & ~(PMD_SIZE - 1));
	if (mmap(p, FILE_SIZE, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0) != p)
		die("mmap file");
	if (madvise(p, FILE_SIZE, MADV_HUGEPAGE))
		die("madvise(MADV_HUGEPAGE)");
	return p;
}

static long smaps_field(const void *start, const char *field)
{
	char line[256], head[32];
	size_t flen = strlen(field);
	int in_vma = 0;
	long val = -1;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		die("/proc/self/smaps");
	snprintf(head, sizeof(head), "%lx-", (unsigned long)start);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, head, strlen(head)))
			in_vma = 1;
		else if (in_vma && !strncmp(line, field, flen) && line[flen] == ':') {
			val = strtol(line + flen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return val;
}

int main(int argc, char **argv)
{
	const char *dir = getenv("RAPOLICY_SCRATCH");
	char path[4096];
	volatile char sum = 0;
	unsigned long off;
	long pmd, rss;
	char *p;
	int fd;

	if (argc > 1)
		snprintf(path, sizeof(path), "%s", argv[1]);
	else
		snprintf(path, sizeof(path), "%s/pmdcheck.dat", dir ? dir : ".");
	write_file(path);
	drop_caches();
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path);
	p = map_aligned(fd);
	for (off = 0; off < FILE_SIZE; off += 4096)
		sum += p[off];
	rss = smaps_field(p, "Rss");
	pmd = smaps_field(p, "FilePmdMapped");
	printf("pmdcheck: %s: Rss %ld kB, FilePmdMapped %ld kB\n", path, rss, pmd);
	unlink(path);
	if (pmd <= 0) {
		printf("pmdcheck: FAIL: no PMD-mapped file folios\n");
		return 1;
	}
	printf("pmdcheck: PASS\n");
	return 0;
}
