package run

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/benchtool/hpl"
	"boardbench/internal/benchtool/sshcipher"
	"boardbench/internal/result"
	"boardbench/internal/testutil/need"
	"boardbench/internal/tune"
)

// TestQuickRunWorkloads runs `boardbench run --quick --workloads hpl,ssh`
// on this machine with Debian's hpcc and OpenSSH, with a power source that
// always reads 5 W: both phases run under the monitor, record their tools
// and figures, and reach the summary (Gflops/W from the phase's power) and
// the text report, and nothing of the throwaway sshd is left. It checks
// structure and signs, never speed.
func TestQuickRunWorkloads(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real benchmarks for a few minutes; skipped with -short")
	}
	t.Setenv(tune.StateDirEnv, t.TempDir())
	if _, err := hpl.Find(exec.LookPath); err != nil {
		need.Missing(t, "%v", err)
	}
	if _, err := sshcipher.FindTools(); err != nil {
		need.Missing(t, "%v", err)
	}
	if _, err := exec.LookPath("openssl"); err != nil {
		need.Missing(t, "openssl not on PATH")
	}
	before, _ := filepath.Glob(filepath.Join(os.TempDir(), "boardbench-sshd-*"))
	out := filepath.Join(t.TempDir(), "w.json")
	stdout, stderr, runErr := execute(t, "--quick", "--force", "--no-install", "--workloads", "hpl,ssh", "--output", out,
		"--power", "cmd:sh -c 'while :; do echo 5; sleep 0.2; done'", "--idle-baseline", "0")
	r, err := result.Load(out)
	if err != nil {
		t.Fatalf("%v (run: %v)\nstderr:\n%s", err, runErr, stderr)
	}
	var hp result.HPLFigures
	var ss result.SSHFigures
	var hplPower *float64
	disturbed := map[string]bool{}
	for _, p := range r.Phases {
		disturbed[p.Name] = disturbed[p.Name] || p.IsDisturbed()
		switch p.Name {
		case result.PhaseHPL:
			if p.Status != result.PhaseOK || json.Unmarshal(p.Figures, &hp) != nil || len(p.Samples) == 0 || p.Judgement == nil {
				t.Errorf("hpl phase: %s %s, %d samples\n%s", p.Status, p.Reason, len(p.Samples), p.RawOutput)
			}
			hplPower = p.PowerW
		case result.PhaseSSHCiphers:
			if p.Status != result.PhaseOK || json.Unmarshal(p.Figures, &ss) != nil || len(p.Samples) == 0 || p.Judgement == nil {
				t.Errorf("ssh-ciphers phase: %s %s\n%s", p.Status, p.Reason, p.RawOutput)
			}
		}
	}
	if hp.Gflops == nil || !(*hp.Gflops > 0) || hp.N != hpl.QuickN || hp.Version == "" || hp.ResidualFailed || len(hp.Runs) != 1 || hp.Runs[0].Check != "PASSED" {
		t.Errorf("hpl figures = %+v", hp)
	}
	if len(ss.Ciphers) == 0 || ss.Bytes != sshcipher.QuickBytes || ss.Version == "" {
		t.Errorf("ssh figures = %+v", ss)
	}
	for _, c := range ss.Ciphers {
		if c.MBs == nil || !(*c.MBs > 0) || c.Error != "" {
			t.Errorf("cipher %+v", c)
		}
	}
	// Each workload figure is a headline figure or, on a machine where
	// other work took the CPU (as CI machines are), its phase is disturbed:
	// then it stays in the phase only, with a warning, and costs the
	// standard figures nothing (the workloads are secondary).
	for _, f := range r.Findings {
		if f.ID == "disturbed_figures" {
			for _, ph := range f.Phases {
				if ph == result.PhaseHPL || ph == result.PhaseSSHCiphers {
					t.Errorf("a disturbed workload invalidates: %+v", f)
				}
			}
		}
	}
	for _, e := range r.Summary.Excluded {
		if e.Phase == result.PhaseHPL || e.Phase == result.PhaseSSHCiphers {
			t.Errorf("workload figure excluded from the headline: %+v", e)
		}
	}
	w := r.Summary.Workloads
	if w == nil {
		w = &result.Workloads{}
	}
	if hplPower == nil || *hplPower != 5 {
		t.Errorf("hpl phase power %v W, want 5", hplPower)
	}
	switch {
	case w.HPL != nil:
		if *w.HPL.Gflops != *hp.Gflops || w.HPL.GflopsPerW == nil || *w.HPL.GflopsPerW != *hp.Gflops/5 {
			t.Errorf("hpl headline %+v, Gflops %v", w.HPL, *hp.Gflops)
		}
	case !disturbed[result.PhaseHPL]:
		t.Errorf("hpl: no headline, and the phase was not disturbed")
	}
	for _, c := range ss.Ciphers {
		if w.SSH != nil {
			if v := w.SSH.MBs[c.Cipher]; v == nil || *v != *c.MBs {
				t.Errorf("ssh headline %v for %+v", v, c)
			}
		} else if !disturbed[result.PhaseSSHCiphers] {
			t.Errorf("ssh %s: no headline, and the phase was not disturbed", c.Cipher)
		}
	}
	tools := map[string]result.ToolVersion{}
	for _, tv := range r.Tools {
		tools[tv.Name] = tv
	}
	if tools[hp.Tool].Version != hp.Version || tools["ssh"].Version != ss.Version {
		t.Errorf("tools = %+v", r.Tools)
	}
	text := stdout.String()
	wants := []string{"HPL through " + hp.Tool, "Gflops/W at 5.00 W", "ssh " + ss.Version + " to a throwaway sshd", ss.Ciphers[0].Cipher}
	if w.HPL != nil {
		wants = append(wants, "  HPL:")
	}
	if w.SSH != nil {
		wants = append(wants, "  ssh ciphers:")
	}
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	after, _ := filepath.Glob(filepath.Join(os.TempDir(), "boardbench-sshd-*"))
	if len(after) > len(before) {
		t.Errorf("throwaway sshd directories left: %v (before %v)", after, before)
	}
}
