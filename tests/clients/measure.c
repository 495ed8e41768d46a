// SPDX-License-Identifier: GPL-2.0
/*
 * measure: run an unmodified program on a cold page cache and count what
 * it cost, for the real-client tests.
 *
 *   measure [--cold] [--dev NAME] [--out FILE] -- PROGRAM [ARGS...]
 *
 * --cold      sync and drop the page cache (/proc/sys/vm/drop_caches) first
 * --dev NAME  block device whose reads are counted (/sys/block/NAME/stat),
 *             default vda
 * --out FILE  the program's stdout goes to FILE (default: inherited)
 *
 * Prints "key: value" lines after the program exits: major_faults and
 * minor_faults (wait4() of the program, its threads and the children it
 * waited for), read_bytes (what /proc/self/io of this process gained by
 * reaping it: its storage reads, per task; -1 when the kernel has no task
 * I/O accounting), sectors_read and ios_read (the device's counters:
 * every read of the guest, while the program ran), read_ticks_ms and
 * io_ticks_ms (the device's time spent on reads, summed over the reads in
 * flight, and its busy time: their ratio is the mean number of reads in
 * flight while it was busy, iostat's aqu-sz), wall_ms and status.
 * Exits with the program's status.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc_io.h"

struct devstat {
	unsigned long long ios, sectors, read_ticks, io_ticks;
};

static int read_devstat(const char *dev, struct devstat *d)
{
	char path[256];
	unsigned long long merges, w[4], inflight;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/sys/block/%s/stat", dev);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "measure: %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* Documentation/block/stat.rst: the first ten fields */
	n = fscanf(f, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &d->ios, &merges, &d->sectors, &d->read_ticks, &w[0], &w[1],
		   &w[2], &w[3], &inflight, &d->io_ticks);
	fclose(f);
	return n == 10 ? 0 : -1;
}

static int drop_caches(void)
{
	int fd;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0 || write(fd, "3\n", 2) != 2) {
		fprintf(stderr, "measure: /proc/sys/vm/drop_caches: %s\n", strerror(errno));
		return -1;
	}
	return close(fd);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void child(char **argv, const char *out)
{
	if (out) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 1) < 0) {
			fprintf(stderr, "measure: %s: %s\n", out, strerror(errno));
			_exit(127);
		}
		close(fd);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "measure: %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int main(int argc, char **argv)
{
	const char *dev = "vda", *out = NULL;
	struct devstat a, b;
	long long rb0, rb1;
	struct rusage ru;
	int i, cold = 0, status;
	double t0, t1;
	pid_t pid;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--cold"))
			cold = 1;
		else if (!strcmp(argv[i], "--dev") && i + 1 < argc)
			dev = argv[++i];
		else if (!strcmp(argv[i], "--out") && i + 1 < argc)
			out = argv[++i];
		else
			break;
	}
	if (i >= argc - 1 || strcmp(argv[i], "--")) {
		fprintf(stderr, "usage: measure [--cold] [--dev NAME] [--out FILE] -- PROGRAM [ARGS...]\n");
		return 2;
	}
	if ((cold && drop_caches()) || read_devstat(dev, &a))
		return 1;
	rb0 = proc_read_bytes("/proc/self/io");
	t0 = now_ms();
	pid = fork();
	if (pid < 0) {
		perror("measure: fork");
		return 1;
	}
	if (!pid)
		child(argv + i + 1, out);
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("measure: wait4");
		return 1;
	}
	t1 = now_ms();
	rb1 = proc_read_bytes("/proc/self/io");
	if (read_devstat(dev, &b))
		return 1;
	printf("major_faults: %ld\nminor_faults: %ld\nread_bytes: %lld\n",
	       ru.ru_majflt, ru.ru_minflt, rb0 < 0 || rb1 < 0 ? -1 : rb1 - rb0);
	printf("sectors_read: %llu\nios_read: %llu\nread_ticks_ms: %llu\nio_ticks_ms: %llu\nwall_ms: %.1f\n",
	       b.sectors - a.sectors, b.ios - a.ios, b.read_ticks - a.read_ticks,
	       b.io_ticks - a.io_ticks, t1 - t0);
	if (WIFEXITED(status)) {
		printf("status: %d\n", WEXITSTATUS(status));
		return WEXITSTATUS(status);
	}
	printf("status: signal %d\n", WTERMSIG(status));
	return 128 + WTERMSIG(status);
}
