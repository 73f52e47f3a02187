// Package libcmem runs the C library's memcpy and memset over large buffers,
// so that boardbench's memcpy and memset figures measure the same functions
// that C programs (and years of published results) use. It needs cgo; a
// binary built without cgo reports Available() == false and callers must then
// report no figure rather than substitute another copy routine.
package libcmem
