// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl trace: which policy of which arm decided which windows, per
 * file, process or policy, from the series' tracepoint
 * readahead_policy:readahead_policy_window, and what of the pages they
 * read left the page cache used or wasted, from the module's
 * rapolicy:rapolicy_ledger.  Live, it reads the events through a trace
 * instance of its own (instances/rapolicyctl.PID under tracefs), so the
 * global trace buffer and other tracers are left alone, and removes the
 * instance when it ends; --input reads a saved trace.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rapctl.h"
#include "util.h"

static const char usage_trace[] =
"Usage: rapolicyctl trace [--by file|process|policy] [--top N]\n"
"                         [--interval SECONDS] [--count N] [--json]\n"
"                         [--input FILE]\n\n"
"The windows the readahead policies decide, from the tracepoint\n"
"readahead_policy:readahead_policy_window: one row per file (dev:inode),\n"
"per process (comm-pid) or per policy and arm (--by; default file), the\n"
"most pages first, at most N rows (--top; default 20, 0 for all).  Columns:\n"
"windows applied, refused by the kernel's checks and bound only (the\n"
"policy set a limit, stock chose the window), pages the applied windows\n"
"read, the largest of them, the pages windows read that left the page\n"
"cache used and wasted (the ledger; not per process: the task that drops\n"
"a page is not the one that read it), and the policy and arm that\n"
"applied the most pages.  Live, it traces through a tracefs instance of\n"
"its own and prints a table every SECONDS (default 5) until N tables\n"
"(--count) or SIGINT; --input reads a saved trace (FILE, or - for stdin)\n"
"and prints one table, or one per SECONDS of the trace's own clock.\n"
"--json: one object a table.\n"
"Events lost to a full ring buffer are counted and named.\n";

enum by { BY_FILE, BY_PROCESS, BY_POLICY };
static const char *const by_names[] = { "file", "process", "policy" };

/*
 * One event of readahead_policy_window or rapolicy_ledger, as trace_pipe
 * prints them
 */
struct tev {
	char comm[40];		/* "comm-pid" */
	char file[48];		/* "dev:inode" */
	char by[32];		/* the policy that decided, "-" for none */
	unsigned int arm;
	unsigned long size;	/* a window's pages; a ledger event's pages */
	double ts;
	int outcome;		/* 0 applied, 1 refused, 2 bound; 3 used, 4 wasted */
};
#define LEDGER_USED 3

#define DECIDERS 4
struct row {
	char key[48];
	uint64_t n[3], pages, largest;
	uint64_t ledger[2];	/* pages left used, wasted */
	struct { char by[32]; unsigned int arm; uint64_t pages, n; } d[DECIDERS];
};

#define ROWS 4096
struct table {
	struct row r[ROWS + 1];		/* the last one: "(other)" */
	unsigned int nr;
	uint64_t events;
};

/* "key=value" of the tokens of s; NULL when absent */
static const char *field(const char *s, const char *key, char *buf, size_t size)
{
	size_t len = strlen(key);

	for (const char *p = s; (p = strstr(p, key)); p += len) {
		if ((p == s || p[-1] == ' ') && p[len] == '=') {
			size_t n = strcspn(p + len + 1, " \n");

			if (n >= size)
				n = size - 1;
			memcpy(buf, p + len + 1, n);
			buf[n] = 0;
			return buf;
		}
	}
	return NULL;
}

/* The outcome the event's line ends with; -1 for none */
static int outcome(const char *m)
{
	static const char *const word[] = { "applied", "refused", "bound", "used", "wasted" };
	const char *last = m + strlen(m);
	size_t n, w;

	while (last > m && (last[-1] == '\n' || last[-1] == ' '))
		last--;
	n = (size_t)(last - m);
	for (int i = 0; i < 5; i++) {
		w = strlen(word[i]);
		if (n > w && last[-(long)w - 1] == ' ' && !strncmp(last - w, word[i], w))
			return i;
	}
	return -1;
}

static bool parse_event(const char *line, struct tev *e)
{
	static const char mark[] = ": readahead_policy_window: ";
	static const char ledger[] = ": rapolicy_ledger: ";
	const char *m = strstr(line, mark), *b, *t;
	char v[40], dev[16], ino[24];
	bool is_ledger = !m;
	size_t n;

	if (!m)
		m = strstr(line, ledger);
	if (!m)
		return false;
	/* "  comm-pid  [cpu] flags  timestamp: " */
	for (b = m; b > line && *b != '['; b--)
		;
	for (t = m; t > line && t[-1] != ' '; t--)
		;
	while (*line == ' ')
		line++;
	n = b > line ? (size_t)(b - line) : 0;
	while (n && line[n - 1] == ' ')
		n--;
	snprintf(e->comm, sizeof(e->comm), "%.*s", (int)(n ? n : 1), n ? line : "?");
	e->ts = strtod(t, NULL);
	m += is_ledger ? sizeof(ledger) - 1 : sizeof(mark) - 1;
	if (!field(m, "dev", dev, sizeof(dev)) || !field(m, "ino", ino, sizeof(ino)) ||
	    !field(m, "arm", v, sizeof(v)))
		return false;
	e->arm = (unsigned int)strtoul(v, NULL, 10);
	snprintf(e->file, sizeof(e->file), "%s:%s", dev, ino);
	if (!field(m, "by", e->by, sizeof(e->by)) || !e->by[0])
		snprintf(e->by, sizeof(e->by), "-");
	e->size = field(m, is_ledger ? "pages" : "size", v, sizeof(v)) ?
		strtoul(v, NULL, 10) : 0;
	e->outcome = outcome(m);
	return e->outcome >= 0 && (e->outcome >= LEDGER_USED) == is_ledger;
}

static struct row *row_of(struct table *tb, const char *key)
{
	for (unsigned int i = 0; i < tb->nr; i++)
		if (!strcmp(tb->r[i].key, key))
			return &tb->r[i];
	if (tb->nr == ROWS) {
		snprintf(tb->r[ROWS].key, sizeof(tb->r[ROWS].key), "(other)");
		return &tb->r[ROWS];
	}
	memset(&tb->r[tb->nr], 0, sizeof(tb->r[0]));
	snprintf(tb->r[tb->nr].key, sizeof(tb->r[0].key), "%s", key);
	return &tb->r[tb->nr++];
}

static void account(struct table *tb, enum by by, const struct tev *e)
{
	char key[48];
	struct row *r;
	int k;

	tb->events++;
	if (e->outcome >= LEDGER_USED && by == BY_PROCESS)
		return;
	if (by == BY_POLICY)
		snprintf(key, sizeof(key), "%s %c", e->by, 'A' + (e->arm ? 1 : 0));
	else
		snprintf(key, sizeof(key), "%s", by == BY_FILE ? e->file : e->comm);
	r = row_of(tb, key);
	if (e->outcome >= LEDGER_USED) {
		r->ledger[e->outcome - LEDGER_USED] += e->size;
		return;
	}
	r->n[e->outcome]++;
	if (!e->outcome) {
		r->pages += e->size;
		if (e->size > r->largest)
			r->largest = e->size;
	}
	for (k = 0; k < DECIDERS; k++)
		if (!r->d[k].by[0] || (r->d[k].arm == e->arm && !strcmp(r->d[k].by, e->by)))
			break;
	if (k == DECIDERS)
		return;
	snprintf(r->d[k].by, sizeof(r->d[k].by), "%s", e->by);
	r->d[k].arm = e->arm;
	r->d[k].n++;
	if (!e->outcome)
		r->d[k].pages += e->size;
}

static int by_pages(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->pages != y->pages)
		return x->pages < y->pages ? 1 : -1;
	return strcmp(x->key, y->key);
}

static void decider(const struct row *r, char *buf, size_t size)
{
	int best = -1;

	for (int k = 0; k < DECIDERS && r->d[k].by[0]; k++)
		if (best < 0 || r->d[k].pages > r->d[best].pages ||
		    (r->d[k].pages == r->d[best].pages && r->d[k].n > r->d[best].n))
			best = k;
	if (best < 0)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%s %c", r->d[best].by, 'A' + (r->d[best].arm ? 1 : 0));
}

struct opts {
	enum by by;
	unsigned long top;
	double secs;		/* 0: not given */
	long count;		/* -1: no end */
	bool json;
	const char *input;
};

/* @when: the table's time, a UTC date live, the trace's clock from --input */
static void print_table(struct ctx *c, struct table *tb, const struct opts *o,
			const char *when, uint64_t lost)
{
	enum by by = o->by;
	unsigned long top = o->top;
	bool json = o->json;
	unsigned int nr = tb->nr + (tb->r[ROWS].key[0] ? 1 : 0);
	json_t *rows = json ? json_array() : NULL;
	char d[48];

	if (nr > tb->nr)
		tb->r[tb->nr] = tb->r[ROWS];
	qsort(tb->r, nr, sizeof(tb->r[0]), by_pages);
	if (top && nr > top)
		nr = (unsigned int)top;
	if (!json)
		fprintf(c->out, "%s: %llu events%s\n%-24s %8s %8s %8s %10s %8s%s%s\n", when,
			(unsigned long long)tb->events, lost ? ", some lost" : "",
			by_names[by], "applied", "refused", "bound", "pages", "largest",
			by == BY_PROCESS ? "" : "       used     wasted",
			by == BY_POLICY ? "" : "  by");
	for (unsigned int i = 0; i < nr; i++) {
		const struct row *r = &tb->r[i];
		json_t *row;
		char ledger[32] = "";

		decider(r, d, sizeof(d));
		if (json) {
			row = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:s}",
				"key", r->key, "applied", json_u64(r->n[0]),
				"refused", json_u64(r->n[1]), "bound", json_u64(r->n[2]),
				"pages", json_u64(r->pages), "largest", json_u64(r->largest),
				"by", d);
			if (by != BY_PROCESS) {
				json_object_set_new(row, "used", json_u64(r->ledger[0]));
				json_object_set_new(row, "wasted", json_u64(r->ledger[1]));
			}
			json_array_append_new(rows, row);
			continue;
		}
		if (by != BY_PROCESS)
			snprintf(ledger, sizeof(ledger), " %10llu %10llu",
				 (unsigned long long)r->ledger[0],
				 (unsigned long long)r->ledger[1]);
		fprintf(c->out, "%-24s %8llu %8llu %8llu %10llu %8llu%s%s%s\n", r->key,
			(unsigned long long)r->n[0], (unsigned long long)r->n[1],
			(unsigned long long)r->n[2], (unsigned long long)r->pages,
			(unsigned long long)r->largest, ledger, by == BY_POLICY ? "" : "  ",
			by == BY_POLICY ? "" : d);
	}
	if (json)
		json_out(c->out, json_pack("{s:s, s:s, s:o, s:o, s:o}", "time", when,
					   "by", by_names[by], "events", json_u64(tb->events),
					   "lost", json_u64(lost), "rows", rows), true);
	fflush(c->out);
	memset(&tb->r[ROWS], 0, sizeof(tb->r[ROWS]));
	tb->nr = 0;
	tb->events = 0;
}


/* A saved trace: one table, or one per SECONDS of its timestamps */
static int from_input(struct ctx *c, const struct opts *o, struct table *tb)
{
	FILE *f = strcmp(o->input, "-") ? fopen(o->input, "r") : stdin;
	double start = -1, last = 0;
	char line[1024], when[64];
	long done = 0;
	struct tev e;
	int ret;

	if (!f)
		return io_error(c, -errno, o->input);
	while (fgets(line, sizeof(line), f) && (o->count < 0 || done < o->count)) {
		if (!parse_event(line, &e))
			continue;
		if (start < 0)
			start = e.ts;
		while (o->secs > 0 && e.ts >= start + o->secs && (o->count < 0 || done < o->count)) {
			snprintf(when, sizeof(when), "trace clock %.6f to %.6f", start, start + o->secs);
			print_table(c, tb, o, when, 0);
			start += o->secs;
			done++;
		}
		if (o->count < 0 || done < o->count)
			account(tb, o->by, &e);
		last = e.ts;
	}
	ret = ferror(f) ? errmsg(c, "%s: read error", esc(o->input)) : RC_OK;
	if (f != stdin)
		fclose(f);
	if (!ret && (o->count < 0 || done < o->count)) {
		snprintf(when, sizeof(when), "trace clock %.6f to %.6f", start < 0 ? 0 : start,
			 o->secs > 0 ? start + o->secs : last);
		print_table(c, tb, o, when, 0);
	}
	return ret;
}

static volatile sig_atomic_t stop;
static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The tracefs that has the event: /sys/kernel/tracing or debugfs' */
static int tracefs(char *dir, size_t size)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char p[600];
	struct stat st;

	for (size_t i = 0; i < 2; i++) {
		rap_path(dir, size, dirs[i]);
		snprintf(p, sizeof(p), "%s/events/readahead_policy/readahead_policy_window", dir);
		if (!stat(p, &st))
			return 0;
	}
	return -ENOENT;
}

/* Events the instance's ring buffers dropped: per_cpu/cpu*'s "overrun:" */
static uint64_t overruns(const char *inst)
{
	char pat[600], *t, *o;
	uint64_t sum = 0;
	glob_t g;

	snprintf(pat, sizeof(pat), "%s/per_cpu/cpu*/stats", inst);
	if (glob(pat, 0, NULL, &g))
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		t = read_file(g.gl_pathv[i], NULL);
		if (t && (o = strstr(t, "overrun: ")))
			sum += strtoull(o + 9, NULL, 10);
		free(t);
	}
	globfree(&g);
	return sum;
}

static const char *utc(char *buf, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;

	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	return buf;
}

static int pipe_loop(struct ctx *c, const struct opts *o, struct table *tb,
		     int fd, const char *inst)
{
	double secs = o->secs > 0 ? o->secs : 5;
	char buf[65536], *s, *nl, when[32];
	struct timespec now, next;
	size_t have = 0;
	uint64_t lost = 0;
	long done = 0;
	struct tev e;

	clock_gettime(CLOCK_MONOTONIC, &next);
	next.tv_sec += (time_t)secs;
	next.tv_nsec += (long)((secs - (double)(time_t)secs) * 1e9);
	while (!stop && (o->count < 0 || done < o->count)) {
		long ms;
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = (next.tv_sec - now.tv_sec) * 1000 + (next.tv_nsec - now.tv_nsec) / 1000000;
		if (ms <= 0) {
			uint64_t l = overruns(inst);

			print_table(c, tb, o, utc(when, sizeof(when)), l - lost);
			lost = l;
			done++;
			next.tv_sec += (time_t)secs;
			next.tv_nsec += (long)((secs - (double)(time_t)secs) * 1e9);
			continue;
		}
		if (poll(&(struct pollfd){ .fd = fd, .events = POLLIN }, 1, (int)ms) <= 0)
			continue;
		n = read(fd, buf + have, sizeof(buf) - have);
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return io_error(c, -errno, "reading the trace pipe");
		if (n <= 0)
			continue;
		have += (size_t)n;
		s = buf;
		while ((nl = memchr(s, '\n', (size_t)(buf + have - s)))) {
			*nl = 0;
			if (parse_event(s, &e))
				account(tb, o->by, &e);
			s = nl + 1;
		}
		have = (size_t)(buf + have - s);
		if (have == sizeof(buf))
			have = 0;	/* no event line is that long: drop it */
		memmove(buf, s, have);
	}
	if (stop && (o->count < 0 || done < o->count))
		print_table(c, tb, o, utc(when, sizeof(when)), overruns(inst) - lost);
	return RC_OK;
}

static int live(struct ctx *c, const struct opts *o, struct table *tb)
{
	char dir[512], inst[600], p[700];
	struct sigaction sa = { .sa_handler = on_signal };
	int fd, ret;

	if (tracefs(dir, sizeof(dir)))
		return errmsg(c, "no tracepoint readahead_policy:readahead_policy_window under /sys/kernel/tracing: boot a kernel with the rapolicy patches and mount tracefs (mount -t tracefs nodev /sys/kernel/tracing)");
	snprintf(inst, sizeof(inst), "%s/instances/rapolicyctl.%d", dir, (int)getpid());
	if (mkdir(inst, 0700))
		return io_error(c, -errno, inst);
	snprintf(p, sizeof(p), "%s/events/readahead_policy/readahead_policy_window/enable", inst);
	ret = write_file_str(p, "1");
	if (ret) {
		rmdir(inst);
		return io_error(c, ret, p);
	}
	/* The module's event, when it is loaded: the ledger's columns */
	snprintf(p, sizeof(p), "%s/events/rapolicy/rapolicy_ledger/enable", inst);
	if (!access(p, F_OK)) {
		ret = write_file_str(p, "1");
		if (ret) {
			rmdir(inst);
			return io_error(c, ret, p);
		}
	}
	snprintf(p, sizeof(p), "%s/trace_pipe", inst);
	fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ret = io_error(c, -errno, p);
		rmdir(inst);
		return ret;
	}
	stop = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = pipe_loop(c, o, tb, fd, inst);
	close(fd);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (rmdir(inst) && !ret)
		ret = io_error(c, -errno, inst);
	return ret;
}

static int parse_opts(struct ctx *c, int argc, char **argv, struct opts *o)
{
	const char *v;
	uint64_t n;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			o->json = true;
		} else if ((ret = opt_val(argc, argv, &i, "--by", &v))) {
			int k = 0;

			while (ret > 0 && k < 3 && strcmp(v, by_names[k]))
				k++;
			if (ret < 0 || k == 3)
				return usage(c, "trace", "--by takes file, process or policy");
			o->by = (enum by)k;
		} else if ((ret = opt_val(argc, argv, &i, "--top", &v))) {
			if (ret < 0 || parse_u64(v, &n) || n > ROWS)
				return usage(c, "trace", "--top takes 0 to %d", ROWS);
			o->top = (unsigned long)n;
		} else if ((ret = opt_val(argc, argv, &i, "--interval", &v))) {
			char *end;

			o->secs = ret > 0 ? strtod(v, &end) : 0;
			if (ret < 0 || *end || !(o->secs >= 0.01 && o->secs <= 86400))
				return usage(c, "trace", "--interval takes 0.01 to 86400 seconds");
		} else if ((ret = opt_val(argc, argv, &i, "--count", &v))) {
			if (ret < 0 || parse_u64(v, &n) || !n || n > 1000000000)
				return usage(c, "trace", "--count takes a number from 1");
			o->count = (long)n;
		} else if ((ret = opt_val(argc, argv, &i, "--input", &o->input))) {
			if (ret < 0)
				return usage(c, "trace", "--input needs a FILE (or -)");
		} else {
			return usage(c, "trace", "unexpected argument '%s'", esc(argv[i]));
		}
	}
	return RC_OK;
}

int cmd_trace(struct ctx *c, int argc, char **argv)
{
	struct opts o = { .by = BY_FILE, .top = 20, .count = -1 };
	struct table *tb;
	int ret;

	for (int i = 1; i < argc; i++)
		if (is_help(argv[i]))
			return fputs(usage_trace, c->out), RC_OK;
	ret = parse_opts(c, argc, argv, &o);
	if (ret)
		return ret;
	tb = calloc(1, sizeof(*tb));
	if (!tb)
		return errmsg(c, "out of memory");
	ret = o.input ? from_input(c, &o, tb) : live(c, &o, tb);
	free(tb);
	return ret;
}
