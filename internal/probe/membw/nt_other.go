//go:build !amd64 && !arm64

package membw

// hasNT reports that this architecture has no non-temporal store kernel.
const hasNT = false

// ntInstruction is empty: there is no kernel.
const ntInstruction = ""

// ntFill is never called where hasNT is false.
func ntFill(dst *byte, n uintptr, v uint64) {}
