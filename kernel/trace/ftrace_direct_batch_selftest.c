// SPDX-License-Identifier: GPL-2.0
/*
 * Batch interface for direct trampolines: the boot-time selftest
 * (CONFIG_FTRACE_STARTUP_TEST).
 *
 * Covers the error paths, which tracefs cannot reach: every failing call
 * must leave nothing attached.  It attaches ftrace_stub_direct_tramp to the
 * ftrace selftest's targets (trace_selftest_dynamic.c), which are built
 * with the ftrace flags.
 */
#include <linux/ftrace_direct_batch.h>
#include <linux/ftrace.h>
#include <linux/init.h>

#include "trace.h"

static void fdb_selftest_ipmodify_func(unsigned long ip,
				       unsigned long parent_ip,
				       struct ftrace_ops *op,
				       struct ftrace_regs *fregs)
{
}

static struct ftrace_ops fdb_selftest_ipmodify_ops = {
	.func	= fdb_selftest_ipmodify_func,
	.flags	= FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_SAVE_REGS |
		  FTRACE_OPS_FL_RECURSION,
};

/* Report the source line of a failed check */
static bool __init fdb_ok(bool cond, int line)
{
	if (!cond)
		pr_err("ftrace direct batch selftest: check at %s:%d failed\n",
		       __FILE__, line);
	return cond;
}

static int __init fdb_selftest(void)
{
	unsigned long f1 = (unsigned long)DYN_FTRACE_TEST_NAME;
	unsigned long f2 = (unsigned long)DYN_FTRACE_TEST_NAME2;
	unsigned long tramp = (unsigned long)ftrace_stub_direct_tramp;
	struct ftrace_direct_batch *a = NULL, *b = NULL;
	struct ftrace_direct_pair p[2];
	bool ipmodify = false;
	int ret, ok = 0;

	if (tracing_selftest_disabled)
		return 0;

	a = ftrace_direct_batch_alloc("selftest-a");
	b = ftrace_direct_batch_alloc("selftest-b");
	if (!fdb_ok(!IS_ERR(a) && !IS_ERR(b), __LINE__))
		goto out;
	if (!fdb_ok(IS_ERR(ftrace_direct_batch_alloc("two words")), __LINE__))
		goto out;

	/* Bad pairs, each next to a good one: nothing may stay attached. */
	p[0] = (struct ftrace_direct_pair){ f1, tramp };
	p[1] = (struct ftrace_direct_pair){ 0x10, tramp };
	if (!fdb_ok(ftrace_direct_batch_add(a, p, 2) == -ENOENT, __LINE__))
		goto out;
	p[1].ip = (unsigned long)ftrace_direct_batch_count;	/* notrace */
	if (!fdb_ok(ftrace_direct_batch_add(a, p, 2) == -ENODEV, __LINE__))
		goto out;
	p[1] = (struct ftrace_direct_pair){ f1, tramp };
	if (!fdb_ok(ftrace_direct_batch_add(a, p, 2) == -EINVAL, __LINE__))
		goto out;
	p[1] = (struct ftrace_direct_pair){ f2, 0 };
	if (!fdb_ok(ftrace_direct_batch_add(a, p, 2) == -EINVAL, __LINE__))
		goto out;
	if (!fdb_ok(ftrace_direct_batch_add(a, p, 0) == -EINVAL, __LINE__))
		goto out;
	if (!fdb_ok(!ftrace_direct_batch_count(a) && !ftrace_find_rec_direct(f1),
		    __LINE__))
		goto out;

	/* An IPMODIFY user (livepatch) excludes direct calls, both ways. */
	ret = ftrace_set_filter_ip(&fdb_selftest_ipmodify_ops, f2, 0, 0);
	if (!fdb_ok(!ret, __LINE__))
		goto out;
	ret = register_ftrace_function(&fdb_selftest_ipmodify_ops);
	if (!fdb_ok(!ret, __LINE__))
		goto out;
	ipmodify = true;
	p[1] = (struct ftrace_direct_pair){ f2, tramp };
	if (!fdb_ok(ftrace_direct_batch_add(a, p, 2) == -EBUSY, __LINE__))
		goto out;
	if (!fdb_ok(!ftrace_direct_batch_count(a) && !ftrace_find_rec_direct(f1),
		    __LINE__))
		goto out;
	unregister_ftrace_function(&fdb_selftest_ipmodify_ops);
	ipmodify = false;

	/* Attach both, in one call, and run them. */
	if (!fdb_ok(!ftrace_direct_batch_add(a, p, 2), __LINE__))
		goto out;
	if (!fdb_ok(ftrace_direct_batch_count(a) == 2, __LINE__))
		goto out;
	if (!fdb_ok(ftrace_direct_batch_get(a, f1) == tramp, __LINE__))
		goto out;
	if (!fdb_ok(!ftrace_direct_batch_get(b, f1), __LINE__))
		goto out;
	DYN_FTRACE_TEST_NAME();
	DYN_FTRACE_TEST_NAME2();

	ret = register_ftrace_function(&fdb_selftest_ipmodify_ops);
	if (!ret)
		ipmodify = true;
	if (!fdb_ok(ret == -EBUSY, __LINE__))
		goto out;

	/* One owner per function */
	if (!fdb_ok(ftrace_direct_batch_add(a, p, 1) == -EEXIST, __LINE__))
		goto out;
	if (!fdb_ok(ftrace_direct_batch_add(b, p, 1) == -EBUSY, __LINE__))
		goto out;
	if (!fdb_ok(ftrace_direct_batch_remove(b, &f1, 1) == -ENOENT, __LINE__))
		goto out;
	if (!fdb_ok(ftrace_direct_batch_retarget(b, p, 1) == -ENOENT, __LINE__))
		goto out;

	if (!fdb_ok(!ftrace_direct_batch_retarget(a, p, 2), __LINE__))
		goto out;
	if (!fdb_ok(ftrace_direct_batch_get(a, f2) == tramp, __LINE__))
		goto out;
	if (!fdb_ok(!ftrace_direct_batch_remove(a, &f1, 1), __LINE__))
		goto out;
	if (!fdb_ok(!ftrace_find_rec_direct(f1) && ftrace_direct_batch_count(a) == 1,
		    __LINE__))
		goto out;

	/* Attach one and detach the other in one call; then back. */
	if (!fdb_ok(ftrace_direct_batch_update(a, p, 1, &f2, 1) == 0 &&
		    ftrace_direct_batch_get(a, f1) == tramp &&
		    !ftrace_find_rec_direct(f2), __LINE__))
		goto out;
	/* A failing half (f1 is attached already) changes nothing. */
	if (!fdb_ok(ftrace_direct_batch_update(a, p, 2, &f1, 1) == -EEXIST &&
		    ftrace_direct_batch_get(a, f1) == tramp &&
		    ftrace_direct_batch_count(a) == 1, __LINE__))
		goto out;
	if (!fdb_ok(ftrace_direct_batch_update(a, &p[1], 1, &f2, 1) == -ENOENT &&
		    !ftrace_find_rec_direct(f2), __LINE__))
		goto out;
	if (!fdb_ok(ftrace_direct_batch_update(a, NULL, 0, NULL, 0) == -EINVAL,
		    __LINE__))
		goto out;
	if (!fdb_ok(!ftrace_direct_batch_update(a, &p[1], 1, &f1, 1) &&
		    !ftrace_find_rec_direct(f1) &&
		    ftrace_direct_batch_get(a, f2) == tramp, __LINE__))
		goto out;
	DYN_FTRACE_TEST_NAME();
	DYN_FTRACE_TEST_NAME2();

	/* Freeing detaches the rest; another owner may then attach. */
	ftrace_direct_batch_free(a);
	a = NULL;
	if (!fdb_ok(!ftrace_find_rec_direct(f2), __LINE__))
		goto out;
	if (!fdb_ok(!ftrace_direct_batch_add(b, p, 2), __LINE__))
		goto out;
	ok = 1;
out:
	if (ipmodify)
		unregister_ftrace_function(&fdb_selftest_ipmodify_ops);
	ftrace_free_filter(&fdb_selftest_ipmodify_ops);
	if (!IS_ERR_OR_NULL(a))
		ftrace_direct_batch_free(a);
	if (!IS_ERR_OR_NULL(b))
		ftrace_direct_batch_free(b);
	pr_info("Testing ftrace direct batch: %s\n", ok ? "PASSED" : "FAILED");
	return 0;
}
late_initcall(fdb_selftest);
