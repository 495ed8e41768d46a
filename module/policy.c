// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: the readahead policies as pure decisions, one struct
 * rap_policy_ops each.
 * Builds in the kernel and on the host (see policy.h).
 */
#include "policy.h"

/* The order of the lowest set bit of @x, which must not be 0 */
static unsigned int rap_lowest_order(unsigned long x)
{
	unsigned int order = 0;

	while (!(x & 1)) {
		x >>= 1;
		order++;
	}
	return order;
}

/*
 * Whether a miss at @index, right below @nr cached pages and right above
 * @nr uncached ones, comes from a stream that runs towards lower offsets.
 * Requiring the folio below to be uncached too keeps a hole between two
 * cached ranges a plain miss: filemap_descending() of "mm/filemap: read
 * ahead for mmap readers that move backwards" v2, thread of
 * https://lore.kernel.org/r/20261022-bug-mm-mmap-readahead-descending-v1-0-6d08b34862f2@gmail.com
 */
bool rap_descending(const struct rap_cache_view *view, pgoff_t index,
		    unsigned long nr)
{
	if (index < nr)
		return false;
	if (!view->has_folio(view->ctx, index + nr))
		return false;
	return !view->has_range(view->ctx, index - nr, index - 1);
}

/*
 * A reader that walks down enters each folio through its top pages (a
 * per-page reverse walk at the last page, memmove() copying backwards at
 * its last bytes); random access enters anywhere. THP streams start or go
 * on only on such an entry, which keeps random readers under memory
 * pressure (folios above cached, below evicted) from starting streams.
 */
#define RAP_STREAM_ENTRY_PAGES	4

static bool rap_enters_from_above(pgoff_t index, unsigned long unit)
{
	return unit <= RAP_STREAM_ENTRY_PAGES ||
	       (index & (unit - 1)) >= unit - RAP_STREAM_ENTRY_PAGES;
}

/*
 * The size of the next window of a stream, as get_next_ra_size() ramps
 * forward readahead: quadruple small windows, double medium ones, up to
 * @max.
 */
static unsigned long rap_next_size(unsigned long cur, unsigned long max)
{
	if (cur < max / 16)
		return 4 * cur;
	if (cur <= max / 2)
		return 2 * cur;
	return max;
}

/*
 * Where a descending stream puts its readahead marker. The first window,
 * read on the miss that detects the stream, marks the page (for THP the
 * folio) right below the fault: the faulting page itself is mapped when
 * the fault retries, so a marker there would never be hit. Every later
 * window marks its top folio, the first one the reader enters, so the next
 * window is read while the reader still has this whole one to go through:
 * the lookahead forward readahead gets from marking a window's first page.
 */
#define RAP_MARK_BELOW_FAULT	2	/* async_size: page below the top one */
#define RAP_MARK_TOP		1	/* async_size: the top page's folio */

/*
 * The window of up to @size pages that ends right below @top, clipped at
 * index 0 and starting on a multiple of @align, so that a stream's windows
 * are made of whole folios of the order it ramps to (forward readahead
 * aligns the end of its windows for the same reason).
 */
static bool rap_window_below(pgoff_t top, unsigned long size,
			     unsigned int order, unsigned long align,
			     unsigned long async_size,
			     struct ra_policy_window *win)
{
	pgoff_t start;

	if (!top || !size)
		return false;
	start = size < top ? top - size : 0;
	if (start & (align - 1)) {
		pgoff_t aligned = (start | (align - 1)) + 1;

		if (aligned > start && aligned < top)
			start = aligned;
	}
	win->start = start;
	win->size = top - start;
	win->async_size = async_size <= win->size ? async_size : 0;
	win->order = order;
	win->order_once = false;
	return true;
}

/*
 * descending_thp: on a VM_HUGEPAGE miss that reads two folios, when the
 * stream descends, read the faulting folio and the one below instead of
 * the one above: "folio" with no readahead marker (patch 2 of the series above),
 * "stream", only when the fault entered its folio from above, with the
 * marker on the folio below, so the stream continues asynchronously
 * (rap_descending_async()).
 */
static bool rap_descending_thp(int value, const struct rap_fault *f,
			       const struct rap_cache_view *view,
			       struct ra_policy_window *win)
{
	unsigned long nr = 1UL << win->order;

	if (f->point != RA_POLICY_SYNC_THP)
		return false;
	/* VM_RAND_READ reads one folio: nothing to redirect */
	if (win->size != 2 * nr)
		return false;
	if (value == RAP_DESC_THP_STREAM &&
	    !rap_enters_from_above(f->index, nr))
		return false;
	if (!rap_descending(view, win->start, nr))
		return false;
	win->start -= nr;
	win->async_size = value == RAP_DESC_THP_STREAM ? win->size : 0;
	return true;
}

/*
 * The window of descending_seq and descending_around: on a miss whose page
 * above is cached and page below is not, the ra_pages window that ends at
 * the faulting page, of order-0 folios like the first window of a forward
 * stream; for "stream" marked right below the fault, so that
 * rap_descending_async() reads on from there.
 */
static bool rap_window_to_fault(const struct rap_fault *f,
				const struct rap_cache_view *view, bool stream,
				struct ra_policy_window *win)
{
	if (!f->ra_pages || !rap_descending(view, f->index, 1))
		return false;
	return rap_window_below(f->index + 1, f->ra_pages, 0, 1,
				stream ? RAP_MARK_BELOW_FAULT : 0, win);
}

/*
 * The "stream" values, on a hit of a readahead marker: if the hit lies in
 * the file's last window (ra->start, ra->size) and that window is the low
 * end of what the cache holds (the page above it cached, the one below it
 * not), the reader descends: read the next window below, ramped up as
 * forward readahead ramps (window size by get_next_ra_size()'s steps up to
 * ra_pages, folio order by 2 per window, start aligned to that order), in
 * whole folios for THP, marked on its top folio. A forward stream's
 * window has its previous window cached below it and never matches; THP
 * streams also need the fault to enter its folio from above.
 */
static bool rap_descending_async(const struct rap_fault *f,
				 const struct rap_cache_view *view,
				 struct ra_policy_window *win)
{
	unsigned long unit = 1, max = f->ra_pages, size, align;
	pgoff_t top = f->ra_start;
	unsigned int order;

	if (f->point != RA_POLICY_ASYNC || !f->ra_pages)
		return false;
	switch (f->kind) {
	case RAP_MAP_THP:
		order = f->thp_order;
		unit = 1UL << order;
		max = f->ra_pages > 2 * unit ? f->ra_pages & ~(unit - 1) : 2 * unit;
		break;
	case RAP_MAP_SEQ:
	case RAP_MAP_AROUND:
		order = f->ra_order + 2;
		break;
	default:
		return false;
	}
	if (!top || f->index < top || f->index - top >= f->ra_size)
		return false;
	if (!rap_enters_from_above(f->index, unit) ||
	    !view->has_folio(view->ctx, top + f->ra_size) ||
	    view->has_folio(view->ctx, top - 1))
		return false;
	size = rap_next_size(f->ra_size, max);
	if (unit > 1) {
		size = size < unit ? unit : size & ~(unit - 1);
		align = unit;
	} else {
		if (order > f->max_order)
			order = f->max_order;
		/* as page_cache_async_ra(): no larger than ra_pages allows */
		align = 1UL << order;
		while (align > 1 && (max & (align - 1)))
			align >>= 1;
	}
	return rap_window_below(top, size, order, align, RAP_MARK_TOP, win);
}

/*
 * A descending policy on a hit of a readahead marker of a mapping of
 * @kind: its "stream" value reads on with rap_descending_async()
 */
static unsigned int rap_descending_marker(bool stream,
					  enum rap_mapping_kind kind,
					  const struct rap_fault *f,
					  const struct rap_cache_view *view,
					  struct ra_policy_window *win,
					  unsigned int bit)
{
	if (!stream || f->kind != kind || !rap_descending_async(f, view, win))
		return 0;
	return bit | RAP_DID_REPLACED | RAP_DID_SIZED;
}

static unsigned int rap_descending_thp_decide(int value,
					      const struct rap_fault *f,
					      const struct rap_cache_view *view,
					      struct ra_policy_window *win,
					      unsigned int did __always_unused)
{
	if (f->point == RA_POLICY_ASYNC)
		return rap_descending_marker(value == RAP_DESC_THP_STREAM,
					     RAP_MAP_THP, f, view, win,
					     RAP_DID_DESCENDING_THP);
	if (!rap_descending_thp(value, f, view, win))
		return 0;
	return RAP_DID_DESCENDING_THP | RAP_DID_REPLACED;
}

const struct rap_policy_ops rap_descending_thp_policy = {
	.stage = RAP_STAGE_WINDOW,
	.decide = rap_descending_thp_decide,
};

/* descending_seq: VM_SEQ_READ misses ("window": patch 3 of that series) */
static unsigned int rap_descending_seq_decide(int value,
					      const struct rap_fault *f,
					      const struct rap_cache_view *view,
					      struct ra_policy_window *win,
					      unsigned int did __always_unused)
{
	bool stream = value == RAP_DESC_SEQ_STREAM;

	if (f->point == RA_POLICY_ASYNC)
		return rap_descending_marker(stream, RAP_MAP_SEQ, f, view, win,
					     RAP_DID_DESCENDING_SEQ);
	if (f->point != RA_POLICY_SYNC_SEQ ||
	    !rap_window_to_fault(f, view, stream, win))
		return 0;
	return RAP_DID_DESCENDING_SEQ | RAP_DID_REPLACED | RAP_DID_SIZED;
}

const struct rap_policy_ops rap_descending_seq_policy = {
	.stage = RAP_STAGE_WINDOW,
	.decide = rap_descending_seq_decide,
};

/*
 * descending_around: read-around (no madvise() hint) centres its window
 * on the fault, so a descending reader uses half of it; read the window
 * that ends at the fault instead.
 */
static unsigned int
rap_descending_around_decide(int value, const struct rap_fault *f,
			     const struct rap_cache_view *view,
			     struct ra_policy_window *win,
			     unsigned int did __always_unused)
{
	bool stream = value == RAP_DESC_AROUND_STREAM;

	if (f->point == RA_POLICY_ASYNC)
		return rap_descending_marker(stream, RAP_MAP_AROUND, f, view,
					     win, RAP_DID_DESCENDING_AROUND);
	if (f->point != RA_POLICY_SYNC_AROUND ||
	    !rap_window_to_fault(f, view, stream, win))
		return 0;
	return RAP_DID_DESCENDING_AROUND | RAP_DID_REPLACED;
}

const struct rap_policy_ops rap_descending_around_policy = {
	.stage = RAP_STAGE_WINDOW,
	.decide = rap_descending_around_decide,
};

/*
 * sync_mmap_order: read-around with folios of the fault-around order (or a
 * fixed order) without saving it in ra->order, so async readahead still
 * ramps up from its own order ("filemap: use high-order folios in filemap
 * sync RA", https://lore.kernel.org/r/20260415192853.3470423-3-stepanov.anatoly@huawei.com).
 */
static unsigned int rap_sync_order_of(int value,
				      unsigned long fault_around_pages)
{
	if (value == RAP_SYNC_ORDER_FAULT_AROUND)
		return fault_around_pages ?
			rap_lowest_order(fault_around_pages) : 0;
	return rap_value_order(RAP_NR_NAMES(sync_mmap_order), value);
}

unsigned int rap_sync_order(const struct rap_settings *s,
			    unsigned long fault_around_pages)
{
	return rap_sync_order_of(s->sync_mmap_order, fault_around_pages);
}

static unsigned int
rap_sync_mmap_order_decide(int value, const struct rap_fault *f,
			   const struct rap_cache_view *view __always_unused,
			   struct ra_policy_window *win,
			   unsigned int did __always_unused)
{
	unsigned int order;

	if (f->point != RA_POLICY_SYNC_AROUND)
		return 0;
	order = rap_sync_order_of(value, f->fault_around_pages);
	if (order <= win->order)
		return 0;
	win->order = order;
	win->order_once = true;
	return RAP_DID_ORDER_RAISE | RAP_DID_REPLACED;
}

const struct rap_policy_ops rap_sync_mmap_order_policy = {
	.stage = RAP_STAGE_ORDER,
	.decide = rap_sync_mmap_order_decide,
};

/*
 * vma_limit: bound mmap readahead at the end of the VMA. "always" does so
 * for every read (7b32f64bc512); "near_end" only when the fault is within
 * ra_pages of the VMA end, so a stream crossing mprotect()-split VMAs of
 * one file keeps its async readahead (the conditional limit of
 * https://lore.kernel.org/r/20260727014610.3479784-1-zhangbo56@xiaomi.com).
 * Returns RAP_DID_* bits.
 */
static unsigned int
rap_vma_limit_decide(int value, const struct rap_fault *f,
		     const struct rap_cache_view *view __always_unused,
		     struct ra_policy_window *win, unsigned int did)
{
	bool sized = f->sized || (did & RAP_DID_SIZED);
	pgoff_t last = f->vma_end - 1;

	if (f->vma_end <= f->vma_start)
		return 0;
	switch (value) {
	case RAP_VMA_LIMIT_ALWAYS:
		break;
	case RAP_VMA_LIMIT_NEAR_END:
		if (f->index >= f->vma_end ||
		    f->vma_end - f->index >= f->ra_pages)
			return 0;
		break;
	default:
		return 0;
	}
	if (last >= win->max_index)
		return 0;
	win->max_index = last;
	if (sized && win->size && win->start + win->size - 1 > last)
		return RAP_DID_VMA_LIMIT | RAP_DID_VMA_CLAMP;
	return RAP_DID_VMA_LIMIT;
}

const struct rap_policy_ops rap_vma_limit_policy = {
	.stage = RAP_STAGE_BOUND,
	.decide = rap_vma_limit_decide,
};

/*
 * pmd_hit=on: a PMD mapping of the faulting address counts as an mmap hit
 * under the PTE path's rules (patch 2 of the descending-readers series);
 * off keeps the stock rule that only PTE mappings count. It decides no
 * window.
 */
static unsigned int rap_pmd_hit_hit(int value, const struct rap_hit *h,
				    unsigned int did)
{
	if (!h->pmd || value != RAP_PMD_HIT_ON || !h->eligible)
		return did;
	return did | RAP_HIT_COUNTED | RAP_HIT_PMD;
}

const struct rap_policy_ops rap_pmd_hit_policy = {
	.stage = RAP_STAGE_WINDOW,
	.hit = rap_pmd_hit_hit,
};

/* Every policy's number of named values */
const unsigned int rap_nr_names[RAP_NR_POLICIES] = {
#define RAP_POLICY(name, orders, help, ...)				\
	[RAP_POL_##name] = sizeof((const char *[]){ __VA_ARGS__ }) /	\
			   sizeof(const char *),
#include "table.h"
};

/* The ops of every policy, in table order; NULL: not in this build */
const struct rap_policy_ops *const rap_policy_table[RAP_NR_POLICIES] = {
#define RAP_POLICY(name, orders, help, ...)				\
	[RAP_POL_##name] = &rap_##name##_policy,
#include "table.h"
};

/* Every policy's name, for the decisions it takes (ra_policy_window.by) */
static const char *const rap_policy_name[RAP_NR_POLICIES] = {
#define RAP_POLICY(name, orders, help, ...)				\
	[RAP_POL_##name] = #name,
#include "table.h"
};

/* The policy whose name @by is (ra_policy_window.by), -1 for none */
int rap_policy_of(const char *by)
{
	int id;

	for (id = 0; id < RAP_NR_POLICIES; id++)
		if (by == rap_policy_name[id])
			return id;
	return -1;
}

static const size_t rap_setting_offset[RAP_NR_POLICIES] = {
#define RAP_POLICY(name, orders, help, ...)				\
	[RAP_POL_##name] = offsetof(struct rap_settings, name),
#include "table.h"
};

/* The setting of policy @id, the index of its value */
int rap_setting(const struct rap_settings *s, enum rap_policy_id id)
{
	return *(const int *)((const char *)s + rap_setting_offset[id]);
}

/**
 * rap_decide_window - apply every policy to the window of one fault
 * @s: the settings
 * @f: the fault
 * @view: the page cache
 * @win: in: the kernel's default window; out: the window to read
 * @decisions: out: RAP_DID_* bits
 *
 * Runs the decide() of every policy whose setting is not stock, stage by
 * stage (enum rap_stage), in table order within a stage. @win->by names
 * the first policy that replaced the window, else the first that did
 * anything (set a bound); NULL if none did.
 *
 * Return: true if @win replaces the default window (a bound alone does
 * not: the kernel honours @win->max_index either way).
 */
bool rap_decide_window(const struct rap_settings *s, const struct rap_fault *f,
		       const struct rap_cache_view *view,
		       struct ra_policy_window *win, unsigned int *decisions)
{
	unsigned int did = 0, stage, id;
	int acted = -1, replaced = -1;

	for (stage = 0; stage < RAP_NR_STAGES; stage++) {
		if ((did & RAP_DID_OWNED) && stage != RAP_STAGE_CUT)
			continue;
		for (id = 0; id < RAP_NR_POLICIES; id++) {
			const struct rap_policy_ops *ops = rap_policy_table[id];
			int value = rap_setting(s, id);
			unsigned int bits;

			if (!value || !ops || !ops->decide ||
			    ops->stage != stage)
				continue;
			bits = ops->decide(value, f, view, win, did);
			if (bits && acted < 0)
				acted = id;
			if ((bits & RAP_DID_REPLACED) && replaced < 0)
				replaced = id;
			if (bits & RAP_DID_CUT)
				did &= ~RAP_DID_SHAPE;
			did |= bits;
		}
	}
	if (replaced < 0)
		replaced = acted;
	win->by = replaced < 0 ? NULL : rap_policy_name[replaced];
	*decisions = did & ~RAP_DID_FLOW;
	return did & RAP_DID_REPLACED;
}

/**
 * rap_window_check - what the kernel's check will do to a replaced window
 * @win: the window a policy returned
 * @b: the fault's bounds
 *
 * The rules of the hook series' filemap_ra_policy_window_ok(), which
 * checks every replaced window: refused when it reads nothing inside the
 * file and the VMA, else cut to both, to @win->nr windows of
 * @b->window_size (one if @win->nr is 0), @b->max_size in all (keeping the
 * faulting page at a miss if it held it), past the marked folio at the
 * asynchronous point when it holds that folio and more, its marker into it
 * and its order to @b->max_order. The module applies nothing; it counts,
 * for a policy it does not control (a BPF program), what the kernel
 * changed.
 */
enum rap_window_check rap_window_check(const struct ra_policy_window *win,
				       const struct rap_window_bounds *b)
{
	unsigned long max = b->window_size ? b->window_size : b->max_size;
	unsigned long size;
	pgoff_t start, last;

	if (!b->file_pages || !win->size || b->vma_end <= b->vma_start)
		return RAP_WINDOW_REFUSED;
	if (win->nr > 1)
		max = win->nr < b->max_size / max ? win->nr * max : b->max_size;
	if (max > b->max_size)
		max = b->max_size;
	last = b->file_pages < b->vma_end ? b->file_pages - 1 : b->vma_end - 1;
	if (win->start > last)
		return RAP_WINDOW_REFUSED;
	/* the window's last page, computed so that it cannot wrap */
	if (win->size - 1 < last - win->start)
		last = win->start + win->size - 1;
	if (last < b->vma_start)
		return RAP_WINDOW_REFUSED;
	start = win->start > b->vma_start ? win->start : b->vma_start;
	if (!b->async && b->index >= start && b->index <= last)
		start += (b->index - start) / max * max;
	else if (b->async && b->index >= start && b->index_end <= last)
		start = b->index_end;
	size = last - start + 1 < max ? last - start + 1 : max;
	if (start != win->start || size != win->size ||
	    win->async_size > size || win->order > b->max_order)
		return RAP_WINDOW_CUT;
	return RAP_WINDOW_KEPT;
}

/* pmd_hit on a PMD mapping: whether it counts as an mmap hit */
bool rap_decide_pmd_hit(const struct rap_settings *s, bool eligible)
{
	const struct rap_hit h = { .pmd = true, .eligible = eligible };

	return rap_pmd_hit_hit(s->pmd_hit, &h, 0) & RAP_HIT_COUNTED;
}

/* splitmix64's finaliser: every input bit affects every output bit */
static u64 rap_mix64(u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/*
 * A/B buckets: the randomization unit of an experiment is a file (sample
 * mode) or a cgroup (cgroup mode), and units fall into RAP_AB_BUCKETS
 * buckets by a hash of their identity (@ns: the device, or a tag for
 * cgroups; @id: the inode or the cgroup's id) keyed by @key. A unit stays
 * in its bucket across salts, so an experiment that changes the salt from
 * one period to the next sees every bucket in both arms (a crossover);
 * a new key per experiment and host puts unrelated files together, so
 * hosts of one image are independent replicates. The key need not be
 * secret: it decorrelates hosts, it does not resist an adversary.
 */
unsigned int rap_ab_bucket(u64 key, u64 ns, u64 id)
{
	return rap_mix64(rap_mix64(rap_mix64(key) ^ ns) ^ id) >>
	       (64 - RAP_AB_BUCKET_SHIFT);
}

/*
 * The buckets in arm B, as a bit mask: @permille of the RAP_AB_BUCKETS
 * buckets, rounded to the nearest bucket, drawn with @salt by the first
 * steps of a Fisher-Yates shuffle (Knuth, TAOCP vol. 2, 3.4.2, algorithm
 * P) driven by splitmix64. Every set of that many buckets is about as
 * likely as any other, which is what a randomization test over the
 * buckets assumes; a larger @permille only adds buckets. With
 * RAP_AB_SALT_SWAP set, the arms are those of the salt without it,
 * swapped: the second period of a complementary pair.
 */
u64 rap_ab_mask(u64 salt, unsigned int permille)
{
	unsigned int k = (permille * RAP_AB_BUCKETS + 500) / 1000;
	unsigned char order[RAP_AB_BUCKETS];
	u64 state = salt & ~RAP_AB_SALT_SWAP, mask = 0;
	unsigned int i, j;

	if (salt & RAP_AB_SALT_SWAP)
		return ~rap_ab_mask(state, permille);

	for (i = 0; i < RAP_AB_BUCKETS; i++)
		order[i] = i;
	for (i = 0; i < k && i < RAP_AB_BUCKETS; i++) {
		unsigned char t;

		state += 0x9e3779b97f4a7c15ULL;
		j = i + (((rap_mix64(state) >> 32) * (RAP_AB_BUCKETS - i)) >> 32);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
		mask |= 1ULL << order[i];
	}
	return mask;
}
