package stackroom

import (
	"runtime/debug"
	"testing"
	"unsafe"
)

// here returns the address of a local of its own frame: it changes when
// the runtime copies the goroutine's stack elsewhere to grow it.
//
//go:noinline
func here() uintptr {
	var x byte
	return uintptr(unsafe.Pointer(&x))
}

// deep uses about n KiB of stack in nested frames.
//
//go:noinline
func deep(n int) byte {
	var b [1 << 10]byte
	b[n%len(b)] = byte(n)
	if n > 0 {
		return deep(n-1) + b[(n+1)%len(b)]
	}
	return b[1]
}

// TestReserve checks that after Reserve a goroutine uses 10 KiB of stack
// without its stack being copied to grow (a local keeps its address), and
// that without it the stack is copied (so that the test can fail).
func TestReserve(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // a collection may shrink stacks
	moved := func(reserve bool) bool {
		done := make(chan bool)
		go func() {
			if reserve {
				Reserve()
			}
			before := here()
			deep(10)
			done <- here() != before
		}()
		return <-done
	}
	if moved(true) {
		t.Error("the stack was copied after Reserve")
	}
	if !moved(false) {
		t.Error("without Reserve the stack was not copied: a goroutine's first stack holds 10 KiB, and the test shows nothing")
	}
}
