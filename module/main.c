// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: live-tunable mmap readahead policies.
 *
 * Registers with the kernel's readahead policy hooks and runs the
 * policies of policy.c on every mmap readahead decision, with the
 * settings of /sys/kernel/mm/rapolicy/ (sysfs.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/readahead_policy.h>
#include <linux/xarray.h>

#include "compat.h"
#include "rapolicy.h"

static bool rap_has_folio(const void *ctx, pgoff_t index)
{
	const struct address_space *mapping = ctx;
	void *entry = xa_load((struct xarray *)&mapping->i_pages, index);

	return entry && !xa_is_value(entry);
}

static bool rap_has_range(const void *ctx, pgoff_t first, pgoff_t last)
{
	return filemap_range_has_page((struct address_space *)ctx,
				      (loff_t)first << PAGE_SHIFT,
				      ((loff_t)(last + 1) << PAGE_SHIFT) - 1);
}

/*
 * Whether the folio at @index is mapped: a hint. The hooks run under
 * rcu_read_lock() without a reference on the folio, which may be freed
 * and reused meanwhile, so take one and check that it is still the
 * mapping's, as filemap_get_entry() does, before reading its mapcount.
 */
static bool rap_mapped(const void *ctx, pgoff_t index)
{
	const struct address_space *mapping = ctx;
	XA_STATE(xas, (struct xarray *)&mapping->i_pages, index);
	struct folio *folio;
	bool mapped;

	do {
		xas_reset(&xas);
		folio = xas_load(&xas);
	} while (xas_retry(&xas, folio));
	if (!folio || xa_is_value(folio) || !folio_try_get(folio))
		return false;
	mapped = folio == xas_reload(&xas) && folio_mapped(folio);
	folio_put(folio);
	return mapped;
}

static void rap_count_window(enum rap_arm arm, enum ra_policy_point point,
			     unsigned int did)
{
	rap_stat_add(arm, RAP_STAT_sync_thp + point, 1);
	if (did & RAP_DID_DESCENDING_THP)
		rap_stat_add(arm, RAP_STAT_descending_thp, 1);
	if (did & RAP_DID_DESCENDING_SEQ)
		rap_stat_add(arm, RAP_STAT_descending_seq, 1);
	if (did & RAP_DID_DESCENDING_AROUND)
		rap_stat_add(arm, RAP_STAT_descending_around, 1);
	if (did & RAP_DID_VMA_LIMIT)
		rap_stat_add(arm, RAP_STAT_vma_limit, 1);
	if (did & RAP_DID_VMA_CLAMP)
		rap_stat_add(arm, RAP_STAT_vma_clamp, 1);
	if (did & RAP_DID_ORDER_RAISE)
		rap_stat_add(arm, RAP_STAT_order_raise, 1);
}

/* The kernel's branch for misses in the VMA, in the policies' terms */
static enum rap_mapping_kind rap_mapping_kind(enum ra_policy_point sync_point)
{
	switch (sync_point) {
	case RA_POLICY_SYNC_THP:
		return RAP_MAP_THP;
	case RA_POLICY_SYNC_SEQ:
		return RAP_MAP_SEQ;
	case RA_POLICY_SYNC_AROUND:
		return RAP_MAP_AROUND;
	default:
		return RAP_MAP_OTHER;
	}
}

static void rap_mmap_miss(const struct file *file, pgoff_t index)
{
	struct rap_unit u = rap_unit_of(file);

	rap_stat_add(u.arm, RAP_STAT_sync_miss, 1);
	rap_bucket_add(u.bucket, RAP_BUCKET_sync_miss, 1);
}

static bool rap_mmap_ra(const struct ra_policy_fault *fault,
			struct ra_policy_window *win)
{
	const enum rap_arm arm = rap_arm_of(fault->file);
	struct rap_settings s;
	const struct rap_cache_view view = {
		.ctx = fault->file->f_mapping,
		.has_folio = rap_has_folio,
		.has_range = rap_has_range,
		.mapped = rap_mapped,
	};
	const struct rap_fault f = {
		.point = fault->point,
		.sized = fault->sized,
		.kind = rap_mapping_kind(fault->sync_point),
		.thp_order = fault->thp_order,
		.max_order = min_t(unsigned int,
				   mapping_max_folio_order(fault->file->f_mapping),
				   get_order(SZ_2M)),
		.ra_start = fault->ra_start,
		.ra_size = fault->ra_size,
		.ra_order = fault->ra_order,
		.index = fault->index,
		.vma_start = fault->vma_start,
		.vma_end = fault->vma_end,
		.ra_pages = fault->ra_pages,
		.fault_around_pages = fault->fault_around_pages,
		.fault = fault,
		.settings = &s,
		.arm = arm,
	};
	unsigned int did;
	bool replaced;

	if (fault->point >= RA_POLICY_NR_POINTS)
		return false;
	rap_settings_read(arm, &s);
	replaced = rap_decide_window(&s, &f, &view, win, &did);
	win->arm = f.arm;
	rap_count_window(f.arm, fault->point, did);
	rap_ledger_decided(fault->file->f_mapping, f.arm, win->by);
	return replaced;
}

/*
 * The policies with a hit() in their ops, in table order, each with its
 * setting in either arm: filled at load by rap_policy_table_check()
 */
static struct rap_hit_policy {
	unsigned int (*hit)(int value, const struct rap_hit *h,
			    unsigned int did);
	const int *setting[RAP_NR_ARMS];
} rap_hit_policies[RAP_NR_POLICIES] __ro_after_init;
static unsigned int rap_nr_hit_policies __ro_after_init;

/*
 * Called once the mapping happened: count what the kernel will count.
 * Stock counts a PTE mapping the kernel's rules count and no PMD mapping;
 * then the hit() of every policy that has one and whose setting is not
 * stock, in table order, each passing on RAP_HIT_* bits. It runs on every
 * fault served from the cache while such a policy is on, so it reads the
 * settings of those policies alone.
 */
static bool rap_mmap_hit(const struct ra_policy_hit *hit)
{
	const struct rap_hit h = {
		.pmd = hit->pmd,
		.eligible = hit->eligible,
		.hit = hit,
		.arm = rap_arm_of(hit->file),
	};
	unsigned int did = !h.pmd && h.eligible ? RAP_HIT_COUNTED : 0;
	const struct rap_hit_policy *p;

	for (p = rap_hit_policies; p < rap_hit_policies + rap_nr_hit_policies;
	     p++) {
		int value = READ_ONCE(*p->setting[h.arm]);

		if (value)
			did = p->hit(value, &h, did);
	}
	if (did & RAP_HIT_PMD)
		rap_stat_add(h.arm, RAP_STAT_pmd_hit, 1);
	if (did & RAP_HIT_COUNTED)
		rap_stat_add(h.arm, RAP_STAT_mmap_hit, 1);
	return did & RAP_HIT_COUNTED;
}

static void rap_mmap_ra_done(const struct file *file,
			     enum ra_policy_point point, unsigned long nr_added)
{
	struct rap_unit u;

	rap_ledger_done();
	if (!nr_added)
		return;
	u = rap_unit_of(file);
	rap_stat_add(u.arm, RAP_STAT_pages_read, nr_added);
	rap_bucket_add(u.bucket, RAP_BUCKET_pages_read, nr_added);
}

static const struct readahead_policy_ops rap_ops = {
	.mmap_miss = rap_mmap_miss,
	.mmap_ra = rap_mmap_ra,
	.mmap_hit = rap_mmap_hit,
	.mmap_ra_done = rap_mmap_ra_done,
};

/* Serialises turning the kernel's hooks on and off; rap_registered is its */
static DEFINE_MUTEX(rap_hooks_mutex);
static bool rap_registered;

/*
 * The hooks the module needs: the window points, the miss and the report
 * of what a fault read always, as they feed the counters (sync_miss,
 * sync_thp .. async, pages_read) and run only on faults that read or start
 * a read (a miss, a readahead marker); the hit hook, which runs on every
 * fault served from the page cache, only while a policy that decides hits
 * is set in either arm. With none, such a fault never enters the module.
 */
static unsigned long rap_hooks_needed(void)
{
	unsigned long hooks = RA_POLICY_HOOKS_RA | BIT(RA_POLICY_HOOK_MISS) |
			      BIT(RA_POLICY_HOOK_DONE);
	struct rap_settings s;
	unsigned int arm, id;

	for (arm = 0; arm < RAP_NR_ARMS; arm++) {
		rap_settings_read(arm, &s);
		for (id = 0; id < RAP_NR_POLICIES; id++) {
			const struct rap_policy_ops *ops = rap_policy_table[id];

			if (rap_setting(&s, id) && ops && ops->hit)
				hooks |= BIT(RA_POLICY_HOOK_HIT);
		}
	}
	return hooks;
}

/* After a change of the settings: turn on the hooks they use, no others */
void rap_hooks_update(void)
{
	mutex_lock(&rap_hooks_mutex);
	if (rap_registered)
		readahead_policy_set_hooks(&rap_ops, rap_hooks_needed());
	mutex_unlock(&rap_hooks_mutex);
}

/*
 * Every row of table.h has its ops: their names are bound weakly. Lists
 * the policies that decide hits for rap_mmap_hit().
 */
static int rap_policy_table_check(void)
{
	unsigned int id;

	for (id = 0; id < RAP_NR_POLICIES; id++) {
		const struct rap_policy_ops *ops = rap_policy_table[id];
		struct rap_hit_policy *p;
		unsigned int arm;

		if (WARN(!ops, "policy %u has no ops\n", id))
			return -EINVAL;
		if (!ops->hit)
			continue;
		p = &rap_hit_policies[rap_nr_hit_policies++];
		p->hit = ops->hit;
		for (arm = 0; arm < RAP_NR_ARMS; arm++)
			p->setting[arm] = rap_setting_ptr(arm, id);
	}
	return 0;
}

static int __init rapolicy_init(void)
{
	int err;

	err = rap_policy_table_check();
	if (err)
		return err;

	err = rap_tracker_init();
	if (err)
		return err;
	rap_random_init();
	err = rap_stats_init();
	if (err)
		goto free_tracker;
	err = rap_sysfs_init();
	if (err)
		goto free_stats;
	err = rap_bpf_init_module();
	if (err)
		goto remove_sysfs;
	err = rap_ledger_init();
	if (err)
		goto remove_sysfs;
	err = readahead_policy_register(&rap_ops);
	if (err) {
		pr_err("cannot register: another readahead policy is loaded\n");
		goto remove_ledger;
	}
	mutex_lock(&rap_hooks_mutex);
	rap_registered = true;
	mutex_unlock(&rap_hooks_mutex);
	rap_hooks_update();
	return 0;

remove_ledger:
	rap_ledger_exit();
remove_sysfs:
	rap_sysfs_exit();
	rap_ab_exit();
free_stats:
	rap_stats_exit();
free_tracker:
	rap_tracker_exit();
	return err;
}

static void __exit rapolicy_exit(void)
{
	mutex_lock(&rap_hooks_mutex);
	rap_registered = false;
	mutex_unlock(&rap_hooks_mutex);
	/* Turns every hook off; returns once none runs our code any more */
	readahead_policy_unregister(&rap_ops);
	rap_ledger_exit();
	rap_sysfs_exit();
	rap_tracker_exit();
	rap_ab_exit();
	rap_stats_exit();
}

module_init(rapolicy_init);
module_exit(rapolicy_exit);

MODULE_DESCRIPTION("Live-tunable mmap readahead policies");
MODULE_LICENSE("GPL");
MODULE_VERSION(RAPOLICY_VERSION);
