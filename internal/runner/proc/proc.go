// Package proc starts the long-running processes of boardbench's runners
// (external benchmarks such as 7-Zip and openssl, package installation):
// commands that may take minutes, so they cannot go through host.Run and its
// short timeout.
//
// A process runs in its own process group, so that cancelling the context
// kills the benchmark and every child it started. A process may be bound to
// a set of CPUs: the goroutine that starts it locks its OS thread and sets
// that thread's affinity, and the child inherits the affinity through
// fork/exec. The thread stays locked and bound until the child has exited,
// then its old affinity is restored.
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
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"time"

	"boardbench/internal/host"

	"golang.org/x/sys/unix"
)

// DefaultMaxOutputBytes bounds what is kept of each output stream when a
// Command does not say otherwise. Benchmarks print a few KiB.
const DefaultMaxOutputBytes = 1 << 20

// waitDelay bounds how long Exec waits for the output pipes after the
// process was killed (a grandchild may hold them open).
const waitDelay = 5 * time.Second

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

// Exec implements Executor.
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

	cmd := exec.CommandContext(ctx, c.Name, c.Args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C")
	cmd.Env = append(cmd.Env, c.Env...)
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	// Own process group: cancelling kills the benchmark and its children.
	// Pdeathsig kills the child if the thread that started it dies, which
	// happens only when boardbench itself dies (see startAndWait).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return unix.Kill(-cmd.Process.Pid, unix.SIGKILL)
	}
	cmd.WaitDelay = waitDelay

	start := time.Now()
	started, err := startAndWait(cmd, c.CPUs)
	if started {
		res.Duration = time.Since(start)
	}
	res.Stdout, res.Stderr = stdout.buf.Bytes(), stderr.buf.Bytes()
	res.Truncated = stdout.dropped || stderr.dropped
	if !started {
		return res, fmt.Errorf("%s: %w", c, err)
	}
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.Signal = unix.SignalName(ws.Signal())
		}
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		// Killed by us: not an out-of-memory kill.
		return res, fmt.Errorf("%s: %w", c, ctxErr)
	}
	if err == nil {
		return res, nil
	}
	ee := &ExitError{Command: c.String(), Code: res.ExitCode, StderrLine: lastLine(res.Stderr)}
	if cmd.ProcessState != nil {
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			ee.Signal = ws.Signal()
		}
	}
	if ee.Code == 0 && ee.Signal == 0 {
		// Exited fine but Wait failed (e.g. output pipes held open).
		return res, fmt.Errorf("%s: %w", c, err)
	}
	return res, ee
}

// startAndWait starts cmd, bound to cpus when given, and waits for it.
// started reports whether the process ran at all.
//
// A new goroutine locks its OS thread, binds the thread to cpus (if any) and
// starts the child from it: Go forks from the calling thread, so the child
// inherits the binding. The goroutine keeps the thread locked until the child
// has exited, so the thread (the child's parent as far as Pdeathsig is
// concerned) cannot be taken over and ended by another goroutine while the
// child runs. Then it restores the thread's affinity; if that failed, the
// goroutine returns still locked and Go discards the thread, so no other
// goroutine ever runs with the wrong affinity.
func startAndWait(cmd *exec.Cmd, cpus []int) (started bool, err error) {
	type outcome struct {
		started bool
		err     error
	}
	done := make(chan outcome, 1)
	go func() {
		runtime.LockOSThread()
		restore := func() error { return nil }
		if len(cpus) > 0 {
			r, err := bindThread(cpus)
			if err != nil {
				runtime.UnlockOSThread()
				done <- outcome{false, err}
				return
			}
			restore = r
		}
		var o outcome
		if err := cmd.Start(); err != nil {
			o = outcome{false, err}
		} else {
			o = outcome{true, cmd.Wait()}
		}
		if restore() == nil {
			runtime.UnlockOSThread()
		}
		done <- o
	}()
	o := <-done
	return o.started, o.err
}

// bindThread binds the calling (locked) OS thread to cpus and returns a
// function that restores the previous affinity.
//
// This belongs in internal/host next to host.PinThread, which binds to a
// single CPU only; until host offers a set-binding variant that leaves
// locking to the caller, it lives here.
func bindThread(cpus []int) (restore func() error, err error) {
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return nil, fmt.Errorf("reading thread affinity: %v", err)
	}
	var set unix.CPUSet
	for _, cpu := range cpus {
		set.Set(cpu)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("binding to CPUs %s: %v", FormatCPUList(cpus), err)
	}
	return func() error { return unix.SchedSetaffinity(0, &old) }, nil
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
func FormatCPUList(cpus []int) string {
	var b strings.Builder
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if j > i {
			fmt.Fprintf(&b, "%d-%d", cpus[i], cpus[j])
		} else {
			fmt.Fprintf(&b, "%d", cpus[i])
		}
		i = j + 1
	}
	return b.String()
}

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
