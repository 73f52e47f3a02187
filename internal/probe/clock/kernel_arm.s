//go:build !purego

#include "textflag.h"

// Each FIB2 is two dependent register-register adds: R1 += R0, then
// R0 += R1. Every add reads the result of the one before it, so the chain
// runs at one add per cycle on ARM11 (ARMv6), Cortex-A7/A9/A53 in 32-bit
// mode and later cores. Only ARMv5 instructions are used, so the kernel runs
// with GOARM=6 and GOARM=7 alike.
#define FIB2 ADD R0, R1, R1; ADD R1, R0, R0
#define FIB16 FIB2; FIB2; FIB2; FIB2; FIB2; FIB2; FIB2; FIB2
#define FIB128 FIB16; FIB16; FIB16; FIB16; FIB16; FIB16; FIB16; FIB16
#define FIB1024 FIB128; FIB128; FIB128; FIB128; FIB128; FIB128; FIB128; FIB128

// func kernel(iterations uint) uint
TEXT ·kernel(SB), NOSPLIT, $0-8
	MOVW iterations+0(FP), R2
	MOVW $1, R0
	MOVW $0, R1
	CMP  $0, R2
	BEQ  done

loop:
	FIB1024
	SUB.S $1, R2, R2
	BNE   loop

done:
	MOVW R0, ret+4(FP)
	RET
