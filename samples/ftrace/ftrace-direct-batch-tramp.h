/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trampoline of the batch direct samples (ftrace-direct-batch.c and
 * ftrace-direct-batch-bench.c).
 *
 * FDB_SAMPLE_TRAMP(name, hit) is the asm text of a trampoline called @name:
 * it keeps the traced function's argument registers (and %rax), passes the
 * C function @hit the return address into the traced function, and returns
 * there.  @hit must be notrace, or a trampoline attached to it would recurse.
 */
#ifndef _SAMPLES_FTRACE_DIRECT_BATCH_TRAMP_H
#define _SAMPLES_FTRACE_DIRECT_BATCH_TRAMP_H

#include <asm/ibt.h>
#include <asm/nospec-branch.h>

#define FDB_SAMPLE_TRAMP(name, hit)					\
"	.pushsection	.text, \"ax\", @progbits\n"			\
"	.type		" #name ", @function\n"				\
"	.globl		" #name "\n"					\
#name ":"								\
	ASM_ENDBR							\
"	pushq %rbp; movq %rsp, %rbp\n"					\
	CALL_DEPTH_ACCOUNT						\
"	pushq %rax; pushq %rdi; pushq %rsi; pushq %rdx; pushq %rcx\n"	\
"	pushq %r8; pushq %r9\n"						\
"	movq 8(%rbp), %rdi\n"						\
"	call " #hit "\n"						\
"	popq %r9; popq %r8\n"						\
"	popq %rcx; popq %rdx; popq %rsi; popq %rdi; popq %rax\n"	\
"	leave\n"							\
	ASM_RET								\
"	.size		" #name ", .-" #name "\n"			\
"	.popsection\n"

#endif /* _SAMPLES_FTRACE_DIRECT_BATCH_TRAMP_H */
