// SPDX-License-Identifier: GPL-2.0
/*
 * Targets of the function_args startup selftest, which is in
 * trace_function_args_selftest.c.  This file is built with the ftrace
 * flags, unlike the rest of kernel/trace, so that the functions below can
 * be traced.  The first one's seven arguments cover every register, a
 * two-register struct and stack arguments.  It never dereferences @d: the
 * selftest also passes pointers that fault.  The second returns a struct
 * in memory, through a hidden pointer.
 */
#include <linux/compiler.h>

#include "trace_function_args.h"

noinline long fargs_selftest_target(long a, unsigned int b, bool c,
				    const char *d, struct fargs_selftest_pair e,
				    long f, short g)
{
	return a + b + c + (long)d + e.lo + e.hi + f + g;
}

noinline struct fargs_selftest_big fargs_selftest_big_ret(long a, long b)
{
	struct fargs_selftest_big r = { .w = { a, b, a + b } };

	return r;
}
