// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of rapolicyctl against hostile sysfs content: the input
 * chooses a command (status, get, set, profile, stats in its formats, ab
 * set/assign/status/report), the write that fails and how, and replaces
 * the contents of chosen files of the fake module directory
 * (fake_sysfs.h).  The tool must exit 0, 1 or 2 with its messages in its
 * format, print well-formed JSON, and leave every file as it was when a
 * change fails, unless it says that some stay changed.
 */
#include <errno.h>

#include "fake_sysfs.h"
#include "fuzz.h"

static const char *const commands[][6] = {
	{ "status" },
	{ "get" },
	{ "get", "pmd_hit", "vma_limit" },
	{ "set", "descending_thp=stream", "pmd_hit=on", "sync_mmap_order=9" },
	{ "set", "vma_limit=near_end", "descending_around=window" },
	{ "profile", "seed" },
	{ "profile", "stock" },
	{ "profile", "best" },
	{ "stats" },
	{ "stats", "--json" },
	{ "stats", "--prometheus" },
	{ "stats", "reset" },
	{ "ab", "set", "pmd_hit=on", "descending_seq=window" },
	{ "ab", "assign", "sample", "10", "--salt", "0x7" },
	{ "ab", "assign", "cgroup", "/sys/fs/cgroup/canary" },
	{ "ab", "assign", "off" },
	{ "ab", "status" },
	{ "ab", "report" },
	{ "ab", "report", "--json" },
	{ "ab", "report", "--prometheus" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const int errnos[] = { EINVAL, EBUSY, EIO, EACCES, EPERM, ENOENT, ENOMEM };

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return fake_init() ? 1 : 0;
}

/* The command's argv, after the program name */
static int command_argv(unsigned int k, char **argv)
{
	int n = 0;

	argv[n++] = "rapolicyctl";
	while (n - 1 < 6 && commands[k][n - 1]) {
		argv[n] = (char *)commands[k][n - 1];
		n++;
	}
	argv[n] = NULL;
	return n;
}

/* Every line of err is "rapolicyctl: ..." or the usage hint */
static bool messages_ok(const char *err)
{
	const char *line = err;

	while (*line) {
		if (strncmp(line, "rapolicyctl: ", 13) && strncmp(line, "Try 'rapolicyctl ", 17))
			return false;
		line = strchr(line, '\n');
		if (!line)
			return false;
		line++;
	}
	return true;
}

/* One JSON object on one line: braces and quotes balanced, no raw control bytes */
static bool json_ok(const char *s)
{
	int depth = 0;
	bool str = false;

	if (*s != '{')
		return false;
	for (; *s && *s != '\n'; s++) {
		if ((unsigned char)*s < 0x20)
			return false;
		if (str && *s == '\\' && s[1])
			s++;
		else if (*s == '"')
			str = !str;
		else if (!str && (*s == '{' || *s == '['))
			depth++;
		else if (!str && (*s == '}' || *s == ']'))
			depth--;
	}
	return !str && !depth && !strcmp(s, "\n");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz fz = { data, size };
	unsigned int k = fz_u8(&fz) % NR_COMMANDS;
	uint8_t fail = fz_u8(&fz), how = fz_u8(&fz);
	char *argv[8], *out, *err;
	int argc, rc;

	fake_reset();
	fake_fail_write = fail % 6;
	fake_fail_short = how % 8 == 7;
	fake_fail_errno = errnos[how % 7];
	while (fz.n) {
		size_t i = fz_u8(&fz) % fake_nr_files;
		char *text = fz_chunk(&fz, 0);

		fake_set(i, text);
		free(text);
	}
	fake_snapshot();
	argc = command_argv(k, argv);
	rc = fake_run(argc, argv, &out, &err);
	FZ_CHECK(rc >= 0 && rc <= 2, "exit %d", rc);
	FZ_CHECK(messages_ok(err), "stderr not in the tool's format: %s", err);
	FZ_CHECK(rc == 0 || *err, "exit %d without a message", rc);
	if (rc == 0 && strstr(argv[argc - 1], "--json"))
		FZ_CHECK(json_ok(out), "bad JSON: %s", out);
	/* a reset that reached the module cannot be undone */
	if (rc && !strstr(err, "stay changed") && strcmp(argv[argc - 1], "reset"))
		FZ_CHECK(fake_unchanged(), "%s failed (%d) and changed files: %s", argv[1],
			 rc, err);
	free(out);
	free(err);
	return 0;
}
