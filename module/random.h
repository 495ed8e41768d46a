/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicy: random_miss, read-around that a random reader does not pay for.
 *
 * Per reader of a mapping of an open file (struct file holds mmap_miss),
 * it keeps what
 * the faults showed about the bet each read-around window is: a window pays
 * when the reader maps one of its pages before it misses elsewhere. Two
 * windows in a row that did not pay make the file random: its misses read
 * the faulting page only, and the policy takes back the mmap_miss increment
 * of each such miss, so that the kernel keeps offering windows; a hit of a
 * readahead marker reads nothing more. A run of misses at adjacent pages
 * makes it sequential again: stock read-around at once. A return that did
 * not pay doubles the run the next one needs.
 * docs/RANDOM.md has the model.
 *
 * Nothing here touches kernel state: the caller locks the set, and the
 * same file builds into the module, the KUnit suite and the host tests.
 */
#ifndef RAPOLICY_RANDOM_H
#define RAPOLICY_RANDOM_H

#include "policy.h"

#ifndef __KERNEL__
typedef unsigned int u32;
#endif

#define RAP_RANDOM_WAYS		4
#define RAP_RANDOM_SETS		64
/* Windows in a row that the reader never entered: the file is random */
#define RAP_RANDOM_WASTED	2
/* Misses at adjacent pages that make a random file sequential again */
#define RAP_RANDOM_RUN		2
/* The longest run a return may ask for after returns that did not pay */
#define RAP_RANDOM_MAX_RUN	64
/*
 * A VM_HUGEPAGE window in a random mapping is read as offered while the
 * memcg has room for it, or while its folios are used: at least one PMD
 * mapping of a cached folio per RAP_RANDOM_THP_USED misses, each a fault
 * the folio saved, measured over the last RAP_RANDOM_THP_SPAN misses or so
 */
#define RAP_RANDOM_THP_USED	4
#define RAP_RANDOM_THP_SPAN	64

/*
 * At most this many mmap_miss increments are owed back: MMAP_LOTSAMISS,
 * above which the kernel offers no window at all
 */
#define RAP_RANDOM_MAX_CREDIT	100

/*
 * mmap_miss stops counting at ten times MMAP_LOTSAMISS (do_sync_mmap_readahead());
 * so does what random_miss took off it (struct rap_random.took)
 */
#define RAP_RANDOM_MAX_TOOK	(10 * RAP_RANDOM_MAX_CREDIT)

/*
 * Which reader of which mapping of which open file: compared, never
 * dereferenced. Each task is judged on its own windows, as the stream
 * tracker follows each reader's streams: the interleaved misses of
 * several threads, each reading its own part in order, are far apart and
 * each meets windows the others read. A file closed and opened again
 * often gets the same struct file back from the slab, so the key also
 * names the mapping (its mm and start address, which address space layout
 * randomisation varies from process to process): a new reader starts with
 * no evidence, as stock does.
 */
struct rap_random_key {
	unsigned long file;	/* the struct file's address, as a number */
	unsigned long inode;	/* its inode's */
	unsigned long mm;	/* the mapping's mm_struct's */
	unsigned long start;	/* the mapping's first address */
	u32 reader;		/* the faulting task */
};

struct rap_random {
	struct rap_random_key key;
	pgoff_t last;		/* the latest miss */
	pgoff_t win_start;	/* the latest window read on a miss, */
	unsigned long win_pages;	/* its size; 0: none to judge */
	unsigned int run;	/* misses at adjacent pages, ending at @last */
	unsigned int need;	/* the run that returns to read-around */
	unsigned int wasted;	/* windows in a row that did not pay */
	unsigned int credit;	/* mmap_miss increments to take back */
	/*
	 * The increments taken back since the reader last entered a window:
	 * what stock's mmap_miss would hold above the file's
	 */
	unsigned int took;
	bool paid;		/* the reader entered the latest window */
	bool random;		/* misses read the faulting page only */
	bool returned;		/* the latest window comes from a run */
	/*
	 * VM_HUGEPAGE: PMD mappings of cached folios and misses, halved
	 * together once the misses reach RAP_RANDOM_THP_SPAN
	 */
	unsigned short pmd_hits;
	unsigned short thp_misses;
	bool used;
	u32 age;
};

struct rap_random_set {
	struct rap_random way[RAP_RANDOM_WAYS];
	u32 clock;
};

/* A readahead decision, as random_miss sees it */
struct rap_random_fault {
	enum ra_policy_point point;
	pgoff_t index;		/* the faulting page */
	/* the kernel counted this miss in mmap_miss (not VM_SEQ_READ/VM_EXEC) */
	bool counted;
	/* another policy replaced the window for a stream it recognised */
	bool replaced;
	/* a VM_HUGEPAGE mapping whose memcg has room for the window */
	bool room;
};

/* What random_miss did, for the statistics */
enum rap_random_did {
	RAP_RANDOM_DID_SHRINK	= 1 << 0,	/* read the faulting page only */
	RAP_RANDOM_DID_RETURN	= 1 << 1,	/* a run: read-around again */
	RAP_RANDOM_DID_CREDIT	= 1 << 2,	/* took back an increment */
	RAP_RANDOM_DID_MARKER	= 1 << 3,	/* a marker hit read nothing */
};

struct rap_random *rap_random_find(struct rap_random_set *set,
				   const struct rap_random_key *key,
				   bool create);
bool rap_random_decide(struct rap_random *r, const struct rap_random_fault *f,
		       struct ra_policy_window *win, unsigned int *did);
bool rap_random_hit(struct rap_random *r, pgoff_t index, bool counted,
		    unsigned int *did);
void rap_random_pmd_hit(struct rap_random *r, pgoff_t index, unsigned long nr);

#endif /* RAPOLICY_RANDOM_H */
