/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fprobe on the partial register save: what fprobe.c hands its handlers
 *
 * An fprobe without FPROBE_FL_FULL_REGS registers an ftrace_ops without
 * FTRACE_OPS_FL_SAVE_REGS, so that its functions stay on ftrace_caller,
 * which saves the argument registers, ax, ip, sp and bp only.  Its
 * handlers still get a struct pt_regs: the one in the trampoline's frame,
 * with the registers that ftrace_caller does not save set to 0 first
 * (flags to X86_EFLAGS_FIXED).  It is the frame itself, not a copy, so
 * that what a handler writes to ip, ax, bp or an argument register
 * (bpf_override_return() writes ip and ax) reaches the traced function
 * as before; writes to the others are lost, but for orig_ax, the slot of
 * a direct trampoline, to which the trampoline jumps when it is not 0.
 *
 * See Documentation/trace/fprobe.rst
 */
#ifndef _KERNEL_TRACE_FPROBE_ARGS_H
#define _KERNEL_TRACE_FPROBE_ARGS_H

#include <linux/fprobe.h>
#include <linux/ftrace.h>

#ifdef CONFIG_FPROBE_ARGS
/* x86-64 only (HAVE_FTRACE_ARGS): fprobe.c includes this file everywhere */
#include <asm/processor-flags.h>

void fprobe_args_set_flags(struct fprobe *fp);

/* The regs for rethook, which reads ->sp only: valid on both callers */
static __always_inline struct pt_regs *fprobe_hook_regs(struct ftrace_regs *fregs)
{
	return &arch_ftrace_regs(fregs)->regs;
}

/*
 * The regs for an entry handler.  ftrace_regs_caller (cs set) saved all
 * of them.  ftrace_caller (cs 0) left r15 to r10, bx, flags and ss as the
 * stack had them: set them here, in its frame, which it does not read
 * back.  flags gets X86_EFLAGS_FIXED, as every real EFLAGS has, so that
 * perf and BPF stack traces start at ip as they do from full regs; cs
 * stays 0, so that ftrace_get_regs() still tells the two apart, and
 * user_mode() is false.  orig_ax is left alone: a direct trampoline on
 * the function is there.
 */
static __always_inline struct pt_regs *fprobe_entry_regs(struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);

	if (regs)
		return regs;
	regs = &arch_ftrace_regs(fregs)->regs;
	regs->r15 = 0;
	regs->r14 = 0;
	regs->r13 = 0;
	regs->r12 = 0;
	regs->bx = 0;
	regs->r11 = 0;
	regs->r10 = 0;
	regs->flags = X86_EFLAGS_FIXED;
	regs->ssx = 0;
	return regs;
}
#else
static inline void fprobe_args_set_flags(struct fprobe *fp)
{
	fp->ops.flags |= FTRACE_OPS_FL_SAVE_REGS;
}

static __always_inline struct pt_regs *fprobe_hook_regs(struct ftrace_regs *fregs)
{
	return ftrace_get_regs(fregs);
}

static __always_inline struct pt_regs *fprobe_entry_regs(struct ftrace_regs *fregs)
{
	return ftrace_get_regs(fregs);
}
#endif /* CONFIG_FPROBE_ARGS */

#endif /* _KERNEL_TRACE_FPROBE_ARGS_H */
