//go:build !cgo

package libcmem

// Available reports whether the C library's functions can be called: false
// in a binary built without cgo.
func Available() bool { return false }

// Memcpy does nothing in a binary built without cgo; check Available first.
func Memcpy(dst, src []byte, passes int) {}

// Memset does nothing in a binary built without cgo; check Available first.
func Memset(dst []byte, value byte, passes int) {}
