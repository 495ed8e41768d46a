// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl: the I/O layer (see rapctl_sysfs.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rapctl_sysfs.h"
#include "util.h"

static char roots[RAPCTL_NR_ROOTS][PATH_MAX] = {
	[RAPCTL_ROOT_SYS] = "/sys",
	[RAPCTL_ROOT_PROC] = "/proc",
	[RAPCTL_ROOT_BOOT] = "/boot",
};

/* A NUL byte in a file is never text: -EILSEQ */
static int real_read(const char *path, char **out)
{
	size_t len;

	*out = read_file(path, &len);
	if (!*out)
		return -errno;
	if (strlen(*out) != len) {
		free(*out);
		*out = NULL;
		return -EILSEQ;
	}
	return 0;
}

/*
 * O_TRUNC as the shell's ">" does: sysfs ignores it, and a regular file
 * of a fake tree then holds just the value written.
 */
static int real_write(const char *path, const char *s)
{
	return write_file_flags(path, s, O_TRUNC);
}

const struct rapctl_io_ops rapctl_io_real = {
	.read = real_read,
	.write = real_write,
};

struct rapctl_io_ops rapctl_io = {
	.read = real_read,
	.write = real_write,
};

int rapctl_set_root(enum rapctl_root root, const char *dir)
{
	size_t len = strlen(dir);

	if (len >= sizeof(roots[root]))
		return -ENAMETOOLONG;
	memcpy(roots[root], dir, len + 1);
	/* "/fake/" and "/fake" name the same tree; "/" stays "/" */
	while (len > 1 && roots[root][len - 1] == '/')
		roots[root][--len] = '\0';
	return 0;
}

const char *rapctl_get_root(enum rapctl_root root)
{
	return roots[root];
}

int rapctl_path(char *buf, size_t size, enum rapctl_root root, const char *rel)
{
	const char *r = roots[root];
	const char *sep1 = strcmp(r, "/") ? "/" : "";
	const char *mid = root == RAPCTL_ROOT_SYS ? RAPCTL_DIR : "";
	const char *sep2 = *mid && *rel ? "/" : "";
	int n;

	n = snprintf(buf, size, "%s%s%s%s%s", r, sep1, mid, sep2, rel);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* Control bytes (but tabs) in what should be one line of text */
static bool has_control(const char *s)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7f)
			return true;
	return false;
}

int rapctl_read(enum rapctl_root root, const char *rel, char **out)
{
	char path[PATH_MAX];
	size_t len;
	int err;

	err = rapctl_path(path, sizeof(path), root, rel);
	if (err)
		return err;
	err = rapctl_io.read(path, out);
	if (err)
		return err;
	len = strlen(*out);
	while (len && ((*out)[len - 1] == '\n' || (*out)[len - 1] == ' '))
		(*out)[--len] = '\0';
	if (root == RAPCTL_ROOT_SYS && has_control(*out)) {
		free(*out);
		*out = NULL;
		return -EILSEQ;
	}
	return 0;
}

int rapctl_write(const char *rel, const char *s)
{
	char path[PATH_MAX];
	int err;

	err = rapctl_path(path, sizeof(path), RAPCTL_ROOT_SYS, rel);
	return err ? err : rapctl_io.write(path, s);
}

bool rapctl_is_dir(const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	return !rapctl_path(path, sizeof(path), RAPCTL_ROOT_SYS, rel) &&
	       !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_name(char ***names, size_t *n, size_t *cap, const char *name)
{
	char **nn;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		nn = realloc(*names, *cap * sizeof(*nn));
		if (!nn)
			return -ENOMEM;
		*names = nn;
	}
	(*names)[*n] = strdup(name);
	if (!(*names)[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

static bool is_regular(int dfd, const char *name)
{
	struct stat st;

	return !fstatat(dfd, name, &st, 0) && S_ISREG(st.st_mode);
}

int rapctl_list_files(const char *rel, char ***names, size_t *n)
{
	char path[PATH_MAX];
	size_t cap = 0;
	struct dirent *de;
	int err = 0;
	DIR *d;

	*names = NULL;
	*n = 0;
	err = rapctl_path(path, sizeof(path), RAPCTL_ROOT_SYS, rel);
	if (err)
		return err;
	d = opendir(path);
	if (!d)
		return -errno;
	while (!err && (de = readdir(d)))
		if (de->d_name[0] != '.' && is_regular(dirfd(d), de->d_name))
			err = add_name(names, n, &cap, de->d_name);
	closedir(d);
	if (err) {
		rapctl_free_names(*names, *n);
		*names = NULL;
		*n = 0;
		return err;
	}
	if (*n)
		qsort(*names, *n, sizeof(**names), cmp_names);
	return 0;
}

void rapctl_free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The root that stands for the top directory of abs ("/sys/..."), or -1 */
static int host_root(const char *abs, size_t *skip)
{
	static const struct {
		enum rapctl_root root;
		const char *top;
	} tops[] = {
		{ RAPCTL_ROOT_SYS, "/sys" },
		{ RAPCTL_ROOT_PROC, "/proc" },
		{ RAPCTL_ROOT_BOOT, "/boot" },
	};
	size_t i, len;

	for (i = 0; i < sizeof(tops) / sizeof(tops[0]); i++) {
		len = strlen(tops[i].top);
		if (!strncmp(abs, tops[i].top, len) &&
		    (abs[len] == '/' || !abs[len])) {
			*skip = len;
			return (int)tops[i].root;
		}
	}
	return -1;
}

int rapctl_host_path(char *buf, size_t size, const char *abs)
{
	size_t skip = 0;
	int root, n;

	if (abs[0] != '/')
		return -EINVAL;
	root = host_root(abs, &skip);
	if (root < 0 || !strcmp(roots[root], "/"))
		n = snprintf(buf, size, "%s", abs);
	else
		n = snprintf(buf, size, "%s%s", roots[root], abs + skip);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static bool host_stat(const char *abs, struct stat *st)
{
	char path[PATH_MAX];

	return !rapctl_host_path(path, sizeof(path), abs) && !stat(path, st);
}

bool rapctl_host_is_dir(const char *abs)
{
	struct stat st;

	return host_stat(abs, &st) && S_ISDIR(st.st_mode);
}

bool rapctl_host_is_file(const char *abs)
{
	struct stat st;

	return host_stat(abs, &st) && S_ISREG(st.st_mode);
}
