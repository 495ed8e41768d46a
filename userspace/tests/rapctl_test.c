// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the rapolicyctl host tests (see rapctl_test.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "rapctl.h"
#include "rapctl_sysfs.h"
#include "rapctl_test.h"
#include "util.h"


bool has(const char *s, const char *sub)
{
	return s && strstr(s, sub);
}

/* ------------------------------------------------------------------ */
/* Fake trees */

char tmpdir[256];

void tmp_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", tmpdir, name);
}

void put(const char *dir, const char *rel, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		printf("# cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* The content of a file, trailing newline removed, in a static buffer */
const char *get(const char *dir, const char *rel)
{
	static char buf[4096];
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	if (read_small_file(path, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "<unreadable>");
	return buf;
}

void mkdirs(const char *dir, const char *rel)
{
	char path[1024], *p;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

/* ------------------------------------------------------------------ */
/* I/O hooks: the kernel's behaviour and fault injection */

unsigned int nwrites;
uint64_t fail_mask;	/* bit n: the n-th write (from 1) fails */
int fail_err;
char wlog[4096];		/* "NAME=VALUE " per write, "!" if it failed */

void reset_hooks(void)
{
	rapctl_io = rapctl_io_real;
	nwrites = 0;
	fail_mask = 0;
	fail_err = 0;
	wlog[0] = '\0';
}

/* The bracket line of p with value v current */
static void bracket_line(const struct rapctl_policy *p, int v, char *buf,
			 size_t size)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < p->nr_values; i++)
		len += snprintf(buf + len, size - len, (int)i == v ? "%s[%s]" : "%s%s",
				i ? " " : "", p->values[i]);
	snprintf(buf + len, size - len, "\n");
}

int kernel_write(const char *path, const char *s)
{
	const char *base = strrchr(path, '/') + 1;
	struct rapctl_policy p = { 0 };
	bool fail;
	char line[512], *text;
	int v, err;

	nwrites++;
	fail = nwrites < 64 && (fail_mask >> nwrites) & 1;
	snprintf(wlog + strlen(wlog), sizeof(wlog) - strlen(wlog), "%s=%s%s ",
		 base, s, fail ? "!" : "");
	if (fail)
		return fail_err;
	err = rapctl_io_real.read(path, &text);
	if (err)
		return err;
	if (rapctl_parse_choices(text, &p)) {
		free(text);
		return rapctl_io_real.write(path, s);
	}
	free(text);
	v = rapctl_policy_value(&p, s);
	if (v >= 0)
		bracket_line(&p, v, line, sizeof(line));
	rapctl_policy_free(&p);
	return v < 0 ? -EINVAL : rapctl_io_real.write(path, line);
}

/* ------------------------------------------------------------------ */
/* Running the tool */

char *OUT, *ERR;

int ctl(const char *fmt, ...)
{
	char line[4096], *argv[64], *tok, *save;
	size_t olen, elen;
	FILE *out, *err;
	va_list ap;
	int argc = 0, rc;

	free(OUT);
	free(ERR);
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	argv[argc++] = "rapolicyctl";
	for (tok = strtok_r(line, " ", &save); tok && argc < 63;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	out = open_memstream(&OUT, &olen);
	err = open_memstream(&ERR, &elen);
	rc = rapctl_main(argc, argv, out, err);
	fclose(out);
	fclose(err);
	return rc;
}

int run(char **out, const char *fmt, ...)
{
	char cmd[4096];
	size_t len = 0, cap = 1 << 16, n;
	char *buf = malloc(cap);
	va_list ap;
	FILE *p;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	p = popen(cmd, "r");
	if (!p || !buf) {
		free(buf);
		*out = strdup("");
		return -1;
	}
	while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0)
		len += n;
	buf[len] = '\0';
	*out = buf;
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* ------------------------------------------------------------------ */

int test_begin(const char *name)
{
	const char *t = getenv("TMPDIR");

	unsetenv("RAPOLICYCTL_SYSFS_ROOT");
	unsetenv("RAPOLICYCTL_PROC_ROOT");
	snprintf(tmpdir, sizeof(tmpdir), "%s/%s.XXXXXX", t && *t ? t : "/tmp",
		 name);
	if (mkdtemp(tmpdir))
		return 0;
	ok(0, "mkdtemp %s: %s", tmpdir, strerror(errno));
	tap_done();
	return 1;
}

static void cleanup(void)
{
	char cmd[512];

	/* the fake trees are small and made of plain files and directories */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		printf("# could not remove %s\n", tmpdir);
}

int test_end(void)
{
	free(OUT);
	free(ERR);
	OUT = ERR = NULL;
	cleanup();
	return tap_done();
}

/* The bash completion with sysfs root sys (run from userspace/, as make test does) */
void completion(const char *bindir, const char *sys, const char *line,
		const char *want)
{
	char *out;
	int rc;

	rc = run(&out, "PATH='%s':\"$PATH\" bash -c '. ./rapolicyctl.bash-completion && "
		 "COMP_LINE=\"rapolicyctl --sysfs-root %s %s\"; "
		 "COMP_POINT=${#COMP_LINE}; _rapolicyctl; echo \"${COMPREPLY[*]}\"' 2>&1",
		 bindir, sys, line);
	out[strcspn(out, "\n")] = '\0';
	ok(rc == 0 && !strcmp(out, want), "completion: '%s' -> '%s'", line, want);
	if (strcmp(out, want))
		printf("# got: %s\n", out);
	free(out);
}
