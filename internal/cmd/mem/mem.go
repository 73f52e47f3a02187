// Package mem implements `boardbench mem`: memory bandwidth and latency per
// core type, the bandwidth of all CPUs at once, and the cache levels the
// latency curve shows next to the sizes sysfs reports.
package mem

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/memory"
	"boardbench/internal/note"
	"boardbench/internal/probe/membw"
	"boardbench/internal/probe/memlat"
	"boardbench/internal/schema"

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
  boardbench mem --max-size 32M         # smaller buffers and latency blocks`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd.Context(), f, opts)
		},
	}
	cmdutil.AddRootFlag(cmd, &opts.root)
	cmdutil.AddJSONFlag(cmd, &opts.asJSON)
	cmd.Flags().StringVar(&opts.cpuList, "cpu", "", "measure these CPUs (`LIST`, e.g. 0,4-5) instead of one per core type")
	cmd.Flags().BoolVar(&opts.quick, "quick", false, "fewer and shorter samples, latency blocks up to 64 MiB")
	cmd.Flags().StringVar(&opts.maxSize, "max-size", "", "largest bandwidth buffer and latency block (`SIZE`, e.g. 64M)")
	return cmd
}

type options struct {
	root             string
	asJSON, quick    bool
	cpuList, maxSize string
}

// plan holds the measurement parameters.
type plan struct {
	bw           membw.Config
	lat          memlat.Config
	budgetBytes  int64
	limitBytes   int64
	thpAvailable bool
}

// Defaults of the plan.
const (
	// unknownBudget is the memory budget when MemAvailable is unknown.
	unknownBudget = 96 * memlat.MiB
	// latencyCap and quickLatencyCap bound the largest latency block.
	latencyCap      = 256 * memlat.MiB
	quickLatencyCap = 64 * memlat.MiB
	// wantLatencyMax is the largest block a full curve should reach.
	wantLatencyMax = 64 * memlat.MiB
)

func makePlan(m machine, quick bool, limit int64, h *host.Host) (plan, note.List) {
	var notes note.List
	p := plan{limitBytes: limit}
	if m.memAvailableBytes > 0 {
		p.budgetBytes = m.memAvailableBytes / 4
	} else {
		p.budgetBytes = unknownBudget
		notes.Add("memory budget", fmt.Sprintf("MemAvailable unknown: memory use kept to %d MiB", unknownBudget>>20))
	}
	p.bw = membw.Config{Samples: 5, SampleTime: 100 * time.Millisecond}
	p.lat = memlat.Config{Samples: 3, SampleTime: 10 * time.Millisecond, Seed: 1}
	latCap := int64(latencyCap)
	if quick {
		p.bw.Samples, p.bw.SampleTime = 3, 30*time.Millisecond
		p.lat.SampleTime = 4 * time.Millisecond
		latCap = quickLatencyCap
	}
	// The chain scratch array takes 1/16 of the block beside the block.
	latMax := floorPow2(min(latCap, p.budgetBytes*16/17))
	if limit > 0 && latMax > limit {
		latMax = floorPow2(limit)
	}
	if latMax < wantLatencyMax {
		why := "available memory"
		if limit > 0 && latMax == floorPow2(limit) {
			why = "--max-size"
		}
		notes.Add("latency", fmt.Sprintf("largest block %d MiB (limited by %s); main memory latency may be underestimated", latMax>>20, why))
	}
	p.lat.MaxBytes = latMax

	switch m.thpMode {
	case "":
		notes.Add("huge-page latency", "transparent huge pages not exposed by this kernel")
	case "never":
		notes.Add("huge-page latency", "transparent huge pages are disabled (never)")
	default:
		p.thpAvailable = true
		p.lat.HugePages = true
		p.lat.AnonHugeBytes = memory.AnonHugePagesReader(h)
		if m.hugePageBytes > 0 {
			if m.hugePageBytes > 32*memlat.MiB {
				p.lat.HugePages = false
				notes.Add("huge-page latency", fmt.Sprintf("huge pages of %d MiB are too large for the latency blocks", m.hugePageBytes>>20))
			}
			p.lat.HugePageBytes = m.hugePageBytes
		}
	}
	return p, notes
}

func floorPow2(n int64) int64 {
	if n <= 0 {
		return 0
	}
	return 1 << (63 - bits.LeadingZeros64(uint64(n)))
}

// errNotLive is the one-line error on a recorded root.
var errNotLive = errors.New("mem measures the machine it runs on; it cannot measure a recorded root (--root)")

func run(ctx context.Context, f *cmdutil.Factory, opts options) error {
	if ctx == nil {
		ctx = context.Background()
	}
	var explicit []int
	if opts.cpuList != "" {
		l, err := cpu.ParseCPUSelection(opts.cpuList)
		if err != nil {
			return cmdutil.Usagef("--cpu: %v", err)
		}
		explicit = l
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
	for _, c := range explicit {
		if !contains(usable, c) {
			return cmdutil.Usagef("--cpu: cpu%d is not available (usable: %s)", c, cpu.FormatCPUList(usable))
		}
	}

	rep := Report{SchemaVersion: schema.Version}
	m, notes := readMachine(h)
	rep.Notes = append(rep.Notes, notes...)
	p, notes := makePlan(m, opts.quick, limit, h)
	rep.Notes = append(rep.Notes, notes...)
	p.bw.Stop, p.lat.Stop = ctx.Done(), ctx.Done()
	info := cpu.Collect(h)
	targets := chooseTargets(info, usable, explicit)
	if len(info.Clusters) == 0 && len(explicit) == 0 {
		rep.Notes.Add("core types", "no cluster information: measured the first usable CPU only")
	}

	prog := newProgress(f.IO, estimate(p, len(targets), len(usable)))
	var largestLLC int64
	interrupted := func() error {
		prog.finish()
		return &cmdutil.InterruptedError{Signal: "signal"}
	}
	for _, t := range targets {
		r, llc, stopped := measureCPU(h, t, p, prog, &rep.Notes)
		if stopped || ctx.Err() != nil {
			return interrupted()
		}
		largestLLC = max(largestLLC, llc)
		rep.Results = append(rep.Results, r)
	}
	if len(usable) >= 2 {
		tot, stopped := measureTotal(usable, largestLLC, p, prog, &rep.Notes)
		if stopped || ctx.Err() != nil {
			return interrupted()
		}
		rep.Total = tot
	} else {
		rep.Notes.Add("all-CPU bandwidth", "only one usable CPU")
	}
	prog.finish()
	if opts.asJSON {
		return f.WriteJSON(rep)
	}
	render(f.IO.Out, rep, f.IO.ColorEnabled())
	return nil
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// measureCPU measures bandwidth and latency on one CPU. It returns the
// result, the CPU's largest cache size (0 when unknown) and whether the
// measurement was stopped by an interruption.
func measureCPU(h *host.Host, t target, p plan, prog *progress, notes *note.List) (r CPUResult, llc int64, stopped bool) {
	r = CPUResult{CPU: t.cpu, Core: t.core}
	label := fmt.Sprintf("cpu%d", t.cpu)
	caches, cn := memlat.ReadCaches(h, t.cpu)
	*notes = append(*notes, cn...)
	r.SysfsCaches = caches
	llc = memlat.LargestCache(caches)
	if llc == 0 {
		notes.Add(label+" last-level cache", "size unknown: bandwidth buffer sized without it")
	}
	if line, err := h.ReadInt(fmt.Sprintf("/sys/devices/system/cpu/cpu%d/cache/index0/coherency_line_size", t.cpu)); err == nil && line >= 16 && line <= 256 && line&(line-1) == 0 {
		p.lat.LineBytes = int(line)
	}
	size, reasons := membw.BufferSize(llc, p.budgetBytes, p.limitBytes)
	for _, why := range reasons {
		notes.Add(label+" bandwidth", why)
	}
	r.BufferBytes = size

	bw := p.bw
	bw.BufferBytes = size
	bw.Progress = func(done, total int) { prog.step(label+" bandwidth", weightKernel(bw)) }
	figs, err := membw.MeasureCPU(t.cpu, host.PinThread, bw)
	if errors.Is(err, membw.ErrStopped) {
		return r, llc, true
	} else if err != nil {
		notes.Add(label+" bandwidth", err.Error())
	}
	r.Bandwidth.fill(figs, label, notes)

	lat := p.lat
	lat.Progress = func(done, total int) { prog.step(label+" latency", weightLatencyPoint(lat)) }
	res, err := memlat.Measure(t.cpu, host.PinThread, lat)
	if errors.Is(err, memlat.ErrStopped) {
		return r, llc, true
	} else if err != nil {
		notes.Add(label+" latency", err.Error())
		return r, llc, false
	}
	r.Latency, r.LineBytes, r.HugePages = res.Points, res.LineBytes, res.HugePages
	if res.HugePagesNote != "" {
		notes.Add(label+" huge-page latency", res.HugePagesNote)
	}
	an := memlat.Analyze(res, caches)
	if an.HugePagesShort != "" {
		notes.Add(label+" huge-page latency", "huge pages requested, but "+an.HugePagesShort)
	}
	r.CacheLevelsFrom = "ns"
	if an.FromHugePages {
		r.CacheLevelsFrom = "ns_hugepage"
	}
	sizes := an.Sizes
	r.CacheLevels = an.Levels
	r.LatencyStillRising = an.StillRising
	if llc > 0 && len(sizes) > 0 && sizes[len(sizes)-1] <= 2*llc {
		notes.Add(label+" latency", "the largest block is not well beyond the last-level cache: its latency is not main memory's")
	}
	return r, llc, false
}

// measureTotal measures all usable CPUs at once; stopped reports an
// interruption.
func measureTotal(usable []int, llc int64, p plan, prog *progress, notes *note.List) (tot *Total, stopped bool) {
	size, _ := membw.BufferSize(llc, p.budgetBytes, p.limitBytes)
	slice := membw.SliceSize(size, p.budgetBytes, len(usable))
	tot = &Total{CPUs: usable, SliceBytes: slice}
	bw := p.bw
	bw.BufferBytes = slice
	bw.Samples = max(bw.Samples-2, 3)
	bw.Progress = func(done, total int) { prog.step("all CPUs bandwidth", weightTotalKernel(bw)) }
	figs, err := membw.MeasureAll(usable, host.PinThread, bw)
	if errors.Is(err, membw.ErrStopped) {
		return nil, true
	} else if err != nil {
		notes.Add("all-CPU bandwidth", err.Error())
	}
	tot.Bandwidth.fill(figs, "all CPUs", notes)
	return tot, false
}
