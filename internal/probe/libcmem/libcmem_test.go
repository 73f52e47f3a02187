package libcmem

import (
	"bytes"
	"testing"
)

func TestMemcpyMemset(t *testing.T) {
	if !Available() {
		t.Skip("built without cgo: the C library is not available")
	}
	src := make([]byte, 4096+3)
	for i := range src {
		src[i] = byte(i*7 + 1)
	}
	dst := make([]byte, len(src))
	Memcpy(dst, src, 3)
	if !bytes.Equal(dst, src) {
		t.Fatal("memcpy: destination differs from source")
	}
	Memset(dst, 0xa5, 2)
	for i, b := range dst {
		if b != 0xa5 {
			t.Fatalf("memset: byte %d is %#x, want 0xa5", i, b)
		}
	}
	// Zero lengths and passes are no-ops, never a crash.
	Memcpy(nil, src, 1)
	Memset(dst, 0, 0)
	if dst[0] != 0xa5 {
		t.Fatal("memset with 0 passes wrote")
	}
}
