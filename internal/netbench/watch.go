package netbench

import (
	"context"
	"fmt"
	"strings"
	"time"

	"boardbench/internal/headroom"
	"boardbench/internal/netstat"
	"boardbench/internal/result"
	"boardbench/internal/session"
)

// watchStep samples the interfaces for d (0: until Ctrl-C), running
// before first (nil for nothing) and, with --headroom, the calibrated load
// on every CPU.
func (r *runner) watchStep(name, when string, d time.Duration, before func()) session.Step {
	est := d
	if est == 0 {
		est = time.Hour
	}
	title := "Traffic through " + strings.Join(r.ifaces, ", ")
	if when != "" {
		title += " " + when
	}
	return session.Step{Name: name, Title: title, Estimate: est,
		Run: func(ctx context.Context, p *result.Phase) error {
			if before != nil {
				before()
			}
			figs := result.NetFigures{}
			var load *headroom.Load
			if r.o.Headroom {
				load = headroom.Start(ctx, r.facts.CPUs, nil)
			}
			w, _ := r.measure(&figs, func() error {
				r.watchLive(ctx, d)
				return nil
			})
			if load != nil {
				figs.Headroom = r.headroomFigures(load.Stop())
			}
			figs.Interfaces = w.Rates
			return p.SetFigures(figs)
		}}
}

// HeadroomCalibration is how long --headroom's load runs on each CPU
// before the watch, for its calibrated rate.
const HeadroomCalibration = 3 * time.Second

// calibrationTrafficPPS is the packet rate (all watched interfaces, both
// ways) above which the calibration says traffic passed during it.
const calibrationTrafficPPS = 1000

// calibrateStep runs the load on every CPU before the watch: its rate is
// the calibration the watch's shares are taken of.
func (r *runner) calibrateStep() session.Step {
	return session.Step{Name: result.PhaseNetHeadroomIdle, Title: "The CPU load's rate on each CPU before the watch (--headroom)",
		Estimate: HeadroomCalibration,
		Run: func(ctx context.Context, p *result.Phase) error {
			figs := result.NetFigures{}
			w, _ := r.measure(&figs, func() error {
				r.calib = headroom.Measure(ctx, r.facts.CPUs, HeadroomCalibration)
				return nil
			})
			figs.Interfaces = w.Rates
			pps := 0.0
			for _, rate := range w.Rates {
				pps += rate.RxPPS + rate.TxPPS
			}
			if pps > calibrationTrafficPPS {
				figs.Notes = append(figs.Notes, fmt.Sprintf("traffic passed during the calibration (%.0f packets/s): the calibrated rates are "+
					"below those of a quiet machine, and the shares of them above the capacity really left", pps))
			}
			cal := r.calib
			r.calib = nil
			figs.Headroom = r.headroomFigures(cal)
			r.calib = cal
			return p.SetFigures(figs)
		}}
}

// headroomFigures are the load's rates with, after the calibration, the
// share of it each CPU reached.
func (r *runner) headroomFigures(rates []headroom.Rate) []result.NetHeadroom {
	var out []result.NetHeadroom
	for _, rate := range rates {
		h := result.NetHeadroom{CPU: rate.CPU}
		if rate.Err != nil {
			h.Note = "not loaded: " + rate.Err.Error()
			out = append(out, h)
			continue
		}
		v := rate.UnitsPerS
		h.UnitsPerS = &v
		for _, c := range r.calib {
			if c.CPU != rate.CPU {
				continue
			}
			if share, ok := headroom.Share(rate, c); ok {
				idle := c.UnitsPerS
				h.IdleUnitsPerS, h.Share = &idle, &share
			} else {
				h.Note = "no calibration of this CPU"
			}
		}
		out = append(out, h)
	}
	return out
}

// watchLive waits until the duration ends or ctx is done, showing the
// figures of every interval as it goes (see liveView). The snapshots it
// takes are its own: the step's figures span the whole watch.
func (r *runner) watchLive(ctx context.Context, d time.Duration) {
	view := r.liveView()
	var end <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		end = t.C
	}
	tick := time.NewTicker(r.o.Interval)
	defer tick.Stop()
	defer view.clear()
	start := r.sampler.Take()
	prev := start
	for {
		select {
		case <-ctx.Done():
			return
		case <-end:
			return
		case <-tick.C:
			cur := r.sampler.Take()
			view.show(cur.Time.Sub(start.Time), netstat.Between(prev, cur, r.sampler.IRQs))
			prev = cur
		}
	}
}

// liveView returns where the live figures go: a table redrawn on a
// terminal's standard output, plain lines on a piped one, and with --json
// plain lines on standard error (standard output carries only the JSON).
func (r *runner) liveView() *liveView {
	io := r.io
	if r.o.JSON {
		return &liveView{w: io.ErrOut, prefix: "boardbench net: "}
	}
	return &liveView{w: io.Out, tty: io.IsStdoutTTY()}
}
