//go:build !purego

#include "textflag.h"

// Each FIB2 is two dependent register-register adds: X6 += X5, then
// X5 += X6. Every add reads the result of the one before it, so the chain
// runs at one add per cycle on in-order (SiFive U74, T-Head C906,
// SpacemiT X60) and out-of-order cores alike.
#define FIB2 ADD X5, X6, X6; ADD X6, X5, X5
#define FIB16 FIB2; FIB2; FIB2; FIB2; FIB2; FIB2; FIB2; FIB2
#define FIB128 FIB16; FIB16; FIB16; FIB16; FIB16; FIB16; FIB16; FIB16
#define FIB1024 FIB128; FIB128; FIB128; FIB128; FIB128; FIB128; FIB128; FIB128

// func kernel(iterations uint) uint
TEXT ·kernel(SB), NOSPLIT, $0-16
	MOV  iterations+0(FP), X7
	MOV  $1, X5
	MOV  $0, X6
	BEQZ X7, done

loop:
	FIB1024
	ADDI $-1, X7, X7
	BNEZ X7, loop

done:
	MOV  X5, ret+8(FP)
	RET
