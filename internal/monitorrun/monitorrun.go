// Package monitorrun is the plan of `boardbench monitor -- COMMAND` (and of
// `review --apply -- COMMAND`): one step that runs the command, pinned or
// not, under the session's monitoring, keeps the end of its output and the
// figures of a benchmark it recognises, and an end that turns how the
// command ended into the verdict and boardbench's exit status. The command
// (internal/cmd/monitor) reads the flags, prints the live lines and the
// summary.
package monitorrun

import (
	"context"
	"errors"
	"fmt"
	"io"

	"boardbench/internal/benchtool/wrapped"
	"boardbench/internal/interrupt"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/textfmt"
)

// CaptureLimit is how much of a monitored command's output the result keeps
// (the last bytes).
const CaptureLimit = 1 << 20

// Command is one command to run under monitoring, and how it ended once
// its step ran.
type Command struct {
	// Argv is the command line; Pin the CPUs to pin it to (nil: not
	// pinned).
	Argv []string
	Pin  []int
	// Stdout and Stderr receive the command's output as it comes.
	Stdout, Stderr io.Writer
	// PTY runs the command on a pseudo-terminal of PTYSize (on a
	// terminal, so that its output streams as it would there).
	PTY     bool
	PTYSize proc.WindowSize

	exit     proc.Exit
	startErr error
}

// Step is the step that runs the command, titled title, on cpus (the CPUs
// the judgement watches).
func (c *Command) Step(title string, cpus []int) session.Step {
	return session.Step{Name: result.PhaseCommand, Title: title, CPUs: cpus, Run: c.run}
}

// run starts the command (without a pseudo-terminal when none can be
// had), waits for it and records its exit status, output and figures.
func (c *Command) run(ctx context.Context, p *result.Phase) error {
	spec := proc.Spec{Argv: c.Argv, CPUs: c.Pin, UserCommand: true, Stdout: c.Stdout, Stderr: c.Stderr,
		CaptureLimit: CaptureLimit, PTY: c.PTY, PTYSize: c.PTYSize}
	handle, err := proc.Start(ctx, spec)
	if errors.Is(err, proc.ErrPTY) {
		p.Notes = append(p.Notes, "the command wrote to a pipe, not a terminal: "+err.Error())
		spec.PTY = false
		handle, err = proc.Start(ctx, spec)
	}
	if err != nil {
		c.startErr = err
		if ctx.Err() == nil {
			p.Status, p.Reason = result.PhaseFailed, "could not start: "+err.Error()
		}
		return err
	}
	var waitErr error
	c.exit, waitErr = handle.Wait()
	code := c.exit.Code
	p.ExitStatus = &code
	out, total := handle.Output()
	p.RawOutput = string(out)
	if total > int64(len(out)) {
		p.Notes = append(p.Notes, fmt.Sprintf("raw_output keeps the last %s of %s of output",
			textfmt.Bytes(int64(len(out))), textfmt.Bytes(total)))
	}
	if waitErr != nil {
		p.Notes = append(p.Notes, "output may be incomplete: "+waitErr.Error())
	}
	if c.exit.Stray > 0 {
		p.Notes = append(p.Notes, StrayNote(c.exit.Stray))
	}
	addWrappedFigures(p, c.Argv, out, total > int64(len(out)))
	switch {
	case c.exit.Canceled:
		// The session records the interruption.
	case c.exit.Signal != "":
		p.Status, p.Reason = result.PhaseFailed, "killed by "+c.exit.Signal
	case c.exit.Code != 0:
		p.Status, p.Reason = result.PhaseFailed, fmt.Sprintf("exited with status %d", c.exit.Code)
	default:
		p.Status = result.PhaseOK
	}
	return nil
}

// End is the session's end for the command run in ctx: an interrupted
// command's phase names the signal; a command that could not start, was
// killed or failed gives the verdict and an ExitStatusError with its
// status.
func (c *Command) End(ctx context.Context) func(*session.Session) session.End {
	return func(sess *session.Session) session.End {
		res := sess.Result()
		if len(res.Phases) > 0 && res.Phases[0].Status == result.PhaseInterrupted && c.exit.Signal != "" {
			res.Phases[0].Reason = "interrupted by " + interrupt.Name(ctx) + "; the command's process group was stopped (" + c.exit.Signal + ")"
		}
		name := c.Argv[0]
		switch {
		case ctx.Err() != nil:
			return session.End{}
		case c.startErr != nil:
			return session.End{Failed: true, Verdict: "command could not be started", Err: StartError(name, c.startErr)}
		case c.exit.Signal != "":
			return session.End{Verdict: fmt.Sprintf("command failed (killed by %s)", c.exit.Signal),
				Err: &ExitStatusError{Code: c.exit.Code, Msg: fmt.Sprintf("%s was killed by %s", name, c.exit.Signal), Reported: true}}
		case c.exit.Code != 0:
			return session.End{Verdict: fmt.Sprintf("command failed (status %d)", c.exit.Code),
				Err: &ExitStatusError{Code: c.exit.Code, Msg: fmt.Sprintf("%s exited with status %d", name, c.exit.Code), Reported: true}}
		}
		return session.End{}
	}
}

// ExitStatusError ends boardbench with the exit status of the monitored
// command (or 126/127 when it could not be started), so that scripts can
// chain on it. ExitCode returns that status.
type ExitStatusError struct {
	Code int
	Msg  string
	// Reported is true when the summary printed after the command has
	// said how it ended, so that boardbench does not print Msg again.
	Reported bool
}

// AlreadyReported tells main not to print Msg when the summary said it.
func (e *ExitStatusError) AlreadyReported() bool { return e.Reported }

// Error returns the message boardbench prints before exiting.
func (e *ExitStatusError) Error() string { return e.Msg }

// ExitCode is the process exit status to use.
func (e *ExitStatusError) ExitCode() int { return e.Code }

// StartError reports a command that could not be started with the exit
// status a shell would give: 127 not found, 126 not executable.
func StartError(name string, err error) error {
	code := proc.StartStatus(err)
	var msg string
	switch code {
	case 127:
		msg = name + ": command not found"
	case 126:
		msg = name + ": cannot be executed (permission denied or not a program)"
	default:
		return fmt.Errorf("%s: %v", name, err)
	}
	return &ExitStatusError{Code: code, Msg: msg}
}

// StrayNote says that the command left processes running, which proc
// stopped.
func StrayNote(n int) string {
	if n == 1 {
		return "the command left 1 process running when it exited; boardbench stopped it"
	}
	return fmt.Sprintf("the command left %d processes running when it exited; boardbench stopped them", n)
}

// addWrappedFigures stores in p the figures of the benchmark the command
// ran, when internal/benchtool/wrapped recognises it from the command line
// or the output. cut says that the output was longer than what was kept,
// so that figures printed early may be missing.
func addWrappedFigures(p *result.Phase, argv []string, out []byte, cut bool) {
	figs, ok := wrapped.Recognize(argv, out)
	if !ok {
		return
	}
	if cut {
		figs.Notes = append(figs.Notes, fmt.Sprintf("read from the last %d bytes of the output only: figures printed before them are missing", len(out)))
	}
	if err := p.SetFigures(figs); err != nil {
		p.Notes = append(p.Notes, "the "+figs.Benchmark+" figures could not be stored: "+err.Error())
	}
}
