package monitor

import (
	"context"
	"fmt"
	"io"

	"boardbench/internal/cmdutil"
	"boardbench/internal/inventory"
	"boardbench/internal/monitor"
	"boardbench/internal/power"
	"boardbench/internal/safejson"
	"boardbench/internal/session"
)

// headerEvery is how many sample lines a terminal gets between repeated
// column headers.
const headerEvery = 20

// runLive prints the header and one sample per interval until ctx is done
// (Ctrl-C: the normal end, exit status 0) or opts.Count lines are out.
func runLive(ctx context.Context, f *cmdutil.Factory, opts *Options) error {
	h, err := f.NewHost(opts.Root)
	if err != nil {
		return err
	}
	prom, err := listenPrometheus(opts.Prometheus, f.IO.ErrOut)
	if err != nil {
		return err
	}
	in := inventory.ForMonitoring(h)
	cfg := monitor.ConfigFor(h, in)
	cfg.Interval = opts.Interval
	meter, err := power.Start(ctx, h, in, opts.Power.Spec, f.IO.ErrOut)
	if err != nil {
		return err
	}
	if meter != nil {
		defer meter.Stop()
		cfg.Meter = meter
	}
	conf := newConfig(in, cfg, opts.Interval)
	if meter != nil {
		conf.PowerSource = session.PowerResult(meter)
	}
	out := f.IO.Out

	var emit func(monitor.Sample) error
	if opts.JSON {
		// safejson: a sample holding a value that is not a finite number
		// is still a line, with null there.
		o := safejson.Options{NoEscapeHTML: true}
		if err := safejson.Encode(out, struct {
			Config Config `json:"config"`
		}{conf}, o); err != nil {
			return err
		}
		emit = func(s monitor.Sample) error { return safejson.Encode(out, s, o) }
	} else {
		writeHeader(out, f.IO.ColorEnabled(), conf, in)
		if opts.Count == 0 && f.IO.IsStderrTTY() {
			fmt.Fprintln(f.IO.ErrOut, "Ctrl-C stops.")
		}
		cols := cfg.Columns()
		header := monitor.Header(cols)
		if _, err := io.WriteString(out, monitor.Legend+"\n"+header+"\n"); err != nil {
			return err
		}
		lines := 0
		repeat := f.IO.IsStdoutTTY()
		emit = func(s monitor.Sample) error {
			if repeat && lines > 0 && lines%headerEvery == 0 {
				if _, err := fmt.Fprintln(out, header); err != nil {
					return err
				}
			}
			lines++
			_, err := fmt.Fprintln(out, monitor.Line(cols, s))
			return err
		}
	}
	m := monitor.New(h, cfg)
	if prom != nil {
		prom.start(ctx, h, m, cfg, in, f.IO.ErrOut)
		next := emit
		emit = func(s monitor.Sample) error { prom.sampled(ctx); return next(s) }
	}
	return sampleLoop(ctx, m, opts.Count, emit)
}

// sampleLoop runs m until ctx is done, count samples were emitted (count >
// 0) or emitting fails (e.g. the reader of a pipe went away).
func sampleLoop(ctx context.Context, m *monitor.Monitor, count int, emit func(monitor.Sample) error) error {
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	n := 0
	var emitErr error
	m.Run(runCtx, func(s monitor.Sample) {
		if runCtx.Err() != nil {
			return
		}
		if err := emit(s); err != nil {
			emitErr = err
			stop()
			return
		}
		n++
		if count > 0 && n >= count {
			stop()
		}
	})
	return emitErr
}
