// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: random_miss as pure decisions (see random.h, docs/RANDOM.md).
 * Builds in the kernel and on the host.
 */
#include "random.h"

static bool rap_random_same(const struct rap_random_key *a,
			    const struct rap_random_key *b)
{
	return a->file == b->file && a->inode == b->inode &&
	       a->mm == b->mm && a->start == b->start &&
	       a->reader == b->reader;
}

/*
 * The state of the open file @key, or with @create a fresh one in place of
 * an unused way or else the least recently used one; NULL if none. A file
 * whose state was replaced starts over as stock does: no evidence yet.
 */
struct rap_random *rap_random_find(struct rap_random_set *set,
				   const struct rap_random_key *key,
				   bool create)
{
	struct rap_random *victim = NULL;
	unsigned int i;

	for (i = 0; i < RAP_RANDOM_WAYS; i++) {
		struct rap_random *r = &set->way[i];

		if (r->used && rap_random_same(&r->key, key)) {
			r->age = ++set->clock;
			return r;
		}
		/* unsigned distance from the clock survives its wrap */
		if (!victim || !r->used ||
		    (victim->used && set->clock - r->age > set->clock - victim->age))
			victim = r;
	}
	if (!create)
		return NULL;
	*victim = (struct rap_random){ .key = *key, .need = RAP_RANDOM_RUN,
				       .used = true, .age = ++set->clock };
	return victim;
}

/*
 * The reader entered read-ahead pages: the latest window paid, and a
 * random file is read where readahead put its pages again.
 */
static void rap_random_paid(struct rap_random *r)
{
	r->paid = true;
	r->took = 0;
	r->wasted = 0;
	r->need = RAP_RANDOM_RUN;
	r->returned = false;
	r->random = false;
}

/*
 * Judge the latest window at the next miss, @index. It paid if the reader
 * mapped one of its pages meanwhile (rap_random_hit()) or if this miss is
 * near it: inside it (its page was reclaimed before use), or within its
 * size of either edge, where a reader that walked through it without a
 * fault (fault-around maps the cached pages around each fault) misses
 * next. Only a miss far from a window the reader never entered is
 * evidence of random access.
 */
static void rap_random_judge(struct rap_random *r, pgoff_t index)
{
	unsigned long n = r->win_pages;
	pgoff_t lo, hi;

	if (!n)
		return;
	lo = r->win_start > n ? r->win_start - n : 0;
	hi = r->win_start + 2 * n;
	if (hi < r->win_start)
		hi = ~0UL;
	if (r->paid || (index >= lo && index < hi)) {
		rap_random_paid(r);
		return;
	}
	if (r->wasted < RAP_RANDOM_WASTED)
		r->wasted++;
	/*
	 * A return to read-around that did not pay: random again at once,
	 * and the next return asks a run twice as long
	 */
	if (r->returned) {
		r->need = r->need < RAP_RANDOM_MAX_RUN / 2 ?
			  2 * r->need : RAP_RANDOM_MAX_RUN;
		r->returned = false;
		r->wasted = RAP_RANDOM_WASTED;
	}
}

/* The page @index alone, of the smallest folio the kernel reads */
static void rap_random_page(struct ra_policy_window *win, pgoff_t index)
{
	win->start = index;
	win->size = 1;
	win->async_size = 0;
	win->order = 0;
	win->order_once = false;
}

/* Remember the window a miss reads, to judge it at the next miss */
static void rap_random_window(struct rap_random *r,
			      const struct ra_policy_window *win)
{
	r->win_start = win->start;
	r->win_pages = win->size;
	r->paid = false;
}

/*
 * Whether a VM_HUGEPAGE window is read as offered: while the memcg has
 * room for it, its folios stay cached until the reader touches them, and
 * each later touch of one is a PMD mapping, not a fault; without room,
 * while the reader still maps cached folios often enough
 * (RAP_RANDOM_THP_USED). Cutting such windows trades faults for pages.
 */
static bool rap_random_keep(const struct rap_random *r,
			    const struct rap_random_fault *f)
{
	if (f->room)
		return true;
	return r->thp_misses &&
	       r->pmd_hits * RAP_RANDOM_THP_USED >= r->thp_misses;
}

/**
 * rap_random_decide - random_miss on one readahead decision
 * @r: the file's state, from rap_random_find()
 * @f: the decision
 * @win: in: the window the kernel (or another policy) would read;
 *	out: the faulting page alone, if true is returned
 * @did: out: RAP_RANDOM_DID_* bits
 *
 * Takes part in the read-around and VM_HUGEPAGE misses, whose windows
 * mmap_miss switches off, and in marker hits; the window it returns is
 * the faulting page, inside every window the kernel offers.
 *
 * Return: true if @win replaces the window.
 */
bool rap_random_decide(struct rap_random *r, const struct rap_random_fault *f,
		       struct ra_policy_window *win, unsigned int *did)
{
	bool adjacent, keep;

	*did = 0;
	if (f->point == RA_POLICY_SYNC_THP && ++r->thp_misses >= RAP_RANDOM_THP_SPAN) {
		r->thp_misses /= 2;
		r->pmd_hits /= 2;
	}
	keep = rap_random_keep(r, f);
	if (f->point == RA_POLICY_ASYNC) {
		if (f->replaced || keep)
			return false;
		/* the reader entered read-ahead pages */
		if (!r->random) {
			rap_random_paid(r);
			return false;
		}
		/*
		 * A random touch of a page that a window it never used marked
		 * (a VM_HUGEPAGE window marks its second folio): read nothing
		 * more, the page is cached
		 */
		rap_random_page(win, f->index);
		*did |= RAP_RANDOM_DID_MARKER;
		return true;
	}
	if (f->point != RA_POLICY_SYNC_AROUND && f->point != RA_POLICY_SYNC_THP)
		return false;

	adjacent = r->run && (f->index == r->last + 1 || f->index + 1 == r->last);
	r->run = adjacent ? r->run + 1 : 1;
	r->last = f->index;
	rap_random_judge(r, f->index);

	if (f->replaced) {
		/* a stream's window: read, and judged as any other */
		rap_random_window(r, win);
		return false;
	}
	if (r->random && r->run >= r->need) {
		r->random = false;
		r->wasted = 0;
		r->returned = true;
		*did |= RAP_RANDOM_DID_RETURN;
	} else if (!r->random && r->wasted >= RAP_RANDOM_WASTED) {
		r->random = true;
	}
	if (!r->random || keep) {
		rap_random_window(r, win);
		return false;
	}

	rap_random_page(win, f->index);
	r->win_pages = 0;
	r->paid = false;
	/* the kernel counted this miss as one of read-around's */
	if (f->counted && r->credit < RAP_RANDOM_MAX_CREDIT)
		r->credit++;
	*did |= RAP_RANDOM_DID_SHRINK;
	return true;
}

/*
 * A fault mapped the cached folio of @nr pages holding @index with a PMD:
 * a fault a window saved, unless it is the folio of the latest miss (its
 * retry maps the folio the miss read)
 */
void rap_random_pmd_hit(struct rap_random *r, pgoff_t index, unsigned long nr)
{
	if (nr && index / nr != r->last / nr && r->pmd_hits < RAP_RANDOM_THP_SPAN)
		r->pmd_hits++;
}

/**
 * rap_random_hit - a fault mapped the cached page @index of the file
 * @r: the file's state
 * @index: the faulting page
 * @counted: whether the kernel counts it as an mmap hit (lowers mmap_miss)
 * @did: out: RAP_RANDOM_DID_CREDIT if it takes back an increment
 *
 * A hit inside the latest window other than its own miss (the retry of
 * the miss maps that one) pays for the window. A mapping the kernel does
 * not count takes back one mmap_miss increment of a miss that read only
 * its page: typically the retry of that very miss, which maps the page
 * the miss read.
 *
 * Return: whether the mapping lowers mmap_miss.
 */
bool rap_random_hit(struct rap_random *r, pgoff_t index, bool counted,
		    unsigned int *did)
{
	*did = 0;
	if (r->win_pages && index != r->last && index >= r->win_start &&
	    index - r->win_start < r->win_pages)
		rap_random_paid(r);
	if (counted || !r->credit)
		return counted;
	r->credit--;
	if (r->took < RAP_RANDOM_MAX_TOOK)
		r->took++;
	*did |= RAP_RANDOM_DID_CREDIT;
	return true;
}
