// Package proc starts the long-running processes of boardbench's runners
// (external benchmarks such as 7-Zip and openssl, package installation):
// commands that may take minutes, so they cannot go through host.Run and its
// short timeout.
//
// Processes are started by internal/proc: each in its own process group, so
// that cancelling the context stops the benchmark and every child it
// started, and optionally bound to a set of CPUs (inherited by its children).
//
// Executor is the seam for tests: Live runs real processes on the live system
// only, Replay serves the outputs recorded in a fixture root.
package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"
	childproc "boardbench/internal/proc"

	"golang.org/x/sys/unix"
)

// DefaultMaxOutputBytes bounds what is kept of each output stream when a
// Command does not say otherwise. Benchmarks print a few KiB.
const DefaultMaxOutputBytes = 1 << 20

// ErrKilled matches (errors.Is) an ExitError for a process killed by SIGKILL
// that boardbench did not kill itself: on Linux that is almost always the
// kernel's out-of-memory killer.
var ErrKilled = errors.New("killed by SIGKILL, most likely by the kernel's out-of-memory killer")

// Command is one process to run.
type Command struct {
	// Name is the program, a path or a name looked up on PATH.
	Name string
	// Args are the arguments after the program name.
	Args []string
	// CPUs binds the process to these CPUs; empty leaves its affinity alone.
	CPUs []int
	// Env holds extra KEY=VALUE entries added to boardbench's environment
	// (which always gets LC_ALL=C and LANG=C so that output is parseable).
	Env []string
	// MaxOutputBytes bounds each of stdout and stderr kept in the Result;
	// 0 means DefaultMaxOutputBytes. Output beyond it is discarded.
	MaxOutputBytes int
}

// String returns the command line, for messages and results.
func (c Command) String() string {
	return strings.Join(append([]string{c.Name}, c.Args...), " ")
}

// Result is what a process left behind. It is filled as far as possible even
// when Exec returns an error (partial output of a killed benchmark).
type Result struct {
	Stdout []byte
	Stderr []byte
	// Truncated reports that output beyond MaxOutputBytes was dropped.
	Truncated bool
	// ExitCode is the exit status, -1 when the process died by a signal or
	// did not start.
	ExitCode int
	// Signal names the signal that ended the process, "" if it exited.
	Signal string
	// Duration is the wall-clock time from start to exit.
	Duration time.Duration
}

// ExitError reports a process that exited non-zero or died by a signal.
type ExitError struct {
	// Command is the command line.
	Command string
	// Code is the exit status, -1 when a signal ended the process.
	Code int
	// Signal is the signal that ended the process, 0 if it exited.
	Signal syscall.Signal
	// StderrLine is the last non-empty line the process wrote to stderr.
	StderrLine string
}

// Error describes the failure in one line.
func (e *ExitError) Error() string {
	var msg string
	switch {
	case e.Signal == syscall.SIGKILL:
		msg = fmt.Sprintf("%s: %v", e.Command, ErrKilled)
	case e.Signal != 0:
		msg = fmt.Sprintf("%s: killed by signal %s", e.Command, unix.SignalName(e.Signal))
	default:
		msg = fmt.Sprintf("%s: exit status %d", e.Command, e.Code)
	}
	if e.StderrLine != "" {
		msg += ": " + e.StderrLine
	}
	return msg
}

// Is makes errors.Is(err, ErrKilled) true for a process killed by SIGKILL.
func (e *ExitError) Is(target error) bool {
	return target == ErrKilled && e.Signal == syscall.SIGKILL
}

// Executor runs one process to completion.
type Executor interface {
	// Exec runs c and waits for it. Cancelling ctx kills the process group
	// and returns ctx's error. A non-zero exit returns an *ExitError. The
	// Result holds whatever output there was in every case.
	Exec(ctx context.Context, c Command) (Result, error)
}

// ForHost returns the Executor that fits h: Live for the live system, Replay
// for a fixture root.
func ForHost(h *host.Host) Executor {
	if h.Live() {
		return &Live{}
	}
	return &Replay{Host: h}
}

// Live runs real processes. It must only be used for the live system; use
// ForHost or NewLive to get one safely.
type Live struct{}

// NewLive returns a Live executor for h, or host.ErrNotLive for a fixture
// root, so that nothing is ever run or installed for a recorded machine.
func NewLive(h *host.Host) (*Live, error) {
	if !h.Live() {
		return nil, host.ErrNotLive
	}
	return &Live{}, nil
}

// Exec implements Executor. The process runs through internal/proc: its own
// process group (stopped with SIGTERM, then SIGKILL, when ctx is cancelled),
// bound to c.CPUs when given, with each output stream kept up to
// MaxOutputBytes.
func (l *Live) Exec(ctx context.Context, c Command) (Result, error) {
	res := Result{ExitCode: -1}
	if c.Name == "" {
		return res, errors.New("proc: empty command")
	}
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("%s: %w", c, err)
	}
	if len(c.CPUs) > 0 {
		if err := checkCPUs(c.CPUs); err != nil {
			return res, fmt.Errorf("%s: %w", c, err)
		}
	}
	max := c.MaxOutputBytes
	if max <= 0 {
		max = DefaultMaxOutputBytes
	}
	stdout := &cappedBuffer{max: max}
	stderr := &cappedBuffer{max: max}
	env := append(os.Environ(), "LC_ALL=C", "LANG=C")
	h, err := childproc.Start(ctx, childproc.Spec{
		Argv:   append([]string{c.Name}, c.Args...),
		Env:    append(env, c.Env...),
		CPUs:   c.CPUs,
		Stdout: stdout,
		Stderr: stderr,
	})
	if err != nil {
		return res, fmt.Errorf("%s: %w", c, err)
	}
	exit, waitErr := h.Wait()
	res.Duration = exit.Duration
	res.Stdout, res.Stderr = stdout.buf.Bytes(), stderr.buf.Bytes()
	res.Truncated = stdout.dropped || stderr.dropped
	res.Signal = exit.Signal
	if exit.Signal == "" {
		res.ExitCode = exit.Code
	}
	if exit.Canceled {
		// Stopped by us: not an out-of-memory kill.
		if ctxErr := ctx.Err(); ctxErr != nil {
			return res, fmt.Errorf("%s: %w", c, ctxErr)
		}
		return res, fmt.Errorf("%s: %w", c, context.Canceled)
	}
	if exit.Signal == "" && exit.Code == 0 {
		if waitErr != nil {
			return res, fmt.Errorf("%s: %w", c, waitErr)
		}
		return res, nil
	}
	ee := &ExitError{Command: c.String(), Code: res.ExitCode, StderrLine: lastLine(res.Stderr)}
	if exit.Signal != "" {
		ee.Signal = unix.SignalNum(exit.Signal)
	}
	return res, ee
}

// checkCPUs verifies that every CPU is one this process may run on.
func checkCPUs(cpus []int) error {
	allowed, err := host.AllowedCPUs()
	if err != nil {
		return fmt.Errorf("reading allowed CPUs: %v", err)
	}
	ok := make(map[int]bool, len(allowed))
	for _, c := range allowed {
		ok[c] = true
	}
	for _, c := range cpus {
		if c < 0 || !ok[c] {
			return fmt.Errorf("cpu %d is not available to this process (allowed: %s)", c, FormatCPUList(allowed))
		}
	}
	return nil
}

// FormatCPUList renders CPUs the way the kernel does, e.g. "0-3,6".
func FormatCPUList(cpus []int) string { return cpu.FormatCPUList(cpus) }

// lastLine returns the last non-empty line of b, trimmed and shortened.
func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	s := strings.TrimSpace(lines[len(lines)-1])
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// cappedBuffer keeps the first max bytes written to it.
type cappedBuffer struct {
	buf     bytes.Buffer
	max     int
	dropped bool
}

// Write keeps what fits and reports everything as written, so the process
// never blocks or fails on a full pipe.
func (c *cappedBuffer) Write(p []byte) (int, error) {
	room := c.max - c.buf.Len()
	if room >= len(p) {
		c.buf.Write(p)
		return len(p), nil
	}
	if room > 0 {
		c.buf.Write(p[:room])
	}
	c.dropped = true
	return len(p), nil
}

// Replay serves recorded command outputs from a fixture root through
// host.Run, ignoring CPU bindings. A command without a recording fails.
type Replay struct {
	Host *host.Host
}

// Exec implements Executor.
func (r *Replay) Exec(ctx context.Context, c Command) (Result, error) {
	out, err := r.Host.Run(ctx, c.Name, c.Args...)
	res := Result{Stdout: out, ExitCode: 0}
	if err != nil {
		res.ExitCode = -1
		return res, err
	}
	return res, nil
}
