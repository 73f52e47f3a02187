package run

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"boardbench/internal/benchrun"
	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/result"
	"boardbench/internal/testutil/need"
	"boardbench/internal/tune"
)

func execute(t *testing.T, args ...string) (stdout, stderr *bytes.Buffer, err error) {
	t.Helper()
	ios, stdout, stderr := iostreams.Test()
	cmd := NewCmd(cmdutil.NewFactory(ios), nil)
	cmd.SetFlagErrorFunc(cmdutil.FlagErrorFunc) // as under the root command
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	return stdout, stderr, cmd.Execute()
}

func TestBadFlags(t *testing.T) {
	tests := []struct {
		args     []string
		wantCode int
		wantMsg  string
	}{
		{[]string{"--idle-timeout", "-5s"}, 2, "--idle-timeout"},
		{[]string{"--root", "/tmp"}, 2, "unknown flag"},
		{[]string{"extra"}, 2, "unknown command"},
		{[]string{"--workloads", "hpl,bogus"}, 2, `unknown workload "bogus"`},
		{[]string{"--workloads", "zstd,gzip"}, 2, `unknown workload "gzip"`},
		{[]string{"--workloads", "llama"}, 2, "needs --model FILE"},
		{[]string{"--model", "m.gguf"}, 2, "--model is for --workloads llama"},
		{[]string{"--workloads", "llama", "--model", "/nonexistent/m.gguf"}, 2, "no such file"},
		{[]string{"--workloads", "llama", "--model", "/"}, 2, "not a regular file"},
	}
	for _, tt := range tests {
		_, _, err := execute(t, tt.args...)
		if err == nil || cmdutil.ExitCode(err) != tt.wantCode || !strings.Contains(err.Error(), tt.wantMsg) {
			t.Errorf("run %v: %v (exit %d), want exit %d with %q", tt.args, err, cmdutil.ExitCode(err), tt.wantCode, tt.wantMsg)
		}
	}
}

// TestQuickRunWithRealTools runs `boardbench run --quick` on this machine
// with the real 7-Zip and openssl (about 35 s on a 2-core VM). It checks
// the result file's structure and that every headline figure is there and
// positive, never how fast the machine is.
func TestQuickRunWithRealTools(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real benchmarks for about 35 s; skipped with -short")
	}
	// The test's own state directory and tuning lock: a live tuning run
	// of another test package must not make this one refuse as busy.
	t.Setenv(tune.StateDirEnv, t.TempDir())
	sevenZip := ""
	for _, name := range []string{"7zz", "7z", "7za", "7zr"} {
		if _, err := exec.LookPath(name); err == nil {
			sevenZip = name
			break
		}
	}
	if _, err := exec.LookPath("openssl"); err != nil || sevenZip == "" {
		need.Missing(t, "needs 7-Zip (7zz, 7z, 7za or 7zr) and openssl on PATH; not found here")
	}
	if _, err := exec.LookPath("zstd"); err != nil {
		need.Missing(t, "needs zstd on PATH for the zstd workload; not found here")
	}
	out := filepath.Join(t.TempDir(), "quick.json")
	// With the cheap workloads: zstd and openssl without the CPU's crypto
	// extensions (OPENSSL_armcap / OPENSSL_ia32cap), with the real tools.
	stdout, stderr, runErr := execute(t, "--quick", "--force", "--no-install", "--output", out, "--workloads", "zstd,armcap")
	r, err := result.Load(out)
	if err != nil {
		t.Fatalf("%v (run: %v)\nstderr:\n%s", err, runErr, stderr)
	}
	// The exit status follows the verdict: 3 for a result that is not
	// valid (a busy machine, or the rules of quick mode), else 0.
	if want := map[bool]int{true: 0, false: 3}[r.Summary.Valid]; cmdutil.ExitCode(runErr) != want {
		t.Errorf("run: %v (exit %d), want exit %d for verdict %q\nstderr:\n%s", runErr, cmdutil.ExitCode(runErr), want, r.Summary.Verdict, stderr)
	}
	if r.Status != result.StatusComplete || r.Command != "run" || r.Info == nil || r.FinishedAt == nil {
		t.Errorf("status %q command %q", r.Status, r.Command)
	}
	if q, _ := r.Options["quick"].(bool); !q {
		t.Errorf("options %v lack quick=true", r.Options)
	}
	seen := map[string]bool{}
	for _, p := range r.Phases {
		seen[p.Name] = true
		if p.Status != result.PhaseOK {
			t.Errorf("phase %s: %s %s", p.Name, p.Status, p.Reason)
		}
		if len(p.Figures) == 0 || len(p.Samples) == 0 || p.EndedAt == nil {
			t.Errorf("phase %s lacks figures or samples", p.Name)
		}
	}
	for _, name := range []string{"clock", "memory", "openssl", "7zip-single", "7zip-multi", "clock-after-load", "zstd", "armcap"} {
		if !seen[name] {
			t.Errorf("no %s phase", name)
		}
	}
	if want := map[bool]string{true: "verdict", false: "NOT VALID"}[r.Summary.Valid]; !strings.Contains(stdout.String(), want) {
		t.Errorf("stdout lacks the verdict (%q):\n%s", want, stdout)
	}
	s := r.Summary
	// Each figure is measured: it is a headline figure, or (on a machine
	// where other work took the CPU, as CI machines are) it is kept in
	// excluded_figures with the reason, and the result is not valid.
	excluded := map[string]bool{}
	for _, e := range s.Excluded {
		excluded[e.Figure] = true
		if !(e.Measured > 0) || e.Reason == "" {
			t.Errorf("excluded figure %+v", e)
		}
	}
	positive := func(name string, vs []result.Value) {
		t.Helper()
		if len(vs) == 0 && !excluded[name] {
			t.Errorf("summary has no %s, and none was excluded", name)
		}
		for _, v := range vs {
			if !(v.Value > 0) {
				t.Errorf("%s = %+v", name, v)
			}
		}
	}
	// On a busy machine every clock sample may be disturbed: the clock is
	// then set apart, not a figure, and a finding says so.
	if len(s.ClockAllDisturbed) > 0 {
		found := false
		for _, f := range r.Findings {
			found = found || f.ID == "clock_disturbed"
		}
		if !found {
			t.Errorf("clock samples all disturbed (%v) without a clock_disturbed finding", s.ClockAllDisturbed)
		}
	} else {
		positive("clock_mhz", s.ClockMHz)
	}
	positive("sevenzip_single_mips", s.SevenZipSingleMIPS)
	positive("aes256_16k", s.AES256At16K)
	positive("memcpy_mb_s", s.MemcpyMBs)
	positive("memset_mb_s", s.MemsetMBs)
	// The workloads: figures in summary.workloads, unless other tasks
	// disturbed the phase (then a warning, and the figures stay in it).
	w := s.Workloads
	if w == nil {
		w = &result.Workloads{}
	}
	disturbed := map[string]bool{}
	for _, p := range r.Phases {
		disturbed[p.Name] = disturbed[p.Name] || p.IsDisturbed()
	}
	if z := w.Zstd; z == nil && !disturbed["zstd"] || z != nil && (z.MBs == nil || !(*z.MBs > 0) || z.Ratio == nil || !(*z.Ratio > 1) || z.Version == "") {
		t.Errorf("zstd workload %+v (disturbed %v)", z, disturbed["zstd"])
	}
	if len(w.Armcap) == 0 && !disturbed["armcap"] {
		t.Errorf("no armcap workload figures, and the phase was not disturbed")
	}
	for _, a := range w.Armcap {
		if a.CPUInfoWithout != "" && !strings.Contains(a.CPUInfoWithout, "env:") {
			t.Errorf("openssl's capability vector with the variable does not show it: %q", a.CPUInfoWithout)
		}
		if a.Variable == "" || len(a.Ratios) != 1 || a.Ratios[0].Ratio == nil || !(*a.Ratios[0].Ratio > 0) {
			t.Errorf("armcap workload %+v", a)
		}
	}
	if !strings.Contains(stdout.String(), "zstd") || !strings.Contains(stdout.String(), "OPENSSL_") {
		t.Errorf("text report does not show the workloads:\n%s", stdout)
	}
	if len(s.SevenZipMultiRuns) != 1 || (s.SevenZipMultiMIPS == nil) != excluded["sevenzip_multi_mips"] ||
		(s.SevenZipMultiMIPS != nil && !(*s.SevenZipMultiMIPS > 0)) {
		t.Errorf("7-Zip multi %v runs %v, excluded %v", s.SevenZipMultiMIPS, s.SevenZipMultiRuns, excluded)
	}
	// Quick is a mode, judged by the same rules: the result says so, and
	// no finding is about being quick.
	if !r.Quick {
		t.Error("a --quick result does not say it is quick")
	}
	for _, f := range r.Findings {
		if f.ID == "quick_mode" {
			t.Errorf("quick mode is a finding: %+v", f)
		}
	}
	if lost := s.LostFigures(); len(lost) > 0 && (s.Valid || !strings.Contains(s.Verdict, "disturbed_figures")) {
		t.Errorf("figures lost (%+v) but verdict %v %q", lost, s.Valid, s.Verdict)
	}
	var figs result.SevenZipFigures
	for _, p := range r.Phases {
		if p.Name == "7zip-multi" {
			if err := json.Unmarshal(p.Figures, &figs); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !strings.Contains(strings.Join(figs.Args, " "), "-md18") || figs.Version == "" {
		t.Errorf("7-Zip figures %+v", figs)
	}
	if !strings.Contains(stdout.String(), "quick (smaller sizes, fewer passes)") {
		t.Errorf("text report does not say it is a quick result:\n%s", stdout)
	}
}

// TestRefusesWithLeftoverState: a state file left by a killed process
// stops run (exit 1, naming `boardbench restore`) unless --force is given.
func TestRefusesWithLeftoverState(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(tune.StateDirEnv, dir)
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Skip(err)
	}
	data, _ := json.Marshal(map[string]any{"version": tune.StateFileVersion, "pid": c.Process.Pid, "root": "/",
		"command": []string{"boardbench", "run"}, "saved": map[string]any{"policies": []any{}}})
	if err := os.WriteFile(filepath.Join(dir, "tune-"+strconv.Itoa(c.Process.Pid)+".json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err := execute(t)
	if err == nil || cmdutil.ExitCode(err) != 1 || !strings.Contains(err.Error(), "run `boardbench restore` first, or pass --force") {
		t.Errorf("run with a leftover state file: %v (exit %d)", err, cmdutil.ExitCode(err))
	}
	// --force goes on (to the bad --idle-timeout here) after one line.
	_, stderr, err := execute(t, "--force", "--idle-timeout", "-5s")
	if cmdutil.ExitCode(err) != 2 || !strings.Contains(stderr.String(), "going on because of --force") || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("run --force: %v, stderr %q", err, stderr)
	}
}

// TestNewCmdOptions checks the flags land in Options, through runF,
// without measuring anything.
func TestNewCmdOptions(t *testing.T) {
	tests := []struct {
		args []string
		want func(o *Options) bool
		what string
	}{
		{nil, func(o *Options) bool {
			return o.Bench.IdleTimeout == benchrun.DefaultIdleTimeout && !o.Bench.Quick && !o.JSON && !o.Wait && o.Push == ""
		}, "defaults"},
		{[]string{"--quick", "--force", "--no-install", "-o", "r.json", "--idle-timeout", "0", "--json", "--wait"}, func(o *Options) bool {
			b := o.Bench
			return b.Quick && b.Force && b.NoInstall && b.Output == "r.json" && b.IdleTimeout == 0 && o.JSON && o.Wait
		}, "quick run"},
		{[]string{"--extensive", "--opps", "--push", "https://lab.example", "--token-file", "tok"}, func(o *Options) bool {
			return o.Bench.Extensive && o.Bench.OPPs && o.Push == "https://lab.example" && o.TokenFile == "tok"
		}, "extensive run with a push"},
	}
	for _, tt := range tests {
		ios, _, _ := iostreams.Test()
		var got *Options
		cmd := NewCmd(cmdutil.NewFactory(ios), func(o *Options) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%s %q: %v", tt.what, tt.args, err)
		}
		if got == nil || got.Factory == nil || !tt.want(got) {
			t.Errorf("%s %q: options %+v", tt.what, tt.args, got)
		}
	}
}
