// Package stackroom grows the calling goroutine's stack in one step, while
// the stack is still shallow.
//
// A goroutine's stack starts at a few KiB and grows by copying: each time
// it doubles, the runtime walks every frame on the stack and looks up each
// function's frame size and pointer maps in the binary's pcln table. A
// program read from storage maps its file in 64 KiB windows around each
// page it touches, so a copy at a deep point of a command (cobra's
// dispatch, a collector under it) maps a window of the pcln table for
// nearly every function on the stack: about 0.5 MiB of the board build's
// peak RSS for `version`. Growing once at the start, where only two or
// three frames are on the stack, maps almost nothing, and the stack then
// has the room a short command needs (docs/architecture.md, issue 22).
package stackroom

// Size is the room Reserve makes: with the guard the runtime keeps, the
// stack becomes 16 KiB, what `info` and `version` use at most.
const Size = 12 << 10

// Reserve grows the calling goroutine's stack to hold at least Size bytes
// more than it holds now. It costs the memory of the stack it grows to,
// which a command that went that deep would take anyway.
func Reserve() {
	frame(0) // a call the compiler cannot see into is never left out
}

// frame has a Size-byte frame (an array it reads, so that the compiler
// keeps it): calling it makes the runtime grow the stack to fit it before
// its first instruction runs.
//
//go:noinline
func frame(i int) byte {
	var room [Size]byte
	room[i] = 1
	return room[i^1]
}
