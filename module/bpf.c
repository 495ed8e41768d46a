// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: readahead policies written in BPF.
 *
 * The module registers a struct_ops type, struct rapolicy_ops, with
 * register_bpf_struct_ops() (as modules may since Linux 6.9, see
 * tools/testing/selftests/bpf/test_kmods/bpf_testmod.c). Its one operation,
 * mmap_ra, has the signature of struct readahead_policy_ops' own: it sees
 * the kernel's read-only copy of the fault and may write the window, and
 * nothing else (rap_bpf_btf_struct_access()). Programs run under
 * rcu_read_lock() in the fault path with the mmap or VMA lock held: a
 * sleepable program (SEC("struct_ops.s/...")) is refused at load
 * (rap_bpf_check_member()), and in the others the verifier refuses
 * helpers and kfuncs that may sleep. The window a program returns goes to
 * the kernel like the module's own, through the same window check; the
 * module only counts, with the same rules, the windows that check will
 * cut or refuse.
 *
 * A watchdog, as sched_ext's for BPF schedulers (kernel/sched/ext.c):
 * a program that returns RAP_BPF_REFUSED_MAX refused windows in a row,
 * or asks bpf_rapolicy_cached() about more than RAP_BPF_CACHED_PAGES
 * pages in one decision, is ejected: no fault calls it any more, the arms
 * decide with their built-in policies, stats/bpf_eject counts it and one
 * line goes to the kernel log. Its struct_ops map stays registered, as a
 * disabled sched_ext scheduler's stays attached, until user space
 * unloads it; bpf_ops shows it as ejected.
 *
 * One program at a time; the arm whose "bpf" policy is "on" asks it
 * first, so a BPF policy can be either arm of an A/B comparison.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/rcupdate.h>
#include <linux/readahead_policy.h>
#include <linux/sysfs.h>

#include "compat.h"
#include "rapolicy.h"

#if RAP_HAVE_BPF
#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>

#define RAP_BPF_NAME_LEN 16
/* Refused windows in a row after which a program is ejected */
#define RAP_BPF_REFUSED_MAX	64
/*
 * Pages bpf_rapolicy_cached() may look at in one decision, over all its
 * calls: so many xarray entries at most (a call is charged the pages of
 * its range, at least one). The largest window the kernel reads on
 * x86-64, two PMD folios (ra_policy_max_pages()).
 */
#define RAP_BPF_CACHED_PAGES	1024

/**
 * struct rapolicy_ops - a readahead policy in BPF
 * @mmap_ra: as &readahead_policy_ops.mmap_ra: return true to read @win
 *	in place of the default window; a lowered @win->max_index is
 *	honoured either way
 * @name: shown in /sys/kernel/mm/rapolicy/bpf_ops
 */
struct rapolicy_ops {
	bool (*mmap_ra)(const struct ra_policy_fault *fault,
			struct ra_policy_window *win);
	char name[RAP_BPF_NAME_LEN];
};

static struct rapolicy_ops __rcu *rap_bpf_ops;
static DEFINE_MUTEX(rap_bpf_mutex);
/* The type is registered: the module was built with its BTF */
static bool rap_bpf_registered;
/*
 * The registered program the watchdog ejected, or NULL: set once by the
 * fault that ejects it, cleared when the next program registers (after
 * rap_bpf_unreg() waited for every fault of the ejected one)
 */
static struct rapolicy_ops *rap_bpf_ejected;
/* Refused windows in a row of the registered program */
static atomic_t rap_bpf_refused;

/*
 * What a program is called with: the kernel's fault, copied so that
 * bpf_rapolicy_cached() finds the decision's budget next to it (the
 * program cannot write it, rap_bpf_btf_struct_access())
 */
struct rap_bpf_fault {
	struct ra_policy_fault fault;
	unsigned int cached_pages;	/* left of RAP_BPF_CACHED_PAGES */
	bool over;			/* asked for more */
};

/* Pages of the file of @fault, the last one partial */
static pgoff_t rap_bpf_file_pages(const struct ra_policy_fault *fault)
{
	loff_t isize = i_size_read(fault->file->f_mapping->host);

	return isize > 0 ? ((isize - 1) >> PAGE_SHIFT) + 1 : 0;
}

/* What the kernel's window check will do to @w, a window for @fault */
static enum rap_window_check
rap_bpf_window_check(const struct ra_policy_fault *fault,
		     const struct ra_policy_window *w)
{
	const struct rap_window_bounds b = {
		.index = fault->index,
		.index_end = fault->index_end,
		.async = fault->point == RA_POLICY_ASYNC,
		.vma_start = fault->vma_start,
		.vma_end = fault->vma_end,
		.file_pages = rap_bpf_file_pages(fault),
		.max_size = fault->max_pages,
		.window_size = fault->window_pages,
		.max_order = fault->max_order,
	};

	return rap_window_check(w, &b);
}

/*
 * Eject @ops: the first fault to find it misbehaving does, once. Safe in
 * the fault path: a store, a counter and a printk, nothing that sleeps;
 * faults that read @ops before see the ejection at their next decision.
 */
static void rap_bpf_eject(struct rapolicy_ops *ops, enum rap_arm arm,
			  const char *why)
{
	if (cmpxchg(&rap_bpf_ejected, NULL, ops))
		return;
	rap_stat_add(arm, RAP_STAT_bpf_eject, 1);
	pr_warn("BPF policy %s ejected: %s; the arms decide without it until it is unloaded\n",
		ops->name, why);
}

/* Called by rap_bpf_decide() under rcu_read_lock() for arms with bpf=on */
bool rap_bpf_mmap_ra(const struct ra_policy_fault *fault,
		     struct ra_policy_window *win, enum rap_arm arm)
{
	struct rapolicy_ops *ops = rcu_dereference(rap_bpf_ops);
	struct rap_bpf_fault bf = {
		.fault = *fault,
		.cached_pages = RAP_BPF_CACHED_PAGES,
	};
	struct ra_policy_window w = *win;
	enum rap_window_check check;
	bool replaced;

	if (!ops || !ops->mmap_ra || READ_ONCE(rap_bpf_ejected) == ops)
		return false;
	replaced = ops->mmap_ra(&bf.fault, &w);
	if (bf.over) {
		rap_bpf_eject(ops, arm, "bpf_rapolicy_cached() over its pages a decision");
		return false;
	}
	if (!replaced) {
		win->max_index = w.max_index;
		return false;
	}
	check = rap_bpf_window_check(fault, &w);
	if (check != RAP_WINDOW_REFUSED) {
		if (atomic_read(&rap_bpf_refused))
			atomic_set(&rap_bpf_refused, 0);
	} else if (atomic_inc_return(&rap_bpf_refused) >= RAP_BPF_REFUSED_MAX) {
		rap_bpf_eject(ops, arm, "refused windows in a row");
		return false;
	}
	*win = w;
	rap_stat_add(arm, RAP_STAT_bpf, 1);
	if (check != RAP_WINDOW_KEPT)
		rap_stat_add(arm, RAP_STAT_bpf_clamp, 1);
	return true;
}

__bpf_kfunc_start_defs();

/**
 * bpf_rapolicy_cached - whether the page cache holds a folio in a range
 * @fault: the fault a rapolicy_ops program was called for
 * @first: first page index
 * @last: last page index
 *
 * A decision may ask about RAP_BPF_CACHED_PAGES pages over all its calls,
 * a call being charged the pages of its range (at least one); the call
 * that asks for more looks at nothing, and the watchdog ejects the
 * program when it returns (rap_bpf_mmap_ra()).
 *
 * Return: true if some folio (not a shadow entry) of @fault's file is
 * cached in [@first, @last].
 */
__bpf_kfunc bool bpf_rapolicy_cached(const struct ra_policy_fault *fault,
				     u64 first, u64 last)
{
	struct rap_bpf_fault *bf = container_of(fault, struct rap_bpf_fault,
						fault);
	const pgoff_t max = (pgoff_t)(LLONG_MAX >> PAGE_SHIFT) - 1;

	if (first > last || first > max)
		return false;
	if (bf->over || last - first >= bf->cached_pages) {
		bf->over = true;
		return false;
	}
	bf->cached_pages -= last - first + 1;
	return filemap_range_has_page(fault->file->f_mapping,
				      (loff_t)first << PAGE_SHIFT,
				      ((loff_t)min_t(u64, last, max) + 1) *
				      PAGE_SIZE - 1);
}

__bpf_kfunc_end_defs();

/*
 * Trusted arguments only: the fault a program passes is the one it was
 * called with, inside a struct rap_bpf_fault. Kernels without the flag
 * take only trusted pointers for every kfunc.
 */
#ifndef KF_TRUSTED_ARGS
#define KF_TRUSTED_ARGS 0
#endif

BTF_KFUNCS_START(rap_bpf_kfunc_ids)
BTF_ID_FLAGS(func, bpf_rapolicy_cached, KF_TRUSTED_ARGS)
BTF_KFUNCS_END(rap_bpf_kfunc_ids)

static struct bpf_struct_ops rap_bpf_struct_ops;

/* Only rapolicy_ops programs get the kfuncs: nobody else has a fault */
static int rap_bpf_kfunc_filter(const struct bpf_prog *prog, u32 kfunc_id)
{
	if (!btf_id_set8_contains(&rap_bpf_kfunc_ids, kfunc_id))
		return 0;
	return prog->aux->st_ops == &rap_bpf_struct_ops ? 0 : -EACCES;
}

static const struct btf_kfunc_id_set rap_bpf_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &rap_bpf_kfunc_ids,
	.filter = rap_bpf_kfunc_filter,
};

static struct btf *rap_bpf_btf;
static const struct btf_type *rap_bpf_window_type;

static int rap_bpf_init(struct btf *btf)
{
	rap_bpf_btf = btf;
	return 0;
}

/*
 * No sleepable program: bpf_copy_from_user() and the other helpers a
 * sleepable program may call can sleep, or fault on the task's own memory
 * and wait for the mmap lock its fault holds.
 *
 * The type of mmap_ra's window, as the verifier types the argument: from
 * the member's own prototype in the module's BTF (a BTF_ID_LIST of the
 * module would hold the id of the distilled base, not the running one).
 */
static int rap_bpf_check_member(const struct btf_type *t,
				const struct btf_member *member,
				const struct bpf_prog *prog)
{
	const struct btf_type *type = btf_type_by_id(rap_bpf_btf, member->type);

	/* it would run under rcu_read_lock() with the mmap or VMA lock held */
	if (prog->sleepable)
		return -EINVAL;
	if (!type || !btf_type_is_ptr(type))
		return -EINVAL;
	type = btf_type_by_id(rap_bpf_btf, type->type);
	if (!type || !btf_type_is_func_proto(type) || btf_type_vlen(type) != 2)
		return -EINVAL;
	type = btf_type_by_id(rap_bpf_btf, btf_params(type)[1].type);
	if (!type || !btf_type_is_ptr(type))
		return -EINVAL;
	type = btf_type_by_id(rap_bpf_btf, type->type);
	if (!type || !btf_type_is_struct(type))
		return -EINVAL;
	WRITE_ONCE(rap_bpf_window_type, type);
	return 0;
}

static bool rap_bpf_is_valid_access(int off, int size,
				    enum bpf_access_type type,
				    const struct bpf_prog *prog,
				    struct bpf_insn_access_aux *info)
{
	return bpf_tracing_btf_ctx_access(off, size, type, prog, info);
}

/* Programs may write their window and nothing else */
static int rap_bpf_btf_struct_access(struct bpf_verifier_log *log,
				     const struct bpf_reg_state *reg,
				     int off, int size)
{
	if (btf_type_by_id(reg->btf, reg->btf_id) !=
	    READ_ONCE(rap_bpf_window_type)) {
		bpf_log(log, "rapolicy_ops may only write its ra_policy_window\n");
		return -EACCES;
	}
	if (off < 0 || size <= 0 ||
	    off + size > sizeof(struct ra_policy_window)) {
		bpf_log(log, "write outside ra_policy_window at off %d size %d\n",
			off, size);
		return -EACCES;
	}
	return 0;
}

static const struct bpf_verifier_ops rap_bpf_verifier_ops = {
	.get_func_proto = bpf_base_func_proto,
	.is_valid_access = rap_bpf_is_valid_access,
	.btf_struct_access = rap_bpf_btf_struct_access,
};

static int rap_bpf_init_member(const struct btf_type *t,
			       const struct btf_member *member,
			       void *kdata, const void *udata)
{
	const struct rapolicy_ops *uops = udata;
	struct rapolicy_ops *ops = kdata;

	if (__btf_member_bit_offset(t, member) !=
	    offsetof(struct rapolicy_ops, name) * 8)
		return 0;
	if (strscpy(ops->name, uops->name, sizeof(ops->name)) <= 0)
		return -EINVAL;
	return 1;
}

static int rap_bpf_validate(void *kdata)
{
	const struct rapolicy_ops *ops = kdata;

	return ops->mmap_ra ? 0 : -EINVAL;
}

static int rap_bpf_reg(void *kdata, struct bpf_link *link)
{
	int err = 0;

	mutex_lock(&rap_bpf_mutex);
	if (rcu_access_pointer(rap_bpf_ops)) {
		err = -EBUSY;
	} else {
		/* no fault runs an earlier program: rap_bpf_unreg() */
		WRITE_ONCE(rap_bpf_ejected, NULL);
		atomic_set(&rap_bpf_refused, 0);
		rcu_assign_pointer(rap_bpf_ops, (struct rapolicy_ops *)kdata);
	}
	mutex_unlock(&rap_bpf_mutex);
	if (!err)
		pr_info("BPF policy %s registered\n",
			((struct rapolicy_ops *)kdata)->name);
	return err;
}

/* Returns once no fault runs the program any more */
static void rap_bpf_unreg(void *kdata, struct bpf_link *link)
{
	mutex_lock(&rap_bpf_mutex);
	if (rcu_access_pointer(rap_bpf_ops) == kdata)
		RCU_INIT_POINTER(rap_bpf_ops, NULL);
	mutex_unlock(&rap_bpf_mutex);
	synchronize_rcu();
}

static bool rap_bpf_stub_mmap_ra(const struct ra_policy_fault *fault,
				 struct ra_policy_window *win)
{
	return false;
}

static struct rapolicy_ops rap_bpf_stubs = {
	.mmap_ra = rap_bpf_stub_mmap_ra,
};

static struct bpf_struct_ops rap_bpf_struct_ops = {
	.verifier_ops = &rap_bpf_verifier_ops,
	.init = rap_bpf_init,
	.check_member = rap_bpf_check_member,
	.init_member = rap_bpf_init_member,
	.validate = rap_bpf_validate,
	.reg = rap_bpf_reg,
	.unreg = rap_bpf_unreg,
	.cfi_stubs = &rap_bpf_stubs,
	.name = "rapolicy_ops",
	.owner = THIS_MODULE,
};

/*
 * bpf_ops: "<name> <struct_ops map id>" of the loaded program, with
 * " ejected" once the watchdog ejected it, or "none"
 */
static ssize_t bpf_ops_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	struct rapolicy_ops *ops;
	ssize_t len;

	mutex_lock(&rap_bpf_mutex);
	ops = rcu_dereference_protected(rap_bpf_ops,
					lockdep_is_held(&rap_bpf_mutex));
	if (ops)
		len = sysfs_emit(buf, "%s %u%s\n", ops->name,
				 bpf_struct_ops_id(ops),
				 READ_ONCE(rap_bpf_ejected) == ops ?
				 " ejected" : "");
	else
		len = sysfs_emit(buf, rap_bpf_registered ? "none\n" :
				 "unsupported\n");
	mutex_unlock(&rap_bpf_mutex);
	return len;
}

int rap_bpf_init_module(void)
{
	int err;

	err = register_btf_kfunc_id_set(BPF_PROG_TYPE_STRUCT_OPS,
					&rap_bpf_kfunc_set);
	if (!err)
		err = register_bpf_struct_ops(&rap_bpf_struct_ops, rapolicy_ops);
	if (err)
		pr_warn("no BPF policies: struct_ops registration failed (%d)\n",
			err);
	rap_bpf_registered = !err;
	return 0;
}
#else /* !RAP_HAVE_BPF */
bool rap_bpf_mmap_ra(const struct ra_policy_fault *fault,
		     struct ra_policy_window *win, enum rap_arm arm)
{
	return false;
}

static ssize_t bpf_ops_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "unsupported\n");
}

int rap_bpf_init_module(void)
{
	return 0;
}
#endif /* RAP_HAVE_BPF */

/*
 * The bpf policy: the loaded program's window, when it returns one, is
 * its own, as the stream tracker's is; it decides before the tracker
 */
static unsigned int rap_bpf_decide(int value, const struct rap_fault *f,
				   const struct rap_cache_view *view,
				   struct ra_policy_window *win, unsigned int did)
{
	if (!rap_bpf_mmap_ra(f->fault, win, f->arm))
		return 0;
	return RAP_DID_REPLACED | RAP_DID_OWNED;
}

const struct rap_policy_ops rap_bpf_policy = {
	.stage = RAP_STAGE_PROGRAM,
	.decide = rap_bpf_decide,
};

static struct kobj_attribute rap_bpf_ops_attr = __ATTR_RO(bpf_ops);

static struct attribute *rap_bpf_attrs[] = {
	&rap_bpf_ops_attr.attr,
	NULL,
};

const struct attribute_group rap_bpf_group = {
	.attrs = rap_bpf_attrs,
};
