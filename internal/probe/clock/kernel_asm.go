//go:build (amd64 || arm64 || arm || riscv64) && !purego

package clock

import "runtime"

// Method names the kernel in results: "asm-" and the architecture.
const Method = "asm-" + runtime.GOARCH

// Certain reports whether the kernel's cycles per iteration are known.
const Certain = true

// kernel is implemented in kernel_$GOARCH.s.
func kernel(iterations uint) uint
