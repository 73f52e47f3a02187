package benchrun

import (
	"boardbench/internal/interrupt"
	"boardbench/internal/session"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"boardbench/internal/finding"
	"boardbench/internal/host"
	"boardbench/internal/memmeasure"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
)

func phaseNames(r *result.Result) []string {
	var out []string
	for _, p := range r.Phases {
		out = append(out, p.Name+":"+p.Status)
	}
	return out
}

func hasFinding(r *result.Result, id string) *finding.Finding {
	for i := range r.Findings {
		if r.Findings[i].ID == id {
			return &r.Findings[i]
		}
	}
	return nil
}

// TestRunCompleteOnFixture runs the whole orchestration on a big.LITTLE
// fixture with fake benchmarks: every phase per core type, the summary,
// tuning applied and restored, and the result file on disk.
func TestRunCompleteOnFixture(t *testing.T) {
	root := bigLittle(t)
	before := fixture.Snapshot(t, root)
	runs := []int{5000, 4900, 4700}
	ex := &fakeExec{sevenZip: func(n int) int {
		if n <= 2 { // single-threaded, one per core type
			return 1000 * n
		}
		return runs[n-3]
	}}
	cfg := fixtureConfig(t, root, ex)
	var tuned map[string]string
	cfg.Memory = func(ctx context.Context, h *host.Host, cpu int, core string, plan memmeasure.Plan) (result.MemFigures, error) {
		if tuned == nil {
			tuned = fixture.Snapshot(t, root)
		}
		return fakeMemory(ctx, h, cpu, core, plan)
	}
	var progress bytes.Buffer
	cfg.Progress = &progress
	out := filepath.Join(t.TempDir(), "r.json")
	o, err := Run(context.Background(), cfg, Options{Output: out, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	// Piped progress: plain lines, one per phase, its steps and its end.
	for _, line := range []string{"[1/9] Clock of one CPU per cluster", "[9/9] Clock of one CPU per cluster right after the heaviest load",
		"      aes-192-cbc (2 of 3)", "      run 3 of 3", "      done in "} {
		if !strings.Contains(progress.String(), line) {
			t.Errorf("progress lacks %q:\n%s", line, progress.String())
		}
	}
	if strings.Contains(progress.String(), "\r") {
		t.Error("carriage returns in piped progress")
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"clock:ok", "memory:ok", "memory:ok", "openssl:ok", "openssl:ok", "7zip-single:ok", "7zip-single:ok", "7zip-multi:ok", "clock-after-load:ok"}
	if got := phaseNames(r); !reflect.DeepEqual(got, want) {
		t.Fatalf("phases %v, want %v", got, want)
	}
	if r.Status != result.StatusComplete || o.Result.Status != result.StatusComplete || r.FinishedAt == nil {
		t.Errorf("status %q", r.Status)
	}
	s := r.Summary
	if s.SevenZipMultiMIPS == nil || *s.SevenZipMultiMIPS != 4866.7 || !reflect.DeepEqual(s.SevenZipMultiRuns, []float64{5000, 4900, 4700}) {
		t.Errorf("7-Zip multi %v runs %v", s.SevenZipMultiMIPS, s.SevenZipMultiRuns)
	}
	wantSingle := []result.Value{{CPU: 0, Core: "Cortex-A55 / r2p0", Value: 1000}, {CPU: 4, Core: "Cortex-A76 / r2p0", Value: 2000}}
	if !reflect.DeepEqual(s.SevenZipSingleMIPS, wantSingle) {
		t.Errorf("7-Zip single %+v", s.SevenZipSingleMIPS)
	}
	if len(s.AES256At16K) != 2 || s.AES256At16K[0].Value != 100000 || s.AES256At16K[1].Value != 250000 {
		t.Errorf("AES %+v", s.AES256At16K)
	}
	if len(s.ClockMHz) != 2 || s.ClockMHz[1].Value != 2376 || len(s.MemcpyMBs) != 2 || s.MemsetMBs[1].Value != 12000 {
		t.Errorf("clock %+v memcpy %+v memset %+v", s.ClockMHz, s.MemcpyMBs, s.MemsetMBs)
	}
	// Governors and the memory devfreq device were at performance while
	// measuring, and are back now.
	for _, f := range []string{"/sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "/sys/devices/system/cpu/cpufreq/policy4/scaling_governor", "/sys/class/devfreq/dmc/governor"} {
		if tuned[f] != "performance" {
			t.Errorf("%s during the run = %q", f, tuned[f])
		}
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("fixture not restored:\n%v\nwant\n%v", after, before)
	}
	if !r.Tuning.Restored || len(r.Tuning.Changed) != 3 {
		t.Errorf("tuning %+v", r.Tuning)
	}
	// Validation: the falling scores (-6%) and the comparability of 7-Zip.
	if hasFinding(r, "falling_scores") == nil || hasFinding(r, "sevenzip_version") == nil || hasFinding(r, "idle_gate_skipped") == nil {
		t.Errorf("findings %+v", r.Findings)
	}
	if !r.Summary.Valid || !strings.Contains(r.Summary.Verdict, "falling_scores") {
		t.Errorf("verdict %v %q", r.Summary.Valid, r.Summary.Verdict)
	}
	// Single-threaded phases are pinned to one CPU per core type.
	var cpus [][]int
	for _, c := range ex.calls {
		cpus = append(cpus, c.CPUs)
	}
	if !reflect.DeepEqual(cpus[:6], [][]int{{0}, {0}, {0}, {4}, {4}, {4}}) || !reflect.DeepEqual(cpus[8], []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("CPUs of the calls: %v", cpus)
	}
	var figs result.SevenZipFigures
	if err := json.Unmarshal(r.Phases[7].Figures, &figs); err != nil || figs.DriftPct == nil || *figs.DriftPct != -6 || figs.Threads != 6 {
		t.Errorf("multi figures %+v (%v)", figs, err)
	}
}

// TestRunInterruptedRestoresAndKeepsPhases cancels the run while the first
// 7-Zip benchmark runs: the tunables must be back, the file must say
// "interrupted" and keep the finished phases.
func TestRunInterruptedRestoresAndKeepsPhases(t *testing.T) {
	root := bigLittle(t)
	before := fixture.Snapshot(t, root)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ex := &fakeExec{}
	var during map[string]string
	ex.hook = func(hctx context.Context, n int, c proc.Command) (proc.Result, error, bool) {
		if !strings.Contains(c.Name, "7z") {
			return proc.Result{}, nil, false
		}
		during = fixture.Snapshot(t, root)
		cancel() // Ctrl-C while 7-Zip runs: the runner kills it
		<-hctx.Done()
		return proc.Result{Exit: proc.Exit{Code: 137, Signal: "SIGKILL"}}, hctx.Err(), true
	}
	cfg := fixtureConfig(t, root, ex)
	out := filepath.Join(t.TempDir(), "r.json")
	o, err := Run(ctx, cfg, Options{Output: out, Force: true})
	var ie *interrupt.Error
	if !errors.As(err, &ie) || o == nil {
		t.Fatalf("Run = %v, want an interruption", err)
	}
	if during["/sys/devices/system/cpu/cpufreq/policy4/scaling_governor"] != "performance" {
		t.Errorf("governor while 7-Zip ran: %q", during["/sys/devices/system/cpu/cpufreq/policy4/scaling_governor"])
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("fixture not restored after the interruption:\n%v\nwant\n%v", after, before)
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"clock:ok", "memory:ok", "memory:ok", "openssl:ok", "openssl:ok", "7zip-single:interrupted"}
	if got := phaseNames(r); !reflect.DeepEqual(got, want) {
		t.Errorf("phases %v, want %v", got, want)
	}
	if r.Status != result.StatusInterrupted || !r.Tuning.Restored || !strings.HasPrefix(r.Summary.Verdict, "interrupted") {
		t.Errorf("status %q restored %v verdict %q", r.Status, r.Tuning.Restored, r.Summary.Verdict)
	}
	if len(r.Summary.AES256At16K) != 2 || len(r.Summary.SevenZipSingleMIPS) != 0 {
		t.Errorf("summary of the finished phases: %+v", r.Summary)
	}
	if ex.count("7z") != 1 {
		t.Errorf("%d 7-Zip runs after the interruption", ex.count("7z"))
	}
}

// TestRunRecordsOOMKill: the kernel kills the second multi-threaded run.
func TestRunRecordsOOMKill(t *testing.T) {
	root := bigLittle(t)
	ex := &fakeExec{}
	ex.hook = func(ctx context.Context, n int, c proc.Command) (proc.Result, error, bool) {
		if strings.Contains(c.Name, "7z") && len(c.CPUs) == 6 && ex.nZip == 4 {
			return proc.Result{Exit: proc.Exit{Code: 137, Signal: "SIGKILL"}, Stdout: []byte("\n7-Zip (z) 26.02 (arm64)\n")}, errKilled, true
		}
		return proc.Result{}, nil, false
	}
	cfg := fixtureConfig(t, root, ex)
	out := filepath.Join(t.TempDir(), "r.json")
	// The result is not valid: the run ends with exit status 3.
	_, runErr := Run(context.Background(), cfg, Options{Output: out, Force: true})
	var nv *session.NotValidError
	if !errors.As(runErr, &nv) || nv.ExitCode() != 3 {
		t.Fatalf("Run = %v, want a result that is not valid (exit 3)", runErr)
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	multi := r.Phases[7]
	if multi.Name != result.PhaseSevenZipMulti || multi.Status != result.PhaseFailed || !strings.Contains(multi.Reason, "out-of-memory") {
		t.Fatalf("multi phase %s %s %q", multi.Name, multi.Status, multi.Reason)
	}
	if hasFinding(r, "oom_kill") == nil || r.Summary.Valid {
		t.Errorf("findings %+v valid %v", r.Findings, r.Summary.Valid)
	}
	if !reflect.DeepEqual(r.Summary.SevenZipMultiRuns, []float64{4000}) {
		t.Errorf("runs %v: the run before the kill must be kept", r.Summary.SevenZipMultiRuns)
	}
	if r.Phases[8].Name != result.PhaseClockAfterLoad || r.Phases[8].Status != result.PhaseOK {
		t.Errorf("the run must go on after the kill: %v", phaseNames(r))
	}
}

// TestRunPinningFailureAndMissingTool: cpu4 cannot be pinned (cpu5 is used
// instead) and openssl is missing (its phases are skipped with the hint).
func TestRunPinningFailureAndMissingTool(t *testing.T) {
	root := bigLittle(t)
	ex := &fakeExec{}
	cfg := fixtureConfig(t, root, ex)
	cfg.Pin = func(cpu int) error {
		if cpu == 4 {
			return errors.New("invalid argument (offline)")
		}
		return nil
	}
	cfg.FindTools = func(ctx context.Context, h *host.Host, allow bool) ToolSet {
		ts := fakeTools(ctx, h, allow)
		ts.OpenSSL, ts.OpenSSLMissing = nil, &ToolMissing{Reason: "not installed: installing packages was not allowed", Hint: "install it with: sudo apt-get install -y openssl"}
		return ts
	}
	no := false
	cfg.IsRoot = &no
	out := filepath.Join(t.TempDir(), "r.json")
	if _, err := Run(context.Background(), cfg, Options{Output: out, Force: true, NoInstall: true}); err != nil {
		t.Fatal(err)
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if p := r.Phases[3]; p.Name != result.PhaseOpenSSL || p.Status != result.PhaseSkipped || !strings.Contains(p.Reason, "apt-get install") {
		t.Errorf("openssl phase %+v", p)
	}
	f := hasFinding(r, "tool_missing")
	if f == nil || !strings.Contains(f.Advice, "apt-get") {
		t.Errorf("tool finding %+v", f)
	}
	if f := hasFinding(r, "pinning_failed"); f == nil || !strings.Contains(strings.Join(f.Evidence, " "), "cpu4") {
		t.Errorf("pinning finding %+v", f)
	}
	if !reflect.DeepEqual(r.Phases[6].CPUs, []int{5}) || !reflect.DeepEqual(r.Phases[7].CPUs, []int{0, 1, 2, 3, 5}) {
		t.Errorf("CPUs of 7-Zip phases: %v and %v", r.Phases[6].CPUs, r.Phases[7].CPUs)
	}
	if hasFinding(r, "not_tuned") == nil || hasFinding(r, "governor") == nil || r.Tuning.Note == "" {
		t.Errorf("non-root findings %+v tuning %+v", r.Findings, r.Tuning)
	}
}

// TestRunOPPWalk: --opps pins every OPP through the guard in the clock
// phase, then puts the run's tuning back (limits as saved, performance
// governor) before the next phases; the end restores everything.
func TestRunOPPWalk(t *testing.T) {
	root := bigLittle(t)
	before := fixture.Snapshot(t, root)
	ex := &fakeExec{}
	var during map[string]string
	ex.hook = func(ctx context.Context, n int, c proc.Command) (proc.Result, error, bool) {
		if n == 1 {
			during = fixture.Snapshot(t, root)
		}
		return proc.Result{}, nil, false
	}
	cfg := fixtureConfig(t, root, ex)
	out := filepath.Join(t.TempDir(), "r.json")
	if _, err := Run(context.Background(), cfg, Options{Output: out, Force: true, OPPs: true}); err != nil {
		t.Fatal(err)
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	var figs result.ClockFigures
	if err := json.Unmarshal(r.Phases[0].Figures, &figs); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range figs.Clusters {
		for _, o := range c.OPPs {
			got = append(got, jsonNum(o.RequestedMHz)+"="+jsonNum(*o.MeasuredMHz))
		}
	}
	want := []string{"1800=1782", "1008=997.9", "408=403.9", "2400=2376", "1008=997.9", "408=403.9"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("OPPs %v, want %v", got, want)
	}
	pol := "/sys/devices/system/cpu/cpufreq/policy4/"
	if during[pol+"scaling_max_freq"] != "2400000\n" || during[pol+"scaling_min_freq"] != "408000\n" || during[pol+"scaling_governor"] != "performance" {
		t.Errorf("after the walk: max %q min %q governor %q", during[pol+"scaling_max_freq"], during[pol+"scaling_min_freq"], during[pol+"scaling_governor"])
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("fixture not restored:\n%v\nwant\n%v", after, before)
	}
	if hasFinding(r, "opp_walk_skipped") != nil {
		t.Errorf("walk skipped: %+v", r.Findings)
	}
}

func jsonNum(v float64) string {
	b, _ := json.Marshal(v)
	return string(b)
}
