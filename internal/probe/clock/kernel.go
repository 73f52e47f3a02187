package clock

import "math"

// OpsPerIteration is the number of dependent one-cycle integer adds in one
// iteration of the assembly kernel. The loop counter and branch are
// independent of the chain: superscalar cores (in-order or out-of-order)
// execute them alongside the adds, so one iteration takes exactly
// OpsPerIteration cycles; a single-issue core (ARM11, T-Head C906) spends at
// most two more cycles, i.e. the clock reads at most 0.2% low there.
const OpsPerIteration = 1024

// Loop runs the measurement kernel for the given number of iterations,
// OpsPerIteration dependent adds each, and returns the end of the chain:
// Chain(iterations * OpsPerIteration). On 32-bit CPUs iterations beyond
// math.MaxUint32 are clamped (more than an hour of work at 1 GHz).
func Loop(iterations uint64) uint64 {
	if iterations > math.MaxUint {
		iterations = math.MaxUint
	}
	return uint64(kernel(uint(iterations)))
}

// Chain computes in Go what the kernel computes after ops dependent adds: a
// Fibonacci chain in machine words starting from (a, b) = (1, 0), where
// add number i sets b += a when i is odd and a += b when i is even, and the
// result is a. It documents the kernel and lets tests check that the kernel
// ran exactly the expected number of adds.
func Chain(ops uint64) uint64 {
	var a, b uint = 1, 0
	for i := uint64(0); i+1 < ops; i += 2 {
		b += a
		a += b
	}
	if ops%2 == 1 {
		b += a
	}
	return uint64(a)
}

// portableKernel is the kernel written in Go, for architectures without an
// assembly version. The compiler decides the instructions and the loop
// overhead, so its cycles per iteration are not known exactly.
func portableKernel(iterations uint) uint {
	var a, b uint = 1, 0
	for ; iterations > 0; iterations-- {
		for j := 0; j < OpsPerIteration/16; j++ {
			b += a
			a += b
			b += a
			a += b
			b += a
			a += b
			b += a
			a += b
			b += a
			a += b
			b += a
			a += b
			b += a
			a += b
			b += a
			a += b
		}
	}
	return a
}
