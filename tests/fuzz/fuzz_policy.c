// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of module/policy.c, built from the module directory as
 * tests/unit does.  The input decodes into settings, a fault, a fake page
 * cache (up to 6 cached ranges near the fault) and the kernel's default
 * window for the fault's point; rap_decide_window() must then keep the
 * invariants below.  The first byte chooses the domain: the kernel's
 * (what filemap.c can offer: the fault inside its VMA and file, ra_pages
 * > 0 where the kernel returns before the hook otherwise, orders <= 9,
 * fault_around_pages a power of two <= 512, indexes below 2^51), where
 * every invariant is checked, or "wide" (any 64-bit values), where only
 * determinism and memory safety are.
 */
#include "fuzz.h"

#include "../../module/policy.c"

#define MAX_ORDER_K	9		/* MAX_PAGECACHE_ORDER, PMD order */
#define MAX_INDEX_K	(1ULL << 51)	/* MAX_LFS_FILESIZE >> PAGE_SHIFT */
#define MAX_RA_PAGES_K	(1ULL << 30)	/* read_ahead_kb <= UINT_MAX */

#define NR_RANGES	6
#define VMA_BITS	(RAP_DID_VMA_LIMIT | RAP_DID_VMA_CLAMP)

struct cache {
	pgoff_t first[NR_RANGES], last[NR_RANGES];
	int n;
};

static bool cache_has_range(const void *ctx, pgoff_t first, pgoff_t last)
{
	const struct cache *c = ctx;
	int i;

	for (i = 0; i < c->n; i++)
		if (c->first[i] <= last && first <= c->last[i])
			return true;
	return false;
}

static bool cache_has_folio(const void *ctx, pgoff_t index)
{
	return cache_has_range(ctx, index, index);
}

/* A value of 1, 2, 4 or 6 bytes, so that small ones are common */
static uint64_t fz_scaled(struct fz *f)
{
	static const unsigned int bytes[] = { 1, 2, 4, 6 };

	return fz_u64(f, bytes[fz_u8(f) & 3]);
}

static pgoff_t add_sat(pgoff_t a, pgoff_t b)
{
	return a + b < a ? ~0UL : a + b;
}

/* Ranges of the page cache around index, in units of 1 or of the THP folio */
static void decode_cache(struct fz *f, struct cache *c, pgoff_t index,
			 unsigned long nr)
{
	int i;

	c->n = fz_u8(f) % (NR_RANGES + 1);
	for (i = 0; i < c->n; i++) {
		unsigned long gran = fz_u8(f) & 1 ? nr : 1;
		int16_t off = (int16_t)fz_u64(f, 2);
		unsigned long len = (unsigned long)fz_u8(f) + 1;

		c->first[i] = index + (pgoff_t)(long)off * gran;
		c->last[i] = add_sat(c->first[i], len * gran - 1);
	}
}

struct input {
	bool wide;
	struct rap_settings s;
	struct rap_fault f;
	struct ra_policy_window def;
	pgoff_t file_pages;
	unsigned long nr;		/* pages of a THP folio */
	struct cache cache;
	u64 dev, ino, salt;
	unsigned int permille;
	bool eligible;
};

static void decode_settings(struct fz *f, struct rap_settings *s)
{
	memset(s, 0, sizeof(*s));
	s->descending_thp = fz_u8(f) % 3;
	s->pmd_hit = fz_u8(f) % 2;
	s->descending_seq = fz_u8(f) % 3;
	s->vma_limit = fz_u8(f) % 3;
	s->sync_mmap_order = fz_u8(f) % (RAP_SYNC_ORDER_BASE + MAX_ORDER_K + 1);
	s->descending_around = fz_u8(f) % 3;
}

static const enum rap_mapping_kind kind_of_point[] = {
	[RA_POLICY_SYNC_THP] = RAP_MAP_THP,
	[RA_POLICY_SYNC_SEQ] = RAP_MAP_SEQ,
	[RA_POLICY_SYNC_EXEC] = RAP_MAP_OTHER,
	[RA_POLICY_SYNC_AROUND] = RAP_MAP_AROUND,
};

/* The window filemap.c offers at f->point (__filemap_ra_policy()) */
static void kernel_window(struct fz *fz, struct input *in)
{
	struct rap_fault *f = &in->f;
	struct ra_policy_window *w = &in->def;
	unsigned long ra_size = fz_scaled(fz) % (MAX_RA_PAGES_K + 1);

	memset(w, 0, sizeof(*w));
	w->max_index = ~0UL;
	switch (f->point) {
	case RA_POLICY_SYNC_THP:
		w->start = f->index & ~(in->nr - 1);
		w->size = fz_u8(fz) & 1 ? in->nr : 2 * in->nr;	/* VM_RAND_READ */
		w->async_size = in->nr;
		w->order = f->thp_order;
		break;
	case RA_POLICY_SYNC_SEQ:
	case RA_POLICY_ASYNC:
		w->start = f->index;
		w->size = f->ra_pages;
		break;
	case RA_POLICY_SYNC_EXEC:
		/* exec_folio_order(), no marker */
		w->order = fz_u8(fz) % (MAX_ORDER_K + 1);
		w->start = f->index & ~((1UL << w->order) - 1);
		w->size = f->ra_pages;
		break;
	default:
		/* read-around: centred on the fault, order 0 */
		w->start = f->index > f->ra_pages / 2 ? f->index - f->ra_pages / 2 : 0;
		w->size = f->ra_pages;
		w->async_size = f->ra_pages / 4;
		break;
	}
	f->ra_size = ra_size;
	/* the file's last window, which a marker hit mostly lies in */
	f->ra_start = f->index - fz_scaled(fz) % (f->index + 1);
	f->ra_order = fz_u8(fz) % (MAX_ORDER_K + 1);
}

static void decode_kernel(struct fz *fz, struct input *in)
{
	struct rap_fault *f = &in->f;
	uint8_t fa = fz_u8(fz);

	f->point = fz_u8(fz) % RA_POLICY_NR_POINTS;
	f->sized = f->point != RA_POLICY_SYNC_SEQ && f->point != RA_POLICY_ASYNC;
	f->kind = f->point == RA_POLICY_ASYNC ? (enum rap_mapping_kind)(fz_u8(fz) % 4) :
		  kind_of_point[f->point];
	f->thp_order = fz_u8(fz) % (MAX_ORDER_K + 1);
	f->max_order = f->thp_order;
	in->nr = 1UL << f->thp_order;
	in->file_pages = 1 + fz_scaled(fz) % MAX_INDEX_K;
	f->index = fz_scaled(fz) % in->file_pages;
	f->vma_start = f->index - fz_scaled(fz) % (f->index + 1);
	f->vma_end = f->index + 1 + fz_scaled(fz) % (MAX_INDEX_K - f->index);
	f->ra_pages = fz_scaled(fz) % (MAX_RA_PAGES_K + 1);
	/* the kernel returns before the hook when ra_pages is 0, but for THP */
	if (!f->ra_pages && f->point != RA_POLICY_SYNC_THP)
		f->ra_pages = 1;
	f->fault_around_pages = fa % 11 == 10 ? 0 : 1UL << (fa % 11);
	kernel_window(fz, in);
}

static void decode_wide(struct fz *fz, struct input *in)
{
	struct rap_fault *f = &in->f;
	struct ra_policy_window *w = &in->def;

	f->point = fz_u8(fz) % RA_POLICY_NR_POINTS;
	f->sized = f->point != RA_POLICY_SYNC_SEQ && f->point != RA_POLICY_ASYNC;
	f->kind = (enum rap_mapping_kind)(fz_u8(fz) % 4);
	f->thp_order = fz_u8(fz) % 64;
	f->max_order = fz_u8(fz) % 64;
	in->nr = 1UL << f->thp_order;
	in->file_pages = ~0UL;
	f->index = fz_u64(fz, 8);
	f->vma_start = fz_u64(fz, 8);
	f->vma_end = fz_u64(fz, 8);
	f->ra_pages = fz_u64(fz, 8);
	f->ra_size = fz_u64(fz, 8);
	f->ra_start = fz_u64(fz, 8);
	f->ra_order = fz_u8(fz) % 64;
	f->fault_around_pages = fz_u64(fz, 8);
	w->start = fz_u64(fz, 8);
	w->size = fz_u64(fz, 8);
	w->async_size = fz_u64(fz, 8);
	w->order = fz_u8(fz) % 64;
	w->order_once = false;
	w->max_index = fz_u64(fz, 8);
}

static void decode(struct fz *fz, struct input *in)
{
	memset(in, 0, sizeof(*in));
	in->wide = fz_u8(fz) == 0xff;
	decode_settings(fz, &in->s);
	if (in->wide)
		decode_wide(fz, in);
	else
		decode_kernel(fz, in);
	decode_cache(fz, &in->cache, in->f.index, in->nr);
	in->dev = fz_u64(fz, 8);
	in->ino = fz_u64(fz, 8);
	in->salt = fz_u64(fz, 8);
	in->permille = (unsigned int)fz_u64(fz, 2) % 1002;
	in->eligible = fz_u8(fz) & 1;
}

static bool same_window(const struct ra_policy_window *a,
			const struct ra_policy_window *b)
{
	return a->start == b->start && a->size == b->size &&
	       a->async_size == b->async_size && a->order == b->order &&
	       a->order_once == b->order_once;
}

#define WIN_FMT "start %lu size %lu async %lu order %u once %d max %lu"
#define WIN_ARGS(w) (w)->start, (w)->size, (w)->async_size, (w)->order, \
	(w)->order_once, (w)->max_index

/* The bound: vma_limit's bits and max_index */
static void check_bound(const struct input *in, const struct ra_policy_window *w,
			unsigned int did)
{
	const struct rap_fault *f = &in->f;

	FZ_CHECK(w->max_index <= in->def.max_index, "max_index raised to %lu",
		 w->max_index);
	FZ_CHECK(!(did & RAP_DID_VMA_CLAMP) || (did & RAP_DID_VMA_LIMIT),
		 "clamp without limit");
	if (!(did & RAP_DID_VMA_LIMIT)) {
		FZ_CHECK(w->max_index == in->def.max_index, "bound without VMA_LIMIT");
		return;
	}
	FZ_CHECK(in->s.vma_limit != RAP_VMA_LIMIT_NONE, "VMA_LIMIT with vma_limit=none");
	FZ_CHECK(w->max_index == f->vma_end - 1, "bound %lu, VMA ends at %lu",
		 w->max_index, f->vma_end);
	if (!in->wide)
		FZ_CHECK(w->max_index >= f->index, "bound %lu below the fault %lu",
			 w->max_index, f->index);
}

/* A window the policy sized below a descending fault (the kernel domain) */
static void check_descending(const struct input *in, const struct ra_policy_window *w,
			     unsigned int did)
{
	const struct rap_fault *f = &in->f;
	pgoff_t end = w->start + w->size;	/* no wrap: checked before */
	unsigned long unit = f->kind == RAP_MAP_THP ? in->nr : 1;

	if (f->point == RA_POLICY_SYNC_THP) {
		FZ_CHECK(did & RAP_DID_DESCENDING_THP, "THP window without its bit");
		FZ_CHECK(w->size == 2 * in->nr && w->start % in->nr == 0 &&
			 w->start + in->nr == (f->index & ~(in->nr - 1)),
			 "THP window " WIN_FMT " for index %lu", WIN_ARGS(w), f->index);
		FZ_CHECK(w->order == f->thp_order, "THP order %u", w->order);
		FZ_CHECK(w->async_size == (in->s.descending_thp == RAP_DESC_THP_STREAM ?
					    w->size : 0),
			 "THP window " WIN_FMT " marked wrong", WIN_ARGS(w));
	} else if (f->point == RA_POLICY_ASYNC) {
		/* the next window right below the last one, which holds the hit */
		FZ_CHECK(f->ra_start <= f->index && f->index - f->ra_start < f->ra_size,
			 "hit %lu outside the last window %lu+%lu", f->index,
			 f->ra_start, f->ra_size);
		FZ_CHECK(end == f->ra_start, "async window " WIN_FMT
			 " does not end at the last window's start %lu",
			 WIN_ARGS(w), f->ra_start);
		FZ_CHECK(w->start % unit == 0, "async window " WIN_FMT
			 " not in folios of %lu", WIN_ARGS(w), unit);
		FZ_CHECK(w->size <= (f->ra_pages > 2 * unit ? f->ra_pages : 2 * unit),
			 "async window of %lu pages, ra_pages %lu", w->size,
			 f->ra_pages);
		FZ_CHECK(w->async_size == 1, "async window " WIN_FMT
			 " not marked on its top folio", WIN_ARGS(w));
		if (unit == 1) {
			FZ_CHECK(w->order <= f->max_order && w->order <= f->ra_order + 2,
				 "async window " WIN_FMT " after order %u",
				 WIN_ARGS(w), f->ra_order);
			/*
			 * aligned to its order as far as ra_pages allows (as
			 * page_cache_async_ra()), unless smaller than that
			 */
			unsigned long align = 1UL << w->order;

			while (f->ra_pages & (align - 1))
				align >>= 1;
			FZ_CHECK(w->start % align == 0 || w->size < align,
				 "async window " WIN_FMT " unaligned to %lu",
				 WIN_ARGS(w), align);
		} else {
			FZ_CHECK(w->order == f->thp_order, "THP order %u", w->order);
		}
	} else {
		bool stream = f->kind == RAP_MAP_SEQ ?
			      in->s.descending_seq == RAP_DESC_SEQ_STREAM :
			      in->s.descending_around == RAP_DESC_AROUND_STREAM;

		FZ_CHECK(end == f->index + 1, "descending window " WIN_FMT
			 " does not end at the fault %lu", WIN_ARGS(w), f->index);
		FZ_CHECK(w->size <= f->ra_pages, "window of %lu pages, ra_pages %lu",
			 w->size, f->ra_pages);
		/* a stream marks the page below the fault, if there is one */
		FZ_CHECK(w->async_size == (stream && w->size >= 2 ? 2 : 0),
			 "sync window " WIN_FMT " marked wrong", WIN_ARGS(w));
	}
	if (f->point != RA_POLICY_ASYNC)
		FZ_CHECK(w->start <= f->index && f->index < end,
			 "sync window " WIN_FMT " misses the fault %lu",
			 WIN_ARGS(w), f->index);
	FZ_CHECK(w->start < in->file_pages, "window starts at %lu past EOF %lu",
		 w->start, in->file_pages);
}

static void check_window(const struct input *in, const struct ra_policy_window *w,
			 unsigned int did, bool replaced)
{
	const unsigned int sized = RAP_DID_DESCENDING_THP | RAP_DID_DESCENDING_SEQ |
				   RAP_DID_DESCENDING_AROUND;

	FZ_CHECK(replaced == !!(did & ~VMA_BITS), "returned %d, decisions %#x",
		 replaced, did);
	check_bound(in, w, did);
	if (!replaced) {
		FZ_CHECK(same_window(w, &in->def), "window changed but not replaced");
		return;
	}
	FZ_CHECK(!w->order_once || (did & RAP_DID_ORDER_RAISE), "order_once without raise");
	if (did & RAP_DID_ORDER_RAISE)
		FZ_CHECK(w->order_once &&
			 (in->wide || (w->order > in->def.order &&
					w->order <= MAX_ORDER_K)),
			 "raise from %u to %u", in->def.order, w->order);
	if (!(did & sized) || in->wide)
		return;
	FZ_CHECK(w->size > 0, "empty window " WIN_FMT, WIN_ARGS(w));
	FZ_CHECK(w->start + w->size - 1 >= w->start, "window wraps " WIN_FMT,
		 WIN_ARGS(w));
	FZ_CHECK(w->async_size <= w->size, "marker outside " WIN_FMT, WIN_ARGS(w));
	FZ_CHECK(w->order <= MAX_ORDER_K, "order %u", w->order);
	check_descending(in, w, did);
}

/* sync order, pmd_hit and the A/B buckets: pure functions of their input */
static void check_small(const struct input *in)
{
	unsigned int bucket = rap_ab_bucket(in->salt, in->dev, in->ino);
	u64 salt = in->salt & ~RAP_AB_SALT_SWAP, mask = rap_ab_mask(salt, in->permille);
	unsigned int k = (in->permille * RAP_AB_BUCKETS + 500) / 1000;

	FZ_CHECK(bucket < RAP_AB_BUCKETS, "bucket %u", bucket);
	FZ_CHECK(bucket == rap_ab_bucket(in->salt, in->dev, in->ino), "bucket not deterministic");
	FZ_CHECK((unsigned int)__builtin_popcountll(mask) == k,
		 "permille %u: %d buckets in B, not %u", in->permille,
		 __builtin_popcountll(mask), k);
	FZ_CHECK(mask == rap_ab_mask(salt, in->permille), "mask not deterministic");
	FZ_CHECK(!rap_ab_mask(salt, 0), "permille 0 in B");
	FZ_CHECK(rap_ab_mask(salt, 1000) == ~0ULL, "permille 1000 in A");
	FZ_CHECK((mask & rap_ab_mask(salt, in->permille + 16)) == mask,
		 "raising the permille moved a bucket to A");
	FZ_CHECK(!rap_decide_pmd_hit(&in->s, in->eligible) ||
		 (in->eligible && in->s.pmd_hit == RAP_PMD_HIT_ON), "pmd_hit");
	if (!in->wide && in->s.sync_mmap_order != RAP_SYNC_ORDER_OFF)
		FZ_CHECK(rap_sync_order(&in->s, in->f.fault_around_pages) <= MAX_ORDER_K,
			 "sync order %u", rap_sync_order(&in->s, in->f.fault_around_pages));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz fz = { data, size };
	struct rap_cache_view view;
	struct ra_policy_window w, w2;
	unsigned int did, did2;
	bool replaced, replaced2;
	struct input in;

	decode(&fz, &in);
	view.ctx = &in.cache;
	view.has_folio = cache_has_folio;
	view.has_range = cache_has_range;
	view.mapped = NULL;
	w = in.def;
	w2 = in.def;
	replaced = rap_decide_window(&in.s, &in.f, &view, &w, &did);
	replaced2 = rap_decide_window(&in.s, &in.f, &view, &w2, &did2);
	FZ_CHECK(replaced == replaced2 && did == did2 && same_window(&w, &w2) &&
		 w.max_index == w2.max_index, "not deterministic");
	check_window(&in, &w, did, replaced);
	check_small(&in);
	return 0;
}
