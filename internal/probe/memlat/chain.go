package memlat

import (
	"math/rand/v2"
	"unsafe"
)

// ptrSize is the size of a pointer, the size of one chain link.
const ptrSize = int(unsafe.Sizeof(uintptr(0)))

// Cycle fills next[:n] with a uniformly random cyclic permutation of 0..n-1
// (Sattolo's algorithm): following i -> next[i] from any slot visits every
// slot exactly once before returning to it. next must hold n entries.
func Cycle(next []uint32, rng *rand.Rand) {
	for i := range next {
		next[i] = uint32(i)
	}
	for i := len(next) - 1; i > 0; i-- {
		j := rng.IntN(i) // 0 <= j < i: never a fixed point
		next[i], next[j] = next[j], next[i]
	}
}

// writeChain links the slots of buf (each line bytes long) in the order of
// next: the word at byte offset off in slot i holds the address of the same
// word in slot next[i]. It returns the address of slot 0's word.
func writeChain(buf []byte, line, off int, next []uint32) unsafe.Pointer {
	base := uintptr(unsafe.Pointer(&buf[0]))
	words := unsafe.Slice((*uintptr)(unsafe.Pointer(&buf[0])), len(buf)/ptrSize)
	stride := line / ptrSize
	wordOff := off / ptrSize
	for i, n := range next {
		words[i*stride+wordOff] = base + uintptr(n)*uintptr(line) + uintptr(off)
	}
	return unsafe.Pointer(&buf[off])
}
