// SPDX-License-Identifier: GPL-2.0
/*
 * tensor_load: a parallel model loader, the real-client test of several
 * readers of one mapping.  The file is laid out like a safetensors file:
 * an 8-byte little-endian header length, a JSON header naming every tensor
 * with its "data_offsets" [begin, end) relative to the end of the header,
 * then the tensors back to back.
 *
 *   tensor_load create FILE MIB         tensors of cycling sizes (a layer:
 *                                       4 MiB, 1 MiB, 4 MiB + 12 KiB, 16 KiB)
 *                                       up to about MIB MiB
 *   tensor_load load FILE THREADS forward|reverse [hint]
 *                                       one shared read-only mapping;
 *                                       THREADS threads, thread i owns the
 *                                       i-th contiguous share of the tensors
 *                                       and memcpy()s each into its own
 *                                       buffer, in file order or in reverse
 *                                       order; with "hint", madvise()
 *                                       MADV_SEQUENTIAL and MADV_WILLNEED
 *                                       over the whole mapping first (a
 *                                       loader that asks the kernel to
 *                                       prefetch the model)
 *
 * load prints, per thread, "thread I: tensors N bytes B major_faults M
 * read_bytes R" (R from /proc/thread-self/io, -1 without task I/O
 * accounting), then totals.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc_io.h"

#define MAX_THREADS 64

struct tensor {
	uint64_t begin, end;		/* file offsets */
};

struct loader {
	const unsigned char *map;
	const struct tensor *t;
	size_t first, count;		/* this thread's tensors */
	int reverse;
	pthread_barrier_t *start;
	uint64_t bytes, sum;
	long majflt;
	long long read_bytes;
	int id;
};

static const uint64_t sizes[] = { 4 << 20, 1 << 20, (4 << 20) + (12 << 10), 16 << 10 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static int die(const char *what)
{
	fprintf(stderr, "tensor_load: %s: %s\n", what, strerror(errno));
	return 1;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The JSON header for n tensors; its length is padded to 8 bytes. */
static char *header(size_t n, uint64_t *len)
{
	size_t cap = 64 + n * 96, off = 0, i;
	uint64_t at = 0;
	char *h = malloc(cap);

	if (!h)
		return NULL;
	off += (size_t)snprintf(h + off, cap - off, "{");
	for (i = 0; i < n; i++) {
		uint64_t sz = sizes[i % NSIZES];

		off += (size_t)snprintf(h + off, cap - off,
			"%s\"t%zu\":{\"dtype\":\"U8\",\"shape\":[%" PRIu64 "],\"data_offsets\":[%" PRIu64 ",%" PRIu64 "]}",
			i ? "," : "", i, sz, at, at + sz);
		at += sz;
	}
	off += (size_t)snprintf(h + off, cap - off, "}");
	while (off % 8)
		h[off++] = ' ';
	*len = off;
	return h;
}

static int create(const char *file, const char *mib)
{
	char *end;
	unsigned long m = strtoul(mib, &end, 10);
	uint64_t total = 0, hlen, x = 1;
	unsigned char le[8], *buf;
	size_t n = 0, i, j;
	char *h;
	int fd;

	if (*end || !m || m > 65536) {
		fprintf(stderr, "tensor_load: bad size %s (MiB, 1..65536)\n", mib);
		return 2;
	}
	while (total + sizes[n % NSIZES] <= (uint64_t)m << 20)
		total += sizes[n++ % NSIZES];
	h = header(n, &hlen);
	buf = malloc(sizes[0] + (12 << 10));
	if (!h || !buf)
		return die("malloc");
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return die(file);
	for (i = 0; i < 8; i++)
		le[i] = (unsigned char)(hlen >> (8 * i));
	if (write_all(fd, le, 8) || write_all(fd, h, hlen))
		return die("write");
	for (i = 0; i < n; i++) {
		for (j = 0; j < sizes[i % NSIZES]; j++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			buf[j] = (unsigned char)(x >> 56);
		}
		if (write_all(fd, buf, sizes[i % NSIZES]))
			return die("write");
	}
	if (fsync(fd) || close(fd))
		return die("fsync");
	printf("tensors: %zu\nfile_bytes: %" PRIu64 "\n", n, 8 + hlen + total);
	free(h);
	free(buf);
	return 0;
}

/* The tensors of the header at map, in file order; NULL if malformed. */
static struct tensor *parse(const unsigned char *map, size_t len, size_t *n)
{
	uint64_t hlen = 0, b, e;
	struct tensor *t = NULL;
	const char *p, *end;
	size_t cap = 0;
	int i;

	for (i = 7; i >= 0; i--)
		hlen = hlen << 8 | map[i];
	if (len < 8 || hlen > len - 8)
		return NULL;
	p = (const char *)map + 8;
	end = p + hlen;
	*n = 0;
	while ((p = memmem(p, (size_t)(end - p), "\"data_offsets\":[", 16))) {
		if (sscanf(p + 16, "%" SCNu64 ",%" SCNu64, &b, &e) != 2 || e < b ||
		    8 + hlen + e > len)
			return NULL;
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			t = realloc(t, cap * sizeof(*t));
			if (!t)
				return NULL;
		}
		t[*n].begin = 8 + hlen + b;
		t[(*n)++].end = 8 + hlen + e;
		p += 16;
	}
	return t;
}

static void *load_share(void *arg)
{
	struct loader *l = arg;
	uint64_t max = 0;
	struct rusage ru;
	unsigned char *dst;
	size_t i, k;

	for (i = 0; i < l->count; i++)
		if (l->t[l->first + i].end - l->t[l->first + i].begin > max)
			max = l->t[l->first + i].end - l->t[l->first + i].begin;
	dst = malloc(max ? max : 1);
	if (!dst)
		return NULL;
	memset(dst, 0, max);	/* its faults stay out of the copy */
	pthread_barrier_wait(l->start);
	for (k = 0; k < l->count; k++) {
		const struct tensor *t = &l->t[l->first +
					      (l->reverse ? l->count - 1 - k : k)];
		uint64_t sz = t->end - t->begin;

		memcpy(dst, l->map + t->begin, sz);
		l->sum += dst[0] + dst[sz / 2] + (sz ? dst[sz - 1] : 0);
		l->bytes += sz;
	}
	getrusage(RUSAGE_THREAD, &ru);
	l->majflt = ru.ru_majflt;
	l->read_bytes = proc_read_bytes("/proc/thread-self/io");
	free(dst);
	return l;
}

static int load(const char *file, const char *threads, const char *how,
		const char *hint)
{
	struct loader l[MAX_THREADS];
	pthread_t tid[MAX_THREADS];
	pthread_barrier_t start;
	unsigned long nt = strtoul(threads, NULL, 10);
	uint64_t bytes = 0;
	long majflt = 0;
	struct tensor *t;
	struct stat st;
	size_t n, i;
	void *map;
	int fd;

	if (!nt || nt > MAX_THREADS ||
	    (strcmp(how, "forward") && strcmp(how, "reverse")) ||
	    (hint && strcmp(hint, "hint"))) {
		fprintf(stderr, "tensor_load: load FILE THREADS(1..%d) forward|reverse [hint]\n", MAX_THREADS);
		return 2;
	}
	fd = open(file, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return die(file);
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return die("mmap");
	if (hint && (madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL) ||
		     madvise(map, (size_t)st.st_size, MADV_WILLNEED)))
		return die("madvise");
	t = parse(map, (size_t)st.st_size, &n);
	if (!t || n < nt) {
		fprintf(stderr, "tensor_load: %s: not a tensor file with at least %lu tensors\n",
			file, nt);
		return 1;
	}
	pthread_barrier_init(&start, NULL, (unsigned int)nt);
	for (i = 0; i < nt; i++) {
		l[i] = (struct loader){ .map = map, .t = t, .first = n * i / nt,
			.count = n * (i + 1) / nt - n * i / nt,
			.reverse = !strcmp(how, "reverse"), .start = &start,
			.id = (int)i };
		if (pthread_create(&tid[i], NULL, load_share, &l[i]))
			return die("pthread_create");
	}
	for (i = 0; i < nt; i++) {
		void *r;

		pthread_join(tid[i], &r);
		if (!r)
			return die("thread");
		printf("thread %d: tensors %zu bytes %" PRIu64 " major_faults %ld read_bytes %lld\n",
		       l[i].id, l[i].count, l[i].bytes, l[i].majflt, l[i].read_bytes);
		bytes += l[i].bytes;
		majflt += l[i].majflt;
	}
	printf("tensors: %zu\nbytes: %" PRIu64 "\nthreads: %lu\nthread_major_faults: %ld\n",
	       n, bytes, nt, majflt);
	free(t);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "create"))
		return create(argv[2], argv[3]);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "load"))
		return load(argv[2], argv[3], argv[4], argc == 6 ? argv[5] : NULL);
	fprintf(stderr, "usage: tensor_load create FILE MIB | tensor_load load FILE THREADS forward|reverse [hint]\n");
	return 2;
}
