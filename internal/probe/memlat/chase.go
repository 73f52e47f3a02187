package memlat

import "unsafe"

// chase follows the pointer chain from p for n steps (each step one
// dependent load) and returns where it stopped.
//
//go:noinline
func chase(p unsafe.Pointer, n int) unsafe.Pointer {
	for ; n >= 16; n -= 16 {
		p = *(*unsafe.Pointer)(p)
		p = *(*unsafe.Pointer)(p)
		p = *(*unsafe.Pointer)(p)
		p = *(*unsafe.Pointer)(p)
		p = *(*unsafe.Pointer)(p)
		p = *(*unsafe.Pointer)(p)
		p = *(*unsafe.Pointer)(p)
		p = *(*unsafe.Pointer)(p)
		p = *(*unsafe.Pointer)(p)
		p = *(*unsafe.Pointer)(p)
		p = *(*unsafe.Pointer)(p)
		p = *(*unsafe.Pointer)(p)
		p = *(*unsafe.Pointer)(p)
		p = *(*unsafe.Pointer)(p)
		p = *(*unsafe.Pointer)(p)
		p = *(*unsafe.Pointer)(p)
	}
	for ; n > 0; n-- {
		p = *(*unsafe.Pointer)(p)
	}
	return p
}

// chase2 follows two independent chains from p and q for n steps each,
// interleaved, so that the two loads of a step can be in flight together.
//
//go:noinline
func chase2(p, q unsafe.Pointer, n int) (unsafe.Pointer, unsafe.Pointer) {
	for ; n >= 8; n -= 8 {
		p = *(*unsafe.Pointer)(p)
		q = *(*unsafe.Pointer)(q)
		p = *(*unsafe.Pointer)(p)
		q = *(*unsafe.Pointer)(q)
		p = *(*unsafe.Pointer)(p)
		q = *(*unsafe.Pointer)(q)
		p = *(*unsafe.Pointer)(p)
		q = *(*unsafe.Pointer)(q)
		p = *(*unsafe.Pointer)(p)
		q = *(*unsafe.Pointer)(q)
		p = *(*unsafe.Pointer)(p)
		q = *(*unsafe.Pointer)(q)
		p = *(*unsafe.Pointer)(p)
		q = *(*unsafe.Pointer)(q)
		p = *(*unsafe.Pointer)(p)
		q = *(*unsafe.Pointer)(q)
	}
	for ; n > 0; n-- {
		p = *(*unsafe.Pointer)(p)
		q = *(*unsafe.Pointer)(q)
	}
	return p, q
}
