/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A model of the mmap fault path over many files for the stream tracker's
 * generated patterns (pattern_stream.c): the fault path of the shared
 * cases' rap_sim (module/tests/stream_cases.h), one readahead state and
 * one mmap_miss per file as struct file keeps them, and one tracker table
 * for all files, as one arm of the module has: RAP_STREAM_SETS sets at
 * first, each fault through rap_stream_run(), and the table doubled
 * (rap_stream_table_grow()) right after a fault whose set asked for it,
 * as the module's work item does a little later, up to the model's bound.
 * The clock stands still unless pm_ms_per_touch is set: then each touch
 * takes that many ms, and while the table is above RAP_STREAM_SETS sets
 * rap_stream_table_shrink() runs every RAP_STREAM_REAP_MS from a grow, as
 * the module's shrink work does (pm_idle() lets time pass untouched).
 *
 * With random_miss (pm.random_miss), the profile best's decisions: after
 * the tracker, random_miss (module/random.c) on read-around misses and
 * marker hits, with its state per reader of a file in RAP_RANDOM_SETS
 * sets as random_table.c keeps them, a fault on a cached page that
 * fault-around has not mapped reported to it (rap_random_hit()), and the
 * retry of a miss it read the faulting page of, which the kernel does not
 * count as a hit, taking back that miss's mmap_miss increment; the
 * tracker sees mmap_miss plus what random_miss took (tracker.c).
 *
 * Include after module/stream.c and module/random.c.
 */
#ifndef RAP_STREAM_MODEL_H
#define RAP_STREAM_MODEL_H

#include <stdlib.h>
#include <string.h>

#define PM_CACHED	1
#define PM_MARKED	2
#define PM_MAPPED	4
#define PM_AROUND	16UL		/* fault_around_bytes, 64 KiB */
#define PM_MAX		1024UL		/* 2 << the largest folio order, 9 */
#define PM_READERS	1024		/* reader slots counted apart */

struct pm_file {
	unsigned char *page;
	unsigned long pages;
	pgoff_t ra_start;
	unsigned long ra_size, ra_async;
	unsigned int mmap_miss;
};

struct pm {
	struct pm_file *file;
	unsigned int nfiles;
	struct rap_stream_table table;	/* arm 0 is the model's */
	struct rap_stream_set snap;
	bool random_miss;	/* random_miss after the tracker: best */
	struct rap_random_set rsets[RAP_RANDOM_SETS];
	unsigned int grows;		/* times the table doubled */
	unsigned int shrinks;		/* times it halved by itself */
	u32 ms_per_touch;		/* the clock's step; 0: it stands */
	bool check_armed;		/* a shrink check is due at @check */
	u32 check;
	unsigned long ra_pages;
	enum rap_mapping_kind kind;
	bool tracker;
	u32 reader;		/* the task that touches next */
	unsigned int slot;	/* the reader slot its misses count for */
	u32 now;		/* ms */
	unsigned long misses, pages_read, replaced;
	unsigned long slot_misses[PM_READERS];
	unsigned long slot_pages[PM_READERS];	/* read on its touches */
	/*
	 * A stock model records the touched file's mmap_miss after each
	 * touch in @counts; a tracker model given it as @stock_counts
	 * (the same draw) checks the tracker's estimate of stock's give-up
	 * at each read-around miss against it: on stock's side, over
	 * (gives up where stock reads around), or under
	 */
	unsigned int *counts;
	const unsigned int *stock_counts;
	unsigned long touches, counts_size;
	unsigned long est_same, est_over, est_under;
};

/*
 * log2 of the sets the model's table may grow to: 2048, what the module's
 * default bound (streams_max_kb 4096) allows on x86-64
 */
static unsigned int pm_max_order = 11;
/* ms a touch takes in the models pm_init() sets up; 0: no time passes */
static u32 pm_ms_per_touch;

static void pm_init(struct pm *m, unsigned int nfiles,
		    const unsigned long *pages, unsigned long ra_pages,
		    enum rap_mapping_kind kind, bool tracker)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	if (rap_stream_table_init(&m->table, pm_max_order))
		abort();
	m->file = calloc(nfiles, sizeof(*m->file));
	m->nfiles = nfiles;
	for (i = 0; i < nfiles; i++) {
		m->file[i].pages = pages[i];
		m->file[i].page = calloc(pages[i], 1);
	}
	m->ra_pages = ra_pages;
	m->kind = kind;
	m->tracker = tracker;
	m->ms_per_touch = pm_ms_per_touch;
}

/* random_miss's state of the reader touching file @fi, as random_table.c */
static struct rap_random *pm_random(struct pm *m, unsigned int fi,
				    bool create)
{
	const struct rap_random_key key = { .file = 0x20000 + 64UL * fi,
					    .inode = 0x10000 + 64UL * fi,
					    .mm = 0x30000, .reader = m->reader };
	u64 h = (key.file ^ key.reader) * 0x9e3779b97f4a7c15ULL;

	if (!m->random_miss)
		return NULL;
	return rap_random_find(&m->rsets[(h >> 32) % RAP_RANDOM_SETS], &key,
			       create);
}

static void pm_free(struct pm *m)
{
	unsigned int i;

	for (i = 0; i < m->nfiles; i++)
		free(m->file[i].page);
	free(m->file);
	free(m->counts);
	rap_stream_table_free(&m->table);
}

/* The sets of the model's table now */
static unsigned long pm_sets(const struct pm *m)
{
	return 1UL << m->table.sets[0]->order;
}

static unsigned long pm_max(const struct pm *m)
{
	return m->ra_pages > PM_MAX ? m->ra_pages : PM_MAX;
}

static bool pm_has_folio(const void *ctx, pgoff_t index)
{
	const struct pm_file *f = ctx;

	return index < f->pages && (f->page[index] & PM_CACHED);
}

static bool pm_has_range(const void *ctx, pgoff_t first, pgoff_t last)
{
	pgoff_t i;

	for (i = first; i <= last; i++)
		if (pm_has_folio(ctx, i))
			return true;
	return false;
}

static bool pm_mapped(const void *ctx, pgoff_t index)
{
	const struct pm_file *f = ctx;

	return index < f->pages && (f->page[index] & PM_MAPPED);
}

/* page_cache_ra_order(): skip cached pages, mark the folio of the marker */
static void pm_read(struct pm *m, struct pm_file *f, pgoff_t start,
		    unsigned long size, unsigned long async_size,
		    unsigned int order)
{
	pgoff_t mark = async_size && async_size <= size ?
		       start + size - async_size : (pgoff_t)-1;
	unsigned long unit = 1UL << order;
	pgoff_t i;

	for (i = start; i < start + size && i < f->pages; i++) {
		if (f->page[i] & PM_CACHED)
			continue;
		f->page[i] = PM_CACHED;
		if (mark != (pgoff_t)-1 && i >> order == mark >> order &&
		    (i & ~(unit - 1)) >= start)
			f->page[i] |= PM_MARKED;
		m->pages_read++;
		m->slot_pages[m->slot]++;
	}
	f->ra_start = start;
	f->ra_size = size;
	f->ra_async = async_size;
}

static struct rap_stream_key pm_key(unsigned int fi)
{
	return (struct rap_stream_key){ .inode = 0x10000 + 64UL * fi,
					.ino = fi + 1, .dev = 8,
					.generation = 1 };
}

/*
 * At a read-around miss of file @fi: whether the tracker's estimate of
 * stock's count (the file's, plus what its streams took off it, as
 * rap_stream_lotsamiss() sums them) and stock's own count after the same
 * touch fall on the same side of MMAP_LOTSAMISS
 */
static void pm_estimate(struct pm *m, unsigned int fi)
{
	struct rap_stream_fault f = { .key = pm_key(fi), .now = m->now };
	unsigned long est = m->file[fi].mmap_miss, stock;

	if (!m->stock_counts || m->kind != RAP_MAP_AROUND)
		return;
	stock = m->stock_counts[m->touches - 1];
	est += rap_stream_taken(&rap_stream_slot(&m->table, 0, &f.key)->set,
				&f);
	if ((est > RAP_STREAM_LOTSAMISS) == (stock > RAP_STREAM_LOTSAMISS))
		m->est_same++;
	else if (est > RAP_STREAM_LOTSAMISS)
		m->est_over++;
	else
		m->est_under++;
}

static bool pm_decide(struct pm *m, unsigned int fi,
		      enum ra_policy_point point, pgoff_t index,
		      struct ra_policy_window *win)
{
	struct pm_file *file = &m->file[fi];
	bool sized = point != RA_POLICY_SYNC_SEQ && point != RA_POLICY_ASYNC;
	struct rap_cache_view view = {
		.ctx = file,
		.has_folio = pm_has_folio,
		.has_range = pm_has_range,
		.mapped = pm_mapped,
	};
	struct rap_stream_fault f = {
		.key = pm_key(fi),
		.reader = m->reader,
		.now = m->now,
		.point = point,
		.kind = m->kind,
		.index = index,
		.vma_start = 0,
		.vma_end = file->pages,
		/* as tracker.c: stock's window, or ra_pages from the fault */
		.stock_start = sized ? win->start : index,
		.stock_pages = sized ? win->size : m->ra_pages,
		.max_pages = pm_max(m),
		.thp_order = 9,
		.max_order = 9,
		.fault_around_pages = PM_AROUND,
		.stock_seq = point == RA_POLICY_ASYNC &&
			     index == file->ra_start + file->ra_size -
				      file->ra_async,
		.stock_next = file->ra_start + file->ra_size,
		.mmap_miss = file->mmap_miss,
	};
	unsigned int did;
	struct rap_random *r = pm_random(m, fi, false);
	bool replaced;
	u64 cost;

	if (!m->tracker || !rap_stream_wants(&f))
		return false;
	/* as tracker.c: past MMAP_LOTSAMISS with what random_miss took */
	if (r) {
		f.mmap_miss += r->took;
		if (point != RA_POLICY_ASYNC &&
		    f.mmap_miss > RAP_STREAM_LOTSAMISS)
			return false;
	}
	rap_host.ns = (u64)m->now * NSEC_PER_MSEC;
	replaced = rap_stream_run(&m->table, 0, &f, &view, &m->snap, win, &did,
				  false, &cost);
	if ((did & RAP_STREAM_DID_CROWDED) &&
	    rap_stream_table_grow(&m->table, 0) > 0) {
		m->grows++;
		/* the module's shrink work, armed by a grow */
		if (!m->check_armed && m->ms_per_touch) {
			m->check_armed = true;
			m->check = m->now + RAP_STREAM_REAP_MS;
		}
	}
	return replaced;
}

/*
 * The clock to @now: the shrink checks due by then, each re-armed while
 * the table is above RAP_STREAM_SETS sets
 */
static void pm_clock(struct pm *m, u32 now)
{
	while (m->check_armed && now - m->check < 0x80000000U) {
		if (rap_stream_table_shrink(&m->table, 0, m->check) > 0)
			m->shrinks++;
		m->check_armed = rap_stream_table_grown(&m->table, 0);
		m->check += RAP_STREAM_REAP_MS;
	}
	m->now = now;
}

/* @ms of time with no touch */
static void pm_idle(struct pm *m, u32 ms)
{
	pm_clock(m, m->now + ms);
}

static void pm_read_win(struct pm *m, struct pm_file *f,
			const struct ra_policy_window *win)
{
	unsigned long size = win->size < pm_max(m) ? win->size : pm_max(m);

	pm_read(m, f, win->start, size,
		win->async_size < size ? win->async_size : size, win->order);
	/* the file records ra_pages of it at most: its last ones */
	if (size > m->ra_pages) {
		f->ra_start += size - m->ra_pages;
		f->ra_size = m->ra_pages;
		if (f->ra_async > m->ra_pages)
			f->ra_async = m->ra_pages;
	}
}

/*
 * random_miss after the tracker at a read-around miss of file @fi at @p,
 * whose window @win is the tracker's if @replaced, else stock's: true if
 * it read the faulting page alone, and then the miss's retry, a mapping
 * the kernel does not count, took the miss's increment back
 */
static bool pm_random_miss(struct pm *m, unsigned int fi, pgoff_t p,
			   bool replaced, struct ra_policy_window *win)
{
	const struct rap_random_fault rf = {
		.point = RA_POLICY_SYNC_AROUND, .index = p, .counted = true,
		.replaced = replaced,
	};
	struct rap_random *r = pm_random(m, fi, true);
	struct pm_file *f = &m->file[fi];
	unsigned int did;

	if (!r || !rap_random_decide(r, &rf, win, &did))
		return false;
	f->page[p] = PM_CACHED;
	m->pages_read++;
	m->slot_pages[m->slot]++;
	if (rap_random_hit(r, p, false, &did) && f->mmap_miss)
		f->mmap_miss--;
	return true;
}

static void pm_miss(struct pm *m, unsigned int fi, pgoff_t p)
{
	struct pm_file *f = &m->file[fi];
	struct ra_policy_window win = { 0 }, stock;
	enum ra_policy_point point = m->kind == RAP_MAP_SEQ ?
		RA_POLICY_SYNC_SEQ : RA_POLICY_SYNC_AROUND;
	bool replaced;

	m->misses++;
	m->slot_misses[m->slot]++;
	if (m->kind == RAP_MAP_AROUND)
		f->mmap_miss++;
	pm_estimate(m, fi);
	/* read-around gives up: no window, no hook (MMAP_LOTSAMISS) */
	if (m->kind == RAP_MAP_AROUND && f->mmap_miss > 100) {
		f->page[p] = PM_CACHED;
		m->pages_read++;
		return;
	}
	win.start = p;
	win.size = m->ra_pages;
	if (m->kind != RAP_MAP_SEQ) {
		win.start = p > m->ra_pages / 2 ? p - m->ra_pages / 2 : 0;
		win.async_size = m->ra_pages / 4;
	}
	stock = win;
	replaced = pm_decide(m, fi, point, p, &win);
	if (!replaced)
		win = stock;
	if (point == RA_POLICY_SYNC_AROUND && pm_random_miss(m, fi, p, replaced,
							     &win))
		return;
	if (replaced) {
#ifdef PM_TRACE
		printf("# miss %lu: window %lu+%lu async %lu order %u\n", p,
		       win.start, win.size, win.async_size, win.order);
#endif
		m->replaced++;
		pm_read_win(m, f, &win);
	} else if (m->kind == RAP_MAP_SEQ) {
		pm_read(m, f, p, m->ra_pages, 0, 0);
	} else {
		pm_read(m, f, p > m->ra_pages / 2 ? p - m->ra_pages / 2 : 0,
			m->ra_pages, m->ra_pages / 4, 0);
	}
	if (!(f->page[p] & PM_CACHED)) {
		f->page[p] = PM_CACHED;
		m->pages_read++;
	}
}

static void pm_marker(struct pm *m, unsigned int fi, pgoff_t p)
{
	struct pm_file *f = &m->file[fi];
	struct ra_policy_window win = { .start = p + 1, .size = m->ra_pages };
	struct rap_random *r;
	unsigned long size;
	bool replaced;
	pgoff_t i;

	if (f->mmap_miss)
		f->mmap_miss--;
	for (i = p; i < f->pages && (f->page[i] & PM_MARKED); i++)
		f->page[i] &= ~PM_MARKED;
	for (i = p; i-- > 0 && (f->page[i] & PM_MARKED);)
		f->page[i] &= ~PM_MARKED;
	replaced = pm_decide(m, fi, RA_POLICY_ASYNC, p, &win);
	r = pm_random(m, fi, false);
	if (r) {
		const struct rap_random_fault rf = {
			.point = RA_POLICY_ASYNC, .index = p,
			.counted = m->kind == RAP_MAP_AROUND,
			.replaced = replaced,
		};
		unsigned int did;

		/* a random reader's touch of a marked page reads nothing */
		if (rap_random_decide(r, &rf, &win, &did))
			return;
	}
	if (replaced) {
#ifdef PM_TRACE
		printf("# hit %lu: window %lu+%lu async %lu order %u\n", p,
		       win.start, win.size, win.async_size, win.order);
#endif
		m->replaced++;
		pm_read_win(m, f, &win);
		return;
	}
	/* page_cache_async_ra(): the next window if sequential, else ra_pages */
	if (p == f->ra_start + f->ra_size - f->ra_async) {
		size = 2 * f->ra_size < m->ra_pages ? 2 * f->ra_size :
		       m->ra_pages;
		pm_read(m, f, f->ra_start + f->ra_size, size, size, 0);
	} else {
		pm_read(m, f, p + 1, m->ra_pages, m->ra_pages, 0);
	}
}

/*
 * A fault on cached page @p of file @fi, not mapped, no marker:
 * filemap_map_pages() maps it, and under read-around lowers mmap_miss;
 * random_miss may take an increment back where the kernel does not
 */
static void pm_hit(struct pm *m, unsigned int fi, pgoff_t p)
{
	struct rap_random *r = pm_random(m, fi, false);
	bool counted = m->kind == RAP_MAP_AROUND;
	struct pm_file *f = &m->file[fi];
	unsigned int did;

	if (r)
		counted = rap_random_hit(r, p, counted, &did);
	if (counted && f->mmap_miss)
		f->mmap_miss--;
}

/*
 * A touch of page @p of file @fi, and do_fault_around(). A fault that
 * fault-around serves (cached, not mapped, no marker) lowers the file's
 * mmap_miss under read-around, as 7.3's filemap_map_pages() does for the
 * faulting address; 6.12 lowers it by the pages it maps.
 */
static void pm_touch(struct pm *m, unsigned int fi, pgoff_t p)
{
	struct pm_file *f = &m->file[fi];
	pgoff_t i = p & ~(PM_AROUND - 1);

	if (p >= f->pages)
		return;
	m->touches++;
	if (m->ms_per_touch)
		pm_clock(m, m->now + m->ms_per_touch);
	if (!(f->page[p] & PM_CACHED))
		pm_miss(m, fi, p);
	else if (f->page[p] & PM_MARKED)
		pm_marker(m, fi, p);
	else if (!(f->page[p] & PM_MAPPED))
		pm_hit(m, fi, p);
	for (; i < (p | (PM_AROUND - 1)) + 1 && i < f->pages; i++)
		if (f->page[i] & PM_CACHED)
			f->page[i] |= PM_MAPPED;
	if (m->tracker)
		return;
	if (m->touches > m->counts_size) {
		m->counts_size = 2 * m->touches;
		m->counts = realloc(m->counts,
				    m->counts_size * sizeof(*m->counts));
		if (!m->counts)
			abort();
	}
	m->counts[m->touches - 1] = f->mmap_miss;
}

#endif /* RAP_STREAM_MODEL_H */
