// Package thermalrun is the plan of `boardbench thermal`: a sustained
// all-core load (7-Zip, or stress-ng) until the SoC reaches a temperature
// or a time limit, then idle until it cools down, with temperature, clock
// per cluster, throttling and power recorded over time by the session.
// The command (internal/cmd/thermal) only reads the flags and calls Run.
package thermalrun

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/benchtool/sevenzip"
	"boardbench/internal/cmdutil"
	"boardbench/internal/finding"
	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/sensors"
	"boardbench/internal/iostreams"
	"boardbench/internal/monitor"
	"boardbench/internal/power"
	"boardbench/internal/prepare"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/thermal"
	"boardbench/internal/tools"
	"boardbench/internal/tune"
)

// Options are the user's choices.
type Options struct {
	Output string
	// HeatTo and CoolTo are the target temperatures; nil skips the phase
	// (both nil: heat to DefaultHeatTo, then cool to the start + CoolMargin).
	HeatTo, CoolTo *float64
	// Limit bounds each phase.
	Limit       time.Duration
	Force       bool
	NoInstall   bool
	IdleTimeout time.Duration
	// Interval is the sampling interval (0: DefaultInterval).
	Interval time.Duration
	// Power is the power source and idle baseline (--power,
	// --idle-baseline).
	Power power.Options
	// Load is the heating load: result.ThermalLoadSevenZip ("" too), the
	// default, which gives a score to compare hot against cold, or
	// result.ThermalLoadStressNG, which must be installed and gives none.
	Load string
}

// Defaults.
const (
	DefaultLimit    = 30 * time.Minute
	DefaultHeatTo   = 85.0
	CoolMargin      = 2.0
	DefaultInterval = 2 * time.Second
)

// Config is what a thermal test needs from the outside; tests replace the
// benchmark and the tool search.
type Config struct {
	Host         *host.Host
	Allowed      []int
	Exec         proc.Executor
	FindSevenZip func(ctx context.Context, h *host.Host, allowInstall bool) (*tools.Tool, *finding.Finding)
	// Status is the status line (the plan, the idle wait); nil for none.
	Status *iostreams.Status
	// Warn receives a line when a save fails; nil discards it.
	Warn io.Writer
	// Print prints the outcome; the zero value prints nothing.
	Print session.Printer
	// TakeLock takes the root's tuning lock once the test is known to be
	// possible here (after every refusal): thermal changes no tunable, but
	// a tuning run at the same time would change the clocks under its
	// figures. nil: no lock.
	TakeLock func(ctx context.Context) (*tune.Lock, error)
	// Keep saves the finished result to the results store; nil saves it
	// to none (session.Config.Keep).
	Keep session.Keeper
}

// noSensorRefusal is the refusal of a thermal test on a machine without a
// readable SoC temperature sensor.
const noSensorRefusal = "no temperature sensor here: no SoC temperature is readable, so there is nothing to heat to or cool to; `boardbench run --extensive` measures a sustained load without one"

// Run runs the thermal test through the session engine. A machine without
// a readable temperature sensor is refused before anything is measured or
// written and before the tuning lock is taken (a usage error, exit status
// 2). The Outcome is nil only when nothing started; otherwise the result
// was written and printed (Config.Print), and the error is the command's
// (session.Finish).
func Run(ctx context.Context, cfg Config, opt Options) (*session.Outcome, error) {
	if cfg.Host == nil {
		return nil, errors.New("thermal: no host")
	}
	h := cfg.Host
	switch opt.Load {
	case "", result.ThermalLoadSevenZip:
	case result.ThermalLoadStressNG:
		if !h.HasCommand("stress-ng") {
			return nil, errors.New("--load stress-ng: stress-ng is not installed (apt-get install stress-ng), or leave --load out to heat with 7-Zip")
		}
	default:
		return nil, fmt.Errorf("--load %q: 7zip or stress-ng", opt.Load)
	}
	if cfg.Exec == nil {
		cfg.Exec = proc.ForHost(h)
	}
	if cfg.FindSevenZip == nil {
		cfg.FindSevenZip = prepare.SevenZip
	}
	if opt.Limit <= 0 {
		opt.Limit = DefaultLimit
	}
	if opt.Interval <= 0 {
		opt.Interval = DefaultInterval
	}
	both := opt.HeatTo == nil && opt.CoolTo == nil
	if both {
		v := DefaultHeatTo
		opt.HeatTo = &v
	}
	allowed, err := prepare.AllowedCPUs(cfg.Allowed)
	if err != nil {
		return nil, err
	}
	info := inventory.Collect(h, inventory.Options{Redact: true})
	var findings []finding.Finding
	options := map[string]any{"load": cmp.Or(opt.Load, result.ThermalLoadSevenZip), "limit_s": opt.Limit.Seconds(), "force": opt.Force, "no_install": opt.NoInstall,
		"heat_to_c": opt.HeatTo, "cool_to_c": opt.CoolTo, "interval_s": opt.Interval.Seconds()}
	mcfg := monitor.ConfigFor(h, info)
	if mcfg.TempPath == "" {
		return nil, cmdutil.Refusef("%s", noSensorRefusal)
	}
	if _, err := sensors.ReadCelsius(h, mcfg.TempPath); err != nil {
		return nil, cmdutil.Refusef("%s (%s: %v)", noSensorRefusal, mcfg.TempPath, err)
	}
	if cfg.TakeLock != nil {
		lock, err := cfg.TakeLock(ctx)
		if err != nil {
			return nil, err
		}
		defer lock.Release()
	}
	scfg := session.Config{Host: h, Info: info, Command: "thermal", Path: opt.Output,
		Interval: opt.Interval, Warn: cfg.Warn, Status: cfg.Status, Print: cfg.Print, Keep: cfg.Keep, Options: options,
		Summarize: thermal.Summarize, Power: opt.Power,
		Findings: func(*result.Result) []finding.Finding { return findings }}
	return session.Measure(ctx, scfg, session.Plan{Prepare: func(ctx context.Context, sess *session.Session) ([]session.Step, error) {
		return plan(ctx, sess, cfg, opt, both, allowed, options, &findings)
	}})
}

// plan takes the start temperature, finds the load, waits for a quiet
// machine and returns the heating and cooling steps.
func plan(ctx context.Context, sess *session.Session, cfg Config, opt Options, both bool, allowed []int, options map[string]any,
	findings *[]finding.Finding) ([]session.Step, error) {
	h := cfg.Host
	res, mon := sess.Result(), sess.Monitor()
	start := mon.SampleNow(ctx)
	noSensor := ""
	if start.TempC == nil {
		// Readable a moment ago: the phases say why they were skipped.
		noSensor = "the SoC temperature could not be read at the start"
	}
	if both && start.TempC != nil {
		v := *start.TempC + CoolMargin
		opt.CoolTo = &v
		options["cool_to_c"] = v
	}
	var status func(string)
	if cfg.Status != nil {
		status = cfg.Status.Show
	}
	var tool *tools.Tool
	stress := opt.Load == result.ThermalLoadStressNG
	if opt.HeatTo != nil && noSensor == "" && stress {
		tool = &tools.Tool{Name: "stress-ng", Path: "stress-ng"}
		res.Tools = append(res.Tools, result.ToolVersion{Name: "stress-ng", Note: "load only: gives no score"})
		if ctx.Err() == nil {
			if f := prepare.IdleGate(ctx, h, opt.Force, idleTimeout(opt), status); f != nil {
				*findings = append(*findings, *f)
			}
		}
	} else if opt.HeatTo != nil && noSensor == "" {
		t, missing := cfg.FindSevenZip(ctx, h, !opt.NoInstall)
		if t != nil {
			tool = t
			res.Tools = append(res.Tools, prepare.ToolVersion(t))
		} else if missing != nil {
			*findings = append(*findings, *missing)
		}
		if ctx.Err() == nil {
			if f := prepare.IdleGate(ctx, h, opt.Force, idleTimeout(opt), status); f != nil {
				*findings = append(*findings, *f)
			}
		}
	}
	temp := func() *float64 {
		if s := mon.Last(); s != nil {
			return s.TempC
		}
		return nil
	}
	var steps []session.Step
	if opt.HeatTo != nil {
		skip := noSensor
		if skip == "" && tool == nil {
			skip = "7-Zip is missing"
		}
		title := fmt.Sprintf("Sustained load on all CPUs until %.1f °C (at most %s)", *opt.HeatTo, opt.Limit)
		if stress {
			title = fmt.Sprintf("stress-ng on all CPUs until %.1f °C (at most %s)", *opt.HeatTo, opt.Limit)
		}
		target := *opt.HeatTo
		steps = append(steps, session.Step{Name: result.PhaseThermalHeat, Kind: "heat", CPUs: allowed, Estimate: opt.Limit, Skip: skip,
			Title: title,
			Run: func(ctx context.Context, p *result.Phase) error {
				if stress {
					return heatStressNG(ctx, p, cfg.Exec, allowed, target, opt.Limit, temp)
				}
				return heat(ctx, p, cfg.Exec, *tool, allowed, target, opt.Limit, temp)
			}})
	}
	if opt.CoolTo != nil || both {
		// Without a target (no start temperature to add the margin to) the
		// phase is skipped: its title says the target is unknown, never 0 °C.
		title := fmt.Sprintf("Idle until the SoC cools (target unknown: no temperature; at most %s)", opt.Limit)
		skip := noSensor
		var target float64
		if opt.CoolTo != nil {
			target = *opt.CoolTo
			title = fmt.Sprintf("Idle until %.1f °C (at most %s)", target, opt.Limit)
		} else if skip == "" {
			skip = "the start temperature is unknown, so there is no target to cool to"
		}
		steps = append(steps, session.Step{Name: result.PhaseThermalCool, Kind: "cool", Estimate: opt.Limit, Skip: skip,
			Title: title,
			Run: func(ctx context.Context, p *result.Phase) error {
				return cool(ctx, p, target, opt.Limit, opt.Interval, temp)
			}})
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	sess.Save()
	return steps, nil
}

func idleTimeout(opt Options) time.Duration {
	if opt.IdleTimeout <= 0 {
		return 60 * time.Second
	}
	return opt.IdleTimeout
}

// heat runs 7-Zip on cpus again and again until the temperature reaches
// target or limit has passed; a run cut short by the target has no score.
func heat(ctx context.Context, p *result.Phase, ex proc.Executor, tool tools.Tool, cpus []int, target float64, limit time.Duration,
	temp func() *float64) error {
	opts := sevenzip.Options{Threads: len(cpus), CPUs: cpus}
	figs := result.ThermalHeatFigures{Load: "7-Zip " + strings.Join(sevenzip.Args(opts), " "), CPUs: cpus, TargetC: &target,
		LimitS: limit.Seconds(), Runs: []result.ThermalLoadRun{}, Scored: true}
	p.CPUs = cpus
	return loadUntil(ctx, p, figs, target, limit, temp, func(lctx context.Context, run *result.ThermalLoadRun) error {
		m, err := sevenzip.Run(lctx, ex, tool, opts)
		switch {
		case err == nil && m != nil && m.Result != nil:
			v := float64(m.Result.Total.RatingMIPS)
			run.MIPS = &v
		case lctx.Err() == nil && err != nil:
			run.Error = err.Error()
			return fmt.Errorf("7-Zip failed: %v", err)
		}
		return nil
	})
}

// loadUntil runs once again and again, each run recorded in figs, until
// the temperature reaches target, limit has passed or a run fails (once
// returns an error); it stores figs with the reason it stopped in p. once
// gets a context that ends at the target or the limit, and fills in the
// run's outcome.
func loadUntil(ctx context.Context, p *result.Phase, figs result.ThermalHeatFigures, target float64, limit time.Duration,
	temp func() *float64, once func(lctx context.Context, run *result.ThermalLoadRun) error) error {
	start := time.Now()
	lctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	reached := watchTarget(lctx, cancel, target, temp)
	var runErr error
	for lctx.Err() == nil {
		rs := time.Now()
		var run result.ThermalLoadRun
		runErr = once(lctx, &run)
		run.StartS, run.DurationS = rs.Sub(start).Seconds(), time.Since(rs).Seconds()
		figs.Runs = append(figs.Runs, run)
		if runErr != nil {
			break
		}
	}
	select {
	case <-reached:
		figs.Stop = "target reached"
	default:
		if ctx.Err() == nil && runErr == nil {
			figs.Stop = "time limit"
		}
	}
	if err := p.SetFigures(figs); err != nil {
		return err
	}
	if runErr != nil {
		return runErr
	}
	return ctx.Err()
}

// heatStressNG runs stress-ng's CPU stressors on cpus until the
// temperature reaches target or limit has passed. stress-ng gives no score
// comparable across runs, so the figures say the load is unscored.
func heatStressNG(ctx context.Context, p *result.Phase, ex proc.Executor, cpus []int, target float64, limit time.Duration,
	temp func() *float64) error {
	args := []string{"--cpu", strconv.Itoa(len(cpus)), "--timeout", strconv.Itoa(int(math.Ceil(limit.Seconds()))) + "s"}
	figs := result.ThermalHeatFigures{Load: "stress-ng " + strings.Join(args, " "), CPUs: cpus, TargetC: &target,
		LimitS: limit.Seconds(), Runs: []result.ThermalLoadRun{}}
	p.CPUs = cpus
	return loadUntil(ctx, p, figs, target, limit, temp, func(lctx context.Context, run *result.ThermalLoadRun) error {
		res, err := ex.Exec(lctx, proc.Command{Name: "stress-ng", Args: args, CPUs: cpus})
		if lctx.Err() == nil && (err != nil || res.Code != 0) {
			if err == nil {
				err = fmt.Errorf("exit status %d", res.Code)
			}
			run.Error = err.Error()
			return fmt.Errorf("stress-ng failed: %v", err)
		}
		return nil
	})
}

// watchTarget closes the returned channel and cancels the load once the
// temperature reaches target; it stops when ctx ends.
func watchTarget(ctx context.Context, cancel context.CancelFunc, target float64, temp func() *float64) <-chan struct{} {
	reached := make(chan struct{})
	go func() {
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if t := temp(); t != nil && *t >= target {
					close(reached)
					cancel()
					return
				}
			}
		}
	}()
	return reached
}

// cool idles until the temperature falls to target or limit has passed.
func cool(ctx context.Context, p *result.Phase, target float64, limit, every time.Duration, temp func() *float64) error {
	figs := result.ThermalCoolFigures{TargetC: &target, LimitS: limit.Seconds(), Stop: "time limit"}
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	tick := time.NewTicker(every)
	defer tick.Stop()
loop:
	for {
		select {
		case <-ctx.Done():
			figs.Stop = ""
			break loop
		case <-deadline.C:
			break loop
		case <-tick.C:
			if t := temp(); t != nil && *t <= target {
				figs.Stop = "target reached"
				break loop
			}
		}
	}
	if err := p.SetFigures(figs); err != nil {
		return err
	}
	return ctx.Err()
}
