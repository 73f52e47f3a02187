// Package c2c implements `boardbench c2c`: the core-to-core latency matrix,
// the round trip of a cache line bounced between two pinned CPUs. The plan
// lives in internal/c2crun; this package reads the flags, runs it and
// prints the matrix.
package c2c

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/c2crun"
	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	machine "boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/note"
	"boardbench/internal/probe/c2c"
	"boardbench/internal/result"
	"boardbench/internal/schema"
	"boardbench/internal/session"
	"boardbench/internal/textfmt"

	"github.com/spf13/cobra"
)

// Report is the JSON document of `boardbench c2c`.
type Report struct {
	SchemaVersion string `json:"schema_version"`
	// CPUs are the CPUs the matrix covers.
	CPUs []int `json:"cpus"`
	// Cores gives each CPU's core type ("" when unknown), parallel to CPUs.
	Cores []string `json:"cores"`
	// Sampled is true when only a representative sample of pairs was
	// measured (more than 16 CPUs).
	Sampled bool `json:"sampled"`
	// Pairs holds each measured pair with its samples.
	Pairs []c2c.Pair `json:"pairs"`
	// MatrixNS[i][j] is the round trip between CPUs[i] and CPUs[j] in
	// nanoseconds; null on the diagonal and for pairs not measured.
	MatrixNS [][]*float64 `json:"matrix_ns"`
	Notes    note.List    `json:"notes"`
	// Valid and Verdict are the measurement's verdict (result.Summary).
	Valid   bool   `json:"valid"`
	Verdict string `json:"verdict"`
}

// Options are the c2c command's inputs: its flags and the factory it
// measures with.
type Options struct {
	Factory *cmdutil.Factory
	// Ctx is the command's context.
	Ctx context.Context
	// Root is --root (c2c refuses a recorded root); Output --output.
	Root, Output string
	// JSON prints the report as JSON.
	JSON bool
}

// NewCmd returns the c2c command; runF, when set, replaces the run
// function (tests check the options without measuring).
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "c2c [--json]",
		Short: "Measure core-to-core latency between every pair of CPUs",
		Long: `Measure how long a cache line takes to travel between two CPUs and back.

Two threads pinned to a pair of CPUs bounce one cache line: one writes an odd
value, the other waits for it and writes the next even value, and so on. The
figure is the round trip (two hand-overs) in nanoseconds, the median of 7
samples. Every pair is measured up to 16 CPUs; above that, a representative
sample: the first CPUs of the clusters among themselves, every CPU with its
neighbour, and the first CPU with every other.`,
		Example: `  boardbench c2c
  boardbench c2c --json > c2c.json
  boardbench c2c -o c2c-result.json && boardbench report c2c-result.json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return runC2C(opts)
		},
	}
	cmdutil.AddRootFlag(cmd, &opts.Root)
	cmdutil.AddJSONFlag(cmd, &opts.JSON)
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "also write the result (with the monitor's evidence) to `FILE`, for boardbench report")
	return cmd
}

const errNotLive = sentinel("c2c measures the machine it runs on; it cannot measure a recorded root (--root)")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// runC2C refuses a recorded root or a single CPU, then measures the plan
// of c2crun through the session engine.
func runC2C(opts *Options) error {
	f, ctx := opts.Factory, opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	h, err := f.NewHost(opts.Root)
	if err != nil {
		return err
	}
	if !h.Live() {
		return &cmdutil.UsageError{Err: errNotLive}
	}
	cpus, err := host.AllowedCPUs()
	if err != nil {
		return fmt.Errorf("cannot read the CPUs this process may use: %v", err)
	}
	if len(cpus) < 2 {
		return c2c.ErrTooFewCPUs
	}
	info := machine.Collect(h, machine.Options{Redact: true})
	// The status line (on a terminal only): the pairs as work.
	status := f.Status("c2c", false)
	step, figs := c2crun.Step(info, cpus, status.Advance)
	status.Work(step.Estimate)
	report := func() Report {
		return Report{SchemaVersion: schema.Version, CPUs: figs.CPUs, Cores: figs.Cores, Sampled: figs.Sampled,
			Pairs: figs.Pairs, MatrixNS: figs.MatrixNS, Notes: figs.Notes}
	}
	cfg := session.Config{Host: h, Info: info, Command: "c2c", Path: opts.Output, Warn: f.IO.ErrOut, Keep: f.Keep, Status: status,
		Options: map[string]any{"cpus": cpu.FormatCPUList(cpus)},
		Print: session.NewPrinter(f.IO.Out, opts.JSON, func(r *result.Result) any {
			out := report()
			out.Valid, out.Verdict = r.Summary.Valid, r.Summary.Verdict
			return out
		}, func(w io.Writer, _ *result.Result) { render(w, report(), f.IO.ColorEnabled()) })}
	_, err = session.Measure(ctx, cfg, session.Plan{Steps: []session.Step{step}})
	return err
}

// render writes the matrix (or, for a sample of pairs, the list).
func render(w io.Writer, rep Report, color bool) {
	tw := textfmt.New(w, color)
	tw.Section("Core-to-core round-trip latency (ns, median of the samples)")
	if !rep.Sampled {
		// Columns in blocks of as many CPUs as fit in the width.
		cellWidth := 4
		for _, c := range rep.CPUs {
			cellWidth = max(cellWidth, len("cpu"+strconv.Itoa(c)))
		}
		perBlock := max(1, (textfmt.MaxWidth-2-cellWidth)/(cellWidth+2))
		for start := 0; start < len(rep.CPUs); start += perBlock {
			end := min(len(rep.CPUs), start+perBlock)
			if start > 0 {
				fmt.Fprintln(tw.W)
			}
			headers := []string{""}
			for _, c := range rep.CPUs[start:end] {
				headers = append(headers, "cpu"+strconv.Itoa(c))
			}
			t := textfmt.NewTable(headers...)
			for i := range headers {
				t.RightAlign[i] = i > 0
			}
			for i, c := range rep.CPUs {
				row := []string{"cpu" + strconv.Itoa(c)}
				for j := start; j < end; j++ {
					row = append(row, cell(rep.MatrixNS[i][j], i == j))
				}
				t.Row(row...)
			}
			tw.Table(t)
		}
	} else {
		t := textfmt.NewTable("pair", "round trip")
		t.RightAlign[1] = true
		pairs := append([]c2c.Pair(nil), rep.Pairs...)
		sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].A < pairs[j].A })
		for _, p := range pairs {
			t.Row(p.String(), cell(p.NS, false)+" ns")
		}
		tw.Table(t)
	}
	seen := map[string]bool{}
	for _, c := range rep.Cores {
		if c == "" || seen[c] {
			continue
		}
		seen[c] = true
		var ids []string
		for j, d := range rep.Cores {
			if d == c {
				ids = append(ids, strconv.Itoa(rep.CPUs[j]))
			}
		}
		tw.Line("%s: cpu %s", c, strings.Join(ids, ","))
	}
	if len(rep.Notes) > 0 {
		tw.Section("Notes")
		for _, n := range rep.Notes {
			tw.Line("%s: %s", n.Item, n.Reason)
		}
	}
}

func cell(v *float64, diagonal bool) string {
	switch {
	case diagonal:
		return "-"
	case v == nil:
		return "n/a"
	case *v >= 100:
		return fmt.Sprintf("%.0f", *v)
	default:
		return fmt.Sprintf("%.1f", *v)
	}
}
