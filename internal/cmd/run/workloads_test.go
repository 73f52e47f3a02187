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
// on this machine with Debian's hpcc and OpenSSH: both phases run under
// the monitor, record their tools and figures, and reach the summary, the
// text report and nothing of the throwaway sshd is left. It checks
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
	stdout, stderr, runErr := execute(t, "--quick", "--force", "--no-install", "--workloads", "hpl,ssh", "--output", out)
	r, err := result.Load(out)
	if err != nil {
		t.Fatalf("%v (run: %v)\nstderr:\n%s", err, runErr, stderr)
	}
	var hp result.HPLFigures
	var ss result.SSHFigures
	for _, p := range r.Phases {
		switch p.Name {
		case result.PhaseHPL:
			if p.Status != result.PhaseOK || json.Unmarshal(p.Figures, &hp) != nil || len(p.Samples) == 0 || p.Judgement == nil {
				t.Errorf("hpl phase: %s %s, %d samples\n%s", p.Status, p.Reason, len(p.Samples), p.RawOutput)
			}
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
	w := r.Summary.Workloads
	if w == nil || w.HPL == nil || w.SSH == nil || *w.HPL.Gflops != *hp.Gflops || w.HPL.GflopsPerW != nil || len(w.SSH.MBs) != len(ss.Ciphers) {
		t.Errorf("summary workloads = %+v", w)
	}
	tools := map[string]result.ToolVersion{}
	for _, tv := range r.Tools {
		tools[tv.Name] = tv
	}
	if tools[hp.Tool].Version != hp.Version || tools["ssh"].Version != ss.Version {
		t.Errorf("tools = %+v", r.Tools)
	}
	text := stdout.String()
	for _, want := range []string{"HPL through " + hp.Tool, "Gflops/W unknown (no power source)", "ssh " + ss.Version + " to a throwaway sshd", ss.Ciphers[0].Cipher} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	after, _ := filepath.Glob(filepath.Join(os.TempDir(), "boardbench-sshd-*"))
	if len(after) > len(before) {
		t.Errorf("throwaway sshd directories left: %v (before %v)", after, before)
	}
}
