// SPDX-License-Identifier: GPL-2.0
/*
 * Generated patterns for the stream tracker: each seeded draw picks a
 * workload from a space (readers and threads, a pool of threads taking
 * turns along one stream, direction, stride 1 to 4096 pages, run length,
 * jitter, abandoned scans, one to hundreds of files, a random reader's
 * share, B-tree-like scans whose runs go one way while the scan moves the
 * other), runs it in the fault-path model (stream_model.h) once without
 * and once with the tracker, and checks two invariants:
 *
 * 1. the tracker reads no more pages than stock, plus one largest window
 *    and one ra_pages per stream reader (the window in flight past its
 *    last touch);
 * 2. a steady stream (a strided reader or pool, no jitter, not abandoned,
 *    at least PAT_STEADY touches, in a draw of at most PAT_FEW streams
 *    over at most PAT_FEW files) costs at most PAT_MISSES misses.
 *
 *   pattern_stream [-n DRAWS] [-s FIRST_SEED] [-v]
 *
 * Prints TAP: one test per invariant over all draws; a failing draw is
 * printed with its seed, and "-n 1 -s SEED -v" replays it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../module/stream.c"
#include "stream_model.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PAT_MAX_READERS	PM_READERS
#define PAT_STEADY	64	/* touches that make a stream steady */
#define PAT_FEW		4	/* streams and files a steady draw has at most */
#define PAT_MISSES	12	/* misses a steady stream costs at most */

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
			d->pages[i] = pat_between(&s, 2048, 16384);
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
		d->nfiles = pat_between(&s, 16, PAT_MAX_READERS);
		for (i = 0; i < d->nfiles; i++) {
			struct pat_reader *r = &d->r[d->nreaders++];

			d->pages[i] = pat_between(&s, 256, 2048);
			r->file = i;
			r->rng = pat_rand(&s) | 1;
			pat_stride_reader(d, r, &s);
		}
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

/* Run the draw in @m; the readers' touches come from a copy of @d */
static void pat_run(const struct pat_draw *d0, struct pm *m)
{
	struct pat_draw d = *d0;
	unsigned int live = d.nreaders, ri = 0, b;
	u32 sched = d.seed | 1;
	pgoff_t p = 0;
	u32 task = 0;

	while (live) {
		ri = d.shuffle ? pat_rand(&sched) % d.nreaders :
				 (ri + 1) % d.nreaders;
		for (b = 0; b < d.burst; b++) {
			if (!pat_next(&d, &d.r[ri], ri, &p, &task))
				break;
			m->reader = task;
			m->slot = ri;
			pm_touch(m, d.r[ri].file, p);
			if (!d.r[ri].left)
				live--;
		}
	}
}

static void pat_print(const struct pat_draw *d, const struct pm *stock,
		      const struct pm *on)
{
	unsigned int i;

	printf("# seed %u: ra_pages %lu, %s, %u files, burst %u%s; pages read %lu (stock %lu), misses %lu (stock %lu)\n",
	       d->seed, d->ra_pages,
	       d->kind == RAP_MAP_SEQ ? "VM_SEQ_READ" : "read-around",
	       d->nfiles, d->burst, d->shuffle ? " shuffled" : "",
	       on->pages_read, stock->pages_read, on->misses, stock->misses);
	for (i = 0; i < d->nreaders && i < 8; i++) {
		const struct pat_reader *r = &d->r[i];

		printf("#   reader %u: %s file %u (%lu pages) stride %ld run %lu left %lu jitter %u threads %u%s%s%s: misses %lu (stock %lu), pages %lu (stock %lu)\n",
		       i, pat_kind_name[r->kind], r->file, d->pages[r->file],
		       r->stride, r->run, r->left, r->jitter, r->threads,
		       r->turns ? " in turns" : "",
		       r->abandoned ? " abandoned" : "",
		       r->branch ? " branch" : "",
		       on->slot_misses[i], stock->slot_misses[i],
		       on->slot_pages[i], stock->slot_pages[i]);
	}
}

/*
 * What company a stream reader keeps in its file: alone, a pool of
 * threads, beside random readers only, or beside other streams
 */
enum pat_class { PAT_ALONE, PAT_POOL, PAT_BESIDE_RANDOM, PAT_SHARED,
		 PAT_NR_CLASSES };

static const char *const pat_class_name[] = {
	"alone", "pool", "beside a random reader", "beside other streams"
};

static enum pat_class pat_class(const struct pat_draw *d, unsigned int i)
{
	unsigned int j, streams = 0, randoms = 0;

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

struct pat_tally {
	unsigned long draws[PAT_NR_MIXES], over[PAT_NR_MIXES];
	unsigned long steady[PAT_NR_CLASSES], missed[PAT_NR_CLASSES];
};

/*
 * The invariants of one draw. Returns a bit per failure: bit 0 pages
 * read, bit 1 + class a steady stream of that class over PAT_MISSES.
 */
static unsigned int pat_check(const struct pat_draw *d, bool verbose,
			      struct pat_tally *t)
{
	struct pm stock, on;
	unsigned long slack = 0;
	unsigned int i, bad = 0, streams = 0;

	pm_init(&stock, d->nfiles, d->pages, d->ra_pages, d->kind, false);
	pm_init(&on, d->nfiles, d->pages, d->ra_pages, d->kind, true);
	pat_run(d, &stock);
	pat_run(d, &on);
	for (i = 0; i < d->nreaders; i++) {
		const struct pat_reader *r = &d->r[i];

		if (r->kind == PAT_RANDOM)
			continue;
		streams++;
		/* two windows ahead of its reader at most */
		slack += 2 * pm_max(&on);
		if (pat_looks_dense(d, r))
			slack += r->left * -r->stride;
	}
	t->draws[pat_mix(d)]++;
	if (on.pages_read > stock.pages_read + slack) {
		bad |= 1;
		t->over[pat_mix(d)]++;
	}
	for (i = 0; i < d->nreaders && d->nfiles <= PAT_FEW; i++) {
		const struct pat_reader *r = &d->r[i];
		enum pat_class c = pat_class(d, i);

		if (r->kind != PAT_STRIDE || r->jitter || r->abandoned ||
		    r->left < PAT_STEADY)
			continue;
		t->steady[c]++;
		if (on.slot_misses[i] > PAT_MISSES) {
			t->missed[c]++;
			bad |= 2 << c;
		}
	}
	if (verbose)
		pat_print(d, &stock, &on);
	pm_free(&stock);
	pm_free(&on);
	return bad;
}

/* One TAP line per class, or a comment for a class outside the claim */
static unsigned int pat_report(unsigned int n, bool claimed, unsigned long bad,
			       unsigned long all, const char *what)
{
	if (!claimed) {
		printf("# not claimed: %s: %lu of %lu failed\n", what, bad, all);
		return n;
	}
	printf("%sok %u - patterns: %s: %lu of %lu failed\n", bad ? "not " : "",
	       n + 1, what, bad, all);
	return n + 1;
}

/*
 * Draws that once failed, checked first on every run: 19767, a reverse
 * scan whose set the misses of two B-tree scans of other files share,
 * which evicted it when a stream with a marker out was not held
 */
static const u32 pat_pinned[] = { 19767 };

int main(int argc, char **argv)
{
	unsigned long draws = 2000, i, failed = 0;
	bool all = false, verbose = false;
	struct pat_tally t = { 0 };
	unsigned int c, n = 0;
	struct pat_draw d;
	char what[160];
	u32 first = 1;
	int opt;

	while ((opt = getopt(argc, argv, "an:s:v")) != -1) {
		switch (opt) {
		case 'a':
			all = true;
			break;
		case 'n':
			draws = strtoul(optarg, NULL, 0);
			break;
		case 's':
			first = (u32)strtoul(optarg, NULL, 0);
			break;
		case 'v':
			verbose = true;
			break;
		default:
			fprintf(stderr, "usage: %s [-a] [-n DRAWS] [-s FIRST_SEED] [-v]\n",
				argv[0]);
			return 2;
		}
	}
	printf("TAP version 13\n");
	for (i = 0; i < draws + ARRAY_SIZE(pat_pinned); i++) {
		unsigned int bad;

		pat_draw(&d, i < ARRAY_SIZE(pat_pinned) ? pat_pinned[i] :
			 first + (u32)(i - ARRAY_SIZE(pat_pinned)));
		bad = pat_check(&d, verbose, &t);
		if (!bad || verbose)
			continue;
		if (bad & 1 && (all || pat_mix(&d) == PAT_PLAIN))
			printf("# seed %u: read more than stock + slack; replay: pattern_stream -n 1 -s %u -v\n",
			       d.seed, d.seed);
		if (bad & 2 << PAT_ALONE || (all && bad > 1))
			printf("# seed %u: a steady stream missed more than %d times; replay: pattern_stream -n 1 -s %u -v\n",
			       d.seed, PAT_MISSES, d.seed);
	}
	printf("# %lu draws from seed %u, and %zu pinned\n", draws, first,
	       ARRAY_SIZE(pat_pinned));
	for (c = 0; c < PAT_NR_MIXES; c++) {
		snprintf(what, sizeof(what),
			 "no more pages read than stock, two largest windows a stream and a dense-looking reader's span, %s",
			 pat_mix_name[c]);
		n = pat_report(n, all || c == PAT_PLAIN, t.over[c],
			       t.draws[c], what);
		failed += (all || c == PAT_PLAIN) ? t.over[c] : 0;
	}
	for (c = 0; c < PAT_NR_CLASSES; c++) {
		snprintf(what, sizeof(what),
			 "steady streams %s cost at most %d misses",
			 pat_class_name[c], PAT_MISSES);
		n = pat_report(n, all || c == PAT_ALONE, t.missed[c],
			       t.steady[c], what);
		failed += (all || c == PAT_ALONE) ? t.missed[c] : 0;
	}
	printf("1..%u\n", n);
	return !!failed;
}
