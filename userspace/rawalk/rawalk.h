/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawalk: the workload runner of rapolicy.
 *
 * rawalk_parse.c holds everything that needs no system: option, pattern
 * and advice parsing, the PRNG and the random page choice, the smaps,
 * block-device stat and mountinfo parsers, and the report printer.  The
 * host unit tests (tests/test_rawalk.c) call those directly.
 * rawalk_run.c does the work: create files, drop the cache, set
 * read_ahead_kb, join a memcg, map, walk and measure.
 */
#ifndef RAPOLICY_RAWALK_H
#define RAPOLICY_RAWALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes */
#define RAWALK_OK	0
#define RAWALK_ERR	1	/* runtime error */
#define RAWALK_USAGE	2	/* bad command line */

enum pattern_kind {
	PAT_REVERSE,
	PAT_FORWARD,
	PAT_STRIDE,	/* arg: stride in pages, >= 1 */
	PAT_RANDOM,	/* arg: percent of pages in millionths of a percent */
	PAT_VMASPLIT,	/* arg: number of VMAs, >= 1 */
	PAT_MEMCPY,
	PAT_MEMCPY_FORWARD,
};

/* random:P is kept as P * RANDOM_PCT_SCALE, so P has 6 decimals at most */
#define RANDOM_PCT_SCALE	1000000ULL
#define RANDOM_PCT_MAX		(100 * RANDOM_PCT_SCALE)

struct pattern {
	enum pattern_kind kind;
	uint64_t arg;
};

enum advice {
	ADV_NORMAL,
	ADV_HUGE,
	ADV_SEQ,
	ADV_RANDOM,
	ADV_WILLNEED,
};

enum rawalk_action {
	ACT_RUN,
	ACT_CREATE,
	ACT_HELP,
	ACT_VERSION,
};

struct rawalk_opts {
	enum rawalk_action action;
	struct pattern pattern;
	enum advice advice;
	bool cold;
	bool json;
	bool force;
	bool folio_orders;		/* --folio-orders */
	uint64_t seed;
	int64_t read_ahead_kb;		/* -1: leave alone */
	uint64_t memcg_limit;		/* 0: no memcg */
	uint64_t create_size;		/* ACT_CREATE */
	unsigned int repeat;		/* --repeat: walks (default 1) */
	unsigned int jobs;		/* --jobs: threads on one mapping */
	const char *file;
};

/* Sets the defaults: reverse, normal, cold, seed 1, text. */
void rawalk_opts_init(struct rawalk_opts *o);

/*
 * Parse argv.  Returns RAWALK_OK, or RAWALK_USAGE with a message (without
 * the program name) in err.
 */
int rawalk_parse_args(int argc, char **argv, struct rawalk_opts *o,
		      char *err, size_t errlen);

/* "reverse", "stride:64", "random:0.5", ...  Returns 0 or -EINVAL with err. */
int parse_pattern(const char *s, struct pattern *p, char *err, size_t errlen);
/* Canonical name of a pattern, e.g. "random:0.5".  Returns buf. */
char *format_pattern(const struct pattern *p, char *buf, size_t len);

/* "normal", "huge", "seq", "random", "willneed" (and a few aliases). */
int parse_advice(const char *s, enum advice *a);
const char *advice_name(enum advice a);

/*
 * A decimal percentage with up to 6 decimals, "1", "0.5", "12.345678"
 * is not allowed (7 decimals).  *out is the value times RANDOM_PCT_SCALE.
 * Returns 0 or -EINVAL / -ERANGE.  The range (0, 100] is the caller's.
 */
int parse_percent(const char *s, uint64_t *out);

/* splitmix64: small, fast, good enough, and the same on every libc. */
struct rng {
	uint64_t state;
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, bound), bound > 0, without modulo bias. */
uint64_t rng_below(struct rng *r, uint64_t bound);

/* How many pages random:P touches: P% of npages, rounded, at least 1. */
uint64_t random_page_count(uint64_t npages, uint64_t pct_scaled);
/*
 * k distinct page indexes below npages, chosen by seed, in random order
 * (Floyd's sampling over a bitmap, then a Fisher-Yates shuffle).
 * Returns a malloc'ed array of k entries, or NULL (ENOMEM, or k > npages).
 */
uint64_t *random_pages(uint64_t npages, uint64_t k, uint64_t seed);

/* Sums over the smaps entries of the VMAs that intersect [lo, hi). */
struct smaps_sum {
	uint64_t rss_kb;
	uint64_t file_pmd_mapped_kb;
	uint64_t vmas;
};

/* Parse /proc/PID/smaps text.  Returns 0, or -EINVAL on malformed text. */
int parse_smaps(const char *text, uintptr_t lo, uintptr_t hi,
		struct smaps_sum *out);

/* Fields 1 and 3 of /sys/dev/block/MAJ:MIN/stat. */
struct blkstat {
	uint64_t ios_read;
	uint64_t sectors_read;
};

/* Returns 0, or -EINVAL if the text has fewer than 3 numeric fields. */
int parse_blkstat(const char *text, struct blkstat *out);

/*
 * Find a cgroup2 mount point in /proc/self/mountinfo text: /sys/fs/cgroup
 * when it is cgroup2, else the first cgroup2 mount.  Returns 0 or -ENOENT.
 */
int find_cgroup2_mount(const char *mountinfo, char *out, size_t len);

/* The "0::/path" line of /proc/self/cgroup.  Returns 0 or -ENOENT. */
int find_cgroup2_path(const char *proc_cgroup, char *out, size_t len);

/*
 * --folio-orders: the folios behind the mapped pages of the file mapping,
 * counted once each by order.  The order comes from /proc/kpageflags
 * (a head page and the tail pages after it) at the PFNs that
 * /proc/self/pagemap gives for the mapped pages.
 */
#define FOLIO_ORDERS		21	/* orders 0..20 */

/* Bits of /proc/self/pagemap and /proc/kpageflags entries */
#define PM_PRESENT		(1ULL << 63)
#define PM_PFN_MASK		((1ULL << 55) - 1)
#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16
#define KPF_THP			22

struct folio_orders {
	uint64_t folios[FOLIO_ORDERS];	/* distinct folios of each order */
	uint64_t pages_mapped;		/* present pagemap entries */
};

/*
 * Reads the /proc/kpageflags words of n PFNs from pfn on into out.
 * Returns how many it read (fewer at the end of memory), or -errno.
 */
typedef long (*kpageflags_read_fn)(void *ctx, uint64_t pfn, uint64_t *out,
				   size_t n);

/*
 * Count the folios behind npages pagemap entries (one per page of a
 * mapping, in address order).  A page whose kpageflags word has neither
 * KPF_COMPOUND_HEAD nor KPF_COMPOUND_TAIL is an order-0 folio; otherwise
 * the folio runs from its head page through the tail pages after it and
 * must have 2^order pages and KPF_THP (a large page-cache folio).
 * Returns 0; -EPERM if a present entry has PFN 0 (pagemap hides PFNs
 * without CAP_SYS_ADMIN); -EINVAL for flags that make no folio (a tail
 * without a head, a size that is no power of two, a large folio without
 * KPF_THP, an order of FOLIO_ORDERS or more); or an error of read().
 */
int count_folio_orders(const uint64_t *pagemap, size_t npages,
		       kpageflags_read_fn read, void *ctx,
		       struct folio_orders *out);

/*
 * "0:12 4:3 9:1": order:folios for every order with folios, ascending;
 * "none" if there are none.  Returns buf.
 */
char *format_folio_orders(const struct folio_orders *h, char *buf,
			  size_t len);

struct report {
	const char *file;
	struct pattern pattern;
	enum advice advice;
	bool cold;
	uint64_t seed;
	uint64_t file_bytes;
	uint64_t pages_touched;
	uint64_t major_faults;
	uint64_t minor_faults;
	int64_t sectors_read;		/* -1: no block device stat */
	int64_t ios_read;		/* -1: no block device stat */
	uint64_t file_pmd_mapped_kb;
	uint64_t rss_kb;
	uint64_t file_vmas;
	uint64_t pages_cached_before;
	bool cached_known;		/* mincore() could be trusted */
	int64_t read_bytes;		/* /proc/self/io; -1: none */
	int64_t read_ahead_kb;		/* -1: no block device queue */
	int64_t memcg_limit_bytes;	/* -1: no memcg */
	double wall_ms;
	double cpu_ms;			/* user + system time, getrusage() */
	bool has_folio_orders;		/* --folio-orders: print it */
	struct folio_orders folio_orders;
	bool complete;			/* the walk was measured: print it */
	/* --repeat: over the walks, min and median */
	unsigned int repeat;
	double wall_ms_min, wall_ms_median;
	double cpu_ms_min, cpu_ms_median;
	uint64_t major_faults_min, major_faults_median;
	int64_t read_bytes_min, read_bytes_median;
};

/* Fill r (one of the walks) with min and median over rs[0..n) */
void report_summarise(struct report *r, const struct report *rs, unsigned int n);

/* One "key: value" per line, or one JSON object on one line. */
void report_print(FILE *f, const struct report *r, bool json);

void rawalk_usage(FILE *f);

/* rawalk_run.c */
int rawalk_create(const struct rawalk_opts *o);
int rawalk_run(const struct rawalk_opts *o, struct report *r);

#endif /* RAPOLICY_RAWALK_H */
