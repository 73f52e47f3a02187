// Package thermal implements `boardbench thermal`: a sustained all-core
// 7-Zip load until the SoC reaches a temperature (or a time limit), then
// idle until it cools down, with temperature, clock per cluster,
// throttling and power recorded over time; the report gives the time to
// throttle, the sustained clock and score under heat against the cold
// start, the temperature it settles at and the cooling time constant. The
// plan lives in internal/thermalrun; this package reads the flags and
// calls it.
package thermal

import (
	"context"
	"io"

	"boardbench/internal/cmdutil"
	"boardbench/internal/power"
	"boardbench/internal/report/runtext"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/thermalrun"
	"boardbench/internal/tune"

	"github.com/spf13/cobra"
)

// Options are the thermal command's inputs: the plan's options, the flags
// only the command reads, and the factory it measures with.
type Options struct {
	Factory *cmdutil.Factory
	// Ctx is the command's context.
	Ctx context.Context
	// Thermal are the plan's options.
	Thermal thermalrun.Options
	// Root is --root (thermal refuses a recorded root).
	Root string
	// JSON prints the result as JSON; Wait waits for the tuning lock.
	JSON, Wait bool
}

// NewCmd returns the thermal command; runF, when set, replaces the run
// function (tests check the options without measuring).
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	opt := &opts.Thermal
	var heatTo, coolTo float64
	cmd := &cobra.Command{
		Use:   "thermal [--heat-to C] [--cool-to C] [--limit DURATION] [--output FILE]",
		Short: "Heat the SoC under load, let it cool: throttling, settle temperature, cooling τ",
		Long: `Run 7-Zip on all CPUs, again and again, until the SoC temperature reaches
--heat-to (or --limit passes), then idle until it falls to --cool-to (or
--limit passes). Without either flag both run: heating to 85 °C and cooling
to 2 °C above the starting temperature, each for at most 30 minutes.
--load stress-ng heats with stress-ng instead, when it is installed; it
gives no score, so hot against cold is then not compared.

Temperature, clock per cluster, firmware throttling flags and power (with a
power source) are sampled throughout. The report gives the time to
throttle, the sustained clock and 7-Zip score under heat against the cold
start, the temperature the SoC settles at under load, and the cooling time
constant τ of T(t) = ambient + ΔT·e^(−t/τ): the figures that compare
heatsinks, fans and cases.

Without a readable temperature sensor there is nothing to measure: thermal
refuses at once (exit status 2) and names the command that measures a
sustained load without one.`,
		Example: `  boardbench thermal -o thermal.json
  boardbench thermal --heat-to 80 --limit 15m
  boardbench thermal --cool-to 45
  boardbench report --charts charts/ thermal.json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, fl := range []struct {
				name string
				v    float64
				dst  **float64
			}{{"heat-to", heatTo, &opt.HeatTo}, {"cool-to", coolTo, &opt.CoolTo}} {
				if !cmd.Flags().Changed(fl.name) {
					continue
				}
				if fl.v < -40 || fl.v > 150 {
					return cmdutil.Usagef("--%s %g: must be a temperature between -40 and 150 °C", fl.name, fl.v)
				}
				v := fl.v
				*fl.dst = &v
			}
			if opt.HeatTo != nil && opt.CoolTo != nil && *opt.CoolTo >= *opt.HeatTo {
				return cmdutil.Usagef("--cool-to %g must be below --heat-to %g", *opt.CoolTo, *opt.HeatTo)
			}
			if opt.Interval <= 0 {
				return cmdutil.Usagef("--interval %s: must be positive", opt.Interval)
			}
			if opt.Limit <= 0 {
				return cmdutil.Usagef("--limit %s: must be positive", opt.Limit)
			}
			if opt.Load != "7zip" && opt.Load != "stress-ng" {
				return cmdutil.Usagef("--load %q: 7zip or stress-ng", opt.Load)
			}
			if err := cmdutil.NonNegative("--idle-timeout", opt.IdleTimeout); err != nil {
				return err
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return runThermal(opts)
		},
	}
	fl := cmd.Flags()
	cmdutil.AddWaitFlag(cmd, &opts.Wait)
	fl.Float64Var(&heatTo, "heat-to", thermalrun.DefaultHeatTo, "load all CPUs until the SoC reaches `C` °C")
	fl.Float64Var(&coolTo, "cool-to", 0, "idle until the SoC falls to `C` °C (default: 2 °C above the start)")
	fl.DurationVar(&opt.Limit, "limit", thermalrun.DefaultLimit, "stop each phase after `DURATION` at the latest")
	fl.StringVarP(&opt.Output, "output", "o", "", "write the JSON result to `FILE`")
	fl.BoolVar(&opt.Force, "force", false, "do not wait for a quiet machine (recorded as a finding)")
	fl.BoolVar(&opt.NoInstall, "no-install", false, "never install 7-Zip")
	fl.StringVar(&opt.Load, "load", "7zip", "heat with `LOAD`: 7zip (scored) or stress-ng (when installed; no score)")
	fl.DurationVar(&opt.IdleTimeout, "idle-timeout", 60e9, "wait at most `DURATION` for a quiet machine")
	fl.DurationVar(&opt.Interval, "interval", thermalrun.DefaultInterval, "sample every `DURATION`")
	power.AddFlags(cmd, &opt.Power)
	cmdutil.AddRootFlag(cmd, &opts.Root)
	cmdutil.AddJSONFlag(cmd, &opts.JSON)
	return cmd
}

// runThermal refuses a recorded root, then hands the plan its host, status
// line and printer; the plan takes the tuning lock (TakeLock) only once it
// knows the test is possible here.
func runThermal(opts *Options) error {
	f := opts.Factory
	h, err := f.NewHost(opts.Root)
	if err != nil {
		return err
	}
	if !h.Live() {
		return cmdutil.Usagef("thermal heats the machine it runs on; %s is a recorded one (leave --root out)", h.Root())
	}
	cfg := thermalrun.Config{Host: h, Status: f.Status("thermal", false), Warn: f.IO.ErrOut, Keep: f.Keep,
		TakeLock: func(ctx context.Context) (*tune.Lock, error) {
			return tune.CommandLock(ctx, h.Root(), opts.Wait, f.IO.ErrOut)
		},
		Print: session.Printer{Out: f.IO.Out, JSON: opts.JSON, TextHasVerdict: true,
			Text: func(w io.Writer, r *result.Result) { runtext.Render(w, r, f.IO.ColorEnabled()) }}}
	_, err = thermalrun.Run(opts.Ctx, cfg, opts.Thermal)
	return err
}
