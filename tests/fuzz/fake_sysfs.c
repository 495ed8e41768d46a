// SPDX-License-Identifier: GPL-2.0
/* A fake rapolicy sysfs directory in memory (see fake_sysfs.h) */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake_sysfs.h"
#include "rapctl.h"
#include "rapctl_sysfs.h"

#define POLICIES(dir)							\
	{ dir "descending_thp", "off [folio] stream\n", NULL, NULL },		\
	{ dir "pmd_hit", "[off] on\n", NULL, NULL },				\
	{ dir "descending_seq", "[off] window stream\n", NULL, NULL },	\
	{ dir "vma_limit", "[none] always near_end\n", NULL, NULL },		\
	{ dir "sync_mmap_order", "[off] fault_around 0 1 2 3 4 5 6 7 8 9\n", NULL, NULL }, \
	{ dir "descending_around", "[off] window stream\n", NULL, NULL }

#define COUNTERS(dir)							\
	{ dir "sync_miss", "14436\n", NULL, NULL },				\
	{ dir "mmap_hit", "58\n", NULL, NULL },				\
	{ dir "pages_requested", "102400\n", NULL, NULL },			\
	{ dir "sync_thp", "100\n", NULL, NULL },				\
	{ dir "descending_thp", "63\n", NULL, NULL }

struct fake_file fake_files[] = {
	POLICIES(""),
	{ "version", "0.1.0\n", NULL, NULL },
	POLICIES("ab/"),
	{ "ab/mode", "off [cgroup] sample\n", NULL, NULL },
	{ "ab/cgroup", "/canary\n", NULL, NULL },
	{ "ab/sample_permille", "500\n", NULL, NULL },
	{ "ab/salt", "1\n", NULL, NULL },
	COUNTERS("stats/"),
	{ "stats/reset", "", NULL, NULL },
	COUNTERS("stats/a/"),
	COUNTERS("stats/b/"),
};

const size_t fake_nr_files = sizeof(fake_files) / sizeof(fake_files[0]);

char fake_sys[256], fake_proc[256];
unsigned int fake_fail_write;
int fake_fail_errno;
bool fake_fail_short;
static unsigned int nwrites;

static struct fake_file *find(const char *path)
{
	char prefix[PATH_MAX];
	size_t len, i;

	snprintf(prefix, sizeof(prefix), "%s/" RAPCTL_DIR "/", fake_sys);
	len = strlen(prefix);
	if (strncmp(path, prefix, len))
		return NULL;
	for (i = 0; i < fake_nr_files; i++)
		if (!strcmp(path + len, fake_files[i].rel))
			return &fake_files[i];
	return NULL;
}

static int fake_read(const char *path, char **out)
{
	struct fake_file *f = find(path);

	if (!f)
		return rapctl_io_real.read(path, out);
	*out = strdup(f->text);
	return *out ? 0 : -ENOMEM;
}

static int store(struct fake_file *f, const char *s, size_t len)
{
	char *t = strndup(s, len);

	if (!t)
		return -ENOMEM;
	free(f->text);
	f->text = t;
	return 0;
}

/* The module's store(): a bracket file takes one of its values */
static int kernel_store(struct fake_file *f, const char *s)
{
	struct rapctl_policy p = { 0 };
	char line[1024], v[256];
	size_t i, len = 0;
	int cur;

	if (rapctl_parse_choices(f->text, &p))
		return store(f, s, strlen(s));
	snprintf(v, sizeof(v), "%.*s", (int)strcspn(s, "\n"), s);
	cur = rapctl_policy_value(&p, v);
	line[0] = '\0';
	for (i = 0; cur >= 0 && i < p.nr_values && len < sizeof(line); i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len,
					(int)i == cur ? "%s[%s]" : "%s%s",
					i ? " " : "", p.values[i]);
	rapctl_policy_free(&p);
	if (cur < 0)
		return -EINVAL;
	return store(f, line, strlen(line));
}

static int fake_write(const char *path, const char *s)
{
	struct fake_file *f = find(path);

	if (!f)
		return -ENOENT;
	if (++nwrites != fake_fail_write)
		return kernel_store(f, s);
	if (!fake_fail_short)
		return -fake_fail_errno;
	/*
	 * sysfs hands store() the whole buffer: a short count means the
	 * value landed and write() says fewer bytes (util.c: -EIO)
	 */
	kernel_store(f, s);
	return -EIO;
}

static int mkfile(const char *dir, const char *rel)
{
	char path[PATH_MAX], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	return f && !fclose(f) ? 0 : -1;
}

static char top[64];

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The temporary tree goes when the fuzzer exits */
static void remove_tree(void)
{
	if (*top)
		nftw(top, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int make_tree(void)
{
	char tmpl[] = "/tmp/rapfuzz.XXXXXX", rel[PATH_MAX];
	size_t i;

	if (!mkdtemp(tmpl))
		return -1;
	snprintf(top, sizeof(top), "%s", tmpl);
	atexit(remove_tree);
	snprintf(fake_sys, sizeof(fake_sys), "%s/sys", tmpl);
	snprintf(fake_proc, sizeof(fake_proc), "%s/proc", tmpl);
	for (i = 0; i < fake_nr_files; i++) {
		snprintf(rel, sizeof(rel), RAPCTL_DIR "/%s", fake_files[i].rel);
		if (mkfile(fake_sys, rel))
			return -1;
	}
	if (mkfile(fake_sys, "fs/cgroup/canary/cgroup.procs") ||
	    mkfile(fake_sys, "fs/cgroup/cgroup.procs") ||
	    mkfile(fake_proc, "self/mountinfo"))
		return -1;
	snprintf(rel, sizeof(rel), "%s/self/mountinfo", fake_proc);
	return rapctl_io_real.write(rel,
		"27 21 0:25 / /sys/fs/cgroup rw shared:4 - cgroup2 cgroup2 rw\n") ? -1 : 0;
}

int fake_init(void)
{
	static int done;

	if (done)
		return done > 0 ? 0 : -1;
	done = -1;
	if (make_tree())
		return -1;
	setenv("RAPOLICYCTL_SYSFS_ROOT", fake_sys, 1);
	setenv("RAPOLICYCTL_PROC_ROOT", fake_proc, 1);
	setenv("RAPOLICYCTL_BOOT_ROOT", fake_proc, 1);
	rapctl_io.read = fake_read;
	rapctl_io.write = fake_write;
	fake_reset();
	done = 1;
	return 0;
}

void fake_reset(void)
{
	size_t i;

	for (i = 0; i < fake_nr_files; i++) {
		free(fake_files[i].text);
		fake_files[i].text = strdup(fake_files[i].init);
		if (!fake_files[i].text)
			abort();
	}
	nwrites = 0;
	fake_fail_write = 0;
	fake_fail_errno = 0;
	fake_fail_short = false;
}

void fake_set(size_t i, const char *text)
{
	if (store(&fake_files[i], text, strlen(text)))
		abort();
}

void fake_snapshot(void)
{
	size_t i;

	for (i = 0; i < fake_nr_files; i++) {
		free(fake_files[i].snap);
		fake_files[i].snap = strdup(fake_files[i].text);
		if (!fake_files[i].snap)
			abort();
	}
}

/* The length of s without trailing newlines and blanks, as rapctl_read() reads it */
static size_t trimmed(const char *s)
{
	size_t len = strlen(s);

	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	return len;
}

bool fake_unchanged(void)
{
	size_t i, a, b;

	for (i = 0; i < fake_nr_files; i++) {
		a = trimmed(fake_files[i].text);
		b = trimmed(fake_files[i].snap);
		if (a != b || memcmp(fake_files[i].text, fake_files[i].snap, a))
			return false;
	}
	return true;
}

int fake_run(int argc, char **argv, char **out, char **err)
{
	size_t olen, elen;
	FILE *fo = open_memstream(out, &olen), *fe = open_memstream(err, &elen);
	int rc;

	if (!fo || !fe)
		abort();
	rc = rapctl_main(argc, argv, fo, fe);
	fclose(fo);
	fclose(fe);
	return rc;
}
