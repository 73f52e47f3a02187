//go:build !purego

#include "textflag.h"

// Each FIB2 is two dependent register-register adds: R1 += R0, then
// R0 += R1. Every add reads the result of the one before it, so the chain
// runs at one add per cycle on in-order (Cortex-A53/A55) and out-of-order
// cores alike.
#define FIB2 ADD R0, R1, R1; ADD R1, R0, R0
#define FIB16 FIB2; FIB2; FIB2; FIB2; FIB2; FIB2; FIB2; FIB2
#define FIB128 FIB16; FIB16; FIB16; FIB16; FIB16; FIB16; FIB16; FIB16
#define FIB1024 FIB128; FIB128; FIB128; FIB128; FIB128; FIB128; FIB128; FIB128

// func kernel(iterations uint) uint
TEXT ·kernel(SB), NOSPLIT, $0-16
	MOVD iterations+0(FP), R2
	MOVD $1, R0
	MOVD $0, R1
	CBZ  R2, done

loop:
	FIB1024
	SUBS $1, R2, R2
	BNE  loop

done:
	MOVD R0, ret+8(FP)
	RET
