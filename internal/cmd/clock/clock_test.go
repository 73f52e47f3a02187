package clock

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/clockcheck"
	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/interrupt"
	machine "boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/oppsel"
	"boardbench/internal/iostreams"
	probeclock "boardbench/internal/probe/clock"
	"boardbench/internal/session"
	"boardbench/internal/stats"
	"boardbench/internal/testutil/cmdtest"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/testutil/wait"
	"boardbench/internal/tune"
)

// board writes a fixture of a big.LITTLE board: policy0 for cpu0-3
// (Cortex-A55, up to 1800 MHz) and policy4 for cpu4-5 (Cortex-A76, up to
// 2400 MHz), with cpuN/cpufreq links, and a recorded vcgencmd when
// firmware is set.
func board(t *testing.T, firmware string) string {
	t.Helper()
	root := t.TempDir()
	fixture.CPUFreq(t, root,
		fixture.Policy{ID: 0, CPUs: []int{0, 1, 2, 3}, Attrs: map[string]string{
			"scaling_governor":              "schedutil\n",
			"scaling_min_freq":              "408000\n",
			"scaling_max_freq":              "1800000\n",
			"scaling_cur_freq":              "1800000\n",
			"cpuinfo_cur_freq":              "1800000\n",
			"related_cpus":                  "0 1 2 3\n",
			"scaling_available_frequencies": "408000 1008000 1800000 \n",
		}},
		fixture.Policy{ID: 4, CPUs: []int{4, 5}, Attrs: map[string]string{
			"scaling_governor":              "schedutil\n",
			"scaling_min_freq":              "408000\n",
			"scaling_max_freq":              "2400000\n",
			"scaling_cur_freq":              "2400000\n",
			"related_cpus":                  "4 5\n",
			"scaling_available_frequencies": "408000 1200000 2400000\n",
		}},
	)
	if firmware != "" {
		fixture.Commands(t, root, map[string]string{host.CommandKey("vcgencmd", "measure_clock", "arm"): firmware})
	}
	return root
}

func intp(v int) *int { return &v }

func inventory() cpu.Info {
	return cpu.Info{Clusters: []cpu.Cluster{
		{ID: 0, CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A55", Policy: intp(0)},
		{ID: 1, CPUs: []int{4, 5}, Core: "Cortex-A76", Policy: intp(4)},
	}}
}

// fakeBoard stands in for the CPU: the clock of a CPU is its policy's
// scaling_max_freq times a factor per policy, and the "kernel" reports the
// limit as the current clock. CPUs in offline cannot be pinned; onCall runs
// before each measurement.
type fakeBoard struct {
	root    string
	factor  map[int]float64 // policy → measured/reported
	offline map[int]bool
	calls   []int
	onCall  func(ctx context.Context, n int)
	// busy marks every sample as disturbed by another task.
	busy bool
}

func (b *fakeBoard) measure(ctx context.Context, id int, opt probeclock.Options) (probeclock.Result, error) {
	b.calls = append(b.calls, id)
	if b.onCall != nil {
		b.onCall(ctx, len(b.calls))
	}
	if err := ctx.Err(); err != nil {
		return probeclock.Result{}, err
	}
	if b.offline[id] {
		return probeclock.Result{}, fmt.Errorf("cpu %d: cannot pin: invalid argument", id)
	}
	policy := 0
	if id >= 4 {
		policy = 4
	}
	dir := filepath.Join(b.root, fmt.Sprintf("sys/devices/system/cpu/cpufreq/policy%d", policy))
	raw, err := os.ReadFile(filepath.Join(dir, "scaling_max_freq"))
	if err != nil {
		return probeclock.Result{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, "scaling_cur_freq"), raw, 0o644); err != nil {
		return probeclock.Result{}, err
	}
	khz, _ := strconv.ParseFloat(strings.TrimSpace(string(raw)), 64)
	mhz := khz / 1000 * b.factor[policy]
	return probeclock.Result{
		CPU: id, MHz: mhz, Summary: stats.Summarize([]float64{mhz - 1, mhz, mhz + 1}),
		Method: "asm-test", Certain: true, Iterations: 1000,
		SampleDurations: []time.Duration{15 * time.Millisecond, 15 * time.Millisecond, 15 * time.Millisecond},
		Disturbed:       []float64{mhz / 2}, AllDisturbed: b.busy,
	}, nil
}

// run measures through the session engine as the command does (after its
// preflight) and returns the report and the measurement's own error (an
// interruption as *interrupt.Error); the verdict is left to other tests.
func run(ctx context.Context, r *clockcheck.Command) (*Report, error) {
	if err := r.Preflight(); err != nil {
		return nil, err
	}
	info := machine.Collect(r.Host, machine.Options{Redact: true})
	info.CPU = r.CPU
	rep, out, err := r.Run(ctx, session.Config{Info: info})
	var ie *interrupt.Error
	var nv *session.NotValidError
	switch {
	case errors.As(err, &ie), out == nil:
		return rep, err
	case errors.As(err, &nv):
		return rep, nil
	}
	return rep, err
}

func newRunner(t *testing.T, root string, b *fakeBoard) *clockcheck.Command {
	t.Helper()
	h := fixture.Open(t, root)
	b.root = root
	return &clockcheck.Command{Host: h, CPU: inventory(), Probe: b.measure, Allowed: []int{0, 1, 2, 3, 4, 5}}
}

func TestRunMeasuresOneCPUPerCluster(t *testing.T) {
	root := board(t, "frequency(48)=1800398464\n")
	b := &fakeBoard{factor: map[int]float64{0: 0.99, 4: 0.95}}
	r := newRunner(t, root, b)
	rep, err := run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if c := rep.Clusters[0]; c.FirmwareMHz != nil || !hasNote(rep, "firmware ARM clock", "several clusters") {
		t.Errorf("firmware clock compared on a big.LITTLE machine: %v", fmtp(c.FirmwareMHz))
	}
	// A Raspberry Pi has one cluster; the firmware's clock is compared.
	r.CPU.Clusters = r.CPU.Clusters[:1]
	b.calls = nil
	rep, err = run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Clusters) != 1 {
		t.Fatalf("%d clusters", len(rep.Clusters))
	}
	little := rep.Clusters[0]
	r.CPU = inventory()
	b.calls = nil
	rep, err = run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b.calls, []int{0, 4}) {
		t.Errorf("measured CPUs %v, want [0 4]", b.calls)
	}
	big := rep.Clusters[1]
	check := func(name string, got *float64, want float64) {
		t.Helper()
		if got == nil || *got != want {
			t.Errorf("%s = %v, want %v", name, fmtp(got), want)
		}
	}
	check("little measured", little.MeasuredMHz, 1782)
	check("little reported", little.ReportedMHz, 1800)
	check("little cpuinfo_cur", little.CPUInfoCurMHz, 1800)
	check("little deviation", little.DeviationPct, -1)
	check("little firmware", little.FirmwareMHz, 1800.398464)
	check("big measured", big.MeasuredMHz, 2280)
	check("big deviation", big.DeviationPct, -5)
	if little.Flagged || !big.Flagged {
		t.Errorf("flagged little=%v big=%v, want false, true", little.Flagged, big.Flagged)
	}
	if little.ReportedSource != "scaling_cur_freq" || little.Method != "asm-test" || !little.Certain {
		t.Errorf("little = %+v", little)
	}
	if little.CPU == nil || *little.CPU != 0 || big.CPU == nil || *big.CPU != 4 {
		t.Errorf("measured on %v and %v", fmtip(little.CPU), fmtip(big.CPU))
	}
	if !reflect.DeepEqual(big.DisturbedSamples, []float64{1140}) {
		t.Errorf("disturbed samples %v, want [1140]", big.DisturbedSamples)
	}
	if len(little.Samples) != 3 || little.SampleMs == nil || *little.SampleMs != 15 {
		t.Errorf("samples %v, sample_ms %v", little.Samples, fmtp(little.SampleMs))
	}
	if !hasNote(rep, "cpu4 cpuinfo_cur_freq", "not exposed") {
		t.Errorf("notes %v lack cpu4 cpuinfo_cur_freq", rep.Notes)
	}
	if little.OPPs != nil {
		t.Errorf("OPPs without --opps: %v", little.OPPs)
	}
}

func fmtp(p *float64) string {
	if p == nil {
		return "nil"
	}
	return strconv.FormatFloat(*p, 'f', -1, 64)
}

func fmtip(p *int) string {
	if p == nil {
		return "nil"
	}
	return strconv.Itoa(*p)
}

func hasNote(rep *Report, item, reason string) bool {
	for _, n := range rep.Notes {
		if n.Item == item && strings.Contains(n.Reason, reason) {
			return true
		}
	}
	return false
}

func TestRunNotesAllSamplesDisturbed(t *testing.T) {
	root := board(t, "")
	b := &fakeBoard{factor: map[int]float64{0: 1, 4: 1}, busy: true}
	r := newRunner(t, root, b)
	rep, err := run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if !hasNote(rep, "cpu0", "reads low") || len(rep.Clusters[0].DisturbedSamples) != 3 {
		t.Errorf("notes %v, disturbed %v", rep.Notes, rep.Clusters[0].DisturbedSamples)
	}
}

func TestRunSkipsOfflineCPUs(t *testing.T) {
	root := board(t, "")
	b := &fakeBoard{factor: map[int]float64{0: 1, 4: 1}, offline: map[int]bool{0: true, 4: true, 5: true}}
	r := newRunner(t, root, b)
	rep, err := run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	little, big := rep.Clusters[0], rep.Clusters[1]
	if little.CPU == nil || *little.CPU != 1 || little.MeasuredMHz == nil {
		t.Errorf("little measured on %v, want cpu1", fmtip(little.CPU))
	}
	if big.CPU != nil || big.MeasuredMHz != nil || big.Error == "" {
		t.Errorf("big = %+v, want an error and no clock", big)
	}
	if !hasNote(rep, "cpu0", "cannot pin") {
		t.Errorf("notes %v lack cpu0", rep.Notes)
	}
	if little.FirmwareMHz != nil {
		t.Error("firmware clock without vcgencmd")
	}

	b.offline = map[int]bool{0: true, 1: true, 2: true, 3: true, 4: true, 5: true}
	if _, err := run(context.Background(), r); err == nil {
		t.Error("run with every CPU offline succeeded")
	}
}

func TestRunCPUListAndUnknownClusters(t *testing.T) {
	root := board(t, "")
	b := &fakeBoard{factor: map[int]float64{0: 1, 4: 1}}
	r := newRunner(t, root, b)
	r.CPUs = []int{2, 5}
	rep, err := run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b.calls, []int{2, 5}) {
		t.Errorf("measured %v, want [2 5]", b.calls)
	}
	if c := rep.Clusters[1]; c.Cluster == nil || *c.Cluster != 1 || c.Core != "Cortex-A76" {
		t.Errorf("cpu5 entry = %+v", c)
	}

	// Without an inventory: the first allowed CPU stands for all.
	b.calls = nil
	r.CPUs, r.CPU = nil, cpu.Info{}
	rep, err = run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Clusters) != 1 || rep.Clusters[0].Cluster != nil || !hasNote(rep, "CPU clusters", "not identified") {
		t.Errorf("report without inventory = %+v", rep)
	}
}

func TestOPPWalkRestoresSettings(t *testing.T) {
	t.Setenv(tune.StateDirEnv, t.TempDir())
	root := board(t, "")
	b := &fakeBoard{factor: map[int]float64{0: 0.978, 4: 1}}
	r := newRunner(t, root, b)
	before := fixture.Snapshot(t, root)
	r.OPPs, r.IsRoot = true, true
	rep, err := run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range rep.Clusters {
		for _, o := range c.OPPs {
			got = append(got, fmt.Sprintf("%.0f:%s:%s", o.RequestedMHz, fmtp(o.MeasuredMHz), fmtp(o.DeviationPct)))
		}
	}
	want := []string{"1800:1760.4:-2.2", "1008:985.8:-2.2", "408:399:-2.21", "2400:2400:0", "1200:1200:0", "408:408:0"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("OPPs = %v, want %v", got, want)
	}
	if !rep.Clusters[0].OPPs[0].Flagged || rep.Clusters[1].OPPs[0].Flagged {
		t.Error("flags wrong: -2.2% must be flagged, 0% not")
	}
	// Everything but scaling_cur_freq (written by the fake "kernel") is
	// back as it was.
	after := fixture.Snapshot(t, root)
	for p := range after {
		if strings.HasSuffix(p, "scaling_cur_freq") {
			delete(after, p)
			delete(before, p)
		}
	}
	if !reflect.DeepEqual(after, before) {
		t.Errorf("after the walk:\n%v\nwant\n%v", after, before)
	}
	var out bytes.Buffer
	renderText(&out, rep, false)
	for _, line := range []string{"Cpufreq OPP: 1800  Measured: 1760 (-2.2%) !", "Cpufreq OPP:  408  Measured:  408 (+0.0%)"} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("text lacks %q:\n%s", line, out.String())
		}
	}
}

// TestOPPWalkUsesTheCommandsLock: clock --opps takes the root's tuning
// lock before it measures and hands it to the walk's guard; the walk does
// not refuse as busy on its own lock, and the lock is released (its file
// removed) when the walk has restored.
func TestOPPWalkUsesTheCommandsLock(t *testing.T) {
	state := t.TempDir()
	t.Setenv(tune.StateDirEnv, state)
	root := board(t, "")
	r := newRunner(t, root, &fakeBoard{factor: map[int]float64{0: 1, 4: 1}})
	r.OPPs, r.IsRoot = true, true
	lock, err := tune.AcquireRootLock(context.Background(), root, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	r.Lock = lock
	rep, err := run(context.Background(), r)
	if err != nil {
		t.Fatalf("OPP walk under the command's own lock: %v", err)
	}
	if len(rep.Clusters) == 0 || len(rep.Clusters[0].OPPs) == 0 {
		t.Fatalf("no OPP measured: %+v", rep)
	}
	if left, _ := os.ReadDir(state); len(left) != 0 {
		t.Errorf("left in the state directory after the walk: %v", left)
	}
}

// TestOPPWalkInterruptedBySignal stops the OPP walk with each signal that
// ends a session: the cpufreq files are byte-identical afterwards and the
// state file, on disk during the walk, is gone.
func TestOPPWalkInterruptedBySignal(t *testing.T) {
	for _, tt := range []struct {
		sig  syscall.Signal
		name string
	}{
		{syscall.SIGINT, "SIGINT"}, {syscall.SIGTERM, "SIGTERM"}, {syscall.SIGHUP, "SIGHUP"}, {syscall.SIGQUIT, "SIGQUIT"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stateDir := t.TempDir()
			t.Setenv(tune.StateDirEnv, stateDir)
			root := board(t, "")
			before := fixture.Snapshot(t, root)
			b := &fakeBoard{factor: map[int]float64{0: 1, 4: 1}}
			var stateFiles []string
			// Calls 1 and 2 measure the clusters as they are; 3 and on walk.
			b.onCall = func(ctx context.Context, n int) {
				if n == 4 {
					stateFiles, _ = filepath.Glob(filepath.Join(stateDir, "tune-*.json"))
					if err := syscall.Kill(os.Getpid(), tt.sig); err != nil {
						t.Error(err)
					}
					// The measurement lasts until the guard has restored
					// and stopped it (an event, however slow the machine).
					select {
					case <-ctx.Done():
					case <-time.After(wait.HangGuard):
						t.Error("hung: the signal did not stop the measurement")
					}
				}
			}
			r := newRunner(t, root, b)
			r.OPPs, r.IsRoot = true, true
			ctx, stop := interrupt.NotifyContext(context.Background())
			defer stop()
			rep, err := run(ctx, r)
			var ie *interrupt.Error
			if !errors.As(err, &ie) || cmdutil.ExitCode(err) != 130 {
				t.Fatalf("run = %v, want an interruption (exit status 130)", err)
			}
			if ie.Signal != tt.name {
				t.Errorf("signal %q, want %q", ie.Signal, tt.name)
			}
			if rep == nil || len(rep.Clusters[0].OPPs) == 0 || !hasNote(rep, "OPP walk", "interrupted") {
				t.Fatalf("partial report = %+v", rep)
			}
			if len(b.calls) > 5 {
				t.Errorf("walk went on after %s: %d measurements", tt.name, len(b.calls))
			}
			after := fixture.Snapshot(t, root)
			for p := range after {
				if strings.HasSuffix(p, "scaling_cur_freq") {
					delete(after, p)
					delete(before, p)
				}
			}
			if !reflect.DeepEqual(after, before) {
				t.Errorf("after %s:\n%v\nwant\n%v", tt.name, after, before)
			}
			if len(stateFiles) != 1 {
				t.Errorf("state files during the walk: %v, want one", stateFiles)
			}
			if left, _ := filepath.Glob(filepath.Join(stateDir, "*")); len(left) != 0 {
				t.Errorf("state directory after %s: %v, want empty", tt.name, left)
			}
		})
	}
}

func TestOPPPreflight(t *testing.T) {
	root := board(t, "")
	b := &fakeBoard{factor: map[int]float64{0: 1, 4: 1}}
	r := newRunner(t, root, b)
	r.OPPs = true
	if _, err := run(context.Background(), r); err == nil || !strings.Contains(err.Error(), "needs root") {
		t.Errorf("--opps without root: %v", err)
	}
	r.IsRoot = true
	for _, p := range []string{"policy0", "policy4"} {
		os.Remove(filepath.Join(root, "sys/devices/system/cpu/cpufreq", p, "scaling_available_frequencies"))
	}
	if _, err := run(context.Background(), r); err == nil || !strings.Contains(err.Error(), "scaling_available_frequencies") {
		t.Errorf("--opps without available clocks: %v", err)
	}
	if len(b.calls) != 0 {
		t.Errorf("measured %v before refusing --opps", b.calls)
	}
}

func TestCPUList(t *testing.T) {
	tests := []struct {
		in      string
		want    []int
		wantErr bool
		format  string
	}{
		{"0", []int{0}, false, "0"},
		{"4-7,0", []int{0, 4, 5, 6, 7}, false, "0,4-7"},
		{"1,1,2", []int{1, 2}, false, "1-2"},
		{"", nil, true, ""},
		{"3-1", nil, true, ""},
		{"a", nil, true, ""},
		{"-1", nil, true, ""},
		{"0-999999", nil, true, ""},
	}
	for _, tt := range tests {
		got, err := cpu.ParseSelection(tt.in, []int{0, 1, 2, 3, 4, 5, 6, 7})
		if (err != nil) != tt.wantErr || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseCPUList(%q) = %v, %v", tt.in, got, err)
		}
		if err == nil {
			if f := formatCPUList(got); f != tt.format {
				t.Errorf("formatCPUList(%v) = %q, want %q", got, f, tt.format)
			}
		}
	}
}

func TestCommandRefusesBadInput(t *testing.T) {
	tests := []struct {
		args     []string
		wantCode int
		wantMsg  string
	}{
		{[]string{"--root", t.TempDir()}, 2, "live machine"},
		{[]string{"--samples", "0"}, 2, "--samples"},
		{[]string{"--cpu", "x"}, 2, "--cpu"},
		{[]string{"--cpu", "99"}, 2, "cpu99 is not available"},
		{[]string{"--cpu", "0,,1"}, 2, "empty element"},
		{[]string{"extra"}, 2, "unknown command"},
		{[]string{"--bogus"}, 2, "unknown flag"},
		{[]string{"--samples", "many"}, 2, "--samples"},
	}
	for _, tt := range tests {
		ios, stdout, _ := iostreams.Test()
		cmd := NewCmd(cmdutil.NewFactory(ios), nil)
		cmd.SetFlagErrorFunc(cmdutil.FlagErrorFunc) // as under the root command
		cmd.SetArgs(tt.args)
		cmd.SetOut(stdout)
		cmd.SetErr(&bytes.Buffer{})
		cmd.SilenceUsage, cmd.SilenceErrors = true, true
		err := cmd.Execute()
		if err == nil || cmdutil.ExitCode(err) != tt.wantCode || !strings.Contains(err.Error(), tt.wantMsg) {
			t.Errorf("clock %v: %v (exit %d), want exit %d with %q", tt.args, err, cmdutil.ExitCode(err), tt.wantCode, tt.wantMsg)
		}
	}
}

func TestJSONFieldNames(t *testing.T) {
	root := board(t, "frequency(48)=1800000000")
	b := &fakeBoard{factor: map[int]float64{0: 1, 4: 1}}
	r := newRunner(t, root, b)
	rep, err := run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	c := doc["clusters"].([]any)[0].(map[string]any)
	for _, k := range []string{"cluster", "cpus", "cpu", "core", "policy", "measured_mhz", "samples", "spread_pct",
		"sample_ms", "disturbed_samples", "method", "certain", "reported_mhz", "reported_source", "scaling_cur_mhz",
		"cpuinfo_cur_mhz", "firmware_mhz", "deviation_pct", "firmware_deviation_pct", "flagged"} {
		if _, ok := c[k]; !ok {
			t.Errorf("cluster lacks %q: %v", k, c)
		}
	}
	if doc["schema_version"] == "" || doc["notes"] == nil {
		t.Errorf("document = %v", doc)
	}
}

// TestDisturbedClockNotShown: a cluster whose every sample was disturbed
// shows "disturbed", never what the samples read, as its clock.
func TestDisturbedClockNotShown(t *testing.T) {
	mhz := 544.0
	c := ClusterClock{Method: "add chain", Certain: true}
	c.CPUs, c.CPU, c.MeasuredMHz = []int{0, 1}, intp(0), &mhz
	c.Samples = []float64{544, 540, 551}
	c.DisturbedSamples = []float64{544, 540, 551}
	var out bytes.Buffer
	renderText(&out, &Report{Clusters: []ClusterClock{c}}, false)
	if strings.Contains(out.String(), "544") || !strings.Contains(out.String(), "disturbed") {
		t.Errorf("a disturbed reading shown as the clock:\n%s", out.String())
	}
}

// TestCommandPrintsFiguresAndVerdict runs the command on this machine (a
// few ms per cluster): the table and then the verdict on standard output;
// the exit status follows the verdict (3 when it is not valid, as on a
// busy machine), never the machine's speed.
func TestCommandPrintsFiguresAndVerdict(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		ios, stdout, _ := iostreams.Test()
		cmd := NewCmd(cmdutil.NewFactory(ios), nil)
		args := []string{"--samples", "1", "--cpu", "0"}
		if asJSON {
			args = append(args, "--json")
		}
		err := cmdtest.Execute(cmd, args...)
		if code := cmdutil.ExitCode(err); code != 0 && code != 3 {
			t.Fatalf("clock %v: %v (exit %d)", args, err, code)
		}
		if !asJSON {
			out := stdout.String()
			if i, j := strings.Index(out, "Clockspeeds"), strings.Index(out, "Verdict: "); i < 0 || j < i {
				t.Errorf("stdout lacks the table and then the verdict:\n%s", out)
			}
			continue
		}
		var doc struct {
			Clusters []json.RawMessage `json:"clusters"`
			Valid    bool              `json:"valid"`
			Verdict  string            `json:"verdict"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil || len(doc.Clusters) != 1 || doc.Verdict == "" {
			t.Errorf("JSON %v: %s", err, stdout.String())
		}
		if (cmdutil.ExitCode(err) == 3) == doc.Valid {
			t.Errorf("exit %d with valid=%v", cmdutil.ExitCode(err), doc.Valid)
		}
	}
}

// TestNewCmdOptions: the flags reach the run function as Options, without
// measuring anything.
func TestNewCmdOptions(t *testing.T) {
	tests := []struct {
		args []string
		want Options
	}{
		{nil, Options{Root: "/", Samples: probeclock.DefaultSamples}},
		{[]string{"--opps", "--wait", "--cpu", "0,4", "--samples", "7", "-o", "c.json", "--json"},
			Options{Root: "/", OPPs: true, Wait: true, CPUList: "0,4", CPUListSet: true, Samples: 7, Output: "c.json", JSON: true}},
	}
	for _, tt := range tests {
		ios, _, _ := iostreams.Test()
		var got *Options
		cmd := NewCmd(cmdutil.NewFactory(ios), func(o *Options) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		o := *got
		o.Factory, o.Ctx = nil, nil
		if o != tt.want {
			t.Errorf("%q: options %+v, want %+v", tt.args, o, tt.want)
		}
	}
}

// TestRenderOPPVoltages: with a boot-time selection whose device-tree table
// has one entry per clock, each OPP line carries its voltage; a clock with
// two entries (tables for different chips) gets none.
func TestRenderOPPVoltages(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	sel := int64(7)
	cpu := 4
	rep := &Report{Clusters: []ClusterClock{{}}}
	c := &rep.Clusters[0]
	c.CPU, c.CPUs = &cpu, []int{4, 5}
	c.OPPSelection = &oppsel.Device{Driver: "cpu", Device: "cpu4", PVTM: func() *int64 { x := int64(1785); return &x }(), PVTMVoltSel: &sel,
		OPPs: []oppsel.OPPVoltage{{MHz: 2400, MV: v(1000), Property: "opp-microvolt-L7"}, {MHz: 408, MV: v(675)}, {MHz: 408, MV: v(750)}}}
	m := func(x float64) clockcheck.OPPClock {
		o := clockcheck.OPPClock{}
		o.RequestedMHz, o.MeasuredMHz = x, v(x)
		return o
	}
	c.OPPs = []OPPClock{m(2400), m(408)}
	var out bytes.Buffer
	renderText(&out, rep, false)
	for _, line := range []string{"boot voltage selection: pvtm 1785 → volt-sel 7", "Cpufreq OPP: 2400 (1000 mV)  Measured: 2400", "Cpufreq OPP:  408  Measured:  408"} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("text lacks %q:\n%s", line, out.String())
		}
	}
}
