/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stream tracker's pattern generator, shared by the host model
 * (pattern_stream.c) and the guest walker (tests/guest/patwalk.c): a
 * seeded draw of readers over files, and the touches they make in order.
 *
 * The includer provides u32, pgoff_t, bool, enum rap_mapping_kind with
 * RAP_MAP_AROUND and RAP_MAP_SEQ, PM_READERS (reader slots) and PM_AROUND
 * (pages fault-around maps).
 */
#ifndef RAP_PATTERN_GEN_H
#define RAP_PATTERN_GEN_H

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PAT_MAX_READERS	PM_READERS
#define PAT_STEADY	64	/* touches that make a stream steady */
#define PAT_FEW		4	/* streams and files a steady draw has at most */
#define PAT_MISSES	12	/* misses a steady stream costs at most */
#define PAT_HANDOFF	4	/* misses a stream reader adds to stock's */
#define PAT_MANY	64	/* files of a drawn many-file workload at most */

/*
 * Pages of a few-file draw's largest file (2048 at least); the draws of a
 * seed are the same for every value up to 16384, the default
 */
static unsigned long pat_max_pages = 16384;

enum pat_kind { PAT_STRIDE, PAT_RANDOM, PAT_BTREE };

static const char *const pat_kind_name[] = { "stride", "random", "btree" };

struct pat_reader {
	enum pat_kind kind;
	unsigned int file;
	long stride;		/* signed: the direction */
	pgoff_t pos;		/* next touch (stride), run start (btree) */
	unsigned long left;	/* touches to go */
	unsigned long touches;	/* touches made */
	unsigned int jitter;	/* pages a touch may land off its place */
	unsigned int threads;	/* a pool of this many tasks takes turns */
	bool turns;		/* the pool's tasks in strict turns */
	bool abandoned;		/* stops after a few touches */
	unsigned long run;	/* btree: pages per run */
	unsigned long in_run;	/* btree: pages of this run touched */
	bool branch;		/* btree: a branch page below each run first */
	bool at_branch;		/* btree: the branch page was the last touch */
	u32 rng;
};

struct pat_draw {
	u32 seed;
	unsigned long ra_pages;
	enum rap_mapping_kind kind;
	unsigned int nfiles;
	unsigned long pages[1024];
	unsigned int nreaders;
	struct pat_reader r[PAT_MAX_READERS];
	unsigned int burst;	/* touches of one reader before the next */
	bool shuffle;		/* the next reader drawn at random */
};

static u32 pat_rand(u32 *s)
{
	/* xorshift32 */
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static unsigned long pat_between(u32 *s, unsigned long lo, unsigned long hi)
{
	return lo + pat_rand(s) % (hi - lo + 1);
}

/* 1 to @max, each power of two as likely, anything in between */
static unsigned long pat_log(u32 *s, unsigned long max)
{
	unsigned int bits = 0;
	unsigned long v;

	while ((2UL << bits) <= max)
		bits++;
	bits = pat_rand(s) % (bits + 1);
	v = (1UL << bits) + pat_rand(s) % (1UL << bits);
	return v > max ? max : v;
}

static void pat_stride_reader(struct pat_draw *d, struct pat_reader *r,
			      u32 *s)
{
	unsigned long pages = d->pages[r->file], span;
	bool up = pat_rand(s) % 2;

	r->kind = PAT_STRIDE;
	r->stride = (long)pat_log(s, pages / 8 > 4096 ? 4096 :
				  (pages / 8 ? pages / 8 : 1));
	if (!up)
		r->stride = -r->stride;
	/* a start in the file's first or last quarter, the run to its end */
	span = pages / 4 ? pages / 4 : 1;
	r->pos = up ? pat_rand(s) % span : pages - 1 - pat_rand(s) % span;
	r->left = (up ? pages - r->pos : r->pos + 1) / labs(r->stride);
	if (!r->left)
		r->left = 1;
	if (pat_rand(s) % 6 == 0) {
		r->abandoned = true;
		r->left = r->left < 8 ? r->left : pat_between(s, 2, 8);
	}
	if (pat_rand(s) % 5 == 0 && labs(r->stride) >= 4)
		r->jitter = pat_between(s, 1, labs(r->stride) / 4);
	r->threads = pat_rand(s) % 4 == 0 ? pat_between(s, 2, 4) : 1;
	r->turns = pat_rand(s) % 2;
}

static void pat_btree_reader(struct pat_draw *d, struct pat_reader *r,
			     u32 *s)
{
	unsigned long pages = d->pages[r->file];

	r->kind = PAT_BTREE;
	r->run = pat_between(s, 2, pages / 8 > 512 ? 512 :
			     (pages / 8 > 2 ? pages / 8 : 2));
	r->branch = pat_rand(s) % 2;
	/* runs read upwards, from the top of the file down */
	r->pos = pages - r->run;
	r->left = pages - 1;
	r->stride = -(long)r->run;
}

static void pat_random_reader(struct pat_draw *d, struct pat_reader *r,
			      u32 *s)
{
	r->kind = PAT_RANDOM;
	/* a share of the file's pages: 1/100 to 1/4 */
	r->left = d->pages[r->file] / pat_between(s, 4, 100) + 1;
}

static void pat_draw(struct pat_draw *d, u32 seed)
{
	static const unsigned long ras[] = { 32, 256, 2048 };
	u32 s = seed * 2654435761u + 1;
	unsigned int i, n, shape = pat_rand(&s) % 10;

	memset(d, 0, sizeof(*d));
	d->seed = seed;
	d->ra_pages = ras[pat_rand(&s) % 3];
	d->kind = pat_rand(&s) % 3 ? RAP_MAP_AROUND : RAP_MAP_SEQ;
	d->burst = pat_rand(&s) % 2 ? 1 : (unsigned int)pat_log(&s, 64);
	d->shuffle = pat_rand(&s) % 2;
	if (shape < 7) {
		/* a few files, a few readers */
		d->nfiles = pat_rand(&s) % 2 ? 1 : pat_between(&s, 2, 4);
		for (i = 0; i < d->nfiles; i++)
			d->pages[i] = pat_between(&s, 2048, pat_max_pages);
		n = pat_between(&s, 1, 4);
		for (i = 0; i < n; i++) {
			struct pat_reader *r = &d->r[d->nreaders++];

			r->file = pat_rand(&s) % d->nfiles;
			r->rng = pat_rand(&s) | 1;
			if (pat_rand(&s) % 4 == 0)
				pat_btree_reader(d, r, &s);
			else
				pat_stride_reader(d, r, &s);
		}
		/* a random reader beside them */
		if (pat_rand(&s) % 3 == 0) {
			struct pat_reader *r = &d->r[d->nreaders++];

			r->file = d->r[0].file;
			r->rng = pat_rand(&s) | 1;
			pat_random_reader(d, r, &s);
		}
	} else {
		/* more files than a set holds streams: one reader each */
		d->nfiles = pat_between(&s, 16, PAT_MANY);
		for (i = 0; i < d->nfiles; i++) {
			struct pat_reader *r = &d->r[d->nreaders++];

			d->pages[i] = pat_between(&s, 256, 2048);
			r->file = i;
			r->rng = pat_rand(&s) | 1;
			pat_stride_reader(d, r, &s);
		}
	}
}

/*
 * @nfiles files of @pages pages, each read backwards from its last page by
 * one strided reader of @stride pages, the readers in turn, one touch
 * each: many more files than the tracker's first table has ways
 */
static inline void pat_draw_files(struct pat_draw *d, unsigned int nfiles,
				  unsigned long pages, unsigned long stride,
				  unsigned long ra_pages,
				  enum rap_mapping_kind kind)
{
	unsigned int i;

	memset(d, 0, sizeof(*d));
	d->ra_pages = ra_pages;
	d->kind = kind;
	d->burst = 1;
	d->nfiles = nfiles;
	for (i = 0; i < nfiles; i++) {
		struct pat_reader *r = &d->r[d->nreaders++];

		d->pages[i] = pages;
		r->kind = PAT_STRIDE;
		r->file = i;
		r->stride = -(long)stride;
		r->pos = pages - 1;
		r->left = pages / stride;
		r->threads = 1;
		r->rng = i + 1;
	}
}

/* The page of a reader's next touch, and its task; false when done */
static bool pat_next(struct pat_draw *d, struct pat_reader *r,
		     unsigned int ri, pgoff_t *p, u32 *task)
{
	unsigned long pages = d->pages[r->file];
	long j;

	if (!r->left)
		return false;
	*task = 100 * ri + (r->threads > 1 ?
			    (r->turns ? r->touches % r->threads :
			     pat_rand(&r->rng) % r->threads) : 0);
	switch (r->kind) {
	case PAT_RANDOM:
		*p = pat_rand(&r->rng) % pages;
		break;
	case PAT_STRIDE:
		*p = r->pos;
		if (r->jitter && pat_rand(&r->rng) % 2) {
			j = (long)(pat_rand(&r->rng) % (2 * r->jitter + 1)) -
			    (long)r->jitter;
			if ((long)*p + j >= 0 && *p + j < pages)
				*p += j;
		}
		r->pos += r->stride;
		if (r->pos >= pages)	/* also below 0, unsigned */
			r->left = 1;
		break;
	case PAT_BTREE:
		if (r->branch && !r->in_run && !r->at_branch && r->pos > 0) {
			/* the branch page below the run, then its leaves */
			*p = r->pos - 1;
			r->at_branch = true;
			break;
		}
		r->at_branch = false;
		*p = r->pos + r->in_run;
		if (++r->in_run == r->run || *p + 1 >= pages) {
			r->in_run = 0;
			if (r->pos < r->run + 1)
				r->left = 1;
			else
				r->pos -= r->run + r->branch;
		}
		break;
	}
	r->touches++;
	r->left--;
	return true;
}

/*
 * What company a stream reader keeps in its file: alone, a pool of
 * threads, beside random readers only, or beside other streams
 */
enum pat_class { PAT_ALONE, PAT_POOL, PAT_BESIDE_RANDOM, PAT_SHARED,
		 PAT_MANY_FILES, PAT_NR_CLASSES };

static const char *const pat_class_name[] = {
	"alone", "pool", "beside a random reader", "beside other streams",
	"alone, one of 16 to 64 files read at once,"
};

static enum pat_class pat_class(const struct pat_draw *d, unsigned int i)
{
	unsigned int j, streams = 0, randoms = 0;

	if (d->nfiles > PAT_FEW)
		return d->r[i].threads > 1 ? PAT_NR_CLASSES : PAT_MANY_FILES;

	for (j = 0; j < d->nreaders; j++) {
		if (j == i || d->r[j].file != d->r[i].file)
			continue;
		if (d->r[j].kind == PAT_RANDOM)
			randoms++;
		else
			streams++;
	}
	if (streams)
		return PAT_SHARED;
	if (d->r[i].threads > 1)
		return PAT_POOL;
	return randoms ? PAT_BESIDE_RANDOM : PAT_ALONE;
}

/*
 * A backward reader in read-around whose touches map every fault-around
 * block (a stride, give or take its jitter, of at most two blocks) looks
 * dense to the tracker (docs/STREAMS.md, "The model"): it reads the span
 * of its walk, where stock past MMAP_LOTSAMISS reads the touched pages
 */
static bool pat_looks_dense(const struct pat_draw *d,
			    const struct pat_reader *r)
{
	return d->kind == RAP_MAP_AROUND && r->kind == PAT_STRIDE &&
	       r->stride < 0 &&
	       (unsigned long)-r->stride + r->jitter <= 2 * PM_AROUND;
}

/* Invariant 1's draws: no jitter nor random reader, jitter, random reader */
enum pat_mix { PAT_PLAIN, PAT_JITTER, PAT_RANDOM_SHARE, PAT_NR_MIXES };

static const char *const pat_mix_name[] = {
	"without jitter or a random reader", "with jitter",
	"with a random reader"
};

static enum pat_mix pat_mix(const struct pat_draw *d)
{
	enum pat_mix mix = PAT_PLAIN;
	unsigned int i;

	for (i = 0; i < d->nreaders; i++) {
		if (d->r[i].jitter)
			return PAT_JITTER;
		if (d->r[i].kind == PAT_RANDOM)
			mix = PAT_RANDOM_SHARE;
	}
	return mix;
}

#endif /* RAP_PATTERN_GEN_H */
