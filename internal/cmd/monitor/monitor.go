// Package monitor implements `boardbench monitor`: a live view of clocks per
// cluster, load, CPU time split, temperature, firmware clock and voltage and
// power, one line per interval (or one JSON object per line); and, given a
// command after "--", runs that command (optionally pinned to CPUs) under
// the same monitoring and validation as `boardbench run`, writing a result
// file with its samples, evidence, findings and verdict. The plan of a
// monitored command lives in internal/monitorrun; this package reads the
// flags, prints the live lines and the summary.
package monitor

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/monitorrun"
	"boardbench/internal/power"

	"github.com/spf13/cobra"
)

// Interval bounds and default.
const (
	DefaultInterval = 2 * time.Second
	MinInterval     = 100 * time.Millisecond
	MaxInterval     = time.Hour
)

// Options are the monitor command's inputs: its flags, the command after
// "--", and the factory it measures with.
type Options struct {
	Factory *cmdutil.Factory
	// Ctx is the command's context.
	Ctx context.Context
	// Root is --root (the live view only).
	Root     string
	Interval time.Duration
	// Count is --count (the live view only); JSON prints JSON lines.
	Count int
	JSON  bool
	// CPUs is --cpus, Output --output (with a command only).
	CPUs   string
	Output string
	// Argv is the command after "--"; empty for the live view.
	Argv  []string
	Power power.Options
	// Prometheus is the --prometheus address, "" without the exporter.
	Prometheus string
	// Prepare runs before the command (RunCommand); nil for none.
	Prepare Prepare
}

// ExitStatusError ends boardbench with the monitored command's exit
// status (monitorrun.ExitStatusError).
type ExitStatusError = monitorrun.ExitStatusError

// defaultInterval is the default --interval.
const defaultInterval = 2 * time.Second

// NewCmd returns the monitor command; runF, when set, replaces the run
// function (tests check the options without monitoring).
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	var interval string
	cmd := &cobra.Command{
		Use:   "monitor [flags] [-- COMMAND [ARGS...]]",
		Short: "Watch clocks, load, temperature and throttling live, or run a command under monitoring",
		Long: `Without a command, print what is sampled (SoC, clusters with their cpufreq
policies and clock ranges, the temperature sensor and why it was chosen,
firmware and power sensors) and then one line per interval: the clock of each
cluster, load average, CPU time split, temperature, and where available the
firmware's clock and core voltage and power sensors. Ctrl-C ends it (exit
status 0); --count N stops after N lines. --json prints one JSON object per
line: the configuration first, then one sample per line.

With a command after "--", run it under the same monitoring, optionally pinned
to CPUs (--cpus), with its output passed through and kept (the last 1 MiB).
On a terminal the command writes to a pseudo-terminal, so that its output
streams as it would in a terminal; the monitor's lines go to standard error,
between the command's lines. The figures of benchmarks boardbench knows
(7-Zip, openssl speed, stress-ng, sysbench, llama-bench, Geekbench, HPL,
cpuminer) are read from the output. The result file (--output) is written
when the command starts and again when it ends or is interrupted, with the
samples, cpufreq time-in-state, swapping, kernel log events, Raspberry Pi
throttling flags, figures, findings and a verdict; findings and verdict are
also printed to standard error. The exit status is the command's (127 when
it is not found, 130 after Ctrl-C).`,
		Example: `  boardbench monitor
  boardbench monitor --interval 5
  boardbench monitor --json --count 10 > samples.jsonl
  boardbench monitor --cpus 4 -- 7zz b -mmt1
  boardbench monitor --output stress.json -- stress-ng --cpu 4 --timeout 60s`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := parseArgs(cmd, args, interval, opts); err != nil {
				return err
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			if len(opts.Argv) > 0 {
				return runCommand(opts)
			}
			return runLive(opts.Ctx, f, opts)
		},
	}
	cmdutil.AddRootFlag(cmd, &opts.Root)
	cmdutil.AddJSONFlag(cmd, &opts.JSON)
	power.AddFlags(cmd, &opts.Power)
	cmd.Flags().StringVar(&interval, "interval", "2", "time between samples: `S` seconds (e.g. 0.5) or a duration (500ms)")
	cmd.Flags().IntVar(&opts.Count, "count", 0, "stop after `N` sample lines (0: until Ctrl-C)")
	cmd.Flags().StringVar(&opts.CPUs, "cpus", "", "pin the command to the CPUs in `LIST`, e.g. 4-7 or 0,2")
	cmd.Flags().StringVar(&opts.Prometheus, "prometheus", "", "serve the live samples to Prometheus on `ADDR`/metrics, e.g. 127.0.0.1:9101 (docs/prometheus.md)")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write the command's result to `FILE` (default boardbench-monitor-HOST-TIME.json)")
	return cmd
}

// parseArgs validates flags and splits off the command after "--".
func parseArgs(cmd *cobra.Command, args []string, interval string, opts *Options) error {
	iv, err := parseInterval(interval)
	if err != nil {
		return cmdutil.Usagef("--interval %q: %v", interval, err)
	}
	opts.Interval = iv
	dash := cmd.ArgsLenAtDash()
	switch {
	case dash > 0 || dash < 0 && len(args) > 0:
		return cmdutil.Usagef("unexpected argument %q: put the command to run after --, e.g. boardbench monitor -- %s", args[0], strings.Join(args, " "))
	case dash == 0 && len(args) == 0:
		return cmdutil.Usagef("no command after --: boardbench monitor [--cpus LIST] -- COMMAND [ARGS...]")
	}
	opts.Argv = args
	flags := cmd.Flags()
	if len(opts.Argv) == 0 {
		for _, name := range []string{"cpus", "output"} {
			if flags.Changed(name) {
				return cmdutil.Usagef("--%s needs a command to run: boardbench monitor --%s ... -- COMMAND [ARGS...]", name, name)
			}
		}
		if opts.Count < 0 {
			return cmdutil.Usagef("--count %d: must be 0 (no limit) or more", opts.Count)
		}
		return nil
	}
	if flags.Changed("count") {
		return cmdutil.Usagef("--count applies to the live view; with a command, monitoring lasts as long as the command")
	}
	if opts.JSON {
		return cmdutil.Usagef("--json applies to the live view; with a command, the result file (--output) is the JSON")
	}
	if flags.Changed("root") && opts.Root != "/" {
		return cmdutil.Usagef("--root %s: a command runs on the live machine; leave --root out", opts.Root)
	}
	if flags.Changed("cpus") && strings.TrimSpace(opts.CPUs) == "" {
		return cmdutil.Usagef("--cpus: empty CPU list")
	}
	return nil
}

// parseInterval accepts seconds ("2", "0.5") or a Go duration ("500ms").
func parseInterval(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	var d time.Duration
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if v != v || v > MaxInterval.Seconds() { // NaN or huge
			return 0, intervalRangeError()
		}
		d = time.Duration(v * float64(time.Second))
	} else if pd, err := time.ParseDuration(s); err == nil {
		d = pd
	} else {
		return 0, fmt.Errorf("not a number of seconds or a duration")
	}
	if d < MinInterval || d > MaxInterval {
		return 0, intervalRangeError()
	}
	return d, nil
}

func intervalRangeError() error {
	return fmt.Errorf("must be between %g and %g seconds", MinInterval.Seconds(), MaxInterval.Seconds())
}
