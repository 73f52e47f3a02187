package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"boardbench/internal/host"
)

// DefaultMaxOutputBytes bounds what is kept of each output stream when a
// Command does not say otherwise. Benchmarks print a few KiB.
const DefaultMaxOutputBytes = 1 << 20

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrKilled matches (errors.Is) an ExitError for a process killed by SIGKILL
// that boardbench did not kill itself: on Linux that is almost always the
// kernel's out-of-memory killer.
const ErrKilled = constError("killed by SIGKILL, most likely by the kernel's out-of-memory killer")

// Command is one process for an Executor to run.
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
	// Exit is how the process ended, in the one convention of this
	// package: Code 128+N for signal N, 127/126/1 when it did not start.
	Exit
}

// ExitError reports a process that exited non-zero or died by a signal.
type ExitError struct {
	// Command is the command line.
	Command string
	// Exit is how the process ended (Code, Signal).
	Exit
	// StderrLine is the last non-empty line the process wrote to stderr.
	StderrLine string
}

// Error describes the failure in one line.
func (e *ExitError) Error() string {
	var msg string
	switch {
	case e.Signal == "SIGKILL":
		msg = fmt.Sprintf("%s: %v", e.Command, ErrKilled)
	case e.Signal != "":
		msg = fmt.Sprintf("%s: killed by signal %s", e.Command, e.Signal)
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
	return target == ErrKilled && e.Signal == "SIGKILL"
}

// Executor runs one process to completion.
type Executor interface {
	// Exec runs c and waits for it. Cancelling ctx stops the process and
	// its descendants and returns ctx's error. A non-zero exit returns an
	// *ExitError. The Result holds whatever output there was in every case.
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

// Exec implements Executor with Start: the process and its descendants are
// stopped with SIGTERM, then SIGKILL, when ctx is cancelled; it is bound to
// c.CPUs when given; each output stream is kept up to MaxOutputBytes.
func (l *Live) Exec(ctx context.Context, c Command) (Result, error) {
	if c.Name == "" {
		return Result{Exit: Exit{Code: 1}}, errors.New("proc: empty command")
	}
	max := c.MaxOutputBytes
	if max <= 0 {
		max = DefaultMaxOutputBytes
	}
	stdout := &cappedBuffer{max: max}
	stderr := &cappedBuffer{max: max}
	env := append(os.Environ(), "LC_ALL=C", "LANG=C")
	h, err := Start(ctx, Spec{
		Argv:   append([]string{c.Name}, c.Args...),
		Env:    append(env, c.Env...),
		CPUs:   c.CPUs,
		Stdout: stdout,
		Stderr: stderr,
	})
	if err != nil {
		res := Result{Exit: Exit{Code: StartStatus(err)}}
		if ctxErr := ctx.Err(); ctxErr != nil {
			err = ctxErr
		}
		return res, fmt.Errorf("%s: %w", c, err)
	}
	exit, waitErr := h.Wait()
	res := Result{Exit: exit}
	res.Stdout, res.Stderr = stdout.buf.Bytes(), stderr.buf.Bytes()
	res.Truncated = stdout.dropped || stderr.dropped
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
	return res, &ExitError{Command: c.String(), Exit: exit, StderrLine: lastLine(res.Stderr)}
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
	res := Result{Stdout: out}
	if err != nil {
		res.Code = StartStatus(err)
		return res, err
	}
	return res, nil
}
