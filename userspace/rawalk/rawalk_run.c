// SPDX-License-Identifier: GPL-2.0
/*
 * rawalk: create test files, prepare the page cache and the block device,
 * map a file, walk it and measure the walk.
 *
 * Order of a run, and why:
 *  1. open FILE, check it is a non-empty regular file, find its device;
 *  2. join the memcg (--memcg-limit), so every page the walk reads is
 *     charged to it;
 *  3. set read_ahead_kb (--read-ahead-kb);
 *  4. drop the page cache (--cold) and count what is cached;
 *  5. open FILE again: a struct file copies the device's read_ahead_kb
 *     into its readahead state (file->f_ra.ra_pages) at open, so only a
 *     file opened after step 3 sees the new value; the fresh open also
 *     starts with clean readahead state (mmap_miss 0);
 *  6. map it the way the pattern wants (untimed);
 *  7. snapshot, madvise(), walk, snapshot: faults, I/O and wall time
 *     cover only this;
 *  8. read /proc/self/smaps (and, with --folio-orders, the pagemap and
 *     kpageflags) while the mapping still exists, unmap;
 *  9. undo 3 and 2.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "pagecache.h"
#include "rawalk.h"
#include "util.h"

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif
#ifndef RAMFS_MAGIC
#define RAMFS_MAGIC 0x858458f6
#endif

/* Room for rawalk's own memory beside the memcpy buffer in a memcg. */
#define MEMCPY_MEMCG_SLACK	(16UL << 20)

/* Mappings start on a PMD boundary so a 2 MiB folio can be PMD-mapped. */
#define MAP_ALIGN	(2UL << 20)

static void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Messages name files and options as given: escaped (fputs_esc()) */
static void err_msg(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fputs("rawalk: ", stderr);
	fputs_esc(buf, stderr);
	fputc('\n', stderr);
}

/* ---------------------------------------------------------------------
 * Undo state.  The signal handler uses it too, so it holds only
 * preformatted strings, and the handler only open/write/close/rmdir.
 */
static struct {
	volatile sig_atomic_t ra_armed;
	char ra_path[PATH_MAX];
	char ra_old[32];
	volatile sig_atomic_t memcg_armed;
	char memcg_dir[1280];
	char memcg_back[2304];		/* cgroup.procs to return to */
	char pid[24];
} undo;

static void write_raw(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, s, strlen(s)) < 0) {
			/* nothing more to do in a signal handler */
		}
		close(fd);
	}
}

static void undo_signal(int sig)
{
	if (undo.ra_armed)
		write_raw(undo.ra_path, undo.ra_old);
	if (undo.memcg_armed) {
		write_raw(undo.memcg_back, undo.pid);
		rmdir(undo.memcg_dir);
	}
	/* SA_RESETHAND restored the default action: die of the signal */
	raise(sig);
}

static const int undo_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static struct sigaction saved_actions[4];

static void undo_handlers_install(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = undo_signal;
	sa.sa_flags = SA_RESETHAND;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < 4; i++)
		sigaction(undo_signals[i], &sa, &saved_actions[i]);
}

static void undo_handlers_remove(void)
{
	size_t i;

	for (i = 0; i < 4; i++)
		sigaction(undo_signals[i], &saved_actions[i], NULL);
}

/* ---------------------------------------------------------------------
 * The block device under the file.
 */
struct devinfo {
	unsigned int maj, min;
	bool has_stat;
	bool has_queue;
	char stat_path[96];
	char ra_path[128];
};

static void devinfo_find(dev_t dev, struct devinfo *d)
{
	char part[96];

	memset(d, 0, sizeof(*d));
	d->maj = major(dev);
	d->min = minor(dev);
	if (d->maj == 0)	/* anonymous: tmpfs, overlayfs, btrfs, NFS */
		return;
	snprintf(d->stat_path, sizeof(d->stat_path), "/sys/dev/block/%u:%u/stat",
		 d->maj, d->min);
	d->has_stat = access(d->stat_path, R_OK) == 0;
	/* a partition has no queue/: use its disk's, one level up */
	snprintf(part, sizeof(part), "/sys/dev/block/%u:%u/partition", d->maj,
		 d->min);
	snprintf(d->ra_path, sizeof(d->ra_path),
		 access(part, F_OK) == 0 ?
		 "/sys/dev/block/%u:%u/../queue/read_ahead_kb" :
		 "/sys/dev/block/%u:%u/queue/read_ahead_kb", d->maj, d->min);
	d->has_queue = access(d->ra_path, R_OK) == 0;
}

static int64_t ra_read(const struct devinfo *d)
{
	char buf[32];
	uint64_t v;

	if (!d->has_queue || read_small_file(d->ra_path, buf, sizeof(buf)) < 0 ||
	    parse_u64(buf, &v))
		return -1;
	return (int64_t)v;
}

static int ra_set(const struct devinfo *d, const char *file, int64_t kb)
{
	char val[32];
	int ret;

	if (!d->has_queue) {
		err_msg("--read-ahead-kb: %s is not on a block device with a request queue (st_dev %u:%u; tmpfs, overlayfs, btrfs and NFS have none)",
			file, d->maj, d->min);
		return -1;
	}
	ret = read_small_file(d->ra_path, undo.ra_old, sizeof(undo.ra_old));
	if (ret < 0) {
		err_msg("cannot read %s: %s", d->ra_path, strerror(-ret));
		return -1;
	}
	snprintf(undo.ra_path, sizeof(undo.ra_path), "%s", d->ra_path);
	snprintf(val, sizeof(val), "%" PRId64, kb);
	undo.ra_armed = 1;
	ret = write_file_str(d->ra_path, val);
	if (ret) {
		undo.ra_armed = 0;
		err_msg("cannot set read_ahead_kb: write %s to %s: %s", val,
			d->ra_path, strerror(-ret));
		return -1;
	}
	return 0;
}

static int ra_restore(void)
{
	int ret;

	if (!undo.ra_armed)
		return 0;
	ret = write_file_str(undo.ra_path, undo.ra_old);
	undo.ra_armed = 0;
	if (ret) {
		err_msg("cannot restore read_ahead_kb: write %s to %s: %s",
			undo.ra_old, undo.ra_path, strerror(-ret));
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------------
 * The memory cgroup.
 */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0' ||
						     p[n] == '\n'))
			return true;
		p += n;
	}
	return false;
}

static int memcg_enter(uint64_t limit)
{
	char mnt[1024], self[1024], path[2560], buf[512];
	char val[32];
	char *text;
	int ret;

	text = read_file("/proc/self/mountinfo", NULL);
	if (!text) {
		err_msg("--memcg-limit: cannot read /proc/self/mountinfo: %s (is /proc mounted?)",
			strerror(errno));
		return -1;
	}
	ret = find_cgroup2_mount(text, mnt, sizeof(mnt));
	free(text);
	if (ret) {
		err_msg("--memcg-limit: no cgroup2 file system is mounted (mount -t cgroup2 none /sys/fs/cgroup)");
		return -1;
	}

	snprintf(path, sizeof(path), "%s/cgroup.controllers", mnt);
	ret = read_small_file(path, buf, sizeof(buf));
	if (ret < 0) {
		err_msg("--memcg-limit: cannot read %s: %s", path, strerror(-ret));
		return -1;
	}
	if (!has_word(buf, "memory")) {
		err_msg("--memcg-limit: the memory controller is not available in the cgroup2 hierarchy at %s (kernel without CONFIG_MEMCG, or memory bound to a cgroup v1 hierarchy); available: '%s'",
			mnt, buf);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", mnt);
	ret = read_small_file(path, buf, sizeof(buf));
	if (ret >= 0 && !has_word(buf, "memory"))
		ret = write_file_str(path, "+memory");
	if (ret < 0) {
		err_msg("--memcg-limit: cannot enable the memory controller: write +memory to %s: %s",
			path, strerror(-ret));
		return -1;
	}

	/* where to go back to */
	text = read_file("/proc/self/cgroup", NULL);
	if (!text || find_cgroup2_path(text, self, sizeof(self)))
		snprintf(self, sizeof(self), "/");
	free(text);
	snprintf(undo.memcg_back, sizeof(undo.memcg_back), "%s%s/cgroup.procs",
		 mnt, strcmp(self, "/") ? self : "");
	snprintf(undo.pid, sizeof(undo.pid), "%ld", (long)getpid());

	snprintf(undo.memcg_dir, sizeof(undo.memcg_dir), "%s/rawalk.%ld", mnt,
		 (long)getpid());
	ret = mkdir(undo.memcg_dir, 0755);
	if (ret && errno == EEXIST) {
		/* left over by a killed run that had our pid */
		rmdir(undo.memcg_dir);
		ret = mkdir(undo.memcg_dir, 0755);
	}
	if (ret) {
		err_msg("--memcg-limit: cannot create %s: %s", undo.memcg_dir,
			strerror(errno));
		return -1;
	}
	undo.memcg_armed = 1;

	snprintf(path, sizeof(path), "%s/memory.max", undo.memcg_dir);
	snprintf(val, sizeof(val), "%" PRIu64, limit);
	ret = write_file_str(path, val);
	if (ret) {
		err_msg("--memcg-limit: write %s to %s: %s", val, path,
			strerror(-ret));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/cgroup.procs", undo.memcg_dir);
	ret = write_file_str(path, undo.pid);
	if (ret) {
		err_msg("--memcg-limit: cannot move into %s: %s", undo.memcg_dir,
			strerror(-ret));
		return -1;
	}
	return 0;
}

static int memcg_leave(void)
{
	int ret, i;

	if (!undo.memcg_armed)
		return 0;
	undo.memcg_armed = 0;
	ret = write_file_str(undo.memcg_back, undo.pid);
	if (ret && ret != -ENOENT)
		err_msg("--memcg-limit: cannot move back to %s: %s",
			undo.memcg_back, strerror(-ret));
	/* the cgroup may take a moment to notice it has no task left */
	for (i = 0; i < 100; i++) {
		if (!rmdir(undo.memcg_dir) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		usleep(10000);
	}
	err_msg("--memcg-limit: cannot remove %s: %s", undo.memcg_dir,
		strerror(errno));
	return -1;
}

/* ---------------------------------------------------------------------
 * The page cache.
 */
static const char *advise_hint(int err)
{
	return err == ENOSYS ?
		" (the kernel has no madvise()/fadvise(): CONFIG_ADVISE_SYSCALLS is off, as in tinyconfig, and every hint would silently do nothing)" :
		"";
}

/*
 * mincore() tells the page cache's truth only to a caller who owns the
 * file or may write it (or has CAP_FOWNER); anyone else sees every page
 * as resident (mm/mincore.c, can_do_mincore(), since 134fca9063ad).
 */
static bool mincore_trusted(const char *file, const struct stat *st)
{
	return geteuid() == 0 || geteuid() == st->st_uid ||
	       !faccessat(AT_FDCWD, file, W_OK, AT_EACCESS);
}

/*
 * Drop the file's page cache for --cold (lib/pagecache.c: reads in flight
 * are waited for); with @verify, fail when pages stay.
 */
static int drop_cache(int fd, const char *file, size_t size, size_t ps,
		      bool verify)
{
	uint64_t npages = (size + ps - 1) / ps, cached = 0;
	const char *what = "";
	struct statfs sfs;
	int err;

	if (!verify) {
		/* DONTNEED skips dirty pages: write them back first */
		if (fdatasync(fd) && errno != EINVAL && errno != EROFS) {
			err_msg("fdatasync %s: %s", file, strerror(errno));
			return -1;
		}
		err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		if (err)
			err_msg("posix_fadvise(POSIX_FADV_DONTNEED) on %s: %s%s",
				file, strerror(err), advise_hint(err));
		return err ? -1 : 0;	/* the walk's read_bytes shows the truth */
	}
	err = pc_drop(fd, npages, &cached, &what);
	if (err) {
		err_msg("--cold: %s on %s: %s%s", what, file, strerror(-err),
			advise_hint(-err));
		return -1;
	}
	if (!cached)
		return 0;
	if (!fstatfs(fd, &sfs) && ((unsigned long)sfs.f_type == TMPFS_MAGIC ||
				   (unsigned long)sfs.f_type == RAMFS_MAGIC)) {
		err_msg("--cold: %s is on tmpfs/ramfs, whose page cache is the file itself: %" PRIu64 " of %" PRIu64 " pages stay cached; use --warm",
			file, cached, npages);
	} else {
		err_msg("--cold: %" PRIu64 " of %" PRIu64 " pages of %s are still in the page cache after POSIX_FADV_DONTNEED (dirty or mapped by another process?; a caller who neither owns the file nor may write it sees every page as cached)",
			cached, npages, file);
	}
	return -1;
}

/* ---------------------------------------------------------------------
 * Mapping and walking.
 */
struct walk {
	int fd;
	size_t size;		/* file bytes */
	size_t len;		/* file bytes rounded up to pages */
	size_t ps;
	uint64_t npages;
	char *map;		/* the file mapping */
	char *region;		/* what to munmap */
	size_t region_len;
	char *dst;		/* memcpy destination */
	uint64_t *pages;	/* random page order */
	uint64_t npick;
};

/* A PROT_NONE reservation of len bytes starting on a MAP_ALIGN boundary. */
static char *reserve_aligned(size_t len)
{
	size_t head, tail;
	uintptr_t a;
	char *p;

	p = mmap(NULL, len + MAP_ALIGN, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	a = round_up_pow2((uintptr_t)p, MAP_ALIGN);
	head = a - (uintptr_t)p;
	tail = MAP_ALIGN - head;
	if (head)
		munmap(p, head);
	if (tail)
		munmap((char *)a + len, tail);
	return (char *)a;
}

/*
 * Map the file on a MAP_ALIGN boundary with @before bytes of address space
 * reserved below it (a multiple of MAP_ALIGN) and @after bytes above it.
 */
static int map_file(struct walk *w, size_t before, size_t after)
{
	void *p;

	w->region_len = before + w->len + after;
	w->region = reserve_aligned(w->region_len);
	if (!w->region) {
		err_msg("cannot reserve %zu bytes of address space: %s",
			w->region_len, strerror(errno));
		return -1;
	}
	p = mmap(w->region + before, w->size, PROT_READ,
		 MAP_PRIVATE | MAP_FIXED, w->fd, 0);
	if (p == MAP_FAILED) {
		err_msg("mmap: %s", strerror(errno));
		return -1;
	}
	w->map = p;
	return 0;
}

/*
 * vmasplit:K (seed 002): K segments of len/K bytes (rounded up to pages);
 * every other one, starting with the second, becomes PROT_READ|PROT_WRITE
 * (allowed on a MAP_PRIVATE mapping of a read-only file), so no two
 * neighbours can merge and the mapping is K VMAs.
 */
static int setup_vmasplit(struct walk *w, uint64_t k, const char *file)
{
	size_t seg, off, n;

	if (k > w->npages) {
		err_msg("vmasplit:%" PRIu64 ": %s has only %" PRIu64 " pages, so at most vmasplit:%" PRIu64,
			k, file, w->npages, w->npages);
		return RAWALK_USAGE;
	}
	if (map_file(w, 0, 0))
		return RAWALK_ERR;
	seg = round_up_pow2((w->len + k - 1) / k, w->ps);
	for (off = seg; off < w->len; off += 2 * seg) {
		n = w->len - off < seg ? w->len - off : seg;
		if (mprotect(w->map + off, n, PROT_READ | PROT_WRITE)) {
			err_msg("mprotect: %s (vm.max_map_count too low for vmasplit:%" PRIu64 "?)",
				strerror(errno), k);
			return RAWALK_ERR;
		}
	}
	return RAWALK_OK;
}

/*
 * memcpy: the LLM loader of seed 000, which copies weights out of a file
 * mapping with glibc memcpy()/memmove() into a buffer that lies above it.
 *
 * glibc copies backwards only sometimes when the buffers do not overlap:
 * x86-64 __memmove_*_unaligned_erms takes its backward loop for
 * "4k-aliased" buffers below the non-temporal threshold, but copies
 * forwards with non-temporal stores above it (a few MiB under QEMU, more
 * on big-cache hosts), so a 512 MiB copy would walk the file forwards.
 * When dst > src and the ranges overlap, every memmove() must copy
 * backwards (top down), whatever the CPU, size or tunables.
 *
 * The file mapping is read-only, so the overlap must not be file pages:
 * writing into a MAP_PRIVATE file mapping would take COW faults that read
 * the file through filemap_fault() and pollute both the readahead state
 * and the counts.  So the layout is
 *
 *   region: [ file, len bytes | anonymous buffer, len + 1 page ]
 *            ^src               ^dst = src + len
 *
 * and the copy is memmove(dst, src, len + page): the source is the whole
 * file plus the buffer's first page, which the destination overlaps, so
 * the copy runs backwards, but every store lands in the anonymous buffer.
 * The buffer is written once beforehand so its faults stay out of the
 * counts.  Like glibc's real backward path, the copy first loads the head
 * of the source (file page 0), then walks from the top down.
 *
 * memcpy-forward is the mirror image, the baseline that the backward copy
 * is compared with: the buffer lies below the file and the source starts
 * at the buffer's last page, so memmove() must copy forwards (bottom up).
 * The file stays on a MAP_ALIGN boundary, so it can be mapped with PMDs.
 *
 *   region: [ gap | anonymous buffer, len + 1 page | file, len bytes ]
 *                   ^dst                       ^src  ^map
 */
static int setup_memcpy(struct walk *w, bool forward)
{
	size_t buf = w->len + w->ps, below = 0;
	char *at;
	void *p;

	if (w->len > (SIZE_MAX - MAP_ALIGN - w->ps) / 2) {
		err_msg("memcpy: file too large");
		return RAWALK_ERR;
	}
	if (forward)
		below = round_up_pow2(buf, MAP_ALIGN);
	if (map_file(w, below, forward ? 0 : buf))
		return RAWALK_ERR;
	at = forward ? w->map - buf : w->map + w->len;
	p = mmap(at, buf, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p == MAP_FAILED) {
		err_msg("memcpy: cannot map a %zu byte buffer: %s", buf,
			strerror(errno));
		return RAWALK_ERR;
	}
	w->dst = p;
	memset(w->dst, 0x5a, buf);
	return RAWALK_OK;
}

static int walk_setup(struct walk *w, const struct rawalk_opts *o)
{
	switch (o->pattern.kind) {
	case PAT_VMASPLIT:
		return setup_vmasplit(w, o->pattern.arg, o->file);
	case PAT_MEMCPY:
		return setup_memcpy(w, false);
	case PAT_MEMCPY_FORWARD:
		return setup_memcpy(w, true);
	case PAT_RANDOM:
		w->npick = random_page_count(w->npages, o->pattern.arg);
		w->pages = random_pages(w->npages, w->npick, o->seed);
		if (!w->pages) {
			err_msg("random: out of memory for %" PRIu64 " page numbers",
				w->npick);
			return RAWALK_ERR;
		}
		break;
	default:
		break;
	}
	return map_file(w, 0, 0) ? RAWALK_ERR : RAWALK_OK;
}

static void walk_teardown(struct walk *w)
{
	if (w->region)
		munmap(w->region, w->region_len);
	w->region = NULL;
	free(w->pages);
	w->pages = NULL;
}

#define TOUCH(w, pg) ((void)((const volatile char *)(w)->map)[(pg) * (w)->ps])

static uint64_t walk_reverse(const struct walk *w)
{
	uint64_t i;

	for (i = w->npages; i > 0; i--)
		TOUCH(w, i - 1);
	return w->npages;
}

static uint64_t walk_forward(const struct walk *w)
{
	uint64_t i;

	for (i = 0; i < w->npages; i++)
		TOUCH(w, i);
	return w->npages;
}

static uint64_t walk_stride(const struct walk *w, uint64_t stride)
{
	uint64_t i, n = 0;

	for (i = 0; i < w->npages; i += stride, n++)
		TOUCH(w, i);
	return n;
}

static uint64_t walk_random(const struct walk *w)
{
	uint64_t i;

	for (i = 0; i < w->npick; i++)
		TOUCH(w, w->pages[i]);
	return w->npick;
}

static uint64_t walk_memcpy(const struct walk *w)
{
	/* through a volatile pointer: the compiler must call glibc's */
	void *(*volatile move)(void *, const void *, size_t) = memmove;

	move(w->dst, w->map, w->len + w->ps);
	return w->npages;
}

static uint64_t walk_memcpy_forward(const struct walk *w)
{
	void *(*volatile move)(void *, const void *, size_t) = memmove;

	/* the source starts at the buffer's last page: dst < src, overlapping */
	move(w->dst, w->map - w->ps, w->len + w->ps);
	return w->npages;
}

static uint64_t walk_run(const struct walk *w, const struct pattern *p)
{
	switch (p->kind) {
	case PAT_REVERSE:
		return walk_reverse(w);
	case PAT_FORWARD:
	case PAT_VMASPLIT:
		return walk_forward(w);
	case PAT_STRIDE:
		return walk_stride(w, p->arg);
	case PAT_RANDOM:
		return walk_random(w);
	case PAT_MEMCPY:
		return walk_memcpy(w);
	case PAT_MEMCPY_FORWARD:
		return walk_memcpy_forward(w);
	}
	return 0;
}

struct job {
	pthread_t t;
	const struct walk *w;
	const struct pattern *p;
	uint64_t touched;
};

static void *job_run(void *arg)
{
	struct job *j = arg;

	j->touched = walk_run(j->w, j->p);
	return NULL;
}

/* --jobs N: N threads walk the one mapping at once; pages touched summed */
static uint64_t walk_jobs(const struct walk *w, const struct pattern *p,
			  unsigned int jobs)
{
	struct job j[64];
	unsigned int started = 1;
	uint64_t sum;

	for (unsigned int i = 0; i < jobs; i++)
		j[i] = (struct job){ .w = w, .p = p };
	for (; started < jobs; started++)
		if (pthread_create(&j[started].t, NULL, job_run, &j[started]))
			break;
	job_run(&j[0]);
	sum = j[0].touched;
	for (unsigned int i = 1; i < started; i++) {
		pthread_join(j[i].t, NULL);
		sum += j[i].touched;
	}
	return sum;
}

static int advise(const struct walk *w, enum advice a)
{
	static const struct {
		int madv;
		const char *name;
	} adv[] = {
		[ADV_NORMAL] = { MADV_NORMAL, "MADV_NORMAL" },
		[ADV_HUGE] = { MADV_HUGEPAGE, "MADV_HUGEPAGE" },
		[ADV_SEQ] = { MADV_SEQUENTIAL, "MADV_SEQUENTIAL" },
		[ADV_RANDOM] = { MADV_RANDOM, "MADV_RANDOM" },
		[ADV_WILLNEED] = { MADV_WILLNEED, "MADV_WILLNEED" },
	};
	int err;

	/* a new mapping is MADV_NORMAL already: no call, works everywhere */
	if (a == ADV_NORMAL)
		return 0;
	if (!madvise(w->map, w->len, adv[a].madv))
		return 0;
	err = errno;
	err_msg("madvise(%s): %s%s%s", adv[a].name, strerror(err),
		advise_hint(err),
		err == EINVAL && a == ADV_HUGE ?
		" (kernel without CONFIG_TRANSPARENT_HUGEPAGE, or THP disabled?)" :
		"");
	return -1;
}

/* ---------------------------------------------------------------------
 * Measuring.
 */
struct snap {
	int64_t read_bytes;	/* /proc/self/io, -1: none */
	struct rusage ru;
	struct timespec ts;
	struct blkstat bs;
	bool bs_ok;
};

static void snap_blk(const struct devinfo *d, struct snap *s)
{
	char buf[512];

	s->bs_ok = d->has_stat &&
		   read_small_file(d->stat_path, buf, sizeof(buf)) > 0 &&
		   !parse_blkstat(buf, &s->bs);
}

/* What this process read from storage (task I/O accounting) */
static int64_t proc_read_bytes(void)
{
	char buf[1024], *p;
	uint64_t v;

	if (read_small_file("/proc/self/io", buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, "\nread_bytes: ");
	if (!p)
		return -1;
	p += strlen("\nread_bytes: ");
	p[strcspn(p, "\n")] = '\0';
	return parse_u64(p, &v) ? -1 : (int64_t)v;
}

static void snap_start(const struct devinfo *d, struct snap *s)
{
	snap_blk(d, s);
	s->read_bytes = proc_read_bytes();
	clock_gettime(CLOCK_MONOTONIC, &s->ts);
	getrusage(RUSAGE_SELF, &s->ru);
}

static void snap_end(const struct devinfo *d, struct snap *s)
{
	getrusage(RUSAGE_SELF, &s->ru);
	clock_gettime(CLOCK_MONOTONIC, &s->ts);
	s->read_bytes = proc_read_bytes();
	snap_blk(d, s);
}

static double tv_ms(const struct timeval *tv)
{
	return (double)tv->tv_sec * 1e3 + (double)tv->tv_usec / 1e3;
}

static void snap_diff(const struct snap *a, const struct snap *b,
		      struct report *r)
{
	r->major_faults = (uint64_t)(b->ru.ru_majflt - a->ru.ru_majflt);
	r->minor_faults = (uint64_t)(b->ru.ru_minflt - a->ru.ru_minflt);
	r->wall_ms = (double)(b->ts.tv_sec - a->ts.tv_sec) * 1e3 +
		     (double)(b->ts.tv_nsec - a->ts.tv_nsec) / 1e6;
	r->cpu_ms = tv_ms(&b->ru.ru_utime) + tv_ms(&b->ru.ru_stime) -
		    tv_ms(&a->ru.ru_utime) - tv_ms(&a->ru.ru_stime);
	r->read_bytes = a->read_bytes >= 0 && b->read_bytes >= 0 ?
			 b->read_bytes - a->read_bytes : -1;
	if (a->bs_ok && b->bs_ok) {
		r->sectors_read = (int64_t)(b->bs.sectors_read -
					    a->bs.sectors_read);
		r->ios_read = (int64_t)(b->bs.ios_read - a->bs.ios_read);
	} else {
		r->sectors_read = -1;
		r->ios_read = -1;
	}
}

static int read_smaps(const struct walk *w, struct report *r)
{
	struct smaps_sum sum;
	char *text;

	text = read_file("/proc/self/smaps", NULL);
	if (!text) {
		err_msg("cannot read /proc/self/smaps: %s", strerror(errno));
		return -1;
	}
	if (parse_smaps(text, (uintptr_t)w->map, (uintptr_t)w->map + w->len,
			&sum)) {
		free(text);
		err_msg("cannot parse /proc/self/smaps");
		return -1;
	}
	free(text);
	r->rss_kb = sum.rss_kb;
	r->file_pmd_mapped_kb = sum.file_pmd_mapped_kb;
	r->file_vmas = sum.vmas;
	return 0;
}

/* /proc/kpageflags words of PFNs, for count_folio_orders() */
static long kpageflags_pread(void *ctx, uint64_t pfn, uint64_t *out, size_t n)
{
	int fd = *(const int *)ctx;
	ssize_t got;

	if (pfn > (uint64_t)INT64_MAX / sizeof(*out) - n)
		return -EINVAL;
	do {
		got = pread(fd, out, n * sizeof(*out),
			    (off_t)(pfn * sizeof(*out)));
	} while (got < 0 && errno == EINTR);
	if (got < 0)
		return -errno;
	return (long)((size_t)got / sizeof(*out));
}

/* The pagemap entries of the file mapping, one per page */
static uint64_t *read_pagemap(const struct walk *w)
{
	size_t want = w->npages * sizeof(uint64_t), done = 0;
	off_t off = (off_t)((uintptr_t)w->map / w->ps * sizeof(uint64_t));
	uint64_t *pm;
	ssize_t got;
	int fd;

	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err_msg("--folio-orders: cannot open /proc/self/pagemap: %s%s",
			strerror(errno), errno == ENOENT ?
			" (kernel without CONFIG_PROC_PAGE_MONITOR?)" : "");
		return NULL;
	}
	pm = malloc(want);
	if (!pm) {
		err_msg("out of memory");
		close(fd);
		return NULL;
	}
	while (done < want) {
		got = pread(fd, (char *)pm + done, want - done,
			    off + (off_t)done);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			err_msg("--folio-orders: reading /proc/self/pagemap: %s",
				got ? strerror(errno) : "short read");
			free(pm);
			close(fd);
			return NULL;
		}
		done += (size_t)got;
	}
	close(fd);
	return pm;
}

/*
 * --folio-orders: the orders of the folios behind the mapped pages of the
 * file mapping, from their PFNs (pagemap shows them to CAP_SYS_ADMIN only)
 * and /proc/kpageflags (root only).
 */
static int read_folio_orders(const struct walk *w, struct report *r)
{
	uint64_t *pm;
	int fd, ret;

	fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err_msg("--folio-orders: cannot open /proc/kpageflags: %s%s",
			strerror(errno), errno == ENOENT ?
			" (kernel without CONFIG_PROC_PAGE_MONITOR?)" :
			errno == EACCES || errno == EPERM ?
			" (needs root)" : "");
		return -1;
	}
	pm = read_pagemap(w);
	if (!pm) {
		close(fd);
		return -1;
	}
	ret = count_folio_orders(pm, w->npages, kpageflags_pread, &fd,
				 &r->folio_orders);
	free(pm);
	close(fd);
	if (ret == -EPERM) {
		err_msg("--folio-orders: /proc/self/pagemap shows no page frame numbers: needs CAP_SYS_ADMIN");
		return -1;
	}
	if (ret == -EINVAL) {
		err_msg("--folio-orders: /proc/kpageflags shows a compound page that is no page-cache folio (hugetlb?) or changed while read");
		return -1;
	}
	if (ret) {
		err_msg("--folio-orders: reading /proc/kpageflags: %s",
			strerror(-ret));
		return -1;
	}
	r->has_folio_orders = true;
	return 0;
}

/* ---------------------------------------------------------------------
 * The run.
 */
static int open_regular(const char *file, struct stat *st)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		err_msg("cannot open %s: %s", file, strerror(errno));
		return -1;
	}
	if (fstat(fd, st)) {
		err_msg("cannot stat %s: %s", file, strerror(errno));
		close(fd);
		return -1;
	}
	if (S_ISDIR(st->st_mode)) {
		err_msg("%s is a directory, not a regular file", file);
		close(fd);
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		err_msg("%s is not a regular file", file);
		close(fd);
		return -1;
	}
	if (st->st_size == 0) {
		err_msg("%s is empty, nothing to walk (make a test file with: rawalk --create SIZE %s)",
			file, file);
		close(fd);
		return -1;
	}
	if ((uint64_t)st->st_size > SIZE_MAX / 2) {
		err_msg("%s is too large to map", file);
		close(fd);
		return -1;
	}
	return fd;
}

static int reopen_same(const char *file, const struct stat *st0)
{
	struct stat st;
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		err_msg("cannot reopen %s: %s", file, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || st.st_dev != st0->st_dev ||
	    st.st_ino != st0->st_ino || st.st_size != st0->st_size) {
		err_msg("%s changed while rawalk was setting up", file);
		close(fd);
		return -1;
	}
	return fd;
}

static void report_init(const struct rawalk_opts *o, struct report *r)
{
	memset(r, 0, sizeof(*r));
	r->file = o->file;
	r->pattern = o->pattern;
	r->advice = o->advice;
	r->cold = o->cold;
	r->seed = o->seed;
	r->sectors_read = -1;
	r->ios_read = -1;
	r->read_ahead_kb = -1;
	r->read_bytes = -1;
	r->memcg_limit_bytes = o->memcg_limit ? (int64_t)o->memcg_limit : -1;
}

int rawalk_run(const struct rawalk_opts *o, struct report *r)
{
	struct walk w = { .fd = -1 };
	struct snap s0, s1;
	struct devinfo dev;
	struct stat st;
	int ret = RAWALK_ERR, fd0;

	report_init(o, r);
	w.ps = (size_t)sysconf(_SC_PAGESIZE);

	fd0 = open_regular(o->file, &st);
	if (fd0 < 0)
		return RAWALK_ERR;
	w.size = (size_t)st.st_size;
	w.len = round_up_pow2(w.size, w.ps);
	w.npages = w.len / w.ps;
	r->file_bytes = w.size;
	devinfo_find(st.st_dev, &dev);

	/*
	 * memcpy's buffer is anonymous memory charged to the memcg too and,
	 * without swap, cannot be reclaimed: a smaller limit means an OOM
	 * kill, which would also leave the cgroup behind.
	 */
	if ((o->pattern.kind == PAT_MEMCPY ||
	     o->pattern.kind == PAT_MEMCPY_FORWARD) && o->memcg_limit &&
	    o->memcg_limit < w.len + w.ps + MEMCPY_MEMCG_SLACK) {
		err_msg("--memcg-limit %" PRIu64 " is too small for memcpy: its %zu byte buffer is charged to the memcg; use at least %zu",
			o->memcg_limit, w.len + w.ps,
			w.len + w.ps + MEMCPY_MEMCG_SLACK);
		close(fd0);
		return RAWALK_USAGE;
	}

	undo_handlers_install();
	if (o->memcg_limit && memcg_enter(o->memcg_limit))
		goto out;
	if (o->read_ahead_kb >= 0 && ra_set(&dev, o->file, o->read_ahead_kb))
		goto out;
	r->read_ahead_kb = ra_read(&dev);

	r->cached_known = mincore_trusted(o->file, &st);
	if (o->cold && drop_cache(fd0, o->file, w.size, w.ps, r->cached_known))
		goto out;
	if (r->cached_known) {
		const char *what = "";
		int err = pc_cached(fd0, 0, (w.size + w.ps - 1) / w.ps,
				    &r->pages_cached_before, &what);

		if (err) {
			err_msg("%s on %s: %s", what, o->file, strerror(-err));
			goto out;
		}
	}

	w.fd = reopen_same(o->file, &st);
	if (w.fd < 0)
		goto out;
	close(fd0);
	fd0 = -1;

	ret = walk_setup(&w, o);
	if (ret)
		goto out;
	ret = RAWALK_ERR;

	snap_start(&dev, &s0);
	if (advise(&w, o->advice))
		goto out;
	r->pages_touched = walk_jobs(&w, &o->pattern, o->jobs ? o->jobs : 1);
	snap_end(&dev, &s1);
	snap_diff(&s0, &s1, r);

	if (read_smaps(&w, r))
		goto out;
	if (o->folio_orders && read_folio_orders(&w, r))
		goto out;
	r->complete = true;
	ret = RAWALK_OK;
out:
	walk_teardown(&w);
	if (w.fd >= 0)
		close(w.fd);
	if (fd0 >= 0)
		close(fd0);
	if (ra_restore() && ret == RAWALK_OK)
		ret = RAWALK_ERR;
	if (memcg_leave() && ret == RAWALK_OK)
		ret = RAWALK_ERR;
	undo_handlers_remove();
	return ret;
}

/* ---------------------------------------------------------------------
 * --create
 */
static void fill_nonzero(unsigned char *buf, size_t n, struct rng *rng)
{
	size_t i, b;
	uint64_t x;

	for (i = 0; i < n; i += 8) {
		x = rng_next(rng);
		for (b = 0; b < 8 && i + b < n; b++, x >>= 8)
			buf[i + b] = (x & 0xff) ? (unsigned char)x : 0x5a;
	}
}

static int write_all(int fd, const unsigned char *buf, size_t n)
{
	ssize_t r;

	while (n) {
		r = write(fd, buf, n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += r;
		n -= (size_t)r;
	}
	return 0;
}

static void fsync_parent(const char *file)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(file, '/');
	int fd;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == file)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - file), file);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/*
 * Whether file has no holes: SEEK_HOLE finds none before EOF and the
 * blocks allocated cover its size.  0, or -1 with the reason printed
 * (quiet: only return it).
 */
static int check_no_holes(const char *file, bool quiet)
{
	struct stat st;
	off_t hole;
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st)) {
		err_msg("--create: %s: %s", file, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	hole = lseek(fd, 0, SEEK_HOLE);
	close(fd);
	if (hole < 0 && errno != EINVAL && errno != ENXIO) {
		err_msg("--create: SEEK_HOLE on %s: %s", file, strerror(errno));
		return -1;
	}
	if ((hole >= 0 && hole < st.st_size) ||
	    (uint64_t)st.st_blocks * 512 + (uint64_t)st.st_blksize <= (uint64_t)st.st_size) {
		if (!quiet)
			err_msg("--create: %s has holes (first at byte %lld, %lld of %lld bytes allocated)",
				file, (long long)hole, (long long)st.st_blocks * 512,
				(long long)st.st_size);
		return -1;
	}
	return 0;
}

int rawalk_create(const struct rawalk_opts *o)
{
	const size_t chunk = 1 << 20;
	char tmp[PATH_MAX];
	uint64_t left = o->create_size;
	unsigned char *buf;
	struct stat st;
	struct rng rng;
	size_t n;
	int fd;

	if (!stat(o->file, &st)) {
		if (!S_ISREG(st.st_mode)) {
			err_msg("--create: %s exists and is not a regular file",
				o->file);
			return RAWALK_ERR;
		}
		if ((uint64_t)st.st_size == o->create_size && !o->force) {
			if (check_no_holes(o->file, false)) {
				err_msg("--create: use --force to write %s again", o->file);
				return RAWALK_ERR;
			}
			fputs("kept ", stdout);
			fputs_esc(o->file, stdout);
			printf(": %" PRIu64 " bytes, no holes\n", o->create_size);
			return RAWALK_OK;
		}
		if (!o->force) {
			err_msg("--create: %s exists with %lld bytes, not %" PRIu64 "; use --force to replace it",
				o->file, (long long)st.st_size, o->create_size);
			return RAWALK_ERR;
		}
	} else if (errno != ENOENT) {
		err_msg("--create: %s: %s", o->file, strerror(errno));
		return RAWALK_ERR;
	}

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.rawalk-tmp.%ld", o->file,
			     (long)getpid()) >= sizeof(tmp)) {
		err_msg("--create: %s: file name too long", o->file);
		return RAWALK_ERR;
	}
	buf = malloc(chunk);
	if (!buf) {
		err_msg("out of memory");
		return RAWALK_ERR;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		err_msg("--create: cannot create %s: %s", tmp, strerror(errno));
		free(buf);
		return RAWALK_ERR;
	}
	rng_seed(&rng, o->seed ^ 0x726177616c6bULL);
	while (left) {
		n = left < chunk ? (size_t)left : chunk;
		fill_nonzero(buf, n, &rng);
		if (write_all(fd, buf, n))
			goto fail;
		left -= n;
	}
	if (fsync(fd))
		goto fail;
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, o->file))
		goto fail;
	fsync_parent(o->file);
	free(buf);
	if (check_no_holes(o->file, false))
		return RAWALK_ERR;
	fputs("created ", stdout);
	fputs_esc(o->file, stdout);
	printf(": %" PRIu64 " bytes, no holes\n", o->create_size);
	return RAWALK_OK;
fail:
	err_msg("--create: writing %s: %s", o->file, strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(buf);
	return RAWALK_ERR;
}
