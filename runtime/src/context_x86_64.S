/* context_x86_64.S - switching user-level contexts (envelopes) on x86-64.
 *
 * parc_ctx_swap_(void **save_sp, void *new_sp) saves the callee-saved
 * registers, MXCSR and the x87 control word on the current stack, stores the
 * stack pointer in *save_sp, and resumes the context whose stack pointer is
 * new_sp.  Everything else is caller-saved in the SysV ABI, so the C caller
 * (a plain call) has already given it up.  A new context's stack is prepared
 * by context.c so that the `ret` lands in parc_ctx_start_ with r12 = the
 * entry function and r13 = its argument.
 */
#if defined(__x86_64__)
	.text
	.globl	parc_ctx_swap_
	.hidden	parc_ctx_swap_
	.type	parc_ctx_swap_, @function
	.p2align 4
parc_ctx_swap_:
	.cfi_startproc
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	subq	$8, %rsp
	stmxcsr	(%rsp)
	fnstcw	4(%rsp)
	movq	%rsp, (%rdi)
	movq	%rsi, %rsp
	ldmxcsr	(%rsp)
	fldcw	4(%rsp)
	addq	$8, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
	.cfi_endproc
	.size	parc_ctx_swap_, .-parc_ctx_swap_

	.globl	parc_ctx_start_
	.hidden	parc_ctx_start_
	.type	parc_ctx_start_, @function
	.p2align 4
parc_ctx_start_:
	.cfi_startproc
	.cfi_undefined rip	/* outermost frame: unwinders and debuggers stop here */
	xorl	%ebp, %ebp
	movq	%r13, %rdi
	callq	*%r12
	ud2			/* entry functions never return */
	.cfi_endproc
	.size	parc_ctx_start_, .-parc_ctx_start_

/* int parc_setjmp_(uint64_t buf[8]) / parc_longjmp_(uint64_t buf[8], int v):
 * the landing point of a killed batch (kill.c).  Only what the SysV ABI
 * makes callee-saved, plus rsp and the return address: no signal mask, no
 * pointer mangling, no shadow-stack bookkeeping (sanitized builds use libc's
 * _setjmp/_longjmp, which the sanitizers intercept). */
	.globl	parc_setjmp_
	.hidden	parc_setjmp_
	.type	parc_setjmp_, @function
	.p2align 4
parc_setjmp_:
	.cfi_startproc
	movq	(%rsp), %rax
	movq	%rax, 0(%rdi)
	leaq	8(%rsp), %rax
	movq	%rax, 8(%rdi)
	movq	%rbp, 16(%rdi)
	movq	%rbx, 24(%rdi)
	movq	%r12, 32(%rdi)
	movq	%r13, 40(%rdi)
	movq	%r14, 48(%rdi)
	movq	%r15, 56(%rdi)
	xorl	%eax, %eax
	ret
	.cfi_endproc
	.size	parc_setjmp_, .-parc_setjmp_

	.globl	parc_longjmp_
	.hidden	parc_longjmp_
	.type	parc_longjmp_, @function
	.p2align 4
parc_longjmp_:
	.cfi_startproc
	movq	16(%rdi), %rbp
	movq	24(%rdi), %rbx
	movq	32(%rdi), %r12
	movq	40(%rdi), %r13
	movq	48(%rdi), %r14
	movq	56(%rdi), %r15
	movq	8(%rdi), %rsp
	movl	%esi, %eax
	jmpq	*0(%rdi)
	.cfi_endproc
	.size	parc_longjmp_, .-parc_longjmp_
#endif
	.section .note.GNU-stack,"",@progbits
