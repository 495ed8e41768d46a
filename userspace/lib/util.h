/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the rapolicy userspace tools: strict number
 * parsing, whole-file reads and writes for procfs/sysfs/cgroupfs.
 */
#ifndef RAPOLICY_UTIL_H
#define RAPOLICY_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef RAPOLICY_VERSION
#define RAPOLICY_VERSION "0.1.0"
#endif

/*
 * Decimal unsigned integer, the whole string: no sign, no spaces, no
 * empty string, no overflow.  Returns 0, or -EINVAL / -ERANGE.
 */
int parse_u64(const char *s, uint64_t *out);

/*
 * Byte count: a decimal integer with an optional binary suffix K, M, G or
 * T (case-insensitive, optionally followed by "iB" or "B"): "4096",
 * "64M", "1GiB".  Returns 0, or -EINVAL / -ERANGE.
 */
int parse_size(const char *s, uint64_t *out);

/*
 * Read a whole file (procfs and sysfs files report size 0, so this reads
 * until EOF).  Returns a malloc'ed NUL-terminated buffer and its length
 * in *len (if len is not NULL), or NULL with errno set.
 */
char *read_file(const char *path, size_t *len);

/*
 * Read at most size - 1 bytes of a small file into buf, NUL-terminated,
 * trailing newline removed.  Returns the length or -errno.
 */
int read_small_file(const char *path, char *buf, size_t size);

/* Write s to path (O_WRONLY, no O_CREAT, no O_TRUNC).  Returns 0 or -errno. */
int write_file_str(const char *path, const char *s);
/* The same with extra open() flags (O_TRUNC for fake sysfs trees) */
int write_file_flags(const char *path, const char *s, int flags);

/*
 * Replace the regular file path with text, atomically: a temporary file
 * in the same directory, written, synced and renamed over path, so path
 * is the old file or the new one, never a part.  Returns 0 or -errno
 * (the temporary file removed).
 */
int replace_file(const char *path, const char *text, unsigned int mode);

/*
 * Write s to f with every byte outside printable ASCII, and the
 * backslash, as \xNN: a name from the command line or a file system
 * cannot move the cursor, forge a line or break a terminal.
 */
void fputs_esc(const char *s, FILE *f);

/* Round x up to a multiple of the power of two a. */
static inline uint64_t round_up_pow2(uint64_t x, uint64_t a)
{
	return (x + a - 1) & ~(a - 1);
}

#endif /* RAPOLICY_UTIL_H */
