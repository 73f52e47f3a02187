// Package hostiletest holds the hostile-roots test suite: every command that
// reads a machine (--root) or a file runs against fixture roots and files
// built to escape, hang or exhaust it — links out of the root in every place
// a read can happen (files, directories, recorded command outputs, the
// kernel log), FIFOs, device nodes, link loops and huge sparse files. Each
// run must end (a generous hang guard, not a speed limit, tells a blocked
// command), print at most one error line and never show a byte of what lies
// outside the root.
//
// The package has no code of its own; see hostile_test.go.
package hostiletest
