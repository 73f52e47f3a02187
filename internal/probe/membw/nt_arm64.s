#include "textflag.h"

// func ntFill(dst *byte, n uintptr, v uint64)
// Four 16-byte STNP stores per 64-byte line. The Go assembler has no STNP
// mnemonic, so the instructions are encoded by hand:
//   0xa8000802  stnp x2, x2, [x0]
//   0xa8010802  stnp x2, x2, [x0, #16]
//   0xa8020802  stnp x2, x2, [x0, #32]
//   0xa8030802  stnp x2, x2, [x0, #48]
TEXT ·ntFill(SB), NOSPLIT, $0-24
	MOVD dst+0(FP), R0
	MOVD n+8(FP), R1
	MOVD v+16(FP), R2
	LSR $6, R1, R1
	CBZ R1, done
loop:
	WORD $0xa8000802
	WORD $0xa8010802
	WORD $0xa8020802
	WORD $0xa8030802
	ADD $64, R0, R0
	SUB $1, R1, R1
	CBNZ R1, loop
done:
	DMB $0xa // ishst
	RET
