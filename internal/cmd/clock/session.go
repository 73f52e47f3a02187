package clock

import (
	"context"
	"errors"
	"time"

	"boardbench/internal/clockcheck"
	"boardbench/internal/cmdutil"
	"boardbench/internal/interrupt"
	machine "boardbench/internal/inventory"
	"boardbench/internal/result"
	"boardbench/internal/session"
)

// runSession runs the measurement as the one step of a session: monitored,
// validated, and written to output when it is not "". The CPU description
// of the runner comes from the session's machine description.
func (r *runner) runSession(ctx context.Context, f *cmdutil.Factory, output string) (*Report, error) {
	info := machine.Collect(r.h, machine.Options{Redact: true})
	r.inv = info.CPU
	opts := map[string]any{"opps": r.opps, "samples": r.opt.Samples, "cpus": nil}
	if r.cpus != nil {
		opts["cpus"] = formatCPUList(r.cpus)
	}
	sess, err := session.Start(ctx, session.Config{Host: r.h, Info: info, Command: "clock", Options: opts, Path: output, Warn: f.IO.ErrOut})
	if err != nil {
		return nil, err
	}
	var rep *Report
	var runErr error
	title := "Clock of one CPU per cluster"
	switch {
	case r.cpus != nil:
		title = "Clock of cpu" + formatCPUList(r.cpus)
	case r.opps:
		title += ", and of every cpufreq OPP"
	}
	sess.Step(ctx, 0, session.Step{Name: result.PhaseClock, Title: title, Kind: "clock", Estimate: time.Second,
		Run: func(ctx context.Context, p *result.Phase) error {
			rep, runErr = r.run(ctx)
			if rep == nil {
				return runErr
			}
			if err := clockcheck.FillPhase(p, rep, info.CPU.Clusters); err != nil {
				return err
			}
			return runErr
		}})
	var ie *cmdutil.InterruptedError
	if errors.As(runErr, &ie) && ctx.Err() == nil {
		// The tuning guard caught the signal before the command's context.
		c, cancel := context.WithCancelCause(ctx)
		cancel(&interrupt.Signal{Name: ie.Signal})
		ctx = c
	}
	end := session.End{Failed: rep == nil && ctx.Err() == nil}
	so, finErr := sess.Finish(ctx, end)
	var se *session.ErrSave
	if errors.As(finErr, &se) {
		return rep, finErr
	}
	so.Announce(f.IO.ErrOut, "clock")
	return rep, runErr
}
