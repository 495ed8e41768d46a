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

static ssize_t rap_policy_emit(const struct rap_policy *p, char *buf)
{
	int cur = READ_ONCE(*p->value);
	unsigned int i, nr = p->nr_names;
	ssize_t len = 0;

	if (p->orders)
		nr += MAX_PAGECACHE_ORDER + 1;
	for (i = 0; i < nr; i++) {
		const char *sep = i ? " " : "";
		const char *fmt = i == cur ? "%s[%s]" : "%s%s";
		char order[12];
		const char *name = order;

		if (i < p->nr_names)
			name = p->names[i];
		else
			snprintf(order, sizeof(order), "%u", i - p->nr_names);
		len += sysfs_emit_at(buf, len, fmt, sep, name);
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

#define RAP_POLICY(_name, _names, _orders)				\
	static struct rap_policy rap_policy_##_name = {			\
		.attr = __ATTR(_name, 0644, rap_policy_show,		\
			       rap_policy_store),			\
		.names = _names,					\
		.nr_names = ARRAY_SIZE(_names),				\
		.orders = _orders,					\
		.value = &rap_settings._name,				\
	}

RAP_POLICY(descending_thp, rap_off_folio, false);
RAP_POLICY(pmd_hit, rap_off_on, false);
RAP_POLICY(descending_seq, rap_off_window, false);
RAP_POLICY(vma_limit, rap_vma_limits, false);
RAP_POLICY(sync_mmap_order, rap_sync_orders, true);

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

#define RAP_PARAM(_name, _desc)						\
	module_param_cb(_name, &rap_param_ops, &rap_policy_##_name, 0444); \
	MODULE_PARM_DESC(_name, _desc)

RAP_PARAM(descending_thp, "off | folio: read the folio below descending VM_HUGEPAGE misses");
RAP_PARAM(pmd_hit, "off | on: a PMD mapping of the faulting address is an mmap hit");
RAP_PARAM(descending_seq, "off | window: read the window ending at descending VM_SEQ_READ misses");
RAP_PARAM(vma_limit, "none | always | near_end: bound mmap readahead at the VMA end");
RAP_PARAM(sync_mmap_order, "off | fault_around | 0..MAX: folio order of mmap read-around");

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", RAPOLICY_VERSION);
}

static struct kobj_attribute rap_version_attr = __ATTR_RO(version);

static struct attribute *rap_policy_attrs[] = {
	&rap_policy_descending_thp.attr.attr,
	&rap_policy_pmd_hit.attr.attr,
	&rap_policy_descending_seq.attr.attr,
	&rap_policy_vma_limit.attr.attr,
	&rap_policy_sync_mmap_order.attr.attr,
	&rap_version_attr.attr,
	NULL,
};

static const struct attribute_group rap_policy_group = {
	.attrs = rap_policy_attrs,
};

/* stats/: one counter per file */
struct rap_stat_attr {
	struct kobj_attribute attr;
	enum rap_stat stat;
};

static ssize_t rap_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	const struct rap_stat_attr *sa =
		container_of(attr, struct rap_stat_attr, attr);

	return sysfs_emit(buf, "%llu\n", rap_stat_sum(sa->stat));
}

#define RAP_STAT_ATTR(_name, _stat)					\
	static struct rap_stat_attr rap_stat_##_name = {		\
		.attr = __ATTR(_name, 0444, rap_stat_show, NULL),	\
		.stat = _stat,						\
	}

RAP_STAT_ATTR(sync_thp, RAP_STAT_SYNC_THP);
RAP_STAT_ATTR(sync_seq, RAP_STAT_SYNC_SEQ);
RAP_STAT_ATTR(sync_exec, RAP_STAT_SYNC_EXEC);
RAP_STAT_ATTR(sync_around, RAP_STAT_SYNC_AROUND);
RAP_STAT_ATTR(async, RAP_STAT_ASYNC);
RAP_STAT_ATTR(descending_thp, RAP_STAT_DESCENDING_THP);
RAP_STAT_ATTR(descending_seq, RAP_STAT_DESCENDING_SEQ);
RAP_STAT_ATTR(vma_limit, RAP_STAT_VMA_LIMIT);
RAP_STAT_ATTR(vma_clamp, RAP_STAT_VMA_CLAMP);
RAP_STAT_ATTR(order_raise, RAP_STAT_ORDER_RAISE);
RAP_STAT_ATTR(pmd_hit, RAP_STAT_PMD_HIT);
RAP_STAT_ATTR(pages_requested, RAP_STAT_PAGES_REQUESTED);

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

static struct attribute *rap_stats_attrs[] = {
	&rap_stat_sync_thp.attr.attr,
	&rap_stat_sync_seq.attr.attr,
	&rap_stat_sync_exec.attr.attr,
	&rap_stat_sync_around.attr.attr,
	&rap_stat_async.attr.attr,
	&rap_stat_descending_thp.attr.attr,
	&rap_stat_descending_seq.attr.attr,
	&rap_stat_vma_limit.attr.attr,
	&rap_stat_vma_clamp.attr.attr,
	&rap_stat_order_raise.attr.attr,
	&rap_stat_pmd_hit.attr.attr,
	&rap_stat_pages_requested.attr.attr,
	&rap_stats_reset_attr.attr,
	NULL,
};

static const struct attribute_group rap_stats_group = {
	.name = "stats",
	.attrs = rap_stats_attrs,
};

static const struct attribute_group *rap_groups[] = {
	&rap_policy_group,
	&rap_stats_group,
	NULL,
};

static struct kobject *rap_kobj;

int rap_sysfs_init(void)
{
	int err;

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
