/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicy: test cases of the stream tracker, shared by the KUnit suite
 * (stream_kunit.c) and the host unit tests (tests/unit/test_stream.c).
 *
 * The includer defines struct rap_test, RAP_EXPECT(t, cond) and
 * RAP_EXPECT_EQ(t, a, b) and RAP_EXPECT_LE(t, a, b), which print both
 * values when they fail, and includes stream.c before this file. The
 * cases drive the tracker with a model of the kernel's mmap fault path
 * over a fake page cache: a miss reads the window of
 * do_sync_mmap_readahead() (read-around, or VM_SEQ_READ's request), or
 * the tracker's; a touch of a marked page clears the marker and reads the
 * tracker's window, or stock's next async window.
 */
#ifndef RAPOLICY_STREAM_CASES_H
#define RAPOLICY_STREAM_CASES_H

#define RAP_SIM_PAGES	65536UL		/* a 256 MiB file */
#define RAP_SIM_MAX	1024UL		/* 2 << the largest folio order, 9 */
#define RAP_SIM_CACHED	1
#define RAP_SIM_MARKED	2
#define RAP_SIM_MAPPED	4
#define RAP_SIM_AROUND	16UL		/* fault_around_bytes, 64 KiB */

struct rap_sim {
	unsigned char page[RAP_SIM_PAGES];
	struct rap_stream_set set;
	unsigned long pages;
	unsigned long ra_pages;
	enum rap_mapping_kind kind;
	bool tracker;
	u64 generation;
	u32 reader;			/* the task that touches next */
	u32 now;			/* the clock, ms */
	/* stock's async state: its last window */
	pgoff_t ra_start;
	unsigned long ra_size, ra_async;
	unsigned int mmap_miss;		/* read-around's, as in filemap.c */
	/* what happened */
	unsigned long misses, pages_read, sync_replaced, async_replaced;
	unsigned long empty;		/* tracker windows that read nothing */
	unsigned long stride_misses;	/* a case's count of one reader's */
	/* if set, decide through this table's @arm (rap_stream_run()) */
	struct rap_stream_table *table;
	unsigned int arm;
	bool timed;			/* time the decisions so run */
};

static struct rap_sim rap_sim_a, rap_sim_b;
static struct rap_stream_table rap_sim_table;
static struct rap_stream_set rap_sim_snap;

static bool rap_sim_has_folio(const void *ctx, pgoff_t index)
{
	const struct rap_sim *sim = ctx;

	return index < sim->pages && (sim->page[index] & RAP_SIM_CACHED);
}

static bool rap_sim_has_range(const void *ctx, pgoff_t first, pgoff_t last)
{
	pgoff_t i;

	for (i = first; i <= last && i < RAP_SIM_PAGES; i++)
		if (rap_sim_has_folio(ctx, i))
			return true;
	return false;
}

static bool rap_sim_mapped(const void *ctx, pgoff_t index)
{
	const struct rap_sim *sim = ctx;

	return index < sim->pages && (sim->page[index] & RAP_SIM_MAPPED);
}

static void rap_sim_init(struct rap_sim *sim, unsigned long pages,
			 unsigned long ra_pages, enum rap_mapping_kind kind,
			 bool tracker)
{
	memset(sim, 0, sizeof(*sim));
	sim->pages = pages;
	sim->ra_pages = ra_pages;
	sim->kind = kind;
	sim->tracker = tracker;
	sim->generation = 1;
}

/*
 * page_cache_ra_order(): skip cached pages, mark the folio (of @order)
 * that holds start + size - async_size if it is newly read
 */
static void rap_sim_read(struct rap_sim *sim, pgoff_t start,
			 unsigned long size, unsigned long async_size,
			 unsigned int order)
{
	pgoff_t mark = async_size && async_size <= size ?
		       start + size - async_size : (pgoff_t)-1;
	unsigned long unit = 1UL << order;
	pgoff_t i;

	for (i = start; i < start + size && i < sim->pages; i++) {
		if (sim->page[i] & RAP_SIM_CACHED)
			continue;
		sim->page[i] = RAP_SIM_CACHED;
		if (mark != (pgoff_t)-1 && i >> order == mark >> order &&
		    (i & ~(unit - 1)) >= start)
			sim->page[i] |= RAP_SIM_MARKED;
		sim->pages_read++;
	}
	sim->ra_start = start;
	sim->ra_size = size;
	sim->ra_async = async_size;
}

/* The largest window the kernel reads: ra_policy_max_pages() */
static unsigned long rap_sim_max(unsigned long ra_pages)
{
	return ra_pages > RAP_SIM_MAX ? ra_pages : RAP_SIM_MAX;
}

static bool rap_sim_decide(struct rap_sim *sim, enum ra_policy_point point,
			   pgoff_t index, struct ra_policy_window *win)
{
	struct rap_cache_view view = {
		.ctx = sim,
		.has_folio = rap_sim_has_folio,
		.has_range = rap_sim_has_range,
		.mapped = rap_sim_mapped,
	};
	struct rap_stream_fault f = {
		.key = { .inode = 0x1000, .ino = 12, .dev = 8,
			 .generation = (u32)sim->generation },
		.reader = sim->reader,
		.now = sim->now,
		.point = point,
		.kind = sim->kind,
		.index = index,
		.vma_start = 0,
		.vma_end = sim->pages,
		.stock_start = sim->kind == RAP_MAP_SEQ ? index :
			       index > sim->ra_pages / 2 ?
			       index - sim->ra_pages / 2 : 0,
		.stock_pages = sim->ra_pages,
		.max_pages = rap_sim_max(sim->ra_pages),
		.thp_order = 9,
		.max_order = 9,
		.fault_around_pages = RAP_SIM_AROUND,
		.mmap_miss = sim->mmap_miss,
	};
	unsigned int did;
	u64 cost;

	if (!sim->tracker)
		return false;
	if (sim->table)
		return rap_stream_run(sim->table, sim->arm, &f, &view,
				      &rap_sim_snap, win, &did, sim->timed,
				      &cost);
	return rap_stream_decide(&sim->set, &f, &view, win, &did);
}

/*
 * A window as the kernel takes it: cut to EOF and to the largest read. The
 * kernel cuts each window of a mapping without VM_HUGEPAGE to ra_pages
 * unless it is asked for as several (ra_policy_window.nr), as tracker.c
 * asks for every stream window: the largest read is what it reads.
 */
static void rap_sim_read_win(struct rap_sim *sim,
			     const struct ra_policy_window *win)
{
	unsigned long max = rap_sim_max(sim->ra_pages);
	unsigned long size = win->size < max ? win->size : max;
	unsigned long before = sim->pages_read;

	rap_sim_read(sim, win->start, size,
		     win->async_size < size ? win->async_size : size, win->order);
	sim->empty += sim->pages_read == before;
}

static void rap_sim_miss(struct rap_sim *sim, pgoff_t p)
{
	struct ra_policy_window win = { 0 };
	enum ra_policy_point point = sim->kind == RAP_MAP_SEQ ?
		RA_POLICY_SYNC_SEQ : RA_POLICY_SYNC_AROUND;

	sim->misses++;
	/* read-around gives up: no window, no hook (MMAP_LOTSAMISS) */
	if (sim->kind == RAP_MAP_AROUND && ++sim->mmap_miss > 100) {
		sim->page[p] = RAP_SIM_CACHED;
		sim->pages_read++;
		return;
	}
	/* the window the kernel offers: read-around's, or VM_SEQ_READ's request */
	win.start = p;
	win.size = sim->ra_pages;
	if (sim->kind != RAP_MAP_SEQ) {
		win.start = p > sim->ra_pages / 2 ? p - sim->ra_pages / 2 : 0;
		win.async_size = sim->ra_pages / 4;
	}
	if (rap_sim_decide(sim, point, p, &win)) {
		sim->sync_replaced++;
		rap_sim_read_win(sim, &win);
	} else if (sim->kind == RAP_MAP_SEQ) {
		rap_sim_read(sim, p, sim->ra_pages, 0, 0);
	} else {
		pgoff_t start = p > sim->ra_pages / 2 ? p - sim->ra_pages / 2 : 0;

		rap_sim_read(sim, start, sim->ra_pages, sim->ra_pages / 4, 0);
	}
	/* filemap_fault() reads the page itself if the window did not */
	if (!(sim->page[p] & RAP_SIM_CACHED)) {
		sim->page[p] = RAP_SIM_CACHED;
		sim->pages_read++;
	}
}

static void rap_sim_marker(struct rap_sim *sim, pgoff_t p)
{
	struct ra_policy_window win = { 0 };
	unsigned long size;

	pgoff_t i;

	if (sim->mmap_miss)
		sim->mmap_miss--;
	/* the whole folio loses its marker */
	for (i = p; i < sim->pages && (sim->page[i] & RAP_SIM_MARKED); i++)
		sim->page[i] &= ~RAP_SIM_MARKED;
	for (i = p; i-- > 0 && (sim->page[i] & RAP_SIM_MARKED);)
		sim->page[i] &= ~RAP_SIM_MARKED;
	if (rap_sim_decide(sim, RA_POLICY_ASYNC, p, &win)) {
		sim->async_replaced++;
		rap_sim_read_win(sim, &win);
		return;
	}
	/* page_cache_async_ra(): the next window if sequential, else ra_pages */
	if (p == sim->ra_start + sim->ra_size - sim->ra_async) {
		size = 2 * sim->ra_size < sim->ra_pages ? 2 * sim->ra_size :
		       sim->ra_pages;
		rap_sim_read(sim, sim->ra_start + sim->ra_size, size, size, 0);
	} else {
		rap_sim_read(sim, p + 1, sim->ra_pages, sim->ra_pages, 0);
	}
}

/*
 * A touch, and do_fault_around(): the cached pages of its block mapped; a
 * fault it serves (cached, not mapped, no marker) lowers mmap_miss under
 * read-around, as 7.3's filemap_map_pages() does for the faulting address
 */
static void rap_sim_touch(struct rap_sim *sim, pgoff_t p)
{
	pgoff_t i = p & ~(RAP_SIM_AROUND - 1);

	if (!(sim->page[p] & RAP_SIM_CACHED))
		rap_sim_miss(sim, p);
	else if (sim->page[p] & RAP_SIM_MARKED)
		rap_sim_marker(sim, p);
	else if (!(sim->page[p] & RAP_SIM_MAPPED) &&
		 sim->kind == RAP_MAP_AROUND && sim->mmap_miss)
		sim->mmap_miss--;
	for (; i < (p | (RAP_SIM_AROUND - 1)) + 1 && i < sim->pages; i++)
		if (sim->page[i] & RAP_SIM_CACHED)
			sim->page[i] |= RAP_SIM_MAPPED;
}

/*
 * What a stream may read beyond its last touch: the window in flight, of
 * at most the largest window, or one folio at the next touch
 */
static unsigned long rap_sim_overshoot(const struct rap_sim *sim,
				       unsigned long stride)
{
	if (stride > sim->ra_pages)
		return sim->ra_pages;
	return rap_sim_max(sim->ra_pages);
}

/* One touch every @stride pages over the whole file, up or down */
static void rap_sim_stride(struct rap_sim *sim, unsigned long stride, bool up)
{
	unsigned long n = sim->pages / stride, i;

	for (i = 0; i < n; i++)
		rap_sim_touch(sim, up ? i * stride :
				   sim->pages - 1 - i * stride);
}

/* A small LCG, the same on every build */
static u32 rap_sim_rand(u32 *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

/*
 * Random touches of one page in @one_in, the same ones without and with
 * the tracker: it reads nothing, and stock's misses and reads stay.
 */
static void rap_sim_random_is_stock(struct rap_test *t, unsigned long ra,
				    enum rap_mapping_kind kind,
				    unsigned long one_in, u32 seed)
{
	unsigned long i;

	rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, ra, kind, false);
	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, ra, kind, true);
	for (i = 0; i < RAP_SIM_PAGES / one_in; i++) {
		pgoff_t p = rap_sim_rand(&seed) % RAP_SIM_PAGES;

		rap_sim_touch(&rap_sim_a, p);
		rap_sim_touch(&rap_sim_b, p);
	}
	RAP_EXPECT_EQ(t, rap_sim_b.sync_replaced, 0);
	RAP_EXPECT_EQ(t, rap_sim_b.async_replaced, 0);
	RAP_EXPECT_EQ(t, rap_sim_b.misses, rap_sim_a.misses);
	RAP_EXPECT_EQ(t, rap_sim_b.pages_read, rap_sim_a.pages_read);
}

/*
 * Strided streams, 16 to 1024 pages apart, up and down, with read-around
 * and VM_SEQ_READ at read_ahead_kb 128 and 8192: the tracker takes at
 * most 8 misses for the walk and reads no more than stock.
 */
static void rap_case_stream_strides(struct rap_test *t)
{
	static const unsigned long strides[] = { 16, 17, 64, 100, 256, 1024 };
	static const unsigned long ras[] = { 32, 2048 };
	static const enum rap_mapping_kind kinds[] = { RAP_MAP_AROUND,
						       RAP_MAP_SEQ };
	unsigned int s, r, k, up;

	for (s = 0; s < ARRAY_SIZE(strides); s++)
		for (r = 0; r < ARRAY_SIZE(ras); r++)
			for (k = 0; k < ARRAY_SIZE(kinds); k++)
				for (up = 0; up < 2; up++) {
					rap_sim_init(&rap_sim_a, RAP_SIM_PAGES,
						     ras[r], kinds[k], false);
					rap_sim_init(&rap_sim_b, RAP_SIM_PAGES,
						     ras[r], kinds[k], true);
					rap_sim_stride(&rap_sim_a, strides[s], up);
					rap_sim_stride(&rap_sim_b, strides[s], up);
					RAP_EXPECT_LE(t, rap_sim_b.misses, 8);
					/* but for the window read past the last touch */
					RAP_EXPECT_LE(t, rap_sim_b.pages_read,
						      rap_sim_a.pages_read +
						      rap_sim_overshoot(&rap_sim_b,
									strides[s]));
				}
}

/*
 * One page per 4 MiB of a 130 MiB file at read_ahead_kb 4096, then one
 * page per 64 KiB over what that left in the page cache: the benchmark of
 * "filemap: use high-order folios in filemap sync RA"
 * (https://lore.kernel.org/all/20260415192853.3470423-3-stepanov.anatoly@huawei.com/).
 * The tracker reads stock's window around each touch ahead of it: a few
 * misses, and the page cache left as stock leaves it but for two windows
 * (the miss that confirms the stream reads the window of the touch after
 * it, and the last one reads past the walk), so the second walk misses
 * once at most where it misses none after stock. Past MMAP_LOTSAMISS
 * touches (a stride of 600 pages over 256 MiB) it reads no more than
 * stock, which then reads only the touched pages.
 */
static void rap_case_stream_stride_leaves_stock_cache(struct rap_test *t)
{
	unsigned long pages = (130UL << 20) / 4096, i, differ = 0;

	rap_sim_init(&rap_sim_a, pages, 1024, RAP_MAP_AROUND, false);
	rap_sim_init(&rap_sim_b, pages, 1024, RAP_MAP_AROUND, true);
	rap_sim_stride(&rap_sim_a, 1024, true);
	rap_sim_stride(&rap_sim_b, 1024, true);
	RAP_EXPECT_EQ(t, rap_sim_a.misses, pages / 1024);
	RAP_EXPECT_LE(t, rap_sim_b.misses, 8);
	for (i = 0; i < pages; i++)
		differ += (rap_sim_a.page[i] & RAP_SIM_CACHED) !=
			  (rap_sim_b.page[i] & RAP_SIM_CACHED);
	RAP_EXPECT_LE(t, differ, 2 * 1024);
	rap_sim_a.misses = 0;
	rap_sim_b.misses = 0;
	rap_sim_stride(&rap_sim_a, 16, true);
	rap_sim_stride(&rap_sim_b, 16, true);
	RAP_EXPECT_LE(t, rap_sim_b.misses, rap_sim_a.misses + 1);

	rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, 1024, RAP_MAP_AROUND, false);
	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 1024, RAP_MAP_AROUND, true);
	rap_sim_stride(&rap_sim_a, 600, true);
	rap_sim_stride(&rap_sim_b, 600, true);
	RAP_EXPECT_LE(t, 101, rap_sim_a.misses);
	RAP_EXPECT_LE(t, rap_sim_b.misses, 8);
	RAP_EXPECT_LE(t, rap_sim_b.pages_read,
		      rap_sim_a.pages_read + rap_sim_overshoot(&rap_sim_b, 600));
}

/*
 * Random touches (1% of the pages), with read-around and VM_SEQ_READ at
 * read_ahead_kb 128 and 8192, many seeds: exactly what stock does. (Two
 * equal distances between misses happened in 5 of 200 seeds with
 * VM_SEQ_READ at 8192, whose windows fill a third of the file.)
 */
static void rap_case_stream_random_is_stock(struct rap_test *t)
{
	static const enum rap_mapping_kind kinds[] = { RAP_MAP_AROUND,
						       RAP_MAP_SEQ };
	static const unsigned long ras[] = { 32, 2048 };
	unsigned int k, r, n;

	for (n = 0; n < 200 * ARRAY_SIZE(ras) * ARRAY_SIZE(kinds); n++) {
		u32 seed = n / 4 + 1;

		k = n % ARRAY_SIZE(kinds);
		r = n / ARRAY_SIZE(kinds) % ARRAY_SIZE(ras);
		rap_sim_random_is_stock(t, ras[r], kinds[k], 100, seed);
	}
}

/*
 * A B-tree's reverse leaf scan: one page at a time downwards, and every
 * 32 pages a jump to a random interior page elsewhere in the file. The
 * jumps take their own misses; the scan keeps its stream. Stock's count
 * rises by a jump's miss every 32 pages, which the scan's faults take
 * off under the tracker: what the scan's stream took keeps the file's
 * give-up stock's, and the jumps read their page alone where stock's do.
 * (With a span's faults counted only when its marker hit found the file's
 * count above zero, which it seldom does between jumps, the jumps read
 * around for longer: 39689 pages against stock's 36853; tracker.sh's
 * B-tree reverse scan on 7.3, 317368 sectors against off's 296088.)
 */
static void rap_case_stream_btree_reverse(struct rap_test *t)
{
	pgoff_t leaves = RAP_SIM_PAGES / 2, p;
	unsigned long jumps = 0, scan = 0;
	u32 seed = 3;

	rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, false);
	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	for (p = leaves; p-- > 0;) {
		rap_sim_touch(&rap_sim_a, p);
		scan += !rap_sim_has_folio(&rap_sim_b, p);
		rap_sim_touch(&rap_sim_b, p);
		if (p % 32 == 0) {
			pgoff_t j = leaves + rap_sim_rand(&seed) % leaves;

			rap_sim_touch(&rap_sim_a, j);
			rap_sim_touch(&rap_sim_b, j);
			jumps++;
		}
	}
	/*
	 * every jump may miss; the scan itself at most 8 times, though a
	 * window of it lasts 32 jumps: more than the ways of its set
	 */
	RAP_EXPECT_LE(t, rap_sim_b.misses, rap_sim_a.misses);
	RAP_EXPECT_LE(t, rap_sim_b.misses, jumps + 8);
	RAP_EXPECT_LE(t, scan, 8);
	RAP_EXPECT_LE(t, rap_sim_b.pages_read, rap_sim_a.pages_read +
		      2 * rap_sim_overshoot(&rap_sim_b, 1));
}

/*
 * LMDB's reverse cursor scan at read_ahead_kb 128, as traced: each
 * subtree's branch page lies below its leaves, so the scan jumps a
 * subtree below (a miss with nothing cached around it), then resumes
 * under the pages it came through (the page above cached, the one below
 * not), a subtree apart give or take. The jumps do not take over the
 * dense stream, and a stream of one miss continues densely whichever way
 * its first two misses went: the third resumption reads the span below.
 */
static void rap_case_stream_dense_jumps(struct rap_test *t)
{
	/* the resumptions as traced: 16442, 16332, 16105 */
	static const unsigned long down[] = { 0, 110, 337 };
	const unsigned long sub = 227, ra = 32;
	pgoff_t top = RAP_SIM_PAGES - 100, r, i, prev = top + 17;
	struct ra_policy_window win, jump;
	unsigned int k;
	bool read = false;

	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, ra, RAP_MAP_AROUND, true);
	/* the first branch page, then the last leaf above it */
	rap_sim_decide(&rap_sim_b, RA_POLICY_SYNC_AROUND, top - 93, &win);
	rap_sim_decide(&rap_sim_b, RA_POLICY_SYNC_AROUND, top + 17, &win);
	for (k = 0; k < 3; k++) {
		r = top - down[k];
		/* what the scan walked is cached and mapped above the miss */
		for (i = r + 1; i < prev; i++)
			rap_sim_b.page[i] = RAP_SIM_CACHED | RAP_SIM_MAPPED;
		prev = r;
		win = (struct ra_policy_window){ 0 };
		read = rap_sim_decide(&rap_sim_b, RA_POLICY_SYNC_AROUND, r,
				      &win);
		if (read)
			break;
		/* the jump to the next subtree's branch page, below it */
		rap_sim_decide(&rap_sim_b, RA_POLICY_SYNC_AROUND,
			       r - sub - 210, &jump);
	}
	RAP_EXPECT(t, read);
	RAP_EXPECT_EQ(t, k, 2);
	RAP_EXPECT_LE(t, win.start + 2 * ra, r);
	RAP_EXPECT_LE(t, 2 * ra, win.size);
}

/*
 * An LMDB cursor scan as traced (the pages mapped at each miss): records
 * appended in key order, a branch page below the 227 leaves it covers,
 * the root cached. The scan visits a subtree's branch page, then its
 * leaves, upwards or downwards; so a reverse scan jumps 227 pages below
 * the leaf it left before it walks back up to the next one.
 */
static void rap_sim_lmdb(struct rap_sim *sim, unsigned long leaves, bool up)
{
	unsigned long subtrees = (sim->pages - 1) / (leaves + 1), k, i;

	for (k = 0; k < subtrees; k++) {
		pgoff_t b = 1 + (up ? k : subtrees - 1 - k) * (leaves + 1);

		rap_sim_touch(sim, 0);
		rap_sim_touch(sim, b);
		for (i = 0; i < leaves; i++)
			rap_sim_touch(sim, up ? b + 1 + i : b + leaves - i);
	}
}

/*
 * The LMDB scan under the tracker at read_ahead_kb 128 and 8192: reverse
 * takes a handful of misses (the model's forward scan takes one: stock's
 * async readahead never loses it) and reads no more than stock; at 8192
 * read-around misses only at the jumps, a constant distance apart, with
 * every page between walked. Forward is stock's.
 */
static void rap_case_stream_lmdb_scan(struct rap_test *t)
{
	static const unsigned long ras[] = { 32, 2048 };
	static const unsigned long strides[] = { 16, 17, 64, 1024 };
	unsigned long fwd;
	unsigned int r;

	for (r = 0; r < ARRAY_SIZE(ras); r++) {
		rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, ras[r], RAP_MAP_AROUND,
			     false);
		rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, ras[r], RAP_MAP_AROUND,
			     true);
		rap_sim_lmdb(&rap_sim_a, 227, true);
		rap_sim_lmdb(&rap_sim_b, 227, true);
		RAP_EXPECT_LE(t, rap_sim_b.misses, rap_sim_a.misses);
		fwd = rap_sim_b.misses;
		rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, ras[r], RAP_MAP_AROUND,
			     false);
		rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, ras[r], RAP_MAP_AROUND,
			     true);
		rap_sim_lmdb(&rap_sim_a, 227, false);
		rap_sim_lmdb(&rap_sim_b, 227, false);
		RAP_EXPECT_LE(t, rap_sim_b.misses, fwd + 7);
		RAP_EXPECT_LE(t, rap_sim_b.pages_read, rap_sim_a.pages_read);
	}
	/*
	 * Backward strided readers miss a constant distance apart too, with
	 * the fault-around blocks of their touches mapped: they keep reading
	 * their touches (or stock's windows around them, where each touch is
	 * one of stock's misses), not the span.
	 */
	for (r = 0; r < ARRAY_SIZE(strides); r++) {
		rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, 2048, RAP_MAP_AROUND,
			     false);
		rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 2048, RAP_MAP_AROUND,
			     true);
		rap_sim_stride(&rap_sim_a, strides[r], false);
		rap_sim_stride(&rap_sim_b, strides[r], false);
		RAP_EXPECT_LE(t, rap_sim_b.pages_read, rap_sim_a.pages_read);
		RAP_EXPECT(t, 2 * strides[r] >= 2048 ||
			   rap_sim_b.pages_read <= RAP_SIM_PAGES / 4);
	}
}

/*
 * A loader's threads, each copying its share of a safetensors file's
 * tensors (4 MiB, 1 MiB, 4 MiB + 12 KiB, 16 KiB) into memory, one page
 * per thread in turn, the tensors in file order or in reverse order, each
 * one forwards (tests/clients/tensor_load.c). The tensors start after a
 * header of some KiB, not on a page: the distances between the pages
 * where they start vary by a page.
 */
#define RAP_SIM_HEADER	9000UL		/* bytes before the first tensor */

static void rap_sim_tensors(struct rap_sim *sim, unsigned int threads,
			    bool reverse, bool tail)
{
	static const unsigned long size[] = { 4096UL << 10, 1024UL << 10,
					      (4096UL + 12) << 10, 16UL << 10 };
	unsigned long n = 0, per, k[4] = { 0 }, at[4] = { 0 }, b;
	unsigned long group = size[0] + size[1] + size[2] + size[3];
	unsigned int i, busy;

	for (b = RAP_SIM_HEADER; b + size[n % 4] <= sim->pages << 12;)
		b += size[n++ % 4];
	/* shares of whole groups of four: every share starts alike */
	per = n / threads;
	per -= per % 4;
	do {
		busy = 0;
		for (i = 0; i < threads; i++) {
			unsigned long t, j, end;

			if (k[i] == per)
				continue;
			busy++;
			sim->reader = i;
			t = i * per + (reverse ? per - 1 - k[i] : k[i]);
			b = RAP_SIM_HEADER + t / 4 * group;
			for (j = 0; j < t % 4; j++)
				b += size[j];
			end = b + size[t % 4];
			if (!at[i]) {
				at[i] = b;
				rap_sim_touch(sim, b >> 12);
				if (tail)
					rap_sim_touch(sim, (end - 1) >> 12);
			}
			rap_sim_touch(sim, at[i] >> 12);
			at[i] = ((at[i] >> 12) + 1) << 12;
			if (at[i] >= end) {
				at[i] = 0;
				k[i]++;
			}
		}
	} while (busy);
}

/*
 * The loader at read_ahead_kb 8192: each thread misses at the starts of
 * some tensors, at two distances in turn, having walked the tensors
 * above. A thread's reverse load takes no more than 4 misses (its forward
 * load one: stock's async readahead never loses it), four threads' no
 * more than their forward load and 4 per thread; neither reads more
 * than stock.
 */
static void rap_case_stream_tensors(struct rap_test *t)
{
	static const unsigned int threads[] = { 1, 4 };
	unsigned long fwd;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(threads); i++) {
		rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 2048, RAP_MAP_AROUND,
			     true);
		rap_sim_tensors(&rap_sim_b, threads[i], false, false);
		fwd = rap_sim_b.misses;
		rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, 2048, RAP_MAP_AROUND,
			     false);
		rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 2048, RAP_MAP_AROUND,
			     true);
		rap_sim_tensors(&rap_sim_a, threads[i], true, false);
		rap_sim_tensors(&rap_sim_b, threads[i], true, false);
		RAP_EXPECT(t, threads[i] == 1 ||
			   rap_sim_b.misses <= fwd + 4 * threads[i]);
		RAP_EXPECT_LE(t, rap_sim_b.misses, 4 * threads[i]);
		RAP_EXPECT_LE(t, rap_sim_b.pages_read, rap_sim_a.pages_read);
	}
}

/*
 * One loader thread's misses at read_ahead_kb 8192, as traced: the starts
 * of some tensors, 1027, 1280, 1031, 1280 pages apart (the tensors do not
 * start on a page), with the tensors above each miss copied (cached and
 * mapped). The third miss, below a run walked whole, where read-around's
 * window of the miss before left only a few pages above the fault to
 * read, reads the window that ends with the fault's folio, marked on the
 * folio below it, where the next run ends.
 */
static void rap_case_stream_tensor_misses(struct rap_test *t)
{
	static const pgoff_t miss[] = { 16175, 15148, 13868, 12837, 11557 };
	struct ra_policy_window win = { 0 };
	unsigned int k;
	bool read = false;
	pgoff_t i;

	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 2048, RAP_MAP_AROUND, true);
	for (k = 0; k < ARRAY_SIZE(miss) && !read; k++) {
		/* what the thread copied, and read-around's window below it */
		for (i = k ? miss[k - 1] : miss[0] + 1; i < 17000; i++)
			rap_sim_b.page[i] = RAP_SIM_CACHED | RAP_SIM_MAPPED;
		for (i = miss[k] + 3; k && i < miss[k - 1]; i++)
			rap_sim_b.page[i] |= RAP_SIM_CACHED;
		read = rap_sim_decide(&rap_sim_b, RA_POLICY_SYNC_AROUND,
				      miss[k], &win);
	}
	RAP_EXPECT(t, read);
	RAP_EXPECT_EQ(t, k, 3);
	RAP_EXPECT_LE(t, win.start + 1024, miss[k - 1]);
	RAP_EXPECT_LE(t, miss[k - 1] + 1, win.start + win.size);
	RAP_EXPECT(t, win.async_size &&
		   win.start + win.size - win.async_size < miss[k - 1] &&
		   win.start + win.size - win.async_size + 2 * RAP_SIM_AROUND >
		   miss[k - 1]);
}

/*
 * The loader at read_ahead_kb 128, 2 to 4 threads, each memcpy() touching
 * a tensor's first page, then (glibc's memmove loads the tail first) its
 * last, then the rest upwards, or not the last: the threads take turns
 * with the file's one readahead state, and stock misses every few dozen
 * pages in either order. The tracker follows each thread's forward runs,
 * and in reverse order the runs below: reverse takes no more misses than
 * forward and 4 per thread, forward no more than stock's, and neither
 * reads more than the file.
 */
static void rap_case_stream_tensors_around(struct rap_test *t)
{
	unsigned int threads, tail;
	unsigned long fwd;

	for (threads = 2; threads <= 4; threads++)
		for (tail = 0; tail < 2; tail++) {
			rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, 32,
				     RAP_MAP_AROUND, false);
			rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32,
				     RAP_MAP_AROUND, true);
			rap_sim_tensors(&rap_sim_a, threads, false, tail);
			rap_sim_tensors(&rap_sim_b, threads, false, tail);
			fwd = rap_sim_b.misses;
			RAP_EXPECT_LE(t, fwd, rap_sim_a.misses);
			RAP_EXPECT_LE(t, rap_sim_b.pages_read, RAP_SIM_PAGES);
			rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32,
				     RAP_MAP_AROUND, true);
			rap_sim_tensors(&rap_sim_b, threads, true, tail);
			RAP_EXPECT_LE(t, rap_sim_b.misses, fwd + 4 * threads);
			RAP_EXPECT_LE(t, rap_sim_b.pages_read, RAP_SIM_PAGES);
		}
}

/*
 * tensor_load's files and shares as they are (tests/clients/tensor_load.c):
 * an 8-byte length and a JSON header (2048 bytes in all for the 28
 * tensors of a 64 MiB file), then tensors of the four sizes in turn;
 * thread i copies tensors n * i / threads to n * (i + 1) / threads - 1, so
 * that in a 64 MiB file the shares (7 tensors each, about 4045 pages)
 * start at different sizes. The threads take turns, in bursts of 1 to
 * @burst pages (one page each in turn if @burst is 1), the next thread
 * drawn at random.
 */
#define RAP_SIM_LOADER_HEADER	2048UL

static void rap_sim_loader(struct rap_sim *sim, unsigned int threads,
			   bool reverse, unsigned long burst, u32 seed)
{
	static const unsigned long size[] = { 4096UL << 10, 1024UL << 10,
					      (4096UL + 12) << 10, 16UL << 10 };
	unsigned long group = size[0] + size[1] + size[2] + size[3];
	unsigned long n = 0, total = 0, k[4] = { 0 }, at[4] = { 0 };
	unsigned long first, count, t, b, end, j, left;
	unsigned int i = 0, busy = threads;

	while (total + size[n % 4] <= sim->pages << 12)
		total += size[n++ % 4];
	while (busy) {
		i = burst == 1 ? (i + 1) % threads :
		    rap_sim_rand(&seed) % threads;
		first = n * i / threads;
		count = n * (i + 1) / threads - first;
		sim->reader = i;
		for (left = burst == 1 ? 1 : 1 + rap_sim_rand(&seed) % burst;
		     left && k[i] < count; left--) {
			t = first + (reverse ? count - 1 - k[i] : k[i]);
			b = RAP_SIM_LOADER_HEADER + t / 4 * group;
			for (j = 0; j < t % 4; j++)
				b += size[j];
			end = b + size[t % 4];
			if (!at[i])
				at[i] = b;
			rap_sim_touch(sim, at[i] >> 12);
			at[i] = ((at[i] >> 12) + 1) << 12;
			if (at[i] >= end) {
				at[i] = 0;
				if (++k[i] == count)
					busy--;
			}
		}
	}
}

/*
 * The loader's four threads at read_ahead_kb 128 in a 64 MiB file, as
 * make check runs it: the shares lie about 4045 pages apart, so a thread's
 * miss at the start of a tensor is as near another thread's stream as its
 * own. Such a miss does not take the other thread's stream over (it
 * would start it afresh: that thread would miss on in its tensor, and
 * descend late or never). Whatever the interleaving (one page each in
 * turn, or bursts), the reverse load takes no more misses than the
 * forward one and 4 per thread, and neither reads more than the file.
 */
static void rap_case_stream_loader_64mib(struct rap_test *t)
{
	static const unsigned long bursts[] = { 1, 4, 16, 64, 256 };
	unsigned long pages = (RAP_SIM_LOADER_HEADER + 4095 +
			       7 * ((4096UL + 1024 + 4096 + 12 + 16) << 10)) >> 12;
	unsigned long fwd;
	unsigned int b;
	u32 seed;

	for (b = 0; b < ARRAY_SIZE(bursts); b++)
		for (seed = 1; seed <= (bursts[b] == 1 ? 1 : 8); seed++) {
			rap_sim_init(&rap_sim_b, pages, 32, RAP_MAP_AROUND,
				     true);
			rap_sim_loader(&rap_sim_b, 4, false, bursts[b], seed);
			fwd = rap_sim_b.misses;
			RAP_EXPECT_LE(t, rap_sim_b.pages_read, pages);
			rap_sim_init(&rap_sim_b, pages, 32, RAP_MAP_AROUND,
				     true);
			rap_sim_loader(&rap_sim_b, 4, true, bursts[b], seed);
			RAP_EXPECT_LE(t, rap_sim_b.misses, fwd + 4 * 4);
			RAP_EXPECT_LE(t, rap_sim_b.pages_read, pages);
		}
}

/*
 * The first tensor of a loader thread at read_ahead_kb 128, as traced in
 * the guest (64 MiB file, 4 threads, reverse order): memcpy() touches the
 * tensor's first page, then its last (glibc loads the tail first), then
 * the rest upwards, and misses every few dozen pages (stock's readahead
 * goes to the other threads); then the thread starts the tensor below.
 * The stream's misses after the start continued it as near, dense or
 * stride matches in turn, each kind starting its count afresh, so it never
 * had two matches of one kind in a row, and its latest miss may lie below
 * the one before (the tail): yet the run was walked whole and the miss
 * below it descends. @miss: the tensor's misses in order, the first its
 * start, the second its tail; @below: the next tensor's start.
 */
static bool rap_sim_first_tensor(const pgoff_t *miss, unsigned int n,
				 pgoff_t below, pgoff_t *win_start)
{
	struct ra_policy_window win = { 0 };
	pgoff_t start = miss[0], tail = miss[1], i;
	unsigned int k;

	rap_sim_b.reader = 1;
	for (k = 0; k < n; k++) {
		/* what the thread copied up to the miss (the tail first) */
		for (i = start; k >= 2 && i < miss[k]; i++)
			rap_sim_b.page[i] = RAP_SIM_CACHED | RAP_SIM_MAPPED;
		if (rap_sim_decide(&rap_sim_b, RA_POLICY_SYNC_AROUND, miss[k],
				   &win))
			return false;
		/* stock's read-around window, the fault's block mapped */
		for (i = miss[k] - 16; i < miss[k] + 16; i++)
			rap_sim_b.page[i] |= RAP_SIM_CACHED;
		for (i = miss[k] & ~15UL; i < (miss[k] | 15) + 1; i++)
			rap_sim_b.page[i] |= RAP_SIM_MAPPED;
	}
	for (i = start; i <= tail; i++)
		rap_sim_b.page[i] = RAP_SIM_CACHED | RAP_SIM_MAPPED;
	win = (struct ra_policy_window){ 0 };
	if (!rap_sim_decide(&rap_sim_b, RA_POLICY_SYNC_AROUND, below, &win))
		return false;
	*win_start = win.start;
	return win.start <= below && win.start + win.size > below &&
	       win.async_size;
}

static void rap_case_stream_loader_first_tensor(struct rap_test *t)
{
	/* thread 1: a 1 MiB tensor; near, near, dense */
	static const pgoff_t t13[] = { 7957, 8213, 8032, 8128 };
	/* thread 0: 4 MiB + 12 KiB; near, near, dense, stride, dense... */
	static const pgoff_t t6[] = { 3591, 4618, 3648, 3712, 3776, 3824,
				      3872, 3936 };
	/* thread 1 again: one miss after the tail, below it */
	static const pgoff_t t13b[] = { 7957, 8213, 8064 };
	struct ra_policy_window win;
	pgoff_t start = 0, p, i;

	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	RAP_EXPECT(t, rap_sim_first_tensor(t13, ARRAY_SIZE(t13), 6933,
					   &start));
	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	RAP_EXPECT(t, rap_sim_first_tensor(t6, ARRAY_SIZE(t6), 3335,
					   &start));
	/*
	 * Another thread's dense stream a few hundred pages below (a
	 * descent that read on below its own share), which the miss in the
	 * tensor would continue as a dense one: the thread's own stream
	 * takes it.
	 */
	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	rap_sim_b.reader = 2;
	for (p = 7400; p <= 7550; p += 50) {
		for (i = p - 50; i < p; i++)
			rap_sim_b.page[i] = RAP_SIM_CACHED | RAP_SIM_MAPPED;
		rap_sim_decide(&rap_sim_b, RA_POLICY_SYNC_AROUND, p, &win);
	}
	RAP_EXPECT(t, rap_sim_first_tensor(t13b, ARRAY_SIZE(t13b), 6933,
					   &start));
}

/*
 * Random touches of a tenth of the pages with read-around, at
 * read_ahead_kb 128 and 8192: dense streams come and go among them, and
 * pages next to each other get mapped, yet the tracker reads nothing.
 */
static void rap_case_stream_random_dense_is_stock(struct rap_test *t)
{
	static const unsigned long ras[] = { 32, 2048 };
	unsigned int r, n;

	for (n = 0; n < 100 * ARRAY_SIZE(ras); n++) {
		u32 seed = n / ARRAY_SIZE(ras) + 1;

		r = n % ARRAY_SIZE(ras);
		rap_sim_random_is_stock(t, ras[r], RAP_MAP_AROUND, 10, seed);
	}
}

/* Two readers of one mapping at once: a forward stride and a reverse scan */
static void rap_case_stream_two_readers(struct rap_test *t)
{
	pgoff_t half = RAP_SIM_PAGES / 2, i;

	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	for (i = 0; i < half / 64; i++) {
		rap_sim_touch(&rap_sim_b, i * 64);
		rap_sim_touch(&rap_sim_b, RAP_SIM_PAGES - 1 - i);
	}
	RAP_EXPECT_LE(t, rap_sim_b.misses, 16);
}

/* A set keeps RAP_STREAM_WAYS streams and replaces the least recent */
static void rap_case_stream_lru(struct rap_test *t)
{
	struct rap_stream_set *set = &rap_sim_b.set;
	struct ra_policy_window win;
	unsigned int i;
	pgoff_t p;

	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	/* one miss each, far apart: one stream each */
	for (i = 0; i <= RAP_STREAM_WAYS; i++)
		rap_sim_decide(&rap_sim_b, RA_POLICY_SYNC_AROUND,
			       i * 7000UL, &win);
	for (i = 0; i < RAP_STREAM_WAYS; i++)
		RAP_EXPECT(t, set->way[i].state != RAP_STREAM_FREE &&
			   set->way[i].last != 0);
	/* the first stream went; the second is still there */
	p = 7000;
	for (i = 0; i < RAP_STREAM_WAYS; i++)
		if (set->way[i].last == p)
			break;
	RAP_EXPECT(t, i < RAP_STREAM_WAYS);
}

/*
 * A stream belongs to its file: the same inode address with another
 * generation (the inode was freed and reused) starts afresh, and a marker
 * the tracker did not set is stock's.
 */
static void rap_case_stream_key_and_foreign_marker(struct rap_test *t)
{
	struct ra_policy_window win;
	pgoff_t p;

	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	for (p = 1000; p < 1000 + 3 * 64; p += 64)
		RAP_EXPECT(t, !rap_sim_decide(&rap_sim_b,
					      RA_POLICY_SYNC_AROUND, p, &win));
	rap_sim_b.generation++;
	RAP_EXPECT(t, !rap_sim_decide(&rap_sim_b, RA_POLICY_SYNC_AROUND, p,
				      &win));
	rap_sim_b.generation--;
	RAP_EXPECT(t, rap_sim_decide(&rap_sim_b, RA_POLICY_SYNC_AROUND, p,
				     &win));
	/* stock's read-around window one stride on, marked at the touch */
	RAP_EXPECT_EQ(t, win.start, p + 64 - 16);
	RAP_EXPECT_EQ(t, win.size, 32);
	RAP_EXPECT_EQ(t, win.async_size, 16);
	RAP_EXPECT(t, !rap_sim_decide(&rap_sim_b, RA_POLICY_ASYNC, p + 63,
				      &win));
	RAP_EXPECT(t, rap_sim_decide(&rap_sim_b, RA_POLICY_ASYNC, p + 64,
				     &win));
	RAP_EXPECT_EQ(t, win.start, p + 128 - 16);
	RAP_EXPECT_EQ(t, win.size, 32);
}

/* A reverse stride at the start of the file stops, asks for nothing below 0 */
static void rap_case_stream_reverse_stops_at_zero(struct rap_test *t)
{
	struct ra_policy_window win;
	pgoff_t p;

	rap_sim_init(&rap_sim_b, 4096, 32, RAP_MAP_AROUND, true);
	for (p = 4 * 100; p > 100; p -= 100)
		RAP_EXPECT(t, !rap_sim_decide(&rap_sim_b,
					      RA_POLICY_SYNC_AROUND, p, &win));
	RAP_EXPECT(t, rap_sim_decide(&rap_sim_b, RA_POLICY_SYNC_AROUND, 100,
				     &win));
	/* stock's read-around window at page 0: [0, ra_pages), marked at 0 */
	RAP_EXPECT_EQ(t, win.start, 0);
	RAP_EXPECT_EQ(t, win.size, 32);
	RAP_EXPECT_EQ(t, win.async_size, 32);
	RAP_EXPECT(t, !rap_sim_decide(&rap_sim_b, RA_POLICY_ASYNC, 0, &win));
}

/*
 * Whatever the faults, a window the tracker returns reads something,
 * inside the VMA, no more than the kernel takes, with its marker inside
 * it, at an order the mapping has; VM_EXEC and other mappings are left
 * alone. Random faults, points, kinds, VMAs and cache contents, with
 * strided runs mixed in so that streams form.
 */
static void rap_case_stream_windows_valid(struct rap_test *t)
{
	static const enum rap_mapping_kind kinds[] = {
		RAP_MAP_AROUND, RAP_MAP_SEQ, RAP_MAP_THP, RAP_MAP_OTHER };
	static const enum ra_policy_point points[] = {
		RA_POLICY_SYNC_AROUND, RA_POLICY_SYNC_SEQ, RA_POLICY_SYNC_THP,
		RA_POLICY_SYNC_EXEC, RA_POLICY_ASYNC };
	struct rap_cache_view view = {
		.ctx = &rap_sim_b,
		.has_folio = rap_sim_has_folio,
		.has_range = rap_sim_has_range,
		.mapped = rap_sim_mapped,
	};
	struct rap_stream_set *set = &rap_sim_b.set;
	u32 seed = 11;
	unsigned int i, did;
	pgoff_t p = 0;
	long stride = 0;

	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	for (i = 0; i < 200000; i++) {
		u32 r = rap_sim_rand(&seed);
		unsigned long ra_pages = (r >> 10) % 2 ? 32 : 2048;
		struct rap_stream_fault f = {
			.key = { .inode = 0x1000 + (r & 3), .ino = r & 3 },
			.kind = kinds[(r >> 2) % ARRAY_SIZE(kinds)],
			.point = points[(r >> 4) % ARRAY_SIZE(points)],
			.vma_start = (r >> 8) % 2 ? 1000 : 0,
			.vma_end = (r >> 9) % 2 ? 60000 : RAP_SIM_PAGES,
			.thp_order = 9,
			.max_order = (r >> 11) % 2 ? 9 : 0,
		};
		struct ra_policy_window win = { .max_index = (pgoff_t)-1 };

		/* a strided run now and then, else anywhere */
		if (!(r % 97))
			stride = (long)(rap_sim_rand(&seed) % 2048) - 1024;
		p = stride && (r >> 12) % 8 ? p + stride :
		    rap_sim_rand(&seed) % RAP_SIM_PAGES;
		if (p >= RAP_SIM_PAGES)
			p = rap_sim_rand(&seed) % RAP_SIM_PAGES;
		f.index = p;
		f.max_pages = ra_pages > (2UL << f.max_order) ? ra_pages :
			      2UL << f.max_order;
		f.stock_start = f.index > 16 ? f.index - 16 : 0;
		f.stock_pages = (r >> 13) % 2 ? ra_pages : 1024;
		f.stock_seq = (r >> 14) % 4 == 0;
		f.stock_next = f.index + (r >> 16) % 4096;
		win.start = f.stock_start;
		win.size = f.stock_pages;
		win.async_size = (r >> 15) % 2 ? win.size / 4 : 0;
		if ((r >> 20) % 3 == 0)
			rap_sim_b.page[rap_sim_rand(&seed) % RAP_SIM_PAGES] =
				RAP_SIM_CACHED | ((r >> 22) % 2 ? RAP_SIM_MAPPED : 0);
		if (!rap_stream_decide(set, &f, &view, &win, &did)) {
			if (!(r % 4099))
				memset(rap_sim_b.page, 0, sizeof(rap_sim_b.page));
			continue;
		}
		RAP_EXPECT(t, f.kind != RAP_MAP_OTHER &&
			   f.point != RA_POLICY_SYNC_EXEC);
		RAP_EXPECT(t, f.index >= f.vma_start && f.index < f.vma_end);
		RAP_EXPECT_LE(t, 1, win.size);
		RAP_EXPECT_LE(t, win.size, f.max_pages);
		RAP_EXPECT_LE(t, f.vma_start, win.start);
		RAP_EXPECT_LE(t, win.start + win.size, f.vma_end);
		RAP_EXPECT_LE(t, win.async_size, win.size);
		RAP_EXPECT_LE(t, win.order, 9);
		RAP_EXPECT_EQ(t, win.order_once, false);
		RAP_EXPECT_EQ(t, win.max_index, (pgoff_t)-1);
		rap_sim_read_win(&rap_sim_b, &win);
	}
}

/*
 * Seven strided scans that their reader abandons once each stream reads
 * ahead (a marker out, never hit), then a scan of the file at another
 * stride beside a random reader, whose misses start streams: the
 * abandoned streams age out of their ways (RAP_STREAM_HOLD) instead of
 * leaving the scan and the random reader one way to share, and the two
 * readers miss as often as on an empty table but for the scan's misses
 * while the abandoned streams are held (one in two decisions of the set).
 */
static void rap_sim_scan_beside_random(struct rap_sim *sim)
{
	u32 seed = 5;
	unsigned long i;

	for (i = 0; i < RAP_SIM_PAGES / 2 / 100; i++) {
		sim->reader = 1;
		rap_sim_touch(sim, RAP_SIM_PAGES / 2 + i * 100);
		sim->reader = 2;
		rap_sim_touch(sim, rap_sim_rand(&seed) % (RAP_SIM_PAGES / 2));
	}
}

static void rap_case_stream_abandoned_age(struct rap_test *t)
{
	unsigned long fresh;
	unsigned int k, i;

	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	rap_sim_scan_beside_random(&rap_sim_b);
	fresh = rap_sim_b.misses;
	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	for (k = 0; k < 7; k++)
		for (i = 0; i < 5; i++)
			rap_sim_touch(&rap_sim_b, 1000 + 64 * i + 4000 * k);
	rap_sim_b.misses = 0;
	rap_sim_b.mmap_miss = 0;
	rap_sim_scan_beside_random(&rap_sim_b);
	/* the scan's misses while the abandoned streams are still held */
	RAP_EXPECT_LE(t, rap_sim_b.misses, fresh + RAP_STREAM_HOLD / 2);
}

/*
 * A strided reader and a random reader in one file, read-around at
 * read_ahead_kb 128: the stream's windows keep the file's mmap_miss low,
 * where stock's misses would have stopped read-around for both readers;
 * the random reader's misses then read their page only, as stock's do,
 * and the tracker reads no more than stock but for two windows.
 */
static void rap_case_stream_random_beside_stride(struct rap_test *t)
{
	static const unsigned long strides[] = { 50, 100, 300 };
	unsigned int k;
	unsigned long i;
	u32 seed;

	for (k = 0; k < ARRAY_SIZE(strides); k++) {
		seed = 7 + k;
		rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, 32, RAP_MAP_AROUND,
			     false);
		rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND,
			     true);
		for (i = 0; i < RAP_SIM_PAGES / strides[k]; i++) {
			pgoff_t r = rap_sim_rand(&seed) % RAP_SIM_PAGES;

			rap_sim_a.reader = 1;
			rap_sim_b.reader = 1;
			rap_sim_touch(&rap_sim_a, i * strides[k]);
			rap_sim_touch(&rap_sim_b, i * strides[k]);
			rap_sim_a.reader = 2;
			rap_sim_b.reader = 2;
			rap_sim_touch(&rap_sim_a, r);
			rap_sim_touch(&rap_sim_b, r);
		}
		RAP_EXPECT_LE(t, rap_sim_b.pages_read,
			      rap_sim_a.pages_read + 2 * RAP_SIM_MAX);
	}
}

/*
 * A short strided scan, then a random reader of the same file: stock's
 * mmap_miss holds what the scan left on it and the random misses, and
 * passes MMAP_LOTSAMISS early in the random reads, which read their page
 * only from then on. The tracker served the scan's touches, so the
 * file's count as the fault finds it is not stock's: what the stream
 * took off it (rap_stream_took()) makes it up, and the random reader
 * gives read-around up where stock's does, within a miss: no more pages
 * than stock's and a window, no more misses than stock's and a few.
 * Stride 64: every touch is one of stock's misses, and stock's count is
 * 49 after the scan; the tracker's marker hits find the file's count at
 * zero and take nothing off it, so what the stream took is one a touch.
 * Stride 2: stock misses once in 8 touches and faults once on each block
 * it enters, and its count is 1 after the scan; the tracker's stream
 * took 5. (Counted as before, two a touch at stride 64 and an eighth at
 * stride 2 whatever the file's count, the streams took 90 and 44, and the
 * random reader read its page only from its 11th and 57th miss on, where
 * stock's does from its 52nd and 100th: 1536 misses against stock's 1526
 * at stride 64, 1471 against 1441 at stride 2.)
 */
static void rap_case_stream_random_after_stride(struct rap_test *t)
{
	static const struct {
		long stride;
		unsigned long touches;
	} scans[] = { { -64, 49 }, { -2, 400 } };
	unsigned long i, k;

	for (k = 0; k < ARRAY_SIZE(scans); k++) {
		u32 seed = 11;

		rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, 32, RAP_MAP_AROUND,
			     false);
		rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND,
			     true);
		rap_sim_a.reader = 1;
		rap_sim_b.reader = 1;
		for (i = 0; i < scans[k].touches; i++) {
			pgoff_t p = RAP_SIM_PAGES / 2 - 1 + scans[k].stride * i;

			rap_sim_touch(&rap_sim_a, p);
			rap_sim_touch(&rap_sim_b, p);
		}
		rap_sim_a.reader = 2;
		rap_sim_b.reader = 2;
		for (i = 0; i < 1600; i++) {
			pgoff_t r = RAP_SIM_PAGES / 2 +
				    rap_sim_rand(&seed) % (RAP_SIM_PAGES / 2);

			rap_sim_touch(&rap_sim_a, r);
			rap_sim_touch(&rap_sim_b, r);
		}
		RAP_EXPECT(t, rap_sim_a.mmap_miss > 100);
		RAP_EXPECT_LE(t, rap_sim_b.pages_read,
			      rap_sim_a.pages_read + rap_sim_b.ra_pages);
		RAP_EXPECT_LE(t, rap_sim_b.misses,
			      rap_sim_a.misses + RAP_STREAM_CONFIRM);
	}
}

/*
 * A strided reader beside readers of random pages, which from its third
 * touch on miss 8 times between two of its touches (more misses than the
 * set has ways): the random misses start streams of no confidence, which
 * take each other's ways; the strided reader's stream, whose misses
 * continued it, keeps its way and reads ahead. Plain LRU gave its way to
 * the random misses before its next touch, every time.
 */
static void rap_case_stream_claim(struct rap_test *t)
{
	static const enum rap_mapping_kind kinds[] = {
		RAP_MAP_AROUND, RAP_MAP_SEQ
	};
	unsigned int k, j;
	unsigned long i;
	u32 seed;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		seed = 3 + k;
		rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, kinds[k], true);
		for (i = 0; i < 30; i++) {
			unsigned long before = rap_sim_b.misses;

			rap_sim_b.reader = 1;
			rap_sim_touch(&rap_sim_b, 1000 + i * 1000);
			rap_sim_b.stride_misses += rap_sim_b.misses - before;
			for (j = 0; i >= 2 && j < RAP_STREAM_WAYS; j++) {
				rap_sim_b.reader = 2 + i * RAP_STREAM_WAYS + j;
				rap_sim_touch(&rap_sim_b, RAP_SIM_PAGES / 2 +
					      rap_sim_rand(&seed) %
					      (RAP_SIM_PAGES / 2));
			}
		}
		RAP_EXPECT_LE(t, rap_sim_b.stride_misses, 8);
	}
}

/*
 * A pool of threads taking turns along one stride (a loader's workers):
 * 4 tasks, in strict and in random turns, along a backward and a forward
 * stride of 40 pages, read-around and VM_SEQ_READ at read_ahead_kb 128
 * and 8192. The pool is one stream, whichever task misses: it costs at
 * most 12 misses (the generated patterns' bound), and reads no more than
 * stock but for two largest windows.
 */
static void rap_case_stream_pool(struct rap_test *t)
{
	static const unsigned long ras[] = { 32, 2048 };
	static const enum rap_mapping_kind kinds[] = {
		RAP_MAP_AROUND, RAP_MAP_SEQ
	};
	unsigned long i, n = RAP_SIM_PAGES / 4 / 40;
	unsigned int c, r, k;
	bool turns, up;
	u32 seed;

	/* each read_ahead_kb, kind, turns and direction */
	for (c = 0; c < 16; c++) {
		r = c & 1;
		k = c >> 1 & 1;
		turns = c & 4;
		up = c & 8;
		seed = 11 + c;
		rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, ras[r], kinds[k],
			     false);
		rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, ras[r], kinds[k],
			     true);
		for (i = 0; i < n; i++) {
			pgoff_t p = up ? 1000 + i * 40 :
				    RAP_SIM_PAGES - 1000 - i * 40;
			u32 task = 1 + (turns ? i % 4 :
					rap_sim_rand(&seed) % 4);

			rap_sim_a.reader = task;
			rap_sim_b.reader = task;
			rap_sim_touch(&rap_sim_a, p);
			rap_sim_touch(&rap_sim_b, p);
		}
		RAP_EXPECT_LE(t, rap_sim_b.misses, 12);
		RAP_EXPECT_LE(t, rap_sim_b.pages_read, rap_sim_a.pages_read +
			      2 * rap_sim_overshoot(&rap_sim_b, 1));
	}
}

/*
 * A pool beside another reader's young stream: another task's miss a few
 * hundred pages away is as near the pool's first misses as they are to
 * each other. A pool task's first miss forks the other reader's stream;
 * the next task's miss, near both, forks the nearer, its own pool's, and
 * the stride between them is what the pool's later misses continue (the
 * first of the two would give the second a distance no pool task keeps,
 * and each task then finds its own stride of four: 16 to 18 misses).
 */
static void rap_case_stream_pool_beside_young(struct rap_test *t)
{
	static const enum rap_mapping_kind kinds[] = {
		RAP_MAP_AROUND, RAP_MAP_SEQ
	};
	unsigned long i, n = RAP_SIM_PAGES / 4 / 40;
	unsigned int c;

	for (c = 0; c < 4; c++) {
		bool up = c & 1;
		pgoff_t first = up ? 20000 : RAP_SIM_PAGES - 20000;

		rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, 32, kinds[c >> 1],
			     false);
		rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, kinds[c >> 1],
			     true);
		/* the other reader's miss, then the pool's in strict turns */
		rap_sim_a.reader = 9;
		rap_sim_b.reader = 9;
		rap_sim_touch(&rap_sim_a, up ? first + 300 : first - 300);
		rap_sim_touch(&rap_sim_b, up ? first + 300 : first - 300);
		rap_sim_b.misses = 0;
		for (i = 0; i < n; i++) {
			pgoff_t p = up ? first + i * 40 : first - i * 40;

			rap_sim_a.reader = 1 + i % 4;
			rap_sim_b.reader = 1 + i % 4;
			rap_sim_touch(&rap_sim_a, p);
			rap_sim_touch(&rap_sim_b, p);
		}
		/* a fork is confirmed at its fifth miss */
		RAP_EXPECT_LE(t, rap_sim_b.misses, RAP_STREAM_CONFIRM + 3);
		RAP_EXPECT_LE(t, rap_sim_b.pages_read, rap_sim_a.pages_read +
			      2 * rap_sim_overshoot(&rap_sim_b, 1));
	}
}

/*
 * A pool of three tasks in turns along a jittered stride of 7 pages (each
 * touch up to a page off its place), read-around at read_ahead_kb 128:
 * stock's windows, 32 pages around each miss, hold the next few touches,
 * and its count stays low (4 at the end). The tracker's misses are
 * stock's, and for each task's stream the miss that starts it and those
 * that confirm it. A stream's miss a few steps on counts only what the
 * stream's own last window served: the other tasks' windows served the
 * touches between. (Counted as served by the stream, every touch passed
 * took the file's count past MMAP_LOTSAMISS for the streams' part alone;
 * the tracker then read a page a touch, and the kernel's own count passed
 * it too: 730 misses against stock's 257.)
 */
static void rap_case_stream_pool_jittered(struct rap_test *t)
{
	unsigned long i;
	u32 seed = 7;

	rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, false);
	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	for (i = 0; i < 938; i++) {
		pgoff_t p = 1000 + i * 7 + rap_sim_rand(&seed) % 3 - 1;

		rap_sim_a.reader = 1 + i % 3;
		rap_sim_b.reader = 1 + i % 3;
		rap_sim_touch(&rap_sim_a, p);
		rap_sim_touch(&rap_sim_b, p);
	}
	RAP_EXPECT_LE(t, rap_sim_b.misses,
		      rap_sim_a.misses + 3 * (RAP_STREAM_CONFIRM + 1));
}

/*
 * A strided reader that skips a touch now and then (a hole): the stream
 * whose marker it skipped goes on at its next miss, a few strides on,
 * and reads ahead from there, instead of starting afresh.
 */
static void rap_case_stream_holes(struct rap_test *t)
{
	unsigned long i;

	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	for (i = 0; i < RAP_SIM_PAGES / 64; i++)
		if (i % 16 != 15)
			rap_sim_touch(&rap_sim_b, 64 * i);
	/* four to confirm, then one a hole */
	RAP_EXPECT_LE(t, rap_sim_b.misses, 4 + RAP_SIM_PAGES / 64 / 16);
}

/*
 * A strided reader whose touches land a few pages off their places
 * (jitter), beside nothing else: its misses restart streams, and the
 * windows the tracker reads around its touches stop where stock's
 * read-around would stop (MMAP_LOTSAMISS of the file's misses), so it
 * reads no more than stock but for two windows.
 */
static void rap_case_stream_jitter(struct rap_test *t)
{
	unsigned long i;
	u32 seed = 9;

	rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, false);
	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	for (i = 1; i < RAP_SIM_PAGES / 36; i++) {
		pgoff_t p = 36 * i + rap_sim_rand(&seed) % 19 - 9;

		rap_sim_touch(&rap_sim_a, p);
		rap_sim_touch(&rap_sim_b, p);
	}
	RAP_EXPECT_LE(t, rap_sim_b.pages_read,
		      rap_sim_a.pages_read + 2 * RAP_SIM_MAX);
}

/*
 * Strided readers a few times a window apart whose every fifth touch
 * lands a page off its place, in their direction or against it, 400
 * touches, read-around at read_ahead_kb 128: stock misses every touch
 * and from its 101st reads the touched pages alone (MMAP_LOTSAMISS). A
 * touch off its place misses beside the marker of the stream's next
 * touch; it continues the stream ("jitter"), whose next touch is on its
 * place again: a miss every fifth touch, once confirmed (without the
 * match, 332 misses a reader), and no more pages than stock.
 */
static void rap_case_stream_jitter_stride(struct rap_test *t)
{
	static const unsigned long strides[] = { 64, 100, 150 };
	const unsigned long n = 400;
	unsigned long i, c;

	for (c = 0; c < 4 * ARRAY_SIZE(strides); c++) {
		unsigned long stride = strides[c / 4];
		bool up = c & 1, below = c & 2;

		rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, 32, RAP_MAP_AROUND,
			     false);
		rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND,
			     true);
		for (i = 0; i < n; i++) {
			pgoff_t p = up ? 1000 + i * stride :
				    RAP_SIM_PAGES - 1000 - i * stride;

			if (i % 5 == 4)
				p = below ? p - 1 : p + 1;
			rap_sim_touch(&rap_sim_a, p);
			rap_sim_touch(&rap_sim_b, p);
		}
		RAP_EXPECT_EQ(t, rap_sim_a.misses, n);
		RAP_EXPECT_LE(t, rap_sim_b.pages_read, rap_sim_a.pages_read);
		RAP_EXPECT_LE(t, rap_sim_b.misses,
			      n / 5 + 2 * (RAP_STREAM_CONFIRM + 1));
	}
}

/*
 * Backward strided readers whose touches land a page off their places at
 * random, half of them, 400 touches, read-around at read_ahead_kb 128:
 * past stock's give-up (its 101st miss) stock reads the touched pages
 * alone. A touch a page below its place misses right below the cached,
 * marked page of the stream's next touch; taken for a new stream, whose
 * next misses it made look dense, it read the span of the walk from
 * there (stride 100: 33457 pages against stock's 3500). As the stream's
 * jittered touch, the tracker reads no more than stock.
 */
static void rap_case_stream_jitter_reverse(struct rap_test *t)
{
	static const unsigned long strides[] = { 40, 100, 150 };
	unsigned long i, c;
	u32 seed = 7;

	for (c = 0; c < ARRAY_SIZE(strides); c++) {
		rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, 32, RAP_MAP_AROUND,
			     false);
		rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND,
			     true);
		for (i = 0; i < 400; i++) {
			pgoff_t p = RAP_SIM_PAGES - 1000 - i * strides[c];

			if (rap_sim_rand(&seed) % 2)
				p = p + rap_sim_rand(&seed) % 3 - 1;
			rap_sim_touch(&rap_sim_a, p);
			rap_sim_touch(&rap_sim_b, p);
		}
		RAP_EXPECT_LE(t, rap_sim_b.pages_read, rap_sim_a.pages_read);
	}
}

/*
 * Forward strided readers whose touches land up to 1, 2 or 4 pages off
 * their places at random, half of them, 400 touches, read-around at
 * read_ahead_kb 1024: stock's window around a miss holds the next few
 * touches, its count stays low and it never gives up. The stream's
 * jittered miss reads stock's window, which serves the touches after it
 * wherever they land, and the file's count stays below MMAP_LOTSAMISS
 * too. (The stream's page a touch missed at each jittered touch and took
 * the count past it: 310 misses against stock's 100, a count of 280,
 * stride 40, jitter of a page.)
 */
static void rap_case_stream_jitter_wide(struct rap_test *t)
{
	static const unsigned long strides[] = { 40, 100 };
	static const unsigned long jitters[] = { 1, 2, 4 };
	unsigned long i, c;
	u32 seed = 7;

	for (c = 0; c < ARRAY_SIZE(strides) * ARRAY_SIZE(jitters); c++) {
		unsigned long stride = strides[c / ARRAY_SIZE(jitters)];
		unsigned long jitter = jitters[c % ARRAY_SIZE(jitters)];

		rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, 256, RAP_MAP_AROUND,
			     false);
		rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 256, RAP_MAP_AROUND,
			     true);
		for (i = 0; i < 400; i++) {
			pgoff_t p = 1000 + i * stride;

			if (rap_sim_rand(&seed) % 2)
				p = p + rap_sim_rand(&seed) % (2 * jitter + 1) -
				    jitter;
			rap_sim_touch(&rap_sim_a, p);
			rap_sim_touch(&rap_sim_b, p);
		}
		RAP_EXPECT_LE(t, rap_sim_a.mmap_miss, RAP_STREAM_LOTSAMISS);
		RAP_EXPECT_LE(t, rap_sim_b.mmap_miss, RAP_STREAM_LOTSAMISS);
		RAP_EXPECT_LE(t, rap_sim_b.pages_read,
			      rap_sim_a.pages_read + 2 * RAP_SIM_MAX);
	}
}

/* Pages read at the random reader's touches: stock's, the tracker's */
static unsigned long rap_sim_random_read[2];

/*
 * A scan of every page of the file's lower half, downwards (upwards if
 * @up), in both sims at @ra_pages read-around, and a random reader of its
 * upper half, one touch every @every pages the scan moves
 */
static void rap_sim_scan_random(unsigned long ra_pages, bool up,
				unsigned long every)
{
	unsigned long i, a, b;
	u32 seed = 3;

	rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, ra_pages, RAP_MAP_AROUND,
		     false);
	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, ra_pages, RAP_MAP_AROUND, true);
	memset(rap_sim_random_read, 0, sizeof(rap_sim_random_read));
	for (i = 0; i < RAP_SIM_PAGES / 2; i++) {
		pgoff_t p = up ? i : RAP_SIM_PAGES / 2 - 1 - i;
		pgoff_t r = RAP_SIM_PAGES / 2 +
			    rap_sim_rand(&seed) % (RAP_SIM_PAGES / 2);

		rap_sim_touch(&rap_sim_a, p);
		rap_sim_touch(&rap_sim_b, p);
		if (i % every)
			continue;
		a = rap_sim_a.pages_read;
		b = rap_sim_b.pages_read;
		rap_sim_touch(&rap_sim_a, r);
		rap_sim_touch(&rap_sim_b, r);
		rap_sim_random_read[0] += rap_sim_a.pages_read - a;
		rap_sim_random_read[1] += rap_sim_b.pages_read - b;
	}
}

/*
 * A reverse scan and a random reader in one file: the scan's windows
 * took its misses off the file, which stock would have counted towards
 * MMAP_LOTSAMISS. At the scan's touches the tracker reads what stock
 * reads but for two of a backward span's largest windows. The random
 * reader's misses keep read-around's window for a while after stock's
 * reader has given it up, the tracker's estimate of stock's count
 * lagging (docs/STREAMS.md, "Known limits"): 7084 pages where stock
 * reads 4934, 67 windows of 32; bounded by RAP_STREAM_LOTSAMISS windows.
 */
static void rap_case_stream_random_beside_scan(struct rap_test *t)
{
	const unsigned long ra = 32;

	rap_sim_scan_random(ra, false, 16);
	RAP_EXPECT_LE(t, rap_sim_b.pages_read - rap_sim_random_read[1],
		      rap_sim_a.pages_read - rap_sim_random_read[0] +
		      2 * RAP_STREAM_BACK_WINDOWS * ra);
	RAP_EXPECT_LE(t, rap_sim_random_read[1],
		      rap_sim_random_read[0] + RAP_STREAM_LOTSAMISS * ra);
}

/*
 * The reverse scan and a random reader (one touch every 256 pages the
 * scan moves) at read_ahead_kb 1024: stock's read-around window of 256
 * pages takes one miss for every 128 pages the scan moves and a
 * fault-around hit for each of the 7 blocks below it, so its count sits
 * at zero and the random reader reads around throughout, on stock and
 * with the tracker alike (the same pages): the scan's windows took
 * nothing off a count that could not rise. (Counted as taken, the scan's
 * windows gave read-around up for the random reader: 41622 pages against
 * 45356.)
 */
static void rap_case_stream_random_beside_wide_scan(struct rap_test *t)
{
	rap_sim_scan_random(256, false, 256);
	RAP_EXPECT(t, rap_sim_a.mmap_miss <= 100);
	RAP_EXPECT_EQ(t, rap_sim_b.pages_read, rap_sim_a.pages_read);
}

/*
 * The scan of stream_random_beside_scan forwards: stock's read-around
 * window marks a page ahead of the miss, the scan touches it, and stock
 * reads on without a miss, each hit lowering its count: the count sits
 * at zero and the random reader reads around throughout, on stock and
 * with the tracker alike (no more misses): the scan's windows took
 * nothing off a count that could not rise. (Counted as taken, they gave
 * read-around up for the random reader: 1689 misses against 1379.)
 */
static void rap_case_stream_random_beside_forward_scan(struct rap_test *t)
{
	rap_sim_scan_random(32, true, 16);
	RAP_EXPECT(t, rap_sim_a.mmap_miss <= 100);
	RAP_EXPECT_LE(t, rap_sim_b.misses, rap_sim_a.misses);
}

/*
 * A reverse scan of every page of a region that stops above the file's
 * start (an index's leaves read backwards, the table's pages below them):
 * the tracker reads ahead of its reader into pages nobody touches, the
 * window its reader is in and the next, doubled at each marker, each up
 * to a backward span's largest (RAP_STREAM_BACK_WINDOWS of stock's, or
 * the kernel's largest read if smaller). What it reads below the region
 * is at most stock's there plus two such windows, at every length; its
 * misses stock's plus 4. Measured (docs/STREAMS.md, "Known limits"): 147
 * to 509 pages at ra_pages 32, where stock reads at most 16 (up to 1979
 * with windows of the kernel's largest read, 1024 pages).
 */
static void rap_case_stream_reverse_scan_stops(struct rap_test *t)
{
	static const unsigned long ras[] = { 32, 2048 };
	const pgoff_t hi = 60000;
	unsigned long len, below[2], most, i;
	unsigned int r;
	pgoff_t p;

	for (r = 0; r < ARRAY_SIZE(ras); r++) {
		most = min(rap_sim_max(ras[r]),
			   RAP_STREAM_BACK_WINDOWS * ras[r]);
		for (len = 64; len <= 40000; len += len / 2 + 7) {
			rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, ras[r],
				     RAP_MAP_AROUND, false);
			rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, ras[r],
				     RAP_MAP_AROUND, true);
			for (p = hi; p-- > hi - len;) {
				rap_sim_touch(&rap_sim_a, p);
				rap_sim_touch(&rap_sim_b, p);
			}
			memset(below, 0, sizeof(below));
			for (i = 0; i < hi - len; i++) {
				below[0] += !!(rap_sim_a.page[i] & RAP_SIM_CACHED);
				below[1] += !!(rap_sim_b.page[i] & RAP_SIM_CACHED);
			}
			RAP_EXPECT_LE(t, below[1], below[0] + 2 * most);
			RAP_EXPECT_LE(t, rap_sim_b.misses, rap_sim_a.misses + 4);
		}
	}
}

/*
 * A reverse scan of every page runs into the start of the file: its last
 * window reads from page 0, and the hit of its marker reads nothing more
 * (no window of cached pages). Every window the tracker returned read
 * something.
 */
static void rap_case_stream_reverse_scan_to_zero(struct rap_test *t)
{
	static const unsigned long ras[] = { 32, 2048 };
	unsigned int r;

	for (r = 0; r < ARRAY_SIZE(ras); r++) {
		rap_sim_init(&rap_sim_b, 8192, ras[r], RAP_MAP_AROUND, true);
		rap_sim_stride(&rap_sim_b, 1, false);
		RAP_EXPECT_LE(t, rap_sim_b.misses, 8);
		RAP_EXPECT_EQ(t, rap_sim_b.pages_read, 8192);
		RAP_EXPECT_EQ(t, rap_sim_b.empty, 0);
	}
}

/*
 * A forward reader whose misses continue the cached pages behind it (two
 * readers of one file take stock's readahead state from each other): its
 * stream follows stock's read-around window and marker, which stock reads
 * on from, rather than reading windows of its own; the tracker replaces
 * no window of stock's while stock's readahead keeps up.
 */
static void rap_case_stream_forward_follows_stock(struct rap_test *t)
{
	struct ra_policy_window win;
	unsigned int k;
	pgoff_t p, i;

	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	/* misses at no constant distance: a dense reader, not a stride */
	for (k = 0, p = 1000; k < 6; k++, p += 40 + 3 * k) {
		for (i = p - 40; i < p; i++)
			rap_sim_b.page[i] = RAP_SIM_CACHED | RAP_SIM_MAPPED;
		win = (struct ra_policy_window){ .start = p - 16, .size = 32,
						 .async_size = 8 };
		RAP_EXPECT(t, !rap_sim_decide(&rap_sim_b,
					      RA_POLICY_SYNC_AROUND, p, &win));
	}
}

/*
 * patwalk btree's walk over @pages pages at read_ahead_kb 4 * @ra, without
 * the tracker (rap_sim_a) and with it (rap_sim_b): runs of @run pages,
 * each read upwards from the branch page just below it, each run below
 * the one before
 */
static void rap_sim_btree(unsigned long pages, unsigned long ra,
			  unsigned long run)
{
	pgoff_t base, k;

	rap_sim_init(&rap_sim_a, pages, ra, RAP_MAP_AROUND, false);
	rap_sim_init(&rap_sim_b, pages, ra, RAP_MAP_AROUND, true);
	for (base = pages - run; base > run; base -= run + 1)
		for (k = 0; k <= run; k++) {
			pgoff_t p = k ? base + k - 1 : base - 1;

			rap_sim_touch(&rap_sim_a, p);
			rap_sim_touch(&rap_sim_b, p);
		}
}

/*
 * A B-tree index's reverse scan: runs of 15 to 256 pages, each read
 * upwards from the branch page just below it, each run below the one
 * before: no more misses than stock, and no more pages but for two
 * windows (the guest's patterns.sh runs it on the kernel). At
 * read_ahead_kb 128 the branch pages are a stride apart, and so are the
 * run's pages where stock's windows leave them to miss: a stride of one
 * page a touch once missed twice a run (26, 28, 69 and 75 took more
 * misses than stock; 64 took 82, 6.12's guest 515 against stock's 251).
 * The miss a stride below a run walked, with the run above it untouched,
 * is a descent (rap_stream_walked_up()): a handful of misses. A jitter
 * match of such a miss once took runs of 15 (1147 misses, stock 512) and,
 * at read_ahead_kb 8192, of 31 (22, stock 16) from their streams. At
 * read_ahead_kb 8192 stock misses only at the branch pages below its
 * windows, 1040 pages apart for runs of 64, with the 15 pages above the
 * miss not cached and the run above them cached but not walked: a
 * walker, read as a span from its fourth miss (rap_stream_above()), not a
 * stride that reads the page a stride on and misses again above it (12
 * misses for runs of 64, 22 for 128 and 256, stock 16).
 */
static void rap_case_stream_btree_index_reverse(struct rap_test *t)
{
	/* read_ahead_kb / 4, pages a run, misses at most (0: stock's) */
	static const struct {
		unsigned long ra, run, most;
	} scans[] = {
		{ 32, 15, 0 }, { 32, 26, 8 }, { 32, 28, 8 }, { 32, 40, 8 },
		{ 32, 64, 8 }, { 32, 69, 8 }, { 32, 75, 8 }, { 32, 128, 8 },
		{ 32, 256, 8 }, { 2048, 31, 0 }, { 2048, 64, 8 },
		{ 2048, 128, 8 }, { 2048, 256, 8 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(scans); i++) {
		rap_sim_btree(16384, scans[i].ra, scans[i].run);
		RAP_EXPECT_LE(t, rap_sim_b.misses, rap_sim_a.misses);
		RAP_EXPECT_LE(t, rap_sim_b.pages_read,
			      rap_sim_a.pages_read + 2 * RAP_SIM_MAX);
		if (scans[i].most)
			RAP_EXPECT_LE(t, rap_sim_b.misses, scans[i].most);
	}
}

/*
 * A backward stride of just under a fault-around block, from a block's
 * first page, at read_ahead_kb 128: stock's windows serve every other
 * touch, so its misses are two strides apart with every block between
 * them touched, and a block's first page is not always cached when its
 * reader maps the block. It is no B-tree's run (rap_stream_walked_up()
 * looks at both ends of a block): a stride's handful of misses, not a
 * descent whose windows its reader outruns (148 misses for 14, 138 for 15).
 */
static void rap_case_stream_thinned_stride(struct rap_test *t)
{
	static const unsigned long strides[] = { 14, 15 };
	unsigned int i;
	pgoff_t p;

	for (i = 0; i < ARRAY_SIZE(strides); i++) {
		rap_sim_init(&rap_sim_a, 8192, 32, RAP_MAP_AROUND, false);
		rap_sim_init(&rap_sim_b, 8192, 32, RAP_MAP_AROUND, true);
		for (p = 8176; p >= strides[i]; p -= strides[i]) {
			rap_sim_touch(&rap_sim_a, p);
			rap_sim_touch(&rap_sim_b, p);
		}
		RAP_EXPECT_LE(t, rap_sim_b.misses, 8);
		RAP_EXPECT_LE(t, rap_sim_b.pages_read, rap_sim_a.pages_read +
			      rap_sim_overshoot(&rap_sim_b, strides[i]));
	}
}

/*
 * A stream untouched for RAP_STREAM_REAP_MS is gone, whatever its state:
 * a miss one stride on starts a stream, and a stream of a new reader takes
 * its way first. Within the time it continues.
 */
static void rap_case_stream_expires(struct rap_test *t)
{
	struct ra_policy_window win;
	unsigned int i;
	pgoff_t p;

	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	for (p = 1000; p < 1000 + 3 * 64; p += 64)
		rap_sim_decide(&rap_sim_b, RA_POLICY_SYNC_AROUND, p, &win);
	rap_sim_b.now = RAP_STREAM_REAP_MS;
	RAP_EXPECT(t, rap_sim_decide(&rap_sim_b, RA_POLICY_SYNC_AROUND, p,
				     &win));
	rap_sim_b.now += RAP_STREAM_REAP_MS + 1;
	RAP_EXPECT(t, !rap_sim_decide(&rap_sim_b, RA_POLICY_SYNC_AROUND,
				      p + 64, &win));
	/* the new stream took the expired one's way */
	for (i = 0; i < RAP_STREAM_WAYS; i++)
		if (rap_sim_b.set.way[i].last == p)
			break;
	RAP_EXPECT(t, i == RAP_STREAM_WAYS);
}

struct rap_stream_case {
	const char *name;
	void (*run)(struct rap_test *t);
};

/* Whether @arm has a confirmed stream of @key last within @pages of @index */
static bool rap_sim_confirmed(unsigned int arm,
			      const struct rap_stream_key *key, pgoff_t index,
			      unsigned long pages)
{
	const struct rap_stream_set *set;
	bool found = false;
	unsigned int i;

	rcu_read_lock();
	set = &rap_stream_slot(&rap_sim_table, arm, key)->set;
	for (i = 0; i < RAP_STREAM_WAYS; i++) {
		const struct rap_stream *s = &set->way[i];

		found |= s->state != RAP_STREAM_FREE &&
			 s->conf >= RAP_STREAM_CONFIRM &&
			 rap_stream_key_eq(&s->key, key) &&
			 rap_absdiff(index, s->last) <= pages;
	}
	rcu_read_unlock();
	return found;
}

/* Free the table of the cases that run faults through one */
static void rap_sim_table_release(void)
{
	rap_stream_table_free(&rap_sim_table);
}

/*
 * A fresh table, for the cases that run faults through one, that may grow
 * to 1 << @max_order sets per arm
 */
static bool rap_sim_table_bounded(unsigned int max_order)
{
	rap_sim_table_release();
	memset(&rap_sim_table, 0, sizeof(rap_sim_table));
	return rap_stream_table_init(&rap_sim_table, max_order) == 0;
}

/* A fresh table of RAP_STREAM_SETS sets per arm that does not grow */
static void rap_sim_table_init(void)
{
	rap_sim_table_bounded(ilog2(RAP_STREAM_SETS));
}

/*
 * Each A/B arm has sets of its own: a stream that arm B's faults built is
 * not found, continued, flushed or evicted by arm A's faults, nor the
 * other way round. A reader walks every 64th page in arm B until its
 * stream reads ahead, then goes on in arm A (over a page cache of its
 * own): arm A's stock decides its first misses, and arm B's stream, with
 * its marker, is as it was.
 */
static void rap_case_stream_arms_apart(struct rap_test *t)
{
	const struct rap_stream_key key = { .inode = 0x1000, .ino = 12,
					    .dev = 8, .generation = 1 };
	unsigned long i, async;

	rap_sim_table_init();
	rap_sim_init(&rap_sim_b, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	rap_sim_b.table = &rap_sim_table;
	rap_sim_b.arm = 1;
	for (i = 0; i < 8; i++)
		rap_sim_touch(&rap_sim_b, i * 64);
	RAP_EXPECT(t, rap_sim_b.sync_replaced + rap_sim_b.async_replaced > 0);
	RAP_EXPECT(t, rap_sim_confirmed(1, &key, 7 * 64, 64));
	RAP_EXPECT(t, !rap_sim_confirmed(0, &key, 7 * 64, RAP_SIM_PAGES));

	/* the same reader in arm A: no stream there, stock decides */
	rap_sim_init(&rap_sim_a, RAP_SIM_PAGES, 32, RAP_MAP_AROUND, true);
	rap_sim_a.table = &rap_sim_table;
	rap_sim_a.arm = 0;
	for (i = 8; i < 11; i++)
		rap_sim_touch(&rap_sim_a, i * 64);
	RAP_EXPECT_EQ(t, rap_sim_a.misses, 3);
	RAP_EXPECT_EQ(t, rap_sim_a.sync_replaced + rap_sim_a.async_replaced, 0);

	/* arm A's scan of the file takes the ways of its set: not arm B's */
	for (i = 0; i < 2 * RAP_STREAM_WAYS; i++)
		rap_sim_touch(&rap_sim_a, 8192 + i * 3000);
	rap_stream_table_flush(&rap_sim_table, 0);
	RAP_EXPECT(t, rap_sim_confirmed(1, &key, 7 * 64, 64));

	/* arm B's reader goes on from its marker, as if arm A never ran */
	async = rap_sim_b.async_replaced;
	for (i = 8; i < 11; i++)
		rap_sim_touch(&rap_sim_b, i * 64);
	RAP_EXPECT_EQ(t, rap_sim_b.misses, 4);
	RAP_EXPECT_EQ(t, rap_sim_b.async_replaced, async + 3);

	/* and arm B's flush leaves arm A's streams */
	rap_sim_touch(&rap_sim_a, 40000);
	rap_sim_touch(&rap_sim_a, 40064);
	rap_stream_table_flush(&rap_sim_table, 1);
	RAP_EXPECT(t, !rap_sim_confirmed(1, &key, 7 * 64, RAP_SIM_PAGES));
	rcu_read_lock();
	RAP_EXPECT(t, rap_stream_slot(&rap_sim_table, 0, &key)->set.clock > 0);
	for (i = 0; i < RAP_STREAM_WAYS; i++)
		if (rap_stream_slot(&rap_sim_table, 0, &key)->set.way[i].last ==
		    40064)
			break;
	rcu_read_unlock();
	RAP_EXPECT(t, i < RAP_STREAM_WAYS);
}

/* The page cache of the capacity cases: empty, so every touch misses */
static bool rap_sim_nothing(const void *ctx __always_unused,
			    pgoff_t index __always_unused)
{
	return false;
}

static bool rap_sim_nothing_in(const void *ctx __always_unused,
			       pgoff_t first __always_unused,
			       pgoff_t last __always_unused)
{
	return false;
}

static const struct rap_cache_view rap_sim_empty = {
	.has_folio = rap_sim_nothing,
	.has_range = rap_sim_nothing_in,
};

/* A read-around miss of file @file at @index, at @now ms */
static struct rap_stream_fault rap_sim_file_miss(unsigned int file,
						 pgoff_t index, u32 now)
{
	return (struct rap_stream_fault){
		.key = { .inode = 0x100000 + 64UL * file, .ino = file + 1,
			 .dev = 8, .generation = 1 },
		.reader = 1,
		.now = now,
		.point = RA_POLICY_SYNC_AROUND,
		.kind = RAP_MAP_AROUND,
		.index = index,
		.vma_end = 1UL << 20,
		.stock_start = index - 16,
		.stock_pages = 32,
		.max_pages = 1024,
		.fault_around_pages = RAP_SIM_AROUND,
	};
}

/*
 * A miss of file @file at @index through arm @arm of rap_sim_table, and
 * if @grow the grow its set asks for, as the module's work item does it:
 * the RAP_STREAM_DID_* bits
 */
static unsigned int rap_sim_table_miss(struct rap_test *t, unsigned int arm,
				       unsigned int file, pgoff_t index,
				       bool grow)
{
	struct rap_stream_fault f = rap_sim_file_miss(file, index, 0);
	struct ra_policy_window win = { .start = index - 16, .size = 32 };
	unsigned int did;
	u64 cost;

	rap_stream_run(&rap_sim_table, arm, &f, &rap_sim_empty, &rap_sim_snap,
		       &win, &did, false, &cost);
	if (grow && (did & RAP_STREAM_DID_CROWDED))
		RAP_EXPECT_EQ(t, rap_stream_table_grow(&rap_sim_table, arm), 1);
	return did;
}

/* log2 of the sets of an arm's table */
static unsigned int rap_sim_table_order(unsigned int arm)
{
	unsigned int order;

	rcu_read_lock();
	order = rcu_dereference(rap_sim_table.sets[arm])->order;
	rcu_read_unlock();
	return order;
}

/*
 * The streams of an arm's table, and of those: in the set their file
 * hashes to (@placed), of file 0..@files-1 last at @last (@at) and, of
 * those, confirmed (@confirmed)
 */
struct rap_sim_census {
	unsigned int streams, placed, at, confirmed;
};

static struct rap_sim_census rap_sim_table_census(unsigned int arm,
						  pgoff_t last)
{
	struct rap_sim_census c = { 0 };
	struct rap_stream_sets *sets;
	unsigned long i;
	unsigned int w;

	rcu_read_lock();
	sets = rcu_dereference(rap_sim_table.sets[arm]);
	for (i = 0; i < 1UL << sets->order; i++) {
		const struct rap_stream_set *set = &sets->slot[i].set;

		for (w = 0; w < RAP_STREAM_WAYS; w++) {
			const struct rap_stream *s = &set->way[w];

			if (s->state == RAP_STREAM_FREE)
				continue;
			c.streams++;
			c.placed += (rap_stream_hash(&s->key) &
				     ((1U << sets->order) - 1)) == i;
			if (s->last != last)
				continue;
			c.at++;
			c.confirmed += s->conf >= RAP_STREAM_CONFIRM;
		}
	}
	rcu_read_unlock();
	return c;
}

/*
 * Capacity follows the files (docs/STREAMS.md, "Capacity"): 1024 files,
 * each read backwards at a stride of 64 pages, eight misses each in
 * turn. With RAP_STREAM_SETS sets their streams evict each other (16
 * files a set on average, for 8 ways): bounded there (the fixed table of
 * before), most are never confirmed. Free to grow, the crowded sets ask
 * for more and the table doubles until no set is crowded: every file's
 * stream is confirmed at its last miss. Bounded at twice RAP_STREAM_SETS,
 * the table grows to the bound and no further. Arm B's table stays as it
 * was.
 */
static void rap_case_stream_table_grows(struct rap_test *t)
{
	const unsigned int files = 1024, top = 100000;
	unsigned int min = ilog2(RAP_STREAM_SETS), bound, file, i;
	struct rap_sim_census c;

	for (bound = min; bound <= min + 4; bound += bound == min ? 1 : 3) {
		RAP_EXPECT(t, rap_sim_table_bounded(bound));
		for (i = 0; i < 8; i++)
			for (file = 0; file < files; file++)
				rap_sim_table_miss(t, 0, file, top - 64 * i,
						   true);
		c = rap_sim_table_census(0, top - 64 * 7);
		RAP_EXPECT_EQ(t, rap_sim_table_order(1), min);
		RAP_EXPECT_EQ(t, c.placed, c.streams);
		if (bound == min) {
			RAP_EXPECT_EQ(t, rap_sim_table_order(0), min);
			RAP_EXPECT_LE(t, c.confirmed, files / 2);
		} else if (bound == min + 1) {
			RAP_EXPECT_EQ(t, rap_sim_table_order(0), min + 1);
			RAP_EXPECT_LE(t, c.confirmed + 1, files);
		} else {
			RAP_EXPECT_LE(t, rap_sim_table_order(0), bound);
			RAP_EXPECT_EQ(t, c.confirmed, files);
		}
	}
}

/*
 * A resize moves the streams: doubling keeps every live one, each in
 * the set its file hashes to, and so does halving what fits; a stream
 * moved goes on as before (its next miss continues it). A table at its
 * bound does not grow; the bound lowered shrinks it now.
 */
static void rap_case_stream_table_resize(struct rap_test *t)
{
	unsigned int min = ilog2(RAP_STREAM_SETS), file, went_on = 0;
	struct rap_sim_census c, moved;

	RAP_EXPECT(t, rap_sim_table_bounded(min + 3));
	for (file = 0; file < 200; file++)
		rap_sim_table_miss(t, 0, file, 5000, false);
	c = rap_sim_table_census(0, 5000);
	RAP_EXPECT_LE(t, 150, c.streams);
	RAP_EXPECT_EQ(t, rap_stream_table_resize(&rap_sim_table, 0, min + 1),
		      0);
	RAP_EXPECT_EQ(t, rap_stream_table_resize(&rap_sim_table, 0, min + 3),
		      0);
	moved = rap_sim_table_census(0, 5000);
	RAP_EXPECT_EQ(t, moved.streams, c.streams);
	RAP_EXPECT_EQ(t, moved.placed, c.streams);
	RAP_EXPECT_EQ(t, moved.at, c.streams);
	RAP_EXPECT_EQ(t, rap_stream_table_grow(&rap_sim_table, 0), 0);
	RAP_EXPECT_EQ(t, rap_sim_table_order(0), min + 3);
	RAP_EXPECT_EQ(t, rap_stream_table_bytes(&rap_sim_table, 0),
		      rap_stream_sets_bytes(min + 3));
	/* the files' streams take their second misses as continuations */
	for (file = 0; file < 200; file++)
		went_on += !(rap_sim_table_miss(t, 0, file, 4936, false) &
			     RAP_STREAM_DID_NEW);
	RAP_EXPECT_EQ(t, went_on, c.streams);
	RAP_EXPECT_EQ(t, rap_stream_table_bound(&rap_sim_table, 0, min), 0);
	RAP_EXPECT_EQ(t, rap_sim_table_order(0), min);
	c = rap_sim_table_census(0, 4936);
	RAP_EXPECT_EQ(t, c.placed, c.streams);
	RAP_EXPECT_EQ(t, c.at, c.streams);
	RAP_EXPECT_LE(t, 150, c.streams);
	RAP_EXPECT_EQ(t, rap_stream_table_grow(&rap_sim_table, 0), 0);
}

/*
 * Age the streams of files @from and up in an arm's table as if their
 * files went idle: last touched RAP_STREAM_REAP_MS + 1 ms before @now
 */
static void rap_sim_table_idle(unsigned int arm, unsigned int from, u32 now)
{
	struct rap_stream_sets *sets;
	unsigned long i;
	unsigned int w;

	rcu_read_lock();
	sets = rcu_dereference(rap_sim_table.sets[arm]);
	for (i = 0; i < 1UL << sets->order; i++)
		for (w = 0; w < RAP_STREAM_WAYS; w++) {
			struct rap_stream *s = &sets->slot[i].set.way[w];

			if (s->key.ino > from)
				s->seen = now - RAP_STREAM_REAP_MS - 1;
		}
	rcu_read_unlock();
}

/*
 * Capacity follows the files down (docs/STREAMS.md, "Capacity"): 1024
 * files read in turn grow the table as in stream_table_grows, and the
 * faults of its crowded sets note the time they asked. While the files'
 * streams are live, the table does not shrink, whenever its sets last
 * asked; once all but 16 files go idle, it does not shrink within
 * RAP_STREAM_REAP_MS of an ask, then halves at each check, keeping the
 * 16 files' streams, down to RAP_STREAM_SETS sets and no further.
 */
static void rap_case_stream_table_shrinks(struct rap_test *t)
{
	const unsigned int files = 1024, top = 100000, kept = 16;
	unsigned int min = ilog2(RAP_STREAM_SETS), grown, file, i, n;
	struct rap_sim_census c;
	u32 now;

	RAP_EXPECT(t, rap_sim_table_bounded(min + 4));
	for (i = 0; i < 8; i++)
		for (file = 0; file < files; file++)
			rap_sim_table_miss(t, 0, file, top - 64 * i, true);
	now = rap_stream_now();
	grown = rap_sim_table_order(0);
	RAP_EXPECT_LE(t, min + 2, grown);
	/* the latest ask, noted by the fault that asked: none at load */
	RAP_EXPECT(t, rap_stream_recent(rap_sim_table.asked[0], now));
	c = rap_sim_table_census(0, top - 64 * 7);
	RAP_EXPECT_EQ(t, c.confirmed, files);

	/* live: no shrink, just after an ask or long after */
	rap_sim_table.asked[0] = now;
	RAP_EXPECT_EQ(t, rap_stream_table_shrink(&rap_sim_table, 0, now), 0);
	rap_sim_table.asked[0] = now - RAP_STREAM_REAP_MS - 1;
	RAP_EXPECT_EQ(t, rap_stream_table_shrink(&rap_sim_table, 0, now), 0);
	RAP_EXPECT_EQ(t, rap_sim_table_order(0), grown);

	/* idle but for 16 files: not within RAP_STREAM_REAP_MS of an ask */
	rap_sim_table_idle(0, kept, now);
	rap_sim_table.asked[0] = now - RAP_STREAM_REAP_MS;
	RAP_EXPECT_EQ(t, rap_stream_table_shrink(&rap_sim_table, 0, now), 0);
	RAP_EXPECT_EQ(t, rap_sim_table_order(0), grown);

	/* then a halving at each check, down to the load size */
	rap_sim_table.asked[0] = now - RAP_STREAM_REAP_MS - 1;
	for (n = 0; n < 8; n++)
		if (rap_stream_table_shrink(&rap_sim_table, 0, now) != 1)
			break;
	RAP_EXPECT_EQ(t, n, grown - min);
	RAP_EXPECT_EQ(t, rap_sim_table_order(0), min);
	RAP_EXPECT_EQ(t, rap_stream_table_bytes(&rap_sim_table, 0),
		      rap_stream_sets_bytes(min));
	c = rap_sim_table_census(0, top - 64 * 7);
	RAP_EXPECT_EQ(t, c.streams, kept);
	RAP_EXPECT_EQ(t, c.placed, kept);
	RAP_EXPECT_EQ(t, c.confirmed, kept);
	RAP_EXPECT_EQ(t, rap_sim_table_order(1), min);
}

/*
 * A fork whose base is the set's victim: the other ways hold confirmed
 * streams touched as lately as the young stream another task's miss
 * lands near, so the young stream has the least claim and its way goes
 * to the fork. The fork still tries the young stream's distance, read
 * before its way is taken.
 */
static void rap_case_stream_fork_own_way(struct rap_test *t)
{
	struct rap_stream_set *set = &rap_sim_a.set;
	struct ra_policy_window win;
	struct rap_stream_fault f;
	unsigned int did, i;

	memset(set, 0, sizeof(*set));
	set->clock = 100;
	f = rap_sim_file_miss(0, 5000, 0);
	for (i = 0; i < RAP_STREAM_WAYS; i++) {
		struct rap_stream *s = &set->way[i];

		*s = (struct rap_stream){ .key = f.key, .age = set->clock,
					  .reader = 1 + i,
					  .state = RAP_STREAM_IDLE,
					  .conf = RAP_STREAM_CONFIRM,
					  .misses = RAP_STREAM_CONFIRM,
					  .delta = 64 };
		s->last = 200000 + 20000 * i;
		s->origin = s->last;
		s->top = s->last;
	}
	/* way 0: task 1's young stream at 5000 */
	set->way[0] = (struct rap_stream){ .key = f.key, .last = 5000,
					   .origin = 5000, .top = 5000,
					   .misses = 1, .reader = 1,
					   .age = set->clock,
					   .state = RAP_STREAM_IDLE };
	/* task 9 misses 40 pages on: a fork of way 0, in way 0 */
	f.index = 5040;
	f.stock_start = f.index - 16;
	f.reader = 9;
	rap_stream_decide(set, &f, &rap_sim_empty, &win, &did);
	RAP_EXPECT(t, did & RAP_STREAM_DID_NEW);
	RAP_EXPECT_EQ(t, set->way[0].last, 5040);
	RAP_EXPECT_EQ(t, set->way[0].reader, 9);
	RAP_EXPECT_EQ(t, set->way[0].delta, 40);
}

/*
 * What counts toward growth: a new stream that takes the way of another
 * file's live stream. A file's own streams, which share its set at any
 * size, and expired ones do not count; RAP_STREAM_GROW_EVICTS such
 * evictions ask for more sets only within RAP_STREAM_REAP_MS of the
 * first.
 */
static void rap_case_stream_evict_counts(struct rap_test *t)
{
	struct rap_stream_set *set = &rap_sim_a.set;
	struct ra_policy_window win;
	struct rap_stream_fault f;
	unsigned int did, file, i, any = 0;

	/* one file's misses far apart: streams of its own only */
	memset(set, 0, sizeof(*set));
	for (i = 0; i < 100; i++) {
		f = rap_sim_file_miss(0, 1000 + 5000 * i, 0);
		rap_stream_decide(set, &f, &rap_sim_empty, &win, &did);
		any |= did;
	}
	RAP_EXPECT(t, !(any & (RAP_STREAM_DID_EVICT |
			       RAP_STREAM_DID_CROWDED)));

	/* files 0..7 fill the ways at 0 ms; file 8 evicts one at 1000 */
	memset(set, 0, sizeof(*set));
	for (file = 0; file < 9; file++) {
		f = rap_sim_file_miss(file, 5000, file < 8 ? 0 : 1000);
		rap_stream_decide(set, &f, &rap_sim_empty, &win, &did);
		RAP_EXPECT_EQ(t, did & (RAP_STREAM_DID_EVICT |
					RAP_STREAM_DID_CROWDED),
			      file < 8 ? 0 : RAP_STREAM_DID_EVICT);
	}
	/* at 2500 files 9..15 take the ways of 1..7, expired: no count */
	for (file = 9; file < 16; file++) {
		f = rap_sim_file_miss(file, 5000, 2500);
		rap_stream_decide(set, &f, &rap_sim_empty, &win, &did);
		RAP_EXPECT(t, !(did & RAP_STREAM_DID_EVICT));
	}
	/*
	 * at 3100 file 16 takes file 8's expired way; 17 evicts live 9, but
	 * more than RAP_STREAM_REAP_MS after 8's eviction: a first; 18 is
	 * the second
	 */
	for (file = 16; file < 19; file++) {
		f = rap_sim_file_miss(file, 5000, 3100);
		rap_stream_decide(set, &f, &rap_sim_empty, &win, &did);
		RAP_EXPECT_EQ(t, did & (RAP_STREAM_DID_EVICT |
					RAP_STREAM_DID_CROWDED),
			      file == 16 ? 0 : file == 17 ?
			      RAP_STREAM_DID_EVICT :
			      RAP_STREAM_DID_EVICT | RAP_STREAM_DID_CROWDED);
	}
}

static const struct rap_stream_case rap_stream_cases[] = {
	{ "stream_strides", rap_case_stream_strides },
	{ "stream_stride_leaves_stock_cache",
	  rap_case_stream_stride_leaves_stock_cache },
	{ "stream_random_is_stock", rap_case_stream_random_is_stock },
	{ "stream_btree_reverse", rap_case_stream_btree_reverse },
	{ "stream_dense_jumps", rap_case_stream_dense_jumps },
	{ "stream_lmdb_scan", rap_case_stream_lmdb_scan },
	{ "stream_tensors", rap_case_stream_tensors },
	{ "stream_tensor_misses", rap_case_stream_tensor_misses },
	{ "stream_tensors_around", rap_case_stream_tensors_around },
	{ "stream_loader_64mib", rap_case_stream_loader_64mib },
	{ "stream_loader_first_tensor", rap_case_stream_loader_first_tensor },
	{ "stream_random_dense_is_stock", rap_case_stream_random_dense_is_stock },
	{ "stream_two_readers", rap_case_stream_two_readers },
	{ "stream_lru", rap_case_stream_lru },
	{ "stream_key_and_foreign_marker", rap_case_stream_key_and_foreign_marker },
	{ "stream_reverse_stops_at_zero", rap_case_stream_reverse_stops_at_zero },
	{ "stream_windows_valid", rap_case_stream_windows_valid },
	{ "stream_abandoned_age", rap_case_stream_abandoned_age },
	{ "stream_random_beside_stride", rap_case_stream_random_beside_stride },
	{ "stream_random_after_stride", rap_case_stream_random_after_stride },
	{ "stream_pool_jittered", rap_case_stream_pool_jittered },
	{ "stream_random_beside_wide_scan", rap_case_stream_random_beside_wide_scan },
	{ "stream_random_beside_forward_scan",
	  rap_case_stream_random_beside_forward_scan },
	{ "stream_expires", rap_case_stream_expires },
	{ "stream_holes", rap_case_stream_holes },
	{ "stream_jitter", rap_case_stream_jitter },
	{ "stream_jitter_stride", rap_case_stream_jitter_stride },
	{ "stream_jitter_reverse", rap_case_stream_jitter_reverse },
	{ "stream_jitter_wide", rap_case_stream_jitter_wide },
	{ "stream_random_beside_scan", rap_case_stream_random_beside_scan },
	{ "stream_reverse_scan_to_zero", rap_case_stream_reverse_scan_to_zero },
	{ "stream_reverse_scan_stops", rap_case_stream_reverse_scan_stops },
	{ "stream_forward_follows_stock",
	  rap_case_stream_forward_follows_stock },
	{ "stream_btree_index_reverse", rap_case_stream_btree_index_reverse },
	{ "stream_thinned_stride", rap_case_stream_thinned_stride },
	{ "stream_arms_apart", rap_case_stream_arms_apart },
	{ "stream_table_grows", rap_case_stream_table_grows },
	{ "stream_table_resize", rap_case_stream_table_resize },
	{ "stream_table_shrinks", rap_case_stream_table_shrinks },
	{ "stream_evict_counts", rap_case_stream_evict_counts },
	{ "stream_pool", rap_case_stream_pool },
	{ "stream_pool_beside_young", rap_case_stream_pool_beside_young },
	{ "stream_claim", rap_case_stream_claim },
	{ "stream_fork_own_way", rap_case_stream_fork_own_way },
};

#endif /* RAPOLICY_STREAM_CASES_H */
