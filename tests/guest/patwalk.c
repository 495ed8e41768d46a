// SPDX-License-Identifier: GPL-2.0
/*
 * patwalk: the stream tracker's generated patterns on the real kernel,
 * and the walks of several readers that rawalk and strider have no
 * pattern for. Each reader is a thread of its own (the tracker tells
 * tasks apart), and the touches happen one at a time in the order the
 * pattern gives, through shared read-only mappings of cold files.
 *
 *   patwalk gen SEED FILE...     one draw of tests/unit/pattern_gen.h
 *                                (its file i is FILE i, of 64 MiB at
 *                                least; draws of more files are skipped)
 *   patwalk pool THREADS STRIDE FILE
 *                                THREADS threads taking turns, one touch
 *                                each, along one backward stride
 *   patwalk beside STRIDE FILE   a backward strided walker and a random
 *                                reader of the lower half, in turn
 *   patwalk alone STRIDE FILE    the walker's touches alone
 *   patwalk btree RUN FILE       a B-tree index's reverse scan: runs of
 *                                RUN pages, each read upwards, each below
 *                                the one before, its branch page first
 *   patwalk files STRIDE TOUCHES FILE...
 *                                many files read in turn (the host
 *                                model's pat_draw_files()): one thread
 *                                touches each file once a turn, backwards
 *                                from its page STRIDE * TOUCHES - 1 at a
 *                                stride of STRIDE pages, TOUCHES turns;
 *                                prints file_faults (each file's major
 *                                faults), worst and major_faults
 *
 * read_ahead_kb is the disk's as set (gen sets the draw's). Output, "key:
 * value" lines: major_faults (all threads), sectors_read, slot_faults (the
 * major faults of each reader), and for gen the draw: ra_kb, mix, slack_pages
 * (what invariant 1 allows over stock), steady_alone (readers invariant 2
 * bounds).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define WALKIO_PROG "patwalk"
#include "pagecache.h"
#include "walkio.h"

typedef uint32_t u32;
typedef unsigned long pgoff_t;
enum rap_mapping_kind { RAP_MAP_OTHER, RAP_MAP_AROUND, RAP_MAP_SEQ };
#define PM_READERS	64
#define PM_AROUND	16UL
#define PM_MAX		1024UL	/* 2 << the largest folio order, 9 */

#include "../unit/pattern_gen.h"

#define PW_FILES	4
#define PW_TASKS	32

struct pw_touch {
	unsigned char task, slot, file;
	pgoff_t page;
};

static struct pw {
	volatile const unsigned char *map[PW_FILES];
	size_t pages[PW_FILES];
	struct pw_touch *seq;
	size_t n, next, cap;
	unsigned int tasks, slots;
	long slot_faults[PM_READERS];
	pthread_mutex_t lock;
	pthread_cond_t turn;
	unsigned long sum;
} pw = { .lock = PTHREAD_MUTEX_INITIALIZER, .turn = PTHREAD_COND_INITIALIZER };

static void add(unsigned int task, unsigned int slot, unsigned int file,
		pgoff_t page)
{
	if (page >= pw.pages[file])
		return;
	if (pw.n == pw.cap) {
		pw.cap = pw.cap ? 2 * pw.cap : 4096;
		pw.seq = realloc(pw.seq, pw.cap * sizeof(*pw.seq));
		if (!pw.seq)
			die("realloc");
	}
	pw.seq[pw.n++] = (struct pw_touch){ task, slot, file, page };
	if (task + 1 > pw.tasks)
		pw.tasks = task + 1;
	if (slot + 1 > pw.slots)
		pw.slots = slot + 1;
}

/* Each task's thread makes its touches when their turn comes */
static void *pw_task(void *arg)
{
	unsigned int me = (unsigned int)(uintptr_t)arg;
	struct rusage ru;
	int slot = -1;

	pthread_mutex_lock(&pw.lock);
	for (;;) {
		while (pw.next < pw.n && pw.seq[pw.next].task != me)
			pthread_cond_wait(&pw.turn, &pw.lock);
		if (pw.next == pw.n)
			break;
		slot = pw.seq[pw.next].slot;
		pw.sum += pw.map[pw.seq[pw.next].file][pw.seq[pw.next].page *
						       4096];
		pw.next++;
		pthread_cond_broadcast(&pw.turn);
	}
	pthread_mutex_unlock(&pw.lock);
	if (getrusage(RUSAGE_THREAD, &ru))
		die("getrusage");
	if (slot >= 0)
		__atomic_add_fetch(&pw.slot_faults[slot], ru.ru_majflt,
				   __ATOMIC_RELAXED);
	return NULL;
}

static void set_ra_kb(dev_t dev, unsigned long kb)
{
	char path[80];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/read_ahead_kb",
		 major(dev), minor(dev));
	f = fopen(path, "w");
	if (!f || fprintf(f, "%lu\n", kb) < 0 || fclose(f))
		die(path);
}

/* Map FILE's first @pages pages, cold: no page of it left cached */
static dev_t map_cold(unsigned int i, const char *path, size_t pages,
		      int advice)
{
	size_t len = pages * 4096;
	const char *what = "";
	struct stat st;
	uint64_t left;
	void *map;
	int fd, err;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die(path);
	if ((size_t)st.st_size < len) {
		fprintf(stderr, "patwalk: %s: smaller than %zu pages\n", path,
			pages);
		exit(1);
	}
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED || madvise(map, len, advice))
		die("mmap");
	err = pc_drop(fd, pages, &left, &what);
	if (err) {
		fprintf(stderr, "patwalk: %s: %s: %s\n", path, what,
			strerror(-err));
		exit(1);
	}
	if (left) {
		fprintf(stderr, "patwalk: %s: %" PRIu64 " pages still cached\n",
			path, left);
		exit(1);
	}
	pw.map[i] = map;
	pw.pages[i] = pages;
	close(fd);
	return st.st_dev;
}

/* The draw's touches, in the order of the host model's pat_run() */
static void gen_touches(const struct pat_draw *d0)
{
	struct pat_draw d = *d0;
	unsigned int live = d.nreaders, ri = 0, b, task_of[PM_READERS * 101];
	u32 sched = d.seed | 1, task = 0;
	pgoff_t p = 0;

	memset(task_of, 0xff, sizeof(task_of));
	while (live) {
		ri = d.shuffle ? pat_rand(&sched) % d.nreaders :
				 (ri + 1) % d.nreaders;
		for (b = 0; b < d.burst; b++) {
			if (!pat_next(&d, &d.r[ri], ri, &p, &task))
				break;
			if (task_of[task] == ~0u)
				task_of[task] = pw.tasks;
			add(task_of[task], ri, d.r[ri].file, p);
			if (!d.r[ri].left)
				live--;
		}
	}
}

static void gen_report(const struct pat_draw *d)
{
	unsigned long slack = 0;
	unsigned int i;
	unsigned long max = d->ra_pages > PM_MAX ? d->ra_pages : PM_MAX;

	printf("ra_kb: %lu\nmix: %s\n", d->ra_pages * 4,
	       pat_mix(d) == PAT_PLAIN ? "plain" :
	       pat_mix(d) == PAT_JITTER ? "jitter" : "random");
	for (i = 0; i < d->nreaders; i++) {
		if (d->r[i].kind == PAT_RANDOM)
			continue;
		slack += 2 * max;
		if (pat_looks_dense(d, &d->r[i]))
			slack += d->r[i].left * -d->r[i].stride;
	}
	printf("slack_pages: %lu\nsteady_alone:", slack);
	for (i = 0; i < d->nreaders; i++)
		if (d->r[i].kind == PAT_STRIDE && !d->r[i].jitter &&
		    !d->r[i].abandoned && d->r[i].left >= PAT_STEADY &&
		    pat_class(d, i) == PAT_ALONE)
			printf(" %u", i);
	printf("\n");
}

static void usage(void)
{
	fprintf(stderr, "usage: patwalk gen SEED FILE... | pool THREADS STRIDE FILE |\n"
		"       beside STRIDE FILE | alone STRIDE FILE | btree RUN FILE |\n"
		"       jitter STRIDE FILE |\n"
		"       files STRIDE TOUCHES FILE...\n");
	exit(2);
}

/* patwalk files: @n files read backwards in turn, one touch each a turn */
static int pw_files(unsigned long stride, unsigned long touches, int n,
		    char **paths)
{
	volatile const unsigned char **map = calloc(n, sizeof(*map));
	long *faults = calloc(n, sizeof(*faults)), total = 0, worst = 0, f0;
	size_t pages = stride * touches, k;
	unsigned long sum = 0;
	int i;

	if (!map || !faults || !pages)
		usage();
	for (i = 0; i < n; i++) {
		map_cold(0, paths[i], pages, MADV_NORMAL);
		map[i] = pw.map[0];
	}
	for (k = 0; k < touches; k++)
		for (i = 0; i < n; i++) {
			f0 = majflt();
			sum += map[i][(pages - 1 - k * stride) * 4096];
			faults[i] += majflt() - f0;
		}
	printf("files: %d\ntouches: %zu\nfile_faults:", n, touches * n);
	for (i = 0; i < n; i++) {
		printf(" %ld", faults[i]);
		total += faults[i];
		if (faults[i] > worst)
			worst = faults[i];
	}
	printf("\nworst: %ld\nmajor_faults: %ld\n", worst, total);
	return sum == 0xdeadbeef;
}

int main(int argc, char **argv)
{
	pthread_t th[PW_TASKS];
	struct pat_draw d;
	long long s0, s1;
	unsigned int i;
	u32 rng = 7;
	dev_t dev = 0;
	long total = 0;

	if (argc < 4)
		usage();
	if (!strcmp(argv[1], "files") && argc >= 5)
		return pw_files(strtoul(argv[2], NULL, 0),
				strtoul(argv[3], NULL, 0), argc - 4, argv + 4);
	if (!strcmp(argv[1], "gen")) {
		struct stat st;

		pat_draw(&d, (u32)strtoul(argv[2], NULL, 0));
		if (d.nfiles > PW_FILES || d.nfiles > (unsigned int)argc - 3) {
			printf("skipped: %u files\n", d.nfiles);
			return 0;
		}
		/*
		 * The draw's read_ahead_kb before the files are opened: an
		 * open file keeps the ra_pages its disk had at open
		 * (file_ra_state_init()), which the faults read
		 */
		if (stat(argv[3], &st))
			die(argv[3]);
		set_ra_kb(st.st_dev, d.ra_pages * 4);
		for (i = 0; i < d.nfiles; i++)
			dev = map_cold(i, argv[3 + i], d.pages[i],
				       d.kind == RAP_MAP_SEQ ? MADV_SEQUENTIAL :
				       MADV_NORMAL);
		gen_touches(&d);
		gen_report(&d);
	} else if (!strcmp(argv[1], "pool") && argc == 5) {
		unsigned long threads = strtoul(argv[2], NULL, 0);
		unsigned long stride = strtoul(argv[3], NULL, 0), k = 0;
		struct stat st;
		pgoff_t p;

		if (stat(argv[4], &st) || !threads || threads > PW_TASKS ||
		    !stride)
			usage();
		dev = map_cold(0, argv[4], st.st_size / 4096, MADV_NORMAL);
		for (p = pw.pages[0] - 1; p < pw.pages[0]; p -= stride, k++)
			add(k % threads, 0, 0, p);
	} else if ((!strcmp(argv[1], "beside") || !strcmp(argv[1], "alone")) &&
		   argc == 4) {
		unsigned long stride = strtoul(argv[2], NULL, 0);
		struct stat st;
		pgoff_t p;

		if (stat(argv[3], &st) || !stride)
			usage();
		dev = map_cold(0, argv[3], st.st_size / 4096, MADV_NORMAL);
		for (p = pw.pages[0] - 1; p >= pw.pages[0] / 2; p -= stride) {
			add(0, 0, 0, p);
			if (argv[1][0] == 'b')
				add(1, 1, 0, pat_rand(&rng) % (pw.pages[0] / 2));
		}
	} else if (!strcmp(argv[1], "jitter") && argc == 4) {
		/* backwards, half the touches a page off their places */
		unsigned long stride = strtoul(argv[2], NULL, 0);
		struct stat st;
		pgoff_t p;

		if (stat(argv[3], &st) || stride < 2)
			usage();
		dev = map_cold(0, argv[3], st.st_size / 4096, MADV_NORMAL);
		for (p = pw.pages[0] - 2; p > 0 && p < pw.pages[0];
		     p -= stride)
			add(0, 0, 0, pat_rand(&rng) % 2 ?
				p + pat_rand(&rng) % 3 - 1 : p);
	} else if (!strcmp(argv[1], "btree") && argc == 4) {
		unsigned long run = strtoul(argv[2], NULL, 0), k;
		struct stat st;
		pgoff_t base;

		if (stat(argv[3], &st) || run < 2)
			usage();
		dev = map_cold(0, argv[3], st.st_size / 4096, MADV_NORMAL);
		for (base = pw.pages[0] - run; base > run; base -= run + 1) {
			add(0, 0, 0, base - 1);
			for (k = 0; k < run; k++)
				add(0, 0, 0, base + k);
		}
	} else {
		usage();
	}
	if (pw.tasks > PW_TASKS) {
		fprintf(stderr, "patwalk: %u tasks\n", pw.tasks);
		return 1;
	}
	s0 = sectors_read(dev);
	for (i = 0; i < pw.tasks; i++)
		if (pthread_create(&th[i], NULL, pw_task, (void *)(uintptr_t)i))
			die("pthread_create");
	for (i = 0; i < pw.tasks; i++)
		pthread_join(th[i], NULL);
	s1 = sectors_read(dev);
	printf("touches: %zu\nslot_faults:", pw.n);
	for (i = 0; i < pw.slots; i++) {
		printf(" %ld", pw.slot_faults[i]);
		total += pw.slot_faults[i];
	}
	printf("\nmajor_faults: %ld\nsectors_read: %lld\n", total, s1 - s0);
	return pw.sum == 0xdeadbeef;
}
