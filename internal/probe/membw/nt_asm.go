//go:build amd64 || arm64

package membw

// hasNT reports that this architecture has a non-temporal store kernel.
const hasNT = true

// ntFill stores v into n bytes at dst (n a multiple of 64, dst 16-byte
// aligned) with non-temporal stores that bypass the caches.
//
//go:noescape
func ntFill(dst *byte, n uintptr, v uint64)
