/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* The node wrapper on arm64, written out so that a call it does not
 * measure keeps to 27 instructions: one function, whose only stack frame
 * is the unmeasured call's (x19 and x30), with the choice of pmu_graph.c's
 * C wrapper made in the same order. GCC 12 spends 37 on that path, in two
 * functions, or 35 in one that saves its frame on every path.
 *
 * In: x0 graph, x1 node, x2 objs, w3 nb_objs (passed on as they are).
 * Every other way goes on by a tail call with x4 = the lcore's stage state
 * and x5 = the node's slot (its call first), which is what lib/pmu's
 * measured call and pmu_graph_process_framed() take.
 */

#include "pmu_graph_private.h"

#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT == 1
#define PMU_GRAPH_BTI_C bti c
#define PMU_GRAPH_PROPERTY_BTI 1
#else
#define PMU_GRAPH_BTI_C
#define PMU_GRAPH_PROPERTY_BTI 0
#endif
#if defined(__ARM_FEATURE_PAC_DEFAULT) && (__ARM_FEATURE_PAC_DEFAULT & 1)
#define PMU_GRAPH_SIGN paciasp; .cfi_negate_ra_state
#define PMU_GRAPH_AUTH autiasp; .cfi_negate_ra_state
#define PMU_GRAPH_PROPERTY_PAC 2
#else
#define PMU_GRAPH_SIGN
#define PMU_GRAPH_AUTH
#define PMU_GRAPH_PROPERTY_PAC 0
#endif

	.text
	.p2align 4
	.globl	pmu_graph_process
	.hidden	pmu_graph_process
	.type	pmu_graph_process, %function
pmu_graph_process:
	.cfi_startproc
	PMU_GRAPH_BTI_C
	ldr	w6, [x1, #PMU_GRAPH_NODE_ID]
	mrs	x7, tpidr_el0
	adrp	x4, :gottprel:per_lcore__pmu_stage
	ldr	x4, [x4, #:gottprel_lo12:per_lcore__pmu_stage]
	/* x5: the slot less the low 12 bits of the slots' address, which
	 * each load adds (a slot is 32-byte aligned: never across a page).
	 */
	adrp	x5, pmu_graph_slots
	add	x5, x5, x6, lsl #PMU_GRAPH_SLOT_SHIFT
	ldr	x4, [x7, x4]
	ldr	w6, [x5, #:lo12:pmu_graph_slots + PMU_GRAPH_SLOT_ID]
	ldp	x9, x10, [x4, #PMU_GRAPH_SL_SP]
	add	x7, x4, x6, lsl #2
	ldr	w8, [x7, #PMU_GRAPH_SL_COUNTDOWN]
	/* Not measured: a countdown above 1 and a frame below the limit
	 * (the limit is NULL while a measured stage is open). Else C set.
	 */
	cmp	w8, #1
	ccmp	x9, x10, #2, hi
	b.hs	1f
	sub	w8, w8, #1
	str	w8, [x7, #PMU_GRAPH_SL_COUNTDOWN]
	PMU_GRAPH_SIGN
	stp	x19, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset x19, -16
	.cfi_offset x30, -8
	add	x19, x4, x6, lsl #3
	ldr	x5, [x5, #:lo12:pmu_graph_slots + PMU_GRAPH_SLOT_PROCESS]
	blr	x5
	/* The call and the items the node returns (w0's low 16 bits), in
	 * the stage's pending word: items << 16 | calls.
	 */
	ldr	x2, [x19, #PMU_GRAPH_SL_PENDING]
	lsl	w1, w0, #PMU_GRAPH_PENDING_SHIFT
	orr	x1, x1, #1
	add	x2, x2, x1
	str	x2, [x19, #PMU_GRAPH_SL_PENDING]
	ldp	x19, x30, [sp], #16
	.cfi_restore x19
	.cfi_restore x30
	.cfi_def_cfa_offset 0
	PMU_GRAPH_AUTH
	ret
1:	/* Measured: a countdown of 1, a frame below the limit, and the
	 * node's stage not the innermost one open (that is misuse); the
	 * frame below the stack pointer is always there (frames[0] at least).
	 */
	add	x5, x5, #:lo12:pmu_graph_slots
	ldur	x11, [x9, #-PMU_GRAPH_FRAME_SIZE]
	cmp	w8, #1
	ccmp	x9, x10, #2, eq
	ccmp	w6, w11, #4, lo
	b.eq	2f
	ldr	x16, [x4, #PMU_GRAPH_SL_CALL]
	br	x16
2:	b	pmu_graph_process_framed
	.cfi_endproc
	.size	pmu_graph_process, . - pmu_graph_process

	.section .note.GNU-stack, "", %progbits

#if PMU_GRAPH_PROPERTY_BTI || PMU_GRAPH_PROPERTY_PAC
	/* GNU_PROPERTY_AARCH64_FEATURE_1_AND: the object keeps the build's
	 * branch protection.
	 */
	.pushsection .note.gnu.property, "a"
	.p2align 3
	.word	4
	.word	16
	.word	5
	.asciz	"GNU"
	.word	0xc0000000
	.word	4
	.word	PMU_GRAPH_PROPERTY_BTI | PMU_GRAPH_PROPERTY_PAC
	.word	0
	.popsection
#endif
