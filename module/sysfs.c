// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy: /sys/kernel/mm/rapolicy/ and the module parameters.
 *
 * Each policy is one file that shows its values THP-style ("off [folio]")
 * and takes one of them; anything else is -EINVAL and changes nothing.
 * The same parser serves the module parameters, for modprobe.d.
 */
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "rapolicy.h"

static struct rap_settings rap_settings;

/* Hooks read each setting once per decision; a switch takes effect at once */
void rap_settings_read(struct rap_settings *s)
{
	s->descending_thp = READ_ONCE(rap_settings.descending_thp);
	s->pmd_hit = READ_ONCE(rap_settings.pmd_hit);
	s->descending_seq = READ_ONCE(rap_settings.descending_seq);
	s->vma_limit = READ_ONCE(rap_settings.vma_limit);
	s->sync_mmap_order = READ_ONCE(rap_settings.sync_mmap_order);
}

struct rap_policy {
	struct kobj_attribute attr;
	const char *name;
	const char * const *names;	/* named values, in enum order */
	unsigned int nr_names;
	bool orders;	/* also takes a folio order, 0..MAX_PAGECACHE_ORDER */
	int *value;
};

static const char * const rap_off_folio[] = { "off", "folio" };
static const char * const rap_off_on[] = { "off", "on" };
static const char * const rap_off_window[] = { "off", "window" };
static const char * const rap_vma_limits[] = { "none", "always", "near_end" };
static const char * const rap_sync_orders[] = { "off", "fault_around" };

enum rap_policy_id {
	RAP_DESCENDING_THP,
	RAP_PMD_HIT,
	RAP_DESCENDING_SEQ,
	RAP_VMA_LIMIT,
	RAP_SYNC_MMAP_ORDER,
	RAP_NR_POLICIES
};

static struct rap_policy rap_policies[RAP_NR_POLICIES] = {
	[RAP_DESCENDING_THP] = {
		.name = "descending_thp",
		.names = rap_off_folio,
		.nr_names = ARRAY_SIZE(rap_off_folio),
		.value = &rap_settings.descending_thp,
	},
	[RAP_PMD_HIT] = {
		.name = "pmd_hit",
		.names = rap_off_on,
		.nr_names = ARRAY_SIZE(rap_off_on),
		.value = &rap_settings.pmd_hit,
	},
	[RAP_DESCENDING_SEQ] = {
		.name = "descending_seq",
		.names = rap_off_window,
		.nr_names = ARRAY_SIZE(rap_off_window),
		.value = &rap_settings.descending_seq,
	},
	[RAP_VMA_LIMIT] = {
		.name = "vma_limit",
		.names = rap_vma_limits,
		.nr_names = ARRAY_SIZE(rap_vma_limits),
		.value = &rap_settings.vma_limit,
	},
	[RAP_SYNC_MMAP_ORDER] = {
		.name = "sync_mmap_order",
		.names = rap_sync_orders,
		.nr_names = ARRAY_SIZE(rap_sync_orders),
		.orders = true,
		.value = &rap_settings.sync_mmap_order,
	},
};

static int rap_policy_parse(const struct rap_policy *p, const char *buf,
			    int *value)
{
	unsigned int order;
	int i;

	i = __sysfs_match_string(p->names, p->nr_names, buf);
	if (i >= 0) {
		*value = i;
		return 0;
	}
	if (!p->orders || kstrtouint(buf, 10, &order) ||
	    order > MAX_PAGECACHE_ORDER)
		return -EINVAL;
	*value = RAP_SYNC_ORDER_BASE + order;
	return 0;
}

static int rap_policy_set(const struct rap_policy *p, const char *buf)
{
	int value, err;

	err = rap_policy_parse(p, buf, &value);
	if (err)
		return err;
	WRITE_ONCE(*p->value, value);
	return 0;
}

/* All values on one line, the current one in brackets */
static ssize_t rap_policy_emit(const struct rap_policy *p, char *buf)
{
	int cur = READ_ONCE(*p->value);
	unsigned int i, nr = p->nr_names;
	ssize_t len = 0;

	if (p->orders)
		nr += MAX_PAGECACHE_ORDER + 1;
	for (i = 0; i < nr; i++) {
		const char *sep = i ? " " : "";
		bool on = i == cur;

		if (i < p->nr_names)
			len += sysfs_emit_at(buf, len, on ? "%s[%s]" : "%s%s",
					     sep, p->names[i]);
		else
			len += sysfs_emit_at(buf, len, on ? "%s[%u]" : "%s%u",
					     sep, i - p->nr_names);
	}
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static ssize_t rap_policy_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	return rap_policy_emit(container_of(attr, struct rap_policy, attr), buf);
}

static ssize_t rap_policy_store(struct kobject *kobj,
				struct kobj_attribute *attr, const char *buf,
				size_t count)
{
	int err = rap_policy_set(container_of(attr, struct rap_policy, attr),
				 buf);

	return err ? err : count;
}

/* Module parameters: the same values, set at load time */
static int rap_param_set(const char *val, const struct kernel_param *kp)
{
	return rap_policy_set(kp->arg, val);
}

static int rap_param_get(char *buffer, const struct kernel_param *kp)
{
	return rap_policy_emit(kp->arg, buffer);
}

static const struct kernel_param_ops rap_param_ops = {
	.set = rap_param_set,
	.get = rap_param_get,
};

module_param_cb(descending_thp, &rap_param_ops,
		&rap_policies[RAP_DESCENDING_THP], 0444);
MODULE_PARM_DESC(descending_thp,
		 "off | folio: read the folio below descending VM_HUGEPAGE misses");
module_param_cb(pmd_hit, &rap_param_ops, &rap_policies[RAP_PMD_HIT], 0444);
MODULE_PARM_DESC(pmd_hit,
		 "off | on: a PMD mapping of the faulting address is an mmap hit");
module_param_cb(descending_seq, &rap_param_ops,
		&rap_policies[RAP_DESCENDING_SEQ], 0444);
MODULE_PARM_DESC(descending_seq,
		 "off | window: read the window ending at descending VM_SEQ_READ misses");
module_param_cb(vma_limit, &rap_param_ops, &rap_policies[RAP_VMA_LIMIT], 0444);
MODULE_PARM_DESC(vma_limit,
		 "none | always | near_end: bound mmap readahead at the VMA end");
module_param_cb(sync_mmap_order, &rap_param_ops,
		&rap_policies[RAP_SYNC_MMAP_ORDER], 0444);
MODULE_PARM_DESC(sync_mmap_order,
		 "off | fault_around | 0..MAX_PAGECACHE_ORDER: folio order of mmap read-around");

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", RAPOLICY_VERSION);
}

static struct kobj_attribute rap_version_attr = __ATTR_RO(version);

static struct attribute *rap_policy_attrs[RAP_NR_POLICIES + 2];

static const struct attribute_group rap_policy_group = {
	.attrs = rap_policy_attrs,
};

/* stats/: one counter per file, named after enum rap_stat */
static const char * const rap_stat_names[RAP_STAT_NR] = {
	[RAP_STAT_SYNC_THP] = "sync_thp",
	[RAP_STAT_SYNC_SEQ] = "sync_seq",
	[RAP_STAT_SYNC_EXEC] = "sync_exec",
	[RAP_STAT_SYNC_AROUND] = "sync_around",
	[RAP_STAT_ASYNC] = "async",
	[RAP_STAT_DESCENDING_THP] = "descending_thp",
	[RAP_STAT_DESCENDING_SEQ] = "descending_seq",
	[RAP_STAT_VMA_LIMIT] = "vma_limit",
	[RAP_STAT_VMA_CLAMP] = "vma_clamp",
	[RAP_STAT_ORDER_RAISE] = "order_raise",
	[RAP_STAT_PMD_HIT] = "pmd_hit",
	[RAP_STAT_PAGES_REQUESTED] = "pages_requested",
};

struct rap_stat_attr {
	struct kobj_attribute attr;
	enum rap_stat stat;
};

static struct rap_stat_attr rap_stat_attrs[RAP_STAT_NR];

static ssize_t rap_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	const struct rap_stat_attr *sa =
		container_of(attr, struct rap_stat_attr, attr);

	return sysfs_emit(buf, "%llu\n", rap_stat_sum(sa->stat));
}

static ssize_t reset_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	bool reset;

	if (kstrtobool(buf, &reset) || !reset)
		return -EINVAL;
	rap_stats_reset();
	return count;
}

static struct kobj_attribute rap_stats_reset_attr = __ATTR_WO(reset);

static struct attribute *rap_stats_attrs[RAP_STAT_NR + 2];

static const struct attribute_group rap_stats_group = {
	.name = "stats",
	.attrs = rap_stats_attrs,
};

static const struct attribute_group *rap_groups[] = {
	&rap_policy_group,
	&rap_stats_group,
	NULL,
};

static void rap_attr_init(struct kobj_attribute *attr, const char *name,
			  umode_t mode)
{
	sysfs_attr_init(&attr->attr);
	attr->attr.name = name;
	attr->attr.mode = mode;
}

/* Fill the attribute arrays from the policy and counter tables */
static void rap_attrs_init(void)
{
	int i;

	for (i = 0; i < RAP_NR_POLICIES; i++) {
		struct rap_policy *p = &rap_policies[i];

		rap_attr_init(&p->attr, p->name, 0644);
		p->attr.show = rap_policy_show;
		p->attr.store = rap_policy_store;
		rap_policy_attrs[i] = &p->attr.attr;
	}
	rap_policy_attrs[RAP_NR_POLICIES] = &rap_version_attr.attr;

	for (i = 0; i < RAP_STAT_NR; i++) {
		struct rap_stat_attr *sa = &rap_stat_attrs[i];

		rap_attr_init(&sa->attr, rap_stat_names[i], 0444);
		sa->attr.show = rap_stat_show;
		sa->stat = i;
		rap_stats_attrs[i] = &sa->attr.attr;
	}
	rap_stats_attrs[RAP_STAT_NR] = &rap_stats_reset_attr.attr;
}

static struct kobject *rap_kobj;

int rap_sysfs_init(void)
{
	int err;

	rap_attrs_init();
	rap_kobj = kobject_create_and_add("rapolicy", mm_kobj);
	if (!rap_kobj)
		return -ENOMEM;
	err = sysfs_create_groups(rap_kobj, rap_groups);
	if (err)
		goto put_kobj;
	return 0;

put_kobj:
	kobject_put(rap_kobj);
	rap_kobj = NULL;
	return err;
}

void rap_sysfs_exit(void)
{
	sysfs_remove_groups(rap_kobj, rap_groups);
	kobject_put(rap_kobj);
	rap_kobj = NULL;
}
