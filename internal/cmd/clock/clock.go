// Package clock implements `boardbench clock`: the real clockspeed of one
// CPU per cluster, measured with a kernel of known cycle count, next to the
// clock the kernel and firmware report; with --opps, for every cpufreq
// operating point, with every changed tunable restored on exit. The plan
// lives in internal/clockcheck (Command); this package reads the flags and
// prints the report.
package clock

import (
	"context"
	"fmt"
	"io"

	"boardbench/internal/clockcheck"
	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	machine "boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
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

// Options are the clock command's inputs: its flags and the factory it
// measures with.
type Options struct {
	Factory *cmdutil.Factory
	// Ctx is the command's context.
	Ctx context.Context
	// Root is --root (clock refuses a recorded root); Output --output;
	// CPUList --cpu ("" one CPU per cluster).
	Root, Output, CPUList string
	// JSON prints JSON; OPPs walks every cpufreq clock; Wait waits for the
	// tuning lock.
	JSON, OPPs, Wait bool
	// Samples is --samples.
	Samples int
	// CPUListSet says that --cpu was given (an empty list is an error).
	CPUListSet bool
}

// NewCmd returns the clock command; runF, when set, replaces the run
// function (tests check the options without measuring).
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
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
			if opts.Samples < 1 || opts.Samples > maxSamples {
				return cmdutil.Usagef("--samples %d: must be between 1 and %d", opts.Samples, maxSamples)
			}
			opts.Ctx = cmd.Context()
			opts.CPUListSet = cmd.Flags().Changed("cpu")
			if runF != nil {
				return runF(opts)
			}
			return runClock(opts)
		},
	}
	cmdutil.AddRootFlag(cmd, &opts.Root)
	cmdutil.AddJSONFlag(cmd, &opts.JSON)
	cmdutil.AddWaitFlag(cmd, &opts.Wait)
	cmd.Flags().BoolVar(&opts.OPPs, "opps", false, "pin and measure every cpufreq clock of every cluster (needs root; restores all settings)")
	cmd.Flags().IntVar(&opts.Samples, "samples", probeclock.DefaultSamples, "timed samples per measurement (about 15 ms each)")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "also write the result (with the monitor's evidence) to `FILE`, for boardbench report")
	cmd.Flags().StringVar(&opts.CPUList, "cpu", "", "measure the CPUs in `LIST` (e.g. 0,4-5) instead of one per cluster")
	return cmd
}

// runClock refuses a recorded root and an OPP walk that cannot be made
// here, takes the tuning lock for --opps, then measures the plan of
// clockcheck.Command through the session engine.
func runClock(opts *Options) error {
	f, ctx := opts.Factory, opts.Ctx
	h, err := f.NewHost(opts.Root)
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
	if opts.CPUListSet {
		if cpus, err = cpu.ParseSelection(opts.CPUList, allowed); err != nil {
			return cmdutil.Usagef("--cpu %q: %v", opts.CPUList, err)
		}
	}
	info := machine.Collect(h, machine.Options{Redact: true})
	r := &clockcheck.Command{Host: h, CPU: info.CPU, Probe: probeclock.Measure, Options: probeclock.Options{Samples: opts.Samples},
		CPUs: cpus, Allowed: allowed, OPPs: opts.OPPs, Wait: tune.WaitOption(opts.Wait, f.IO.ErrOut), IsRoot: h.IsRoot()}
	if err := r.Preflight(); err != nil {
		return err
	}
	if opts.OPPs {
		// The tuning lock before anything is measured: a busy root is a
		// refusal (exit 2), not a failed walk after the clusters were
		// measured.
		lock, err := tune.CommandLock(ctx, h.Root(), opts.Wait, f.IO.ErrOut)
		if err != nil {
			return err
		}
		defer lock.Release()
		r.Lock = lock
	}
	// The report is the plan's once measured: printed by the engine at
	// the end.
	print := session.NewPrinter(f.IO.Out, opts.JSON, func(res *result.Result) any { return withVerdict(r.Report, res) },
		func(w io.Writer, _ *result.Result) {
			if r.Report != nil {
				renderText(w, r.Report, f.IO.ColorEnabled())
			}
		})
	_, _, err = r.Run(ctx, session.Config{Info: info, Path: opts.Output, Warn: f.IO.ErrOut,
		Status: f.Status("clock", false), Print: print, Keep: f.Keep})
	return err
}

// formatCPUList writes ids compactly: [0 1 2 3 6] → "0-3,6"; "-" for none.
func formatCPUList(ids []int) string {
	if len(ids) == 0 {
		return "-"
	}
	return cpu.FormatCPUList(ids)
}

func beyondTolerance(p *float64) bool { return clockcheck.BeyondTolerance(p) }
