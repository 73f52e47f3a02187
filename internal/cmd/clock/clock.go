// Package clock implements `boardbench clock`: the real clockspeed of one
// CPU per cluster, measured with a kernel of known cycle count, next to the
// clock the kernel and firmware report; with --opps, for every cpufreq
// operating point, with every changed tunable restored on exit.
package clock

import (
	"context"
	"fmt"
	"io"

	"boardbench/internal/clockcheck"
	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/interrupt"
	machine "boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/iostreams"
	probeclock "boardbench/internal/probe/clock"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/tune"

	"github.com/spf13/cobra"
)

// TolerancePct is how far a measured clock may be from a reported one
// before the difference is flagged.
const TolerancePct = clockcheck.TolerancePct

// maxSamples bounds --samples.
const maxSamples = 50

// NewCmd returns the clock command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var root, cpuList, output string
	var asJSON, opps, wait bool
	var samples int
	cmd := &cobra.Command{
		Use:   "clock",
		Short: "Measure the real clockspeed of each CPU cluster (and of every cpufreq OPP)",
		Long: `Measure the real clockspeed of one CPU per cluster with a chain of dependent
integer adds whose cycle count is known, and compare it with the clock the
kernel (cpufreq) and the firmware (Raspberry Pi) report. Deviations beyond
±2% are flagged.

With --opps every clock each cpufreq policy offers is pinned in turn, highest
first, and measured. This needs root; the previous governors and limits are
restored when the walk ends, fails, or is stopped with Ctrl-C or SIGTERM.`,
		Example: `  boardbench clock
  boardbench clock --json
  boardbench clock --cpu 0,4 --samples 7
  sudo boardbench clock --opps
  boardbench clock -o clock.json && boardbench report clock.json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if samples < 1 || samples > maxSamples {
				return cmdutil.Usagef("--samples %d: must be between 1 and %d", samples, maxSamples)
			}
			h, err := f.NewHost(root)
			if err != nil {
				return err
			}
			if !h.Live() {
				return cmdutil.Usagef("measuring clocks needs the live machine; %s is a recorded one (use --root / or leave it out)", h.Root())
			}
			allowed, err := host.AllowedCPUs()
			if err != nil {
				return fmt.Errorf("reading the CPUs this process may use: %v", err)
			}
			var cpus []int
			if cmd.Flags().Changed("cpu") {
				if cpus, err = cpu.ParseSelection(cpuList, allowed); err != nil {
					return cmdutil.Usagef("--cpu %q: %v", cpuList, err)
				}
			}
			r := runner{
				h:       h,
				measure: probeclock.Measure,
				opt:     probeclock.Options{Samples: samples},
				cpus:    cpus,
				allowed: allowed,
				opps:    opps,
				wait:    f.GuardWait(wait),
				isRoot:  h.IsRoot(),
			}
			info := machine.Collect(h, machine.Options{Redact: true})
			r.inv = info.CPU
			if err := r.preflight(); err != nil {
				return err
			}
			if opps {
				// The tuning lock before anything is measured: a busy
				// root is a refusal (exit 2), not a failed walk after
				// the clusters were measured.
				lock, err := f.TuningLock(cmd.Context(), h.Root(), wait)
				if err != nil {
					return err
				}
				defer lock.Release()
				r.lock = lock
			}
			// The report is the runner's once measured: printed by the
			// engine at the end.
			print := session.NewPrinter(f.IO.Out, asJSON, func(res *result.Result) any { return withVerdict(r.rep, res) },
				func(w io.Writer, _ *result.Result) {
					if r.rep != nil {
						renderText(w, r.rep, f.IO.ColorEnabled())
					}
				})
			_, _, err = r.session(cmd.Context(), session.Config{Info: info, Path: output, Warn: f.IO.ErrOut,
				Status: f.Status("clock", false), Print: print, Keep: f.Keep})
			return err
		},
	}
	cmdutil.AddRootFlag(cmd, &root)
	cmdutil.AddJSONFlag(cmd, &asJSON)
	cmdutil.AddWaitFlag(cmd, &wait)
	cmd.Flags().BoolVar(&opps, "opps", false, "pin and measure every cpufreq clock of every cluster (needs root; restores all settings)")
	cmd.Flags().IntVar(&samples, "samples", probeclock.DefaultSamples, "timed samples per measurement (about 15 ms each)")
	cmd.Flags().StringVarP(&output, "output", "o", "", "also write the result (with the monitor's evidence) to `FILE`, for boardbench report")
	cmd.Flags().StringVar(&cpuList, "cpu", "", "measure the CPUs in `LIST` (e.g. 0,4-5) instead of one per cluster")
	return cmd
}

// measureFunc measures the clock of one CPU; probeclock.Measure in
// production, a fake in tests.
type measureFunc = clockcheck.MeasureFunc

// runner holds everything one run of the command needs.
type runner struct {
	h       *host.Host
	inv     cpu.Info
	measure measureFunc
	opt     probeclock.Options
	// cpus are the CPUs asked for with --cpu; nil means one per cluster.
	cpus []int
	// allowed are the CPUs this process may run on.
	allowed []int
	opps    bool
	// wait is the guard's option for the tuning lock (--wait).
	wait tune.Option
	// lock is the tuning lock --opps takes before measuring, handed to
	// the guard (nil: the guard takes it).
	lock   *tune.Lock
	isRoot bool
	// progress shows what is being measured (on a terminal only); nil
	// for none. It is the session's status line.
	progress *iostreams.Status
	// sess is the session the measurement runs in (its tuning guard).
	sess *session.Session
	// rep is the report once measured (nil before).
	rep *Report
}

// checker returns the clock checker of this run.
func (r *runner) checker() *clockcheck.Checker {
	c := &clockcheck.Checker{Host: r.h, CPU: r.inv, Probe: r.measure, Options: r.opt, CPUs: r.cpus, Allowed: r.allowed}
	if r.progress != nil {
		c.Progress = func(msg string) { r.progressf("%s", msg) }
	}
	return c
}

// preflight refuses, before anything is measured, an OPP walk that
// cannot be made here (exit status 2).
func (r *runner) preflight() error {
	if !r.opps {
		return nil
	}
	if !r.isRoot {
		return cmdutil.Refusef("--opps needs root: it pins each cpufreq clock in turn (run it with sudo, or leave --opps out)")
	}
	if err := r.checker().CanWalk(); err != nil {
		return cmdutil.Refusef("--opps: %v", err)
	}
	return nil
}

// clusters measures every target and, with --opps, walks the OPPs. It
// returns the report made so far together with any error; the report is
// nil only when nothing could start.
func (r *runner) clusters(ctx context.Context) (*Report, error) {
	c := r.checker()
	rep, err := c.Clusters(ctx)
	r.progressDone()
	if ctx.Err() != nil {
		return rep, interrupt.Err(ctx)
	}
	if err != nil {
		return rep, err
	}
	if !r.opps {
		return rep, nil
	}
	return rep, r.walkOPPs(ctx, c, rep)
}

// walkOPPs pins every clock of every measured cluster's policy, highest
// first, and measures it, through the session's tuning guard: the
// settings are written back when the walk ends (and by the guard at once
// on a signal; the engine closes it at the end).
func (r *runner) walkOPPs(ctx context.Context, c *clockcheck.Checker, rep *Report) error {
	opt := r.wait
	if r.lock != nil {
		opt = tune.WithLock(r.lock)
	}
	g, gctx, err := r.sess.Tune(ctx, opt)
	if err != nil {
		return fmt.Errorf("--opps: saving the cpufreq settings: %w", err)
	}
	walkErr := c.WalkOPPs(gctx, g, rep)
	r.progressDone()
	if ctx.Err() != nil || gctx.Err() != nil {
		rep.Notes.Add("OPP walk", "interrupted; cpufreq settings restored")
		return interrupt.Err(ctx)
	}
	if err := g.Rewind(); err != nil {
		return fmt.Errorf("restoring cpufreq settings: %w", err)
	}
	return walkErr
}

// progressf shows what is being measured now.
func (r *runner) progressf(format string, args ...any) {
	if r.progress != nil {
		r.progress.Show(fmt.Sprintf(format, args...) + "…")
	}
}

// progressDone clears the status line.
func (r *runner) progressDone() {
	if r.progress != nil {
		r.progress.Clear()
	}
}

// formatCPUList writes ids compactly: [0 1 2 3 6] → "0-3,6"; "-" for none.
func formatCPUList(ids []int) string {
	if len(ids) == 0 {
		return "-"
	}
	return cpu.FormatCPUList(ids)
}

func beyondTolerance(p *float64) bool { return clockcheck.BeyondTolerance(p) }
