// SPDX-License-Identifier: GPL-2.0-only
/*
 * A user of the batch direct interface (Documentation/trace/
 * ftrace-direct-batch.rst): two trampolines, attached to any set of
 * functions, detached and retargeted in one ftrace update a call.
 *
 *   modprobe ftrace-direct-batch filter='vfs_*' count=100
 *
 * attaches trampoline 0 to at most count functions of filter (0: all).
 * In /sys/module/ftrace_direct_batch/parameters/, a filter written to
 *   attach    attaches trampoline "tramp" (0 or 1) to all of it, or fails
 *   detach    detaches what of it is attached
 *   retarget  moves what of it is attached to the other trampoline;
 * hits0 and hits1 count the calls through each trampoline.  exit_ms
 * (for tests) keeps the module going away that long when it unloads.
 */
#include <linux/module.h>
#include <linux/delay.h>
#include <linux/ftrace_direct_batch.h>
#include <linux/slab.h>
#include "ftrace-direct-batch-tramp.h"

static char *filter;
static unsigned int count, tramp, exit_ms;
static unsigned long hits0, hits1;
module_param(filter, charp, 0444);
MODULE_PARM_DESC(filter, "functions to attach at load (set_ftrace_filter syntax)");
module_param(count, uint, 0444);
MODULE_PARM_DESC(count, "attach at most this many of them at load (0: all)");
module_param(tramp, uint, 0644);
MODULE_PARM_DESC(tramp, "trampoline (0 or 1) that attach uses");
module_param(exit_ms, uint, 0444);
MODULE_PARM_DESC(exit_ms, "for tests: the exit function first sleeps this long, the module going away");
module_param(hits0, ulong, 0444);
MODULE_PARM_DESC(hits0, "calls through trampoline 0");
module_param(hits1, ulong, 0444);
MODULE_PARM_DESC(hits1, "calls through trampoline 1");

static struct ftrace_direct_batch *batch;

/* Trampoline N calls hitN; notrace, or a trampoline on it would recurse */
static notrace __used void ftrace_direct_batch_hit0(unsigned long ip)
{
	hits0++;	/* a statistic: racy increments are fine */
}

extern void ftrace_direct_batch_tramp0(void *);

static notrace __used void ftrace_direct_batch_hit1(unsigned long ip)
{
	hits1++;
}

extern void ftrace_direct_batch_tramp1(void *);

asm (FDB_SAMPLE_TRAMP(ftrace_direct_batch_tramp0, ftrace_direct_batch_hit0));
asm (FDB_SAMPLE_TRAMP(ftrace_direct_batch_tramp1, ftrace_direct_batch_hit1));

static unsigned long tramp_addr(unsigned int n)
{
	return n ? (unsigned long)ftrace_direct_batch_tramp1 :
		   (unsigned long)ftrace_direct_batch_tramp0;
}

enum sample_op { SAMPLE_ATTACH, SAMPLE_DETACH, SAMPLE_RETARGET };

/**
 * sample_do - attach, detach or retarget the functions of a filter
 * @op: what to do
 * @flt: the functions, as set_ftrace_filter takes them in one token
 * @max: at most this many of them (0: all)
 *
 * Attach takes every match; detach and retarget, those in the batch.
 * Return: 0, or a negative errno (-ENOENT: nothing to do).
 */
static int sample_do(enum sample_op op, const char *flt, unsigned int max)
{
	struct ftrace_direct_pair *pairs;
	unsigned long *ips, addr;
	int i, n, nr = 0, err = -ENOMEM;

	/* How many functions match, then their ftrace locations */
	n = ftrace_direct_batch_lookup(flt, NULL, 0);
	if (n <= 0)
		return n ?: -ENOENT;
	ips = kvmalloc_array(n, sizeof(*ips), GFP_KERNEL);
	pairs = kvmalloc_array(n, sizeof(*pairs), GFP_KERNEL);
	if (!ips || !pairs)
		goto out;
	n = min(n, ftrace_direct_batch_lookup(flt, ips, n));

	for (i = 0; i < n && (!max || nr < max); i++) {
		addr = tramp_addr(tramp);
		if (op != SAMPLE_ATTACH) {
			addr = ftrace_direct_batch_get(batch, ips[i]);
			if (!addr)
				continue;	/* not ours */
			/* retarget: to the other one */
			addr = tramp_addr(addr == tramp_addr(0));
		}
		pairs[nr].ip = ips[i];
		pairs[nr].addr = addr;
		ips[nr++] = ips[i];
	}

	/* One ftrace update for all of them (retarget: two) */
	if (!nr)
		err = n < 0 ? n : -ENOENT;
	else if (op == SAMPLE_ATTACH)
		err = ftrace_direct_batch_add(batch, pairs, nr);
	else if (op == SAMPLE_DETACH)
		err = ftrace_direct_batch_remove(batch, ips, nr);
	else
		err = ftrace_direct_batch_retarget(batch, pairs, nr);
out:
	kvfree(pairs);
	kvfree(ips);
	return err;
}

/*
 * The parameter files exist before init and after exit: kernel_param_lock(),
 * which sysfs takes around .set and .get, guards @batch against both.
 */
static int sample_set(const char *val, const struct kernel_param *kp)
{
	char *flt;
	int err;

	if (!batch)	/* given to modprobe, or the module is going */
		return -EINVAL;
	flt = kstrdup(val, GFP_KERNEL);
	if (!flt)
		return -ENOMEM;
	err = sample_do((long)kp->arg, strim(flt), 0);
	kfree(flt);
	return err;
}

static int attached_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", batch ? ftrace_direct_batch_count(batch) : 0);
}

static const struct kernel_param_ops set_ops = { .set = sample_set };
static const struct kernel_param_ops get_ops = { .get = attached_get };
module_param_cb(attach, &set_ops, (void *)SAMPLE_ATTACH, 0200);
MODULE_PARM_DESC(attach, "attach trampoline tramp to the functions written");
module_param_cb(detach, &set_ops, (void *)SAMPLE_DETACH, 0200);
MODULE_PARM_DESC(detach, "detach the functions written");
module_param_cb(retarget, &set_ops, (void *)SAMPLE_RETARGET, 0200);
MODULE_PARM_DESC(retarget, "move the functions written to the other trampoline");
module_param_cb(attached, &get_ops, NULL, 0444);
MODULE_PARM_DESC(attached, "how many functions are attached");

static int __init ftrace_direct_batch_sample_init(void)
{
	struct ftrace_direct_batch *b;
	int err;

	/* One batch: one owner, one ftrace_ops, for all our functions */
	b = ftrace_direct_batch_alloc("ftrace-direct-batch-sample");
	if (IS_ERR(b))
		return PTR_ERR(b);
	kernel_param_lock(THIS_MODULE);
	batch = b;
	err = filter ? sample_do(SAMPLE_ATTACH, filter, count) : 0;
	if (err)
		batch = NULL;
	kernel_param_unlock(THIS_MODULE);
	if (err)
		ftrace_direct_batch_free(b);
	return err;
}

static void __exit ftrace_direct_batch_sample_exit(void)
{
	struct ftrace_direct_batch *b;

	/* MODULE_STATE_GOING from here on, with our BTF still registered */
	if (exit_ms)
		msleep(exit_ms);
	kernel_param_lock(THIS_MODULE);
	b = batch;
	batch = NULL;
	kernel_param_unlock(THIS_MODULE);
	ftrace_direct_batch_free(b);	/* detaches what is left */
}

module_init(ftrace_direct_batch_sample_init);
module_exit(ftrace_direct_batch_sample_exit);
MODULE_DESCRIPTION("Sample user of the batch direct trampoline interface");
MODULE_LICENSE("GPL");
