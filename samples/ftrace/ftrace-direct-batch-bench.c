// SPDX-License-Identifier: GPL-2.0-only
/*
 * The direct attach benchmark of `make bench` (tools/testing/ftrace-args/
 * bench/guest-bench.sh): one trampoline attached to the first count
 * functions of filter (0: all), in one call of the batch direct interface,
 * or with legacy=1 one function at a time, one ftrace_ops and one
 * register_ftrace_direct() each, as 6.12 users must.
 *
 *   modprobe ftrace-direct-batch-bench filter='*' count=1000 [legacy=1]
 *
 * Then, in /sys/module/ftrace_direct_batch_bench/parameters/, last_ns is
 * the time the attach took, attached the number of functions attached
 * and hits the calls through the trampoline.  Unloading detaches them.
 *
 * Test knobs, bugs on purpose that ftrace must cope with (test.d/
 * ftrace-args/direct-batch-modgone.tc): with leave=1 the module does not
 * free its batch, and ftrace's module notifier must detach and free it;
 * with orphan=1 too, the batch belongs to no module, as a built-in user's
 * would, and the notifier must detach the trampolines in this module
 * from it; init_tramp=1 first asks for a trampoline in this module's init
 * text, which ftrace must refuse, and leaves the error in init_tramp_err.
 */
#include <linux/module.h>
#include <linux/ftrace.h>
#include <linux/ftrace_direct_batch.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include "ftrace-direct-batch-tramp.h"

static char *filter;
static unsigned int count, attached;
static bool legacy, leave, orphan, init_tramp;
static int init_tramp_err;
static unsigned long hits, last_ns;
module_param(filter, charp, 0444);
MODULE_PARM_DESC(filter, "functions to attach at load (set_ftrace_filter syntax)");
module_param(count, uint, 0444);
MODULE_PARM_DESC(count, "attach at most this many of them (0: all)");
module_param(legacy, bool, 0444);
MODULE_PARM_DESC(legacy, "attach one function at a time, without the batch");
module_param(leave, bool, 0444);
MODULE_PARM_DESC(leave, "test only: unload without freeing the batch, a bug on purpose that ftrace must clean up (not with legacy)");
module_param(orphan, bool, 0444);
MODULE_PARM_DESC(orphan, "test only: with leave=1, a batch that no module owns");
module_param(init_tramp, bool, 0444);
MODULE_PARM_DESC(init_tramp, "test only: first try a trampoline in init text");
module_param(init_tramp_err, int, 0444);
MODULE_PARM_DESC(init_tramp_err, "what ftrace answered to init_tramp=1");
module_param(attached, uint, 0444);
MODULE_PARM_DESC(attached, "how many functions are attached");
module_param(hits, ulong, 0444);
MODULE_PARM_DESC(hits, "calls through the trampoline");
module_param(last_ns, ulong, 0444);
MODULE_PARM_DESC(last_ns, "how long the attach took, in ns");

static struct ftrace_direct_batch *batch;
static struct ftrace_ops *ops;	/* legacy=1: one per function */

/* Called by the trampoline; notrace, or a trampoline on it would recurse */
static notrace __used void ftrace_direct_batch_bench_hit(unsigned long ip)
{
	hits++;
}

extern void ftrace_direct_batch_bench_tramp(void *);

static const unsigned long tramp = (unsigned long)ftrace_direct_batch_bench_tramp;

asm (FDB_SAMPLE_TRAMP(ftrace_direct_batch_bench_tramp, ftrace_direct_batch_bench_hit));

/* One ftrace code update for all @n functions */
static int bench_batch(const unsigned long *ips, unsigned int n)
{
	struct ftrace_direct_pair *pairs;
	unsigned int i;
	int err;
	u64 t0;

	if (orphan && leave)
		batch = __ftrace_direct_batch_alloc("ftrace-direct-batch-bench",
						    NULL, 0);
	else
		batch = ftrace_direct_batch_alloc("ftrace-direct-batch-bench");
	if (IS_ERR(batch))
		return PTR_ERR(batch);
	pairs = kvmalloc_array(n, sizeof(*pairs), GFP_KERNEL);
	if (!pairs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		pairs[i].ip = ips[i];
		pairs[i].addr = tramp;
	}
	t0 = local_clock();
	err = ftrace_direct_batch_add(batch, pairs, n);
	last_ns = local_clock() - t0;
	kvfree(pairs);
	if (!err)
		attached = n;
	return err;
}

static void detach_legacy(void)
{
	for (; ops && attached; attached--)
		unregister_ftrace_direct(&ops[attached - 1], tramp, true);
	kvfree(ops);
	ops = NULL;
}

/* One ftrace_ops, and one code update, for each of the @n functions */
static int bench_legacy(const unsigned long *ips, unsigned int n)
{
	int err = 0;
	u64 t0;

	ops = kvcalloc(n, sizeof(*ops), GFP_KERNEL);
	if (!ops)
		return -ENOMEM;
	t0 = local_clock();
	for (; attached < n; attached++) {
		err = ftrace_set_filter_ip(&ops[attached], ips[attached], 0, 0);
		if (!err)
			err = register_ftrace_direct(&ops[attached], tramp);
		if (err) {
			ftrace_free_filter(&ops[attached]);
			break;
		}
	}
	last_ns = local_clock() - t0;
	return err;
}

/*
 * A trampoline in init text, here this function itself, would be called
 * after the text is freed: ftrace must refuse it.
 */
static int __init bench_init_tramp(unsigned long ip)
{
	struct ftrace_direct_batch *b;
	struct ftrace_direct_pair pair = {
		.ip = ip,
		.addr = (unsigned long)bench_init_tramp,
	};
	int err;

	b = ftrace_direct_batch_alloc("ftrace-direct-batch-bench-init");
	if (IS_ERR(b))
		return PTR_ERR(b);
	err = ftrace_direct_batch_add(b, &pair, 1);
	ftrace_direct_batch_free(b);
	return err;
}

static int __init ftrace_direct_batch_bench_init(void)
{
	unsigned long *ips;
	int n, got, err;

	if (!filter)
		return -EINVAL;
	n = ftrace_direct_batch_lookup(filter, NULL, 0);
	if (n <= 0)
		return n ?: -ENOENT;
	ips = kvmalloc_array(n, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return -ENOMEM;
	got = ftrace_direct_batch_lookup(filter, ips, n);
	if (got < 0) {
		err = got;
	} else {
		n = min(n, got);
		if (count)
			n = min_t(unsigned int, n, count);
		if (init_tramp)
			init_tramp_err = bench_init_tramp(ips[0]);
		err = legacy ? bench_legacy(ips, n) : bench_batch(ips, n);
	}
	kvfree(ips);
	if (err) {
		detach_legacy();
		ftrace_direct_batch_free(batch);
	}
	return err;
}

static void __exit ftrace_direct_batch_bench_exit(void)
{
	detach_legacy();
	if (!leave)
		ftrace_direct_batch_free(batch);
}

module_init(ftrace_direct_batch_bench_init);
module_exit(ftrace_direct_batch_bench_exit);
MODULE_DESCRIPTION("Direct trampoline attach times: batch against one at a time");
MODULE_LICENSE("GPL");
