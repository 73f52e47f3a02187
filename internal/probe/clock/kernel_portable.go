//go:build !(amd64 || arm64 || arm || riscv64) || purego

package clock

// Method names the kernel in results: the Go fallback.
const Method = "portable"

// Certain reports whether the kernel's cycles per iteration are known: the
// Go fallback's are not.
const Certain = false

func kernel(iterations uint) uint { return portableKernel(iterations) }
