#!/bin/bash
# The hook API's contract, checked by the compiler (TAP): a policy gets the
# fault as a const copy with no pointer to the file's readahead state and
# the file, the VMA and the hit as const, so a policy that tries to change
# ra->size, the fault, the file or the VMA does not build. A good
# policy built the same way shows that the failures are the contract's.
set -uo pipefail
# ASCII quotes in the compiler's messages
export LANG=C LC_CTYPE=C LC_MESSAGES=C
top=$(cd "$(dirname "$0")/../.." && pwd)
kdir=$(bash "$top/tests/kernel/build-kernel.sh") || { echo "not ok 1 - patched kernel tree"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0

tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# build NAME BODY [HIT_BODY]: a module whose mmap_ra hook runs BODY and
# whose other hooks run HIT_BODY (with hit, file and index in scope)
build() {
	local dir=$work/$1
	mkdir -p "$dir"
	cat >"$dir/$1.c" <<EOC
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/readahead_policy.h>

static bool try_ra(const struct ra_policy_fault *fault,
		   struct ra_policy_window *win)
{
	$2
	return false;
}

static bool try_hit(const struct ra_policy_hit *hit)
{
	const struct file *file = hit->file;
	pgoff_t index = hit->index;

	(void)file;
	(void)index;
	${3:-}
	return false;
}

static void try_miss(const struct file *file, pgoff_t index)
{
}

static void try_done(const struct file *file, enum ra_policy_point point,
		     unsigned long nr_added)
{
}

static const struct readahead_policy_ops ops = {
	.mmap_miss = try_miss,
	.mmap_ra = try_ra,
	.mmap_hit = try_hit,
	.mmap_ra_done = try_done,
};

static int __init try_init(void)
{
	return readahead_policy_register(&ops);
}
module_init(try_init);
MODULE_LICENSE("GPL");
EOC
	echo "obj-m := $1.o" >"$dir/Kbuild"
	make -s -C "$kdir" M="$dir" modules >"$dir/log" 2>&1
	echo $? >"$dir/rc"
}

# expect_fail NAME BODY MESSAGE [HIT_BODY]
expect_fail() {
	build "$1" "$2" "${4:-}"
	if [ "$(cat "$work/$1/rc")" != 0 ] && grep -q "$3" "$work/$1/log"; then
		tap 0 "$1: does not build ($3)"
	else
		sed 's/^/# /' "$work/$1/log"
		tap 1 "$1: does not build ($3)"
	fi
}

build good 'win->max_index = fault->index + fault->ra_pages;'
if [ "$(cat "$work/good/rc")" = 0 ]; then
	tap 0 "a policy that only returns a window builds"
else
	sed 's/^/# /' "$work/good/log"
	tap 1 "a policy that only returns a window builds"
fi
expect_fail write_ra 'fault->ra->size = 0;' "has no member named .ra."
expect_fail write_snapshot 'fault->ra_size = 0;' "read-only"
expect_fail write_vma 'fault->vma->vm_pgoff = 0;' "read-only"
expect_fail write_vmf 'fault->vmf->pgoff = 0;' "has no member named .vmf."
expect_fail write_file 'fault->file->f_ra.size = 0;' "read-only"
expect_fail write_hit_vma '' "read-only" 'hit->vma->vm_pgoff = 0;'
expect_fail write_hit_file '' "read-only" 'hit->file->f_ra.mmap_miss = 0;'
expect_fail hit_vmf '' "has no member named .vmf." 'return hit->vmf->pgoff;' 

# mm_kobj is exported to rapolicy alone (EXPORT_SYMBOL_FOR_MODULES() on
# 7.x, EXPORT_SYMBOL_GPL_FOR_MODULES() and patches/6.12/0000 on 6.12): a
# module of another name neither gets it by default nor by importing the
# "module:rapolicy" namespace. NAME IMPORT MESSAGE
expect_no_mm_kobj() {
	local dir=$work/$1
	mkdir -p "$dir"
	cat >"$dir/$1.c" <<EOC
// SPDX-License-Identifier: GPL-2.0
#include <linux/kobject.h>
#include <linux/module.h>

static int __init try_init(void)
{
	return mm_kobj ? 0 : -ENODEV;
}
module_init(try_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("uses mm_kobj");
$2
EOC
	echo "obj-m := $1.o" >"$dir/Kbuild"
	if ! make -s -C "$kdir" M="$dir" modules >"$dir/log" 2>&1 &&
		grep -q "$3" "$dir/log"; then
		tap 0 "$1: does not build ($3)"
	else
		sed 's/^/# /' "$dir/log"
		tap 1 "$1: does not build ($3)"
	fi
}
expect_no_mm_kobj rapolicy_other "" "does not import it"
expect_no_mm_kobj rapolicy_importer 'MODULE_INFO(import_ns, "module:rapolicy");' \
	"explicitly importing namespace"
echo "1..$n"
