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
 * See Documentation/trace/function-args.rst
 */
#include <linux/linkage.h>
#include <asm/nospec-branch.h>
#include <asm/unwind_hints.h>
#include <asm/orc_types.h>

/* struct fargs_ct_frame in kernel/trace/trace_function_args.h */
#define CT_RDI		0
#define CT_RSI		8
#define CT_RDX		16
#define CT_RCX		24
#define CT_R8		32
#define CT_R9		40
#define CT_RAX		48
#define CT_RET0		56
#define CT_RET1		64
#define CT_T0		72
#define CT_SIZE		80

	.code64
	.section .text, "ax"

SYM_FUNC_START(fargs_ct_tramp)
	pushq	%rbp
	movq	%rsp, %rbp
	CALL_DEPTH_ACCOUNT
	subq	$CT_SIZE, %rsp
	movq	%rdi, CT_RDI(%rsp)
	movq	%rsi, CT_RSI(%rsp)
	movq	%rdx, CT_RDX(%rsp)
	movq	%rcx, CT_RCX(%rsp)
	movq	%r8, CT_R8(%rsp)
	movq	%r9, CT_R9(%rsp)
	movq	%rax, CT_RAX(%rsp)

	movq	%rsp, %rdi
	leaq	8(%rbp), %rsi
	call	fargs_ct_entry
	testl	%eax, %eax

	/* movs leave the flags alone */
	movq	CT_RDI(%rsp), %rdi
	movq	CT_RSI(%rsp), %rsi
	movq	CT_RDX(%rsp), %rdx
	movq	CT_RCX(%rsp), %rcx
	movq	CT_R8(%rsp), %r8
	movq	CT_R9(%rsp), %r9
	movq	CT_RAX(%rsp), %rax
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
	RET
SYM_FUNC_END(fargs_ct_tramp)
