// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of rawalk's parsers (rawalk_parse.c): the first byte picks
 * the command line (argv split at NUL bytes), a pattern, a size or a
 * percentage, or the /proc and /sys texts rawalk reads (smaps, block
 * device stat, mountinfo, /proc/self/cgroup).
 */
#include <errno.h>
#include <inttypes.h>

#include "fuzz.h"
#include "rawalk.h"
#include "util.h"

#define MAX_ARGS 16

/* A pattern that parses prints as a name that parses to the same pattern */
static void pattern_round_trip(const struct pattern *p)
{
	struct pattern q;
	char name[64], err[256];

	format_pattern(p, name, sizeof(name));
	FZ_CHECK(!parse_pattern(name, &q, err, sizeof(err)), "'%s': %s", name, err);
	FZ_CHECK(q.kind == p->kind && q.arg == p->arg, "'%s' parses to %d:%" PRIu64,
		 name, q.kind, q.arg);
}

static void args(struct fz *fz)
{
	char *argv[MAX_ARGS + 2], err[512];
	struct rawalk_opts o;
	int argc = 1, rc, i;

	argv[0] = "rawalk";
	while (fz->n && argc <= MAX_ARGS)
		argv[argc++] = fz_chunk(fz, 0);
	argv[argc] = NULL;
	rc = rawalk_parse_args(argc, argv, &o, err, sizeof(err));
	FZ_CHECK(rc == RAWALK_OK || rc == RAWALK_USAGE, "rc %d", rc);
	FZ_CHECK(rc == RAWALK_OK || *err, "usage error without a message");
	if (rc == RAWALK_OK && (o.action == ACT_RUN || o.action == ACT_CREATE)) {
		FZ_CHECK(o.file && *o.file, "no FILE");
		FZ_CHECK(o.action != ACT_CREATE || (o.create_size && o.create_size <= INT64_MAX),
			 "create size %" PRIu64, o.create_size);
		pattern_round_trip(&o.pattern);
	}
	for (i = 1; i < argc; i++)
		free(argv[i]);
}

static void pattern(const char *s)
{
	struct pattern p;
	char err[512];

	if (parse_pattern(s, &p, err, sizeof(err)))
		FZ_CHECK(*err, "no message for '%s'", s);
	else
		pattern_round_trip(&p);
}

static void numbers(const char *s)
{
	uint64_t u, sz, pct;

	if (!parse_u64(s, &u))
		FZ_CHECK(!parse_size(s, &sz) && sz == u, "parse_size(%s) != parse_u64", s);
	if (!parse_percent(s, &pct) && strchr(s, '.') == NULL)
		FZ_CHECK(!parse_u64(s, &u) && u * RANDOM_PCT_SCALE == pct, "percent %s", s);
}

static void proc_text(struct fz *fz, uint8_t which)
{
	size_t len = fz_u8(fz) % 64 + 1;
	uintptr_t lo = fz_u64(fz, 8), hi = fz_u64(fz, 8);
	char *text = fz_chunk(fz, 0), *buf = malloc(len);
	struct smaps_sum sum;
	struct blkstat bs;

	if (!buf)
		abort();
	switch (which) {
	case 0:
		parse_smaps(text, lo, hi, &sum);
		break;
	case 1:
		parse_blkstat(text, &bs);
		break;
	case 2:
		if (!find_cgroup2_mount(text, buf, len))
			FZ_CHECK(strlen(buf) < len, "mount point overflows");
		break;
	default:
		if (!find_cgroup2_path(text, buf, len))
			FZ_CHECK(strlen(buf) < len, "cgroup path overflows");
		break;
	}
	free(buf);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz fz = { data, size };
	uint8_t which = fz_u8(&fz) % 4;
	char *s;

	switch (which) {
	case 0:
		args(&fz);
		break;
	case 1:
		s = fz_chunk(&fz, 0);
		pattern(s);
		free(s);
		break;
	case 2:
		s = fz_chunk(&fz, 0);
		numbers(s);
		free(s);
		break;
	default:
		proc_text(&fz, fz_u8(&fz) % 4);
		break;
	}
	return 0;
}
