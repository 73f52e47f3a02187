// Package mem implements `boardbench mem`: memory bandwidth and latency per
// core type, the bandwidth of all CPUs at once, and the cache levels the
// latency curve shows next to the sizes sysfs reports.
package mem

import (
	"context"
	"errors"
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

// NewCmd returns the mem command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var opts options
	cmd := &cobra.Command{
		Use:   "mem [--cpu LIST] [--json] [--quick] [--max-size SIZE]",
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
quarter of MemAvailable. A run takes about 10 s per core type (--quick: 4 s).`,
		Example: `  boardbench mem
  boardbench mem --quick
  boardbench mem --cpu 0,4 --json > mem.json
  boardbench mem --max-size 32M         # smaller buffers and latency blocks
  boardbench mem -o mem.json && boardbench report mem.json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd.Context(), f, opts)
		},
	}
	cmdutil.AddRootFlag(cmd, &opts.root)
	cmdutil.AddJSONFlag(cmd, &opts.asJSON)
	cmd.Flags().StringVar(&opts.cpuList, "cpu", "", "measure these CPUs (`LIST`, e.g. 0,4-5) instead of one per core type")
	cmd.Flags().BoolVar(&opts.quick, "quick", false, "fewer and shorter samples, latency blocks up to 64 MiB")
	cmd.Flags().StringVarP(&opts.output, "output", "o", "", "also write the result (with the monitor's evidence) to `FILE`, for boardbench report")
	cmd.Flags().StringVar(&opts.maxSize, "max-size", "", "largest bandwidth buffer and latency block (`SIZE`, e.g. 64M)")
	return cmd
}

type options struct {
	root             string
	asJSON, quick    bool
	cpuList, maxSize string
	output           string
}

// errNotLive is the one-line error on a recorded root.
var errNotLive = errors.New("mem measures the machine it runs on; it cannot measure a recorded root (--root)")

func run(ctx context.Context, f *cmdutil.Factory, opts options) error {
	if ctx == nil {
		ctx = context.Background()
	}
	var limit int64
	if opts.maxSize != "" {
		n, err := parseSize(opts.maxSize)
		if err != nil {
			return cmdutil.Usagef("--max-size: %v", err)
		}
		if n < memlat.MiB {
			return cmdutil.Usagef("--max-size: %s is below the 1 MiB minimum", opts.maxSize)
		}
		limit = n
	}
	h, err := f.NewHost(opts.root)
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
	if opts.cpuList != "" {
		if explicit, err = cpu.ParseSelection(opts.cpuList, usable); err != nil {
			return cmdutil.Usagef("--cpu: %v", err)
		}
	}

	info := machine.Collect(h, machine.Options{Redact: true})
	rep := Report{SchemaVersion: schema.Version, Results: []result.MemFigures{}}
	plan := memmeasure.CommandPlan(opts.quick).ForMachine(info)
	plan.MaxBufferBytes, plan.LimitFlag = limit, "--max-size"
	cpus := explicit
	if cpus == nil {
		cpus = memmeasure.CPUs(info.CPU, usable)
		if len(info.CPU.Clusters) == 0 {
			rep.Notes.Add("core types", "no cluster information: measured the first usable CPU only")
		}
	}
	status := f.Status("mem", false)
	status.Work(seconds(memmeasure.Estimate(plan, len(cpus), len(usable))))
	plan.Progress = func(label string, weight float64) { status.Advance(label, seconds(weight)) }
	var steps []session.Step
	var largestLLC int64
	for _, c := range cpus {
		core := memmeasure.CoreOf(info.CPU, c)
		title := fmt.Sprintf("Memory bandwidth and latency on cpu%d", c)
		if core != "" {
			title += " (" + core + ")"
		}
		steps = append(steps, session.Step{Name: result.PhaseMemory, Title: title, CPUs: []int{c}, Kind: "memory",
			Run: func(ctx context.Context, p *result.Phase) error {
				fig, err := memmeasure.Measure(ctx, h, c, core, plan)
				largestLLC = max(largestLLC, fig.LargestCacheBytes())
				if ctx.Err() == nil {
					rep.Results = append(rep.Results, fig)
				}
				if ferr := p.SetFigures(fig); ferr != nil {
					return ferr
				}
				return err
			}})
	}
	if len(usable) >= 2 {
		steps = append(steps, session.Step{Name: result.PhaseMemoryAllCores, Title: "Memory bandwidth of all CPUs at once", CPUs: usable, Kind: "memory",
			Run: func(ctx context.Context, p *result.Phase) error {
				fig, err := memmeasure.MeasureAll(ctx, usable, largestLLC, plan)
				if ctx.Err() == nil {
					rep.Total = &fig
				}
				if ferr := p.SetFigures(fig); ferr != nil {
					return ferr
				}
				return err
			}})
	} else {
		rep.Notes.Add("all-CPU bandwidth", "only one usable CPU")
	}
	cfg := session.Config{Host: h, Info: info, Command: "mem", Path: opts.output, Warn: f.IO.ErrOut, Status: status, Keep: f.Keep,
		Options: map[string]any{"quick": opts.quick, "cpus": opts.cpuList, "max_size_bytes": limit},
		Print: session.NewPrinter(f.IO.Out, opts.asJSON, func(r *result.Result) any { return rep.withVerdict(r) },
			func(w io.Writer, r *result.Result) { render(w, rep, f.IO.ColorEnabled()) })}
	_, err = session.Measure(ctx, cfg, session.Plan{Steps: steps})
	return err
}

// seconds converts estimated seconds to a duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
