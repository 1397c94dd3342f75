/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TRACE_FUNCTION_ARGS_H
#define _TRACE_FUNCTION_ARGS_H

#include <linux/types.h>

/*
 * func_args_entry flags.  The low byte holds the bits below, the high
 * byte the enum ftrace_model_reason of an unknown model.  The layout is
 * ABI for tools that read the ring buffer: keep it stable.
 */
#define FARGS_FL_STRINGS	0x01	/* string area follows the words */
#define FARGS_FL_RAW		0x02	/* words are raw argument registers */
#define FARGS_FL_NO_MODEL	0x04	/* no model was built for the ip */
#define FARGS_REASON_SHIFT	8

/* Status byte in front of each recorded string */
enum fargs_str_status {
	FARGS_STR_OK,
	FARGS_STR_TRUNCATED,
	FARGS_STR_FAULT,
	FARGS_STR_NULL,
};

/* Longest string recorded, in bytes with the terminating NUL. */
#define FARGS_STR_MAX		128

#ifdef CONFIG_FTRACE_STARTUP_TEST
struct fargs_selftest_pair {
	long	lo;
	long	hi;
};

long fargs_selftest_target(long a, unsigned int b, bool c, const char *d,
			   struct fargs_selftest_pair e, long f, short g);
#endif

#endif /* _TRACE_FUNCTION_ARGS_H */
