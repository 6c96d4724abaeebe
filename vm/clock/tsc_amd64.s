#include "textflag.h"

// func rdtsc() uint64
TEXT ·rdtsc(SB), NOSPLIT, $0-8
	RDTSC
	SHLQ	$32, DX
	ORQ	DX, AX
	MOVQ	AX, ret+0(FP)
	RET

// func read() int64: the TSC scaled with tscBase, tscMult and tscOffset,
// or monotonic until Init has chosen the TSC.
TEXT ·read(SB), NOSPLIT, $0-8
	CMPB	·useTSC(SB), $0
	JEQ	fallback
	RDTSC
	SHLQ	$32, DX
	ORQ	DX, AX
	SUBQ	·tscBase(SB), AX
	MOVQ	·tscMult(SB), CX
	MULQ	CX
	SHRQ	$32, AX
	SHLQ	$32, DX
	ORQ	DX, AX
	ADDQ	·tscOffset(SB), AX
	MOVQ	AX, ret+0(FP)
	RET
fallback:
	JMP	·monotonic(SB)
