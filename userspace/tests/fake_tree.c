// SPDX-License-Identifier: GPL-2.0
/*
 * The fake module tree, generated from module/table.h (see fake_tree.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "table.h"
#include "fake_tree.h"

struct fpol {
	const char *name;
	bool orders;
	const char *values[8];
};

static const struct fpol fpols[] = {
#define RAP_POLICY(name, orders, help, ...) { #name, orders, { __VA_ARGS__ } },
#include "table.h"
};
#define NR_FPOL (sizeof(fpols) / sizeof(fpols[0]))
static const char *const fstats[] = {
#define RAP_STAT(name, help) #name,
#include "table.h"
};
#define NR_FSTATS (sizeof(fstats) / sizeof(fstats[0]))
static const char *const fmodes[] = { "off", "cgroup", "sample", NULL };

static int put(const char *dir, const char *rel, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

/* stats/buckets at zero, every bucket in arm a */
static int put_buckets(const char *dir)
{
	char buf[64 * 16] = "";
	size_t o = 0;

	for (int i = 0; i < 64; i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%d a 0 0\n", i);
	return put(dir, "sys/kernel/mm/rapolicy/stats/buckets", buf);
}

/* stats/ledger, stats/a/ledger, stats/b/ledger at zero: stock, then each policy */
static int put_ledger(const char *dir)
{
	char buf[64 * (NR_FPOL + 1)];
	size_t o = (size_t)snprintf(buf, sizeof(buf), "stock 0 0 0 0\n");
	int ret = 0;

	for (size_t i = 0; i < NR_FPOL; i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s 0 0 0 0\n", fpols[i].name);
	for (int d = 0; d < 3 && !ret; d++)
		ret = put(dir, (const char *[]){ "sys/kernel/mm/rapolicy/stats/ledger",
			  "sys/kernel/mm/rapolicy/stats/a/ledger",
			  "sys/kernel/mm/rapolicy/stats/b/ledger" }[d], buf);
	return ret;
}

static int mk(const char *dir, const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	return mkdir(p, 0755) && errno != EEXIST ? -errno : 0;
}

/*
 * What the faked kernel lacks, from DIR/lack (" POLICY POLICY=VALUE ... "):
 * a policy file it does not have, a value its file does not list
 */
static char lack[1024];

static void load_lack(const char *dir)
{
	char p[PATH_MAX];
	FILE *f;
	size_t n = 0;

	snprintf(p, sizeof(p), "%s/lack", dir);
	f = fopen(p, "r");
	if (f) {
		n = fread(lack + 1, 1, sizeof(lack) - 3, f);
		fclose(f);
	}
	lack[0] = ' ';
	lack[n + 1] = ' ';
	lack[n + 2] = '\0';
	for (size_t i = 0; i < n + 2; i++)
		if (lack[i] == '\n')
			lack[i] = ' ';
}

/* Whether the faked kernel lacks policy pol (val NULL) or its value val */
static bool lacks(const char *pol, const char *val)
{
	char w[96];

	snprintf(w, sizeof(w), " %s%s%s ", pol, val ? "=" : "", val ? val : "");
	return strstr(lack, w) != NULL;
}

/*
 * The extras of a newer module, from the same list: "+POLICY=VALUE" a
 * value its file lists after the table's, "+NAME" a file of its own at
 * the top ("+stats/NAME": a counter)
 */
static size_t extras(char *buf, size_t size, size_t o, const char *pol, const char *cur)
{
	char w[96];
	const char *p = lack;
	size_t len = (size_t)snprintf(w, sizeof(w), " +%s=", pol);

	while ((p = strstr(p, w))) {
		size_t n = strcspn(p + len, " ");

		o += (size_t)snprintf(buf + o, size - o, strncmp(p + len, cur, n) || cur[n] ?
				      " %.*s" : " [%.*s]", (int)n, p + len);
		p += len;
	}
	return o;
}

static int put_extra_files(const char *dir)
{
	char rel[PATH_MAX];
	const char *p = lack;
	int ret = 0;

	while (!ret && (p = strstr(p, " +"))) {
		size_t n = strcspn(p + 2, " =");

		if (p[2 + n] != '=') {
			snprintf(rel, sizeof(rel), "sys/kernel/mm/rapolicy/%.*s", (int)n, p + 2);
			ret = put(dir, rel, strncmp(p + 2, "stats/", 6) ? "[off] on\n" : "0\n");
		}
		p += 2;
	}
	return ret;
}

/* "a [b] c" with value cur chosen (orders after the names if ord) */
static void choice(char *buf, size_t size, const char *pol, const char *const *vals,
		   bool ord, const char *cur)
{
	size_t o = 0;

	for (int n = 0; vals[n]; n++)
		if (!lacks(pol, vals[n]))
			o += (size_t)snprintf(buf + o, size - o, strcmp(vals[n], cur) ?
					      "%s%s" : "%s[%s]", o ? " " : "", vals[n]);
	o = extras(buf, size, o, pol, cur);
	for (int i = 0; ord && i <= FAKE_MAX_ORDER; i++) {
		char v[12];

		snprintf(v, sizeof(v), "%d", i);
		if (!lacks(pol, v))
			o += (size_t)snprintf(buf + o, size - o,
					      strcmp(v, cur) ? " %s" : " [%s]", v);
	}
	snprintf(buf + o, size - o, "\n");
}

/*
 * streams_max_kb as module/sysfs.c's streams_max_kb_store() takes it:
 * kstrtouint() base 10 (an optional '+', digits, an optional '\n', at
 * most UINT_MAX), then rap_tracker_set_max_kb()'s range, 64 to 65536 sets
 * of 1152 bytes (x86-64 without lock debugging): 72..73728 KiB. Anything
 * else fails with -EINVAL (-ERANGE) and the bound stays. 0: refused.
 */
static unsigned long long fake_bound(const char *text)
{
	const char *p = text + (*text == '+');
	size_t n = strspn(p, "0123456789");
	unsigned long long v = 0;

	if (!n || (p[n] && strcmp(p + n, "\n")))
		return 0;
	for (size_t i = 0; i < n && v <= UINT_MAX; i++)
		v = v * 10 + (unsigned int)(p[i] - '0');
	return v >= 72 && v <= 73728 ? v : 0;
}

/*
 * Each arm's streams_max_kb, KiB, and streams_bytes, 73792 (the table at
 * load: a 64-byte header and 64 sets), unless the fake lacks
 * "streams_max_kb" (an older module). The bound the module holds is kept
 * in DIR/bound_a and DIR/bound_b too: a write it refuses changes nothing.
 */
static int put_streams(const char *dir, int arm, const char *kb)
{
	char rel[PATH_MAX], bytes[PATH_MAX], bound[16];

	if (lacks("streams_max_kb", NULL))
		return 0;
	snprintf(bound, sizeof(bound), "bound_%c", 'a' + arm);
	snprintf(rel, sizeof(rel), "sys/kernel/mm/rapolicy/%sstreams_max_kb", arm ? "ab/" : "");
	snprintf(bytes, sizeof(bytes), "sys/kernel/mm/rapolicy/%sstreams_bytes",
		 arm ? "ab/" : "");
	return put(dir, rel, kb) ?: put(dir, bound, kb) ?: put(dir, bytes, "73792\n");
}

/* The first line of DIR/REL into buf ("" if empty); 0 or -errno */
static int line(const char *dir, const char *rel, char *buf, int size)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "r");
	if (!f)
		return -errno;
	if (!fgets(buf, size, f))
		buf[0] = '\0';
	fclose(f);
	return 0;
}

/* A written bound, taken or refused as the module would */
static int settle_streams(const char *dir, int arm)
{
	char rel[PATH_MAX], text[64], old[32], kb[32];
	unsigned long long v;
	int ret;

	if (lacks("streams_max_kb", NULL))
		return 0;
	snprintf(rel, sizeof(rel), "sys/kernel/mm/rapolicy/%sstreams_max_kb", arm ? "ab/" : "");
	ret = line(dir, rel, text, sizeof(text));
	snprintf(rel, sizeof(rel), "bound_%c", 'a' + arm);
	ret = ret ?: line(dir, rel, old, sizeof(old));
	if (ret)
		return ret;
	v = fake_bound(text);
	if (v)
		snprintf(kb, sizeof(kb), "%llu\n", v);
	else
		snprintf(kb, sizeof(kb), "%s", old);
	return strcmp(kb, text) || strcmp(kb, old) ? put_streams(dir, arm, kb) : 0;
}

/* Every counter at 0 but those lacking ("stats/NAME": an older module) */
static int put_counters(const char *dir)
{
	char rel[PATH_MAX], name[80];
	int ret = 0;

	for (size_t s = 0; !ret && s < 3 * NR_FSTATS; s++) {
		snprintf(name, sizeof(name), "stats/%s", fstats[s % NR_FSTATS]);
		if (lacks(name, NULL))
			continue;
		snprintf(rel, sizeof(rel), "sys/kernel/mm/rapolicy/stats/%s%s",
			 (const char *[]){ "", "a/", "b/" }[s / NR_FSTATS],
			 fstats[s % NR_FSTATS]);
		ret = put(dir, rel, "0\n");
	}
	return ret;
}

int fake_tree_create(const char *dir, const char *version, const char *lacking)
{
	static const char *const dirs[] = { "sys", "sys/kernel", "sys/kernel/mm",
		"sys/kernel/mm/rapolicy", "sys/kernel/mm/rapolicy/ab",
		"sys/kernel/mm/rapolicy/stats", "sys/kernel/mm/rapolicy/stats/a",
		"sys/kernel/mm/rapolicy/stats/b", "sys/fs", "sys/fs/cgroup", "proc" };
	char rel[PATH_MAX], buf[256];
	int ret = mk(dir, "");

	for (size_t i = 0; !ret && i < sizeof(dirs) / sizeof(dirs[0]); i++)
		ret = mk(dir, dirs[i]);
	if (!ret)
		ret = put(dir, "lack", lacking ? lacking : "");
	load_lack(dir);
	for (size_t p = 0; !ret && p < 2 * NR_FPOL; p++) {
		const struct fpol *f = &fpols[p % NR_FPOL];

		if (lacks(f->name, NULL))
			continue;
		snprintf(rel, sizeof(rel), "sys/kernel/mm/rapolicy/%s%s",
			 p < NR_FPOL ? "" : "ab/", f->name);
		choice(buf, sizeof(buf), f->name, f->values, f->orders, f->values[0]);
		ret = put(dir, rel, buf);
	}
	ret = ret ?: put_counters(dir);
	choice(buf, sizeof(buf), "ab/mode", fmodes, false, "off");
	snprintf(rel, sizeof(rel), "%s\n", version);
	if (!ret)
		ret = put(dir, "sys/kernel/mm/rapolicy/version", rel) ?:
		      put(dir, "sys/kernel/mm/rapolicy/ab/mode", buf) ?:
		      put(dir, "sys/kernel/mm/rapolicy/ab/cgroup", "\n") ?:
		      put(dir, "sys/kernel/mm/rapolicy/ab/sample_permille", "0\n") ?:
		      put(dir, "sys/kernel/mm/rapolicy/ab/salt", "0\n") ?:
		      put(dir, "sys/kernel/mm/rapolicy/ab/key", "0\n") ?:
		      put(dir, "sys/kernel/mm/rapolicy/stats/reset", "") ?:
		      put(dir, "sys/kernel/mm/rapolicy/stats/elapsed_ms", "0\n") ?:
		      put(dir, "sys/kernel/mm/rapolicy/stats/settings_changed", "0\n") ?:
		      put_buckets(dir) ?: put_ledger(dir) ?:
		      put_streams(dir, 0, "4096\n") ?: put_streams(dir, 1, "4096\n") ?:
		      put(dir, "proc/kallsyms",
			  "0000000000000000 T " "readahead_policy_register\n") ?:
		      put_extra_files(dir);
	return ret;
}

/* A choice file holding one written word: show it chosen */
static int settle_choice(const char *dir, const char *rel, const char *pol,
			 const char *const *vals, bool ord)
{
	char p[PATH_MAX], word[64] = "", buf[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "r");
	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	if (strchr(buf, '[') || sscanf(buf, "%63s", word) != 1)
		return 0;
	choice(buf, sizeof(buf), pol, vals, ord, word);
	return put(dir, rel, buf);
}

int fake_tree_settle(const char *dir)
{
	char rel[PATH_MAX], p[PATH_MAX];
	struct stat st;
	int ret = 0;

	load_lack(dir);
	for (size_t i = 0; !ret && i < 2 * NR_FPOL; i++) {
		const struct fpol *f = &fpols[i % NR_FPOL];

		if (lacks(f->name, NULL))
			continue;
		snprintf(rel, sizeof(rel), "sys/kernel/mm/rapolicy/%s%s",
			 i < NR_FPOL ? "" : "ab/", f->name);
		ret = settle_choice(dir, rel, f->name, f->values, f->orders);
	}
	if (!ret)
		ret = settle_choice(dir, "sys/kernel/mm/rapolicy/ab/mode", "ab/mode",
				    fmodes, false) ?: settle_streams(dir, 0) ?: settle_streams(dir, 1);
	snprintf(p, sizeof(p), "%s/sys/kernel/mm/rapolicy/stats/reset", dir);
	if (!ret && !stat(p, &st) && st.st_size) {
		ret = put_counters(dir) ?: put(dir, "sys/kernel/mm/rapolicy/stats/reset", "") ?:
		      put(dir, "sys/kernel/mm/rapolicy/stats/elapsed_ms", "0\n") ?:
		      put(dir, "sys/kernel/mm/rapolicy/stats/settings_changed", "0\n") ?:
		      put_buckets(dir) ?: put_ledger(dir);
	}
	return ret;
}
