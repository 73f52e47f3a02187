// Package c2crun is the plan of `boardbench c2c`: one step that bounces a
// cache line between every pair of CPUs (a representative sample above
// probe/c2c.MaxFullMatrix CPUs) and records the round trips as a matrix.
// The command (internal/cmd/c2c) only reads the flags, runs the step
// through the session engine and prints the figures.
package c2crun

import (
	"context"
	"fmt"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/note"
	"boardbench/internal/probe/c2c"
	"boardbench/internal/result"
	"boardbench/internal/session"
)

// PerPair is the estimated time of one pair's measurement.
const PerPair = 20 * time.Millisecond

// Figures are what the step measured, filled as it runs.
type Figures struct {
	// CPUs are the CPUs the matrix covers; Cores their core types ("" when
	// unknown), parallel to CPUs.
	CPUs  []int
	Cores []string
	// Sampled is true when only a representative sample of pairs was
	// measured.
	Sampled bool
	Pairs   []c2c.Pair
	// MatrixNS[i][j] is the round trip between CPUs[i] and CPUs[j] in
	// nanoseconds; nil on the diagonal and for pairs not measured.
	MatrixNS [][]*float64
	Notes    note.List
}

// Step returns the c2c step over cpus (two or more) and the figures it
// fills; advance, when set, is told of each pair measured.
func Step(info *inventory.Info, cpus []int, advance func(what string, d time.Duration)) (session.Step, *Figures) {
	figs := &Figures{CPUs: cpus}
	coreOf := map[int]string{}
	var clusters [][]int
	for _, cl := range info.CPU.Clusters {
		clusters = append(clusters, cl.CPUs)
		for _, c := range cl.CPUs {
			coreOf[c] = cl.Core
		}
	}
	for _, c := range cpus {
		figs.Cores = append(figs.Cores, coreOf[c])
	}
	pairs := c2c.Pairs(cpus, clusters)
	figs.Sampled = len(cpus) > c2c.MaxFullMatrix
	if figs.Sampled {
		figs.Notes.Add("pairs", fmt.Sprintf("%d CPUs: measured a sample of %d pairs", len(cpus), len(pairs)))
	}
	step := session.Step{Name: result.PhaseC2C, Title: "Core-to-core round-trip latency between pinned CPUs", CPUs: cpus,
		Estimate: time.Duration(len(pairs)) * PerPair,
		Run: func(ctx context.Context, p *result.Phase) error {
			cfg := c2c.Config{}
			for _, pr := range pairs {
				if ctx.Err() != nil {
					break
				}
				res := c2c.MeasurePair(pr[0], pr[1], host.PinThread, cfg)
				if advance != nil {
					advance(fmt.Sprintf("cpu%d-cpu%d", pr[0], pr[1]), PerPair)
				}
				if res.Error != "" {
					figs.Notes.Add(res.String(), res.Error)
				}
				figs.Pairs = append(figs.Pairs, res)
			}
			figs.MatrixNS = c2c.Matrix(cpus, figs.Pairs)
			for _, n := range figs.Notes {
				p.Notes = append(p.Notes, n.Item+": "+n.Reason)
			}
			return p.SetFigures(result.C2CFigures{CPUs: cpus, Cores: figs.Cores, Sampled: figs.Sampled, MatrixNS: figs.MatrixNS})
		}}
	return step, figs
}
