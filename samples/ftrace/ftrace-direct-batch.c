// SPDX-License-Identifier: GPL-2.0-only
/*
 * A user of the batch direct interface: two trampolines, any number of
 * functions, attached, detached and retargeted in one ftrace update each.
 *
 * Load:  insmod ftrace-direct-batch.ko filter='vfs_*' count=100
 *   attaches trampoline 0 to at most count functions that match filter
 *   (count=0: all of them).  With legacy=1 it attaches the same functions
 *   one at a time instead, one ftrace_ops and one register_ftrace_direct()
 *   each, as 6.12 users must; this is what the batch is measured against.
 *
 * Then, under /sys/module/ftrace_direct_batch/parameters/:
 *   attach     write a filter: attach trampoline "tramp" (0 or 1) to what
 *              matches; all or nothing
 *   detach     write a filter: detach what matches and is attached
 *   retarget   write a filter: send what matches to the other trampoline
 *   tramp      the trampoline attach uses
 *   hits0/1    calls that went through each trampoline
 *   attached   functions attached now
 *   last_ns    time the last load, attach, detach or retarget took
 *
 * Unloading detaches everything.
 */
#include <linux/module.h>
#include <linux/ftrace.h>
#include <linux/ftrace_direct_batch.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <asm/ibt.h>
#include <asm/nospec-branch.h>

static char *filter;
module_param(filter, charp, 0444);
MODULE_PARM_DESC(filter, "functions to attach at load (set_ftrace_filter syntax)");

static unsigned int count;
module_param(count, uint, 0444);
MODULE_PARM_DESC(count, "attach at most this many of them at load (0: all)");

static bool legacy;
module_param(legacy, bool, 0444);
MODULE_PARM_DESC(legacy, "attach at load one function at a time, without the batch");

static unsigned int tramp;
module_param(tramp, uint, 0644);
MODULE_PARM_DESC(tramp, "trampoline (0 or 1) that attach uses");

static unsigned long hits0, hits1, last_ns;
module_param(hits0, ulong, 0444);
module_param(hits1, ulong, 0444);
module_param(last_ns, ulong, 0444);

static struct ftrace_direct_batch *batch;
static DEFINE_MUTEX(sample_mutex);

/* The legacy mode: one ops per function */
static struct ftrace_ops *legacy_ops;
static unsigned int legacy_nr;

/* notrace: a trampoline on its own handler would recurse */
static notrace __used void ftrace_direct_batch_hit0(unsigned long ip)
{
	/* a statistic: racy increments are fine */
	hits0++;
}

static notrace __used void ftrace_direct_batch_hit1(unsigned long ip)
{
	hits1++;
}

/*
 * The trampolines: keep every argument register (and %rax) for the traced
 * function, call the C handler with the return address, return into the
 * traced function.
 */
asm ("	.macro	fdb_sample_tramp idx\n"
"	.pushsection	.text, \"ax\", @progbits\n"
"	.type		ftrace_direct_batch_tramp\\idx, @function\n"
"ftrace_direct_batch_tramp\\idx:"
	ASM_ENDBR
"	pushq %rbp\n"
"	movq %rsp, %rbp\n"
	CALL_DEPTH_ACCOUNT
"	pushq %rax\n"
"	pushq %rdi\n"
"	pushq %rsi\n"
"	pushq %rdx\n"
"	pushq %rcx\n"
"	pushq %r8\n"
"	pushq %r9\n"
"	movq 8(%rbp), %rdi\n"
"	call ftrace_direct_batch_hit\\idx\n"
"	popq %r9\n"
"	popq %r8\n"
"	popq %rcx\n"
"	popq %rdx\n"
"	popq %rsi\n"
"	popq %rdi\n"
"	popq %rax\n"
"	leave\n"
	ASM_RET
"	.size		ftrace_direct_batch_tramp\\idx, .-ftrace_direct_batch_tramp\\idx\n"
"	.popsection\n"
"	.endm\n"
"	fdb_sample_tramp 0\n"
"	fdb_sample_tramp 1\n"
);

static unsigned long sample_tramp(unsigned int n)
{
	unsigned long addr;

	/* The trampolines exist in assembly only. */
	if (n)
		asm ("leaq ftrace_direct_batch_tramp1(%%rip), %0" : "=r" (addr));
	else
		asm ("leaq ftrace_direct_batch_tramp0(%%rip), %0" : "=r" (addr));
	return addr;
}

static int attached_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", legacy ? legacy_nr :
			  ftrace_direct_batch_count(batch));
}

static const struct kernel_param_ops attached_ops = {
	.get = attached_get,
};

module_param_cb(attached, &attached_ops, NULL, 0444);

/* The functions of @flt, at most @max of them (0: all); returns the count */
static int sample_lookup(const char *flt, unsigned int max,
			 unsigned long **ipsp)
{
	unsigned long *ips;
	int n, got;

	n = ftrace_direct_batch_lookup(flt, NULL, 0);
	if (n <= 0)
		return n ?: -ENOENT;
	ips = kvmalloc_array(n, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return -ENOMEM;
	got = ftrace_direct_batch_lookup(flt, ips, n);
	if (got < 0) {
		kvfree(ips);
		return got;
	}
	*ipsp = ips;
	n = min(n, got);
	return max ? min_t(int, n, max) : n;
}

static void legacy_detach(void)
{
	while (legacy_nr--) {
		unregister_ftrace_direct(&legacy_ops[legacy_nr],
					 sample_tramp(0), true);
	}
	kvfree(legacy_ops);
	legacy_ops = NULL;
	legacy_nr = 0;
}

static int legacy_attach(unsigned long *ips, int n)
{
	int err = 0;

	legacy_ops = kvcalloc(n, sizeof(*legacy_ops), GFP_KERNEL);
	if (!legacy_ops)
		return -ENOMEM;
	for (legacy_nr = 0; legacy_nr < n; legacy_nr++) {
		struct ftrace_ops *ops = &legacy_ops[legacy_nr];

		err = ftrace_set_filter_ip(ops, ips[legacy_nr], 0, 0);
		if (!err)
			err = register_ftrace_direct(ops, sample_tramp(0));
		if (err) {
			ftrace_free_filter(ops);
			legacy_detach();
			return err;
		}
	}
	return 0;
}

enum sample_op { SAMPLE_ATTACH, SAMPLE_DETACH, SAMPLE_RETARGET };

/*
 * @op on what @flt matches: detach and retarget skip the functions that
 * are not ours; attach takes them all, and fails if any has another owner.
 */
static int sample_do(enum sample_op op, const char *flt, unsigned int max)
{
	struct ftrace_direct_pair *pairs = NULL;
	unsigned long *ips = NULL, addr;
	int i, n, nr = 0, err;
	u64 t0;

	n = sample_lookup(flt, 0, &ips);
	if (n < 0)
		return n;
	pairs = kvmalloc_array(n, sizeof(*pairs), GFP_KERNEL);
	err = -ENOMEM;
	if (!pairs)
		goto out;
	for (i = 0; i < n && (!max || nr < max); i++) {
		if (op == SAMPLE_ATTACH) {
			addr = sample_tramp(tramp);
		} else {
			addr = ftrace_direct_batch_get(batch, ips[i]);
			if (!addr)
				continue;
			/* retarget: the other one */
			addr = sample_tramp(addr == sample_tramp(0));
		}
		pairs[nr].ip = ips[i];
		pairs[nr].addr = addr;
		ips[nr++] = ips[i];
	}
	err = -ENOENT;
	if (!nr)
		goto out;

	t0 = local_clock();
	switch (op) {
	case SAMPLE_ATTACH:
		err = ftrace_direct_batch_add(batch, pairs, nr);
		break;
	case SAMPLE_DETACH:
		err = ftrace_direct_batch_remove(batch, ips, nr);
		break;
	case SAMPLE_RETARGET:
		err = ftrace_direct_batch_retarget(batch, pairs, nr);
		break;
	}
	last_ns = local_clock() - t0;
out:
	kvfree(pairs);
	kvfree(ips);
	return err;
}

static int sample_set(const char *val, enum sample_op op)
{
	char *flt = kstrdup(val, GFP_KERNEL);
	int err;

	if (!flt)
		return -ENOMEM;
	strim(flt);
	mutex_lock(&sample_mutex);
	err = legacy ? -EPERM : sample_do(op, flt, 0);
	mutex_unlock(&sample_mutex);
	kfree(flt);
	return err;
}

static int attach_set(const char *val, const struct kernel_param *kp)
{
	return sample_set(val, SAMPLE_ATTACH);
}

static int detach_set(const char *val, const struct kernel_param *kp)
{
	return sample_set(val, SAMPLE_DETACH);
}

static int retarget_set(const char *val, const struct kernel_param *kp)
{
	return sample_set(val, SAMPLE_RETARGET);
}

static const struct kernel_param_ops attach_ops = { .set = attach_set };
static const struct kernel_param_ops detach_ops = { .set = detach_set };
static const struct kernel_param_ops retarget_ops = { .set = retarget_set };
module_param_cb(attach, &attach_ops, NULL, 0200);
module_param_cb(detach, &detach_ops, NULL, 0200);
module_param_cb(retarget, &retarget_ops, NULL, 0200);

static int __init ftrace_direct_batch_sample_init(void)
{
	unsigned long *ips = NULL;
	int n, err;
	u64 t0;

	batch = ftrace_direct_batch_alloc("ftrace-direct-batch-sample");
	if (IS_ERR(batch))
		return PTR_ERR(batch);
	if (!filter)
		return 0;

	if (!legacy) {
		err = sample_do(SAMPLE_ATTACH, filter, count);
		if (err)
			ftrace_direct_batch_free(batch);
		return err;
	}

	n = sample_lookup(filter, count, &ips);
	if (n < 0) {
		ftrace_direct_batch_free(batch);
		return n;
	}
	t0 = local_clock();
	err = legacy_attach(ips, n);
	last_ns = local_clock() - t0;
	kvfree(ips);
	if (err)
		ftrace_direct_batch_free(batch);
	return err;
}

static void __exit ftrace_direct_batch_sample_exit(void)
{
	legacy_detach();
	ftrace_direct_batch_free(batch);
}

module_init(ftrace_direct_batch_sample_init);
module_exit(ftrace_direct_batch_sample_exit);

MODULE_DESCRIPTION("Sample user of the batch direct trampoline interface");
MODULE_LICENSE("GPL");
