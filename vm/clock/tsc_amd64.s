#include "textflag.h"

// func rdtsc() uint64
TEXT ·rdtsc(SB), NOSPLIT, $0-8
	RDTSC
	SHLQ	$32, DX
	ORQ	DX, AX
	MOVQ	AX, ret+0(FP)
	RET

// func tscNow() int64
TEXT ·tscNow(SB), NOSPLIT, $0-8
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
