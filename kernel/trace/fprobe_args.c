// SPDX-License-Identifier: GPL-2.0
/*
 * fprobe on the partial register save
 *
 * Which fprobes register without FTRACE_OPS_FL_SAVE_REGS: those that do
 * not ask for every register.  fprobe_args.h has what their handlers get.
 *
 * fprobe.full_regs=1 (a boot parameter, and
 * /sys/module/fprobe/parameters/full_regs) makes every fprobe that
 * registers afterwards save all registers, as in 6.12: the benchmarks
 * compare the two paths with it, in one boot.  An fprobe keeps the mode
 * that it registered with.
 *
 * See Documentation/trace/fprobe.rst
 */
#include <linux/fprobe.h>
#include <linux/moduleparam.h>

#include "fprobe_args.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "fprobe."

static bool fprobe_full_regs;
module_param_named(full_regs, fprobe_full_regs, bool, 0644);
MODULE_PARM_DESC(full_regs, "fprobes registered from now on save every register");

static bool fprobe_args_partial(struct fprobe *fp)
{
	if (fp->flags & (FPROBE_FL_FULL_REGS | FPROBE_FL_KPROBE_SHARED))
		return false;
	return !READ_ONCE(fprobe_full_regs);
}

/**
 * fprobe_args_set_flags - choose the save for an fprobe's ftrace_ops
 * @fp: the fprobe, being registered
 *
 * Without FTRACE_OPS_FL_SAVE_REGS, @fp's functions stay on the partial
 * save, unless @fp shares its handlers with kprobes (which expect every
 * register), has FPROBE_FL_FULL_REGS, or fprobe.full_regs is set.
 *
 * The mode of an ops that is registered, or that keeps a trampoline of
 * its own, does not change: ftrace reuses a static ops' trampoline when
 * it registers again, and patches the call in it at the place of the
 * caller that its flags name.  So an fprobe in the kernel's own data
 * (not allocated, not a module's) keeps the save that it first
 * registered with, whatever its flags and fprobe.full_regs say later.
 */
void fprobe_args_set_flags(struct fprobe *fp)
{
	if ((fp->ops.flags & FTRACE_OPS_FL_ENABLED) || fp->ops.trampoline)
		return;
	if (fprobe_args_partial(fp))
		fp->ops.flags &= ~FTRACE_OPS_FL_SAVE_REGS;
	else
		fp->ops.flags |= FTRACE_OPS_FL_SAVE_REGS;
}
