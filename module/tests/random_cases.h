/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicy: test cases of random_miss, for the host unit tests
 * (tests/unit/test_random.c) and a KUnit suite alike.
 *
 * The includer defines struct rap_test, RAP_EXPECT(t, cond) and includes
 * random.c before this file. Most cases drive the policy with a model of
 * the kernel's read-around fault path over a fake page cache: a fault on
 * an uncached page is a miss, which raises mmap_miss (up to ten times
 * MMAP_LOTSAMISS) and, up to MMAP_LOTSAMISS, reads the read-around window
 * of ra_pages centred on it with a marker ra_pages / 4 from its end, or
 * the policy's window; above it only the page. Its retry maps the cached
 * pages of the fault-around block with FAULT_FLAG_TRIED, an mmap hit the
 * kernel does not count. A fault on a cached page maps its block and is a
 * counted hit; on a marked one it reads the next window (async).
 */
#ifndef RAPOLICY_RANDOM_CASES_H
#define RAPOLICY_RANDOM_CASES_H

#define RAP_RSIM_PAGES		65536UL		/* a 256 MiB file */
#define RAP_RSIM_AROUND		16UL		/* fault_around_bytes, 64 KiB */
#define RAP_RSIM_LOTSAMISS	100U		/* mm/filemap.c */
#define RAP_RSIM_CACHED		1
#define RAP_RSIM_MAPPED		2
#define RAP_RSIM_MARKED		4

struct rap_rsim {
	unsigned char page[RAP_RSIM_PAGES];
	struct rap_random r;
	unsigned long pages;		/* file size */
	unsigned long ra_pages;
	bool policy;			/* random_miss=fault */
	unsigned int mmap_miss;
	pgoff_t ra_start;		/* the last window: start and size */
	unsigned long ra_size;
	/* what happened */
	unsigned long majors, pages_read, touched, shrunk, returns;
};

static struct rap_rsim rap_rsim;

static void rap_rsim_init(struct rap_rsim *s, unsigned long pages,
			  unsigned long ra_pages, bool policy)
{
	memset(s, 0, sizeof(*s));
	s->pages = pages;
	s->ra_pages = ra_pages;
	s->policy = policy;
	s->r.need = RAP_RANDOM_RUN;
	s->r.used = true;
}

/* Drop every page from the cache and every mapping; keep the file's state */
static void rap_rsim_drop(struct rap_rsim *s)
{
	memset(s->page, 0, sizeof(s->page));
}

static void rap_rsim_reset_counts(struct rap_rsim *s)
{
	s->majors = 0;
	s->pages_read = 0;
	s->touched = 0;
	s->shrunk = 0;
	s->returns = 0;
}

static void rap_rsim_read(struct rap_rsim *s, pgoff_t start,
			  unsigned long size, unsigned long async)
{
	pgoff_t i;

	for (i = start; i < start + size && i < s->pages; i++) {
		if (s->page[i] & RAP_RSIM_CACHED)
			continue;
		s->page[i] = RAP_RSIM_CACHED;
		s->pages_read++;
	}
	if (async && async <= size && start + size - async < s->pages)
		s->page[start + size - async] |= RAP_RSIM_MARKED;
	s->ra_start = start;
	s->ra_size = size;
}

/* Fault-around: map the cached pages of @index's block */
static void rap_rsim_map_around(struct rap_rsim *s, pgoff_t index)
{
	pgoff_t i, first = index & ~(RAP_RSIM_AROUND - 1);

	for (i = first; i < first + RAP_RSIM_AROUND && i < s->pages; i++)
		if ((s->page[i] & RAP_RSIM_CACHED) &&
		    !(s->page[i] & RAP_RSIM_MARKED))
			s->page[i] |= RAP_RSIM_MAPPED;
	s->page[index] |= RAP_RSIM_MAPPED;
}

/* A mapping of the faulting page from the cache, @counted by stock */
static void rap_rsim_hit(struct rap_rsim *s, pgoff_t index, bool counted)
{
	unsigned int did;

	if (s->policy)
		counted = rap_random_hit(&s->r, index, counted, &did);
	if (counted && s->mmap_miss)
		s->mmap_miss--;
}

static void rap_rsim_miss(struct rap_rsim *s, pgoff_t index)
{
	struct ra_policy_window win;
	struct rap_random_fault f = {
		.point = RA_POLICY_SYNC_AROUND,
		.index = index,
		.counted = true,
	};
	unsigned int did = 0;

	s->majors++;
	if (s->mmap_miss < 10 * RAP_RSIM_LOTSAMISS)
		s->mmap_miss++;
	if (s->mmap_miss > RAP_RSIM_LOTSAMISS) {
		rap_rsim_read(s, index, 1, 0);
	} else {
		win = (struct ra_policy_window){
			.start = index > s->ra_pages / 2 ?
				 index - s->ra_pages / 2 : 0,
			.size = s->ra_pages,
			.async_size = s->ra_pages / 4,
			.max_index = ~0UL,
		};
		if (s->policy && rap_random_decide(&s->r, &f, &win, &did))
			s->shrunk++;
		if (did & RAP_RANDOM_DID_RETURN)
			s->returns++;
		rap_rsim_read(s, win.start, win.size, win.async_size);
	}
	/* the retry of the fault */
	rap_rsim_map_around(s, index);
	rap_rsim_hit(s, index, false);
}

static void rap_rsim_async(struct rap_rsim *s, pgoff_t index)
{
	struct rap_random_fault f = {
		.point = RA_POLICY_ASYNC,
		.index = index,
		.counted = true,
	};
	unsigned long size = 2 * s->ra_size;
	struct ra_policy_window win = { .start = index, .size = s->ra_pages };
	unsigned int did;

	s->page[index] &= ~RAP_RSIM_MARKED;
	if (s->policy && rap_random_decide(&s->r, &f, &win, &did)) {
		rap_rsim_read(s, win.start, win.size, win.async_size);
		return;
	}
	if (size > s->ra_pages)
		size = s->ra_pages;
	rap_rsim_read(s, s->ra_start + s->ra_size, size, size);
}

static void rap_rsim_touch(struct rap_rsim *s, pgoff_t index)
{
	unsigned char p = s->page[index];

	s->touched++;
	if (p & RAP_RSIM_MAPPED)
		return;
	if (!(p & RAP_RSIM_CACHED)) {
		rap_rsim_miss(s, index);
		return;
	}
	if (p & RAP_RSIM_MARKED)
		rap_rsim_async(s, index);
	rap_rsim_map_around(s, index);
	rap_rsim_hit(s, index, true);
}

/* xorshift64: the same pseudo-random pages on every build */
static u64 rap_rsim_next(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* @n touches of pseudo-random pages, as rawalk's random:P (not distinct) */
static void rap_rsim_random(struct rap_rsim *s, unsigned long n, u64 seed)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		rap_rsim_touch(s, rap_rsim_next(&seed) % s->pages);
}

static void rap_rsim_forward(struct rap_rsim *s)
{
	pgoff_t i;

	for (i = 0; i < s->pages; i++)
		rap_rsim_touch(s, i);
}

/* 1% random pages of 128 MiB at read_ahead_kb 64 (rand1-normal) */
static void rap_random_case_rand1(struct rap_test *t)
{
	struct rap_rsim *s = &rap_rsim;
	unsigned long stock_read, stock_majors;

	rap_rsim_init(s, 32768, 16, false);
	rap_rsim_random(s, 328, 1);
	stock_read = s->pages_read;
	stock_majors = s->majors;
	/* the model reads what the bench measures: about 100 windows */
	RAP_EXPECT(t, stock_read > 5 * s->touched);

	rap_rsim_init(s, 32768, 16, true);
	rap_rsim_random(s, 328, 1);
	RAP_EXPECT(t, 2 * s->pages_read <= 3 * s->touched);
	RAP_EXPECT(t, 100 * s->majors <= 105 * stock_majors);
	/* two windows judged, then the faulting page only */
	RAP_EXPECT(t, s->shrunk + RAP_RANDOM_WASTED + 1 >= s->majors);
	RAP_EXPECT(t, s->returns == 0);
	/* its misses took their mmap_miss increments back */
	RAP_EXPECT(t, s->mmap_miss <= RAP_RANDOM_WASTED + 1);
}

/*
 * Lookups, a scan of the whole file after its pages were dropped, lookups
 * again: the scan reads as a fresh one does, one miss more (the policy
 * sees a run at the second one); stock reads it a page per miss.
 */
static void rap_random_case_phases(struct rap_test *t)
{
	struct rap_rsim *s = &rap_rsim;
	unsigned long fresh_majors, fresh_read;

	rap_rsim_init(s, RAP_RSIM_PAGES, 32, true);
	rap_rsim_forward(s);
	fresh_majors = s->majors;
	fresh_read = s->pages_read;
	RAP_EXPECT(t, s->shrunk == 0);

	rap_rsim_init(s, RAP_RSIM_PAGES, 32, false);
	rap_rsim_random(s, 655, 2);
	rap_rsim_drop(s);
	rap_rsim_reset_counts(s);
	rap_rsim_forward(s);
	RAP_EXPECT(t, s->majors > RAP_RSIM_PAGES / 2);	/* stock */

	rap_rsim_init(s, RAP_RSIM_PAGES, 32, true);
	rap_rsim_random(s, 655, 2);
	RAP_EXPECT(t, 2 * s->pages_read <= 3 * s->touched);
	/* stock's mmap_miss would hold the misses taken back */
	RAP_EXPECT(t, s->r.took > RAP_RANDOM_MAX_CREDIT);
	rap_rsim_drop(s);
	rap_rsim_reset_counts(s);
	rap_rsim_forward(s);
	RAP_EXPECT(t, s->majors <= fresh_majors + 1);
	RAP_EXPECT(t, s->pages_read == fresh_read);
	RAP_EXPECT(t, s->returns == 1);
	/* a window that paid: the tracker starts over with the kernel's */
	RAP_EXPECT(t, s->r.took == 0);

	/* lookups again: random again after two windows */
	rap_rsim_reset_counts(s);
	rap_rsim_drop(s);
	rap_rsim_random(s, 655, 3);
	RAP_EXPECT(t, 2 * s->pages_read <= 3 * s->touched);
}

/*
 * Records of two pages at random offsets: each record's second miss is a
 * run. A return that does not pay doubles the run the next one needs, so
 * the policy reads no more than stock, whose mmap_miss ends read-around
 * after MMAP_LOTSAMISS records.
 */
static void rap_random_case_pairs(struct rap_test *t)
{
	struct rap_rsim *s = &rap_rsim;
	unsigned long stock_read, i;
	u64 seed = 4;

	rap_rsim_init(s, RAP_RSIM_PAGES, 32, false);
	for (i = 0; i < 2000; i++) {
		pgoff_t p = rap_rsim_next(&seed) % (s->pages - 1);

		rap_rsim_touch(s, p);
		rap_rsim_touch(s, p + 1);
	}
	stock_read = s->pages_read;

	rap_rsim_init(s, RAP_RSIM_PAGES, 32, true);
	seed = 4;
	for (i = 0; i < 2000; i++) {
		pgoff_t p = rap_rsim_next(&seed) % (s->pages - 1);

		rap_rsim_touch(s, p);
		rap_rsim_touch(s, p + 1);
	}
	RAP_EXPECT(t, s->pages_read <= stock_read);
	/* a record near the last window pays for it now and then */
	RAP_EXPECT(t, s->returns < 2000 / RAP_RSIM_LOTSAMISS);
	RAP_EXPECT(t, s->r.need >= 2 * RAP_RANDOM_RUN);
}

/* A sequential reader never loses read-around, nor a strided one within it */
static void rap_random_case_sequential(struct rap_test *t)
{
	struct rap_rsim *s = &rap_rsim;
	unsigned long stock_majors, stock_read;
	pgoff_t i;

	rap_rsim_init(s, 8192, 32, false);
	for (i = 0; i < s->pages; i += 8)
		rap_rsim_touch(s, i);
	stock_majors = s->majors;
	stock_read = s->pages_read;
	rap_rsim_init(s, 8192, 32, true);
	for (i = 0; i < s->pages; i += 8)
		rap_rsim_touch(s, i);
	RAP_EXPECT(t, s->shrunk == 0);
	RAP_EXPECT(t, s->majors == stock_majors);
	RAP_EXPECT(t, s->pages_read == stock_read);
}

/* The window of a random miss: the faulting page, the bound kept */
static void rap_random_case_window(struct rap_test *t)
{
	struct rap_random r = { .need = RAP_RANDOM_RUN, .used = true };
	struct rap_random_fault f = { .point = RA_POLICY_SYNC_THP,
				      .counted = true };
	struct ra_policy_window win;
	unsigned int did, i;

	for (i = 0; i < 3; i++) {
		f.index = 1000 + 5000 * i;
		win = (struct ra_policy_window){ .start = f.index & ~511UL,
						 .size = 1024, .async_size = 512,
						 .order = 9, .max_index = 20000 };
		RAP_EXPECT(t, rap_random_decide(&r, &f, &win, &did) ==
			      (i == RAP_RANDOM_WASTED));
	}
	RAP_EXPECT(t, win.start == f.index && win.size == 1);
	RAP_EXPECT(t, win.async_size == 0 && win.order == 0 && !win.order_once);
	RAP_EXPECT(t, win.max_index == 20000);
	RAP_EXPECT(t, did == RAP_RANDOM_DID_SHRINK && r.credit == 1);
	/* the retry takes the increment back, a counted hit does not */
	RAP_EXPECT(t, rap_random_hit(&r, f.index, false, &did));
	RAP_EXPECT(t, did == RAP_RANDOM_DID_CREDIT && r.credit == 0);
	RAP_EXPECT(t, !rap_random_hit(&r, f.index, false, &did) && !did);
	/* stock's mmap_miss holds what was taken back, for the tracker */
	RAP_EXPECT(t, r.took == 1);
	/* VM_SEQ_READ and VM_EXEC misses are not counted: nothing to take */
	f.index = 30000;
	f.counted = false;
	RAP_EXPECT(t, rap_random_decide(&r, &f, &win, &did) && !r.credit);
	/* a VM_HUGEPAGE window with room in the memcg is read as offered */
	f.room = true;
	f.point = RA_POLICY_SYNC_THP;
	f.index = 35000;
	win = (struct ra_policy_window){ .start = 34816, .size = 1024,
					 .async_size = 512, .order = 9 };
	RAP_EXPECT(t, !rap_random_decide(&r, &f, &win, &did) && !did);
	RAP_EXPECT(t, win.start == 34816 && win.size == 1024 && r.random);
	f.point = RA_POLICY_ASYNC;
	f.index = 35400;
	RAP_EXPECT(t, !rap_random_decide(&r, &f, &win, &did) && !did);
	RAP_EXPECT(t, win.size == 1024 && win.async_size == 512);
	/* without room, while the reader maps one cached folio in four misses */
	f.room = false;
	f.point = RA_POLICY_SYNC_THP;
	r.thp_misses = 0;
	r.pmd_hits = 0;
	for (i = 0; i < 5; i++) {
		/* the retry of the miss maps its own folio: no evidence */
		rap_random_pmd_hit(&r, r.last + 1, 512);
		if (!i)
			rap_random_pmd_hit(&r, r.last + 5000, 512);
		f.index = 36000 + 5000 * i;
		win = (struct ra_policy_window){ .start = f.index & ~511UL,
						 .size = 1024, .order = 9 };
		RAP_EXPECT(t, rap_random_decide(&r, &f, &win, &did) == (i == 4));
	}
	/* other decision points are not its */
	f.point = RA_POLICY_SYNC_SEQ;
	f.index = 40000;
	RAP_EXPECT(t, !rap_random_decide(&r, &f, &win, &did) && !did);
}

/* A read-around miss at @index offered a window of 32 pages around it */
static bool rap_rmiss(struct rap_random *r, struct rap_random_fault *f,
		      pgoff_t index)
{
	struct ra_policy_window win = { .start = index - 16, .size = 32 };
	unsigned int did;

	f->index = index;
	return rap_random_decide(r, f, &win, &did);
}

#define RAP_RMISS(idx) rap_rmiss(&r, &f, idx)

/* Evidence against randomness: a stream, a marker, a near miss, a hit */
static void rap_random_case_evidence(struct rap_test *t)
{
	struct rap_random_fault f = { .point = RA_POLICY_SYNC_AROUND,
				      .counted = true };
	struct ra_policy_window win;
	struct rap_random r;
	unsigned int did;

	/* random after two far misses whose windows were never entered */
	r = (struct rap_random){ .need = RAP_RANDOM_RUN, .used = true };
	RAP_EXPECT(t, !RAP_RMISS(1000) && !RAP_RMISS(9000) && RAP_RMISS(20000));
	/* another policy's stream window is read, and judged */
	f.replaced = true;
	RAP_EXPECT(t, !RAP_RMISS(30000) && r.random && r.win_pages == 32);
	f.replaced = false;
	/* a hit in the window pays for it */
	rap_random_hit(&r, 30000 - 3, true, &did);
	RAP_EXPECT(t, r.paid && !r.random);
	RAP_EXPECT(t, !RAP_RMISS(40000) && r.wasted == 0);
	/* a miss just past a window means the reader walked through it */
	RAP_EXPECT(t, !RAP_RMISS(50000) && r.wasted == 1);
	RAP_EXPECT(t, !RAP_RMISS(50000 + 20) && r.wasted == 0);
	RAP_EXPECT(t, !RAP_RMISS(1000) && RAP_RMISS(9000) && r.random);
	/* a run returns; a return not paid is random at once, asks twice */
	RAP_EXPECT(t, !RAP_RMISS(9001) && r.returned);
	RAP_EXPECT(t, RAP_RMISS(30000) && r.need == 2 * RAP_RANDOM_RUN);
	RAP_EXPECT(t, RAP_RMISS(30001) && RAP_RMISS(30002) && !RAP_RMISS(30003));
	RAP_EXPECT(t, r.returned);
	/* a miss near the returned window pays for it: the run back to 2 */
	RAP_EXPECT(t, !RAP_RMISS(30003 + 40) && r.need == RAP_RANDOM_RUN);
	/* a marker hit of a random file reads nothing more */
	RAP_EXPECT(t, !RAP_RMISS(1000) && RAP_RMISS(9000) && r.random);
	f.point = RA_POLICY_ASYNC;
	f.index = 20000;
	win = (struct ra_policy_window){ .start = 20000, .size = 32 };
	RAP_EXPECT(t, rap_random_decide(&r, &f, &win, &did) && r.random);
	RAP_EXPECT(t, win.start == 20000 && win.size == 1 && !win.async_size);
	RAP_EXPECT(t, did == RAP_RANDOM_DID_MARKER);
	/* unless it is a stream's marker */
	f.replaced = true;
	RAP_EXPECT(t, !rap_random_decide(&r, &f, &win, &did) && !did);
	/* a marker hit of a file read around pays */
	f.replaced = false;
	f.point = RA_POLICY_SYNC_AROUND;
	RAP_EXPECT(t, !RAP_RMISS(9001) && !r.random);
	f.point = RA_POLICY_ASYNC;
	RAP_EXPECT(t, !rap_random_decide(&r, &f, &win, &did) && r.paid);
}

#undef RAP_RMISS

/* Each open file has its own state; the least recently used one goes */
static void rap_random_case_find(struct rap_test *t)
{
	static struct rap_random_set set;
	struct rap_random_key k = { .inode = 7 };
	struct rap_random *first;
	unsigned long i;

	memset(&set, 0, sizeof(set));
	k.file = 100;
	RAP_EXPECT(t, !rap_random_find(&set, &k, false));
	first = rap_random_find(&set, &k, true);
	RAP_EXPECT(t, first && first->need == RAP_RANDOM_RUN);
	first->random = true;
	for (i = 1; i < RAP_RANDOM_WAYS; i++) {
		k.file = 100 + i;
		RAP_EXPECT(t, rap_random_find(&set, &k, true) != first);
	}
	k.file = 100;
	RAP_EXPECT(t, rap_random_find(&set, &k, false) == first);
	RAP_EXPECT(t, first->random);
	/* the file after it in age goes, not the one just looked up */
	k.file = 200;
	RAP_EXPECT(t, rap_random_find(&set, &k, true) != first);
	k.file = 101;
	RAP_EXPECT(t, !rap_random_find(&set, &k, false));
	k.file = 100;
	k.inode = 8;
	RAP_EXPECT(t, !rap_random_find(&set, &k, false));
	/* the same open file mapped again elsewhere starts over */
	k.inode = 7;
	k.start = 4096;
	RAP_EXPECT(t, !rap_random_find(&set, &k, false));
	/* another task reading the same mapping has its own */
	k.start = 0;
	k.reader = 2;
	RAP_EXPECT(t, !rap_random_find(&set, &k, false));
}

struct rap_random_case {
	const char *name;
	void (*run)(struct rap_test *t);
};

static const struct rap_random_case rap_random_cases[] = {
	{ "rand1: reads <= 1.5x touched, majors <= 1.05x stock",
	  rap_random_case_rand1 },
	{ "phases: the scan after lookups reads as a fresh one",
	  rap_random_case_phases },
	{ "pairs: records of two pages read no more than stock",
	  rap_random_case_pairs },
	{ "sequential: a strided reader keeps read-around",
	  rap_random_case_sequential },
	{ "window: the faulting page, the bound kept, credit taken back",
	  rap_random_case_window },
	{ "evidence: streams, hits, near misses, markers",
	  rap_random_case_evidence },
	{ "find: one state per open file, LRU",
	  rap_random_case_find },
};

#endif /* RAPOLICY_RANDOM_CASES_H */
