// Package c2c implements `boardbench c2c`: the core-to-core latency matrix,
// the round trip of a cache line bounced between two pinned CPUs.
package c2c

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

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

// NewCmd returns the c2c command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var root, output string
	var asJSON bool
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
			return run(cmd.Context(), f, root, asJSON, output)
		},
	}
	cmdutil.AddRootFlag(cmd, &root)
	cmdutil.AddJSONFlag(cmd, &asJSON)
	cmd.Flags().StringVarP(&output, "output", "o", "", "also write the result (with the monitor's evidence) to `FILE`, for boardbench report")
	return cmd
}

var errNotLive = errors.New("c2c measures the machine it runs on; it cannot measure a recorded root (--root)")

func run(ctx context.Context, f *cmdutil.Factory, root string, asJSON bool, output string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	h, err := f.NewHost(root)
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
	rep := Report{SchemaVersion: schema.Version, CPUs: cpus}
	coreOf := map[int]string{}
	var clusters [][]int
	for _, cl := range info.CPU.Clusters {
		clusters = append(clusters, cl.CPUs)
		for _, c := range cl.CPUs {
			coreOf[c] = cl.Core
		}
	}
	for _, c := range cpus {
		rep.Cores = append(rep.Cores, coreOf[c])
	}
	pairs := c2c.Pairs(cpus, clusters)
	rep.Sampled = len(cpus) > c2c.MaxFullMatrix
	if rep.Sampled {
		rep.Notes.Add("pairs", fmt.Sprintf("%d CPUs: measured a sample of %d pairs", len(cpus), len(pairs)))
	}
	// The status line (on a terminal only): the pairs as work, each
	// estimated at 20 ms.
	const perPair = 20 * time.Millisecond
	status := f.Status("c2c", false)
	status.Work(time.Duration(len(pairs)) * perPair)
	step := session.Step{Name: result.PhaseC2C, Title: "Core-to-core round-trip latency between pinned CPUs", CPUs: cpus,
		Estimate: time.Duration(len(pairs)) * perPair,
		Run: func(ctx context.Context, p *result.Phase) error {
			cfg := c2c.Config{}
			for _, pr := range pairs {
				if ctx.Err() != nil {
					break
				}
				res := c2c.MeasurePair(pr[0], pr[1], host.PinThread, cfg)
				status.Advance(fmt.Sprintf("cpu%d-cpu%d", pr[0], pr[1]), perPair)
				if res.Error != "" {
					rep.Notes.Add(res.String(), res.Error)
				}
				rep.Pairs = append(rep.Pairs, res)
			}
			rep.MatrixNS = c2c.Matrix(cpus, rep.Pairs)
			for _, n := range rep.Notes {
				p.Notes = append(p.Notes, n.Item+": "+n.Reason)
			}
			return p.SetFigures(result.C2CFigures{CPUs: cpus, Cores: rep.Cores, Sampled: rep.Sampled, MatrixNS: rep.MatrixNS})
		}}
	cfg := session.Config{Host: h, Info: info, Command: "c2c", Path: output, Warn: f.IO.ErrOut, Status: status, Keep: f.Keep,
		Options: map[string]any{"cpus": cpu.FormatCPUList(cpus)},
		Print: session.NewPrinter(f.IO.Out, asJSON, func(r *result.Result) any {
			out := rep
			out.Valid, out.Verdict = r.Summary.Valid, r.Summary.Verdict
			return out
		}, func(w io.Writer, _ *result.Result) { render(w, rep, f.IO.ColorEnabled()) })}
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
