// Package sweep implements `boardbench sweep`: for every cpufreq operating
// point of every cluster, highest first, it sets the clock, measures the
// real one, and runs 7-Zip single-threaded on one CPU of the cluster and
// multi-threaded on its CPUs, recording MIPS, temperature, power and core
// voltage; the result's summary holds one row per measurement and the text
// report the efficiency table (MIPS per watt, the most efficient clock and
// the clocks that cost power without giving performance). Every clock is
// restored on every exit path through a tune.Guard. The plan lives in
// internal/sweeprun; this package reads the flags and calls it.
package sweep

import (
	"context"
	"fmt"
	"io"

	"boardbench/internal/cmdutil"
	"boardbench/internal/power"
	"boardbench/internal/report/runtext"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/sweeprun"
	"boardbench/internal/tune"

	"github.com/spf13/cobra"
)

// Options are the sweep command's inputs: the plan's options, the flags
// only the command reads, and the factory it measures with.
type Options struct {
	Factory *cmdutil.Factory
	// Ctx is the command's context.
	Ctx context.Context
	// Sweep are the plan's options.
	Sweep sweeprun.Options
	// Root is --root ("" the live system).
	Root string
	// JSON prints the result as JSON; Wait waits for the tuning lock.
	JSON, Wait bool
}

// NewCmd returns the sweep command; runF, when set, replaces the run
// function (tests check the options without measuring).
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	opt := &opts.Sweep
	cmd := &cobra.Command{
		Use:   "sweep [--output FILE] [--quick] [--passes N] [--settle DURATION] [--force]",
		Short: "Measure performance, temperature and power at every cpufreq clock",
		Long: `For every cpufreq policy and every clock it offers (highest first), set the
clock, measure the real clock, and run 7-Zip's benchmark single-threaded on
one CPU of the cluster, then multi-threaded on the cluster's CPUs (all CPUs
with --all-cores), --passes times each (3; 1 with --quick), pausing
--settle before the first pass. Every pass records MIPS, the highest SoC
temperature, the mean power (with a power source) and the core voltage
where readable, and is judged like a run's phase: a pass disturbed by other
tasks is marked and left out of the clock's mean.

The report is the efficiency table: per clock the cpufreq, firmware and
measured clocks, MIPS (the mean of the passes, with their range),
temperature and watts, MIPS per watt, the most
efficient clock, and the clocks that cost more power without giving more
performance. A machine without cpufreq clocks to set is refused at once
(exit status 2; boardbench run measures at the clock the board runs).

Setting clocks needs root. Like run, sweep waits for a quiet machine first
(--force skips that and records it), finds or installs 7-Zip, and restores
every cpufreq setting at the end, on error, Ctrl-C and SIGTERM.`,
		Example: `  sudo boardbench sweep -o sweep.json
  sudo boardbench sweep --quick
  sudo boardbench sweep --all-cores --settle 30s
  boardbench report --charts charts/ sweep.json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opt.Settle < 0 {
				return cmdutil.Usagef("--settle %s: must not be negative", opt.Settle)
			}
			if err := cmdutil.NonNegative("--idle-timeout", opt.IdleTimeout); err != nil {
				return err
			}
			if !cmd.Flags().Changed("settle") && opt.Quick {
				opt.Settle = sweeprun.QuickSettle
			}
			if opt.Passes < 1 || opt.Passes > sweeprun.MaxPasses {
				return cmdutil.Usagef("--passes %d: must be 1 to %d", opt.Passes, sweeprun.MaxPasses)
			}
			if !cmd.Flags().Changed("passes") && opt.Quick {
				opt.Passes = 1
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return runSweep(opts)
		},
	}
	fl := cmd.Flags()
	cmdutil.AddWaitFlag(cmd, &opts.Wait)
	fl.StringVarP(&opt.Output, "output", "o", "", "write the JSON result to `FILE`")
	fl.BoolVar(&opt.Force, "force", false, "do not wait for a quiet machine (recorded as a finding)")
	fl.BoolVar(&opt.NoInstall, "no-install", false, "never install 7-Zip")
	fl.BoolVar(&opt.Quick, "quick", false, "one short 7-Zip pass per measurement (figures not comparable with full runs)")
	fl.IntVar(&opt.Passes, "passes", sweeprun.DefaultPasses, "run 7-Zip `N` times at each clock and thread count; the row is the mean of the undisturbed passes")
	fl.Lookup("passes").DefValue = fmt.Sprintf("%d, 1 with --quick", sweeprun.DefaultPasses)
	fl.BoolVar(&opt.AllCores, "all-cores", false, "run the multi-threaded measurement on all CPUs instead of the cluster's")
	fl.DurationVar(&opt.Settle, "settle", sweeprun.DefaultSettle, "pause `DURATION` before each 7-Zip run")
	// One default text for both cases, shown once by --help.
	fl.Lookup("settle").DefValue = fmt.Sprintf("%s, %s with --quick", sweeprun.DefaultSettle, sweeprun.QuickSettle)
	fl.DurationVar(&opt.IdleTimeout, "idle-timeout", sweeprun.DefaultIdleTimeout, "wait at most `DURATION` for a quiet machine, then start anyway with a finding")
	power.AddFlags(cmd, &opt.Power)
	cmdutil.AddRootFlag(cmd, &opts.Root)
	cmdutil.AddJSONFlag(cmd, &opts.JSON)
	return cmd
}

// runSweep refuses a sweep left over by a killed run, then hands the plan
// its host, status line and printer; the plan takes the tuning lock
// (TakeLock) only once it knows the sweep is possible here.
func runSweep(opts *Options) error {
	f := opts.Factory
	if err := session.CheckLeftovers(f.IO.ErrOut, opts.Sweep.Force, "sweep", opts.Root); err != nil {
		return err
	}
	h, err := f.NewHost(opts.Root)
	if err != nil {
		return err
	}
	takeLock := func(ctx context.Context) (*tune.Lock, error) {
		lock, err := tune.CommandLock(ctx, h.Root(), opts.Wait, f.IO.ErrOut)
		if err != nil {
			return nil, err
		}
		// Again under the lock (without --force, which was told before):
		// a run this one waited for (--wait) may have been killed and left
		// its state file, the clocks still pinned.
		if !opts.Sweep.Force {
			if err := session.CheckLeftovers(nil, false, "sweep", opts.Root); err != nil {
				lock.Release()
				return nil, err
			}
		}
		return lock, nil
	}
	isRoot := f.IsRoot()
	cfg := sweeprun.Config{Host: h, IsRoot: &isRoot, Status: f.Status("sweep", true), Warn: f.IO.ErrOut, TakeLock: takeLock, Keep: f.Keep,
		Print: session.Printer{Out: f.IO.Out, JSON: opts.JSON, TextHasVerdict: true,
			Text: func(w io.Writer, r *result.Result) { runtext.Render(w, r, f.IO.ColorEnabled()) }}}
	_, err = sweeprun.Run(opts.Ctx, cfg, opts.Sweep)
	return err
}
