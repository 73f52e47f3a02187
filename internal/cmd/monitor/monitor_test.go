package monitor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/soc"
	"boardbench/internal/iostreams"
	"boardbench/internal/monitor"
	"boardbench/internal/monitorrun"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/testutil/wait"
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
// output, failing the test when it hangs (wait.HangGuard).
func execute(t *testing.T, ctx context.Context, args ...string) (err error, stdout, stderr string) {
	t.Helper()
	ios, out, errOut := iostreams.Test()
	err = executeOn(t, ctx, ios, args...)
	return err, out.String(), errOut.String()
}

// executeOn runs the command with args on the streams ios, failing the
// test when it hangs (wait.HangGuard, no speed limit).
func executeOn(t *testing.T, ctx context.Context, ios *iostreams.IOStreams, args ...string) (err error) {
	t.Helper()
	cmd := NewCmd(cmdutil.NewFactory(ios), nil)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetArgs(args)
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	select {
	case err = <-done:
	case <-time.After(wait.HangGuard):
		t.Fatalf("hung: boardbench monitor %s did not finish within %v", strings.Join(args, " "), wait.HangGuard)
	}
	return err
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
		{"--cpus", "0,,1", "--", "true"},
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
	for _, want := range []string{"Rockchip RK3588", "cpu4-5", "Cortex-A76", "policy4", "soc-thermal", "power:       none: no --power source and no power sensor exposed"} {
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
	// Ctrl-C once the live view has written (an event: a loaded machine
	// may take long to get there).
	ios, outBuf, _ := iostreams.Test()
	ios.Out = &onWrite{w: outBuf, f: cancel}
	err := executeOn(t, ctx, ios, "--root", root, "--interval", "0.1", "--json")
	out := outBuf.String()
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
	runErr := err
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
	if p.Name != result.PhaseCommand || p.Status != result.PhaseFailed || p.ExitStatus == nil || *p.ExitStatus != 3 {
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
	// How the command ended, the verdict and the result file are said once,
	// and boardbench's main does not repeat the status after them.
	for _, once := range []string{"exited with status 3", "Verdict: command failed (status 3)\n", "Result: " + path, "Findings:"} {
		if n := strings.Count(errOut, once); n != 1 {
			t.Errorf("stderr has %q %d times, want once:\n%s", once, n, errOut)
		}
	}
	if !cmdutil.AlreadyReported(runErr) {
		t.Errorf("the exit status error %v would be printed again after the summary", runErr)
	}
	if cmdutil.AlreadyReported(monitorrun.StartError("x", exec.ErrNotFound)) {
		t.Error("a command that was not found would not be reported")
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
	if !cmdutil.AlreadyReported(err) {
		t.Errorf("%v would be printed again after the summary", err)
	}
	r, err := result.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if reason := r.Phases[0].Reason; !strings.HasSuffix(reason, "; the command's process group was stopped (SIGTERM)") || strings.Count(reason, "stopped") != 1 {
		t.Errorf("reason %q", reason)
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

func TestDefaultOutput(t *testing.T) {
	h := fixture.Host(t, map[string]string{"/proc/sys/kernel/hostname": "my board/1\n"})
	at := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	in := &inventory.Info{SoC: soc.SoC{Guess: "Rockchip RK3588"}}
	if got := defaultOutput(h, in, at); got != "boardbench-monitor-my-board-1-20250304-050607.json" {
		t.Errorf("with host name: %q", got)
	}
	empty := fixture.Host(t, nil)
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
	h := fixture.Host(t, nil)
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

// onWrite passes writes to w and calls f after the first one.
type onWrite struct {
	w    io.Writer
	f    func()
	once sync.Once
}

func (o *onWrite) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	o.once.Do(o.f)
	return n, err
}

// TestNewCmdOptions: the flags and the command after "--" reach the run
// function as Options, without monitoring anything.
func TestNewCmdOptions(t *testing.T) {
	tests := []struct {
		args         []string
		wantInterval time.Duration
		wantArgv     []string
		wantCPUs     string
		wantCount    int
	}{
		{nil, 2 * time.Second, nil, "", 0},
		{[]string{"--interval", "0.5", "--count", "3"}, 500 * time.Millisecond, nil, "", 3},
		{[]string{"--cpus", "4", "--", "7zz", "b", "-mmt1"}, 2 * time.Second, []string{"7zz", "b", "-mmt1"}, "4", 0},
	}
	for _, tt := range tests {
		ios, _, _ := iostreams.Test()
		var got *Options
		cmd := NewCmd(cmdutil.NewFactory(ios), func(o *Options) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if got.Interval != tt.wantInterval || !slices.Equal(got.Argv, tt.wantArgv) || got.CPUs != tt.wantCPUs || got.Count != tt.wantCount {
			t.Errorf("%q: options %+v", tt.args, got)
		}
	}
}
