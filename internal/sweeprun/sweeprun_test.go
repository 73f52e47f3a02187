package sweeprun

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/finding"
	"boardbench/internal/host"
	"boardbench/internal/power"
	probeclock "boardbench/internal/probe/clock"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fakeclock"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/tools"
	"boardbench/internal/tune"
)

// pinnedKHz reads the fixture's scaling_max_freq: the clock the sweep set.
func pinnedKHz(h *host.Host) int64 {
	v, _ := h.ReadInt("/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq")
	return v
}

// fakeSevenZip answers every 7-Zip run with a rating of 0.8 MIPS per MHz
// per thread at the clock pinned in the fixture.
type fakeSevenZip struct {
	h     *host.Host
	mu    sync.Mutex
	calls []proc.Command
	hook  func(ctx context.Context, c proc.Command) (proc.Result, error, bool)
}

func (f *fakeSevenZip) Exec(ctx context.Context, c proc.Command) (proc.Result, error) {
	f.mu.Lock()
	f.calls = append(f.calls, c)
	f.mu.Unlock()
	if f.hook != nil {
		if r, err, ok := f.hook(ctx, c); ok {
			return r, err
		}
	}
	if err := ctx.Err(); err != nil {
		return proc.Result{Exit: proc.Exit{Code: 143, Signal: "SIGTERM", Canceled: true}}, err
	}
	tot := int(float64(pinnedKHz(f.h)) / 1000 * 0.8 * float64(len(c.CPUs)))
	return proc.Result{Stdout: []byte(sevenZipOutput(tot, len(c.CPUs)))}, nil
}

// sevenZipOutput is 7-Zip's output for a run of threads threads that got
// its CPUs (usage 97 % of each thread; 100 % for one).
func sevenZipOutput(tot, threads int) string {
	usage := 100
	if threads > 1 {
		usage = 97 * threads
	}
	return sevenZipOutputUsage(tot, usage)
}

// sevenZipOutputUsage is 7-Zip's output for a run whose Tot: line shows
// usage % of one thread.
func sevenZipOutputUsage(tot, usage int) string {
	return fmt.Sprintf(`
7-Zip (a) [64] 16.02 : Copyright (c) 1999-2016 Igor Pavlov : 2016-05-21

RAM size:     427 MB,  # CPU hardware threads:   4
RAM usage:    441 MB,  # Benchmark threads:      4

                       Compressing  |                  Decompressing
Dict     Speed Usage    R/U Rating  |      Speed Usage    R/U Rating
         KiB/s     %%   MIPS   MIPS  |      KiB/s     %%   MIPS   MIPS

22:       1000   100   %[1]d   %[1]d  |      20000   100   %[1]d   %[1]d
----------------------------------  | ------------------------------
Avr:             100   %[1]d   %[1]d  |              100   %[1]d   %[1]d
Tot:             %[2]d   %[1]d   %[1]d
`, tot, usage)
}

func fakeTool(context.Context, *host.Host, bool) (*tools.Tool, *finding.Finding) {
	return &tools.Tool{Name: "7z", Path: "/usr/bin/7z", Version: "16.02", Flavor: tools.FlavorP7zip, Comparable: true}, nil
}

// fakeClock measures 2% below the pinned clock, as a board whose PLL
// cannot reach the OPP exactly.
func fakeClock(h *host.Host) func(context.Context, int, probeclock.Options) (probeclock.Result, error) {
	return func(ctx context.Context, cpu int, _ probeclock.Options) (probeclock.Result, error) {
		return probeclock.Result{CPU: cpu, MHz: float64(pinnedKHz(h)) / 1000 * 0.98, Certain: true}, nil
	}
}

func fixtureConfig(t *testing.T, root string) (Config, *fakeSevenZip) {
	h := fixture.Open(t, root)
	yes := true
	ex := &fakeSevenZip{h: h}
	return Config{Host: h, IsRoot: &yes, Allowed: []int{0, 1, 2, 3}, Exec: ex, Clock: fakeClock(h), FindSevenZip: fakeTool}, ex
}

// TestSweepThreeOPPs sweeps a fixture with three OPPs: six measurements
// from the highest clock down, each 7-Zip run at the clock pinned then
// (single-threaded on cpu0, multi-threaded on cpu0-3), the measured clock
// recorded, no power source so no watts, and the fixture's tunables
// byte-identical afterwards with no state file left.
func TestSweepThreeOPPs(t *testing.T) {
	stateDir := t.TempDir()
	t.Setenv("BOARDBENCH_STATE_DIR", stateDir)
	root := fixture.QuadA53(t)
	before := fixture.Snapshot(t, root)
	cfg, ex := fixtureConfig(t, root)
	out := filepath.Join(t.TempDir(), "sweep.json")
	o, err := Run(context.Background(), cfg, Options{Output: out, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Error("fixture tunables not restored")
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != result.StatusComplete || !r.Tuning.Restored || o.Result.Command != "sweep" {
		t.Errorf("status %q restored %v command %q", r.Status, r.Tuning.Restored, o.Result.Command)
	}
	if r.Summary.SweepSummary == nil {
		t.Fatal("no sweep rows")
	}
	type want struct {
		mhz     float64
		threads int
		mips    float64
	}
	wants := []want{{1000, 1, 800}, {1000, 4, 3200}, {800, 1, 640}, {800, 4, 2560}, {600, 1, 480}, {600, 4, 1920}}
	rows := r.Summary.Sweep
	if len(rows) != len(wants) {
		t.Fatalf("%d rows, want %d: %+v", len(rows), len(wants), rows)
	}
	for i, w := range wants {
		row := rows[i]
		// The fixture's scaling_cur_freq stays at 1000 MHz whatever is
		// pinned: the row reports what cpufreq said, not what was asked.
		if row.RequestedMHz == nil || *row.RequestedMHz != w.mhz || row.ReportedMHz == nil || *row.ReportedMHz != 1000 || row.Threads != w.threads || row.MIPS == nil || *row.MIPS != w.mips {
			t.Errorf("row %d = %+v, want %v MHz %d threads %v MIPS", i, row, w.mhz, w.threads, w.mips)
			continue
		}
		if row.MeasuredMHz == nil || *row.MeasuredMHz != w.mhz*0.98 {
			t.Errorf("row %d measured %v, want %v", i, row.MeasuredMHz, w.mhz*0.98)
		}
		if row.Policy == nil || *row.Policy != 0 || row.PowerW != nil || row.MIPSPerW != nil {
			t.Errorf("row %d policy %v power %v mips/w %v", i, row.Policy, row.PowerW, row.MIPSPerW)
		}
		if row.TempC == nil || *row.TempC != 41.234 {
			t.Errorf("row %d temperature %v, want 41.234 from the fixture", i, row.TempC)
		}
	}
	if len(ex.calls) != 6 || !reflect.DeepEqual(ex.calls[0].CPUs, []int{0}) || !reflect.DeepEqual(ex.calls[1].CPUs, []int{0, 1, 2, 3}) {
		t.Errorf("7-Zip calls %+v", ex.calls)
	}
	if left, _ := filepath.Glob(filepath.Join(stateDir, "*")); len(left) != 0 {
		t.Errorf("state files left: %v", left)
	}
}

// TestSweepInterrupted cancels the sweep during the second 7-Zip run: the
// clocks are restored, the result says interrupted, the first row is kept.
func TestSweepInterrupted(t *testing.T) {
	t.Setenv("BOARDBENCH_STATE_DIR", t.TempDir())
	root := fixture.QuadA53(t)
	before := fixture.Snapshot(t, root)
	cfg, ex := fixtureConfig(t, root)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	ex.hook = func(hctx context.Context, c proc.Command) (proc.Result, error, bool) {
		n++
		if n < 2 {
			return proc.Result{}, nil, false
		}
		cancel()
		<-hctx.Done()
		return proc.Result{Exit: proc.Exit{Code: 143, Signal: "SIGTERM", Canceled: true}}, hctx.Err(), true
	}
	out := filepath.Join(t.TempDir(), "sweep.json")
	_, err := Run(ctx, cfg, Options{Output: out, Force: true})
	if err == nil {
		t.Fatal("no error from an interrupted sweep")
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Error("fixture tunables not restored after the interruption")
	}
	r, lerr := result.Load(out)
	if lerr != nil {
		t.Fatal(lerr)
	}
	if r.Status != result.StatusInterrupted || len(r.Summary.Sweep) < 1 || r.Summary.Sweep[0].MIPS == nil {
		t.Errorf("status %q rows %+v", r.Status, r.Summary.Sweep)
	}
}

// TestSweepRefusals: what cannot be swept here is refused before anything
// is measured (exit status 2, one line, no result file, no 7-Zip run): a
// machine without cpufreq (naming the command that measures at its one
// clock), and a machine with cpufreq without root.
func TestSweepRefusals(t *testing.T) {
	t.Setenv("BOARDBENCH_STATE_DIR", t.TempDir())
	var cpuinfo strings.Builder
	for c := 0; c < 2; c++ {
		fmt.Fprintf(&cpuinfo, "processor\t: %d\nvendor_id\t: GenuineIntel\nmodel name\t: Test CPU\ncpu MHz\t\t: 2000.000\n\n", c)
	}
	noCpufreq := fixture.Host(t, map[string]string{
		"proc/cpuinfo":                  cpuinfo.String(),
		"proc/loadavg":                  "0.01 0.02 0.00 1/80 999\n",
		"sys/devices/system/cpu/online": "0-1\n", "sys/devices/system/cpu/possible": "0-1\n", "sys/devices/system/cpu/present": "0-1\n",
	})
	yes, no := true, false
	for _, tt := range []struct {
		name    string
		h       *host.Host
		isRoot  *bool
		wantMsg string
	}{
		{"no cpufreq", noCpufreq, &yes, "no cpufreq here"},
		{"no cpufreq, not root", noCpufreq, &no, "`boardbench run` measures at the clock the board runs"},
		{"not root", fixture.Open(t, fixture.QuadA53(t)), &no, "needs root"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ex := &fakeSevenZip{h: tt.h}
			out := filepath.Join(t.TempDir(), "sweep.json")
			locked := false
			cfg := Config{Host: tt.h, IsRoot: tt.isRoot, Allowed: []int{0, 1}, Exec: ex, FindSevenZip: fakeTool,
				TakeLock: func(context.Context) (*tune.Lock, error) { locked = true; return nil, nil }}
			o, err := Run(context.Background(), cfg, Options{Force: true, Output: out})
			if o != nil || cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), tt.wantMsg) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("Run = %v, %v (exit %d), want a one-line refusal with %q", o, err, cmdutil.ExitCode(err), tt.wantMsg)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a result file was written: %v", err)
			}
			if len(ex.calls) != 0 {
				t.Errorf("7-Zip ran %d times before the refusal", len(ex.calls))
			}
			if locked {
				t.Error("the tuning lock was taken before the refusal")
			}
		})
	}
}

func TestParseFirmwareVolts(t *testing.T) {
	for in, want := range map[string]float64{"volt=1.2375V\n": 1.2375, "volt=0.8800V": 0.88, "volt=": 0, "temp=40.0'C": 0, "volt=99V": 0} {
		got, ok := ParseFirmwareVolts(in)
		if ok != (want != 0) || got != want {
			t.Errorf("ParseFirmwareVolts(%q) = %v %v, want %v", in, got, ok, want)
		}
	}
	_ = strconv.Itoa
}

// sweepWatts is the board power the fake INA226 shows while 7-Zip runs at
// mhz on threads CPUs.
func sweepWatts(mhz float64, threads int) float64 {
	return 0.5 + float64(threads)*mhz/1000*0.6
}

// TestSweepPower sweeps a board with an INA226 on its supply (--power
// hwmon:ina226, with an idle baseline): the fake 7-Zip sets the sensor's
// power1_input to what the board would draw at the pinned clock and thread
// count and runs for 1.5 s, so every row carries the phase's mean watts,
// close to that draw, and MIPS/W computed from them; each phase has its
// energy.
func TestSweepPower(t *testing.T) {
	t.Setenv("BOARDBENCH_STATE_DIR", t.TempDir())
	root := fixture.QuadA53(t)
	hw := filepath.Join(root, "sys/class/hwmon/hwmon0")
	if err := os.MkdirAll(hw, 0o755); err != nil {
		t.Fatal(err)
	}
	setWatts := func(w float64) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(hw, "power1_input"), []byte(strconv.Itoa(int(math.Round(w*1e6)))+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
	for name, v := range map[string]string{"name": "ina226\n", "in1_input": "5100\n", "curr1_input": "200\n"} {
		if err := os.WriteFile(filepath.Join(hw, name), []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	setWatts(0.4)
	cfg, ex := fixtureConfig(t, root)
	// The meter's clock is a fake one: the sensor (read every 500 ms)
	// reads twice in the 600 ms idle baseline and three times in each
	// phase, all after the fake 7-Zip has switched to the phase's draw and
	// before the phase ends.
	clk := fakeclock.New(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	ex.hook = func(ctx context.Context, c proc.Command) (proc.Result, error, bool) {
		mhz := float64(pinnedKHz(cfg.Host)) / 1000
		setWatts(sweepWatts(mhz, len(c.CPUs)))
		// Three readings, each when the sensor's next read falls due;
		// then the phase ends halfway to the following one, so that no
		// reading falls on a boundary between two phases.
		for i := range 4 {
			if err := clk.WaitFor(1); err != nil { // the sensor waits for its next read
				return proc.Result{}, err, true
			}
			d := clk.Next().Sub(clk.Now())
			if i == 3 {
				d /= 2
			}
			clk.Advance(d)
		}
		return proc.Result{}, nil, false
	}
	spec, err := power.ParseSpec("hwmon:ina226")
	if err != nil {
		t.Fatal(err)
	}
	baseline := make(chan error, 1)
	go func() { // the idle baseline: readings at 0 s and 0.5 s, the end at 0.6 s
		for _, d := range []time.Duration{500 * time.Millisecond, 100 * time.Millisecond} {
			if err := clk.WaitFor(2); err != nil {
				baseline <- err
				return
			}
			clk.Advance(d)
		}
		baseline <- nil
	}()
	o, err := Run(context.Background(), cfg, Options{Force: true,
		Power: power.Options{Spec: spec, IdleBaseline: 600 * time.Millisecond, Clock: clk}})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-baseline; err != nil {
		t.Fatal(err)
	}
	r := o.Result
	if r.Power == nil || r.Power.Source != "hwmon:ina226" || r.Power.Idle == nil || r.Power.Idle.PowerW == nil || *r.Power.Idle.PowerW != 0.4 {
		t.Fatalf("power source %+v", r.Power)
	}
	rows := r.Summary.Sweep
	if len(rows) != 6 {
		t.Fatalf("%d rows, want 6", len(rows))
	}
	for i, row := range rows {
		if row.PowerW == nil || row.MIPS == nil || row.RequestedMHz == nil {
			t.Errorf("row %d without watts or MIPS: %+v", i, row)
			continue
		}
		want := sweepWatts(*row.RequestedMHz, row.Threads)
		// Only readings taken inside the phase count (the previous
		// phase's draw is not carried in): all of them at the new draw.
		if math.Abs(*row.PowerW-want) > 1e-3 {
			t.Errorf("row %d (%v MHz, %d threads): %.3f W, want about %.3f", i, *row.RequestedMHz, row.Threads, *row.PowerW, want)
		}
		if wantEff := result.MIPSPerWatt(row.MIPS, row.PowerW); row.MIPSPerW == nil || *row.MIPSPerW != *wantEff {
			t.Errorf("row %d MIPS/W %v, want %v", i, row.MIPSPerW, *wantEff)
		}
		p := r.Phases[i]
		if p.PowerW == nil || *p.PowerW != *row.PowerW || p.EnergyWh == nil || *p.EnergyWh <= 0 {
			t.Errorf("phase %d power %v energy %v, row %v", i, p.PowerW, p.EnergyWh, *row.PowerW)
		}
	}
	// The multi-threaded rows draw more at the highest clock than at the
	// lowest.
	if *rows[1].PowerW <= *rows[5].PowerW {
		t.Errorf("1000 MHz on 4 threads %.3f W, not above 600 MHz %.3f W", *rows[1].PowerW, *rows[5].PowerW)
	}
}
