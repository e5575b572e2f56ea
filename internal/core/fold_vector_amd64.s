//go:build !purego

#include "textflag.h"

// The max and min folds of fold_vector_amd64.go, in SSE2 (part of every amd64): dst[j] becomes
// MAXPD(row[j], dst[j]) (MINPD for min), which keeps dst[j] on ties and when either value is
// NaN, so that only a NaN of row is lost; the NaN test of every row element is OR-ed into X4,
// and the function reports whether any was NaN, for the caller to put those back.
//
// FOLD(name, vmove, vop, vnan, smove, sop, snan, mask, size, shift) defines the function name,
// declared in fold_vector_amd64.go as func(dst, row []E) (sawNaN bool): vmove/vop/vnan are the
// 16-byte move, max or min, and unordered compare; smove/sop/snan their one-element forms;
// mask the sign mask extraction; size the element size in bytes, 1 << shift. Two vectors per
// step, then one element at a time.
#define FOLD(name, vmove, vop, vnan, smove, sop, snan, mask, size, shift) \
TEXT name(SB), NOSPLIT, $0-49; \
	MOVQ dst_base+0(FP), DI; \
	MOVQ dst_len+8(FP), CX; \
	MOVQ row_base+24(FP), SI; \
	XORPS X4, X4; \
	MOVQ CX, DX; \
	SHLQ $shift, DX; \
	ANDQ $-32, DX; \
	SHLQ $shift, CX; \
	XORQ AX, AX; \
vectors: \
	CMPQ AX, DX; \
	JGE elements; \
	vmove (SI)(AX*1), X0; \
	vmove 16(SI)(AX*1), X2; \
	vmove (DI)(AX*1), X1; \
	vmove 16(DI)(AX*1), X3; \
	vmove X0, X5; \
	vnan X5, X5, $3; \
	vmove X2, X6; \
	vnan X6, X6, $3; \
	ORPS X5, X4; \
	ORPS X6, X4; \
	vop X1, X0; \
	vop X3, X2; \
	vmove X0, (DI)(AX*1); \
	vmove X2, 16(DI)(AX*1); \
	ADDQ $32, AX; \
	JMP vectors; \
elements: \
	CMPQ AX, CX; \
	JGE done; \
	smove (SI)(AX*1), X0; \
	smove (DI)(AX*1), X1; \
	vmove X0, X5; \
	snan X5, X5, $3; \
	ORPS X5, X4; \
	sop X1, X0; \
	smove X0, (DI)(AX*1); \
	ADDQ $size, AX; \
	JMP elements; \
done: \
	mask X4, AX; \
	TESTQ AX, AX; \
	SETNE ret+48(FP); \
	RET

FOLD(·maxFloat64s, MOVUPD, MAXPD, CMPPD, MOVSD, MAXSD, CMPSD, MOVMSKPD, 8, 3)
FOLD(·minFloat64s, MOVUPD, MINPD, CMPPD, MOVSD, MINSD, CMPSD, MOVMSKPD, 8, 3)
FOLD(·maxFloat32s, MOVUPS, MAXPS, CMPPS, MOVSS, MAXSS, CMPSS, MOVMSKPS, 4, 2)
FOLD(·minFloat32s, MOVUPS, MINPS, CMPPS, MOVSS, MINSS, CMPSS, MOVMSKPS, 4, 2)
