/* context_aarch64.S - switching user-level contexts (envelopes) on AArch64.
 *
 * The same three entries as context_x86_64.S, for the AAPCS64:
 *
 * parc_ctx_swap_(void **save_sp, void *new_sp) pushes what the procedure
 * call standard makes callee-saved (x19-x28, the frame pointer x29, the
 * link register x30, the low halves d8-d15 of v8-v15) and the FPCR (the
 * rounding mode and flush-to-zero: a context's floating-point control
 * modes, as MXCSR and the x87 control word on x86-64), stores the stack
 * pointer in *save_sp, and resumes the context whose stack pointer is
 * new_sp.  The FPCR is written only when it differs: on many cores an
 * `msr fpcr` waits for the pipeline to drain.  A new context's frame is
 * prepared by context.c (ctx_prepare) so that the `ret` lands in
 * parc_ctx_start_ with x19 = the entry function and x20 = its argument.
 *
 * Frame (176 bytes, 16-aligned, lowest address first):
 *   0 x19 x20 | 16 x21 x22 | 32 x23 x24 | 48 x25 x26 | 64 x27 x28
 *   80 x29 x30 | 96 d8 d9 | 112 d10 d11 | 128 d12 d13 | 144 d14 d15
 *   160 fpcr | 168 unused
 */
#if defined(__aarch64__)
/* What the AAPCS64 makes callee-saved, stored (op stp) or loaded (op ldp)
 * at [base]: x19-x30 pairwise at 0-95, d8-d15 pairwise from doff.  One
 * macro for both directions of both records, so that a save and its
 * restore cannot disagree about the layout. */
	.macro	callee_saved op, base, doff
	\op	x19, x20, [\base, #0]
	\op	x21, x22, [\base, #16]
	\op	x23, x24, [\base, #32]
	\op	x25, x26, [\base, #48]
	\op	x27, x28, [\base, #64]
	\op	x29, x30, [\base, #80]
	\op	d8, d9, [\base, #\doff]
	\op	d10, d11, [\base, #(\doff + 16)]
	\op	d12, d13, [\base, #(\doff + 32)]
	\op	d14, d15, [\base, #(\doff + 48)]
	.endm

	.text
	.globl	parc_ctx_swap_
	.hidden	parc_ctx_swap_
	.type	parc_ctx_swap_, %function
	.p2align 4
parc_ctx_swap_:
	.cfi_startproc
	sub	sp, sp, #176
	callee_saved stp, sp, 96
	mrs	x9, fpcr
	str	x9, [sp, #160]
	mov	x10, sp
	str	x10, [x0]
	mov	sp, x1
	ldr	x10, [sp, #160]
	cmp	x9, x10
	b.eq	1f
	msr	fpcr, x10
1:	callee_saved ldp, sp, 96
	add	sp, sp, #176
	ret
	.cfi_endproc
	.size	parc_ctx_swap_, .-parc_ctx_swap_

	.globl	parc_ctx_start_
	.hidden	parc_ctx_start_
	.type	parc_ctx_start_, %function
	.p2align 4
parc_ctx_start_:
	.cfi_startproc
	.cfi_undefined x30	/* outermost frame: unwinders and debuggers stop here */
	mov	x29, #0
	mov	x0, x20
	blr	x19
	brk	#0		/* entry functions never return */
	.cfi_endproc
	.size	parc_ctx_start_, .-parc_ctx_start_

/* int parc_setjmp_(uint64_t buf[21]) / parc_longjmp_(uint64_t buf[21], int v):
 * the landing point of a killed batch (kill.c), as on x86-64: the
 * callee-saved registers, sp and the return address (x30) only.
 *   0 x19 x20 | 16 x21 x22 | 32 x23 x24 | 48 x25 x26 | 64 x27 x28
 *   80 x29 x30 | 96 sp | 104 d8 d9 | 120 d10 d11 | 136 d12 d13 | 152 d14 d15 */
	.globl	parc_setjmp_
	.hidden	parc_setjmp_
	.type	parc_setjmp_, %function
	.p2align 4
parc_setjmp_:
	.cfi_startproc
	callee_saved stp, x0, 104
	mov	x9, sp
	str	x9, [x0, #96]
	mov	w0, #0
	ret
	.cfi_endproc
	.size	parc_setjmp_, .-parc_setjmp_

	.globl	parc_longjmp_
	.hidden	parc_longjmp_
	.type	parc_longjmp_, %function
	.p2align 4
parc_longjmp_:
	.cfi_startproc
	callee_saved ldp, x0, 104
	ldr	x9, [x0, #96]
	mov	sp, x9
	mov	w0, w1
	ret
	.cfi_endproc
	.size	parc_longjmp_, .-parc_longjmp_
#endif
	.section .note.GNU-stack,"",%progbits
