// SPDX-License-Identifier: GPL-2.0
/*
 * Small helpers shared by the rapolicy userspace tools.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

int parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull accepts leading spaces, '+' and '-': refuse them all */
	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno || *end != '\0')
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno)
		return -EINVAL;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	case 't': case 'T':
		shift = 40;
		break;
	default:
		return -EINVAL;
	}
	if (shift) {
		end++;
		if (!strcmp(end, "iB") || !strcmp(end, "B"))
			end += strlen(end);
	}
	if (*end != '\0')
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

char *read_file(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf, *nbuf;
	ssize_t r;
	int fd, saved;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	if (!buf)
		goto fail;
	for (;;) {
		if (cap - n < 2) {
			if (cap > SIZE_MAX / 2) {
				errno = ENOMEM;
				goto fail;
			}
			nbuf = realloc(buf, cap * 2);
			if (!nbuf)
				goto fail;
			buf = nbuf;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
fail:
	saved = errno;
	free(buf);
	close(fd);
	errno = saved;
	return NULL;
}

int read_small_file(const char *path, char *buf, size_t size)
{
	ssize_t r;
	int fd, err;

	if (size == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		r = read(fd, buf, size - 1);
	} while (r < 0 && errno == EINTR);
	err = errno;
	close(fd);
	if (r < 0)
		return -err;
	buf[r] = '\0';
	while (r > 0 && (buf[r - 1] == '\n' || buf[r - 1] == ' '))
		buf[--r] = '\0';
	return (int)r;
}

int write_file_str(const char *path, const char *s)
{
	return write_file_flags(path, s, 0);
}

int write_file_flags(const char *path, const char *s, int flags)
{
	size_t len = strlen(s);
	ssize_t r;
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	do {
		r = write(fd, s, len);
	} while (r < 0 && errno == EINTR);
	err = errno;
	/* sysfs and cgroupfs report errors at write(), close() may too */
	if (close(fd) && r >= 0) {
		err = errno;
		r = -1;
	}
	if (r < 0)
		return -err;
	if ((size_t)r != len)
		return -EIO;
	return 0;
}

int replace_file(const char *path, const char *text, unsigned int mode)
{
	size_t len = strlen(text), done = 0;
	char tmp[4096];
	int fd, err = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	while (!err && done < len) {
		ssize_t r = write(fd, text + done, len - done);

		if (r < 0 && errno != EINTR)
			err = -errno;
		else if (r > 0)
			done += (size_t)r;
	}
	if (!err && (fchmod(fd, mode) || fsync(fd)))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

void fputs_esc(const char *s, FILE *f)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch < ' ' || ch >= 0x7f || ch == '\\')
			fprintf(f, "\\x%02x", ch);
		else
			fputc(ch, f);
	}
}
