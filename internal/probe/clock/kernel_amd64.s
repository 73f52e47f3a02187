//go:build !purego

#include "textflag.h"

// Each FIB2 is two dependent register-register adds: BX += AX, then AX += BX.
// Every add reads the result of the one before it, so the chain runs at one
// add per cycle on any core whose integer add has a latency of one cycle.
#define FIB2 ADDQ AX, BX; ADDQ BX, AX
#define FIB16 FIB2; FIB2; FIB2; FIB2; FIB2; FIB2; FIB2; FIB2
#define FIB128 FIB16; FIB16; FIB16; FIB16; FIB16; FIB16; FIB16; FIB16
#define FIB1024 FIB128; FIB128; FIB128; FIB128; FIB128; FIB128; FIB128; FIB128

// func kernel(iterations uint) uint
TEXT ·kernel(SB), NOSPLIT, $0-16
	MOVQ iterations+0(FP), CX
	MOVQ $1, AX
	XORQ BX, BX
	TESTQ CX, CX
	JZ   done

loop:
	FIB1024
	DECQ CX
	JNZ  loop

done:
	MOVQ AX, ret+8(FP)
	RET
