// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: the stream tracker (see stream.h). Builds in the kernel and on
 * the host.
 *
 * The tracker sees misses (synchronous faults) and hits of the readahead
 * markers it set. A stream is a run of misses a constant number of pages
 * apart (the stride, either sign), or a run of misses that each continue
 * the cached pages behind them in one direction (a dense reader whose
 * readahead stock lost). Once confirmed, a dense stream (read-around,
 * VM_HUGEPAGE) or one of a step of one page reads spans, every page from
 * the fault on in doubling windows; any other reads the window stock
 * would read at its next touch, before its reader gets there. Each window
 * marks the folio of the first page the stream will touch in it; the hit
 * of that marker reads the next window. docs/STREAMS.md, "The model".
 */
#include "stream.h"

static bool rap_stream_key_eq(const struct rap_stream_key *a,
			      const struct rap_stream_key *b)
{
	return a->inode == b->inode && a->ino == b->ino && a->dev == b->dev &&
	       a->generation == b->generation;
}

/* The set of a file: a multiplicative hash of its key */
u32 rap_stream_hash(const struct rap_stream_key *key)
{
	u64 h = (u64)key->inode ^ (key->ino * 0x9e3779b97f4a7c15ULL) ^
		(key->dev << 32) ^ key->generation;

	h *= 0xff51afd7ed558ccdULL;
	return (u32)(h >> 32);
}

static void rap_stream_touch(struct rap_stream_set *set, struct rap_stream *s,
			     const struct rap_stream_fault *f)
{
	s->age = ++set->clock;
	s->seen = f->now;
	s->reader = f->reader;
}

/* Whether a window of the stream carries its marker */
static bool rap_stream_is_marked(const struct rap_stream *s)
{
	return s->state == RAP_STREAM_AHEAD || s->state == RAP_STREAM_FOLLOW;
}

/*
 * Whether @a, a time in ms, lies within RAP_STREAM_REAP_MS of @now, either
 * side: another CPU's local_clock() may run a little ahead of this one's
 * (unsigned distances survive the clock's wrap)
 */
static bool rap_stream_recent(u32 a, u32 now)
{
	return now - a <= RAP_STREAM_REAP_MS || a - now <= RAP_STREAM_REAP_MS;
}

/* Whether a stream is in use at @now: not free, and touched recently */
static bool rap_stream_live(const struct rap_stream *s, u32 now)
{
	return s->state != RAP_STREAM_FREE && rap_stream_recent(s->seen, now);
}

/*
 * A stream's claim to its way: its confidence, the misses that continued
 * it (conf), RAP_STREAM_HOLD decisions of its set when confirmed and a
 * share of them before, less the decisions of the set since its reader
 * last touched it. A new miss (a random reader's, a scan's jump) has
 * none; a stream reading ahead hears from its reader once a window and
 * keeps its way; a stream its reader left loses its claim.
 */
static long rap_stream_claim(const struct rap_stream_set *set,
			     const struct rap_stream *s)
{
	/* unsigned distance from the clock survives its wrap */
	return (long)(s->conf * RAP_STREAM_HOLD / RAP_STREAM_CONFIRM) -
	       (long)(set->clock - s->age);
}

/*
 * A free or expired way, or else the stream of the least claim
 * (rap_stream_claim()); of two equal claims the first.
 */
static struct rap_stream *rap_stream_victim(struct rap_stream_set *set,
					    u32 now)
{
	struct rap_stream *victim = NULL;
	unsigned int i;

	for (i = 0; i < RAP_STREAM_WAYS; i++) {
		struct rap_stream *s = &set->way[i];

		if (!rap_stream_live(s, now))
			return s;
		if (!victim ||
		    rap_stream_claim(set, s) < rap_stream_claim(set, victim))
			victim = s;
	}
	return victim;
}

/*
 * A new stream of @f's file takes @s. If @s was live and another file's,
 * the set holds more files' streams than it has ways, which more sets
 * would part (a file's own streams share one set at any size): count it,
 * and at the RAP_STREAM_GROW_EVICTS th such eviction within
 * RAP_STREAM_REAP_MS of the set's first, ask for twice the sets.
 */
static void rap_stream_evict(struct rap_stream_set *set,
			     const struct rap_stream *s,
			     const struct rap_stream_fault *f,
			     unsigned int *did)
{
	if (!rap_stream_live(s, f->now) || rap_stream_key_eq(&s->key, &f->key))
		return;
	*did |= RAP_STREAM_DID_EVICT;
	if (!set->evicts || f->now - set->evict_start > RAP_STREAM_REAP_MS) {
		set->evicts = 0;
		set->evict_start = f->now;
	}
	if (++set->evicts < RAP_STREAM_GROW_EVICTS)
		return;
	set->evicts = 0;
	*did |= RAP_STREAM_DID_CROWDED;
}

static unsigned long rap_absdiff(pgoff_t a, pgoff_t b)
{
	return a > b ? a - b : b - a;
}

/* The stream's stride, whichever its direction: pages between touches */
static unsigned long rap_stream_step(const struct rap_stream *s)
{
	return s->delta > 0 ? s->delta : -s->delta;
}

/* How well a miss continues a stream: 0 not at all, higher is better */
enum rap_stream_match {
	RAP_MATCH_NONE,
	RAP_MATCH_NEAR,		/* near a stream of one miss: a stride to try */
	RAP_MATCH_DESCENT,	/* a run below the one a dense stream walked */
	RAP_MATCH_DENSE,	/* continues the cached pages behind it */
	RAP_MATCH_SHORT,	/* less than a stride on: the stride is shorter */
	RAP_MATCH_SKIP,		/* a few strides on */
	RAP_MATCH_JITTER,	/* beside its marker, a quarter stride at most */
	RAP_MATCH_STRIDE,	/* exactly one stride on */
};

/*
 * Whether the pages next to the fault are cached, and mapped, looked up
 * once per fault, when a stream first asks: [0] below, [1] above; -1 not
 * yet known
 */
struct rap_stream_nbr {
	const struct rap_cache_view *view;
	signed char cached[2];
	signed char mapped[2];
};

static bool rap_stream_nbr_cached(struct rap_stream_nbr *nbr,
				  const struct rap_stream_fault *f, bool above)
{
	if (nbr->cached[above] < 0)
		nbr->cached[above] = above ?
			f->index < ULONG_MAX &&
			nbr->view->has_folio(nbr->view->ctx, f->index + 1) :
			f->index > 0 &&
			nbr->view->has_folio(nbr->view->ctx, f->index - 1);
	return nbr->cached[above];
}

/*
 * Whether the page next to the fault, below or @above it, is mapped: its
 * reader touched it (fault-around maps the cached pages of the touched
 * block, filemap_map_pages()), where a window read ahead of a reader that
 * went past it is cached and unmapped
 */
static bool rap_stream_nbr_mapped(struct rap_stream_nbr *nbr,
				  const struct rap_stream_fault *f, bool above)
{
	const struct rap_cache_view *v = nbr->view;

	if (!v->mapped)
		return false;
	if (nbr->mapped[above] < 0)
		nbr->mapped[above] = above ?
			f->index < ULONG_MAX && v->mapped(v->ctx, f->index + 1) :
			f->index > 0 && v->mapped(v->ctx, f->index - 1);
	return nbr->mapped[above];
}

/*
 * A loader that copies tensors in reverse order, each one forwards with
 * memcpy(), walks runs that ascend one below the other. Its miss at the
 * start of a run lies below the run before, by no more than the largest
 * window, with every fault-around block of that run mapped (a random
 * reader leaves some unmapped). The run before: the one a forward stream
 * walked from its lowest miss to its highest, after two misses that
 * continued it (small read_ahead_kb), or the one between a stream's two
 * latest misses, one below the other, the page above the fault not cached
 * and the fault within a read-around window of the latest miss (large
 * read_ahead_kb). docs/STREAMS.md, "Detection".
 */
static bool rap_stream_descent(const struct rap_stream *s,
			       const struct rap_stream_fault *f,
			       const struct rap_cache_view *view)
{
	unsigned long fa = f->fault_around_pages ? f->fault_around_pages : 1;
	unsigned long most = f->max_pages + fa;
	pgoff_t lo, hi, p;

	if (f->kind != RAP_MAP_AROUND || !view->mapped)
		return false;
	if (s->last > s->origin && s->misses >= RAP_STREAM_CONFIRM &&
	    s->top - s->origin <= most) {
		lo = s->origin;
		hi = s->top;
	} else if (!s->dense && s->delta < 0 && s->conf >= 1 &&
		   (unsigned long)-s->delta <= most &&
		   f->index < s->last && s->last - f->index <= f->stock_pages &&
		   !view->has_folio(view->ctx, f->index + 1)) {
		lo = s->last;
		hi = s->last - s->delta;
	} else {
		return false;
	}
	if (f->index >= lo || lo - f->index > most || hi <= lo ||
	    (hi - lo) / 2 <= 2 * fa || (hi - lo - 1) / fa > RAP_STREAM_SCAN)
		return false;
	for (p = lo + fa; p < hi; p += fa)
		if (!view->mapped(view->ctx, p))
			return false;
	return true;
}

/*
 * Whether every fault-around block strictly between those of pages @a and
 * @b is @mapped (or, !@mapped, none is); true when there is none. A
 * reader that touched nothing between them leaves every block unmapped
 * (rap_stream_between()); one that walked them, every block mapped (a
 * random reader maps some, not a stride's worth in a row, as
 * rap_stream_descent() tells a run walked).
 */
static bool rap_blocks_between(const struct rap_stream_fault *f,
			       const struct rap_cache_view *view,
			       pgoff_t a, pgoff_t b, bool mapped)
{
	unsigned long fa = f->fault_around_pages ? f->fault_around_pages : 1;
	pgoff_t lo = min(a, b), hi = max(a, b), p;

	if (!view->mapped)
		return mapped;
	/* more blocks than a scan looks at: as if the reader touched them */
	if (hi / fa - lo / fa > RAP_STREAM_SCAN + 1)
		return mapped;
	for (p = (lo | (fa - 1)) + 1; p + fa <= (hi & ~(fa - 1)); p += fa)
		if (view->mapped(view->ctx, p) != mapped)
			return false;
	return true;
}

/*
 * Whether a read-around miss a stride below a backward reader's last touch
 * starts a run it walks upwards, as a B-tree's reverse scan walks the
 * leaves above a branch page: every fault-around block of the stride above
 * the last touch mapped, no end of one of the stride above the miss. A
 * strided reader maps no block between touches; one whose misses stock's
 * windows thinned out, every block below its last miss; a random one, some.
 */
static bool rap_stream_walked_up(const struct rap_stream *s,
				 const struct rap_stream_fault *f,
				 const struct rap_cache_view *view)
{
	unsigned long fa = f->fault_around_pages ? f->fault_around_pages : 1;
	pgoff_t hi = s->last + rap_stream_step(s), p;

	if (s->delta >= 0 || f->kind != RAP_MAP_AROUND || !view->mapped ||
	    hi / fa < s->last / fa + 2 || s->last / fa < f->index / fa + 2 ||
	    rap_stream_step(s) > min(f->max_pages + fa, RAP_STREAM_SCAN * fa) ||
	    !rap_blocks_between(f, view, s->last, hi, true))
		return false;
	for (p = (f->index | (fa - 1)) + 1; p + fa <= (s->last & ~(fa - 1));
	     p += fa)
		if (view->mapped(view->ctx, p) ||
		    view->mapped(view->ctx, p + fa - 1))
			return false;
	return true;
}

static enum rap_stream_match rap_stream_match(const struct rap_stream *s,
					      const struct rap_stream_fault *f,
					      struct rap_stream_nbr *nbr)
{
	unsigned long dist = rap_absdiff(f->index, s->last);
	bool up = f->index > s->last;
	bool forward = s->delta > 0;
	unsigned long fa = f->fault_around_pages ?: 1;
	unsigned long reach, step;

	if (!rap_stream_live(s, f->now) ||
	    !rap_stream_key_eq(&s->key, &f->key) || !dist)
		return RAP_MATCH_NONE;
	if (s->delta && (long)(f->index - s->last) == s->delta)
		return rap_stream_walked_up(s, f, nbr->view) ?
		       RAP_MATCH_DESCENT : RAP_MATCH_STRIDE;
	/*
	 * A confirmed stream that reads a window a touch marks the page it
	 * predicts its reader touches next; a reader whose records are not
	 * all one size lands a few pages off (jitter). A miss within a
	 * quarter stride of the marker is the stream's, if no reader walked
	 * the stride up to its last touch (a B-tree's runs, a pool's other
	 * tasks; a random reader maps some blocks of a stride, not all).
	 * Without the match it would start a stream that the cached marker
	 * beside it makes look dense. docs/STREAMS.md, "Jitter".
	 */
	step = rap_stream_step(s);
	if (s->state == RAP_STREAM_AHEAD && !s->span && !s->dense &&
	    step >= 2 * fa &&
	    rap_absdiff(f->index, s->marker) <=
	    step / RAP_STREAM_JITTER_SHARE &&
	    !rap_blocks_between(f, nbr->view, s->last,
				s->delta > 0 ? s->last - min(s->last, step) :
					       s->last + step, true))
		return RAP_MATCH_JITTER;
	if (s->conf >= RAP_STREAM_CONFIRM && s->delta && up == forward &&
	    !(dist % step) && dist / step <= RAP_STREAM_SKIP)
		return RAP_MATCH_SKIP;
	/*
	 * A stream that reads one window per touch learnt its stride from
	 * misses that stock's windows thinned out: a reader that misses
	 * between them has the shorter stride.
	 */
	if (s->conf >= RAP_STREAM_CONFIRM && !s->span && up == forward &&
	    dist < step)
		return RAP_MATCH_SHORT;
	/*
	 * A dense reader misses where the pages it came through end: the
	 * page behind the fault cached, the one ahead not, as far on as the
	 * largest window anyone read for it; a dense stream in its
	 * direction, a young one either way (a B-tree's scan jumps to the
	 * branch page of the next subtree before it resumes), a confirmed
	 * one only where its reader touched the page behind (a jittered
	 * touch lands next to the window read for it, cached, untouched).
	 */
	reach = 2 * f->stock_pages + f->max_pages;
	if ((s->dense ? up == forward :
	     s->conf < RAP_STREAM_CONFIRM || up == forward) &&
	    dist <= reach && rap_stream_nbr_cached(nbr, f, !up) &&
	    !rap_stream_nbr_cached(nbr, f, up) &&
	    (s->dense || s->conf < RAP_STREAM_CONFIRM ||
	     rap_stream_nbr_mapped(nbr, f, !up)))
		return RAP_MATCH_DENSE;
	if (rap_stream_descent(s, f, nbr->view))
		return RAP_MATCH_DESCENT;
	/*
	 * A miss that is no dense one does not take a dense stream over:
	 * it is the scan's jump elsewhere, and starts a stream of its own.
	 * Another task's miss near a young stream only borrows its
	 * distance (rap_stream_decide() forks a stream): a loader's threads
	 * walk shares a few thousand pages apart, and one thread's jump to
	 * its next tensor would restart another's stream, which then misses
	 * on and descends late or never; a pool's tasks take turns on one
	 * stride, and the fork is the stream they continue.
	 */
	if (s->conf < RAP_STREAM_CONFIRM && !s->dense &&
	    dist <= RAP_STREAM_MAX_DELTA)
		return RAP_MATCH_NEAR;
	return RAP_MATCH_NONE;
}

/*
 * How a match ranks: a miss exactly one stride on first, whoever's stream
 * it is (a pool's tasks take turns on one stream); then the faulting
 * task's own streams; then the better match. Any other match of another
 * task's stream, a jitter match included, may be a coincidence of another
 * reader's miss.
 */
static unsigned int rap_stream_rank(enum rap_stream_match m, bool own)
{
	return (m == RAP_MATCH_STRIDE) << 4 | own << 3 | m;
}

/*
 * The stream a miss continues: the best ranked match (rap_stream_rank());
 * of two equal near matches the nearer, of other equal matches the first.
 * A near match of another task's stream forks it with the distance
 * between them: a pool's task whose miss is near both another reader's
 * young stream and the young stream of the task before it forks the
 * nearer, the pool's, whose distance its later misses keep. A loader's
 * threads walk shares of one mapping side by side, and a descent reads on
 * below its own thread's share into the next one's: a thread's miss there
 * may continue the other thread's stream as well as its own. @own is set
 * if the stream is the faulting task's.
 */
static struct rap_stream *rap_stream_find(struct rap_stream_set *set,
					  const struct rap_stream_fault *f,
					  const struct rap_cache_view *view,
					  enum rap_stream_match *how,
					  bool *own)
{
	struct rap_stream_nbr nbr = { .view = view, .cached = { -1, -1 },
				      .mapped = { -1, -1 } };
	struct rap_stream *best = NULL;
	unsigned int i, rank = 0;

	*how = RAP_MATCH_NONE;
	*own = false;
	for (i = 0; i < RAP_STREAM_WAYS; i++) {
		struct rap_stream *s = &set->way[i];
		enum rap_stream_match m = rap_stream_match(s, f, &nbr);
		unsigned int r = rap_stream_rank(m, s->reader == f->reader);

		if (m && (r > rank ||
			  (r == rank && m == RAP_MATCH_NEAR &&
			   rap_absdiff(f->index, s->last) <
			   rap_absdiff(f->index, best->last)))) {
			best = s;
			rank = r;
			*how = m;
			*own = s->reader == f->reader;
		}
	}
	return best;
}

/* The stream whose marker the fault hit */
static struct rap_stream *rap_stream_marked(struct rap_stream_set *set,
					    const struct rap_stream_fault *f)
{
	unsigned int i;

	for (i = 0; i < RAP_STREAM_WAYS; i++) {
		struct rap_stream *s = &set->way[i];

		if (!rap_stream_live(s, f->now) ||
		    !rap_stream_key_eq(&s->key, &f->key))
			continue;
		if (rap_stream_is_marked(s) &&
		    f->index >> s->unit_order == s->marker >> s->unit_order)
			return s;
	}
	return NULL;
}

/*
 * Mark the folio of @p, the first page of the window the stream touches,
 * and remember it; the window must hold @p.
 */
static void rap_stream_mark(struct rap_stream *s, struct ra_policy_window *win,
			    pgoff_t p)
{
	s->marker = p;
	s->state = RAP_STREAM_AHEAD;
	win->async_size = win->start + win->size - p;
}

static void rap_stream_window(struct ra_policy_window *win, pgoff_t start,
			      pgoff_t end, unsigned int order)
{
	win->start = start;
	win->size = end - start;
	win->async_size = 0;
	win->order = order;
	win->order_once = false;
}

/* The smallest order of a folio of at least @n pages */
static unsigned int rap_order_up(unsigned long n)
{
	unsigned int order = 0;

	while ((1UL << order) < n && order < 8 * sizeof(long) - 1)
		order++;
	return order;
}

/*
 * The first page at or beyond @edge in the stream's direction (at or above
 * @edge forward, at or below it backward) that is a multiple of @step from
 * the touch @last, at least one step on. A reader whose stride divides
 * @step touches it.
 */
static bool rap_stream_touch_from(const struct rap_stream *s, pgoff_t last,
				  pgoff_t edge, unsigned long step, pgoff_t *p)
{
	unsigned long k = 1;

	if (s->delta > 0) {
		if (edge > last)
			k = DIV_ROUND_UP(edge - last, step);
		if (k > (ULONG_MAX - last) / step)
			return false;
		*p = last + k * step;
		return true;
	}
	if (edge < last)
		k = DIV_ROUND_UP(last - edge, step);
	if (k > last / step)
		return false;
	*p = last - k * step;
	return true;
}

/*
 * The kernel marks only a folio it adds: move *@p on by @step in the
 * stream's direction, a few times at most, to a page not cached yet,
 * inside [@start, @end).
 */
#define RAP_STREAM_PROBES	8

static bool rap_stream_uncached(const struct rap_stream *s,
				const struct rap_cache_view *view, pgoff_t *p,
				unsigned long step, pgoff_t start, pgoff_t end)
{
	unsigned int i;

	for (i = 0; i < RAP_STREAM_PROBES; i++) {
		if (*p < start || *p >= end)
			return false;
		if (!view->has_folio(view->ctx, *p))
			return true;
		if (s->delta > 0)
			*p += step;
		else if (*p >= step)
			*p -= step;
		else
			return false;
	}
	return false;
}

/*
 * What the file's streams took off its mmap_miss against stock
 * (rap_stream_took()). mmap_miss is the file's, not a stream's: every
 * stream of the file counts, a stream that a jittered reader started
 * afresh and the one it replaced alike. One pass over the set's ways.
 */
static unsigned long rap_stream_taken(const struct rap_stream_set *set,
				      const struct rap_stream_fault *f)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < RAP_STREAM_WAYS; i++) {
		const struct rap_stream *s = &set->way[i];

		if (rap_stream_live(s, f->now) &&
		    rap_stream_key_eq(&s->key, &f->key))
			n += s->took;
	}
	return n / RAP_STREAM_TOOK_UNIT;
}

/*
 * What the stream's windows took off the file's mmap_miss against stock
 * while its reader came @pages on: stock's count less the file's, in
 * RAP_STREAM_TOOK_UNIT parts of a miss, touch by touch. Stock counts a
 * read-around miss up (do_sync_mmap_readahead()) and a fault the page
 * cache serves down (filemap_map_pages(), do_async_mmap_readahead()): a
 * miss in ceil(half its window / step) touches, a fault a block entered
 * on the others. The tracker's reader faults on a marker every touch, or
 * once a block and once a window (a span), taking one off the file's
 * count while it is above zero. docs/STREAMS.md, "Stock's give-up, kept".
 */
static void rap_stream_took(struct rap_stream *s,
			    const struct rap_stream_fault *f,
			    unsigned long pages)
{
	const long unit = RAP_STREAM_TOOK_UNIT;
	const long most = 2 * RAP_STREAM_LOTSAMISS * RAP_STREAM_TOOK_UNIT;
	unsigned long half = f->stock_pages / 2 ?: 1;
	unsigned long fa = f->fault_around_pages ?: 1;
	unsigned long step = rap_stream_step(s) ?: 1;
	long touches, miss, block, rise, hits, n;

	touches = min_t(unsigned long, pages, most) / step;
	miss = unit / (long)DIV_ROUND_UP(half, step);
	block = step >= fa ? unit : (long)(step * unit / fa);
	rise = miss - (unit - miss) * block / unit;
	hits = s->span ? block + (long)(step * unit / (s->window ?: 1)) : unit;
	if (!s->span && !f->mmap_miss && !s->above)
		hits = 0;
	s->above = f->mmap_miss;
	n = s->took + touches * (rise + hits);
	s->took = clamp(n, 0L, most);
}

/*
 * Whether stock would have given read-around up for the file: its
 * mmap_miss as the fault finds it, plus what its streams took off it,
 * passes MMAP_LOTSAMISS. Past MMAP_LOTSAMISS on its own the kernel asks
 * no policy.
 */
static bool rap_stream_lotsamiss(const struct rap_stream_fault *f)
{
	return f->mmap_miss + f->taken > RAP_STREAM_LOTSAMISS;
}

/*
 * A read-around miss that reads nothing for a stream, with nothing cached
 * next to it, in a file stock would have given read-around up for
 * (rap_stream_lotsamiss()): the faulting page only, as stock reads then,
 * not the window of a file whose mmap_miss the tracker kept low. A miss
 * next to cached pages may be a dense reader's that is no stream yet (a
 * B-tree scan's resumption): its read-around window stays.
 */
static bool rap_stream_page_only(const struct rap_stream_fault *f,
				 const struct rap_cache_view *view,
				 struct ra_policy_window *win, unsigned int *did)
{
	if (f->kind != RAP_MAP_AROUND || f->point != RA_POLICY_SYNC_AROUND ||
	    (f->index > 0 && view->has_folio(view->ctx, f->index - 1)) ||
	    (f->index < ULONG_MAX && view->has_folio(view->ctx, f->index + 1)) ||
	    !rap_stream_lotsamiss(f))
		return false;
	rap_stream_window(win, f->index, f->index + 1, 0);
	*did |= RAP_STREAM_DID_SYNC;
	return true;
}

/*
 * Where a window [@start, @end) of the stream gets its marker: the first
 * page at or beyond @edge a multiple of the stream's step from its last
 * touch, or of half that step, a quarter..., so that a reader whose stride
 * divides the step touches it; else the folio at @edge, which any reader
 * of a stride up to the folio size touches.
 */
static pgoff_t rap_stream_marker_at(const struct rap_stream *s,
				    const struct rap_cache_view *view,
				    pgoff_t edge, pgoff_t start, pgoff_t end)
{
	unsigned long step = rap_stream_step(s);
	pgoff_t p;

	for (; step; step = step & 1 ? 0 : step / 2)
		if (rap_stream_touch_from(s, s->last, edge, step, &p) &&
		    rap_stream_uncached(s, view, &p, step, start, end))
			return p;
	p = edge;
	if (rap_stream_uncached(s, view, &p, 1UL << s->unit_order, start, end))
		return p;
	return end;
}

/*
 * A span window of s->window pages in whole folios of s->unit_order, from
 * @from on in the stream's direction, inside the VMA, marked at
 * rap_stream_marker_at(@edge): never on the folio of @from when @edge lies
 * beyond it, as for the window read on a miss, whose folio is mapped when
 * the fault retries and would never show its marker.
 */
static bool rap_stream_span(struct rap_stream *s,
			    const struct rap_stream_fault *f,
			    const struct rap_cache_view *view, pgoff_t from,
			    pgoff_t edge, struct ra_policy_window *win)
{
	unsigned long unit = 1UL << s->unit_order;
	pgoff_t start, end, p;

	if (s->delta > 0) {
		start = from & ~(unit - 1);
		if (start < f->vma_start)
			start = f->vma_start;
		end = start + s->window;
		if (end > f->vma_end || end < start)
			end = f->vma_end;
		if (end <= from)
			return false;
		s->next = end;
	} else {
		end = (from | (unit - 1)) + 1;
		if (end > f->vma_end || !end)
			end = f->vma_end;
		start = end > s->window ? end - s->window : 0;
		if (start < f->vma_start)
			start = f->vma_start;
		if (end <= start || from < start)
			return false;
		s->done = start == f->vma_start;
		s->next = start ? start - 1 : 0;
	}
	rap_stream_window(win, start, end, s->unit_order);
	p = rap_stream_marker_at(s, view, edge, start, end);
	if (p >= start && p < end)
		rap_stream_mark(s, win, p);
	else
		s->state = RAP_STREAM_IDLE;
	return true;
}

/*
 * Whether its reader touched every fault-around block between the
 * stream's last two misses (@mapped), or none (rap_blocks_between()).
 * None: the distance between them is its stride, not the reach of the
 * windows stock read around its touches, which hide a shorter stride
 * (rap_stream_match()'s "shorter"). Every one: it walked that distance.
 */
static bool rap_stream_between(const struct rap_stream *s,
			       const struct rap_stream_fault *f,
			       const struct rap_cache_view *view, bool mapped)
{
	return rap_blocks_between(f, view, f->index - s->delta, f->index,
				  mapped);
}

/*
 * Whether a strided read-around stream reads stock's window around each
 * touch ahead of its reader: while every touch is one of stock's misses
 * (a stride of half a window or more) and what the file's streams took
 * off its count stays below MMAP_LOTSAMISS, leaving the page cache as
 * stock does (the benchmark of "filemap: use high-order folios in filemap
 * sync RA", https://lore.kernel.org/all/20260415192853.3470423-3-stepanov.anatoly@huawei.com/).
 */
static bool rap_stream_around(const struct rap_stream *s,
			      const struct rap_stream_fault *f)
{
	return f->kind == RAP_MAP_AROUND &&
	       2 * rap_stream_step(s) >= f->stock_pages &&
	       f->taken + RAP_STREAM_CONFIRM < RAP_STREAM_LOTSAMISS;
}

/*
 * The window of the stream's next touch @p, read now and marked at @p:
 * stock's window at its miss there (s->before pages below @p, s->window
 * in all), or @p's page alone for read-around, which stock stops reading
 * ahead for a strided reader. Either way no more than stock reads.
 */
static bool rap_stream_replay_at(struct rap_stream *s,
				 const struct rap_stream_fault *f, pgoff_t p,
				 struct ra_policy_window *win)
{
	unsigned long unit = 1UL << s->unit_order;
	pgoff_t start, end;

	if (p < f->vma_start || p >= f->vma_end)
		return false;
	if (unit > 1)
		start = p & ~(unit - 1);
	else
		start = p > s->before ? p - s->before : 0;
	if (start < f->vma_start)
		start = f->vma_start;
	end = start + (s->window < f->max_pages ? s->window : f->max_pages);
	if (end > f->vma_end || end < start)
		end = f->vma_end;
	if (p >= end)
		return false;
	rap_stream_window(win, start, end, s->unit_order);
	rap_stream_mark(s, win, p);
	if (s->window > 1 && f->kind == RAP_MAP_AROUND &&
	    !rap_stream_around(s, f)) {
		s->before = 0;
		s->window = 1;
	}
	/* where stock would miss next: the first touch past this window */
	if (!rap_stream_touch_from(s, p, s->delta > 0 ? end : start - 1,
				   rap_stream_step(s), &s->next))
		s->next = f->vma_end;
	return true;
}

/* Whether the touch @k strides on from @p is cached (or out of the VMA) */
static bool rap_stream_cached_at(const struct rap_stream *s,
				 const struct rap_stream_fault *f,
				 const struct rap_cache_view *view, pgoff_t p,
				 unsigned long k)
{
	unsigned long step = rap_stream_step(s);
	pgoff_t q;

	if (s->delta > 0) {
		if (k > (f->vma_end - p) / step)
			return false;
		q = p + k * step;
	} else {
		if (k > (p - f->vma_start) / step)
			return false;
		q = p - k * step;
	}
	return view->has_folio(view->ctx, q);
}

/*
 * A touch that is cached already (a window of the stream before its
 * stride was corrected read it) is no miss and cannot carry the marker:
 * go on to the first touch that is not, as the reader's next miss.
 */
static bool rap_stream_replay(struct rap_stream *s,
			      const struct rap_stream_fault *f,
			      const struct rap_cache_view *view, pgoff_t p,
			      struct ra_policy_window *win)
{
	unsigned long lo = 0, hi = 1;

	/*
	 * Touches k strides on: cached for k = lo, not for k = hi; a cached
	 * run ends between them (found by doubling, then halving).
	 */
	if (view->has_folio(view->ctx, p)) {
		while (rap_stream_cached_at(s, f, view, p, hi)) {
			lo = hi;
			hi *= 2;
			if (hi > f->vma_end - f->vma_start) {
				s->state = RAP_STREAM_IDLE;
				return false;
			}
		}
		while (hi - lo > 1) {
			unsigned long mid = lo + (hi - lo) / 2;

			if (rap_stream_cached_at(s, f, view, p, mid))
				lo = mid;
			else
				hi = mid;
		}
		p += hi * s->delta;
	}
	return rap_stream_replay_at(s, f, p, win);
}

/*
 * A stream's largest window: the kernel's largest read, in its folios. A
 * backward span on a mapping without VM_HUGEPAGE stops at
 * RAP_STREAM_BACK_WINDOWS of stock's windows (256 pages at read_ahead_kb
 * 128): a reverse scan that ends above the file's start (a B-tree
 * index's, the table below it) reads below its last page two such
 * windows at most, where two of max_pages (1024 pages each at 128) read
 * up to 2048 pages no reader touched. A descent's reader jumps down a
 * record and walks up through it: its windows keep max_pages, to hold a
 * record.
 */
static unsigned long rap_stream_max(const struct rap_stream *s,
				    const struct rap_stream_fault *f)
{
	unsigned long most = f->max_pages;

	if (s->delta < 0 && !s->descent && f->kind != RAP_MAP_THP &&
	    f->stock_pages)
		most = min(most, RAP_STREAM_BACK_WINDOWS * f->stock_pages);
	return most & ~((1UL << s->unit_order) - 1);
}

/*
 * A forward stream's miss reads what stock reads there: read-around's or
 * VM_HUGEPAGE's window; the stream follows its marker and stock's next
 * ones, and reads on itself only from the next miss once stock lost the
 * stream at a marker (another reader's window is the file's).
 */
static bool rap_stream_adopt(struct rap_stream *s,
			     const struct rap_stream_fault *f,
			     const struct ra_policy_window *win)
{
	pgoff_t mark;

	if (f->point == RA_POLICY_SYNC_SEQ || !win->async_size ||
	    win->async_size > win->size)
		return false;
	mark = win->start + win->size - win->async_size;
	if (mark >> win->order <= f->index >> win->order)
		return false;
	s->unit_order = win->order;
	s->marker = mark;
	s->state = RAP_STREAM_FOLLOW;
	s->next = win->start + win->size;
	s->window = win->size;
	return true;
}

/* Fault-around blocks above a backward miss that rap_stream_above() probes */
#define RAP_STREAM_ABOVE	4

/*
 * Whether a backward reader touched nothing right above its miss: nothing
 * is cached in the two fault-around blocks above the fault, or nothing is
 * mapped in the RAP_STREAM_ABOVE blocks above it (one page a block apart).
 * A reader of a stride of two blocks or less touched one of any two
 * blocks in a row above its miss; a walker's pages there may be cached
 * by read-around's window of its miss before, and not touched.
 */
static bool rap_stream_above(const struct rap_stream_fault *f,
			     const struct rap_cache_view *view,
			     unsigned long fa)
{
	unsigned int k;

	if (!view->has_range(view->ctx, f->index + 1, f->index + 2 * fa))
		return true;
	if (f->index + 1 + RAP_STREAM_ABOVE * fa < f->index)
		return false;
	for (k = 0; k < RAP_STREAM_ABOVE; k++)
		if (view->mapped(view->ctx, f->index + 1 + k * fa))
			return false;
	return true;
}

/*
 * Whether a backward reader walked the pages between its last two misses
 * and then jumped below them: three fault-around blocks in a row halfway
 * between them mapped, and nothing touched right above the fault
 * (rap_stream_above()): a B-tree's reverse scan at a large read_ahead_kb,
 * missing at the branch pages below read-around's windows.
 */
static bool rap_stream_walked(const struct rap_stream *s,
			      const struct rap_stream_fault *f,
			      const struct rap_cache_view *view)
{
	unsigned long fa = f->fault_around_pages ? f->fault_around_pages : 1;
	unsigned long step = -s->delta;
	pgoff_t mid = f->index + step / 2;

	if (!view->mapped || s->delta >= 0 || step / 2 <= 2 * fa ||
	    mid + fa < f->index)
		return false;
	return rap_stream_above(f, view, fa) &&
	       view->mapped(view->ctx, mid - fa) &&
	       view->mapped(view->ctx, mid) &&
	       view->mapped(view->ctx, mid + fa);
}

/*
 * A miss that continues a confirmed stream. A dense reader, one of a step
 * of one page, or (VM_SEQ_READ) one of a step of at most stock's window
 * gets the span from the fault on (in folios of a fault-around block if
 * dense, else as large as the step); the first window is twice stock's,
 * or two steps where its reader walked the last one (every fault-around
 * block between its last two misses mapped; random misses continuing
 * cached ranges walk none). Any other reader gets stock's window at its
 * next touch: read-around and VM_HUGEPAGE read the faulting page only
 * after MMAP_LOTSAMISS misses, and a forward span stops there too.
 */
static bool rap_stream_sync(struct rap_stream *s,
			    const struct rap_stream_fault *f,
			    const struct rap_cache_view *view, bool again,
			    struct ra_policy_window *win, unsigned int *did)
{
	unsigned long step = rap_stream_step(s);
	pgoff_t p, from, stock_end;
	unsigned int order;

	s->done = false;
	s->descent = false;
	if (f->kind == RAP_MAP_AROUND && s->delta < 0 && !s->dense)
		s->dense = rap_stream_walked(s, f, view);
	if (f->kind == RAP_MAP_SEQ && again)
		s->span = s->span || step == 1;	/* stock's windows stay */
	else
		s->span = s->dense || step == 1 ||
			  (f->kind == RAP_MAP_SEQ && step <= f->stock_pages);
	if (!s->span) {
		s->unit_order = 0;
		if (!again) {
			s->before = f->index - f->stock_start;
			s->window = f->stock_pages;
		}
		if (f->kind != RAP_MAP_SEQ &&
		    !(rap_stream_around(s, f) &&
		      rap_stream_between(s, f, view, false))) {
			s->before = 0;
			s->window = 1;
		}
		if (s->delta < 0 && s->last < step)
			return false;
		p = s->last + s->delta;
		if (p >> s->unit_order == f->index >> s->unit_order ||
		    !rap_stream_replay(s, f, view, p, win))
			return false;
		*did |= RAP_STREAM_DID_SYNC | RAP_STREAM_DID_STRIDE;
		return true;
	}
	if (s->delta > 0 && !s->lost && rap_stream_adopt(s, f, win))
		return false;
	if (s->delta > 0 && f->kind == RAP_MAP_AROUND && rap_stream_lotsamiss(f))
		return rap_stream_page_only(f, view, win, did);
	order = f->kind == RAP_MAP_THP ? f->thp_order :
		min(rap_order_up(s->dense ? f->fault_around_pages : step),
		    f->max_order);
	s->unit_order = order;
	if (step > f->stock_pages && !rap_stream_between(s, f, view, true))
		step = 0;
	s->window = max(2 * max(f->stock_pages, step), 2UL << order);
	s->window = min(s->window, rap_stream_max(s, f));
	if (!s->window)
		return false;
	/*
	 * A backward reader that jumped below the pages it came through (a
	 * B-tree's scan visits the branch page below the leaves it covers,
	 * then walks them down) may come back above the fault: read up to
	 * the pages it came through, as read-around would, not only from
	 * the fault down.
	 */
	stock_end = f->stock_start + f->stock_pages;
	from = f->index;
	if (s->delta < 0 && f->kind == RAP_MAP_AROUND &&
	    stock_end > f->index + 1 && stock_end <= f->vma_end &&
	    !view->has_folio(view->ctx, f->index + 1) &&
	    f->index >= ((stock_end - 1) | ((1UL << order) - 1)) + 1 -
			 s->window)
		from = stock_end - 1;
	/* marked beyond the faulting folio, in the stream's direction */
	p = s->delta > 0 ? (f->index | ((1UL << order) - 1)) + 1 :
			   (f->index & ~((1UL << order) - 1)) - 1;
	if (!rap_stream_span(s, f, view, from, p, win))
		return false;
	*did |= RAP_STREAM_DID_SYNC;
	return true;
}

/*
 * A descent (rap_stream_descent()): its reader walks up from the fault to
 * the run it walked before, then the runs below, each upwards. Read one
 * largest window from the fault's folio up, marked on the first folio
 * above it not cached; or, where nothing above the fault is left to read,
 * the window that ends with the fault's folio, marked on the folio below.
 * Then down in windows marked at their top folio (rap_stream_async()).
 */
static bool rap_stream_descend(struct rap_stream *s,
			       const struct rap_stream_fault *f,
			       const struct rap_cache_view *view,
			       struct ra_policy_window *win, unsigned int *did)
{
	unsigned int order = min(rap_order_up(f->fault_around_pages),
				 f->max_order);
	unsigned long unit = 1UL << order;
	pgoff_t start, end, p;
	unsigned int i;

	s->dense = true;
	s->span = true;
	s->descent = true;
	s->conf = RAP_STREAM_CONFIRM;
	s->state = RAP_STREAM_IDLE;
	s->delta = -1;
	s->last = f->index;
	s->unit_order = order;
	s->window = rap_stream_max(s, f);
	start = f->index & ~(unit - 1);
	if (start < f->vma_start)
		start = f->vma_start;
	end = start + s->window;
	if (end > f->vma_end || end < start)
		end = f->vma_end;
	if (!s->window || end <= f->index)
		return false;
	p = (f->index | (unit - 1)) + 1;
	for (i = 0; i < RAP_STREAM_PROBES && p < end; i++, p += unit)
		if (!view->has_folio(view->ctx, p))
			break;
	if (p < end && i < RAP_STREAM_PROBES) {
		rap_stream_window(win, start, end, order);
		rap_stream_mark(s, win, p);
	} else {
		end = (f->index | (unit - 1)) + 1;
		if (end > f->vma_end || !end)
			end = f->vma_end;
		start = end > s->window ? end - s->window : 0;
		if (start < f->vma_start)
			start = f->vma_start;
		rap_stream_window(win, start, end, order);
		p = f->index & ~(unit - 1);
		if (p > start && !view->has_folio(view->ctx, p - 1))
			rap_stream_mark(s, win, p - 1);
	}
	s->done = start == f->vma_start;
	s->next = start ? start - 1 : 0;
	*did |= RAP_STREAM_DID_SYNC;
	return true;
}

/* The stream's marker was hit: read its next window */
static bool rap_stream_async(struct rap_stream *s,
			     const struct rap_stream_fault *f,
			     const struct rap_cache_view *view,
			     struct ra_policy_window *win, unsigned int *did)
{
	pgoff_t from = s->next;
	unsigned int i;

	s->last = s->marker;
	if (s->state == RAP_STREAM_FOLLOW) {
		if (!f->stock_seq) {
			/*
			 * stock lost the stream; its context readahead may
			 * find it again, or the next miss is the stream's
			 */
			s->state = RAP_STREAM_IDLE;
			s->lost = true;
			return false;
		}
		/* stock reads on, marking the start of its next window */
		s->marker = f->stock_next;
		s->next = f->stock_next;
		return false;
	}
	s->state = RAP_STREAM_IDLE;
	/*
	 * its reader came through its last window; a forward span's reader
	 * touches stock's marker too, which reads on without a miss
	 */
	if (!s->span || s->delta < 0)
		rap_stream_took(s, f, s->span ? s->window : rap_stream_step(s));
	if (!s->span) {
		if (!rap_stream_replay(s, f, view, from, win))
			return false;
		*did |= RAP_STREAM_DID_ASYNC | RAP_STREAM_DID_STRIDE;
		return true;
	}
	if (s->done || (s->delta > 0 && f->kind == RAP_MAP_AROUND &&
			rap_stream_lotsamiss(f)))
		return false;
	s->window = min(2 * s->window, rap_stream_max(s, f));
	/*
	 * A window that another one already read (stock's, or the stream's
	 * before its stride was corrected) cannot carry the marker: the next
	 * one on can.
	 */
	for (i = 0; i < RAP_STREAM_PROBES; i++) {
		if (!s->window || !rap_stream_span(s, f, view, from, from, win))
			return false;
		if (rap_stream_is_marked(s) || s->done)
			break;
		from = s->next;
	}
	*did |= RAP_STREAM_DID_ASYNC;
	return true;
}

/**
 * rap_stream_wants - whether a fault can concern the tracker
 * @f: the fault
 *
 * VM_EXEC faults, mappings of no readahead kind, faults outside the VMA
 * and faults offered no window are never the tracker's: they are filtered
 * out before the set is locked.
 *
 * Return: false if rap_stream_decide() would leave @f alone.
 */
bool rap_stream_wants(const struct rap_stream_fault *f)
{
	return f->kind != RAP_MAP_OTHER && f->point != RA_POLICY_SYNC_EXEC &&
	       f->index >= f->vma_start && f->index < f->vma_end &&
	       f->stock_pages && f->max_pages;
}

/**
 * rap_stream_flush - drop every stream of a set
 * @set: the set, locked by the caller
 */
void rap_stream_flush(struct rap_stream_set *set)
{
	unsigned int i;

	for (i = 0; i < RAP_STREAM_WAYS; i++)
		set->way[i].state = RAP_STREAM_FREE;
	/* a decision on a copy of the set taken before is stale */
	set->clock++;
}

/**
 * rap_stream_decide - run one fault through a file's stream set
 * @set: the set of the file, locked by the caller
 * @fault: the fault
 * @view: the page cache
 * @win: out, if true is returned: the window to read
 * @did: out: RAP_STREAM_DID_* bits
 *
 * Misses (the synchronous points) start or continue streams; a hit of a
 * marker the tracker set reads the stream's next window. VM_EXEC faults
 * and markers the tracker did not set are left alone.
 *
 * Return: true if @win replaces the kernel's window.
 */
bool rap_stream_decide(struct rap_stream_set *set,
		       const struct rap_stream_fault *fault,
		       const struct rap_cache_view *view,
		       struct ra_policy_window *win, unsigned int *did)
{
	struct rap_stream_fault fc = *fault, *f = &fc;
	enum rap_stream_match how;
	struct rap_stream *s, *base;
	bool again, own;

	*did = 0;
	if (!rap_stream_wants(f))
		return false;
	if (f->point == RA_POLICY_ASYNC) {
		s = rap_stream_marked(set, f);
		if (!s)
			return false;
		f->taken = rap_stream_taken(set, f);
		rap_stream_touch(set, s, f);
		return rap_stream_async(s, f, view, win, did);
	}

	base = rap_stream_find(set, f, view, &how, &own);
	/* before a victim is evicted: its windows count until it goes */
	f->taken = rap_stream_taken(set, f);
	if (!base || (how == RAP_MATCH_NEAR && !own)) {
		/*
		 * A new stream; near another task's young stream, a fork
		 * of it that tries its distance, and leaves it to its task
		 * (unless its way, of the least claim, is the fork's)
		 */
		long delta = base ? (long)(f->index - base->last) : 0;
		unsigned int took;

		if (base)
			base->age = ++set->clock;
		s = rap_stream_victim(set, f->now);
		/* the file's give-up count outlives the stream that took it */
		took = rap_stream_live(s, f->now) &&
		       rap_stream_key_eq(&s->key, &f->key) ? s->took : 0;
		rap_stream_evict(set, s, f, did);
		/* a fork's distance to try, borrowed: no confidence yet */
		*s = (struct rap_stream){ .key = f->key, .last = f->index,
					  .origin = f->index, .top = f->index,
					  .delta = delta, .misses = delta ? 2 : 1,
					  .took = took, .state = RAP_STREAM_IDLE };
		rap_stream_touch(set, s, f);
		*did |= RAP_STREAM_DID_NEW;
		return rap_stream_page_only(f, view, win, did);
	}
	s = base;
	rap_stream_touch(set, s, f);
	if (how == RAP_MATCH_DESCENT)
		return rap_stream_descend(s, f, view, win, did);
	if (f->index > s->top)
		s->top = f->index;
	/* a stream that read ahead before keeps its way of reading */
	again = s->conf >= RAP_STREAM_CONFIRM && s->window &&
		(how == RAP_MATCH_SHORT || how == RAP_MATCH_SKIP);
	if (s->misses < RAP_STREAM_CONFIRM)
		s->misses++;
	switch (how) {
	case RAP_MATCH_NEAR:
		s->conf = 1;
		s->dense = false;
		/* a run walked upwards begins at its lowest miss */
		if (f->index < s->origin)
			s->origin = f->index;
		break;
	case RAP_MATCH_DENSE:
		/*
		 * Random misses in a file that stock's windows have filled
		 * with cached ranges continue a dense stream now and then:
		 * it needs RAP_STREAM_CONFIRM such misses in a row.
		 */
		s->conf = s->dense || s->conf >= RAP_STREAM_CONFIRM ?
			  s->conf + 1 : 1;
		s->dense = true;
		break;
	default:
		s->conf++;
		s->dense = false;
		break;
	}
	/*
	 * A miss a few strides on: its last window served the touches it
	 * holds (a pool's other tasks' windows, or stock's, the rest)
	 */
	if (how == RAP_MATCH_SKIP && !s->span)
		rap_stream_took(s, f, min(rap_absdiff(f->index, s->last) -
					  rap_stream_step(s),
					  max(s->window, rap_stream_step(s))));
	if (how == RAP_MATCH_JITTER) {
		/*
		 * the place of the touch: halfway from the marker to the
		 * miss (rounded towards the marker), so that it follows where
		 * its reader's touches land, and one a page off leaves it
		 */
		s->last = s->marker + (long)(f->index - s->marker) / 2;
	} else {
		if (how != RAP_MATCH_SKIP)
			s->delta = (long)(f->index - s->last);
		s->last = f->index;
	}
	s->conf = min(s->conf, RAP_STREAM_CONFIRM);
	s->state = RAP_STREAM_IDLE;
	if (s->conf < RAP_STREAM_CONFIRM)
		return rap_stream_page_only(f, view, win, did);
	/*
	 * Where stock's window holds two touches or more, it serves a
	 * jittered reader's touches wherever they land near their places,
	 * and the stream's window of one page a touch would miss each one
	 * off its place: the jittered miss reads stock's window.
	 */
	if (how == RAP_MATCH_JITTER &&
	    2 * rap_stream_step(s) <= f->stock_pages)
		return false;
	return rap_stream_sync(s, f, view, again, win, did);
}

/* The clock of rap_stream_fault.now, in ms, from a local_clock() read */
static u32 rap_stream_ms(u64 ns)
{
	return (u32)div_u64(ns, NSEC_PER_MSEC);
}

/**
 * rap_stream_now - the clock of rap_stream_fault.now
 *
 * Return: local_clock() in ms, as a u32 that wraps.
 */
u32 rap_stream_now(void)
{
	return rap_stream_ms(local_clock());
}

/* Bytes of an arm's table of 1 << @order sets */
size_t rap_stream_sets_bytes(unsigned int order)
{
	struct rap_stream_sets *sets = NULL;

	return struct_size(sets, slot, 1UL << order);
}

/* A table of 1 << @order empty sets, or NULL */
static struct rap_stream_sets *rap_stream_sets_alloc(unsigned int order)
{
	struct rap_stream_sets *sets;
	unsigned long i;

	sets = kvzalloc(rap_stream_sets_bytes(order), GFP_KERNEL);
	if (!sets)
		return NULL;
	sets->order = order;
	for (i = 0; i < 1UL << order; i++)
		spin_lock_init(&sets->slot[i].lock);
	return sets;
}

/**
 * rap_stream_table_init - allocate each arm's sets
 * @table: the table, zeroed
 * @max_order: the bound of each arm, log2 of its sets
 *
 * Each arm starts with RAP_STREAM_SETS sets.
 *
 * Return: 0, or -ENOMEM (and nothing allocated).
 */
int rap_stream_table_init(struct rap_stream_table *table,
			  unsigned int max_order)
{
	unsigned int arm;

	for (arm = 0; arm < RAP_STREAM_ARMS; arm++) {
		struct rap_stream_sets *sets;

		sets = rap_stream_sets_alloc(ilog2(RAP_STREAM_SETS));
		if (!sets) {
			rap_stream_table_free(table);
			return -ENOMEM;
		}
		RCU_INIT_POINTER(table->sets[arm], sets);
		table->max_order[arm] = max_order;
		/* no set asked within RAP_STREAM_REAP_MS */
		table->asked[arm] = rap_stream_now() - RAP_STREAM_REAP_MS - 1;
	}
	return 0;
}

/**
 * rap_stream_table_free - free each arm's sets
 * @table: the table; no fault, resize or flush may use it any more
 */
void rap_stream_table_free(struct rap_stream_table *table)
{
	unsigned int arm;

	for (arm = 0; arm < RAP_STREAM_ARMS; arm++) {
		kvfree(rcu_dereference_protected(table->sets[arm], true));
		RCU_INIT_POINTER(table->sets[arm], NULL);
	}
}

/**
 * rap_stream_table_bytes - the size of an arm's table
 * @table: the table
 * @arm: the A/B arm
 *
 * Return: the bytes of the arm's sets as allocated (struct_size()).
 */
size_t rap_stream_table_bytes(struct rap_stream_table *table,
			      unsigned int arm)
{
	size_t bytes;

	rcu_read_lock();
	bytes = rap_stream_sets_bytes(rcu_dereference(table->sets[arm])->order);
	rcu_read_unlock();
	return bytes;
}

/* The slot of @key in @sets */
static struct rap_stream_slot *rap_stream_sets_slot(struct rap_stream_sets *sets,
						    const struct rap_stream_key *key)
{
	return &sets->slot[rap_stream_hash(key) & ((1U << sets->order) - 1)];
}

/**
 * rap_stream_slot - the set of a file in an arm's table
 * @table: the table
 * @arm: the A/B arm
 * @key: the file
 *
 * Each arm has sets of its own: an arm's faults never find, match, age or
 * evict the other arm's streams. Call under rcu_read_lock(), or where no
 * resize can run; the slot is good until rcu_read_unlock() or the next
 * resize.
 *
 * Return: the slot (set and lock) of @key in @arm.
 */
struct rap_stream_slot *rap_stream_slot(struct rap_stream_table *table,
					unsigned int arm,
					const struct rap_stream_key *key)
{
	return rap_stream_sets_slot(rcu_dereference(table->sets[arm]), key);
}

/**
 * rap_stream_table_flush - drop every stream of an arm
 * @table: the table
 * @arm: the A/B arm
 *
 * The caller serialises it with the arm's resizes.
 */
void rap_stream_table_flush(struct rap_stream_table *table, unsigned int arm)
{
	struct rap_stream_sets *sets;
	unsigned long i;

	rcu_read_lock();
	sets = rcu_dereference(table->sets[arm]);
	for (i = 0; i < 1UL << sets->order; i++) {
		struct rap_stream_slot *slot = &sets->slot[i];

		spin_lock(&slot->lock);
		rap_stream_flush(&slot->set);
		spin_unlock(&slot->lock);
	}
	rcu_read_unlock();
}

/*
 * Move the live streams of @from into the sets of @to that their files
 * hash to, each into a free way while there is one: a stream keeps its
 * distance from its set's clock. Growing, each set of @to takes streams
 * of one set of @from only, so every live stream moves; shrinking, a set
 * of @to takes those of several, the lower sets' first, and drops what
 * does not fit. @from's set is left as it was, marked moved.
 */
static void rap_stream_move(struct rap_stream_sets *to,
			    struct rap_stream_slot *from, u32 now)
{
	unsigned int i, j;

	spin_lock(&from->lock);
	for (i = 0; i < RAP_STREAM_WAYS; i++) {
		const struct rap_stream *s = &from->set.way[i];
		struct rap_stream_set *set;
		bool empty = true;

		if (!rap_stream_live(s, now))
			continue;
		set = &rap_stream_sets_slot(to, &s->key)->set;
		for (j = 0; j < RAP_STREAM_WAYS; j++)
			empty &= set->way[j].state == RAP_STREAM_FREE;
		if (empty)
			set->clock = from->set.clock;
		for (j = 0; j < RAP_STREAM_WAYS; j++) {
			if (set->way[j].state != RAP_STREAM_FREE)
				continue;
			set->way[j] = *s;
			set->way[j].age = set->clock -
					  (from->set.clock - s->age);
			break;
		}
	}
	from->moved = true;
	spin_unlock(&from->lock);
}

/* rap_stream_table_resize(), the streams live at @now (ms) moved */
static int rap_stream_table_resize_at(struct rap_stream_table *table,
				      unsigned int arm, unsigned int order,
				      u32 now)
{
	struct rap_stream_sets *old, *sets;
	unsigned long i;

	old = rcu_dereference_protected(table->sets[arm], true);
	if (order == old->order)
		return 0;
	sets = rap_stream_sets_alloc(order);
	if (!sets)
		return -ENOMEM;
	for (i = 0; i < 1UL << old->order; i++)
		rap_stream_move(sets, &old->slot[i], now);
	rcu_assign_pointer(table->sets[arm], sets);
	synchronize_rcu();
	kvfree(old);
	return 0;
}

/**
 * rap_stream_table_resize - give an arm a table of 1 << @order sets
 * @table: the table
 * @arm: the A/B arm
 * @order: log2 of the sets, from ilog2(RAP_STREAM_SETS) to
 *	ilog2(RAP_STREAM_SETS_MAX)
 *
 * Allocates the new sets, moves the live streams over set by set
 * (rap_stream_move(): all of them when growing), publishes the new table
 * and frees the old one after an RCU grace period. A fault meanwhile on a
 * set already moved leaves its decision to stock; one whose copy of a set
 * was taken before the move takes it again from the new table. May sleep;
 * the caller serialises the resizes and flushes of an arm.
 *
 * Return: 0, or -ENOMEM with the old table kept.
 */
int rap_stream_table_resize(struct rap_stream_table *table, unsigned int arm,
			    unsigned int order)
{
	return rap_stream_table_resize_at(table, arm, order, rap_stream_now());
}

/**
 * rap_stream_table_grow - double an arm's sets, within its bound
 * @table: the table
 * @arm: the A/B arm
 *
 * For a set that asked for it (RAP_STREAM_DID_CROWDED). May sleep; the
 * caller serialises it as rap_stream_table_resize().
 *
 * Return: 1 if the table grew, 0 at the bound, or -ENOMEM.
 */
int rap_stream_table_grow(struct rap_stream_table *table, unsigned int arm)
{
	unsigned int order;
	int err;

	order = rcu_dereference_protected(table->sets[arm], true)->order;
	if (order >= READ_ONCE(table->max_order[arm]))
		return 0;
	err = rap_stream_table_resize(table, arm, order + 1);
	return err ? err : 1;
}

/**
 * rap_stream_table_shrink - halve an arm's sets if its live streams allow
 * @table: the table
 * @arm: the A/B arm
 * @now: the time, ms (rap_stream_now())
 *
 * The converse of rap_stream_table_grow(), with a margin so that the two
 * do not take turns: a table above RAP_STREAM_SETS sets halves if no set
 * asked for more sets (RAP_STREAM_DID_CROWDED, at the bound too) within
 * RAP_STREAM_REAP_MS of @now and its streams live at @now (touched within
 * RAP_STREAM_REAP_MS) would take under one in RAP_STREAM_SHRINK_SHARE
 * of the ways of the halved table: fewer than one in two sets of the
 * table now. The halved table keeps the live streams that fit
 * (rap_stream_table_resize()). Counting takes each set's lock in turn and
 * stops at that share. May sleep; the caller serialises it as
 * rap_stream_table_resize().
 *
 * Return: 1 if the table halved, 0 if not, or -ENOMEM.
 */
int rap_stream_table_shrink(struct rap_stream_table *table, unsigned int arm,
			    u32 now)
{
	struct rap_stream_sets *sets;
	unsigned long i, live = 0, room;
	unsigned int w;
	int err;

	sets = rcu_dereference_protected(table->sets[arm], true);
	if (sets->order <= ilog2(RAP_STREAM_SETS))
		return 0;
	if (rap_stream_recent(READ_ONCE(table->asked[arm]), now))
		return 0;
	room = (RAP_STREAM_WAYS << (sets->order - 1)) / RAP_STREAM_SHRINK_SHARE;
	for (i = 0; i < 1UL << sets->order && live < room; i++) {
		struct rap_stream_slot *slot = &sets->slot[i];

		spin_lock(&slot->lock);
		for (w = 0; w < RAP_STREAM_WAYS; w++)
			live += rap_stream_live(&slot->set.way[w], now);
		spin_unlock(&slot->lock);
	}
	if (live >= room)
		return 0;
	err = rap_stream_table_resize_at(table, arm, sets->order - 1, now);
	return err ? err : 1;
}

/**
 * rap_stream_table_grown - whether an arm's table is above its load size
 * @table: the table
 * @arm: the A/B arm
 *
 * The caller serialises it as rap_stream_table_resize().
 *
 * Return: true if the arm has more than RAP_STREAM_SETS sets.
 */
bool rap_stream_table_grown(struct rap_stream_table *table, unsigned int arm)
{
	return rcu_dereference_protected(table->sets[arm], true)->order >
	       ilog2(RAP_STREAM_SETS);
}

/**
 * rap_stream_table_bound - set an arm's bound, and shrink to it
 * @table: the table
 * @arm: the A/B arm
 * @max_order: log2 of the sets the arm may grow to
 *
 * A table larger than the bound shrinks to it now. May sleep; the caller
 * serialises it as rap_stream_table_resize().
 *
 * Return: 0, or -ENOMEM with the table and the bound as they were.
 */
int rap_stream_table_bound(struct rap_stream_table *table, unsigned int arm,
			   unsigned int max_order)
{
	unsigned int order;
	int err;

	order = rcu_dereference_protected(table->sets[arm], true)->order;
	if (order > max_order) {
		err = rap_stream_table_resize(table, arm, max_order);
		if (err)
			return err;
	}
	WRITE_ONCE(table->max_order[arm], max_order);
	return 0;
}

/* Attempts of a decision on a copy of its set; then stock decides */
#define RAP_STREAM_ATTEMPTS	2

/*
 * The page cache as a fault's decisions see it through rap_stream_run():
 * RAP_STREAM_LOOKUPS lookups, then none; a decision that asked for more
 * is dropped with its copy of the set
 */
struct rap_stream_budget {
	struct rap_cache_view view;
	const struct rap_cache_view *inner;
	unsigned int left;
	bool spent;		/* a lookup was refused */
};

/* Take @n lookups from the budget at @ctx: false once it is spent */
static bool rap_stream_take(const void *ctx, unsigned long n)
{
	struct rap_stream_budget *b = (struct rap_stream_budget *)ctx;

	if (n > b->left) {
		b->left = 0;
		b->spent = true;
		return false;
	}
	b->left -= n;
	return true;
}

static bool rap_stream_budget_has_folio(const void *ctx, pgoff_t index)
{
	const struct rap_stream_budget *b = ctx;

	return rap_stream_take(ctx, 1) &&
	       b->inner->has_folio(b->inner->ctx, index);
}

/* a range costs its pages: a walk may visit an entry for each */
static bool rap_stream_budget_has_range(const void *ctx, pgoff_t first,
					pgoff_t last)
{
	const struct rap_stream_budget *b = ctx;

	return rap_stream_take(ctx, last - first + 1) &&
	       b->inner->has_range(b->inner->ctx, first, last);
}

static bool rap_stream_budget_mapped(const void *ctx, pgoff_t index)
{
	const struct rap_stream_budget *b = ctx;

	return rap_stream_take(ctx, 1) && b->inner->mapped(b->inner->ctx, index);
}

/**
 * rap_stream_run - one fault through an arm's table
 * @table: the table
 * @arm: the A/B arm
 * @f: the fault; rap_stream_run() sets @f->now
 * @view: the page cache
 * @snap: a set the caller owns until the return, for the copy
 * @win: in: the kernel's window; out, if true is returned: the window to read
 * @did: out: RAP_STREAM_DID_* bits; RAP_STREAM_DID_CROWDED only while the
 *	arm's table is below its bound (the caller then grows it)
 * @timed: whether to time the decision
 * @cost: out: the decision's nanoseconds if @timed, else 0
 *
 * The filter first: a fault it drops takes no lock and reads no clock.
 * Then one local_clock() read, the time for aging and the start of a
 * timed decision, and a second one at the end of a timed decision only.
 * The decision and its page-cache lookups run on a copy of the set taken
 * under its lock (@snap); under the lock again, the copy replaces the set
 * if the set did not change meanwhile (every change ticks its clock), else
 * the decision is taken again from a new copy, RAP_STREAM_ATTEMPTS times
 * at most, then left to stock. So no page-cache lookup happens under the
 * set's lock: it covers two copies of the set. The attempts together make
 * RAP_STREAM_LOOKUPS page-cache lookups at most: a decision that asks for
 * one more is dropped, the fault left to stock and the set unchanged
 * (RAP_STREAM_DID_BOUND). Each attempt finds the
 * arm's table under rcu_read_lock(); a set a resize moved is stale: the
 * fault is left to stock, or decided again in the new table. A set that
 * asks for more sets notes the time in the table, at the bound too, for
 * rap_stream_table_shrink().
 *
 * Return: true if @win replaces the kernel's window.
 */
bool rap_stream_run(struct rap_stream_table *table, unsigned int arm,
		    struct rap_stream_fault *f,
		    const struct rap_cache_view *view,
		    struct rap_stream_set *snap,
		    struct ra_policy_window *win, unsigned int *did,
		    bool timed, u64 *cost)
{
	struct rap_stream_budget budget = {
		.view = {
			.ctx = &budget,
			.has_folio = rap_stream_budget_has_folio,
			.has_range = rap_stream_budget_has_range,
			.mapped = view->mapped ? rap_stream_budget_mapped : NULL,
		},
		.inner = view,
		.left = RAP_STREAM_LOOKUPS,
	};
	struct ra_policy_window in = *win;
	struct rap_stream_sets *sets = NULL;
	struct rap_stream_slot *slot;
	unsigned int attempt;
	bool replaced = false;
	u32 clock;
	u64 t0;

	*did = 0;
	*cost = 0;
	if (!rap_stream_wants(f))
		return false;
	t0 = local_clock();
	f->now = rap_stream_ms(t0);
	rcu_read_lock();
	for (attempt = 0; attempt < RAP_STREAM_ATTEMPTS; attempt++) {
		bool stale;

		sets = rcu_dereference(table->sets[arm]);
		slot = rap_stream_sets_slot(sets, &f->key);
		spin_lock(&slot->lock);
		stale = slot->moved;
		if (!stale)
			*snap = slot->set;
		spin_unlock(&slot->lock);
		if (stale)
			break;		/* a resize is under way: stock */
		clock = snap->clock;
		*win = in;
		replaced = rap_stream_decide(snap, f, &budget.view, win, did);
		if (budget.spent) {
			/* it asked for more: stock, the set unchanged */
			replaced = false;
			*did = RAP_STREAM_DID_BOUND;
			break;
		}
		if (snap->clock == clock)
			break;		/* the set is as it was */
		spin_lock(&slot->lock);
		stale = slot->moved || slot->set.clock != clock;
		if (!stale)
			slot->set = *snap;
		spin_unlock(&slot->lock);
		if (!stale)
			break;
		replaced = false;
		*did = 0;
	}
	if (*did & RAP_STREAM_DID_CROWDED) {
		/* for rap_stream_table_shrink(); no store if it has this ms */
		if (READ_ONCE(table->asked[arm]) != f->now)
			WRITE_ONCE(table->asked[arm], f->now);
		if (sets->order >= READ_ONCE(table->max_order[arm]))
			*did &= ~RAP_STREAM_DID_CROWDED;
	}
	rcu_read_unlock();
	if (timed)
		*cost = local_clock() - t0;
	return replaced;
}
