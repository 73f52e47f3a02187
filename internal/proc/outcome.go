package proc

import (
	"context"
	"errors"
	"fmt"
)

// Failure kinds of an Outcome, shared by the benchmark runners (a runner
// may add its own, such as 7-Zip's no_memory).
const (
	FailureOOMKilled = "oom_killed" // killed by SIGKILL: the kernel's out-of-memory killer
	FailureCancelled = "cancelled"  // boardbench stopped it (Ctrl-C, timeout)
	FailureExit      = "exit_error" // non-zero exit or another signal
	FailureNoResult  = "no_result"  // finished without a readable result
	FailureStart     = "not_started"
)

// Outcome is how one benchmark process ended: its raw output, run time and
// exit status, and what went wrong. The runners' Measurements embed it.
type Outcome struct {
	// RawOutput is the process's standard output as printed.
	RawOutput string `json:"raw_output"`
	// RawStderr is its standard error, if any.
	RawStderr string `json:"raw_stderr,omitempty"`
	// DurationS is the wall-clock run time in seconds.
	DurationS float64 `json:"duration_s"`
	// ExitCode is the status a shell reports (Exit.Code): the exit status,
	// 128+N for a process killed by signal N.
	ExitCode int `json:"exit_code"`
	// Signal names the signal that ended the process, if any.
	Signal string `json:"signal,omitempty"`
	// Failure is one of the Failure constants, empty on success.
	Failure string `json:"failure,omitempty"`
}

// Record copies the output, run time and exit status of res.
func (o *Outcome) Record(res Result) {
	o.RawOutput, o.RawStderr = string(res.Stdout), string(res.Stderr)
	o.DurationS = res.Duration.Seconds()
	o.ExitCode, o.Signal = res.Code, res.Signal
}

// Classify sets Failure for a process of the command name that returned
// err and whose output gave the parse error perr, and returns the error to
// report: nil when both are nil; err when the context was cancelled (even
// when err is nil), the kernel killed the process, it exited with an error
// or did not start; otherwise perr wrapped with name.
func (o *Outcome) Classify(ctx context.Context, name string, err, perr error) error {
	var ee *ExitError
	switch {
	case err == nil && perr == nil:
		return nil
	case ctx.Err() != nil:
		o.Failure = FailureCancelled
		return err
	case errors.Is(err, ErrKilled):
		o.Failure = FailureOOMKilled
		return err
	case errors.As(err, &ee):
		o.Failure = FailureExit
		return err
	case err != nil:
		o.Failure = FailureStart
		return err
	default:
		o.Failure = FailureNoResult
		return fmt.Errorf("%s: %w", name, perr)
	}
}
