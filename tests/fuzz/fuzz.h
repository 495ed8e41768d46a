/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the libFuzzer harnesses share: a reader that takes integers and
 * strings off the fuzz input (zeros once it is used up), and a check that
 * stops the run with a message libFuzzer shows as a crash.
 */
#ifndef RAP_FUZZ_H
#define RAP_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fz {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t fz_u8(struct fz *f)
{
	uint8_t v = 0;

	if (f->n) {
		v = *f->p++;
		f->n--;
	}
	return v;
}

/* Little-endian, from the bytes that are left */
static inline uint64_t fz_u64(struct fz *f, unsigned int bytes)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)fz_u8(f) << (8 * i);
	return v;
}

/* The next chunk up to a separator byte sep (or the end), NUL-terminated */
static inline char *fz_chunk(struct fz *f, uint8_t sep)
{
	const uint8_t *end = memchr(f->p, sep, f->n);
	size_t len = end ? (size_t)(end - f->p) : f->n;
	char *s = malloc(len + 1);

	if (!s)
		abort();
	memcpy(s, f->p, len);
	s[len] = '\0';
	f->p += len + (end ? 1 : 0);
	f->n -= len + (end ? 1 : 0);
	return s;
}

/* An invariant of the code under test; a failure is a finding */
#define FZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "INVARIANT %s:%d: %s: ", __FILE__,\
				__LINE__, #cond);			\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

#endif /* RAP_FUZZ_H */
