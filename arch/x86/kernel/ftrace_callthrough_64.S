/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The call-through trampoline of the function_args tracer: one record per
 * call, with the arguments, the return value and the duration.
 *
 * It is a direct trampoline (see the batch direct interface), entered from
 * a traced function's fentry call site:
 *
 *	rsp -> return address into the function, after its fentry call (R)
 *	       the function's own return address, into its caller (P)
 *
 * It saves the argument registers in a frame and calls
 * fargs_ct_entry(frame, &R).  When that returns 0 it goes back into the
 * function, as any direct trampoline does.  Otherwise it calls the body of
 * the function at R, with the arguments restored, and then
 * fargs_ct_exit(frame, &R) with the return value in the frame, and returns
 * to P.  Only functions whose arguments all travel in registers may take
 * the second way: the body finds no stack arguments where it looks.
 *
 * Neither the trampoline nor its handlers may be kprobed: they run before
 * the handlers take ftrace's recursion lock, with the traced function's
 * frame half built.
 *
 * See Documentation/trace/function-args.rst
 */
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/asm-offsets.h>
#include <asm/ptrace.h>
#include <asm/ftrace.h>
#include <asm/nospec-branch.h>
#include <asm/unwind_hints.h>
#include <asm/orc_types.h>

/*
 * struct fargs_ct_frame in kernel/trace/trace_function_args.h: ftrace_regs
 * (a struct pt_regs, at the offsets RDI, RSI, ... of <asm/ptrace-abi.h>),
 * then the return value and the entry time.
 */
#define CT_RET0		(PTREGS_SIZE)
#define CT_RET1		(PTREGS_SIZE + 8)
#define CT_SIZE		(PTREGS_SIZE + 24)

	.code64
	.section .text, "ax"

SYM_FUNC_START(fargs_ct_tramp)
	pushq	%rbp
	movq	%rsp, %rbp
	CALL_DEPTH_ACCOUNT
	subq	$CT_SIZE, %rsp
	movq	%rdi, RDI(%rsp)
	movq	%rsi, RSI(%rsp)
	movq	%rdx, RDX(%rsp)
	movq	%rcx, RCX(%rsp)
	movq	%r8, R8(%rsp)
	movq	%r9, R9(%rsp)
	movq	%rax, RAX(%rsp)
	/* ip, sp (at P: stack arguments are above it) and rbp, as ftrace_caller */
	movq	8(%rbp), %rdi
	subq	$MCOUNT_INSN_SIZE, %rdi
	movq	%rdi, RIP(%rsp)
	leaq	16(%rbp), %rdi
	movq	%rdi, RSP(%rsp)
	movq	(%rbp), %rdi
	movq	%rdi, RBP(%rsp)
	/* Not a full pt_regs: arch_ftrace_get_regs() gives NULL */
	movq	$0, CS(%rsp)

	movq	%rsp, %rdi
	leaq	8(%rbp), %rsi
	call	fargs_ct_entry
	testl	%eax, %eax

	/* movs leave the flags alone */
	movq	RDI(%rsp), %rdi
	movq	RSI(%rsp), %rsi
	movq	RDX(%rsp), %rdx
	movq	RCX(%rsp), %rcx
	movq	R8(%rsp), %r8
	movq	R9(%rsp), %r9
	movq	RAX(%rsp), %rax
	jnz	.Lct_call

	/* Entry only: back into the function */
	leave
	RET

.Lct_call:
	ANNOTATE_INTRA_FUNCTION_CALL
	call	.Lct_body
	/*
	 * The body returns here, to the frame above: %rax (and %rdx) hold
	 * the return value.
	 */
	UNWIND_HINT type=UNWIND_HINT_TYPE_CALL sp_reg=ORC_REG_BP sp_offset=16
	movq	%rax, CT_RET0(%rsp)
	movq	%rdx, CT_RET1(%rsp)
	movq	%rsp, %rdi
	leaq	8(%rbp), %rsi
	call	fargs_ct_exit
	movq	CT_RET0(%rsp), %rax
	movq	CT_RET1(%rsp), %rdx
	leave
	/* Drop R: the function has returned; go back to its caller. */
	addq	$8, %rsp
	UNWIND_HINT_FUNC
	RET

.Lct_body:
	/*
	 * Enter the body at R with this call's return address as its own:
	 * a jump through a return, so that no indirect branch needs an
	 * ENDBR at R.
	 */
	pushq	8(%rbp)
	UNWIND_HINT_FUNC
	/*
	 * Two returns come back for the one call above, which has no call
	 * thunk: this one and the body's.  With call depth tracking, account
	 * for a call here, as the entry does for the fentry call, so that the
	 * three returns (this, the body's, the last) meet three accounted
	 * calls (the caller's, the fentry's, this).
	 */
	CALL_DEPTH_ACCOUNT
	RET
SYM_FUNC_END(fargs_ct_tramp)
_ASM_NOKPROBE(fargs_ct_tramp)
