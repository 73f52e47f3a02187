package membw

// ntInstruction names the store instruction of ntFill.
const ntInstruction = "MOVNTDQ"
