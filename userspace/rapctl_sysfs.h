/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rapolicyctl's one I/O layer.  Every read and write of sysfs, procfs and
 * /boot goes through here, relative to a root directory that tests point
 * at a fake tree: RAPCTL_ROOT_SYS stands for /sys (and paths under it are
 * relative to its kernel/mm/rapolicy/), RAPCTL_ROOT_PROC for /proc,
 * RAPCTL_ROOT_BOOT for /boot.  File contents go through the rapctl_io
 * hooks, which tests replace to emulate the kernel or inject faults.
 */
#ifndef RAPCTL_SYSFS_H
#define RAPCTL_SYSFS_H

#include <stdbool.h>
#include <stddef.h>

enum rapctl_root {
	RAPCTL_ROOT_SYS,
	RAPCTL_ROOT_PROC,
	RAPCTL_ROOT_BOOT,
	RAPCTL_NR_ROOTS
};

/* The module's directory under the sysfs root */
#define RAPCTL_DIR "kernel/mm/rapolicy"

struct rapctl_io_ops {
	/* The whole file at path, malloc'ed and NUL-terminated; 0 or -errno */
	int (*read)(const char *path, char **out);
	/* s to the existing file at path in one write(); 0 or -errno */
	int (*write)(const char *path, const char *s);
};

/* The hooks in use (initially rapctl_io_real) and the real file I/O */
extern struct rapctl_io_ops rapctl_io;
extern const struct rapctl_io_ops rapctl_io_real;

/* Set a root ("/sys", "/proc", "/boot" by default); 0 or -ENAMETOOLONG */
int rapctl_set_root(enum rapctl_root root, const char *dir);
const char *rapctl_get_root(enum rapctl_root root);

/*
 * The full path of rel under root (for RAPCTL_ROOT_SYS under its
 * kernel/mm/rapolicy/; rel "" is that directory).  Returns 0 or
 * -ENAMETOOLONG.
 */
int rapctl_path(char *buf, size_t size, enum rapctl_root root, const char *rel);

/*
 * Read a file, trailing newlines and spaces removed; 0 or -errno.
 * -EILSEQ for a file with a NUL byte, or, under RAPCTL_ROOT_SYS, with a
 * control byte other than a tab left: the module's files are one line of
 * text, and what is read ends up in messages.
 */
int rapctl_read(enum rapctl_root root, const char *rel, char **out);

/* Write s to a file under the rapolicy directory; 0 or -errno */
int rapctl_write(const char *rel, const char *s);

/* Whether rel under the rapolicy directory ("" for itself) is a directory */
bool rapctl_is_dir(const char *rel);

/*
 * The names of the regular files in the directory rel under the rapolicy
 * directory (symlinks followed; subdirectories and anything else left
 * out), sorted by strcmp().  Returns 0 or -errno; free with
 * rapctl_free_names().
 */
int rapctl_list_files(const char *rel, char ***names, size_t *n);
void rapctl_free_names(char **names, size_t n);

/*
 * Files outside the module's directory (the cgroup2 tree), by their
 * absolute path on the host: a path under /sys, /proc or /boot is taken
 * under that root ("/sys/fs/cgroup/x" is DIR/fs/cgroup/x with
 * --sysfs-root DIR), any other path as it is.  rapctl_host_path() returns
 * 0 or -ENAMETOOLONG (or -EINVAL for a path that is not absolute).
 */
int rapctl_host_path(char *buf, size_t size, const char *abs);
/* Whether abs (as above) is a directory, a regular file (symlinks followed) */
bool rapctl_host_is_dir(const char *abs);
bool rapctl_host_is_file(const char *abs);

#endif /* RAPCTL_SYSFS_H */
