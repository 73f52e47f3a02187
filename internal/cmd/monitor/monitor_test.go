package monitor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/check"
	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/memory"
	"boardbench/internal/inventory/rpi"
	"boardbench/internal/inventory/sensors"
	"boardbench/internal/inventory/soc"
	"boardbench/internal/iostreams"
	"boardbench/internal/monitor"
	"boardbench/internal/result"
)

// board returns the path of a fixture board of the repository.
func board(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "..", "testdata", "boards", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("fixture board %s not found: %v", name, err)
	}
	return p
}

// execute runs the command with args under ctx and returns its error and
// output, failing the test when it does not finish within 10 s.
func execute(t *testing.T, ctx context.Context, args ...string) (err error, stdout, stderr string) {
	t.Helper()
	ios, out, errOut := iostreams.Test()
	cmd := NewCmd(cmdutil.NewFactory(ios))
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetArgs(args)
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("boardbench monitor %s did not finish within 10 s", strings.Join(args, " "))
	}
	return err, out.String(), errOut.String()
}

func TestParseInterval(t *testing.T) {
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"2", 2 * time.Second, true},
		{"0.5", 500 * time.Millisecond, true},
		{"200ms", 200 * time.Millisecond, true},
		{" 1m ", time.Minute, true},
		{"0", 0, false},
		{"0.05", 0, false},
		{"-1", 0, false},
		{"NaN", 0, false},
		{"1e30", 0, false},
		{"2h", 0, false},
		{"fast", 0, false},
		{"", 0, false},
	}
	for _, c := range cases {
		got, err := parseInterval(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseInterval(%q) = %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	cases := [][]string{
		{"--cpus", "0"},
		{"--output", "x.json"},
		{"--"},
		{"stray"},
		{"stray", "--", "true"},
		{"--interval", "0", "--count", "1"},
		{"--count", "-1"},
		{"--count", "2", "--", "true"},
		{"--json", "--", "true"},
		{"--root", "/tmp", "--", "true"},
		{"--cpus", "x", "--", "true"},
		{"--cpus", "65000", "--", "true"},
		{"--cpus", "", "--", "true"},
	}
	for _, args := range cases {
		err, _, _ := execute(t, context.Background(), args...)
		if code := cmdutil.ExitCode(err); code != 2 {
			t.Errorf("monitor %q: exit %d (%v), want 2", args, code, err)
		}
	}
}

func TestLiveJSONOnFixture(t *testing.T) {
	root := board(t, "rpi4b")
	err, out, _ := execute(t, context.Background(), "--root", root, "--count", "2", "--json", "--interval", "0.1")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("want a config line and 2 samples, got %d lines:\n%s", len(lines), out)
	}
	var first struct {
		Config *Config `json:"config"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first.Config == nil {
		t.Fatalf("config line %q: %v", lines[0], err)
	}
	c := first.Config
	if len(c.Policies) != 1 || c.Policies[0].Label != "cpu0-3" || !c.Firmware || c.TempLabel == "" || c.IntervalS != 0.1 {
		t.Errorf("config = %+v", c)
	}
	if len(c.Clusters) != 1 || c.Clusters[0].Column != "cpu0-3" || c.Clusters[0].MaxMHz == nil || *c.Clusters[0].MaxMHz != 1500 {
		t.Errorf("clusters = %+v", c.Clusters)
	}
	for _, l := range lines[1:] {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(l), &raw); err != nil {
			t.Fatalf("sample line %q: %v", l, err)
		}
		if _, ok := raw["time"]; !ok {
			t.Errorf("sample line lacks time: %s", l)
		}
		var s monitor.Sample
		if err := json.Unmarshal([]byte(l), &s); err != nil {
			t.Fatal(err)
		}
		if s.Time.IsZero() || len(s.ClockMHz) != 1 || s.ClockMHz[0] == nil || *s.ClockMHz[0] != 600 {
			t.Errorf("sample %s: clock %v", l, s.ClockMHz)
		}
		if s.FirmwareMHz == nil || *s.FirmwareMHz != 600.117184 || s.CoreVolts == nil || *s.CoreVolts != 0.85 {
			t.Errorf("sample %s: firmware values missing", l)
		}
	}
}

func TestLiveTextOnFixture(t *testing.T) {
	root := board(t, "rock5b")
	err, out, _ := execute(t, context.Background(), "--root", root, "--count", "2", "--interval", "100ms")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Rockchip RK3588", "cpu4-5", "Cortex-A76", "policy4", "soc-thermal", "none exposed"} {
		if !strings.Contains(out, want) {
			t.Errorf("header lacks %q:\n%s", want, out)
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var header, samples int
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "Time "):
			header++
		case len(l) > 8 && l[2] == ':' && l[5] == ':':
			samples++
			if !strings.Contains(l, "MHz") || !strings.Contains(l, "°C") {
				t.Errorf("sample line without clock or temperature: %q", l)
			}
		}
	}
	if header != 1 || samples != 2 {
		t.Errorf("%d header and %d sample lines, want 1 and 2:\n%s", header, samples, out)
	}
}

func TestLiveStopsOnCancel(t *testing.T) {
	root := board(t, "rpi4b")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	err, out, _ := execute(t, ctx, "--root", root, "--interval", "0.1", "--json")
	if err != nil {
		t.Fatalf("Ctrl-C is the normal end of the live view, got %v", err)
	}
	if n := strings.Count(out, "\n"); n < 1 {
		t.Errorf("no config line: %q", out)
	}
}

func needShell(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on this machine")
	}
}

func TestCommandExitStatus(t *testing.T) {
	needShell(t)
	path := filepath.Join(t.TempDir(), "r.json")
	err, out, errOut := execute(t, context.Background(), "--interval", "0.2", "--output", path, "--", "sh", "-c", "echo hi; sleep 0.5; exit 3")
	var es *ExitStatusError
	if !errors.As(err, &es) || es.ExitCode() != 3 {
		t.Fatalf("error = %v, want exit status 3", err)
	}
	if out != "hi\n" {
		t.Errorf("stdout = %q, want the command's output passed through", out)
	}
	r, err := result.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != result.StatusComplete || r.Command != "monitor" || r.FinishedAt == nil || r.Info == nil {
		t.Errorf("result status %q command %q finished %v", r.Status, r.Command, r.FinishedAt)
	}
	if len(r.Phases) != 1 {
		t.Fatalf("%d phases", len(r.Phases))
	}
	p := r.Phases[0]
	if p.Name != PhaseName || p.Status != result.PhaseFailed || p.ExitStatus == nil || *p.ExitStatus != 3 {
		t.Errorf("phase %q status %q exit %v", p.Name, p.Status, p.ExitStatus)
	}
	if p.Title != `sh -c 'echo hi; sleep 0.5; exit 3'` || p.RawOutput != "hi\n" {
		t.Errorf("title %q raw output %q", p.Title, p.RawOutput)
	}
	if len(p.Samples) < 2 {
		t.Errorf("%d samples, want ≥ 2", len(p.Samples))
	}
	if r.Summary.Verdict == "" || r.Findings == nil {
		t.Errorf("summary %+v findings %v", r.Summary, r.Findings)
	}
	for _, want := range []string{"exited with status 3", "Verdict:", path} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestCommandSuccessPinned(t *testing.T) {
	allowed, err := host.AllowedCPUs()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("cat"); err != nil {
		t.Skip("no cat")
	}
	last := allowed[len(allowed)-1]
	path := filepath.Join(t.TempDir(), "r.json")
	err, out, _ := execute(t, context.Background(), "--interval", "0.2", "-o", path, "--cpus", strconv.Itoa(last), "--", "cat", "/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("Cpus_allowed_list:\t%d\n", last); !strings.Contains(out, want) {
		t.Errorf("child not pinned to cpu%d:\n%s", last, out)
	}
	r, err := result.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p := r.Phases[0]
	if p.Status != result.PhaseOK || p.ExitStatus == nil || *p.ExitStatus != 0 || !reflect.DeepEqual(p.CPUs, []int{last}) {
		t.Errorf("phase status %q exit %v cpus %v", p.Status, p.ExitStatus, p.CPUs)
	}
	if r.Options["cpus"] != strconv.Itoa(last) {
		t.Errorf("options = %v", r.Options)
	}
}

func TestCommandInterrupted(t *testing.T) {
	needShell(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	pidFile := filepath.Join(dir, "pid")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if data, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(data), "\n") {
				time.Sleep(300 * time.Millisecond) // a sample or two while it runs
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	err, _, _ := execute(t, ctx, "--interval", "0.2", "-o", path, "--", "sh", "-c", `echo $$ > "$0"; exec sleep 30`, pidFile)
	if code := cmdutil.ExitCode(err); code != 130 {
		t.Fatalf("exit %d (%v), want 130", code, err)
	}
	r, err := result.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != result.StatusInterrupted || r.Phases[0].Status != result.PhaseInterrupted || len(r.Phases[0].Samples) < 2 {
		t.Errorf("status %q phase %q with %d samples", r.Status, r.Phases[0].Status, len(r.Phases[0].Samples))
	}
	data, _ := os.ReadFile(pidFile)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("pid file %q", data)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("child %d still exists after the command returned (kill 0: %v)", pid, err)
	}
}

func TestCommandNotFound(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	err, _, _ := execute(t, context.Background(), "-o", path, "--", "boardbench-no-such-program")
	var es *ExitStatusError
	if !errors.As(err, &es) || es.ExitCode() != 127 || !strings.Contains(err.Error(), "command not found") {
		t.Fatalf("error = %v, want exit status 127", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("a result was written for a command that does not exist")
	}
}

func ip(v int) *int { return &v }

func fp(v float64) *float64 { return &v }

func bp(v bool) *bool { return &v }

func TestFactsFor(t *testing.T) {
	in := &inventory.Info{
		CPU: cpu.Info{
			CPUs:     []cpu.CPU{{ID: 0, Online: bp(true)}, {ID: 1, Online: bp(true)}, {ID: 2, Online: bp(false)}, {ID: 3}},
			Policies: []cpu.Policy{{ID: 0, Governor: "ondemand"}, {ID: 2, Governor: "performance"}, {ID: 4}},
		},
		Board: soc.Board{RaspberryPi: &rpi.Revision{Model: "Raspberry Pi 3 Model B+"}},
		Memory: memory.Info{
			Zswap: &memory.Zswap{Enabled: bp(true)},
			Swaps: []memory.Swap{{Path: "/dev/zram0", Kind: "zram"}},
		},
		Sensors: sensors.Info{
			SoCTemp: &sensors.SoCTemp{Source: sensors.Source{Kind: sensors.KindThermalZone, Path: "/sys/class/thermal/thermal_zone1/temp"}},
			ThermalZones: []sensors.ThermalZone{
				{Name: "thermal_zone0", Path: "/sys/class/thermal/thermal_zone0/temp", TripPoints: []sensors.TripPoint{{Type: "passive", TempC: fp(50)}}},
				{Name: "thermal_zone1", Path: "/sys/class/thermal/thermal_zone1/temp", TripPoints: []sensors.TripPoint{
					{Type: "passive", TempC: fp(80)}, {Type: "hot", TempC: nil}, {Type: "critical", TempC: fp(90)},
				}},
			},
		},
		RaspberryPi: &rpi.Firmware{Config: map[string]int64{"temp_soft_limit": 60}},
	}
	f := factsFor(in, nil, nil)
	if f.NCPU != 3 {
		t.Errorf("NCPU = %d, want 3 (online or unknown)", f.NCPU)
	}
	if want := map[int]string{0: "ondemand", 2: "performance"}; !reflect.DeepEqual(f.Governors, want) {
		t.Errorf("governors = %v", f.Governors)
	}
	if !f.ZswapEnabled || !f.ZramSwapActive || f.RPiModel != "Raspberry Pi 3 Model B+" || f.TempSoftLimit == nil || *f.TempSoftLimit != 60 {
		t.Errorf("facts = %+v", f)
	}
	if want := []check.Trip{{Type: "passive", C: 80}, {Type: "critical", C: 90}}; !reflect.DeepEqual(f.Trips, want) {
		t.Errorf("trips = %+v, want those of the chosen zone", f.Trips)
	}
	f = factsFor(in, []int{0, 1}, []int{0})
	if f.NCPU != 2 || !reflect.DeepEqual(f.OnlineAfter, []int{0}) {
		t.Errorf("NCPU %d online after %v", f.NCPU, f.OnlineAfter)
	}
	// The facts make the rules fire: a CPU went offline, zswap on zram.
	res := result.New("monitor", in, nil)
	ids := map[string]bool{}
	for _, fd := range check.Run(res, f) {
		ids[fd.ID] = true
	}
	for _, id := range []string{"cpu_offline", "zswap_with_zram", "rpi_temp_soft_limit", "governor"} {
		if !ids[id] {
			t.Errorf("finding %s missing; got %v", id, ids)
		}
	}
}

func TestDefaultOutput(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "proc/sys/kernel"), 0o755)
	os.WriteFile(filepath.Join(root, "proc/sys/kernel/hostname"), []byte("my board/1\n"), 0o644)
	h, err := host.New(root)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	in := &inventory.Info{SoC: soc.SoC{Guess: "Rockchip RK3588"}}
	if got := defaultOutput(h, in, at); got != "boardbench-monitor-my-board-1-20250304-050607.json" {
		t.Errorf("with host name: %q", got)
	}
	empty, _ := host.New(t.TempDir())
	if got := defaultOutput(empty, in, at); got != "boardbench-monitor-Rockchip-RK3588-20250304-050607.json" {
		t.Errorf("with SoC: %q", got)
	}
	if got := defaultOutput(empty, &inventory.Info{}, at); got != "boardbench-monitor-machine-20250304-050607.json" {
		t.Errorf("with nothing: %q", got)
	}
}

func TestQuoteArgs(t *testing.T) {
	cases := []struct {
		in   []string
		want string
	}{
		{[]string{"7zz", "b", "-mmt1"}, "7zz b -mmt1"},
		{[]string{"sh", "-c", "echo hi; exit 3"}, `sh -c 'echo hi; exit 3'`},
		{[]string{"echo", "it's", ""}, `echo 'it'\''s' ''`},
	}
	for _, c := range cases {
		if got := quoteArgs(c.in); got != c.want {
			t.Errorf("quoteArgs(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestSampleLoopStopsOnWriteError(t *testing.T) {
	h := fixtureHost(t)
	m := monitor.New(h, monitor.Config{Interval: 100 * time.Millisecond})
	calls := 0
	err := sampleLoop(context.Background(), m, 0, func(monitor.Sample) error {
		calls++
		return errors.New("broken pipe")
	})
	if err == nil || calls != 1 {
		t.Errorf("err %v after %d calls, want the write error after 1", err, calls)
	}
}

func fixtureHost(t *testing.T) *host.Host {
	t.Helper()
	h, err := host.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return h
}
