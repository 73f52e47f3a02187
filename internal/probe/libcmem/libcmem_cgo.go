//go:build cgo

package libcmem

/*
#cgo CFLAGS: -O2
#include <stddef.h>
#include <string.h>

// The calls go through volatile function pointers so that the compiler can
// neither inline memcpy/memset nor replace the loop by something else: each
// pass is one real call into the C library.
static void *(*volatile bb_memcpy_fn)(void *, const void *, size_t) = memcpy;
static void *(*volatile bb_memset_fn)(void *, int, size_t) = memset;

static void bb_memcpy_passes(void *dst, const void *src, size_t n, long passes) {
	for (long i = 0; i < passes; i++)
		bb_memcpy_fn(dst, src, n);
}

static void bb_memset_passes(void *dst, int c, size_t n, long passes) {
	for (long i = 0; i < passes; i++)
		bb_memset_fn(dst, c, n);
}
*/
import "C"

import "unsafe"

// Available reports whether the C library's functions can be called: true
// in this cgo build.
func Available() bool { return true }

// Memcpy copies min(len(dst), len(src)) bytes from src to dst with the C
// library's memcpy, passes times, in one call into C. The slices must not
// overlap and must not hold Go pointers (plain byte buffers, ideally mmap'ed).
func Memcpy(dst, src []byte, passes int) {
	n := min(len(dst), len(src))
	if n == 0 || passes <= 0 {
		return
	}
	C.bb_memcpy_passes(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), C.size_t(n), C.long(passes))
}

// Memset fills dst with value using the C library's memset, passes times, in
// one call into C.
func Memset(dst []byte, value byte, passes int) {
	if len(dst) == 0 || passes <= 0 {
		return
	}
	C.bb_memset_passes(unsafe.Pointer(&dst[0]), C.int(value), C.size_t(len(dst)), C.long(passes))
}
