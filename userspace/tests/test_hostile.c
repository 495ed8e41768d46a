// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl under hostile sysfs and hostile arguments, TAP output.
 *
 *   test_hostile
 *
 * Every subcommand runs in-process against a fake module directory with
 * A/B arms.  A first run records the files it reads; then, for each file,
 * each read fails (EIO, EACCES, ENOENT), and the file holds hostile
 * content (empty, garbage, control bytes, overlong, non-ASCII, numbers
 * out of range, no newline); each write fails (EINVAL, EBUSY, EIO,
 * EACCES, or short); every read() returns one byte at a time, or is
 * interrupted.  Linked with --wrap=read,--wrap=write, so that short reads
 * and writes go through util.c's real loops.  The tool must exit 0, 1 or
 * 2, name the file and what is wrong, and change nothing when it fails.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "rapctl.h"
#include "rapctl_sysfs.h"
#include "rapctl_test.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* read() and write() with faults (-Wl,--wrap=read,--wrap=write) */

ssize_t __real_read(int fd, void *buf, size_t n);
ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __wrap_read(int fd, void *buf, size_t n);
ssize_t __wrap_write(int fd, const void *buf, size_t n);

static size_t read_chunk;		/* > 0: at most this many bytes per read() */
static bool read_eintr;			/* each read() of a file fails once with EINTR */
static char read_eio_path[1024];	/* read() of this file fails after its first byte */
static bool short_write;		/* the next write() lands whole but says one byte less */

/* Only the files of the fake trees; not the pipes of popen() or stdio */
static bool in_tmp(int fd, char *path, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, size - 1);
	if (n < 0)
		return false;
	path[n] = '\0';
	return !strncmp(path, tmpdir, strlen(tmpdir));
}

ssize_t __wrap_read(int fd, void *buf, size_t n)
{
	static bool interrupted;
	char path[1024];

	if (!in_tmp(fd, path, sizeof(path)))
		return __real_read(fd, buf, n);
	/* the first read() of a file is interrupted, its retry is not */
	if (read_eintr && lseek(fd, 0, SEEK_CUR) == 0) {
		interrupted = !interrupted;
		if (interrupted) {
			errno = EINTR;
			return -1;
		}
	}
	if (*read_eio_path && !strcmp(path, read_eio_path) && lseek(fd, 0, SEEK_CUR) > 0) {
		errno = EIO;
		return -1;
	}
	if (*read_eio_path && !strcmp(path, read_eio_path))
		n = 1;
	if (read_chunk && n > read_chunk)
		n = read_chunk;
	return __real_read(fd, buf, n);
}

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
	char path[1024];
	ssize_t r;

	if (!short_write || !in_tmp(fd, path, sizeof(path)))
		return __real_write(fd, buf, n);
	short_write = false;
	/* sysfs gives store() the whole buffer; its count may still be short */
	r = __real_write(fd, buf, n);
	return r > 0 ? r - 1 : r;
}

/* ------------------------------------------------------------------ */
/* The fake trees */

static char sys[300], proc[300];

static const char *const tree[][2] = {
	{ "descending_thp", "[off] folio stream\n" },
	{ "pmd_hit", "[off] on\n" },
	{ "descending_seq", "[off] window stream\n" },
	{ "vma_limit", "[none] always near_end\n" },
	{ "sync_mmap_order", "[off] fault_around 0 1 2 3 4 5 6 7 8 9\n" },
	{ "descending_around", "[off] window stream\n" },
	{ "version", "0.1.0\n" },
	{ "ab/descending_thp", "off [folio] stream\n" },
	{ "ab/pmd_hit", "[off] on\n" },
	{ "ab/descending_seq", "[off] window stream\n" },
	{ "ab/vma_limit", "[none] always near_end\n" },
	{ "ab/sync_mmap_order", "[off] fault_around 0 1 2 3 4 5 6 7 8 9\n" },
	{ "ab/descending_around", "[off] window stream\n" },
	{ "ab/mode", "[off] cgroup sample\n" },
	{ "ab/cgroup", "\n" },
	{ "ab/sample_permille", "0\n" },
	{ "ab/salt", "0\n" },
	{ "stats/reset", "" },
	{ "stats/sync_miss", "300\n" },
	{ "stats/mmap_hit", "700\n" },
	{ "stats/pages_requested", "4096\n" },
	{ "stats/a/sync_miss", "200\n" },
	{ "stats/a/mmap_hit", "100\n" },
	{ "stats/a/pages_requested", "1600\n" },
	{ "stats/b/sync_miss", "100\n" },
	{ "stats/b/mmap_hit", "600\n" },
	{ "stats/b/pages_requested", "2400\n" },
};

#define NR_TREE (sizeof(tree) / sizeof(tree[0]))

static void make_trees(void)
{
	char rel[300];
	size_t i;

	tmp_path(sys, sizeof(sys), "sys");
	tmp_path(proc, sizeof(proc), "proc");
	mkdirs(sys, RAP "ab");
	mkdirs(sys, RAP "stats/a");
	mkdirs(sys, RAP "stats/b");
	mkdirs(sys, "fs/cgroup/canary");
	put(sys, "fs/cgroup/cgroup.procs", "");
	put(sys, "fs/cgroup/canary/cgroup.procs", "");
	mkdirs(proc, "self");
	put(proc, "self/mountinfo", "27 21 0:25 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	for (i = 0; i < NR_TREE; i++) {
		snprintf(rel, sizeof(rel), RAP "%s", tree[i][0]);
		put(sys, rel, tree[i][1]);
	}
}

static void restore_tree(void)
{
	char rel[300];
	size_t i;

	for (i = 0; i < NR_TREE; i++) {
		snprintf(rel, sizeof(rel), RAP "%s", tree[i][0]);
		put(sys, rel, tree[i][1]);
	}
	put(sys, RAP "stats/reset", "");
}

/* Every file as made (trailing newlines aside); the first that is not in *bad */
static bool tree_intact(const char **bad)
{
	char rel[300], want[4096];
	size_t i, len;

	for (i = 0; i < NR_TREE; i++) {
		snprintf(rel, sizeof(rel), RAP "%s", tree[i][0]);
		len = strcspn(tree[i][1], "\n");
		snprintf(want, sizeof(want), "%.*s", (int)len, tree[i][1]);
		if (strcmp(get(sys, rel), want) && strcmp(tree[i][0], "stats/reset")) {
			*bad = tree[i][0];
			return false;
		}
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* I/O hooks: reads logged and failed at will, writes as the kernel's */

static char reads[64][128];		/* files read, relative to the module dir */
static size_t nreads;
static char fail_read[128];		/* reads of this file fail with -fail_read_err */
static int fail_read_err;
static unsigned int short_at;		/* the write of this number is short */

static const char *module_rel(const char *path)
{
	char dir[512];
	size_t len;

	snprintf(dir, sizeof(dir), "%s/" RAP, sys);
	len = strlen(dir);
	if (!strncmp(path, dir, len))
		return path + len;
	len = strlen(proc);
	if (!strncmp(path, proc, len) && path[len] == '/')
		return path + len + 1;
	return NULL;
}

static int hostile_read(const char *path, char **out)
{
	const char *rel = module_rel(path);
	size_t i;

	if (rel && *fail_read && !strcmp(rel, fail_read))
		return fail_read_err;
	for (i = 0; rel && i < nreads && strcmp(reads[i], rel); i++)
		;
	if (rel && i == nreads && nreads < 64)
		snprintf(reads[nreads++], sizeof(reads[0]), "%s", rel);
	return rapctl_io_real.read(path, out);
}

static int hostile_write(const char *path, const char *s)
{
	short_write = nwrites + 1 == short_at;
	return kernel_write(path, s);
}

static void hooks(void)
{
	reset_hooks();
	rapctl_io.read = hostile_read;
	rapctl_io.write = hostile_write;
	fail_read[0] = '\0';
	short_at = 0;
	short_write = false;
	read_chunk = 0;
	read_eintr = false;
	read_eio_path[0] = '\0';
}

/* ------------------------------------------------------------------ */
/* The commands */

static const char *const commands[] = {
	"status", "get", "get pmd_hit vma_limit",
	"set descending_thp=stream pmd_hit=on vma_limit=near_end",
	"profile seed", "profile stock", "profile best",
	"stats", "stats --json", "stats --prometheus", "stats reset",
	"ab set pmd_hit=on descending_seq=window",
	"ab assign sample 500 --salt 7", "ab assign cgroup /canary", "ab assign off",
	"ab status", "ab report", "ab report --json", "ab report --prometheus",
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static bool writes(const char *cmd)
{
	return !strncmp(cmd, "set", 3) || !strncmp(cmd, "profile", 7) ||
	       !strncmp(cmd, "ab set", 6) || !strncmp(cmd, "ab assign", 9);
}

static int run_cmd(const char *cmd)
{
	return ctl("--sysfs-root %s --proc-root %s %s", sys, proc, cmd);
}

struct baseline {
	int rc;
	char *out;
	unsigned int nwrites;
	char reads[64][128];
	size_t nreads;
};

static void take_baseline(const char *cmd, struct baseline *b)
{
	restore_tree();
	hooks();
	nreads = 0;
	b->rc = run_cmd(cmd);
	b->out = strdup(OUT ? OUT : "");
	b->nwrites = nwrites;
	memcpy(b->reads, reads, sizeof(reads));
	b->nreads = nreads;
	restore_tree();
}

/* Files whose failure the tool works around: it says "unknown", or falls back */
static bool optional_file(const char *rel)
{
	return !strcmp(rel, "version") || !strcmp(rel, "self/mountinfo") ||
	       !strncmp(rel, "config-", 7) || !strcmp(rel, "kallsyms");
}

static void full_path(char *buf, size_t size, const char *rel)
{
	if (!strcmp(rel, "self/mountinfo"))
		snprintf(buf, size, "%s/%s", proc, rel);
	else
		snprintf(buf, size, "%s/" RAP "%s", sys, rel);
}

/* After a failed run: exit 1, the file and the problem named, nothing changed */
static bool failed_well(const char *cmd, int rc, const char *rel, const char *what)
{
	char path[1024];
	const char *bad = NULL;
	bool intact;

	read_eio_path[0] = '\0';
	intact = tree_intact(&bad);
	full_path(path, sizeof(path), rel);
	if (rc == 1 && has(ERR, path) && has(ERR, what) && intact &&
	    (!writes(cmd) || !*OUT))
		return true;
	printf("# %s: exit %d, changed %s\n# stderr: %s", cmd, rc, intact ? "nothing" : bad,
	       ERR ? ERR : "");
	return false;
}

static void read_errors(const char *cmd, const struct baseline *b)
{
	static const struct {
		int err;
		const char *text;
	} faults[] = {
		{ -EIO, "Input/output error" },
		{ -EACCES, "permission denied: run as root" },
		{ -ENOENT, "No such file or directory" },
	};
	size_t i, k;
	int rc, bad = 0;

	for (i = 0; i < b->nreads; i++) {
		for (k = 0; k < sizeof(faults) / sizeof(faults[0]); k++) {
			restore_tree();
			hooks();
			snprintf(fail_read, sizeof(fail_read), "%s", b->reads[i]);
			fail_read_err = faults[k].err;
			rc = run_cmd(cmd);
			if (optional_file(b->reads[i]) ? rc != b->rc :
			    !failed_well(cmd, rc, b->reads[i], faults[k].text)) {
				printf("# reading %s fails with %s\n", b->reads[i], faults[k].text);
				bad++;
			}
		}
	}
	ok(!bad, "%s: a failed read of any of its %zu files is exit 1 naming the file",
	   cmd, b->nreads);
}

/* Content the module never writes, and whether the tool must refuse it */
static const struct {
	const char *text;
	bool numeric_only;	/* refused in a counter or number file only */
	const char *what;
} contents[] = {
	{ "", false, "" },
	{ "\x01\x02 [x]\x1b[2J\n", false, "not one line of text" },
	{ "12\n34\n", false, "not one line of text" },
	{ "garbage", false, "" },
	{ "[off] [on]\n", false, "" },
	{ "18446744073709551616\n", true, "not a decimal number" },
	{ "-1\n", true, "not a decimal number" },
	{ " 5\n", true, "not a decimal number" },
	{ "\xc3\xb6l\xc3\xa7\xc3\xbc [\xff\xfe]\n", true, "not a decimal number" },
};

/* Files whose content is free text or a path (shown as it is) */
static bool free_text(const char *rel)
{
	return !strcmp(rel, "version") || !strcmp(rel, "ab/cgroup") ||
	       !strcmp(rel, "self/mountinfo");
}

static bool numeric(const char *rel)
{
	return !strncmp(rel, "stats/", 6) || !strcmp(rel, "ab/salt") ||
	       !strcmp(rel, "ab/sample_permille");
}

static void put_rel(const char *rel, const char *text)
{
	char r[300];

	if (!strcmp(rel, "self/mountinfo")) {
		put(proc, rel, text);
		return;
	}
	snprintf(r, sizeof(r), RAP "%s", rel);
	put(sys, r, text);
}

static void hostile_contents(const char *cmd, const struct baseline *b)
{
	size_t i, k;
	int rc, bad = 0;

	for (i = 0; i < b->nreads; i++) {
		if (free_text(b->reads[i]))
			continue;
		for (k = 0; k < sizeof(contents) / sizeof(contents[0]); k++) {
			bool must_fail = !contents[k].numeric_only || numeric(b->reads[i]);
			char path[1024];

			restore_tree();
			hooks();
			put_rel(b->reads[i], contents[k].text);
			rc = run_cmd(cmd);
			full_path(path, sizeof(path), b->reads[i]);
			if (must_fail ? rc != 1 || !has(ERR, path) || !has(ERR, contents[k].what) :
					rc > 2) {
				printf("# %s holding '%s': exit %d\n# stderr: %s", b->reads[i],
				       contents[k].text, rc, ERR ? ERR : "");
				bad++;
			}
			if (rc && writes(cmd))
				put_rel(b->reads[i], "[off]\n");
		}
	}
	put(proc, "self/mountinfo", "27 21 0:25 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	ok(!bad, "%s: hostile content in any of its files is refused, naming the file", cmd);
}

/* An overlong file (1 MiB on one line) is read whole and refused or shown */
static void overlong(const char *cmd, const struct baseline *b)
{
	char *big = malloc(1 << 20);
	size_t i;
	int rc, bad = 0;

	if (!big)
		return;
	memset(big, 'x', (1 << 20) - 2);
	big[(1 << 20) - 2] = '\n';
	big[(1 << 20) - 1] = '\0';
	for (i = 0; i < b->nreads; i++) {
		restore_tree();
		hooks();
		put_rel(b->reads[i], big);
		rc = run_cmd(cmd);
		if (rc > 2 || (numeric(b->reads[i]) && rc != 1)) {
			printf("# %s of 1 MiB: exit %d\n", b->reads[i], rc);
			bad++;
		}
	}
	free(big);
	put(proc, "self/mountinfo", "27 21 0:25 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	ok(!bad, "%s: a 1 MiB file in place of any of its files", cmd);
}

/* A value without its newline, one byte per read(), interrupted reads: as before */
static void benign_reads(const char *cmd, const struct baseline *b)
{
	char rel[300], *v;
	size_t i;
	int rc, bad = 0;

	restore_tree();
	hooks();
	for (i = 0; i < NR_TREE; i++) {
		snprintf(rel, sizeof(rel), RAP "%s", tree[i][0]);
		v = strndup(tree[i][1], strcspn(tree[i][1], "\n"));
		put(sys, rel, v);
		free(v);
	}
	rc = run_cmd(cmd);
	bad += rc != b->rc || strcmp(OUT, b->out);
	ok(!bad, "%s: values without a newline read as with one", cmd);

	restore_tree();
	hooks();
	read_chunk = 1;
	rc = run_cmd(cmd);
	ok(rc == b->rc && !strcmp(OUT, b->out), "%s: short reads (a byte per read()) read whole",
	   cmd);
	restore_tree();
	hooks();
	read_eintr = true;
	rc = run_cmd(cmd);
	ok(rc == b->rc && !strcmp(OUT, b->out), "%s: interrupted reads (EINTR) are retried", cmd);

	for (i = 0, bad = 0; i < b->nreads; i++) {
		restore_tree();
		hooks();
		full_path(read_eio_path, sizeof(read_eio_path), b->reads[i]);
		rc = run_cmd(cmd);
		if (optional_file(b->reads[i]) ? rc != b->rc :
		    !failed_well(cmd, rc, b->reads[i], "Input/output error")) {
			printf("# %s: EIO after its first byte\n", b->reads[i]);
			bad++;
		}
	}
	ok(!bad, "%s: EIO in the middle of a read is exit 1 naming the file", cmd);
}

static void write_errors(const char *cmd, const struct baseline *b)
{
	static const int errs[] = { -EINVAL, -EBUSY, -EIO, -EACCES, 0 /* short */ };
	unsigned int w;
	size_t k;
	int rc, bad = 0;

	for (w = 1; w <= b->nwrites; w++) {
		for (k = 0; k < sizeof(errs) / sizeof(errs[0]); k++) {
			const char *changed = NULL;

			restore_tree();
			hooks();
			if (errs[k]) {
				fail_mask = 1ULL << w;
				fail_err = errs[k];
			} else {
				short_at = w;
			}
			rc = run_cmd(cmd);
			if (rc != 1 || *OUT || !tree_intact(&changed) ||
			    !has(ERR, "nothing was changed")) {
				printf("# write %u fails (%d): exit %d, %s changed\n# writes: %s\n# stderr: %s",
				       w, errs[k], rc, changed ? changed : "nothing", wlog, ERR);
				bad++;
			}
		}
	}
	ok(!bad, "%s: any of its %u writes failing (EINVAL, EBUSY, EIO, EACCES, short) changes nothing",
	   cmd, b->nwrites);
}

static void test_sysfs(void)
{
	struct baseline b;
	size_t c;

	for (c = 0; c < NR_COMMANDS; c++) {
		take_baseline(commands[c], &b);
		ok(b.rc == 0, "%s: runs on the fake tree (%zu files read, %u writes)", commands[c],
		   b.nreads, b.nwrites);
		read_errors(commands[c], &b);
		hostile_contents(commands[c], &b);
		overlong(commands[c], &b);
		benign_reads(commands[c], &b);
		if (writes(commands[c]) && strcmp(commands[c], "profile stock"))
			write_errors(commands[c], &b);
		free(b.out);
	}
}

/* ------------------------------------------------------------------ */
/* Hostile arguments */

static void arg_case(int want, const char *msg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void arg_case(int want, const char *msg, const char *fmt, ...)
{
	char line[12000], label[80], *argv[16];
	const char *bad = NULL;
	size_t olen, elen;
	FILE *out, *err;
	va_list ap;
	int argc = 0, rc;
	char *tok, *save;

	restore_tree();
	hooks();
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	snprintf(label, sizeof(label), "%.60s%s", line, strlen(line) > 60 ? "..." : "");
	/* words split at '|', so that empty strings and blanks can be arguments */
	argv[argc++] = "rapolicyctl";
	argv[argc++] = "--sysfs-root";
	argv[argc++] = sys;
	argv[argc++] = "--proc-root";
	argv[argc++] = proc;
	for (tok = line; tok && argc < 15; tok = save) {
		save = strchr(tok, '|');
		if (save)
			*save++ = '\0';
		argv[argc++] = tok;
	}
	argv[argc] = NULL;
	free(OUT);
	free(ERR);
	out = open_memstream(&OUT, &olen);
	err = open_memstream(&ERR, &elen);
	rc = rapctl_main(argc, argv, out, err);
	fclose(out);
	fclose(err);
	ok(rc == want && has(ERR, msg) && (want == 0 || tree_intact(&bad)),
	   "args '%s': exit %d, '%s'", label, want, msg);
	if (rc != want || !has(ERR, msg))
		printf("# exit %d, stderr: %.300s\n", rc, ERR);
}

static void test_args(void)
{
	char *big = malloc(10001);

	if (!big)
		return;
	memset(big, 'a', 10000);
	big[10000] = '\0';
	arg_case(2, "'' is not POLICY=VALUE", "set|");
	arg_case(2, "'=' is not POLICY=VALUE", "set|=");
	arg_case(2, "'=on' is not POLICY=VALUE", "set|=on");
	arg_case(2, "'pmd_hit=' is not POLICY=VALUE", "set|pmd_hit=");
	arg_case(2, "value '=on' is not allowed", "set|pmd_hit==on");
	arg_case(2, "value 'on=off' is not allowed", "set|pmd_hit=on=off");
	arg_case(2, "pmd_hit is given more than once", "set|pmd_hit=on|pmd_hit=on");
	arg_case(2, "value 'ön' is not allowed", "set|pmd_hit=ön");
	arg_case(2, "unknown policy 'pmd_hït'", "set|pmd_hït=on");
	arg_case(2, "unknown policy 'aaaa", "set|%s=on", big);
	arg_case(2, "is not allowed", "set|pmd_hit=%s", big);
	arg_case(2, "unknown policy ''", "get|");
	arg_case(2, "unknown profile ''", "profile|");
	arg_case(2, "one profile at a time", "profile|seed|seed");
	arg_case(0, "", "ab|assign|sample|1000");
	arg_case(0, "", "ab|assign|sample|0|--salt|18446744073709551615");
	arg_case(0, "", "ab|assign|sample|1|--salt=0xffffffffffffffff");
	arg_case(2, "PERMILLE '1001'", "ab|assign|sample|1001");
	arg_case(2, "PERMILLE ''", "ab|assign|sample|");
	arg_case(2, "unknown option '-1'", "ab|assign|sample|-1");
	arg_case(2, "PERMILLE '+5'", "ab|assign|sample|+5");
	arg_case(2, "PERMILLE ' 5'", "ab|assign|sample| 5");
	arg_case(2, "PERMILLE '18446744073709551616'", "ab|assign|sample|18446744073709551616");
	arg_case(2, "--salt '18446744073709551616'", "ab|assign|sample|1|--salt|18446744073709551616");
	arg_case(2, "--salt '0x10000000000000000'", "ab|assign|sample|1|--salt|0x10000000000000000");
	arg_case(2, "--salt '0x'", "ab|assign|sample|1|--salt=0x");
	arg_case(2, "--salt needs a value", "ab|assign|sample|1|--salt");
	arg_case(2, "unexpected argument '2'", "ab|assign|sample|1|2");
	arg_case(2, "'' is not a cgroup path", "ab|assign|cgroup|");
	arg_case(2, "'canary' is not a cgroup path", "ab|assign|cgroup|canary");
	arg_case(2, "'/canary/..' is not a cgroup path", "ab|assign|cgroup|/canary/..");
	arg_case(2, "cgroup path too long (10001 bytes)", "ab|assign|cgroup|/%s", big);
	arg_case(0, "", "ab|assign|cgroup|//canary//");
	arg_case(2, "unknown subcommand ''", "ab|");
	arg_case(2, "unknown command ''", "%s", "");
	arg_case(2, "--sysfs-root: empty directory name", "--sysfs-root=|status");
	arg_case(2, "--sysfs-root: name too long", "--sysfs-root=/%s|status", big);
	arg_case(2, "--count '0'", "stats|--interval|1|--count|0");
	arg_case(2, "--count '18446744073709551616'", "stats|--interval|1|--count|18446744073709551616");
	arg_case(2, "--interval '86400.5'", "stats|--interval|86400.5");
	arg_case(2, "--interval '1e3'", "stats|--interval|1e3");
	arg_case(2, "--interval ''", "stats|--interval=");
	arg_case(2, "unexpected argument 'é'", "status|é");
	free(big);
}

/* The A/B report's sums saturate: counters near 2^64 do not wrap */
static void test_report_overflow(void)
{
	int rc;

	restore_tree();
	hooks();
	put(sys, RAP "stats/b/sync_miss", "1\n");
	put(sys, RAP "stats/b/mmap_hit", "18446744073709551615\n");
	rc = run_cmd("ab report");
	ok(rc == 0 && has(OUT, "mmap faults (sync_miss + mmap_hit)") &&
	   has(OUT, "          300 18446744073709551615\n"),
	   "ab report: sync_miss + mmap_hit saturates at 2^64-1 instead of wrapping to 0");
	restore_tree();
}

int main(void)
{
	char boot[300];

	/*
	 * Thousands of runs rewrite the tree: on ext4 each truncating
	 * rewrite flushes (auto_da_alloc), 50 s here against 2 s in tmpfs
	 */
	if (!getenv("TMPDIR") && !access("/dev/shm", W_OK))
		setenv("TMPDIR", "/dev/shm", 1);
	if (test_begin("rapctl-hostile-test"))
		return 1;
	make_trees();
	tmp_path(boot, sizeof(boot), "boot-none");
	setenv("RAPOLICYCTL_BOOT_ROOT", boot, 1);
	test_sysfs();
	test_args();
	test_report_overflow();
	return test_end();
}
