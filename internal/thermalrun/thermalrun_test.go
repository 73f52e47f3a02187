package thermalrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/finding"
	"boardbench/internal/host"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/tools"
	"boardbench/internal/tune"
)

// board is a fixture board whose SoC temperature file is driven by
// events, never by the speed of the machine: the fake 7-Zip's run n puts
// the SoC at runTemps[n] (the last value for later runs) while it runs,
// the first complete runs finish at once with a score, and every later
// run lasts until its context ends (the target seen, or the limit). While
// no load runs, the board cools towards ambient exponentially with time
// constant tau; the tests assert only what follows from the order of
// events, so a slow machine makes them slower, never wrong.
type board struct {
	root          string
	ambient       float64
	runTemps      []float64
	complete      int
	tau           time.Duration
	calls         atomic.Int32
	mu            sync.Mutex // guards the fields below
	running       bool
	temp          float64
	peak          float64
	cutShort      []error // why each run that did not complete ended
	wmu           sync.Mutex
	mipsPerThread int
}

func newBoard(t *testing.T, ambient float64, runTemps []float64, complete int, tau time.Duration) *board {
	t.Helper()
	root := fixture.Root(t, map[string]string{
		"/proc/cpuinfo":                  "processor\t: 0\nmodel name\t: Test CPU\n\nprocessor\t: 1\nmodel name\t: Test CPU\n\n",
		"/proc/loadavg":                  "0.01 0.02 0.00 1/80 999\n",
		"/proc/meminfo":                  "MemTotal:         500000 kB\nMemAvailable:     400000 kB\n",
		"/sys/devices/system/cpu/online": "0-1\n", "/sys/devices/system/cpu/possible": "0-1\n", "/sys/devices/system/cpu/present": "0-1\n",
		"/sys/class/thermal/thermal_zone0/type": "cpu-thermal\n",
	})
	b := &board{root: root, ambient: ambient, runTemps: runTemps, complete: complete, tau: tau, temp: ambient, peak: ambient, mipsPerThread: 1000}
	b.write()
	return b
}

// write publishes the temperature atomically (a rename), as the kernel's
// file never shows a half-written value.
func (b *board) write() {
	b.wmu.Lock()
	defer b.wmu.Unlock()
	b.mu.Lock()
	v := strconv.Itoa(int(math.Round(b.temp*1000))) + "\n"
	b.mu.Unlock()
	dir := filepath.Join(b.root, "sys/class/thermal/thermal_zone0")
	tmp := filepath.Join(dir, ".temp.new")
	if os.WriteFile(tmp, []byte(v), 0o644) == nil {
		_ = os.Rename(tmp, filepath.Join(dir, "temp"))
	}
}

// simulate cools the idle board every 10 ms until ctx ends.
func (b *board) simulate(ctx context.Context) {
	const step = 10 * time.Millisecond
	k := 1 - math.Exp(-step.Seconds()/b.tau.Seconds())
	tick := time.NewTicker(step)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		b.mu.Lock()
		if !b.running {
			b.temp += (b.ambient - b.temp) * k
		}
		b.mu.Unlock()
		b.write()
	}
}

// Exec is the fake 7-Zip (or stress-ng): it heats the board to the run's
// temperature, then completes at once with mipsPerThread per thread (10 %
// less from the second run on) if it is one of the first complete runs
// and ctx has not ended meanwhile, or else lasts until ctx ends. stress-ng
// always lasts until ctx ends.
func (b *board) Exec(ctx context.Context, c proc.Command) (proc.Result, error) {
	n := int(b.calls.Add(1))
	b.mu.Lock()
	b.running = true
	if len(b.runTemps) > 0 {
		b.temp = b.runTemps[min(n, len(b.runTemps))-1]
	}
	b.peak = max(b.peak, b.temp)
	b.mu.Unlock()
	b.write()
	defer func() {
		b.mu.Lock()
		b.running = false
		b.mu.Unlock()
	}()
	if c.Name == "stress-ng" || n > b.complete || ctx.Err() != nil {
		// Runs until the target or the limit stops it.
		<-ctx.Done()
		b.mu.Lock()
		b.cutShort = append(b.cutShort, ctx.Err())
		b.mu.Unlock()
		return proc.Result{Exit: proc.Exit{Code: 143, Signal: "SIGTERM", Canceled: true}}, ctx.Err()
	}
	mips := b.mipsPerThread * len(c.CPUs)
	if n > 1 {
		mips = mips * 9 / 10
	}
	return proc.Result{Stdout: []byte(fmt.Sprintf("\n7-Zip (a) [64] 16.02 : Copyright (c) 1999-2016 Igor Pavlov : 2016-05-21\n\n"+
		"Avr:             100   %[1]d   %[1]d  |              100   %[1]d   %[1]d\n"+
		"Tot:             100   %[1]d   %[1]d\n", mips))}, nil
}

func fakeTool(context.Context, *host.Host, bool) (*tools.Tool, *finding.Finding) {
	return &tools.Tool{Name: "7z", Path: "/usr/bin/7z", Version: "16.02", Flavor: tools.FlavorP7zip, Comparable: true}, nil
}

// runBoard runs the thermal test on b with the model running.
func runBoard(t *testing.T, b *board, opt Options) *result.Result {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); b.simulate(ctx) }()
	// The model writes into the fixture root: it must have stopped before
	// the test's cleanup removes the root.
	defer wg.Wait()
	defer cancel()
	opt.Force, opt.Interval = true, 50*time.Millisecond
	opt.Output = filepath.Join(t.TempDir(), "thermal.json")
	cfg := Config{Host: fixture.Open(t, b.root), Allowed: []int{0, 1}, Exec: b, FindSevenZip: func(ctx context.Context, h *host.Host, install bool) (*tools.Tool, *finding.Finding) {
		if opt.Load == result.ThermalLoadStressNG {
			t.Error("7-Zip looked for with --load stress-ng")
		}
		return fakeTool(ctx, h, install)
	}}
	if _, err := Run(context.Background(), cfg, opt); err != nil {
		t.Fatal(err)
	}
	r, err := result.Load(opt.Output)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Phases) != 2 || r.Phases[0].Name != result.PhaseThermalHeat || r.Phases[1].Name != result.PhaseThermalCool {
		t.Fatalf("phases %+v", r.Phases)
	}
	return r
}

func figures[T any](t *testing.T, p result.Phase) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(p.Figures, &v); err != nil {
		t.Fatalf("%s figures: %v", p.Name, err)
	}
	return v
}

// hangGuard is the --limit of phases whose target the test board reaches:
// it only stops a broken engine from hanging, however slow the machine.
const hangGuard = 10 * time.Minute

// maxTemp is the highest temperature sampled in a phase.
func maxTemp(t *testing.T, p result.Phase) float64 {
	t.Helper()
	hi, seen := math.Inf(-1), false
	for _, s := range p.Samples {
		if s.TempC != nil {
			hi, seen = max(hi, *s.TempC), true
		}
	}
	if !seen {
		t.Fatalf("%s: no temperature sample", p.Name)
	}
	return hi
}

// lastTemp is the temperature of a phase's last sample.
func lastTemp(t *testing.T, p result.Phase) float64 {
	t.Helper()
	for i := len(p.Samples) - 1; i >= 0; i-- {
		if p.Samples[i].TempC != nil {
			return *p.Samples[i].TempC
		}
	}
	t.Fatalf("%s: no temperature sample", p.Name)
	return 0
}

// TestThermalTargetsReached heats a board from 40 °C under the fake 7-Zip
// (44, 48, then 52 °C) until --heat-to 50, then idles until --cool-to 43:
// both targets are reached before the limit, the load stops at the target,
// it ran on every allowed CPU, and the result holds the start and peak
// temperatures and the cold and hot scores.
func TestThermalTargetsReached(t *testing.T) {
	b := newBoard(t, 40, []float64{44, 48, 52}, 2, 500*time.Millisecond)
	heatTo, coolTo := 50.0, 43.0
	limit := hangGuard
	r := runBoard(t, b, Options{HeatTo: &heatTo, CoolTo: &coolTo, Limit: limit})
	heatP, coolP := r.Phases[0], r.Phases[1]
	heat := figures[result.ThermalHeatFigures](t, heatP)
	if heat.Stop != "target reached" || len(heat.Runs) < 1 || heat.Runs[0].MIPS == nil || *heat.Runs[0].MIPS != 2000 {
		t.Errorf("heating: stop %q runs %+v", heat.Stop, heat.Runs)
	}
	if got := maxTemp(t, heatP); got < heatTo {
		t.Errorf("heating peaked at %.2f °C, below the target %.1f", got, heatTo)
	}
	if n := b.calls.Load(); n != 3 {
		t.Errorf("%d loads started, want 3: none after the target was seen", n)
	}
	if len(heat.Runs) != 3 || heat.Runs[2].MIPS != nil {
		t.Errorf("runs %+v: want two complete runs, then one cut short by the target", heat.Runs)
	}
	cool := figures[result.ThermalCoolFigures](t, coolP)
	if cool.Stop != "target reached" {
		t.Errorf("cooling stop %q", cool.Stop)
	}
	if got := lastTemp(t, coolP); got > coolTo {
		t.Errorf("cooling ended at %.2f °C, above the target %.1f", got, coolTo)
	}
	for _, p := range r.Phases {
		if p.DurationS >= limit.Seconds() {
			t.Fatalf("%s took %.1f s: the target was not seen", p.Name, p.DurationS)
		}
	}
	th := r.Summary.ThermalSummary
	if th == nil || th.Thermal == nil {
		t.Fatal("no thermal summary")
	}
	s := th.Thermal
	if s.StartTempC == nil || math.Abs(*s.StartTempC-40) > 1 || s.PeakTempC == nil || *s.PeakTempC < heatTo {
		t.Errorf("start %v peak %v", s.StartTempC, s.PeakTempC)
	}
	if s.ColdMIPS == nil || *s.ColdMIPS != 2000 {
		t.Errorf("cold MIPS %v, want 2000", s.ColdMIPS)
	}
	if len(heat.Runs) < 3 || (s.HotMIPS == nil || *s.HotMIPS != 1800 || s.HotVsColdPct == nil || *s.HotVsColdPct != -10) {
		t.Errorf("%d runs, hot MIPS %v (%v %%), want two complete runs, 1800 (-10 %%)", len(heat.Runs), s.HotMIPS, s.HotVsColdPct)
	}
}

// TestThermalTimeLimit asks for temperatures the board never reaches
// (at most 55 °C under load and 40 °C idle): each phase stops at --limit,
// says so, and the run cut short by the limit has no score.
func TestThermalTimeLimit(t *testing.T) {
	b := newBoard(t, 40, []float64{50, 55}, 2, 300*time.Millisecond)
	heatTo, coolTo := 80.0, 30.0
	limit := 1500 * time.Millisecond
	r := runBoard(t, b, Options{HeatTo: &heatTo, CoolTo: &coolTo, Limit: limit})
	heat := figures[result.ThermalHeatFigures](t, r.Phases[0])
	cool := figures[result.ThermalCoolFigures](t, r.Phases[1])
	if heat.Stop != "time limit" || cool.Stop != "time limit" {
		t.Errorf("stops %q and %q, want the time limit", heat.Stop, cool.Stop)
	}
	// Normally two complete runs, then one cut short. A machine so slow
	// that the limit passed before the second run ended cuts that one
	// short: always complete runs with a score, then one without.
	n := len(heat.Runs)
	if n < 1 || n > 3 || heat.Runs[n-1].MIPS != nil {
		t.Errorf("runs %+v: want complete runs, then one cut short without a score", heat.Runs)
	}
	for i := 0; i < n-1; i++ {
		if heat.Runs[i].MIPS == nil {
			t.Errorf("run %d of %+v has no score, yet it was not the last", i, heat.Runs)
		}
	}
	// The limit, not something else, ended the last run. How long after
	// the limit the phases ended depends on the machine's load: only the
	// lower bound is asserted.
	if len(b.cutShort) != 1 || !errors.Is(b.cutShort[0], context.DeadlineExceeded) {
		t.Errorf("runs cut short by %v, want one by the deadline", b.cutShort)
	}
	for _, p := range r.Phases {
		if p.DurationS < limit.Seconds()-0.05 {
			t.Errorf("%s took %.2f s with a limit of %s: stopped early", p.Name, p.DurationS, limit)
		}
	}
	if s := r.Summary.ThermalSummary; s == nil || s.Thermal == nil || s.Thermal.PeakTempC == nil || *s.Thermal.PeakTempC > 55 {
		t.Errorf("thermal summary %+v", s)
	}
}

// TestThermalStressNG heats with --load stress-ng (installed: recorded in
// the fixture): one stress-ng run on every allowed CPU, stopped when the
// target is reached, and the result says there is no score rather than
// giving one.
func TestThermalStressNG(t *testing.T) {
	b := newBoard(t, 40, []float64{52}, 0, 500*time.Millisecond)
	fixture.Commands(t, b.root, map[string]string{host.CommandKey("stress-ng"): ""})
	heatTo, coolTo := 50.0, 43.0
	r := runBoard(t, b, Options{HeatTo: &heatTo, CoolTo: &coolTo, Limit: hangGuard, Load: result.ThermalLoadStressNG})
	heat := figures[result.ThermalHeatFigures](t, r.Phases[0])
	if heat.Stop != "target reached" || heat.Scored || len(heat.Runs) != 1 || heat.Runs[0].MIPS != nil || heat.Load != "stress-ng --cpu 2 --timeout 600s" {
		t.Errorf("heating %+v", heat)
	}
	s := r.Summary.ThermalSummary.Thermal
	if s.ColdMIPS != nil || s.HotMIPS != nil || !slices.ContainsFunc(s.Notes, func(n string) bool { return strings.Contains(n, "stress-ng") && strings.Contains(n, "no score") }) {
		t.Errorf("scores %v %v notes %q", s.ColdMIPS, s.HotMIPS, s.Notes)
	}
	if s.PeakTempC == nil || *s.PeakTempC < heatTo {
		t.Errorf("peak %v", s.PeakTempC)
	}
}

// TestThermalLoadChoice refuses stress-ng when it is not installed and an
// unknown load, before anything starts.
func TestThermalLoadChoice(t *testing.T) {
	b := newBoard(t, 40, nil, 0, time.Second)
	cfg := Config{Host: fixture.Open(t, b.root), Allowed: []int{0, 1}, Exec: b, FindSevenZip: fakeTool}
	for load, want := range map[string]string{result.ThermalLoadStressNG: "not installed", "burn": "7zip or stress-ng"} {
		o, err := Run(context.Background(), cfg, Options{Force: true, Limit: time.Second, Load: load})
		if o != nil || err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--load %s: %v, want an error saying %q", load, err, want)
		}
	}
}

// TestThermalNoSensor: without a temperature sensor there is nothing to
// measure, and thermal refuses before anything runs: one line naming the
// command that measures a sustained load, exit status 2, no result file,
// no load started.
func TestThermalNoSensor(t *testing.T) {
	root := fixture.Root(t, map[string]string{
		"/proc/cpuinfo":                  "processor\t: 0\nmodel name\t: Test CPU\n\n",
		"/proc/loadavg":                  "0.01 0.02 0.00 1/80 999\n",
		"/proc/meminfo":                  "MemTotal:         500000 kB\nMemAvailable:     400000 kB\n",
		"/sys/devices/system/cpu/online": "0\n", "/sys/devices/system/cpu/possible": "0\n", "/sys/devices/system/cpu/present": "0\n",
	})
	out := filepath.Join(t.TempDir(), "thermal.json")
	b := &board{}
	locked := false
	cfg := Config{Host: fixture.Open(t, root), Allowed: []int{0}, Exec: b, FindSevenZip: fakeTool,
		TakeLock: func(context.Context) (*tune.Lock, error) { locked = true; return nil, nil }}
	o, err := Run(context.Background(), cfg, Options{Force: true, Interval: 50 * time.Millisecond, Limit: time.Second, Output: out})
	if o != nil || cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), "no temperature sensor here") ||
		!strings.Contains(err.Error(), "boardbench run --extensive") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("Run = %v, %v (exit %d), want a one-line refusal", o, err, cmdutil.ExitCode(err))
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a result file was written: %v", err)
	}
	if n := b.calls.Load(); n != 0 {
		t.Errorf("%d loads started before the refusal", n)
	}
	if locked {
		t.Error("the tuning lock was taken before the refusal")
	}
}
