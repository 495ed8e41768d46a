// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of rapolicyctl, TAP output.
 *
 *   test_rapolicyctl [BINDIR]
 *
 * Every case runs against fake trees made in $TMPDIR (default /tmp): a
 * sysfs root with kernel/mm/rapolicy/ as the module makes it, one without
 * it, procfs roots whose kallsyms has the hook symbol or not (or no
 * kallsyms), /boot roots with a kernel config.  In-process cases call
 * rapctl_main() with the I/O layer's hooks replaced by a write that acts
 * as the kernel does (rewrites the bracket line, -EINVAL for other values)
 * and can fail chosen writes, and a read that makes counters grow.  When
 * BINDIR is given, BINDIR/rapolicyctl also runs as a program.  Exits 1 if
 * any test failed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rapctl.h"
#include "rapctl_sysfs.h"
#include "rapctl_test.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Fake trees */

static char sys_loaded[300], sys_empty[300], sys_odd[300];
static char proc_patched[300], proc_stock[300], proc_none[300];
static char boot_none[300], boot_patched[300], boot_stock[300];

static const char *const counters[][2] = {
	{ "sync_thp", "3" }, { "sync_seq", "0" }, { "sync_exec", "0" },
	{ "sync_around", "12" }, { "async", "5" }, { "descending_thp", "2" },
	{ "descending_seq", "0" }, { "vma_limit", "0" }, { "vma_clamp", "0" },
	{ "order_raise", "0" }, { "pmd_hit", "7" },
	{ "pages_requested", "4096" },
};

/* The module's files, every policy at its default */
static void stock_policies(const char *sys)
{
	put(sys, RAP "descending_thp", "[off] folio\n");
	put(sys, RAP "pmd_hit", "[off] on\n");
	put(sys, RAP "descending_seq", "[off] window\n");
	put(sys, RAP "vma_limit", "[none] always near_end\n");
	put(sys, RAP "sync_mmap_order",
	    "[off] fault_around 0 1 2 3 4 5 6 7 8 9\n");
}

static void make_loaded(const char *sys)
{
	char rel[256];
	size_t i;

	mkdirs(sys, RAP "stats/a");
	stock_policies(sys);
	put(sys, RAP "version", "0.1.0\n");
	for (i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		snprintf(rel, sizeof(rel), RAP "stats/%s", counters[i][0]);
		put(sys, rel, counters[i][1]);
	}
	put(sys, RAP "stats/reset", "");
	/* issue 6's per-arm counters: a directory, to be ignored */
	put(sys, RAP "stats/a/async", "99\n");
}

static void make_trees(void)
{
	struct utsname u;
	char rel[300];

	uname(&u);
	snprintf(rel, sizeof(rel), "config-%s", u.release);
	tmp_path(sys_loaded, sizeof(sys_loaded), "sys-loaded");
	tmp_path(sys_empty, sizeof(sys_empty), "sys-empty");
	tmp_path(sys_odd, sizeof(sys_odd), "sys-odd");
	tmp_path(proc_patched, sizeof(proc_patched), "proc-patched");
	tmp_path(proc_stock, sizeof(proc_stock), "proc-stock");
	tmp_path(proc_none, sizeof(proc_none), "proc-none");
	tmp_path(boot_none, sizeof(boot_none), "boot-none");
	tmp_path(boot_patched, sizeof(boot_patched), "boot-patched");
	tmp_path(boot_stock, sizeof(boot_stock), "boot-stock");
	make_loaded(sys_loaded);
	make_loaded(sys_odd);
	mkdirs(sys_empty, "kernel/mm");
	mkdirs(proc_patched, "");
	mkdirs(proc_stock, "");
	mkdirs(proc_none, "");
	mkdirs(boot_none, "");
	mkdirs(boot_patched, "");
	mkdirs(boot_stock, "");
	put(proc_patched, "kallsyms",
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81234560 T readahead_policy_unregister\n"
	    "ffffffff81234567 T readahead_policy_register\n"
	    "ffffffffc0001000 t rap_sysfs_init\t[rapolicy]\n");
	put(proc_stock, "kallsyms",
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81234567 T readahead_policy_registered\n"
	    "ffffffff81234568 T page_cache_ra_order\n");
	put(boot_patched, rel, "CONFIG_MMU=y\nCONFIG_READAHEAD_POLICY=y\n");
	put(boot_stock, rel, "CONFIG_MMU=y\n# CONFIG_READAHEAD_POLICY is not set\n");
}

/* ------------------------------------------------------------------ */
/* I/O hooks: the kernel's behaviour and fault injection */

static unsigned int async_reads, thp_reads;

/* stats/async grows by 7 per read; stats/sync_thp 100, 150, then 20 */
static int ticking_read(const char *path, char **out)
{
	static const unsigned int thp[] = { 100, 150, 20, 25 };
	char buf[32];

	if (strstr(path, "/stats/async") && !strstr(path, "/a/")) {
		snprintf(buf, sizeof(buf), "%u\n", 7 * async_reads++);
	} else if (strstr(path, "/stats/sync_thp")) {
		snprintf(buf, sizeof(buf), "%u\n", thp[thp_reads < 3 ? thp_reads : 3]);
		thp_reads++;
	} else {
		return rapctl_io_real.read(path, out);
	}
	*out = strdup(buf);
	return *out ? 0 : -ENOMEM;
}

/* ------------------------------------------------------------------ */
/* Running the tool in-process */

/* Policies back to the defaults, hooks back to the kernel's */
static void fresh(void)
{
	stock_policies(sys_loaded);
	reset_hooks();
	rapctl_io.write = kernel_write;
}

/* ------------------------------------------------------------------ */
/* Units: the I/O layer, the bracket parser, kallsyms and config */

static void test_layer(void)
{
	char path[512], *text, **names;
	size_t n;
	int r;

	reset_hooks();
	rapctl_set_root(RAPCTL_ROOT_SYS, "/sys");
	rapctl_path(path, sizeof(path), RAPCTL_ROOT_SYS, "pmd_hit");
	ok(!strcmp(path, "/sys/kernel/mm/rapolicy/pmd_hit"), "path: default sysfs root");
	rapctl_set_root(RAPCTL_ROOT_SYS, "/");
	rapctl_path(path, sizeof(path), RAPCTL_ROOT_SYS, "");
	ok(!strcmp(path, "/kernel/mm/rapolicy"), "path: root / (%s)", path);
	rapctl_set_root(RAPCTL_ROOT_PROC, "/fake/proc//");
	rapctl_path(path, sizeof(path), RAPCTL_ROOT_PROC, "kallsyms");
	ok(!strcmp(path, "/fake/proc/kallsyms"), "path: trailing slashes dropped (%s)", path);

	rapctl_set_root(RAPCTL_ROOT_SYS, sys_loaded);
	r = rapctl_read(RAPCTL_ROOT_SYS, "pmd_hit", &text);
	ok(!r && !strcmp(text, "[off] on"), "read: newline stripped");
	if (!r)
		free(text);
	ok(rapctl_read(RAPCTL_ROOT_SYS, "nope", &text) == -ENOENT, "read: missing file is -ENOENT");
	ok(rapctl_write("nope", "1") == -ENOENT, "write: no file is created");
	ok(rapctl_write("stats/a", "1") == -EISDIR, "write: a directory is -EISDIR");
	r = rapctl_list_files("stats", &names, &n);
	ok(!r && n == 13 && !strcmp(names[0], "async") && !strcmp(names[12], "vma_limit"),
	   "list: regular files only, sorted (%zu)", n);
	if (!r)
		rapctl_free_names(names, n);
	ok(rapctl_is_dir("") && rapctl_is_dir("stats/a") && !rapctl_is_dir("pmd_hit"),
	   "is_dir");
	rapctl_set_root(RAPCTL_ROOT_SYS, sys_empty);
	ok(!rapctl_is_dir(""), "is_dir: no module directory");
	ok(rapctl_list_files("", &names, &n) == -ENOENT, "list: missing directory is -ENOENT");
}

static void test_parse_choices(void)
{
	static const char *const bad[] = {
		"", "off folio", "[off] [folio]", "[] off", "[off folio",
		"off] folio", "of[f] folio", "[[off]] folio", " \t ",
	};
	struct rapctl_policy p = { 0 };
	size_t i;

	ok(!rapctl_parse_choices("[off] folio\n", &p) && p.nr_values == 2 &&
	   p.cur == 0 && !strcmp(p.values[1], "folio"), "choices: [off] folio");
	rapctl_policy_free(&p);
	ok(!rapctl_parse_choices("off fault_around 0 1 2 3 4 5 6 7 8 [9]", &p) &&
	   p.nr_values == 12 && p.cur == 11 && !strcmp(rapctl_policy_current(&p), "9"),
	   "choices: sync_mmap_order at [9]");
	rapctl_policy_free(&p);
	ok(!rapctl_parse_choices("none\talways [near_end]\n", &p) && p.cur == 2,
	   "choices: tabs and a trailing newline");
	rapctl_policy_free(&p);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ok(rapctl_parse_choices(bad[i], &p) == -EINVAL && !p.values,
		   "choices: rejects '%s'", bad[i]);
	}
}

static void test_kallsyms_config(void)
{
	static const char ks[] =
		"0000000000000000 T readahead_policy_registered\n"
		"0000000000000000 t foo\t[readahead_policy_register]\n"
		"0000000000000000 T readahead_policy_register\t[mod]\n";

	ok(rapctl_kallsyms_has(ks, "readahead_policy_register"),
	   "kallsyms: symbol with a module suffix");
	ok(!rapctl_kallsyms_has(ks, "readahead_policy"), "kallsyms: no prefix match");
	ok(!rapctl_kallsyms_has(ks, "foo\t[readahead"), "kallsyms: field 3 only");
	ok(rapctl_kallsyms_has("0 T x", "x"), "kallsyms: last line without newline");
	ok(!rapctl_kallsyms_has("", "x"), "kallsyms: empty");
	ok(rapctl_config_has("A=y\nCONFIG_READAHEAD_POLICY=y\n", "CONFIG_READAHEAD_POLICY"),
	   "config: =y");
	ok(!rapctl_config_has("# CONFIG_READAHEAD_POLICY is not set\n", "CONFIG_READAHEAD_POLICY"),
	   "config: not set");
	ok(!rapctl_config_has("CONFIG_READAHEAD_POLICY_X=y\n", "CONFIG_READAHEAD_POLICY"),
	   "config: no prefix match");
}

/* ------------------------------------------------------------------ */
/* status */

static const char status_loaded_golden[] =
"hooks:   present (rapolicy is loaded)\n"
"module:  loaded\n"
"version: 0.1.0\n"
"policy           current  allowed\n"
"descending_thp   off      off folio\n"
"pmd_hit          off      off on\n"
"descending_seq   off      off window\n"
"vma_limit        none     none always near_end\n"
"sync_mmap_order  off      off fault_around 0 1 2 3 4 5 6 7 8 9\n"
"profile: stock\n"
"stats:   async=5 descending_thp=2 pages_requested=4096 pmd_hit=7 sync_around=12 sync_thp=3 (6 more at 0)\n";

static void test_status(void)
{
	char want[1024];
	int rc;

	fresh();
	rc = ctl("--sysfs-root %s --proc-root %s status", sys_loaded, proc_stock);
	ok(rc == 0 && !strcmp(OUT, status_loaded_golden) && !*ERR,
	   "status: loaded (golden)");
	if (strcmp(OUT, status_loaded_golden))
		printf("# got:\n%s# err: %s", OUT, ERR);

	rc = ctl("--sysfs-root %s --proc-root %s status", sys_empty, proc_patched);
	snprintf(want, sizeof(want),
		 "hooks:   present (readahead_policy_register in %s/kallsyms)\n"
		 "module:  not loaded\n", proc_patched);
	ok(rc == 1 && !strcmp(OUT, want) &&
	   !strcmp(ERR, "rapolicyctl: rapolicy module not loaded: run 'modprobe rapolicy'\n"),
	   "status: patched kernel, module not loaded: exit 1, modprobe hint");

	rc = ctl("--sysfs-root %s --proc-root %s status", sys_empty, proc_stock);
	snprintf(want, sizeof(want),
		 "hooks:   absent (no readahead_policy_register in %s/kallsyms)\n"
		 "module:  not loaded\n", proc_stock);
	ok(rc == 1 && !strcmp(OUT, want) &&
	   !strcmp(ERR, "rapolicyctl: kernel has no readahead policy hooks (CONFIG_READAHEAD_POLICY): boot a kernel with the rapolicy patches\n"),
	   "status: unpatched kernel: exit 1, boot hint");

	rc = ctl("--sysfs-root %s --proc-root %s status", sys_empty, proc_none);
	ok(rc == 1 && has(OUT, "hooks:   unknown (cannot read ") &&
	   has(OUT, "kallsyms: No such file or directory") &&
	   has(ERR, "run 'modprobe rapolicy' (it needs a kernel with the rapolicy patches"),
	   "status: kallsyms unreadable, no config: hooks unknown");

	setenv("RAPOLICYCTL_BOOT_ROOT", boot_patched, 1);
	rc = ctl("--sysfs-root %s --proc-root %s status", sys_empty, proc_none);
	ok(rc == 1 && has(OUT, "hooks:   present (CONFIG_READAHEAD_POLICY=y in ") &&
	   has(ERR, "run 'modprobe rapolicy'\n"),
	   "status: no kallsyms, /boot config has the hooks");
	setenv("RAPOLICYCTL_BOOT_ROOT", boot_stock, 1);
	rc = ctl("--sysfs-root %s --proc-root %s status", sys_empty, proc_none);
	ok(rc == 1 && has(OUT, "hooks:   absent (no CONFIG_READAHEAD_POLICY=y in ") &&
	   has(ERR, "boot a kernel with the rapolicy patches"),
	   "status: no kallsyms, /boot config without the hooks");
	setenv("RAPOLICYCTL_BOOT_ROOT", boot_none, 1);

	/* issue 6: A/B state when ab/ exists */
	mkdirs(sys_odd, RAP "ab");
	put(sys_odd, RAP "ab/mode", "off [split]\n");
	put(sys_odd, RAP "pmd_hit", "off [on]\n");
	rc = ctl("--sysfs-root %s status", sys_odd);
	ok(rc == 0 && has(OUT, "\nab:      split\n") && has(OUT, "profile: custom\n"),
	   "status: ab/mode shown when ab/ exists; custom profile");
	put(sys_odd, RAP "pmd_hit", "[off] on\n");
}

/* ------------------------------------------------------------------ */
/* get */

static void test_get(void)
{
	int rc;

	fresh();
	rc = ctl("--sysfs-root %s get", sys_loaded);
	ok(rc == 0 && !strcmp(OUT, "descending_thp=off\npmd_hit=off\n"
			      "descending_seq=off\nvma_limit=none\n"
			      "sync_mmap_order=off\n") && !*ERR,
	   "get: every policy in ABI order");
	put(sys_loaded, RAP "sync_mmap_order", "off fault_around 0 1 2 [3] 4 5 6 7 8 9\n");
	rc = ctl("--sysfs-root %s get sync_mmap_order pmd_hit", sys_loaded);
	ok(rc == 0 && !strcmp(OUT, "sync_mmap_order=3\npmd_hit=off\n"),
	   "get: named policies in argument order");
	rc = ctl("--sysfs-root %s get pmd_hit bogus", sys_loaded);
	ok(rc == 2 && !*OUT &&
	   !strcmp(ERR, "rapolicyctl: unknown policy 'bogus': known policies: descending_thp pmd_hit descending_seq vma_limit sync_mmap_order\n"),
	   "get: unknown policy is a usage error listing the known ones");
	rc = ctl("--sysfs-root %s get -x", sys_loaded);
	ok(rc == 2 && has(ERR, "get: unknown option '-x'"), "get: unknown option");
	rc = ctl("--sysfs-root %s --proc-root %s get", sys_empty, proc_patched);
	ok(rc == 1 && has(ERR, "rapolicy module not loaded: run 'modprobe rapolicy'"),
	   "get: module not loaded");
	rc = ctl("--sysfs-root %s --proc-root %s get", sys_empty, proc_stock);
	ok(rc == 1 && has(ERR, "kernel has no readahead policy hooks"),
	   "get: unpatched kernel");

	/* a new policy file of a later module is picked up, after the known ones */
	put(sys_odd, RAP "zz_new", "[a] b\n");
	put(sys_odd, RAP "notes", "free text\n");
	rc = ctl("--sysfs-root %s get", sys_odd);
	ok(rc == 0 && has(OUT, "sync_mmap_order=off\nzz_new=a\n") && !has(OUT, "notes") &&
	   !has(OUT, "version"), "get: undocumented bracket files last, others skipped");
	put(sys_odd, RAP "pmd_hit", "on\n");
	rc = ctl("--sysfs-root %s get", sys_odd);
	ok(rc == 1 && has(ERR, "pmd_hit: not a list of values with the current one in brackets"),
	   "get: a documented policy that does not parse is an error");
	put(sys_odd, RAP "pmd_hit", "[off] on\n");
	stock_policies(sys_loaded);
}

/* ------------------------------------------------------------------ */
/* set */

static bool all_stock(void)
{
	return !strcmp(get(sys_loaded, RAP "descending_thp"), "[off] folio") &&
	       !strcmp(get(sys_loaded, RAP "pmd_hit"), "[off] on") &&
	       !strcmp(get(sys_loaded, RAP "descending_seq"), "[off] window") &&
	       !strcmp(get(sys_loaded, RAP "vma_limit"), "[none] always near_end") &&
	       !strcmp(get(sys_loaded, RAP "sync_mmap_order"),
		       "[off] fault_around 0 1 2 3 4 5 6 7 8 9");
}

static void test_set_valid(void)
{
	int rc;

	fresh();
	rc = ctl("--sysfs-root %s set sync_mmap_order=4 pmd_hit=on descending_thp=off",
		 sys_loaded);
	ok(rc == 0 && !strcmp(OUT, "descending_thp: off (unchanged)\n"
			      "pmd_hit: off -> on\nsync_mmap_order: off -> 4\n") &&
	   !*ERR, "set: reports changes in apply order");
	ok(!strcmp(wlog, "pmd_hit=on sync_mmap_order=4 "),
	   "set: writes in ABI order, unchanged ones not written (%s)", wlog);
	ok(!strcmp(get(sys_loaded, RAP "pmd_hit"), "off [on]") &&
	   !strcmp(get(sys_loaded, RAP "sync_mmap_order"),
		   "off fault_around 0 1 2 3 [4] 5 6 7 8 9"), "set: files hold the new values");
	rc = ctl("--sysfs-root %s get pmd_hit sync_mmap_order", sys_loaded);
	ok(rc == 0 && !strcmp(OUT, "pmd_hit=on\nsync_mmap_order=4\n"), "set: get reads them back");
	rc = ctl("--sysfs-root %s set -- vma_limit=always", sys_loaded);
	ok(rc == 0 && !strcmp(OUT, "vma_limit: none -> always\n"), "set: after --");
}

/* set with one bad argument list: exit 2, nothing written, message */
static void set_invalid(const char *args, const char *msg)
{
	int rc;

	fresh();
	rc = ctl("--sysfs-root %s set %s", sys_loaded, args);
	ok(rc == 2 && nwrites == 0 && all_stock() && !*OUT && has(ERR, msg) &&
	   has(ERR, "nothing was changed"), "set %s: exit 2, nothing written", args);
	if (!has(ERR, msg))
		printf("# err: %s", ERR);
}

static void test_set_invalid(void)
{
	int rc;

	set_invalid("pmd_hit", "'pmd_hit' is not POLICY=VALUE");
	set_invalid("=on", "'=on' is not POLICY=VALUE");
	set_invalid("pmd_hit=", "'pmd_hit=' is not POLICY=VALUE");
	set_invalid("bogus=on", "unknown policy 'bogus': known policies: descending_thp pmd_hit descending_seq vma_limit sync_mmap_order");
	set_invalid("pmd_hit=maybe", "pmd_hit: value 'maybe' is not allowed: allowed values: off on");
	set_invalid("sync_mmap_order=10", "allowed values: off fault_around 0 1 2 3 4 5 6 7 8 9");
	set_invalid("pmd_hit=[on]", "value '[on]' is not allowed");
	set_invalid("pmd_hit=On", "value 'On' is not allowed");
	set_invalid("pmd_hit=on pmd_hit=off", "pmd_hit is given more than once");
	/* atomicity: valid pairs before and after the bad one are not applied */
	set_invalid("descending_thp=folio vma_limit=sometimes sync_mmap_order=2",
		    "vma_limit: value 'sometimes' is not allowed: allowed values: none always near_end");

	fresh();
	rc = ctl("--sysfs-root %s set pmd_hit=maybe bogus=1 junk descending_thp=folio",
		 sys_loaded);
	ok(rc == 2 && nwrites == 0 && has(ERR, "'maybe' is not allowed") &&
	   has(ERR, "unknown policy 'bogus'") && has(ERR, "'junk' is not POLICY=VALUE"),
	   "set: every problem reported at once");
	rc = ctl("--sysfs-root %s set", sys_loaded);
	ok(rc == 2 && has(ERR, "set: missing POLICY=VALUE\nTry 'rapolicyctl set --help'."),
	   "set: no pairs is a usage error");
	rc = ctl("--sysfs-root %s --proc-root %s set junk", sys_empty, proc_patched);
	ok(rc == 2 && has(ERR, "'junk' is not POLICY=VALUE"),
	   "set: malformed pair is a usage error without the module too");
	rc = ctl("--sysfs-root %s --proc-root %s set pmd_hit=on", sys_empty, proc_patched);
	ok(rc == 1 && has(ERR, "rapolicy module not loaded: run 'modprobe rapolicy'"),
	   "set: module not loaded is exit 1");
}

static void test_set_rollback(void)
{
	int rc;

	/* the kernel rejects the third write: the first two are undone */
	fresh();
	fail_mask = 1 << 3;
	fail_err = -EINVAL;
	rc = ctl("--sysfs-root %s set vma_limit=always descending_seq=window "
		 "pmd_hit=on descending_thp=folio", sys_loaded);
	ok(rc == 1 && !*OUT, "rollback: exit 1, no changes reported");
	ok(!strcmp(wlog, "descending_thp=folio pmd_hit=on descending_seq=window! "
		   "pmd_hit=off descending_thp=off "),
	   "rollback: applied in order, undone newest first (%s)", wlog);
	ok(all_stock(), "rollback: every file back to its old value");
	ok(has(ERR, "rapolicyctl: descending_seq: the kernel rejected 'window' (Invalid argument)\n"
		    "rapolicyctl: rolled back pmd_hit: on -> off\n"
		    "rapolicyctl: rolled back descending_thp: folio -> off\n"
		    "rapolicyctl: nothing was changed\n"),
	   "rollback: says which write failed and what was undone");

	/* the undo of pmd_hit fails too */
	fresh();
	fail_mask = (1 << 3) | (1 << 4);
	fail_err = -EIO;
	rc = ctl("--sysfs-root %s set descending_thp=folio pmd_hit=on descending_seq=window",
		 sys_loaded);
	ok(rc == 1 && has(ERR, "descending_seq: writing 'window' to ") &&
	   has(ERR, "pmd_hit: cannot roll back to 'off': Input/output error") &&
	   has(ERR, "rolled back descending_thp: folio -> off") &&
	   has(ERR, "some policies stay changed: check with 'rapolicyctl get'"),
	   "rollback: a failed undo is reported");

	/* not root: the first write fails with EACCES */
	fresh();
	fail_mask = 1 << 1;
	fail_err = -EACCES;
	rc = ctl("--sysfs-root %s set pmd_hit=on descending_thp=folio", sys_loaded);
	ok(rc == 1 && nwrites == 1 && all_stock() &&
	   has(ERR, "rapolicyctl: permission denied: run as root (writing 'folio' to ") &&
	   has(ERR, "nothing was changed"), "set: EACCES says run as root");

	/* a real kernel would refuse a value the file does not show */
	fresh();
	put(sys_loaded, RAP "vma_limit", "[none] always near_end\n");
	fail_mask = 0;
	rc = ctl("--sysfs-root %s set pmd_hit=on", sys_loaded);
	ok(rc == 0 && !strcmp(get(sys_loaded, RAP "pmd_hit"), "off [on]"),
	   "set: kernel emulation accepts a shown value");
	stock_policies(sys_loaded);
}

/* ------------------------------------------------------------------ */
/* profiles */

static void test_profiles(void)
{
	int rc;

	fresh();
	rc = ctl("--sysfs-root %s profile seed", sys_loaded);
	ok(rc == 0 && !strcmp(OUT, "descending_thp: off -> folio\npmd_hit: off -> on\n"
			      "descending_seq: off -> window\nvma_limit: none -> near_end\n"
			      "sync_mmap_order: off -> fault_around\n"),
	   "profile seed: every seed policy on");
	rc = ctl("--sysfs-root %s get", sys_loaded);
	ok(rc == 0 && !strcmp(OUT, "descending_thp=folio\npmd_hit=on\ndescending_seq=window\n"
			      "vma_limit=near_end\nsync_mmap_order=fault_around\n"),
	   "profile seed: get shows it");
	rc = ctl("--sysfs-root %s status", sys_loaded);
	ok(rc == 0 && has(OUT, "profile: seed\n"), "profile seed: status names it");
	rc = ctl("--sysfs-root %s profile seed", sys_loaded);
	ok(rc == 0 && has(OUT, "pmd_hit: on (unchanged)") && nwrites == 5,
	   "profile seed again: all unchanged, nothing written");
	rc = ctl("--sysfs-root %s profile stock", sys_loaded);
	ok(rc == 0 && all_stock() && has(OUT, "sync_mmap_order: fault_around -> off"),
	   "profile stock: everything off");
	rc = ctl("--sysfs-root %s profile list", sys_loaded);
	ok(rc == 0 && !strcmp(OUT,
		"stock descending_thp=off pmd_hit=off descending_seq=off vma_limit=none sync_mmap_order=off descending_around=off\n"
		"seed  descending_thp=folio pmd_hit=on descending_seq=window vma_limit=near_end sync_mmap_order=fault_around\n"
		"best  descending_thp=stream descending_seq=stream descending_around=stream\n"),
	   "profile list (golden)");
	rc = ctl("--sysfs-root %s profile list", sys_empty);
	ok(rc == 0 && has(OUT, "seed "), "profile list: needs no module");
	rc = ctl("--sysfs-root %s profile turbo", sys_loaded);
	ok(rc == 2 && has(ERR, "profile: unknown profile 'turbo': profiles: stock seed best list"),
	   "profile: unknown name is a usage error");
	rc = ctl("--sysfs-root %s profile", sys_loaded);
	ok(rc == 2 && has(ERR, "missing NAME or 'list'"), "profile: no name");
	rc = ctl("--sysfs-root %s profile seed stock", sys_loaded);
	ok(rc == 2 && has(ERR, "one profile at a time"), "profile: two names");

	/* a module without near_end cannot take the seed profile */
	fresh();
	put(sys_loaded, RAP "vma_limit", "[none] always\n");
	rc = ctl("--sysfs-root %s profile seed", sys_loaded);
	ok(rc == 1 && nwrites == 0 && has(ERR, "vma_limit: value 'near_end' is not allowed"),
	   "profile: one that does not fit the module is exit 1, nothing written");
	stock_policies(sys_loaded);
}

/* ------------------------------------------------------------------ */
/* stats */

static const char stats_text_golden[] =
"async            5\n"
"descending_seq   0\n"
"descending_thp   2\n"
"order_raise      0\n"
"pages_requested  4096\n"
"pmd_hit          7\n"
"sync_around      12\n"
"sync_exec        0\n"
"sync_seq         0\n"
"sync_thp         3\n"
"vma_clamp        0\n"
"vma_limit        0\n";

static const char stats_json_golden[] =
"{\"async\":5,\"descending_seq\":0,\"descending_thp\":2,\"order_raise\":0,"
"\"pages_requested\":4096,\"pmd_hit\":7,\"sync_around\":12,\"sync_exec\":0,"
"\"sync_seq\":0,\"sync_thp\":3,\"vma_clamp\":0,\"vma_limit\":0}\n";

static const char stats_prom_golden[] =
"# HELP rapolicy_info Version of the loaded rapolicy module.\n"
"# TYPE rapolicy_info gauge\n"
"rapolicy_info{version=\"0.1.0\"} 1\n"
"# HELP rapolicy_policy Current value of each rapolicy policy.\n"
"# TYPE rapolicy_policy gauge\n"
"rapolicy_policy{policy=\"descending_thp\",value=\"folio\"} 1\n"
"rapolicy_policy{policy=\"pmd_hit\",value=\"off\"} 1\n"
"rapolicy_policy{policy=\"descending_seq\",value=\"off\"} 1\n"
"rapolicy_policy{policy=\"vma_limit\",value=\"none\"} 1\n"
"rapolicy_policy{policy=\"sync_mmap_order\",value=\"off\"} 1\n"
"# HELP rapolicy_async Hits on a folio marked for readahead in a mapping.\n"
"# TYPE rapolicy_async counter\n"
"rapolicy_async 5\n"
"# HELP rapolicy_descending_seq Windows the descending_seq policy redirected downwards.\n"
"# TYPE rapolicy_descending_seq counter\n"
"rapolicy_descending_seq 0\n"
"# HELP rapolicy_descending_thp Windows the descending_thp policy redirected downwards.\n"
"# TYPE rapolicy_descending_thp counter\n"
"rapolicy_descending_thp 2\n"
"# HELP rapolicy_order_raise Read-arounds whose folio order sync_mmap_order raised.\n"
"# TYPE rapolicy_order_raise counter\n"
"rapolicy_order_raise 0\n"
"# HELP rapolicy_pages_requested Pages in the windows whose size was known when the hook ran.\n"
"# TYPE rapolicy_pages_requested counter\n"
"rapolicy_pages_requested 4096\n"
"# HELP rapolicy_pmd_hit PMD mappings the pmd_hit policy counted as mmap hits.\n"
"# TYPE rapolicy_pmd_hit counter\n"
"rapolicy_pmd_hit 7\n"
"# HELP rapolicy_sync_around Synchronous mmap misses offered in the read-around branch.\n"
"# TYPE rapolicy_sync_around counter\n"
"rapolicy_sync_around 12\n"
"# HELP rapolicy_sync_exec Synchronous mmap misses offered in the VM_EXEC branch.\n"
"# TYPE rapolicy_sync_exec counter\n"
"rapolicy_sync_exec 0\n"
"# HELP rapolicy_sync_seq Synchronous mmap misses offered in the VM_SEQ_READ branch.\n"
"# TYPE rapolicy_sync_seq counter\n"
"rapolicy_sync_seq 0\n"
"# HELP rapolicy_sync_thp Synchronous mmap misses offered in the VM_HUGEPAGE branch.\n"
"# TYPE rapolicy_sync_thp counter\n"
"rapolicy_sync_thp 3\n"
"# HELP rapolicy_vma_clamp Reads bounded by vma_limit whose known window crossed the bound.\n"
"# TYPE rapolicy_vma_clamp counter\n"
"rapolicy_vma_clamp 0\n"
"# HELP rapolicy_vma_limit Reads the vma_limit policy bounded at the VMA end.\n"
"# TYPE rapolicy_vma_limit counter\n"
"rapolicy_vma_limit 0\n";

static void test_stats_formats(void)
{
	int rc;

	fresh();
	rc = ctl("--sysfs-root %s stats", sys_loaded);
	ok(rc == 0 && !strcmp(OUT, stats_text_golden) && !*ERR,
	   "stats: text table (golden; no reset, no subdirectory)");
	rc = ctl("--sysfs-root %s stats --json", sys_loaded);
	ok(rc == 0 && !strcmp(OUT, stats_json_golden), "stats --json (golden)");
	put(sys_loaded, RAP "descending_thp", "off [folio]\n");
	rc = ctl("--sysfs-root %s stats --prometheus", sys_loaded);
	ok(rc == 0 && !strcmp(OUT, stats_prom_golden), "stats --prometheus (golden)");
	if (strcmp(OUT, stats_prom_golden))
		printf("# got:\n%s", OUT);
	stock_policies(sys_loaded);

	/* an undocumented counter, an odd name, a version with a quote */
	put(sys_odd, RAP "stats/new-one", "1\n");
	put(sys_odd, RAP "version", "0.2\"x\n");
	rc = ctl("--sysfs-root %s stats --prometheus", sys_odd);
	ok(rc == 0 && has(OUT, "# HELP rapolicy_new_one rapolicy counter stats/new-one.\n"
			  "# TYPE rapolicy_new_one counter\nrapolicy_new_one 1\n") &&
	   has(OUT, "rapolicy_info{version=\"0.2\\\"x\"} 1\n"),
	   "stats --prometheus: generic HELP, name sanitised, label escaped");
	rc = ctl("--sysfs-root %s stats --json", sys_odd);
	ok(rc == 0 && has(OUT, "\"new-one\":1,"), "stats: counters come from the directory");
	put(sys_odd, RAP "stats/new-one", "lots\n");
	rc = ctl("--sysfs-root %s stats", sys_odd);
	ok(rc == 1 && has(ERR, "stats/new-one: not a decimal number"),
	   "stats: a counter that is not a number is exit 1");
	put(sys_odd, RAP "stats/new-one", "1\n");

	rc = ctl("--sysfs-root %s --proc-root %s stats", sys_empty, proc_patched);
	ok(rc == 1 && has(ERR, "rapolicy module not loaded: run 'modprobe rapolicy'"),
	   "stats: module not loaded");
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void test_stats_interval(void)
{
	double t0;
	int rc;

	fresh();
	rapctl_io.read = ticking_read;
	async_reads = thp_reads = 0;
	rc = ctl("--sysfs-root %s stats --interval 0.01 --count 2", sys_loaded);
	ok(rc == 0 && !strcmp(OUT,
		" async descending_seq descending_thp order_raise pages_requested pmd_hit sync_around sync_exec sync_seq sync_thp vma_clamp vma_limit\n"
		"     7              0              0           0               0       0           0         0        0       50         0         0\n"
		"     7              0              0           0               0       0           0         0        0       20         0         0\n"),
	   "stats --interval 0.01 --count 2: header and two delta rows; a reset counter restarts");
	if (rc)
		printf("# err: %s", ERR);

	async_reads = thp_reads = 0;
	rc = ctl("--sysfs-root %s stats --json --interval=0.01 --count=2", sys_loaded);
	ok(rc == 0 && !strcmp(OUT,
		"{\"async\":7,\"descending_seq\":0,\"descending_thp\":0,\"order_raise\":0,\"pages_requested\":0,\"pmd_hit\":0,\"sync_around\":0,\"sync_exec\":0,\"sync_seq\":0,\"sync_thp\":50,\"vma_clamp\":0,\"vma_limit\":0}\n"
		"{\"async\":7,\"descending_seq\":0,\"descending_thp\":0,\"order_raise\":0,\"pages_requested\":0,\"pmd_hit\":0,\"sync_around\":0,\"sync_exec\":0,\"sync_seq\":0,\"sync_thp\":20,\"vma_clamp\":0,\"vma_limit\":0}\n"),
	   "stats --json --interval: one object of deltas per line");

	t0 = now();
	rc = ctl("--sysfs-root %s stats --interval 0.05 --count 3", sys_loaded);
	ok(rc == 0 && now() - t0 >= 0.145, "stats --interval 0.05 --count 3 takes 0.15 s (%.3f)",
	   now() - t0);
	reset_hooks();
}

static void test_stats_reset(void)
{
	int rc;

	fresh();
	put(sys_loaded, RAP "stats/reset", "");
	rc = ctl("--sysfs-root %s stats reset", sys_loaded);
	ok(rc == 0 && !*OUT && !strcmp(wlog, "reset=1 ") &&
	   !strcmp(get(sys_loaded, RAP "stats/reset"), "1"), "stats reset writes 1 to stats/reset");
	fail_mask = 1 << 2;
	fail_err = -EACCES;
	rc = ctl("--sysfs-root %s stats reset", sys_loaded);
	ok(rc == 1 && has(ERR, "permission denied: run as root (writing 1 to ") &&
	   has(ERR, "/stats/reset)"), "stats reset: EACCES says run as root");
	rc = ctl("--sysfs-root %s --proc-root %s stats reset", sys_empty, proc_patched);
	ok(rc == 1 && has(ERR, "modprobe rapolicy"), "stats reset: module not loaded");
	put(sys_loaded, RAP "stats/reset", "");
}

/* ------------------------------------------------------------------ */
/* Arguments, help, environment */

static void test_args(void)
{
	static const struct {
		const char *args;
		const char *msg;
	} usage[] = {
		{ "", "missing COMMAND (status, get, set, profile, stats, ab, help)" },
		{ "frobnicate", "unknown command 'frobnicate'" },
		{ "--frob status", "unknown option '--frob'" },
		{ "--sysfs-root", "--sysfs-root needs a DIR" },
		{ "--sysfs-root=", "--sysfs-root: empty directory name" },
		{ "status extra", "status: unexpected argument 'extra'" },
		{ "stats --json --prometheus", "--prometheus conflicts with --json" },
		{ "stats --prometheus --json", "--json conflicts with --prometheus" },
		{ "stats --count 2", "--count needs --interval" },
		{ "stats --interval", "--interval needs a value" },
		{ "stats --interval 0", "--interval '0'" },
		{ "stats --interval 0.0", "--interval '0.0'" },
		{ "stats --interval -1", "--interval '-1'" },
		{ "stats --interval 1e3", "--interval '1e3'" },
		{ "stats --interval .5", "--interval '.5'" },
		{ "stats --interval 1.", "--interval '1.'" },
		{ "stats --interval 86401", "--interval '86401'" },
		{ "stats --interval 1 --count 0", "--count '0'" },
		{ "stats --interval 1 --count x", "--count 'x'" },
		{ "stats --prometheus --interval 1", "--prometheus takes no --interval" },
		{ "stats reset --json", "'reset' takes no options" },
		{ "stats bogus", "stats: unexpected argument 'bogus'" },
		{ "stats --bogus", "stats: unknown option '--bogus'" },
		{ "help set get", "one COMMAND at a time" },
		{ "help bogus", "unknown command 'bogus'" },
	};
	char dir[300];
	size_t i;
	int rc;

	fresh();
	for (i = 0; i < sizeof(usage) / sizeof(usage[0]); i++) {
		rc = ctl("--sysfs-root %s %s", sys_loaded, usage[i].args);
		ok(rc == 2 && has(ERR, usage[i].msg) && has(ERR, "Try 'rapolicyctl ") && !*OUT,
		   "usage error: '%s'", usage[i].args);
		if (!has(ERR, usage[i].msg))
			printf("# err: %s", ERR);
	}
	ok(nwrites == 0, "usage errors write nothing");
	tmp_path(dir, sizeof(dir), "no-such-dir");
	rc = ctl("--sysfs-root %s get", dir);
	ok(rc == 1 && has(ERR, "No such file or directory"), "--sysfs-root: missing directory is exit 1");
	rc = ctl("--sysfs-root %s/" RAP "pmd_hit get", sys_loaded);
	ok(rc == 1 && has(ERR, "not a directory"), "--sysfs-root: a file is exit 1");
	rc = ctl("--sysfs-root=%s get pmd_hit", sys_loaded);
	ok(rc == 0 && !strcmp(OUT, "pmd_hit=off\n"), "--sysfs-root=DIR");
}

static void test_help(void)
{
	static const char *const cmds[] = {
		"status", "get", "set", "profile", "stats", "help",
	};
	char want[64];
	size_t i;
	int rc;

	rc = ctl("--help");
	ok(rc == 0 && has(OUT, "Usage: rapolicyctl [--sysfs-root DIR]") &&
	   has(OUT, "Exit status: 0 success, 1 runtime error, 2 usage error."),
	   "--help");
	rc = ctl("-h");
	ok(rc == 0 && has(OUT, "Commands:"), "-h");
	rc = ctl("help");
	ok(rc == 0 && has(OUT, "Commands:"), "help");
	rc = ctl("--version");
	ok(rc == 0 && !strcmp(OUT, "rapolicyctl " RAPOLICY_VERSION "\n"), "--version");
	rc = ctl("-V");
	ok(rc == 0 && !strcmp(OUT, "rapolicyctl " RAPOLICY_VERSION "\n"), "-V");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		snprintf(want, sizeof(want), "Usage: rapolicyctl %s", cmds[i]);
		rc = ctl("--sysfs-root %s %s --help", sys_empty, cmds[i]);
		ok(rc == 0 && !strncmp(OUT, want, strlen(want)) && !*ERR,
		   "%s --help (without the module)", cmds[i]);
		rc = ctl("help %s", cmds[i]);
		ok(rc == 0 && !strncmp(OUT, want, strlen(want)), "help %s", cmds[i]);
	}
	rc = ctl("set pmd_hit=on --help");
	ok(rc == 0 && has(OUT, "POLICY: OLD -> NEW"), "set ... --help: help wins");
	rc = ctl("stats --help");
	ok(rc == 0 && has(OUT, "--prometheus") && has(OUT, "stats reset"), "stats --help lists options");
}

static void test_env(void)
{
	int rc;

	fresh();
	setenv("RAPOLICYCTL_SYSFS_ROOT", sys_loaded, 1);
	rc = ctl("get pmd_hit");
	ok(rc == 0 && !strcmp(OUT, "pmd_hit=off\n"), "RAPOLICYCTL_SYSFS_ROOT");
	setenv("RAPOLICYCTL_SYSFS_ROOT", sys_empty, 1);
	setenv("RAPOLICYCTL_PROC_ROOT", proc_stock, 1);
	rc = ctl("status");
	ok(rc == 1 && has(OUT, "hooks:   absent"), "RAPOLICYCTL_PROC_ROOT");
	rc = ctl("--sysfs-root %s --proc-root %s status", sys_loaded, proc_patched);
	ok(rc == 0 && has(OUT, "module:  loaded"), "options override the environment");
	unsetenv("RAPOLICYCTL_SYSFS_ROOT");
	unsetenv("RAPOLICYCTL_PROC_ROOT");
}

/* ------------------------------------------------------------------ */
/* The binary, end to end */

static void test_completion(const char *bindir)
{
	if (access("rapolicyctl.bash-completion", R_OK) || system("bash -c true")) {
		skip("bash completion: no bash or not run from userspace/");
		return;
	}
	completion(bindir, sys_loaded, "st", "status stats");
	completion(bindir, sys_loaded, "get ", "descending_thp pmd_hit descending_seq vma_limit sync_mmap_order --help");
	completion(bindir, sys_loaded, "set sync", "sync_mmap_order=");
	completion(bindir, sys_loaded, "set vma_limit=n", "none near_end");
	completion(bindir, sys_loaded, "profile ", "stock seed best list --help");
	completion(bindir, sys_loaded, "stats --p", "--prometheus");
}

static void test_binary(const char *bindir)
{
	char ctl_bin[512], *out;
	int rc;

	snprintf(ctl_bin, sizeof(ctl_bin), "%s/rapolicyctl", bindir);
	if (access(ctl_bin, X_OK)) {
		ok(0, "binary: %s: %s", ctl_bin, strerror(errno));
		return;
	}
	stock_policies(sys_loaded);
	put(sys_loaded, RAP "stats/reset", "");

	rc = run(&out, "'%s' --sysfs-root '%s' status 2>&1", ctl_bin, sys_loaded);
	ok(rc == 0 && !strcmp(out, status_loaded_golden), "binary: status");
	free(out);
	rc = run(&out, "RAPOLICYCTL_SYSFS_ROOT='%s' RAPOLICYCTL_PROC_ROOT='%s' '%s' status 2>&1",
		 sys_empty, proc_patched, ctl_bin);
	ok(rc == 1 && has(out, "run 'modprobe rapolicy'"), "binary: status, module not loaded");
	free(out);
	rc = run(&out, "'%s' --sysfs-root '%s' --proc-root '%s' status 2>&1", ctl_bin,
		 sys_empty, proc_stock);
	ok(rc == 1 && has(out, "boot a kernel with the rapolicy patches"),
	   "binary: status, unpatched kernel");
	free(out);
	rc = run(&out, "'%s' --sysfs-root '%s' get", ctl_bin, sys_loaded);
	ok(rc == 0 && !strcmp(out, "descending_thp=off\npmd_hit=off\ndescending_seq=off\n"
			      "vma_limit=none\nsync_mmap_order=off\n"), "binary: get");
	free(out);
	rc = run(&out, "'%s' --sysfs-root '%s' set pmd_hit=on vma_limit=soon 2>&1", ctl_bin,
		 sys_loaded);
	ok(rc == 2 && has(out, "allowed values: none always near_end") && all_stock(),
	   "binary: invalid set exits 2, nothing written");
	free(out);
	/* a plain file holds just what was written */
	rc = run(&out, "'%s' --sysfs-root '%s' set descending_thp=folio", ctl_bin, sys_loaded);
	ok(rc == 0 && !strcmp(out, "descending_thp: off -> folio\n") &&
	   !strcmp(get(sys_loaded, RAP "descending_thp"), "folio"), "binary: set writes the value");
	free(out);
	stock_policies(sys_loaded);
	rc = run(&out, "'%s' --sysfs-root '%s' stats --prometheus", ctl_bin, sys_loaded);
	ok(rc == 0 && has(out, "rapolicy_pages_requested 4096\n") &&
	   has(out, "rapolicy_policy{policy=\"vma_limit\",value=\"none\"} 1\n"),
	   "binary: stats --prometheus");
	free(out);
	rc = run(&out, "'%s' --sysfs-root '%s' stats --interval 0.01 --count 2", ctl_bin,
		 sys_loaded);
	ok(rc == 0 && has(out, "async") && has(out, "\n     0 "), "binary: stats --interval");
	free(out);
	rc = run(&out, "'%s' --sysfs-root '%s' stats reset", ctl_bin, sys_loaded);
	ok(rc == 0 && !strcmp(get(sys_loaded, RAP "stats/reset"), "1"), "binary: stats reset");
	free(out);
	rc = run(&out, "'%s' set --help", ctl_bin);
	ok(rc == 0 && has(out, "Usage: rapolicyctl set POLICY=VALUE"), "binary: set --help");
	free(out);
	rc = run(&out, "'%s' 2>&1", ctl_bin);
	ok(rc == 2 && has(out, "missing COMMAND"), "binary: no command exits 2");
	free(out);
	rc = run(&out, "'%s' --version", ctl_bin);
	ok(rc == 0 && !strcmp(out, "rapolicyctl " RAPOLICY_VERSION "\n"), "binary: --version");
	free(out);
	put(sys_loaded, RAP "stats/reset", "");
	test_completion(bindir);
}

/* ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
	char boot[300];

	if (test_begin("rapolicyctl-test"))
		return 1;
	make_trees();
	/* never the host's /boot */
	tmp_path(boot, sizeof(boot), "boot-none");
	setenv("RAPOLICYCTL_BOOT_ROOT", boot, 1);

	test_layer();
	test_parse_choices();
	test_kallsyms_config();
	test_status();
	test_get();
	test_set_valid();
	test_set_invalid();
	test_set_rollback();
	test_profiles();
	test_stats_formats();
	test_stats_interval();
	test_stats_reset();
	test_args();
	test_help();
	test_env();
	if (argc > 1)
		test_binary(argv[1]);
	else
		skip("no BINDIR argument");
	return test_end();
}
