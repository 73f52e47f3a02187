// Package mem implements `boardbench mem`: memory bandwidth and latency per
// core type, the bandwidth of all CPUs at once, and the cache levels the
// latency curve shows next to the sizes sysfs reports.
package mem

import (
	"context"
	"fmt"
	"io"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	machine "boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/memmeasure"
	"boardbench/internal/probe/memlat"
	"boardbench/internal/result"
	"boardbench/internal/schema"
	"boardbench/internal/session"

	"github.com/spf13/cobra"
)

// Options are the mem command's inputs: its flags and the factory it
// measures with.
type Options struct {
	Factory *cmdutil.Factory
	// Ctx is the command's context.
	Ctx context.Context
	// Root is --root (mem refuses a recorded root).
	Root string
	// JSON prints the report as JSON; Quick takes fewer, shorter samples.
	JSON, Quick bool
	// CPUList is --cpu, MaxSize --max-size, Output --output.
	CPUList, MaxSize, Output string
	// ThrottleTest is --throttle-test: bandwidth, a memory load of Load
	// (--load; LoadSet when given), bandwidth again.
	ThrottleTest bool
	Load         time.Duration
	LoadSet      bool
}

// NewCmd returns the mem command; runF, when set, replaces the run
// function (tests check the options without measuring).
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "mem [--cpu LIST] [--quick] [--max-size SIZE] [--throttle-test [--load 5m]]",
		Short: "Measure memory bandwidth and latency per core type",
		Long: `Measure memory from one CPU of each core type (pinned, one at a time):

  bandwidth  the C library's memcpy and memset (the figures users compare),
             Go's copy, a read-only scan, a write-only loop and non-temporal
             stores, over buffers well beyond the last-level cache;
             MB/s with 1 MB = 10^6 bytes, median of the samples, the sample
             standard deviation in brackets when above 0.1%
  latency    random pointer chasing over blocks from 1 KiB up to 64-256 MiB,
             one chain and two chains at once, on normal and huge pages;
             nanoseconds per access
  caches     the steps of the latency curve next to the sizes sysfs reports

and then the bandwidth of all CPUs working at once. Memory use stays below a
quarter of MemAvailable and never leaves less than 16 MB of it. A run takes
about 10 s per core type (--quick: 4 s).

--throttle-test checks whether the memory controller throttles: the bandwidth
of all CPUs (memcpy, memset, read), then all CPUs copying memory for --load
(5 minutes by default), then the same bandwidth again, under the monitor
(memory clock, temperature); a fall beyond the measurement's spread is a
finding (docs/mem.md).`,
		Example: `  boardbench mem
  boardbench mem --quick
  boardbench mem --cpu 0,4 --json > mem.json
  boardbench mem --max-size 32M         # smaller buffers and latency blocks
  boardbench mem -o mem.json && boardbench report mem.json
  boardbench mem --throttle-test                # about 5 min 10 s
  boardbench mem --throttle-test --load 15m`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			opts.LoadSet = cmd.Flags().Changed("load")
			if runF != nil {
				return runF(opts)
			}
			return runMem(opts)
		},
	}
	cmdutil.AddRootFlag(cmd, &opts.Root)
	cmdutil.AddJSONFlag(cmd, &opts.JSON)
	cmd.Flags().StringVar(&opts.CPUList, "cpu", "", "measure these CPUs (`LIST`, e.g. 0,4-5) instead of one per core type")
	cmd.Flags().BoolVar(&opts.Quick, "quick", false, "fewer and shorter samples, latency blocks up to 64 MiB")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "also write the result (with the monitor's evidence) to `FILE`, for boardbench report")
	cmd.Flags().StringVar(&opts.MaxSize, "max-size", "", "largest bandwidth buffer and latency block (`SIZE`, e.g. 64M)")
	cmd.Flags().BoolVar(&opts.ThrottleTest, "throttle-test", false, "memory-controller throttling test: bandwidth, a memory load on all CPUs, bandwidth again")
	cmd.Flags().DurationVar(&opts.Load, "load", memmeasure.DefaultThrottleLoad, "how long --throttle-test loads the memory (`DURATION`)")
	return cmd
}

// errNotLive is the one-line error on a recorded root.
const errNotLive = sentinel("mem measures the machine it runs on; it cannot measure a recorded root (--root)")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// runMem checks the flags against the machine, then measures the plan of
// memmeasure.CommandSteps through the session engine.
func runMem(opts *Options) error {
	f, ctx := opts.Factory, opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	var limit int64
	if opts.MaxSize != "" {
		n, err := parseSize(opts.MaxSize)
		if err != nil {
			return cmdutil.Usagef("--max-size: %v", err)
		}
		if n < memlat.MiB {
			return cmdutil.Usagef("--max-size: %s is below the 1 MiB minimum", opts.MaxSize)
		}
		limit = n
	}
	if err := checkThrottleFlags(opts); err != nil {
		return err
	}
	h, err := f.NewHost(opts.Root)
	if err != nil {
		return err
	}
	if !h.Live() {
		return &cmdutil.UsageError{Err: errNotLive}
	}
	usable, err := host.AllowedCPUs()
	if err != nil || len(usable) == 0 {
		return fmt.Errorf("cannot read the CPUs this process may use: %v", err)
	}
	var explicit []int
	if opts.CPUList != "" {
		if explicit, err = cpu.ParseSelection(opts.CPUList, usable); err != nil {
			return cmdutil.Usagef("--cpu: %v", err)
		}
	}

	info := machine.Collect(h, machine.Options{Redact: true})
	plan := memmeasure.CommandPlan(opts.Quick).ForMachine(info).Within(memmeasure.ReadRoom(h))
	plan.MaxBufferBytes, plan.LimitFlag = limit, "--max-size"
	if opts.ThrottleTest {
		return runThrottle(ctx, opts, h, info, plan, usable)
	}
	status := f.Status("mem", false)
	plan.Progress = func(label string, weight float64) { status.Advance(label, seconds(weight)) }
	figs := &memmeasure.Figures{Results: []result.MemFigures{}}
	steps := memmeasure.CommandSteps(h, info, explicit, usable, plan, figs)
	ncpus := 0
	for _, st := range steps {
		if st.Name == result.PhaseMemory {
			ncpus++
		}
	}
	status.Work(seconds(memmeasure.Estimate(plan, ncpus, len(usable))))
	report := func(r *result.Result) Report {
		mc, tmc := memmeasure.MemClocks(r, figs)
		return Report{SchemaVersion: schema.Version, Results: figs.Results, Total: figs.Total, Notes: figs.Notes,
			MemClock: mc, TotalMemClock: tmc, Valid: r.Summary.Valid, Verdict: r.Summary.Verdict}
	}
	cfg := session.Config{Host: h, Info: info, Command: "mem", Path: opts.Output, Warn: f.IO.ErrOut, Keep: f.Keep, Status: status,
		Options: map[string]any{"quick": opts.Quick, "cpus": opts.CPUList, "max_size_bytes": limit},
		Print: session.NewPrinter(f.IO.Out, opts.JSON, func(r *result.Result) any { return report(r) },
			func(w io.Writer, r *result.Result) { render(w, report(r), f.IO.ColorEnabled()) })}
	_, err = session.Measure(ctx, cfg, session.Plan{Steps: steps})
	return err
}

// seconds converts estimated seconds to a duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
