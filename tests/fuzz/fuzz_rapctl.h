/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the rapolicyctl harnesses share: the one fake tree of the tests
 * (userspace/tests/fake_tree.c, generated from module/table.h) in a
 * temporary directory removed at exit, a dump of it to tell whether a run
 * changed anything, and a run of rapctl_main() with its output in memory.
 */
#ifndef FUZZ_RAPCTL_H
#define FUZZ_RAPCTL_H

#include <ftw.h>
#include <unistd.h>

#include "fake_tree.h"
#include "fuzz.h"

extern const char *rap_root;
int rapctl_main(int argc, char **argv, FILE *out, FILE *err);

static char fk_root[64];
static char *fk_dump_buf;
static size_t fk_dump_len;
static FILE *fk_dump_f;

static inline int fk_rm(const char *p, const struct stat *st, int type, struct FTW *f)
{
	(void)st;
	(void)type;
	(void)f;
	return remove(p);
}

static inline void fk_cleanup(void)
{
	if (fk_root[0])
		nftw(fk_root, fk_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* A fresh tree, as the module shows it after load (every file rewritten) */
static inline void fk_reset(void)
{
	if (fake_tree_create(fk_root, RAPOLICY_VERSION, NULL))
		abort();
	rap_root = fk_root;
}

static inline int fk_init(void)
{
	strcpy(fk_root, access("/dev/shm", W_OK) ? "/tmp/rapctl-fuzz.XXXXXX" :
	       "/dev/shm/rapctl-fuzz.XXXXXX");
	if (!mkdtemp(fk_root))
		return -1;
	atexit(fk_cleanup);
	fk_reset();
	return 0;
}

static inline int fk_add(const char *p, const struct stat *st, int type, struct FTW *f)
{
	char buf[4096];
	FILE *in;
	size_t n;

	(void)st;
	(void)f;
	fprintf(fk_dump_f, "%s\n", p);
	if (type != FTW_F)
		return 0;
	in = fopen(p, "r");
	if (!in)
		return 0;
	n = fread(buf, 1, sizeof(buf), in);
	fwrite(buf, 1, n, fk_dump_f);
	fclose(in);
	return 0;
}

/* Every path and file of the tree, malloc'ed */
static inline char *fk_dump(void)
{
	fk_dump_f = open_memstream(&fk_dump_buf, &fk_dump_len);
	nftw(fk_root, fk_add, 16, FTW_PHYS);
	fclose(fk_dump_f);
	return fk_dump_buf;
}

/* rapctl_main() on argv; out and err malloc'ed */
static inline int fk_run(int argc, char **argv, char **out, char **err)
{
	size_t lo, le;
	FILE *o = open_memstream(out, &lo), *e = open_memstream(err, &le);
	int rc = rapctl_main(argc, argv, o, e);

	fclose(o);
	fclose(e);
	rap_root = fk_root;
	return rc;
}

/* Every line of err is one of the tool's messages */
static inline bool fk_messages_ok(const char *err)
{
	for (const char *l = err; *l; l = strchr(l, '\n') + 1) {
		if (strncmp(l, "rapolicyctl: ", 13) || !strchr(l, '\n'))
			return false;
	}
	return true;
}

#endif
