#include "textflag.h"

// func ntFill(dst *byte, n uintptr, v uint64)
// Four 16-byte MOVNTDQ stores per 64-byte line, then SFENCE so that the
// stores are complete when the function returns.
TEXT ·ntFill(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ v+16(FP), AX
	MOVQ AX, X0
	PUNPCKLQDQ X0, X0
	SHRQ $6, CX
	JZ done
loop:
	MOVNTO X0, 0(DI)
	MOVNTO X0, 16(DI)
	MOVNTO X0, 32(DI)
	MOVNTO X0, 48(DI)
	ADDQ $64, DI
	DECQ CX
	JNZ loop
done:
	SFENCE
	RET
