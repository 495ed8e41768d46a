// SPDX-License-Identifier: GPL-2.0
/*
 * Generated patterns for the stream tracker: each seeded draw picks a
 * workload from a space (readers and threads, a pool of threads taking
 * turns along one stream, direction, stride 1 to 4096 pages, run length,
 * jitter, abandoned scans, one to hundreds of files, a random reader's
 * share, B-tree-like scans whose runs go one way while the scan moves the
 * other), runs it in the fault-path model (stream_model.h) once without
 * and once with the tracker, and checks three invariants:
 *
 * 1. the tracker reads no more pages than stock, plus one largest window
 *    and one ra_pages per stream reader (the window in flight past its
 *    last touch);
 * 2. a steady stream (a strided reader or pool, no jitter, not abandoned,
 *    at least PAT_STEADY touches, in a draw of at most PAT_FEW streams
 *    over at most PAT_FEW files) costs at most PAT_MISSES misses;
 * 3. the tracker takes no more misses than stock, plus PAT_HANDOFF per
 *    stream reader (a stream's reader may miss where stock's window and
 *    the stream's meet).
 *
 *   pattern_stream [-a] [-b SETS] [-n DRAWS] [-p PAGES] [-r] [-s FIRST_SEED] [-v]
 *
 * -r: the draws under the profile best's decisions: the tracker, then
 * random_miss (module/random.c) as stream_model.h runs it; the runs of
 * many files stay the tracker's alone.
 * -b: the draws' tables grow to SETS sets at most (a power of two; 2048,
 * the module's default bound, unless given). -p: a few-file draw's files
 * have 2048 to PAGES pages (16384 unless given), so a stride-1 reader
 * walks up to PAGES pages.
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
#include "../../module/random.c"
#include "stream_model.h"

#include "pattern_gen.h"

#define PAT_BIT_MISSES	(2u << PAT_NR_CLASSES)	/* pat_check(): invariant 3 */

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

	printf("# seed %u: ra_pages %lu, %s, %u files, burst %u%s; pages read %lu (stock %lu), misses %lu (stock %lu); %lu sets after %u grows\n",
	       d->seed, d->ra_pages,
	       d->kind == RAP_MAP_SEQ ? "VM_SEQ_READ" : "read-around",
	       d->nfiles, d->burst, d->shuffle ? " shuffled" : "",
	       on->pages_read, stock->pages_read, on->misses, stock->misses,
	       pm_sets(on), on->grows);
	for (i = 0; i < d->nreaders && i < 8; i++) {
		const struct pat_reader *r = &d->r[i];

		enum pat_class c = pat_class(d, i);

		printf("#   reader %u: %s file %u (%lu pages) stride %ld run %lu left %lu jitter %u threads %u%s%s%s, class %s: misses %lu (stock %lu), pages %lu (stock %lu)\n",
		       i, pat_kind_name[r->kind], r->file, d->pages[r->file],
		       r->stride, r->run, r->left, r->jitter, r->threads,
		       r->turns ? " in turns" : "",
		       r->abandoned ? " abandoned" : "",
		       r->branch ? " branch" : "",
		       c < PAT_NR_CLASSES ? pat_class_name[c] : "none",
		       on->slot_misses[i], stock->slot_misses[i],
		       on->slot_pages[i], stock->slot_pages[i]);
	}
}

/* -r: the draws run under the profile best's decisions, random_miss too */
static bool pat_best;

struct pat_tally {
	unsigned long draws[PAT_NR_MIXES], over[PAT_NR_MIXES];
	unsigned long more_misses[PAT_NR_MIXES];
	/* the give-up estimate at read-around misses (pm_estimate()) */
	unsigned long est_same[PAT_NR_MIXES], est_over[PAT_NR_MIXES];
	unsigned long est_under[PAT_NR_MIXES];
	unsigned long steady[PAT_NR_CLASSES], missed[PAT_NR_CLASSES];
};

/*
 * The invariants of one draw. Returns a bit per failure: bit 0 pages
 * read, bit 1 + class a steady stream of that class over PAT_MISSES,
 * bit PAT_BIT_MISSES more misses than stock.
 */
static unsigned int pat_check(const struct pat_draw *d, bool verbose,
			      struct pat_tally *t)
{
	struct pm stock, on;
	unsigned long slack = 0;
	unsigned int i, bad = 0, streams = 0;

	pm_init(&stock, d->nfiles, d->pages, d->ra_pages, d->kind, false);
	pm_init(&on, d->nfiles, d->pages, d->ra_pages, d->kind, true);
	on.random_miss = pat_best;
	pat_run(d, &stock);
	on.stock_counts = stock.counts;
	pat_run(d, &on);
	t->est_same[pat_mix(d)] += on.est_same;
	t->est_over[pat_mix(d)] += on.est_over;
	t->est_under[pat_mix(d)] += on.est_under;
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
	if (on.misses > stock.misses + streams * PAT_HANDOFF) {
		bad |= PAT_BIT_MISSES;
		t->more_misses[pat_mix(d)]++;
	}
	for (i = 0; i < d->nreaders; i++) {
		const struct pat_reader *r = &d->r[i];
		enum pat_class c = pat_class(d, i);

		if (r->kind != PAT_STRIDE || r->jitter || r->abandoned ||
		    r->left < PAT_STEADY || c == PAT_NR_CLASSES)
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

/* How many of @m's first @n readers missed more than PAT_MISSES; the worst */
static unsigned long pat_over(const struct pm *m, unsigned int n,
			      unsigned long *worst)
{
	unsigned long over = 0;
	unsigned int i;

	*worst = 0;
	for (i = 0; i < n; i++) {
		over += m->slot_misses[i] > PAT_MISSES;
		if (m->slot_misses[i] > *worst)
			*worst = m->slot_misses[i];
	}
	return over;
}

/* What a draw of many files read in turn came to (pat_files()) */
struct pat_files_run {
	unsigned long steady, missed, worst;	/* steady readers, over PAT_MISSES */
	unsigned long pages, stock_pages, slack;
	unsigned long sets, grows;
};

/*
 * @nfiles files read backwards by a strided reader each, in turn
 * (pat_draw_files()), with the table bounded at 1 << @max_order sets:
 * invariant 1's pages and invariant 2's misses of every reader
 */
static void pat_files(struct pat_files_run *run, unsigned int nfiles,
		      unsigned long stride, unsigned long ra_pages,
		      enum rap_mapping_kind kind, unsigned int max_order)
{
	static struct pat_draw d;
	unsigned int saved = pm_max_order, i;
	struct pm stock, on;

	pat_draw_files(&d, nfiles, PAT_STEADY * stride, stride, ra_pages,
		       kind);
	pm_max_order = max_order;
	pm_init(&stock, d.nfiles, d.pages, d.ra_pages, d.kind, false);
	pm_init(&on, d.nfiles, d.pages, d.ra_pages, d.kind, true);
	pat_run(&d, &stock);
	pat_run(&d, &on);
	memset(run, 0, sizeof(*run));
	for (i = 0; i < d.nreaders; i++) {
		run->slack += 2 * pm_max(&on);
		if (pat_looks_dense(&d, &d.r[i]))
			run->slack += d.r[i].left * -d.r[i].stride;
	}
	run->steady = d.nreaders;
	run->missed = pat_over(&on, d.nreaders, &run->worst);
	run->pages = on.pages_read;
	run->stock_pages = stock.pages_read;
	run->sets = pm_sets(&on);
	run->grows = on.grows;
	pm_free(&stock);
	pm_free(&on);
	pm_max_order = saved;
}

/*
 * Many files read in turn: with the table free to grow (the module's
 * default bound) every steady reader meets invariant 2; bounded, the
 * table never grows past the bound; at the minimum bound it stays at
 * RAP_STREAM_SETS sets, the fixed table of before, which meets
 * invariant 1 only. Returns the tests printed.
 */
static unsigned int pat_many_files(unsigned int n, unsigned long *failed)
{
	static const struct {
		unsigned int nfiles;
		unsigned long stride, ra_pages;
		enum rap_mapping_kind kind;
	} cases[] = {
		{ 400, 64, 32, RAP_MAP_AROUND },
		{ 1024, 64, 32, RAP_MAP_AROUND },
		{ 1024, 16, 256, RAP_MAP_SEQ },
	};
	unsigned int min = ilog2(RAP_STREAM_SETS), c;
	struct pat_files_run r;
	bool ok;

	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		unsigned int nf = cases[c].nfiles;
		unsigned long st = cases[c].stride, ra = cases[c].ra_pages;
		enum rap_mapping_kind kind = cases[c].kind;
		const char *k = kind == RAP_MAP_SEQ ? "VM_SEQ_READ" :
						      "read-around";

		pat_files(&r, nf, st, ra, kind, 11);
		ok = !r.missed && r.pages <= r.stock_pages + r.slack &&
		     r.sets <= 1UL << 11;
		printf("%sok %u - patterns: %u files read backwards in turn, stride %lu, ra_pages %lu, %s, bound 2048 sets: %lu of %lu steady readers over %d misses (worst %lu), pages %lu (stock %lu + %lu), %lu sets after %lu grows\n",
		       ok ? "" : "not ", ++n, nf, st, ra, k, r.missed,
		       r.steady, PAT_MISSES, r.worst, r.pages, r.stock_pages,
		       r.slack, r.sets, r.grows);
		*failed += !ok;

		pat_files(&r, nf, st, ra, kind, min + 2);
		ok = r.sets <= 1UL << (min + 2) && r.grows <= 2 &&
		     r.pages <= r.stock_pages + r.slack;
		printf("%sok %u - patterns: the same, bound %lu sets: %lu sets after %lu grows; %lu of %lu steady readers over %d misses (worst %lu), pages %lu (stock %lu + %lu)\n",
		       ok ? "" : "not ", ++n, 1UL << (min + 2), r.sets,
		       r.grows, r.missed, r.steady, PAT_MISSES, r.worst,
		       r.pages, r.stock_pages, r.slack);
		*failed += !ok;

		pat_files(&r, nf, st, ra, kind, min);
		ok = r.sets == RAP_STREAM_SETS && !r.grows &&
		     r.pages <= r.stock_pages + r.slack;
		printf("%sok %u - patterns: the same, bound %d sets (the minimum, the fixed table of before): no grow, invariant 1: pages %lu (stock %lu + %lu); not invariant 2: %lu of %lu steady readers over %d misses (worst %lu)\n",
		       ok ? "" : "not ", ++n, RAP_STREAM_SETS, r.pages,
		       r.stock_pages, r.slack, r.missed, r.steady, PAT_MISSES,
		       r.worst);
		*failed += !ok;
	}
	return n;
}

/*
 * Many files read in turn with the clock running (ms a touch) and the
 * module's shrink checks: every steady reader meets invariant 2, and once
 * the files stop the table halves at each check back to RAP_STREAM_SETS
 * sets, once per grow. A strided reader at a stride of 64 pages hears from
 * the tracker at every touch, so within RAP_STREAM_REAP_MS while a turn
 * of all files takes less (400 ms to 1.6 s here): its table never halves
 * while they are read. A dense VM_SEQ_READ reader at a stride of 16 pages
 * in windows of 256 hears from it once in 16 turns (16 s at 1 ms a touch):
 * its streams are idle in between, and the table may halve under them.
 * Returns the tests printed.
 */
static unsigned int pat_files_idle(unsigned int n, unsigned long *failed)
{
	static const struct {
		unsigned int nfiles;
		unsigned long stride, ra_pages;
		enum rap_mapping_kind kind;
		u32 ms;
		bool live;	/* each file heard from within RAP_STREAM_REAP_MS */
	} cases[] = {
		{ 400, 64, 32, RAP_MAP_AROUND, 1, true },
		{ 400, 64, 32, RAP_MAP_AROUND, 4, true },
		{ 1024, 64, 32, RAP_MAP_AROUND, 1, true },
		{ 1024, 16, 256, RAP_MAP_SEQ, 1, false },
	};
	static struct pat_draw d;
	unsigned int c, live_shrinks;
	unsigned long missed, worst, grown;
	struct pm on;
	bool ok;

	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		pat_draw_files(&d, cases[c].nfiles,
			       PAT_STEADY * cases[c].stride, cases[c].stride,
			       cases[c].ra_pages, cases[c].kind);
		pm_ms_per_touch = cases[c].ms;
		pm_init(&on, d.nfiles, d.pages, d.ra_pages, d.kind, true);
		pm_ms_per_touch = 0;
		pat_run(&d, &on);
		missed = pat_over(&on, d.nreaders, &worst);
		live_shrinks = on.shrinks;
		grown = pm_sets(&on);
		pm_idle(&on, RAP_STREAM_REAP_MS * (on.grows + 2));
		ok = !missed && on.grows && pm_sets(&on) == RAP_STREAM_SETS &&
		     (cases[c].live ? !live_shrinks && on.shrinks == on.grows :
				      on.shrinks >= on.grows);
		printf("%sok %u - patterns: %u files read backwards in turn, stride %lu, %s, %u ms a touch: %lu sets after %u grows, %u halvings while read%s (%lu of %u steady readers over %d misses, worst %lu); once they stop, %lu sets after %u halvings\n",
		       ok ? "" : "not ", ++n, cases[c].nfiles, cases[c].stride,
		       cases[c].kind == RAP_MAP_SEQ ? "VM_SEQ_READ" :
						      "read-around",
		       cases[c].ms, grown, on.grows, live_shrinks,
		       cases[c].live ? "" : " (idle between windows)", missed,
		       d.nreaders, PAT_MISSES, worst, pm_sets(&on),
		       on.shrinks);
		*failed += !ok;
		pm_free(&on);
	}
	return n;
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
 * which evicted it when a stream with a marker out was not held; then
 * jittered strides that read more than stock when a miss beside the
 * cached, untouched pages of a window turned a confirmed strided stream
 * dense (docs/STREAMS.md, "Detection"); 15535, a jittered stride
 * restarting its stream, each new one reading stock's window around its
 * touches from a count of its own, when stock's give-up counted the
 * stream's windows and not the file's; 13382, a random reader beside two
 * strided readers of its file, which read 8590 pages against stock's
 * 1175 until a miss beside a stream's marker went to that stream,
 * whoever's it was (the jitter match ranked with the stride match: 2768);
 * 4077, a jittered pool of four beside a random reader that mapped blocks
 * in the pool's stride, which read 10908 pages against stock's 4387 while
 * a jitter match needed an untouched stride (now: a stride not walked,
 * 4062); 22332, a VM_SEQ_READ stride of 40 beside a random reader, whose
 * stream read spans from a miss with another reader's window cached
 * behind it (12960 pages against stock's 10571; 10540); then draws that
 * read more than stock until a dense span's marker was a fault-around
 * block (25579, 49294, 53656, 59628, 72281: a random reader beside a
 * stride, whose touches hit the order-9 marked folios of spans), and
 * until a forward read-around span stopped at stock's estimated give-up
 * (78565: strides of 5 and 8 beside a random reader); then draws whose
 * dense streams read twice a miss distance their readers never walked
 * (21339, a jittered VM_SEQ_READ stride beside another stream: 14305
 * pages against stock's 9194; 25246, a jittered pool beside a random
 * reader: 8117 against 4005; 70957, a random reader beside a stride:
 * 7157 against 4356); 3181, files of up to 262144 pages, a random reader
 * beside a stride of 350 at read_ahead_kb 1024, whose misses take the
 * strided stream's way, which read 58133 pages against stock's 33261 while
 * a stream taking an evicted one's way of the same file started its count
 * towards stock's give-up from zero (30524 with the count passed on).
 * Under best (-r) only: the draws of 100000 that the tracker alone reads
 * more than stock plus its slack in, strided readers beside a random
 * reader of their file (37213 jittered), whose random reader random_miss
 * reads the faulting page of; the 7.3 and 6.12 guests run them too
 * (tests/guest/patterns.sh, BEST_SEEDS). Every pinned draw meets
 * invariant 1, whatever its class.
 */
static const struct {
	u32 seed;
	unsigned long pages;	/* files of up to this many pages */
	bool best;		/* pinned under best only */
} pat_pinned[] = {
	{ 19767, 16384, false }, { 2866, 16384, false }, { 3461, 16384, false },
	{ 4792, 16384, false }, { 6021, 16384, false }, { 6314, 16384, false },
	{ 9152, 16384, false }, { 9564, 16384, false }, { 17705, 16384, false },
	{ 22047, 16384, false }, { 24314, 16384, false },
	{ 24637, 16384, false }, { 25846, 16384, false },
	{ 15535, 16384, false }, { 13382, 16384, false },
	{ 4077, 16384, false }, { 22332, 16384, false },
	{ 25579, 16384, false }, { 49294, 16384, false },
	{ 53656, 16384, false }, { 59628, 16384, false },
	{ 72281, 16384, false }, { 78565, 16384, false },
	{ 21339, 16384, false }, { 25246, 16384, false },
	{ 70957, 16384, false }, { 3181, 262144, false },
	{ 11091, 16384, true }, { 23841, 16384, true }, { 86375, 16384, true },
	{ 37213, 16384, true }
};

int main(int argc, char **argv)
{
	unsigned long draws = 2000, i, failed = 0, pinned = 0, pinned_over = 0;
	bool all = false, verbose = false, claimed;
	struct pat_tally t = { 0 };
	unsigned int c, n = 0;
	struct pat_draw d;
	char what[160];
	u32 first = 1;
	int opt;

	while ((opt = getopt(argc, argv, "ab:n:p:rs:v")) != -1) {
		switch (opt) {
		case 'a':
			all = true;
			break;
		case 'b':
			pm_max_order = ilog2(strtoul(optarg, NULL, 0) ?: 1);
			break;
		case 'n':
			draws = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			pat_max_pages = strtoul(optarg, NULL, 0);
			if (pat_max_pages < 2048)
				pat_max_pages = 2048;
			break;
		case 'r':
			pat_best = true;
			break;
		case 's':
			first = (u32)strtoul(optarg, NULL, 0);
			break;
		case 'v':
			verbose = true;
			break;
		default:
			fprintf(stderr, "usage: %s [-a] [-b SETS] [-n DRAWS] [-p PAGES] [-r] [-s FIRST_SEED] [-v]\n",
				argv[0]);
			return 2;
		}
	}
	printf("TAP version 13\n");
	for (i = 0; i < draws + ARRAY_SIZE(pat_pinned); i++) {
		unsigned long pages = pat_max_pages;
		unsigned int bad;

		/* a pinned draw as it failed, at its files' size */
		if (i < ARRAY_SIZE(pat_pinned)) {
			if (pat_pinned[i].best && !pat_best)
				continue;
			pinned++;
			pat_max_pages = pat_pinned[i].pages;
		}
		pat_draw(&d, i < ARRAY_SIZE(pat_pinned) ? pat_pinned[i].seed :
			 first + (u32)(i - ARRAY_SIZE(pat_pinned)));
		pat_max_pages = pages;
		bad = pat_check(&d, verbose, &t);
		if (i < ARRAY_SIZE(pat_pinned) && bad & 1) {
			pinned_over++;
			printf("# pinned seed %u: read more than stock + slack; replay: pattern_stream%s -n 1 -s %u -p %lu -v\n",
			       d.seed, pat_best ? " -r" : "", d.seed,
			       pat_pinned[i].pages);
		}
		if (!bad || verbose)
			continue;
		if (bad & 1 && (all || pat_mix(&d) == PAT_PLAIN))
			printf("# seed %u: read more than stock + slack; replay: pattern_stream -n 1 -s %u -v\n",
			       d.seed, d.seed);
		if (bad & PAT_BIT_MISSES && all)
			printf("# seed %u: more misses than stock + %d a stream; replay: pattern_stream -n 1 -s %u -v\n",
			       d.seed, PAT_HANDOFF, d.seed);
		for (c = 0; c < PAT_NR_CLASSES; c++)
			if (bad & 2 << c &&
			    (all || c == PAT_ALONE || c == PAT_MANY_FILES))
				printf("# seed %u: a steady stream %s missed more than %d times; replay: pattern_stream -n 1 -s %u -v\n",
				       d.seed, pat_class_name[c], PAT_MISSES,
				       d.seed);
	}
	printf("# %lu draws from seed %u, files of up to %lu pages, and %lu pinned, under %s\n",
	       draws, first, pat_max_pages, pinned,
	       pat_best ? "the profile best (the tracker, then random_miss)" :
			  "the tracker alone");
	printf("%sok %u - patterns: pinned draws read no more than stock, two largest windows a stream and a dense-looking reader's span: %lu of %lu failed\n",
	       pinned_over ? "not " : "", ++n, pinned_over, pinned);
	failed += pinned_over;
	for (c = 0; c < PAT_NR_MIXES; c++) {
		snprintf(what, sizeof(what),
			 "no more pages read than stock, two largest windows a stream and a dense-looking reader's span, %s",
			 pat_mix_name[c]);
		n = pat_report(n, all || c == PAT_PLAIN, t.over[c],
			       t.draws[c], what);
		failed += (all || c == PAT_PLAIN) ? t.over[c] : 0;
	}
	for (c = 0; c < PAT_NR_MIXES; c++) {
		snprintf(what, sizeof(what),
			 "no more misses than stock, %d a stream reader, %s",
			 PAT_HANDOFF, pat_mix_name[c]);
		n = pat_report(n, all, t.more_misses[c], t.draws[c], what);
		failed += all ? t.more_misses[c] : 0;
	}
	for (c = 0; c < PAT_NR_CLASSES; c++) {
		snprintf(what, sizeof(what),
			 "steady streams %s cost at most %d misses",
			 pat_class_name[c], PAT_MISSES);
		claimed = all || c == PAT_ALONE || c == PAT_MANY_FILES;
		n = pat_report(n, claimed, t.missed[c], t.steady[c], what);
		failed += claimed ? t.missed[c] : 0;
	}
	for (c = 0; c < PAT_NR_MIXES; c++)
		printf("# give-up estimate at read-around misses, %s: on stock's side of MMAP_LOTSAMISS at %lu, over at %lu, under at %lu\n",
		       pat_mix_name[c], t.est_same[c], t.est_over[c],
		       t.est_under[c]);
	n = pat_many_files(n, &failed);
	n = pat_files_idle(n, &failed);
	printf("1..%u\n", n);
	return !!failed;
}
